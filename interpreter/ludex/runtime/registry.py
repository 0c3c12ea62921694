"""The table of built-ins: what a built-in is (its name, arity, result, documentation with examples and
implementation), the tables ``BUILTINS`` and ``CONSTANTS`` and the decorators that fill them, and the
checks of argument kinds every built-in shares. ``builtins.py`` and ``board.py`` register into it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional

from .state import Card, Player, Zone


@dataclass(frozen=True)
class Example:
    """A built-in's example, a line of its documentation: ``Example: EXPRESSION gives RESULT  # NOTE``.

    Both sides are written in the rules language, as a scenario writes them: players by name (``ann``),
    cards by their titles and spaces by their names, in quotes (``"Lantern"``, ``"B2"``), ``true``,
    ``false``, ``none``, numbers, text and lists; a zone as it is read (``ann.hand``). The note, after
    ``#`` as a comment in the language, says what the example shows (optional)."""

    expression: str
    result: str
    note: str = ""


#: An example's line; the result runs to the note's ``#`` (no result holds one).
_EXAMPLE = re.compile(r"Example:\s+(?P<expression>.+?)\s+gives\s+(?P<result>[^#]+?)(?:\s+#\s*(?P<note>.*?))?")


def example_lines(doc: str) -> list[str]:
    """The lines of a documentation that are examples (``Example: ...``), as written."""
    return [line.strip() for line in doc.splitlines() if line.strip().startswith("Example:")]


def parse_example(line: str) -> Optional[Example]:
    """The example a line writes, or None if it is not ``Example: EXPRESSION gives RESULT [# NOTE]``."""
    m = _EXAMPLE.fullmatch(line.strip())
    return Example(m["expression"], m["result"], m["note"] or "") if m else None


@dataclass(frozen=True)
class Builtin:
    name: str
    min_args: int
    max_args: Optional[int]        # None: any number
    returns: str                   # number, bool, player, card, zone, list, text, space, any
    doc: str
    fn: Callable

    @property
    def description(self) -> str:
        """The documentation without its examples: what the built-in takes and gives."""
        return "\n".join(line for line in self.doc.splitlines()
                         if not line.strip().startswith("Example:")).strip()

    @property
    def examples(self) -> list[Example]:
        """The examples its documentation ends with (a line that is not well formed is left out: the
        tests say so)."""
        return [e for e in map(parse_example, example_lines(self.doc)) if e is not None]


BUILTINS: dict[str, Builtin] = {}

#: Names that are values without a call: ``players``, ``all-players``, ``format``.
CONSTANTS: dict[str, Builtin] = {}


def builtin(name: str, min_args: int, max_args: Optional[int] = -1, returns: str = "any"):
    def register(fn):
        BUILTINS[name] = Builtin(name, min_args, min_args if max_args == -1 else max_args, returns,
                                 (fn.__doc__ or "").strip(), fn)
        return fn
    return register


def constant(name: str, returns: str):
    def register(fn):
        CONSTANTS[name] = Builtin(name, 0, 0, returns, (fn.__doc__ or "").strip(), fn)
        return fn
    return register


def value_words(value) -> str:
    """A value as a message names it: ``none``, ``the number 5``, ``the player ann`` ..."""
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, str):
        return f'the text "{value}"'
    if isinstance(value, (list, tuple)):
        return "a list"
    kind = type(value)
    if kind is Player:
        return f"the player {value.name}"
    if kind is Card:
        return f"the card {value.title}"
    if kind is Zone:
        return f"the zone {value}"
    return str(value)


def _wrong(name: str, value, wanted: str) -> ValueError:
    """A built-in given a value of the wrong kind, which the static checks could not see (a role no one
    holds, an item of a list of anything): a ValueError, which the engine reports at the call, in its
    rule (``players-from: none is not a player``), never Python's own words."""
    return ValueError(f"{name}: {value_words(value)} is not {wanted}")


def _seat(name: str, seats: list, player) -> int:
    """Where a player sits (anything else is in no seat)."""
    try:
        return seats.index(player)
    except ValueError:
        raise _wrong(name, player, "a player") from None


def _list(name: str, value) -> list:
    """The items of a list or a zone given to ``name``; a single card or player is a list of one (as
    ``for each`` reads it); a number, a text or true/false is not a list."""
    kind = type(value)
    if kind is Zone:
        return list(value.cards)
    if kind is list or kind is tuple:
        return list(value)
    if kind is int or kind is bool or kind is str:
        raise _wrong(name, value, "a list or a zone")
    return _items([value])


def _number(name: str, value) -> int:
    if type(value) is not int:
        raise _wrong(name, value, "a number")
    return value


def _numbers(name: str, args) -> list:
    """The numbers given to ``name``, one by one or as a list. Anything else among them is an error,
    true and false too (Python would add them as 1 and 0) and text (Python would compare it as words)."""
    xs = _items(args)
    for x in xs:
        if type(x) is not int:
            raise _wrong(name, x, "a number")
    return xs


def _card(name: str, value) -> Card:
    if type(value) is not Card:
        raise _wrong(name, value, "a card")
    return value


def _items(args):
    """The items given: those of a single list or zone, or else the arguments themselves."""
    if len(args) == 1:
        one = args[0]
        kind = type(one)
        if kind is Zone:
            return list(one.cards)
        if kind is list or kind is tuple or isinstance(one, (list, tuple)):
            return list(one)
        if hasattr(one, "cards"):
            return list(one.cards)
    return list(args)
