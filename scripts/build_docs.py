#!/usr/bin/python3
"""scripts/build_docs.py: builds the manual, the pages of docs/ and the generated op reference, as HTML.

    build_docs.py --generated generated --out build/docs

Sphinx reads one source directory, and the manual's pages come from two: docs/ (hand
written, with conf.py) and generated/docs/reference (written by the generator from the
declarations). So the pages are copied into <out>/source, and Sphinx builds them from
there with the configuration of docs/, treating every warning as an error, into
<out>/html. Nothing is written outside <out>.
"""
import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def assemble(generated: Path, source: Path) -> None:
    """docs/*.rst and generated/docs/reference/*.rst, in a fresh `source`."""
    reference = generated / "docs" / "reference"
    if not (reference / "index.rst").is_file():
        raise SystemExit(f"build_docs.py: {reference} holds no op reference; run the generator "
                         "(cmake --build build, or python3 -m codegen) first")
    shutil.rmtree(source, ignore_errors=True)
    (source / "reference").mkdir(parents=True)
    for page in DOCS.glob("*.rst"):
        shutil.copyfile(page, source / page.name)
    for page in reference.glob("*.rst"):
        shutil.copyfile(page, source / "reference" / page.name)


def build(generated: Path, out: Path) -> int:
    """Assembles the pages under `out` and builds them into `out`/html; Sphinx's exit status."""
    try:
        from sphinx.cmd.build import build_main
    except ImportError:
        raise SystemExit(f"build_docs.py: {sys.executable} lacks Sphinx: apt-get install python3-sphinx") from None
    assemble(generated, out / "source")
    return build_main(["-W", "--keep-going", "-q", "-b", "html", "-c", str(DOCS), "-d", str(out / "doctrees"),
                       str(out / "source"), str(out / "html")])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--generated", type=Path, default=ROOT / "generated",
                        help="the generator's output directory (default: generated)")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "docs",
                        help="where the pages are assembled and built (default: build/docs)")
    args = parser.parse_args()
    rc = build(args.generated.resolve(), args.out.resolve())
    if rc == 0:
        print(f"the manual is in {args.out.resolve() / 'html' / 'index.html'}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
