"""Pointwise kernels: per shard and dtype, a functor header shared by both backends and a CPU and a
CUDA unit that instantiate the loops for those functors (and, in shard 0, the copy kernels); per
shard, the table of its CPU kernels, which each CPU level defines (Note [CPU levels] in
core/include/wick/cpu/level.h)."""
from __future__ import annotations

from typing import Dict, List, Tuple

from codegen.api import expr
from codegen.dest.common import CPP_TYPE, Layout, render
from codegen.model import Backend, Declaration, Output, Pointwise
from codegen.schema import DTYPES, DType

BACKEND_EXT = {Backend.cpu: "cpp", Backend.cuda: "cu"}


def functors_header(shard: int, dtype: DType) -> str:
    return f"kernels/shard{shard}/functors_{dtype}.h"


def unit(shard: int, backend: Backend, dtype: DType) -> str:
    return f"kernels/shard{shard}/{backend}_{dtype}.{BACKEND_EXT[backend]}"


def cpu_tables_unit(shard: int) -> str:
    return f"kernels/shard{shard}/cpu_tables.cpp"


def cpu_table(shard: int) -> str:
    """The name of the table of shard's CPU kernels, in each level's namespace. core/CMakeLists.txt
    keeps the symbols of a level whose names end in cpu_kernels, and no other, global."""
    return f"shard{shard}_cpu_kernels"


COPY_TABLE = "copy_cpu_kernels"


def outputs(layout: Layout) -> List[str]:
    files = []
    for s in range(layout.shards):
        for t in layout.kernel_dtypes:
            files += [functors_header(s, t)] + [unit(s, b, t) for b in BACKEND_EXT]
        files.append(cpu_tables_unit(s))
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


def _entries(d: Declaration, layout: Layout, entry: str) -> List[str]:
    cpu = _dtypes(d)[Backend.cpu]
    return [f"&cpu_pointwise_{entry}<kernels::{d.name}_op<{CPP_TYPE[t]}>>"
            if t in cpu and t in layout.kernel_dtypes else "nullptr" for t in DTYPES]


def emit(decls: List[Declaration], layout: Layout) -> Dict[str, str]:
    # Note [Shards]: the header and units of (shard, dtype) hold only the ops of that
    # shard that support the dtype, so editing an op rewrites the files of its dtypes alone.
    # The copy kernels go to shard 0: units of their own would each pay the fixed cost of a
    # unit (nvcc's above all) for one instantiation.
    pointwise = [d for d in decls if d.owns_kernels]
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
        tables = [dict(name=d.name, functor=f"{d.name}_op", kernel=_entries(d, layout, "kernel"),
                       run=_entries(d, layout, "run")) for d in ops]
        files[cpu_tables_unit(s)] = render("cpu_tables.cpp.j2", shard=s, ops=tables, table=cpu_table(s),
                                           copy=COPY_TABLE if s == 0 else "",
                                           cpp_types=[CPP_TYPE[t] for t in DTYPES])
    return files
