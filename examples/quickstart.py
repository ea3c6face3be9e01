"""A tour of Wick: tensors, views, broadcasting, reductions and the seed's addmv_.

Run it with `scripts/demo` (which builds first), or after a build:
    PYTHONPATH=build/python python3 examples/quickstart.py
"""
import wick


def show(label, value):
    print(f"{label}\n{value!r}\n")


# The seed example: a float tensor of ten ones, one element set through indexing.
x = wick.FloatTensor(10).fill_(1)
x[4] = 2
show("x = wick.FloatTensor(10).fill_(1); x[4] = 2", x)
print(f"x.sum().item() = {x.sum().item()}")
print(f"x.add_(1) is x: {x.add_(1) is x}  (in-place ops return the same Python object)\n")

# Tensors from data, with PyTorch's dtype inference and views that share storage.
m = wick.tensor([[1.0, 2.0], [3.0, 4.0]])
mt = m.t()
mt[0, 1] = 30  # writes through the view into m
show("m after writing through its transpose", m)
print(f"m.t() shares m's storage: {mt.data_ptr() == m.data_ptr()}\n")

# Broadcasting and type promotion follow PyTorch.
a = wick.arange(6, dtype=wick.int32).reshape(2, 3)
show("int32 matrix + a float row (promotes to float32)", a + wick.tensor([0.5, 1.5, 2.5]))
show("int32 matrix * 2 (a Python int keeps int32)", a * 2)
show("column sums, keepdim", a.sum(0, keepdim=True))
show("mean of a float matrix over dim 1", wick.mean(a.to(wick.float64), 1))

# addmv_: y = beta * y + alpha * (mat @ vec), in place.
mat = wick.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
vec = wick.tensor([1.0, 0.0, -1.0])
y = wick.ones(2)
y.addmv_(mat, vec, beta=2, alpha=0.5)
show("wick.ones(2).addmv_(mat, vec, beta=2, alpha=0.5)", y)
show("mat @ mat.t()", mat @ mat.t())

# Errors are ordinary Python exceptions that name the op and what it accepts.
for bad in (lambda: x.add("a"), lambda: x.view(3, 3), lambda: x[10]):
    try:
        bad()
    except (TypeError, RuntimeError, IndexError) as e:
        print(f"{type(e).__name__}: {e}\n")

print(f"CUDA available: {wick.cuda.is_available()}")
