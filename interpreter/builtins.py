"""The built-ins: the small, generic, documented library the rules language calls.

Nothing here knows a game. Each built-in is arithmetic, ordering, player order, zones or geometry
(``board.py`` adds the grid and row built-ins). The static checks read the table for names, arity and
result types; the engine calls the implementations with the running game as ``game``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from .state import Card, Player, Zone


@dataclass(frozen=True)
class Builtin:
    name: str
    min_args: int
    max_args: Optional[int]        # None: any number
    returns: str                   # number, bool, player, card, zone, list, text, space, any
    doc: str
    fn: Callable


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


def _not_a_number(xs):
    """The first item that is not a number (true and false are not)."""
    return next((x for x in xs if type(x) is not int), None)


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


# ------------------------------------------------------------------ players and order


@constant("players", "list")
def _players(game):
    """The players still in the game, in player order (clockwise from the first seat)."""
    return [p for p in game.state.players if not p.eliminated]


@constant("all-players", "list")
def _all_players(game):
    """Every player, eliminated or not, in seat order."""
    return list(game.state.players)


@constant("player-count", "number")
def _player_count(game):
    """How many players the game started with."""
    return len(game.state.players)


@constant("format", "text")
def _format(game):
    """The format being played, as named in the game header (e.g. joust or melee)."""
    return game.state.format


@constant("nobody", "none")
def _nobody(game):
    """No player (the same as none), for roles no one holds."""
    return None


@builtin("players-from", 1, returns="list")
def players_from(game, start):
    """The players still in the game in player order (clockwise), starting with ``start``
    (or, if ``start`` is out of the game, with the next player after that seat)."""
    seats = game.state.players
    i = _seat("players-from", seats, start)
    return [p for p in seats[i:] + seats[:i] if not p.eliminated]


@builtin("next-player", 1, returns="player")
def next_player(game, player):
    """The player on ``player``'s left: the next one in player order still in the game."""
    seats = game.state.players
    n = len(seats)
    i = _seat("next-player", seats, player)
    for k in range(1, n + 1):
        candidate = seats[(i + k) % n]
        if not candidate.eliminated:
            return candidate
    return None


@builtin("previous-player", 1, returns="player")
def previous_player(game, player):
    """The player on ``player``'s right: the previous one in player order still in the game."""
    seats = game.state.players
    n = len(seats)
    i = _seat("previous-player", seats, player)
    for k in range(1, n + 1):
        candidate = seats[(i - k) % n]
        if not candidate.eliminated:
            return candidate
    return None


@builtin("opponents", 1, returns="list")
def opponents(game, player):
    """Every other player still in the game, in player order after ``player``."""
    seats = game.state.players
    i = _seat("opponents", seats, player)
    return [p for p in seats[i:] + seats[:i] if not p.eliminated and p is not player]


# ------------------------------------------------------------------ lists and zones


@builtin("size", 1, returns="number")
def size(game, xs):
    """How many cards a zone holds, or how many items a list has."""
    if type(xs) is Zone:
        return len(xs.cards)
    if hasattr(xs, "cards"):
        return len(xs.cards)
    try:
        return len(xs)
    except TypeError:
        raise _wrong("size", xs, "a list or a zone") from None


@builtin("top", 1, returns="card")
def top(game, zone):
    """The top card of a zone (the most recently placed for a pile), or none if it is empty."""
    cards = zone.cards if type(zone) is Zone else _list("top", zone)
    return cards[0] if cards else None


@builtin("bottom", 1, returns="card")
def bottom(game, zone):
    """The bottom card of a zone, or none if it is empty."""
    cards = zone.cards if type(zone) is Zone else _list("bottom", zone)
    return cards[-1] if cards else None


@builtin("cards", 1, returns="list")
def cards(game, zone):
    """The cards of a zone, top first, as a list."""
    if type(zone) is Zone or hasattr(zone, "cards"):
        return list(zone.cards)
    return _list("cards", zone)


@builtin("first", 1, returns="any")
def first(game, xs):
    """The first item of a list, or none."""
    if type(xs) is not list:
        xs = _list("first", xs)
    return xs[0] if xs else None


@builtin("last", 1, returns="any")
def last(game, xs):
    """The last item of a list, or none."""
    if type(xs) is not list:
        xs = _list("last", xs)
    return xs[-1] if xs else None


