"""Pointwise kernels: per shard and dtype, a functor header shared by both backends and a CPU and a
CUDA unit that instantiate the loops for those functors (and, in shard 0, the copy kernels)."""
from __future__ import annotations

from typing import Dict, List, Tuple

from codegen.api import expr
from codegen.dest.common import CPP_TYPE, Layout, render
from codegen.model import Backend, Declaration, Output, Pointwise
from codegen.schema import DType

BACKEND_EXT = {Backend.cpu: "cpp", Backend.cuda: "cu"}


def functors_header(shard: int, dtype: DType) -> str:
    return f"kernels/shard{shard}/functors_{dtype}.h"


def unit(shard: int, backend: Backend, dtype: DType) -> str:
    return f"kernels/shard{shard}/{backend}_{dtype}.{BACKEND_EXT[backend]}"


def outputs(layout: Layout) -> List[str]:
    files = []
    for s in range(layout.shards):
        for t in layout.kernel_dtypes:
            files += [functors_header(s, t)] + [unit(s, b, t) for b in BACKEND_EXT]
    return files


def _functor(d: Declaration) -> Dict[str, object]:
    impl = d.impl
    assert isinstance(impl, Pointwise)
    return dict(
        name=f"{d.name}_op",
        op=d.name,
        expr=impl.expr,
        cpp=expr.to_cpp(impl.expr),
        operands=impl.operands,
        constants=impl.constants,
        result="bool" if impl.output == Output.bool else "T",
    )


def _dtypes(d: Declaration) -> Dict[Backend, Tuple[DType, ...]]:
    assert isinstance(d.impl, Pointwise)
    return d.impl.dtypes


def emit(decls: List[Declaration], layout: Layout) -> Dict[str, str]:
    # Note [Shards]: the header and units of (shard, dtype) hold only the ops of that
    # shard that support the dtype, so editing an op rewrites the files of its dtypes alone.
    # The copy kernels go to shard 0: units of their own would each pay the fixed cost of a
    # unit (nvcc's above all) for one instantiation.
    pointwise = [d for d in decls if isinstance(d.impl, Pointwise)]
    files = {}
    for s, ops in enumerate(layout.by_shard(pointwise, lambda d: d.name)):
        for t in layout.kernel_dtypes:
            here = [d for d in ops if any(t in _dtypes(d)[b] for b in Backend)]
            files[functors_header(s, t)] = render("functors.h.j2", shard=s, dtype=t,
                                                  functors=[_functor(d) for d in here])
            for backend in BACKEND_EXT:
                names = [f"{d.name}_op" for d in here if t in _dtypes(d)[backend]]
                files[unit(s, backend, t)] = render(f"kernels_{backend}.j2", dtype=t, cpp_type=CPP_TYPE[t],
                                                    shard=s, functors=names, copy=s == 0)
    return files
