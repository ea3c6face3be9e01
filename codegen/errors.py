"""Errors that point at a place in a declaration file."""
from __future__ import annotations

import difflib
import reprlib
from dataclasses import dataclass
from typing import Iterable, Optional


@dataclass(frozen=True)
class Location:
    file: str
    line: int  # 1-based
    column: int  # 1-based

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class DeclarationError(Exception):
    """A bad declaration: `file:line:col: [in 'op':] message (hint)`."""

    def __init__(self, loc: Location, message: str, decl: Optional[str] = None,
                 hint: Optional[str] = None) -> None:
        self.loc = loc
        self.message = message
        self.decl = decl
        self.hint = hint
        text = f"{loc}: "
        if decl:
            text += f"in {shown(decl)}: "
        text += message
        if hint:
            text += f"; {hint}"
        super().__init__(text)


def did_you_mean(word: str, choices: Iterable[str]) -> Optional[str]:
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


class _Brief(reprlib.Repr):
    """reprlib's repr, cut short at every level, for the dict and list subclasses of the loader too."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxdict, self.maxlist = 3, 4, 6
        self.maxstring = self.maxother = self.maxlong = 60

    def repr1(self, x: object, level: int) -> str:
        if isinstance(x, dict) and type(x) is not dict:
            return self.repr_dict(x, level)
        if isinstance(x, list) and type(x) is not list:
            return self.repr_list(x, level)
        return super().repr1(x, level)


_BRIEF = _Brief()


def shown(value: object) -> str:
    """`value` as repr() writes it, cut short: a message quotes values from a file of any size."""
    return _BRIEF.repr(value)
