"""tests/python/fuzz/fuzz_op_checks.py: calls of ops with a NumPy reference, on views, judged as the generated tests judge.

Run by test_fuzz_ops.py through fuzz_child.py; the judging is tests/python/opcheck.py's
(its tolerances included), applied to calls that fuzz_strategies.op_recipes draws.
"""
import numpy as np

import wick
from fuzz_views import build_view
from reference import NUMPY_DTYPE, assert_close, make, random_values, reference_dtype, root, to_numpy, wdtype


def warm_up():
    """Builds the table of ops once in the zygote (fuzz_child.Child), not in each worker."""
    import opcheck  # noqa: F401
    from fuzz_strategies import op_cases
    op_cases()


_FORM_LAYOUT = {"function": "contiguous", "method": "method", "inplace": "inplace", "out": "out"}


def _operands(recipe, domain):
    """{name: (tensor, values)}: each its own view, or all of them windows of one base along one dim,
    at their offsets (so that they overlap)."""
    if recipe["shared"] is None:
        return {name: build_view(view, domain) for name, view in recipe["tensors"].items()}
    dtype, shape, seed, d, offsets = recipe["shared"]
    base = make(random_values(dtype, shape, np.random.default_rng(seed), domain), dtype)
    values = to_numpy(base)
    width = shape[d] - max(offsets.values())
    key = lambda o: (slice(None),) * d + (slice(o, o + width),)  # noqa: E731
    return {name: (base[key(o)], values[key(o)].copy()) for name, o in offsets.items()}


def _overlaps(t, u):
    return root(t) is root(u)


def _torch_refuses(case, call):
    """Whether PyTorch refuses the call that the NumPy reference answered: where the two differ,
    wick follows PyTorch (a reference may be more lenient, as with a dim out of range of a 0-d tensor)."""
    import gc

    import opcheck
    import torch
    gc.freeze()  # imported now, in this worker: keep the collection after each case cheap
    fn = getattr(torch, case.name, None)
    if fn is None:
        return False
    args, kwargs = [], {}
    for p in call.sig:
        if p.name not in call.given:
            continue
        value = call.given[p.name]
        if isinstance(value, wick.Tensor):
            name = repr(value.dtype).split(".")[1]
            value = torch.from_numpy(np.array(to_numpy(value))).to(getattr(torch, name))
        elif isinstance(value, wick.dtype):
            value = getattr(torch, repr(value).split(".")[1])
        if p.kw or p.default is not opcheck.REQUIRED:
            kwargs[p.name] = value
        else:
            args.append(value)
    try:
        fn(*args, **kwargs)
    except (IndexError, ValueError, RuntimeError, TypeError):
        return True
    return False


def check_op(recipe):
    """One call of an op with a NumPy reference (fuzz_strategies.op_recipes), judged as the generated
    tests judge a sample (tests/python/opcheck.py): NumPy refusing means wick must refuse; else the
    result's dtype, shape and values, the fields of a named tuple, and inputs left as they were."""
    import opcheck
    from fuzz_strategies import op_cases

    case, _ = op_cases()[recipe["name"]]
    sig, dtype, form = case.signatures[recipe["sig"]], recipe["dtype"], recipe["form"]
    layout = _FORM_LAYOUT[form]
    compute = opcheck.compute_dtype(case, dtype)
    built = _operands(recipe, case.domain)
    call = opcheck.Call(sig, {}, {})
    for p in sig:
        if p.name in built:
            t, values = built[p.name]
            call.given[p.name], call.inputs[p.name] = t, (t, to_numpy(t))
            call.reference[p.name] = values.astype(reference_dtype(compute))
        elif p.name in recipe["values"]:
            value = recipe["values"][p.name]
            is_dtype = p.role == "dtype" and value is not None
            call.given[p.name] = wdtype(value) if is_dtype else value
            call.reference[p.name] = NUMPY_DTYPE[value] if is_dtype else value
        else:
            call.reference[p.name] = p.default
    dtype_args = [recipe["values"][p.name] for p in sig if p.role == "dtype" and recipe["values"].get(p.name)]
    call.result_half = dtype_args[0] if dtype_args else dtype
    if recipe["scalar_last"]:  # the last operand a Python number, which keeps the tensor's dtype
        last = [p for p in sig if p.role == "tensor"][-1].name
        number = 2 if dtype not in ("float16", "bfloat16", "float32", "float64") else 1.5
        call.given[last] = number
        call.reference[last] = np.asarray(number).astype(call.reference[last].dtype)  # broadcasts as the number
        del call.inputs[last]
    returns = case.returns[recipe["sig"]]
    try:
        refs = opcheck._reference(case, call, returns, dtype)
    except (ValueError, IndexError, TypeError, RuntimeError) as e:
        try:
            opcheck._invoke(case, call, layout)
        except (IndexError, ValueError, RuntimeError):
            return "refused"
        raise AssertionError(f"NumPy refused the call ({type(e).__name__}: {e}); wick did not") from None
    expected = [opcheck._expected_dtype(case, dtype, ref, call) for ref in refs]
    writes = case.mutates or form == "inplace"
    self_t = call.given.get("self")
    if writes and (expected[0] != dtype or refs[0].shape != tuple(self_t.shape)):
        try:
            opcheck._invoke(case, call, layout)
        except RuntimeError:
            return "refused"
        raise AssertionError(f"the result ({expected[0]}, {refs[0].shape}) does not fit self "
                             f"({dtype}, {tuple(self_t.shape)}), and wick wrote it anyway")
    # Written operands that overlap the others: PyTorch refuses; NumPy answers as if they were copied first.
    overlapping = writes and any(name != "self" and _overlaps(t, self_t) for name, (t, _) in call.inputs.items())
    out = None
    if form == "out":
        outs = [wick.empty(0, dtype=wdtype(e)) for e in expected]
        out = outs[0] if returns == "Tensor" else tuple(outs)
    try:
        result = opcheck._invoke(case, call, layout, out)
    except RuntimeError:
        if overlapping:
            return "refused"
        if _torch_refuses(case, call):
            return "refused, as PyTorch does"
        raise
    except (IndexError, ValueError, TypeError):
        if _torch_refuses(case, call):
            return "refused, as PyTorch does"
        raise
    parts = opcheck._parts(result, returns, len(refs))
    if writes:
        assert result is self_t, "an in-place form returns self"
    for i, (part, ref, want) in enumerate(zip(parts, refs, expected)):
        what = f"{returns[i]}: " if isinstance(returns, tuple) else ""
        assert part.dtype is wdtype(want), f"{what}{part.dtype} != {want}"
        assert tuple(part.shape) == ref.shape, f"{what}shape {tuple(part.shape)} != {ref.shape}"
        if isinstance(returns, tuple) and returns[i] == "indices" and "values" in returns:
            opcheck._check_indices(call, part, ref)
        else:
            assert_close(part, ref, want)
    for name, (t, values) in call.inputs.items():
        if not writes or (name != "self" and not _overlaps(t, self_t)):
            assert np.array_equal(to_numpy(t), values, equal_nan=values.dtype.kind == "f"), \
                f"the op wrote its input '{name}'"
    return "overlapping" if overlapping else "compared"
