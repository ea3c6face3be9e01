"""The names that ops, parameters and C++ functions of declarations may not take, and why.

A declared name becomes a C++ identifier (wick::<op>, a parameter of it, a member
of its functor) and a Python one (wick.<op>, Tensor.<op>, a keyword argument).
Each table below is the one list of its kind; the wick package's own names are
read from its sources, so that a name it adds is refused without an edit here.
"""
from __future__ import annotations

import ast
import functools
import keyword
import re
from pathlib import Path
from typing import Dict, FrozenSet, Iterator, List, Optional, Tuple

# The wick package as python_ext/ ships it, whose attributes a generated function or method would replace or hide.
PACKAGE = Path(__file__).resolve().parents[1] / "python_ext" / "wick"

# C++20's keywords and alternative tokens.
CPP_KEYWORDS: FrozenSet[str] = frozenset("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t
    class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield
    decltype default delete do double dynamic_cast else enum explicit export extern false float for friend
    goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private
    protected public register reinterpret_cast requires return short signed sizeof static static_assert
    static_cast struct switch template this thread_local throw true try typedef typeid typename union
    unsigned using virtual void volatile wchar_t while xor xor_eq
""".split())
# The lowercase macros that the generated units see (glibc's and GCC's, `g++ -dM -E`; the
# preprocessor would replace an identifier of that name). Names in capitals are refused
# whole, so only lowercase ones are listed, but for those starting with '_' (x86 intrinsics),
# which C++ leaves to the implementation. tests/codegen/test_names.py keeps the list whole.
MACROS: FrozenSet[str] = frozenset("""
    alloca assert assert_perror be16toh be32toh be64toh errno htobe16 htobe32 htobe64 htole16 htole32
    htole64 issubnormal le16toh le32toh le64toh linux math_errhandling offsetof pthread_cleanup_pop
    pthread_cleanup_pop_restore_np pthread_cleanup_push pthread_cleanup_push_defer_np sched_priority
    st_atime st_ctime st_mtime stderr stdin stdout strdupa strndupa timeradd timerclear timercmp
    timerisset timersub unix va_arg va_copy va_end va_start
""".split())
# The namespaces that core/, python_ext/ and the generated code open inside wick, at any depth: a
# function wick::<name> cannot have one of their names. (A parameter can: the name before a
# `::` is looked up among namespaces and types alone.) tests/codegen/test_names.py keeps it whole.
NAMESPACES: FrozenSet[str] = frozenset({"autograd", "cuda_runtime", "detail", "helpers", "impl", "kernels", "loops",
                                        "math", "ops", "python", "vec",
                                        # the CPU levels' (Note [CPU levels] in wick/cpu/level.h)
                                        "cpu_default", "cpu_avx2", "cpu_avx512", "cpu_native"})
# The helpers that the generated bindings call unqualified on core's types (wrap(result) in
# python_ext/wrap.h): argument-dependent lookup finds a wick::<name> taking a tensor too, and
# the call is ambiguous. The other helpers they call take no type of namespace wick.
ADL_HELPERS: FrozenSet[str] = frozenset({"wrap"})
# What the generated code appends to an op's name: its kernel tables (templates/ops.cpp.j2),
# which sit beside the functions of wick:: in the ops units, and its in-place and out= C++
# functions (api/cpp.py) and functor (dest/kernels.py). A function named like a table would
# clash with it, and a parameter named like any would hide the one its own op's body calls.
TABLE_SUFFIXES: Tuple[str, ...] = ("_pointwise", "_kernels", "_constants")
OP_SUFFIXES: Tuple[str, ...] = ("_", "_out", "_op") + TABLE_SUFFIXES
# The names the generated code gives its own variables (dest/, templates/) and the modules
# its tests use (np, math): a parameter may not take them.
GENERATED_NAMES: FrozenSet[str] = frozenset({
    "out", "result", "r", "self_", "out_", "nogil", "parser", "scalars", "args", "nargs", "kwnames", "module",
    "compute", "np", "math",
})
MAX_LENGTH = 64  # PyTorch's longest op names are about 50 characters
_GENERATED_PATTERN = re.compile(r"a\d+")  # the wrappers' converted arguments, a0, a1, ...
_SNAKE = re.compile(r"[a-z_][a-z0-9_]*\Z")


def cpp_problem(name: str) -> Optional[str]:
    """Why `name` cannot be an identifier of the generated C++, or None if it can."""
    if len(name) > MAX_LENGTH:
        return f"names are at most {MAX_LENGTH} characters"
    if not _SNAKE.match(name):
        return "names are lowercase snake_case, as PyTorch's (capitals are for C++ macros and types)"
    if "__" in name:
        return "C++ reserves names that hold a double underscore"
    if name.endswith("_t"):
        return "C and POSIX reserve names ending in '_t' for types"
    if name in CPP_KEYWORDS:
        return "it is a C++ keyword"
    if name in MACROS:
        return "it is a macro of the C library that the generated C++ includes"
    return None


def function_problem(name: str) -> Optional[str]:
    """Why `name` cannot name a C++ function wick::<name>, or None if it can."""
    if name in NAMESPACES:
        return f"wick::{name} is a namespace"
    if name in ADL_HELPERS:
        return f"the generated bindings call python::{name}() on tensors, and would find wick::{name} too"
    if name.endswith(TABLE_SUFFIXES):
        return f"names ending in '{name[name.rindex('_'):]}' are those of the tables of pointwise ops"
    return cpp_problem(name)


def python_problem(name: str) -> Optional[str]:
    """Why `name` cannot be a Python identifier, or None if it can."""
    return "it is a Python keyword" if keyword.iskeyword(name) else None


def parameter_problem(name: str, op: str) -> Optional[str]:
    """Why `name` cannot name a parameter of the op `op` (or a field of its tuple return), or None."""
    if name in GENERATED_NAMES or _GENERATED_PATTERN.fullmatch(name):
        return "the generated code uses that name"
    if name in {op + suffix for suffix in OP_SUFFIXES}:
        return f"the generated code of '{op}' names a function or table so"
    return python_problem(name) or cpp_problem(name)


# PyTorch's legacy tensor class of each dtype, by the dtype's name: wick/_legacy.py makes
# them (wick.FloatTensor(2, 3)) and Tensor.type() names them ("wick.FloatTensor").
LEGACY_TENSORS = {
    "bool": "BoolTensor", "uint8": "ByteTensor", "int8": "CharTensor", "int16": "ShortTensor",
    "int32": "IntTensor", "int64": "LongTensor", "float16": "HalfTensor", "bfloat16": "BFloat16Tensor",
    "float32": "FloatTensor", "float64": "DoubleTensor",
}


def package_problem(name: str, method: bool) -> Optional[str]:
    """Why `name` cannot name a method of wick.Tensor (`method`) or a function of wick, or None."""
    defined = package_names()[1 if method else 0]
    if name not in defined:
        return None
    where = f"python_ext/wick/{defined[name]}"
    return f"wick.Tensor defines it ({where})" if method else f"the wick package defines it ({where})"


@functools.lru_cache(maxsize=None)
def package_names() -> Tuple[Dict[str, str], Dict[str, str]]:
    """(the attributes of wick, those of wick.Tensor), each name mapped to the file that defines it.

    wick's are its submodules, what its __init__.py binds (the modules it imports
    from wick included) and the legacy tensor classes that it imports from
    _legacy.py, which makes them from the dtype table; wick.Tensor's what the body
    of a class deriving from _C.TensorBase binds.
    """
    module: Dict[str, str] = {path.stem: path.name for path in PACKAGE.glob("*.py") if path.stem != "__init__"}
    tensor: Dict[str, str] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        if path.name == "__init__.py":
            module.update(dict.fromkeys(_bound(tree.body), path.name))
            for star in _star_imports(tree.body):
                module.update(dict.fromkeys(_listed(star, "__all__"), star))
        tensor.update(dict.fromkeys(_listed(path.name, "METHODS"), path.name))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and any(ast.unparse(b) == "_C.TensorBase" for b in node.bases):
                tensor.update(dict.fromkeys(_bound(node.body), path.name))
    module.update(dict.fromkeys(LEGACY_TENSORS.values(), "_legacy.py"))
    return module, tensor


def _star_imports(body: List[ast.stmt]) -> Iterator[str]:
    """The files of the package's modules that `from wick.x import *` statements of `body` import."""
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("wick.") and \
                any(a.name == "*" for a in node.names):
            yield node.module.split(".")[1] + ".py"


def _listed(filename: str, variable: str) -> List[str]:
    """The names that the module python_ext/wick/<filename> lists in `variable` (its __all__, or METHODS: the
    functions that the package makes methods of wick.Tensor) as a literal list or tuple of strings; none where
    it computes the list (_legacy.py's names come from the dtype table, and package_names adds them)."""
    path = PACKAGE / filename
    if not path.is_file():
        return []
    for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == variable and isinstance(value, (ast.List, ast.Tuple)):
            return [str(v) for v in ast.literal_eval(value)]
    return []


def _bound(body: List[ast.stmt]) -> Iterator[str]:
    """The names that the statements `body` bind in their scope, submodules that they import included."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            yield from (n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import):
            yield from ((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield from (a.asname or a.name for a in node.names if a.name != "*")
            # Importing wick.x, as `from wick.x import y` does, makes x an attribute of wick.
            module = node.module or ""
            if node.level == 1 and module:
                yield module.split(".")[0]
            elif node.level == 0 and module.startswith("wick."):
                yield module.split(".")[1]
