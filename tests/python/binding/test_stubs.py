"""The type stubs shipped in the wick package (wick/*.pyi, py.typed), checked by mypy and against the runtime.

One mypy --strict run reads two programs: GOOD uses the API as it is meant to
be used and must type-check without an error (it also runs, so it is not wrong
in a way mypy cannot see); BAD has one misuse per line marked `# E`, and mypy
must report an error on exactly those lines. stubtest then compares the stubs
with the built module name for name.
"""
import os
import re
import runpy
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import wick

pytest.importorskip("mypy")

PACKAGE_PARENT = Path(wick.__file__).resolve().parents[1]  # build/python: where mypy finds wick

GOOD = textwrap.dedent("""\
    import io
    from typing import TYPE_CHECKING

    import wick

    x = wick.zeros(2, 3, dtype=wick.float64)
    y = wick.zeros((2, 3), device="cpu").to(wick.float64)
    z = wick.add(x, y, alpha=2)
    value = x.add_(1).sum().item()
    f = wick.FloatTensor(10).fill_(1)
    w = -x + 1 - 2 * x / y
    m = x @ wick.ones(3, 2, dtype=wick.float64)
    b = (x == y), (x != 2), (x < 1), (x > y)
    x[0] = 1
    x[0, 1:2] = y[0, 1:2]
    s = x[..., None, 0]
    picked = x[wick.tensor([0, 1])], x[x > 0], x[[0, 1], [1, 2]], x[(wick.tensor([1]), slice(None))], x[True]
    x[x > 5] = 0
    x[[1, 0]] = y[wick.tensor([0, 1]), :]
    n: int = len(x) + x.dim() + x.size(0) + x.shape[0] + x.ndim + x.numel()
    v = x.view(3, 2).view((6,)).reshape(2, 3).permute(1, 0).transpose(0, 1).t().expand(2, 3, 2)
    d: wick.dtype = x.dtype
    dev: wick.device = wick.device("cpu")
    x.to(wick.float32).to("cpu", wick.float64).to(y, copy=True).to(dev)
    legacy = wick.Tensor(2, 3), wick.Tensor([1, 2]), wick.LongTensor([1, 2]), wick.DoubleTensor(2, device="cpu")
    on_gpu: bool = wick.cuda.is_available() and wick.cuda.device_count() > 0
    r = wick.arange(5) + wick.arange(1, 11, 2, dtype=wick.int64)
    x += 1
    x -= y
    x *= 2
    x /= 2
    q = wick.tensor([[1, 2], [3, 4]], dtype=wick.float)
    nested = q.tolist()
    number: float = float(x.sum()) + int(x.sum())
    for row in x:
        row.abs_()
    wick.sum(x, (0, 1), keepdim=True).mean(dtype=wick.float64)
    assert x.T.contiguous().is_contiguous() and not x.is_cuda and x._base is None
    if on_gpu:
        x.cuda().cpu()
    wick.manual_seed(0)
    wick.mm(x, y.t(), out=wick.empty(2, 2, dtype=wick.float64))
    floating: bool = wick.float16.is_floating_point
    parts = wick.cat([x, y], dim=0).split(2) + x.chunk(2) + wick.unbind(x) + x.split([1, 2], 1)
    j = wick.stack((x, y)).div(2, rounding_mode="floor").sum() + wick.hstack(parts[:2]).sum()
    x.index_put_((wick.tensor([0]), None), wick.tensor(1.0, dtype=wick.float64), accumulate=True)
    close: bool = wick.allclose(x, y, rtol=0.1) and x.equal(y)
    shared = wick.as_tensor([1.0, 2.0], dtype=wick.float64).nan_to_num(posinf=1.0)
    saved = io.BytesIO()
    wick.save({"x": x, "steps": [1, 2]}, saved)
    saved.seek(0)
    restored = wick.load(saved, map_location={"cuda:0": "cpu"})
    with wick.no_grad(), wick.autograd.set_grad_enabled(False):
        frozen: bool = wick.is_grad_enabled() or wick.is_inference_mode_enabled()

    if TYPE_CHECKING:
        reveal_type(x.split(1))  # reveal: builtins.tuple[wick._tensor.Tensor, ...]
        reveal_type(x.add_(1))  # reveal: wick._tensor.Tensor
        reveal_type(f)  # reveal: wick._legacy.FloatTensor
        reveal_type(value)  # reveal: Union[builtins.int, builtins.float]
        reveal_type(x.size())  # reveal: wick._C.Size
        reveal_type(x == 1)  # reveal: wick._tensor.Tensor
        reveal_type(wick.half)  # reveal: wick._C.dtype
    """)

