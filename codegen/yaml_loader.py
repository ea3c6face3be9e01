"""A YAML loader that keeps where each value came from and answers any file with a located error.

Mappings load as `Node` dicts and sequences as `NodeList` lists, each with
`.loc` and a `.key_locs` / `.item_locs` record, so the model can point at the
exact line and column of any key or value. What it refuses, and why, is Note
[Hostile YAML].
"""
from __future__ import annotations

import math
import os
import re
import stat
from typing import Any, Dict, List, Optional, Tuple

import yaml

from codegen.errors import DeclarationError, Location, shown
from codegen.numbers import INT64_MAX, INT64_MIN, float_problem

if yaml.__with_libyaml__:  # The C scanner and parser are several times faster; the events are the same.
    _Parser = yaml._yaml.CParser
else:  # pragma: no cover - depends on how PyYAML was built
    class _Parser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)

# Note [Hostile YAML]
# ~~~~~~~~~~~~~~~~~~~
# Whatever a declaration file holds, the generator answers with a located error
# or with output that means what the file reads as; never a crash, a hang, or a
# value that YAML reads otherwise than a reader does.
# - Size and nesting are bounded while the file is composed, before anything
#   walks it: MAX_FILE_BYTES, MAX_DEPTH levels and MAX_VALUES values. PyYAML's C
#   composer recurses once per level (100,000 `[` overflow the C stack) and so
#   does everything after it, so nodes are composed by PyYAML's Python composer,
#   which stops at MAX_DEPTH, on the events of the C parser, which does not recurse.
# - An alias counts as the values it repeats, at the depth where it appears: the
#   declarations share samples that way, and a few lines of aliases of aliases
#   otherwise stand for billions of values (a "billion laughs"). An alias inside
#   the node it names would make a cycle, and is refused.
# - Tags are refused: a declaration needs none, and they make bytes, sets and dates.
# - Numbers are written as they read. YAML 1.1 reads 0777 as octal, 0x1f as hex,
#   1:30 as 90 and 1.0e+400 as infinity; the values become C++ and Python literals
#   of int64 and double. So an integer is decimal and fits int64, and a float is
#   finite and not a non-zero number that rounds to 0, unless spelt .inf or .nan.
# - A string holds no control character but tab and newline, and no lone
#   surrogate: escapes ("\0", "\ud800") can write them, a NUL ends a C string
#   early, and a surrogate cannot be written as UTF-8.
MAX_FILE_BYTES = 1 << 20
MAX_DEPTH = 16
MAX_VALUES = 100_000

_DECIMAL_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)\Z")
_SPECIAL_FLOAT = re.compile(r"[-+]?\.(inf|Inf|INF)\Z|\.(nan|NaN|NAN)\Z")
_FORBIDDEN_CHAR = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


class Node(Dict[str, Any]):
    """A mapping from a declaration file, with the location of each key and value."""

    loc: Location
    key_locs: Dict[str, Location]
    value_locs: Dict[str, Location]


class NodeList(List[Any]):
    loc: Location
    item_locs: List[Location]


def _loc(path: str, mark: Any) -> Location:
    return Location(path, mark.line + 1, mark.column + 1)


