// core/src/scan.cpp: (placeholder, filled in by the op-surface work)
