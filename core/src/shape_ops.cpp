// core/src/shape_ops.cpp: (placeholder, filled in by the op-surface work)