@builtin("reverse", 1, returns="list")
def reverse(game, xs):
    """A list in the opposite order."""
    return list(reversed(_list("reverse", xs)))


@builtin("without", 2, returns="list")
def without(game, xs, ys):
    """The items of the first list that are not in the second (or not equal to a single item)."""
    ys = _items([ys]) if isinstance(ys, (list, tuple)) or hasattr(ys, "cards") else [ys]
    return [x for x in _list("without", xs) if x not in ys]


@builtin("join", 2, returns="list")
def join(game, xs, ys):
    """The items of both lists, first then second."""
    return _list("join", xs) + _list("join", ys)


@builtin("owner", 1, returns="player")
def owner(game, card):
    """The player who owns a card (none for a game-level card)."""
    return _card("owner", card).owner


@builtin("zone-of", 1, returns="zone")
def zone_of(game, card):
    """The zone a card is in."""
    return _card("zone-of", card).zone


@builtin("titles", 1, returns="list")
def titles(game, xs):
    """The titles of a list of cards (or a zone's cards)."""
    return [_card("titles", c).title for c in _list("titles", xs)]


@constant("cards-in-play", "list")
def _cards_in_play(game):
    """Every card in a zone the state schema marks ``in-play`` (game zones first, then each player's in
    seat order; top first within a zone)."""
    return game.cards_in_play()


@builtin("has-ability", 2, returns="bool")
def has_ability(game, card, kind):
    """Whether a card's definition has an ability of this kind or name (compared without case)."""
    definition = game.gamedef.cards.get(_card("has-ability", card).title)
    if type(kind) is not str:
        raise _wrong("has-ability", kind, "a text")
    kind = kind.lower()
    return bool(definition) and any(kind in (a.kind.lower(), a.name.lower()) for a in definition.abilities)


@builtin("flatten", 1, returns="list")
def flatten(game, lists):
    """One list of the items of a list of lists (or zones), in order."""
    return [x for xs in _list("flatten", lists) for x in _list("flatten", xs)]


# ------------------------------------------------------------------ arithmetic


@builtin("sum", 1, None, returns="number")
def total(game, *args):
    """The sum of numbers (given one by one, or as a list)."""
    xs = _items(args)
    try:
        return sum(xs)
    except TypeError:
        raise _wrong("sum", _not_a_number(xs), "a number") from None


@builtin("min", 1, None, returns="number")
def minimum(game, *args):
    """The least of numbers (given one by one, or as a list); 0 for an empty list."""
    xs = _items(args)
    try:
        return min(xs) if xs else 0
    except TypeError:
        raise _wrong("min", _not_a_number(xs), "a number") from None


@builtin("max", 1, None, returns="number")
def maximum(game, *args):
    """The greatest of numbers (given one by one, or as a list); 0 for an empty list."""
    xs = _items(args)
    try:
        return max(xs) if xs else 0
    except TypeError:
        raise _wrong("max", _not_a_number(xs), "a number") from None


@builtin("abs", 1, returns="number")
def absolute(game, n):
    """The absolute value of a number."""
    return abs(_number("abs", n))


@builtin("odd", 1, returns="bool")
def odd(game, n):
    """Whether a number is odd (1, 3, 5, 7 ...)."""
    return _number("odd", n) % 2 == 1


@builtin("even", 1, returns="bool")
def even(game, n):
    """Whether a number is even (2, 4, 6 ...)."""
    return _number("even", n) % 2 == 0


#: The most numbers ``range`` lists. Rules count through rounds, players, cards, dice, a few hundred at
#: most; a list this long is a mistake, and a far longer one would take all the machine's memory
#: before anything else could stop it. (The static checks refuse a literal range beyond it too.)
RANGE_LIMIT = 100_000


@builtin("range", 2, returns="list")
def number_range(game, low, high):
    """The whole numbers from ``low`` to ``high``, both included (at most 100,000 of them)."""
    _number("range", low)
    _number("range", high)
    if high - low + 1 > RANGE_LIMIT:
        # a ValueError: the engine reports it at the call, in its rule, as a value of the wrong kind
        raise ValueError(f"range({low}, {high}) would list {high - low + 1} numbers, more than the "
                         f"{RANGE_LIMIT} a range may hold")
    return list(range(low, high + 1))


from . import board as _board  # noqa: E402,F401  (registers the board and row built-ins)
