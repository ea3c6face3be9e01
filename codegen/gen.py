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
from codegen.dest import core, kernels, python_bindings, stubs
from codegen.model import Declaration
from codegen.errors import DeclarationError
from codegen.writer import FileManager

# Note [Generated outputs]
# ~~~~~~~~~~~~~~~~~~~~~~~~
# What the generator writes is a function of the declarations alone: the files of
# the shards (Note [Shards] in codegen/dest/common.py), whose list is fixed, and one
# header per op (wick/ops/<name>.h), so that a file recompiles only when an op it
# calls changes. CMake asks for the list (--list-outputs) when it configures, and
# configures again whenever a declaration changes, which costs about a second.
def outputs(decls: List[Declaration]) -> List[str]:
    return [
        *core.outputs(decls),
        *kernels.outputs(),
        *python_bindings.outputs(),
        "python/_C.pyi",
        "python/__init__.pyi",
        "python/return_types.pyi",
    ]


def generate(decls: List[Declaration]) -> Dict[str, str]:
    files: Dict[str, str] = {}
    for emitter in (core, kernels, python_bindings, stubs):
        files.update(emitter.emit(decls))
    return files


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
    args = parser.parse_args(argv)

    start, start_cpu = time.perf_counter(), time.process_time()
    paths = sorted(glob.glob(os.path.join(glob.escape(args.declarations), "*.yaml")))
    if not paths:
        print(f"codegen: no *.yaml files in {args.declarations}", file=sys.stderr)
        return 2
    try:
        decls = reader.load(paths)
        if args.list_outputs:
            print(";".join(outputs(decls)))
            return 0
        files = generate(decls)
    except DeclarationError as e:
        print(f"{e}", file=sys.stderr)
        return 1
    expected = outputs(decls)
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
