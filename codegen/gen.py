"""The pipeline: read declarations, validate, emit, write what changed.

    python3 -m codegen --declarations declarations --out generated
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
import time
from typing import Dict, List, Optional, Sequence

from codegen import reader
from codegen.dest import autograd, core, docs, kernels, python_bindings, stubs
from codegen.dest.common import DEFAULT_LAYOUT, Layout
from codegen.model import Declaration
from codegen.schema import DTYPE_NAMES, DTYPES
from codegen.errors import DeclarationError
from codegen.writer import FileManager

# Note [Generated outputs]
# ~~~~~~~~~~~~~~~~~~~~~~~~
# What the generator writes is a function of the declarations alone: the files of
# the shards (Note [Shards] in codegen/dest/common.py), whose list is fixed, and one
# header per op (wick/ops/<name>.h), so that a file recompiles only when an op it
# calls changes, and one page of the manual's op reference per declaration file
# (docs/reference/<file>.rst, codegen/dest/docs.py). CMake asks for the list (--list-outputs) when it configures, and
# configures again whenever a declaration changes, which costs about a second.
def outputs(decls: List[Declaration], layout: Layout = DEFAULT_LAYOUT) -> List[str]:
    return [
        *core.outputs(decls, layout),
        *autograd.outputs(layout),
        *kernels.outputs(layout),
        *python_bindings.outputs(layout),
        "python/_C.pyi",
        "python/__init__.pyi",
        "python/_legacy.pyi",
        "python/return_types.pyi",
        *docs.outputs(decls),
    ]


def generate(decls: List[Declaration], layout: Layout = DEFAULT_LAYOUT) -> Dict[str, str]:
    files: Dict[str, str] = {}
    for emitter in (core, autograd, kernels, python_bindings, stubs, docs):
        files.update(emitter.emit(decls, layout))
    return files


def _layout(shards: int, kernel_dtypes: Optional[str]) -> Layout:
    names = kernel_dtypes.split(",") if kernel_dtypes else [str(d) for d in DTYPES]
    unknown = [n for n in names if n not in DTYPE_NAMES]
    if shards < 1 or unknown or not names:
        raise ValueError(f"--shards must be at least 1 and --kernel-dtypes name dtypes, not {unknown}")
    return Layout(shards, tuple(d for d in DTYPES if str(d) in names))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m codegen",
        description="Generate Wick's bindings, kernels and tests from YAML declarations.")
    parser.add_argument("--declarations", default="declarations",
                        help="directory of *.yaml declaration files (default: declarations)")
    parser.add_argument("--out", default="generated", help="output directory (default: generated)")
    parser.add_argument("--list-outputs", action="store_true",
                        help="print the generated files, relative to --out, and exit")
    parser.add_argument("--verbose", action="store_true", help="say which files were rewritten")
    parser.add_argument("--shards", type=int, default=DEFAULT_LAYOUT.shards,
                        help=f"the number of shards (Note [Shards]; default: {DEFAULT_LAYOUT.shards})")
    parser.add_argument("--kernel-dtypes", metavar="DTYPE,...",
                        help="the dtypes that get kernel units (default: all); the golden tests take fewer")
    args = parser.parse_args(argv)
    try:
        layout = _layout(args.shards, args.kernel_dtypes)
    except ValueError as e:
        parser.error(str(e))

    start, start_cpu = time.perf_counter(), time.process_time()
    paths = sorted(glob.glob(os.path.join(glob.escape(args.declarations), "*.yaml")))
    if not paths:
        print(f"codegen: no *.yaml files in {args.declarations}", file=sys.stderr)
        return 2
    try:
        decls = reader.load(paths)
        if args.list_outputs:
            print(";".join(outputs(decls, layout)))
            return 0
        files = generate(decls, layout)
    except DeclarationError as e:
        print(f"{e}", file=sys.stderr)
        return 1
    expected = outputs(decls, layout)
    manager = FileManager(args.out, expected)
    for relpath, content in sorted(files.items()):
        manager.write(relpath, content)
    try:
        changed = manager.commit()
    except OSError as e:
        print(f"codegen: cannot write the outputs: {e}", file=sys.stderr)
        return 2
    if args.verbose:
        took, took_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        print(f"codegen: {len(decls)} declarations, {len(changed)} of {len(expected)} files rewritten "
              f"in {took:.2f}s ({took_cpu:.2f}s CPU)" + "".join(f"\n  {p}" for p in changed))
    return 0
