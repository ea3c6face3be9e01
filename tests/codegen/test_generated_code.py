"""tests/codegen/test_generated_code.py: what the model accepts must generate code that fits together.

These read the generated C++ for the real and golden declarations and for a few
shapes of declaration the golden set does not have. For those shapes either
answer is right: the model rejects the declaration with a located message, or
the generated code is consistent.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest

HERE = Path(__file__).parent
DECLARATION_SETS = {"real": HERE.parents[1] / "declarations", "golden": HERE / "golden" / "declarations"}

_DEFINITION = re.compile(r"^(?:const )?\w+&? (?P<name>\w+)\((?P<params>[^)]*)\) \{\n(?P<body>.*?)\n\}", re.M | re.S)
_POINTWISE_CALL = re.compile(r"detail::pointwise(_into)?\(\w+_pointwise, (\w+, OutMode::\w+, )?"
                             r"\{(?P<inputs>[^}]*)\}, \{(?P<scalars>[^}]*)\}\)")
# Calls of wick:: functions (unqualified, not methods) and of the halves of structured ops.
_CALL = re.compile(r"(?<![\w:.])(?P<fn>[a-z_]\w*)\(|\bdetail::(?P<half>\w+_(?:meta|impl))\(")
_LOCAL = re.compile(r"(?<![\w:])(?!return\b)[\w:<>]+ (?P<name>\w+)\(")  # a local built in place: Output out(...)
_PROTOTYPE = re.compile(r"^(?!//)\S[^\n(]* (?P<name>\w+)\(", re.M)


def _definitions(ops_cpp: str) -> Iterator[Tuple[str, Dict[str, str], str]]:
    """(name, {parameter: C++ type}, body) of every function the ops units define."""
    for m in _DEFINITION.finditer(ops_cpp):
        params = {}
        for p in filter(None, m["params"].split(", ")):
            ptype, pname = p.rsplit(" ", 1)
            params[pname] = ptype
        yield m["name"], params, m["body"]


def _read_shards(out: Path, pattern: str) -> str:
    """The generated files matching `pattern` (one per shard, Note [Shards]), one after the other."""
    return "".join(p.read_text(encoding="utf-8") for p in sorted(out.glob(pattern)))


def _ops_cpp(out: Path) -> str:
    return _read_shards(out, "core/ops_shard*.cpp")


def _generate(run_codegen, out: Path, decl_dir: Path) -> Optional[Path]:
    """Generates into `out`; None when the model rejected the declarations with a located message."""
    run = run_codegen("--declarations", str(decl_dir), "--out", str(out))
    if run.rc == 1:
        assert re.match(rf"{re.escape(str(decl_dir))}/\w+\.yaml:\d+:\d+: in '\w+': ", run.err), run.err
        return None
    assert run.rc == 0, run.err
    return out


def _misplaced_pointwise_arguments(ops_cpp: str) -> List[str]:
    problems = []
    for name, params, body in _definitions(ops_cpp):
        for call in _POINTWISE_CALL.finditer(body):
            # Operands are Tensors, or Scalars in the Scalar overloads (x + 2); constants are Scalars, ints
            # (round's decimals) that convert to one, or optional floats as nan_if_none makes them one.
            for group, wanted in (("inputs", ("const Tensor&", "const Scalar&")),
                                  ("scalars", ("const Scalar&", "int64_t", "nan_if_none"))):
                for arg in filter(None, call[group].split(", ")):
                    optional = re.fullmatch(r"detail::nan_if_none\((\w+)\)", arg)
                    kind = "nan_if_none" if optional and params.get(optional[1]) == "std::optional<double>" \
                        else params.get(arg)
                    if kind not in wanted:
                        problems.append(f"{name}({', '.join(f'{t} {n}' for n, t in params.items())}) "
                                        f"passes {arg} among the {group}")
    return problems


def _op_headers(out: Path) -> str:
    """The op headers of a generated tree, as one text; wick/ops.h includes each."""
    headers = sorted((out / "include" / "wick" / "ops").glob("*.h"))
    ops_h = (out / "include" / "wick" / "ops.h").read_text(encoding="utf-8")
    assert [f'#include "wick/ops/{h.name}"' for h in headers] == [line for line in ops_h.splitlines()
                                                                 if line.startswith("#include")]
    return "".join(h.read_text(encoding="utf-8") for h in headers)


def _undeclared_calls(ops_cpp: str, ops_h: str) -> List[str]:
    declared = set(_PROTOTYPE.findall(ops_h))
    return sorted({f"{name} calls {called}()" for name, _, body in _definitions(ops_cpp)
                   for called in (call["fn"] or call["half"] for call in _CALL.finditer(body))
                   if called not in declared and called not in _LOCAL.findall(body)})


@pytest.mark.parametrize("which", sorted(DECLARATION_SETS))
def test_pointwise_bodies_pass_tensors_and_scalars_apart(which, run_codegen, tmp_path) -> None:
    """In the ops units, detail::pointwise gets operands (Tensors or Scalars) as inputs and Scalars as constants."""
    out = _generate(run_codegen, tmp_path, DECLARATION_SETS[which])
    assert out is not None
    ops_cpp = _ops_cpp(out)
    assert _POINTWISE_CALL.search(ops_cpp), "no pointwise body found: has the emitted form changed?"
    assert _misplaced_pointwise_arguments(ops_cpp) == []


@pytest.mark.parametrize("which", sorted(DECLARATION_SETS))
def test_ops_cpp_calls_only_declared_functions(which, run_codegen, tmp_path) -> None:
    """Every wick function a body in the ops units calls is declared in an op header (wick/ops/<name>.h)."""
    out = _generate(run_codegen, tmp_path, DECLARATION_SETS[which])
    assert out is not None
    ops_cpp = _ops_cpp(out)
    ops_h = _op_headers(out)
    assert any(_CALL.search(body) for _, _, body in _definitions(ops_cpp)), "no call found: has the form changed?"
    assert _undeclared_calls(ops_cpp, ops_h) == []


def test_scalar_overload_declared_first(write_declarations, run_codegen, tmp_path) -> None:
    """A pointwise op whose first signature takes the Scalar overload still passes Tensors as operands."""
    decl_dir = write_declarations(ops="""\