BAD = textwrap.dedent("""\
    import wick

    x = wick.zeros(2, 3)
    x.add("a")  # E
    wick.zeros("a")  # E
    x.transpose(0)  # E
    wick.float32 + 1  # E
    wick.zeros(2, device=wick.float32)  # E
    x.to(wick.device("cpu"), "float64")  # E
    x.view(2, "3")  # E
    x.sum(0, keepdim=1)  # E
    wick.no_such_function(x)  # E
    x.shape = (1,)  # E
    i: int = x.item()  # E
    wick.cuda.is_available(0)  # E
    x @ 1  # E
    wick.tensor([1], dtype="float32")  # E
    wick.TensorBase  # E
    wick.mm(x, x, out=1)  # E
    x[0] = wick.device("cpu")  # E
    x["a"]  # E
    x[0.5]  # E
    wick.cat(x)  # E
    wick.stack([1, 2])  # E
    x.div(2, rounding_mode=1)  # E
    wick.save_file({"x": x}, 1.5)  # E
    wick.load(x)  # E
    """)


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory):
    """{file name: {line: [message, ...]}} of one mypy --strict run over GOOD and BAD."""
    root = tmp_path_factory.mktemp("stubs")
    (root / "good.py").write_text(GOOD, encoding="utf-8")
    (root / "bad.py").write_text(BAD, encoding="utf-8")
    (root / "mypy.ini").write_text("[mypy]\nstrict = True\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull, "--config-file", "mypy.ini",
         "--no-error-summary", "good.py", "bad.py"],
        cwd=root, env={**os.environ, "MYPYPATH": str(PACKAGE_PARENT)}, capture_output=True, text=True, timeout=120)
    report = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"(?P<file>[^:]+):(?P<line>\d+): (?P<kind>error|note): (?P<text>.*)", line)
        assert m, f"unexpected mypy output: {line}\n{proc.stdout}{proc.stderr}"
        if m["kind"] == "error" or m["text"].startswith("Revealed type"):
            report.setdefault(m["file"], {}).setdefault(int(m["line"]), []).append(m["text"])
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return report


def _marked(program, marker):
    """{line number: text after `# <marker>`} for the lines of `program` that carry it."""
    return {i: line.split(f"# {marker}", 1)[1].strip(" :")
            for i, line in enumerate(program.splitlines(), 1) if f"# {marker}" in line}


def test_correct_program_type_checks(mypy_report):
    """GOOD passes mypy --strict (the stubs themselves included) with no error at all."""
    errors = {f: {n: t for n, t in lines.items() if not t[0].startswith("Revealed type")}
              for f, lines in mypy_report.items() if f != "bad.py"}
    assert {f: lines for f, lines in errors.items() if lines} == {}


def test_types_flow_through_calls(mypy_report):
    """In-place ops keep the receiver's class; results are wick.Tensor; numbers and sizes are typed."""
    revealed = {n: t[0] for n, t in mypy_report.get("good.py", {}).items()}
    assert revealed == {n: f'Revealed type is "{want}"' for n, want in _marked(GOOD, "reveal").items()}


def test_correct_program_runs(tmp_path, capsys):
    """GOOD is correct at runtime too."""
    path = tmp_path / "good.py"
    path.write_text(GOOD, encoding="utf-8")
    runpy.run_path(str(path), run_name="__main__")


def test_each_misuse_is_an_error(mypy_report):
    """mypy reports an error on every line of BAD marked `# E`, and on no other line."""
    assert sorted(mypy_report.get("bad.py", {})) == sorted(_marked(BAD, "E"))


def test_stubs_name_what_the_runtime_has():
    """stubtest finds nothing in the module that the stubs lack, nor the reverse. Other differences
    are expected: a text signature cannot say that x.view(2, 3) works, nor list overloads."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "wick", "--mypy-config-file", os.devnull],
        env={**os.environ, "MYPYPATH": str(PACKAGE_PARENT), "PYTHONPATH": str(PACKAGE_PARENT)},
        capture_output=True, text=True, timeout=120)
    missing = re.findall(r"^error: (\S+ is not present (?:in stub|at runtime))", proc.stdout, re.M)
    assert missing == [], ("add what is missing to codegen/templates/*.pyi.j2 (wick._C, the package) or to "
                           "python_ext/wick/*.pyi:\n" + "\n".join(missing))
