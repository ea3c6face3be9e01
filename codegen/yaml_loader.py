"""A YAML loader that keeps where each value came from and rejects duplicate keys.

Mappings load as `Node` dicts and sequences as `NodeList` lists, each with
`.loc` and a `.key_locs` / `.item_locs` record, so the model can point at the
exact line and column of any key or value.
"""
from __future__ import annotations

from typing import Any, Dict, List

import yaml

from codegen.errors import DeclarationError, Location

try:  # The C scanner is several times faster; the result is the same.
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]


class Node(dict):
    """A mapping from a declaration file, with the location of each key and value."""

    loc: Location
    key_locs: Dict[str, Location]
    value_locs: Dict[str, Location]


class NodeList(list):
    loc: Location
    item_locs: List[Location]


def _loc(path: str, mark: Any) -> Location:
    return Location(path, mark.line + 1, mark.column + 1)


def load(path: str, text: str) -> Any:
    """Parses `text` (the contents of `path`) into Nodes, NodeLists and scalars."""

    class Loader(_BaseLoader):  # type: ignore[misc, valid-type]
        pass

    def construct_mapping(loader: Any, node: yaml.MappingNode) -> Node:
        result = Node()
        result.loc = _loc(path, node.start_mark)
        result.key_locs = {}
        result.value_locs = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            key_loc = _loc(path, key_node.start_mark)
            if not isinstance(key, str):
                raise DeclarationError(key_loc, f"keys must be strings, not {key!r}")
            if key in result:
                first = result.key_locs[key]
                raise DeclarationError(
                    key_loc, f"duplicate key '{key}' (first given at line {first.line})")
            result[key] = loader.construct_object(value_node, deep=True)
            result.key_locs[key] = key_loc
            result.value_locs[key] = _loc(path, value_node.start_mark)
        return result

    def construct_sequence(loader: Any, node: yaml.SequenceNode) -> NodeList:
        result = NodeList(loader.construct_object(child, deep=True) for child in node.value)
        result.loc = _loc(path, node.start_mark)
        result.item_locs = [_loc(path, child.start_mark) for child in node.value]
        return result

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, construct_sequence)
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 - a SafeLoader subclass
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


def position(path: str, text: str, index: int) -> Location:
    """The Location of character `index` of `text`."""
    line = text.count("\n", 0, index) + 1
    return Location(path, line, index - (text.rfind("\n", 0, index) + 1) + 1)
