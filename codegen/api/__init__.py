"""How a declaration maps to names and types: C++ (cpp.py) and Python (python.py)."""