- name: rsub
  signatures:
    - (Tensor self, Scalar other) -> Tensor
    - (Tensor self, Tensor other) -> Tensor
  variants: [method, function]
  pointwise: other - self
  dtypes: all
  differentiable: false
  doc: other minus self.
""")
    out = _generate(run_codegen, tmp_path / "out", decl_dir)
    if out is not None:
        assert _misplaced_pointwise_arguments(_ops_cpp(out)) == []


def test_cpp_op_in_place_without_out_form(write_declarations, run_codegen, tmp_path) -> None:
    """A cpp op with 'inplace: true' but no 'out: true' gets a declared foo_out, or is rejected."""
    decl_dir = write_declarations(ops="""\
- name: clamp_min
  signatures:
    - (Tensor self, Scalar min) -> Tensor
  variants: [method, function]
  inplace: true
  cpp: clamp_min
  differentiable: false
  doc: Each element of self, at least min.
""")
    out = _generate(run_codegen, tmp_path / "out", decl_dir)
    if out is not None:
        ops_cpp = _ops_cpp(out)
        ops_h = _op_headers(out)
        assert _undeclared_calls(ops_cpp, ops_h) == []


def test_python_op_with_out_form_uses_out(write_declarations, run_codegen, tmp_path) -> None:
    """A python op with 'out: true' hands out= to its glue (impl::<name>_out), or is rejected."""
    decl_dir = write_declarations(ops="""\
- name: from_list
  signatures:
    - (object data) -> Tensor
  variants: [function]
  out: true
  python: from_list
  differentiable: false
  doc: A tensor from a list.
""")
    out = _generate(run_codegen, tmp_path / "out", decl_dir)
    if out is not None:
        functions = _read_shards(out, "python/bindings_shard*.cpp")
        body = functions[functions.index("PyObject* Function_from_list("):]
        body = body[:body.index("\n}\n")]
        assert '{"out", ArgKind::Tensor' in functions, "the binding no longer accepts out=: update this test"
        assert "impl::from_list_out(" in body, f"out= is parsed but never used:\n{body}"


def test_cpp_only_op_has_cpp_functions_and_no_binding(run_codegen, tmp_path) -> None:
    """`variants: []` gives wick::div_trunc and its _ and _out forms, and nothing that Python sees."""
    out = _generate(run_codegen, tmp_path, DECLARATION_SETS["golden"])
    assert out is not None
    ops_h = _op_headers(out)
    assert {"div_trunc", "div_trunc_", "div_trunc_out"} <= set(_PROTOTYPE.findall(ops_h))
    python_side = {"bindings": _read_shards(out, "python/bindings_shard*.cpp"),
                   "method tables": _read_shards(out, "python/method_tables.cpp")}
    for relpath in ("python/_C.pyi", "python/__init__.pyi", "python/names.py"):
        python_side[relpath] = (out / relpath).read_text(encoding="utf-8")
    for where, text in python_side.items():
        assert "div_trunc" not in text, where


def test_an_alias_declares_and_defines_its_cpp_function_once(run_codegen, tmp_path) -> None:
    """concat names cat's C++ function: its header declares it once, ops.cpp defines it once, both bind it."""
    out = _generate(run_codegen, tmp_path, DECLARATION_SETS["golden"])
    assert out is not None
    ops_h = _op_headers(out)
    ops_cpp = _ops_cpp(out)
    assert _PROTOTYPE.findall(ops_h).count("cat") == 1 and _PROTOTYPE.findall(ops_h).count("cat_out") == 1
    assert [name for name, _, _ in _definitions(ops_cpp)].count("cat") == 1
    functions = _read_shards(out, "python/bindings_shard*.cpp")
    for binding in ("Function_cat(", "Function_concat("):
        body = functions[functions.index(f"PyObject* {binding}"):]
        body = body[:body.index("\n}\n")]
        assert "wick::autograd::ops::cat(" in body and "wick::autograd::ops::cat_out(" in body, body
