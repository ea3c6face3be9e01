"""tests/codegen/test_samples.py: `numpy:`, `dtypes:` and `samples:` of ops that are not pointwise.

The model picks each sample's signature and derives what it leaves out (codegen/testplan.py);
the test table names the reference as a function of tests/python/numpy_ref.py or as a lambda.
Bad values are in bad/ (samples_*.yaml, numpy_*.yaml).
"""
from __future__ import annotations

import ast
import math
from pathlib import Path
from typing import Dict

from codegen import reader
from codegen.model import Declaration
from codegen import testplan
from codegen.schema import DType
from codegen.testplan import Role

REPO = Path(__file__).resolve().parents[2]
NUMPY_REF = REPO / "tests" / "python" / "numpy_ref.py"


def _load(write_declarations, text: str) -> Dict[str, Declaration]:
    decl_dir = write_declarations(ops=text)
    return {d.name: d for d in reader.load([str(decl_dir / "ops.yaml")])}


def test_samples_are_derived_from_the_signatures(write_declarations) -> None:
    """Without `samples:`, each signature whose parameters can be derived gives one sample: tensors
    (3, 4), the first dims 0 then -1, sizes (2, 6), Scalars 2; parameters with defaults are left out."""
    d = _load(write_declarations, """\
- name: op
  signatures:
    - (Tensor self, int dim0, int[] dims, *, bool flag=False) -> Tensor
    - (Tensor self, Tensor index, int[] size, Scalar value) -> Tensor
    - (Tensor self, Device device) -> Tensor
  variants: [method, function]
  cpp: op
  differentiable: false
  doc: An op.
  numpy: self
  dtypes: all
""")["op"]
    assert [(s.signature, dict(s.args)) for s in d.tests.samples] == [
        (0, {"self": (3, 4), "dim0": 0, "dims": (-1,)}),
        (1, {"self": (3, 4), "index": (3, 4), "size": (2, 6), "value": 2}),
    ]


def test_a_sample_calls_the_first_signature_its_values_fit(write_declarations) -> None:
    """`value: 2` is a Scalar and `value: []` a 0-d Tensor; what a sample leaves out is derived."""
    d = _load(write_declarations, """\
- name: fill
  signatures:
    - (Tensor self, Tensor mask, Tensor value) -> Tensor
    - (Tensor self, Tensor mask, Scalar value) -> Tensor
  variants: [method, function]
  cpp: fill
  differentiable: false
  doc: A masked fill.
  numpy: np.where(mask, value, self)
  dtypes: [float32, int64]
  samples:
    - {value: 2}
    - {self: [4], value: []}
""")["fill"]
    assert [(s.signature, dict(s.args)) for s in d.tests.samples] == [
        (1, {"self": (3, 4), "mask": (3, 4), "value": 2}),
        (0, {"self": (4,), "mask": (3, 4), "value": ()}),
    ]
    assert d.tests.dtypes == (DType.int64, DType.float32)


def test_a_reference_names_a_function_or_is_an_expression(write_declarations) -> None:
    """`numpy:` is a function of tests/python/numpy_ref.py when it is a name that no parameter has,
    else an expression in the parameters; samples keep infinities as floats."""
    decls = _load(write_declarations, """\
- name: norm
  signatures:
    - (Tensor self, Scalar p=2) -> Tensor
  variants: [method]
  cpp: norm
  differentiable: false
  doc: A norm.
  numpy: norm
  dtypes: [float32]
  samples:
    - {p: .inf}
    - {p: -.inf}
- name: double
  signatures:
    - (Tensor self) -> Tensor
  variants: [method]
  cpp: to_double
  differentiable: false
  doc: Twice.
  numpy: self + self
  dtypes: all
""")
    norm, double = decls["norm"], decls["double"]
    assert norm.tests.reference_function(norm.api.signatures) == "norm"
    assert [dict(s.args) for s in norm.tests.samples] == [{"self": (3, 4), "p": math.inf},
                                                         {"self": (3, 4), "p": -math.inf}]
    assert double.tests.reference_function(double.api.signatures) is None
    assert double.tests.reference == "self + self"


def test_every_reference_function_exists() -> None:
    """The real declarations name only functions that tests/python/numpy_ref.py defines."""
    defined = {n.name for n in ast.parse(NUMPY_REF.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)}
    decls = reader.load(sorted(str(p) for p in (REPO / "declarations").glob("*.yaml")))
    named = {d.name: d.tests.reference_function(d.api.signatures) for d in decls if d.tests}
    named = {name: function for name, function in named.items() if function}
    missing = {op: function for op, function in named.items() if function not in defined}
    assert not missing, f"not defined in {NUMPY_REF.name}: {missing}"
    assert len(named) >= 40


def test_lists_of_tensors_are_derived_and_sampled(write_declarations) -> None:
    """A Tensor[] is three (3, 4) tensors, a Tensor?[] named indices one index of dim 0; a sample gives
    a list of shapes, with null for a None element of a Tensor?[], and strings for str parameters."""
    decls = _load(write_declarations, """\
- name: stack
  signatures:
    - (Tensor[] tensors, int dim=0) -> Tensor
  variants: [function]
  cpp: stack
  differentiable: false
  doc: Joined along a new dim.
  numpy: np.stack(tensors, dim)
  dtypes: all
- name: put
  signatures:
    - (Tensor self, Tensor?[] indices, Tensor values, *, str? mode=None) -> Tensor
  variants: [method]
  cpp: put
  differentiable: false
  doc: A copy with values put at indices.
  numpy: put
  dtypes: all
  samples:
    - {}
    - {indices: [null, [4]], values: [3, 4], mode: fast}
""")
    assert [dict(s.args) for s in decls["stack"].tests.samples] == [{"tensors": ((3, 4), (3, 4), (3, 4))}]
    assert [dict(s.args) for s in decls["put"].tests.samples] == [
        {"self": (3, 4), "indices": ((3,),), "values": (3, 4)},
        {"self": (3, 4), "indices": (None, (4,)), "values": (3, 4), "mode": "fast"},
    ]
    stack = decls["stack"].api.signatures[0].params
    assert [(p.name, testplan.role(p), p.default) for p in stack] == [("tensors", Role.tensors, None),
                                                                     ("dim", Role.dim, "0")]


def test_samples_of_each_signature(write_declarations) -> None:
    """A sample is derived for each signature whose parameters can be: a tuple return, a Tensor[]."""
    decls = _load(write_declarations, """\
- name: nanmedian
  signatures:
    - (Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
    - (Tensor self) -> Tensor
  variants: [function]
  cpp: nanmedian
  differentiable: false
  doc: The medians, NaN left out.
  numpy: nanmedian
  dtypes: [float32]
- name: unbind
  signatures:
    - (Tensor self, int dim=0) -> Tensor[]
  variants: [method]
  cpp: unbind
  differentiable: false
  doc: Views along dim.
  numpy: unbind
  dtypes: all
""")
    assert [s.signature for s in decls["nanmedian"].tests.samples] == [0, 1]
    assert [s.signature for s in decls["unbind"].tests.samples] == [0]
