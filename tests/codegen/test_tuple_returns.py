"""tests/codegen/test_tuple_returns.py: `-> (Tensor values, Tensor indices)` from the model to every output.

See Note [Tuple returns] in codegen/schema.py. The bad-declaration corpus
(bad/tuple_return_*.yaml) has the declarations the model refuses.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict

import pytest

from codegen import reader
from codegen.api import cpp
from codegen.api.python import bindings, return_types
from codegen.dest import python_bindings
from codegen.errors import Location
from codegen.model import Form
from codegen.schema import TENSOR, ErrorAt, Return, Signature

HERE = Path(__file__).parent
REAL = HERE.parents[1] / "declarations"
ERR = ErrorAt(Location("<test>", 1, 1), "test")

# A structured cpp op with out=, one whose tuple return is one overload of several, and a python op returning a tuple.
DECLARATIONS = """\
- name: sort
  signatures:
    - (Tensor self, int dim=-1, *, bool stable=False) -> (Tensor values, Tensor indices)
  variants: [method, function]
  out: true
  cpp: sort
  structured: true
  differentiable: false
  doc: Sorted.

- name: max
  signatures:
    - (Tensor self) -> Tensor
    - (Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  variants: [method, function]
  cpp: max
  differentiable: false
  doc: The largest.

- name: float_parts
  signatures:
    - (Tensor self) -> (Tensor mantissa, Tensor exponent)
  variants: [function]
  python: float_parts
  differentiable: false
  doc: Mantissas and exponents.
"""


@pytest.fixture
def generated(write_declarations, run_codegen, tmp_path: Path) -> Dict[str, str]:
    decl_dir = write_declarations(ops=DECLARATIONS)
    run = run_codegen("--declarations", str(decl_dir), "--out", str(tmp_path / "out"))
    assert run.rc == 0, run.err
    out = tmp_path / "out"
    files = {str(p.relative_to(out)): p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()}
    # Each op's code is in one shard of its kind (Note [Shards]): read them as one.
    for whole, shard in (("core/ops.cpp", "core/ops_shard"), ("python/bindings.cpp", "python/bindings_shard")):
        files[whole] = "".join(text for relpath, text in sorted(files.items()) if relpath.startswith(shard))
    return files


def _function(source: str, name: str) -> str:
    """The body of the generated wrapper `name` in a bindings file."""
    start = source.index(f"PyObject* {name}(")
    return source[start:source.index("\n}\n", start)]


def test_tuple_return_parses_and_prints_back() -> None:
    text = "(Tensor self, int k) -> (Tensor values, Tensor indices)"
    sig = Signature.parse(text, ERR, "op")
    assert sig.fields == (Return(TENSOR, "values"), Return(TENSOR, "indices"))
    assert sig.returns_text() == "(Tensor values, Tensor indices)" and str(sig) == text
    assert Signature.parse("(Tensor self) -> Tensor", ERR, "op").fields == ()


def test_cpp_side_is_a_std_tuple_and_out_takes_one_tensor_per_field(generated: Dict[str, str]) -> None:
    ops_h = generated["include/wick/ops/sort.h"] + generated["include/wick/ops/max.h"]
    assert '#include "wick/op_support.h"' in ops_h
    assert "std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim = -1, bool stable = false);" in ops_h
    assert ("std::tuple<const Tensor&, const Tensor&> sort_out(const Tensor& values, const Tensor& indices, "
            "const Tensor& self, int64_t dim = -1, bool stable = false);") in ops_h
    assert "std::array<detail::OutputSpec, 2> sort_meta(const Tensor& self, int64_t dim, bool stable);" in ops_h
    assert "std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);" in ops_h
    assert "\nTensor max(const Tensor& self);" in ops_h
    # The functional form makes a tensor per field from the meta's specs (Note [Structured ops]).
    assert ("Tensor values = detail::new_output(spec[0]);\n  Tensor indices = detail::new_output(spec[1]);\n"
            "  detail::sort_impl(values, indices, self, dim, stable);\n  return {values, indices};") in generated["core/ops.cpp"]
    assert "std::tuple<Tensor, Tensor> float_parts(const Tensor& self);" in generated["python/python_impls.h"]


def test_wrappers_return_named_tuples(generated: Dict[str, str]) -> None:
    functions = methods = generated["python/bindings.cpp"]
    sort = _function(functions, "Function_sort")
    # out= is a tuple of two tensors, handed to sort_out, and comes back as a named tuple of the same tensors.
    # Without the GIL, the call sees aliases of every tensor (Note [Tensors read without the GIL]): out_'s
    # replaced in place, the others through nogil().
    assert 'std::array<Tensor, 2> out_ = unpack_out_tuple<2>(out);' in sort
    assert "NoGil nogil(worth_releasing({&a0}), {&a0}, out_); wick::autograd::ops::sort_out(out_[0], out_[1], nogil(a0), a1, a2);" \
        in sort
    assert "return wrap_out_tuple(ReturnType::sort, out);" in sort
    assert "std::tuple<Tensor, Tensor> result;" in sort and "return wrap(ReturnType::sort, std::move(result));" in sort
    assert '{"out", ArgKind::Object, true, true, DefaultKind::None, 0}' in functions
    assert '"(Tensor self, int dim=-1, *, bool stable=False, tuple of Tensors out=None)"' in functions
    method_max = _function(methods, "TensorMethod_max")
    assert "return wrap(ReturnType::max, std::move(result));" in method_max
    assert "return wrap(std::move(result));" in method_max  # max() still returns a Tensor
    wrapper = _function(functions, "Function_float_parts")
    assert "return wrap(ReturnType::float_parts, impl::float_parts(a0));" in wrapper


def test_return_types_are_one_per_op(generated: Dict[str, str]) -> None:
    header = generated["python/return_types.h"]
    enum = re.search(r"enum class ReturnType : uint16_t \{\n(.*?)\};", header, re.S)
    assert enum and enum[1].split() == ["float_parts,", "max,", "sort,"]
    assert "constexpr int kNumReturnTypes = 3;" in header
    assert 'constexpr const char* k_float_parts_fields[] = {"mantissa", "exponent"};' in header
    assert '{"max", "max(values, indices): the named tuple that max() returns.", k_max_fields, 2},' in header


def test_stubs_declare_a_named_tuple_per_op(generated: Dict[str, str]) -> None:
    tree = ast.parse(generated["python/return_types.pyi"])
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    assert sorted(classes) == ["float_parts", "max", "sort"]
    for cls in classes.values():
        assert [ast.unparse(b) for b in cls.bases] == ["_NamedTuple"]
    assert [ast.unparse(s) for s in classes["max"].body] == ["values: _Tensor", "indices: _Tensor"]
    stub = generated["python/_C.pyi"]
    assert ("def sort(self: TensorBase, dim: _int = ..., *, stable: _bool = ..., "
            "out: Optional[Tuple[TensorBase, TensorBase]] = ...) -> _named_tuples.sort: ...") in stub
    assert "    def max(self, dim: _int, keepdim: _bool = ...) -> _named_tuples.max: ..." in stub


def test_real_declarations_have_their_return_types() -> None:
    """Each op of declarations/ returning a tuple has its type, and its out= (if any) a tuple of tensors."""
    decls = reader.load(sorted(str(p) for p in REAL.glob("*.yaml")))
    names = [name for name, _ in return_types(decls)]
    assert {"max", "min", "sort", "topk", "kthvalue", "median", "nanmedian"} <= set(names)
    assert names == sorted(names)
    _, functions = bindings(decls)
    sort = next(b for b in functions if b.name == "sort")
    assert sort.overloads[0].text.endswith("*, bool stable=False, tuple of Tensors out=None)")
    assert "out=None" in python_bindings._text_signature(sort)
    fn = next(f for d in decls if d.name == "topk" for f in cpp.functions(d) if f.form == Form.out)
    # topk is structured: its out= form returns the out= tensors themselves.
    assert fn.arg_names[:2] == ["values", "indices"] and fn.returns == "std::tuple<const Tensor&, const Tensor&>"