class _Loader(yaml.composer.Composer, _Parser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
    """PyYAML's safe loader, with Python's composer on the C parser's events; see Note [Hostile YAML]."""

    def __init__(self, path: str, text: str) -> None:
        _Parser.__init__(self, text)
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self.path = path
        self.depth = 0  # of the node being composed
        self.values = 0  # composed so far, an alias counting as the values it repeats
        self.extent: Dict[int, Tuple[int, int]] = {}  # id(node) -> (values, levels) of each node composed

    def error(self, node: Any, message: str, hint: Optional[str] = None) -> DeclarationError:
        return DeclarationError(_loc(self.path, node.start_mark), message, hint=hint)

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        self._check(event)
        self.depth += 1
        node = super().compose_node(parent, index)
        self.depth -= 1
        self._count(event, node)
        return node

    def _check(self, event: Any) -> None:
        """Refuses the node `event` starts before composing it: too deep, tagged, or an alias in what it names."""
        if self.depth == MAX_DEPTH:
            raise self.error(event, f"values nested deeper than {MAX_DEPTH} levels")
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in self.anchors and id(self.anchors[event.anchor]) not in self.extent:
                raise self.error(event, f"alias *{event.anchor} inside the node it names")
        elif event.tag not in (None, "!"):
            raise self.error(event, f"YAML tags are not supported: {event.tag}", "write the plain value")

    def _count(self, event: Any, node: Any) -> None:
        """Counts the values of the node `event` started, as many as an alias repeats."""
        alias = isinstance(event, yaml.AliasEvent)
        if not alias:
            children = [c for pair in node.value for c in pair] if isinstance(node, yaml.MappingNode) \
                else node.value if isinstance(node, yaml.SequenceNode) else []
            self.extent[id(node)] = (1 + sum(self.extent[id(c)][0] for c in children),
                                     1 + max((self.extent[id(c)][1] for c in children), default=0))
        values, levels = self.extent[id(node)]
        self.values += values if alias else 1
        if self.values > MAX_VALUES:
            raise self.error(event, f"more than {MAX_VALUES} values in one file"
                             + (f", counting those alias *{event.anchor} repeats" if alias else ""))
        if alias and self.depth + levels > MAX_DEPTH:
            raise self.error(event, f"alias *{event.anchor} nests values deeper than {MAX_DEPTH} levels")

    # A Node's keys are strings: others are refused below.
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Node:  # type: ignore[override]
        result = Node()
        result.loc = _loc(self.path, node.start_mark)
        result.key_locs = {}
        result.value_locs = {}
        for key_node, value_node in node.value:
            key_loc = _loc(self.path, key_node.start_mark)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise DeclarationError(key_loc, "merge keys ('<<') are not supported", hint="write the keys out")
            key = self.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
            if not isinstance(key, str):
                raise DeclarationError(key_loc, f"keys must be strings, not {shown(key)}")
            if key in result:
                first = result.key_locs[key]
                raise DeclarationError(
                    key_loc, f"duplicate key {shown(key)} (first given at line {first.line})")
            result[key] = self.construct_object(value_node, deep=True)  # type: ignore[no-untyped-call]
            result.key_locs[key] = key_loc
            result.value_locs[key] = _loc(self.path, value_node.start_mark)
        return result

    def construct_sequence(self, node: yaml.SequenceNode, deep: bool = False) -> NodeList:
        result = NodeList(self.construct_object(child, deep=True)  # type: ignore[no-untyped-call]
                          for child in node.value)
        result.loc = _loc(self.path, node.start_mark)
        result.item_locs = [_loc(self.path, child.start_mark) for child in node.value]
        return result

    def construct_checked_str(self, node: yaml.ScalarNode) -> str:
        value = self.construct_scalar(node)
        assert isinstance(value, str)  # a scalar node's value is its text
        bad = _FORBIDDEN_CHAR.search(value)
        if bad:
            raise self.error(node, f"a string holds the character U+{ord(bad.group()):04X}",
                             "generated strings hold no control character but tab and newline, and no lone surrogate")
        return value

    def construct_checked_int(self, node: yaml.ScalarNode) -> int:
        text = node.value
        if not _DECIMAL_INT.match(text):
            raise self.error(node, f"integer {shown(text)} is not in plain decimal, which YAML 1.1 reads otherwise",
                             "write it in decimal (YAML reads 0777 as 511 and 1:30 as 90), or quote it for a string")
        # Python converts at most 4,300 digits; int64 has 19.
        if len(text.lstrip("+-")) > 19 or not INT64_MIN <= int(text) <= INT64_MAX:
            raise self.error(node, f"integer {shown(text)} is out of the int64 range")
        return int(text)

    def construct_checked_float(self, node: yaml.ScalarNode) -> float:
        value = self.construct_yaml_float(node)
        if _SPECIAL_FLOAT.match(node.value):
            return value
        if "_" in node.value or ":" in node.value:
            raise self.error(node, f"YAML reads {shown(node.value)} as the number {value!r}",
                             f"write {value!r}, or quote it for a string")
        why = float_problem(node.value, value)
        if why:
            raise self.error(node, f"{shown(node.value)} is {why}", "write .inf" if math.isinf(value) else "write 0.0")
        return value


_CONSTRUCTORS: Dict[str, Any] = {
    "tag:yaml.org,2002:map": _Loader.construct_mapping,
    "tag:yaml.org,2002:seq": _Loader.construct_sequence,
    "tag:yaml.org,2002:str": _Loader.construct_checked_str,
    "tag:yaml.org,2002:value": _Loader.construct_checked_str,  # YAML 1.1 reads '=' so
    "tag:yaml.org,2002:int": _Loader.construct_checked_int,
    "tag:yaml.org,2002:float": _Loader.construct_checked_float,
}
for _tag, _constructor in _CONSTRUCTORS.items():
    _Loader.add_constructor(_tag, _constructor)


def read(path: str) -> str:
    """The text of the declaration file `path`, or a DeclarationError that names it."""
    start = Location(path, 1, 1)
    try:
        # Non-blocking, so that a FIFO named x.yaml is refused rather than waited on.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise DeclarationError(start, "cannot read declarations: not a regular file")
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise DeclarationError(start, f"cannot read declarations: {e.strerror or e}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise DeclarationError(start, f"a declaration file is at most {MAX_FILE_BYTES >> 20} MiB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        good = raw[:e.start].decode("utf-8")
        raise DeclarationError(position(path, good, len(good)),
                               f"the file is not valid UTF-8 (byte 0x{raw[e.start]:02x})") from None


def load(path: str, text: str) -> Any:
    """Parses `text` (the contents of `path`) into Nodes, NodeLists and scalars."""
    loader = _Loader(path, text)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as e:
        # A problem found at the end of the stream (an unclosed quote) is best
        # shown where the construct it was scanning began.
        mark = e.problem_mark
        if mark is None or (mark.index >= len(text.rstrip()) and e.context_mark is not None):
            mark = e.context_mark or mark
        loc = _loc(path, mark) if mark else Location(path, 1, 1)
        what = ", ".join(part for part in (e.context, e.problem) if part)
        raise DeclarationError(loc, f"invalid YAML: {what}") from None
    except yaml.reader.ReaderError as e:
        raise DeclarationError(position(path, text, e.position),
                               f"invalid YAML: unacceptable character {e.character!r}") from None
    finally:
        loader.dispose()


def position(path: str, text: str, index: int) -> Location:
    """The Location of character `index` of `text`."""
    line = text.count("\n", 0, index) + 1
    return Location(path, line, index - (text.rfind("\n", 0, index) + 1) + 1)
