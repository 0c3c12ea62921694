"""The kinds of values the checks tell apart: an expression's kind (``number``, ``player``, ``card``,
``zone``, ``text``, ``bool``, ``list``, ``cards``, ``players``) in; whether it can be meant where it
stands, and how a message names it, out.

The tables say which kinds are certainly not what a place needs (``NOT_NUMBERS``, ``NOT_ZONES`` ...),
what a built-in's arguments must be (``ARGUMENT_KINDS``) and which attributes every card and player
has; the functions give the kind of the items of a list, of a list filtered from a value, of a
declared field, and a kind in words (``article``).
"""

from __future__ import annotations

from ..parse import ast as A

#: Attributes every card has, whatever its type.
CARD_ATTRIBUTES = {"title": "text", "type": "text", "owner": "player", "zone": "zone", "face-up": "bool"}

#: Attributes every player has.
PLAYER_ATTRIBUTES = {"name": "text", "seat": "number", "eliminated": "bool"}

#: What every card has of its own, which no attribute may be named and no statement may change.
CARD_OWN = {"title": "title, from its definition", "type": "card type, from its definition",
            "owner": "owner, fixed when it is made", "zone": "zone, changed by moving it",
            "face-up": "face, changed by revealing or concealing it"}

#: What a built-in's arguments must be, where another kind fails when the rule runs: ``items`` a list
#: or a zone, ``player``, ``card`` or ``number`` (a built-in not listed takes anything).
ARGUMENT_KINDS = {
    "size": ("counted",), "reverse": ("items",), "titles": ("items",), "flatten": ("items",),
    "without": ("items",), "join": ("items", "items"),
    "players-from": ("player",), "next-player": ("player",), "previous-player": ("player",),
    "opponents": ("player",), "owner": ("card",), "zone-of": ("card",), "has-ability": ("card",),
    "abs": ("number",), "odd": ("number",), "even": ("number",), "range": ("number", "number"),
}

#: Built-ins of numbers given one by one or as one list (``sum(1, 2)``, ``sum(xs)``): two or more
#: arguments are each a number; a single one is a number or a list (of numbers).
NUMBERS_OR_A_LIST = {"sum", "min", "max"}

#: For each kind of argument, the kinds of value that are certainly not it, and the message's code.
NOT_ARGUMENT = {
    # a single card or player is read as a list of one (``builtins._list``); ``size`` counts only a list
    "items": ({"number", "bool", "text"}, "S024", "a list or a zone"),
    "counted": ({"number", "bool", "text", "player", "card"}, "S024", "a list or a zone"),
    "player": ({"number", "card", "zone", "text", "bool", "list", "cards", "players"}, "S021", "a player"),
    "card": ({"number", "player", "zone", "text", "bool", "list", "cards", "players"}, "S025", "a card"),
    "numbers": ({"player", "card", "zone", "text", "bool", "cards", "players"}, "S020",
                "a number or a list of numbers"),
}

NUMERIC = {"number"}

NOT_NUMBERS = {"player", "card", "zone", "text", "list", "cards", "bool"}

#: Kinds that are certainly not true or false. Python's truth would read a number, a player or a list
#: as true or false by itself (``if 5`` ran its body), a silent wrong answer: a condition of one of
#: these kinds is refused.
NOT_CONDITIONS = {"number", "text", "player", "card", "zone", "list", "cards", "players"}

#: What each known kind is compared as by ``==`` and ``!=``: values of two different families are never
#: equal (a player is never 3 nor "p1"), so comparing them is a mistake. Lists (of cards, of players, of
#: anything) are one family, equal when their items are. A zone is a place, not a list: it equals only
#: itself, never a list, not even an empty one (``p.hand == []`` was always false), so it is a family
#: of its own; its cards, as a list, are ``cards(p.hand)`` (or a list filtered from it).
COMPARED_AS = {"number": "number", "text": "text", "bool": "bool", "player": "player", "card": "card",
               "zone": "zone", "list": "list", "cards": "list", "players": "list"}

#: Kinds that are certainly not a list to go through (``for each``, ``every``, ``those`` ...). A single
#: player or card is read as a list of one by design; a number, a text or true/false would be too,
#: silently (``for each q in 5`` ran once).
NOT_ITEMS = {"number", "text", "bool"}

#: Kinds that are certainly not cards (or a list or zone of cards) to reveal, conceal or initiate.
NOT_CARDS = {"number", "player", "text", "bool", "players"}

#: Kinds that are certainly not a zone, where only a zone will do (``move ... to``, ``draw``, ``create
#: ... into``, ``shuffle``, a scenario's ``force order``): a list, even of a zone's cards, is not one
#: (``move c to (those d in p.hand: ...)`` failed when the rule ran).
NOT_ZONES = {"number", "player", "card", "text", "bool", "list", "cards", "players"}


def literal_number(x):
    """The whole number an expression writes out (``5``, ``-5``), or None."""
    if isinstance(x, A.Number):
        return x.value
    if isinstance(x, A.Unary) and x.op == "-":
        inner = literal_number(x.operand)
        return -inner if inner is not None else None
    return None


def element_type(kind: str) -> str:
    """What the items gone through in a value of this kind are (a zone's: its cards)."""
    return {"players": "player", "zone": "card", "cards": "card"}.get(kind, "any")


def list_of(kind: str) -> str:
    """What a list filtered from a value of this kind is (``those``, ``highest``, ``lowest``): from a
    zone, or a list of cards, a list of cards, not the zone; a single card or player is a list of one.
    The built-ins that return a list, ``cards(z)`` among them, are a list of anything (``cards`` passes
    a list through: ``cards(players)`` is the players): refused where a zone is needed and compared
    with a zone all the same."""
    return {"zone": "cards", "cards": "cards", "card": "cards", "players": "players", "player": "players"}.get(
        kind, "list")


def takes(b, args) -> bool:
    """Whether built-in ``b`` takes this many arguments."""
    return b.min_args <= len(args) and (b.max_args is None or len(args) <= b.max_args)


def article(kind: str) -> str:
    return {"player": "a player", "card": "a card", "zone": "a zone", "text": "text", "list": "a list",
            "cards": "a list of cards", "number": "a number", "bool": "true or false",
            "players": "a list of players"}.get(kind, kind)


def field_type(f: A.StateField) -> str:
    return {"counter": "number", "supply": "number", "zone": "zone", "row": "zone", "role": "player",
            "flag": "bool"}[f.kind]
