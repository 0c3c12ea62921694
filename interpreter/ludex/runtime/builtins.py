"""The built-ins: the small, generic, documented library the rules language calls.

Nothing here knows a game. Each built-in is arithmetic, ordering, player order, zones or geometry
(``board.py`` adds the grid and row built-ins). The static checks read the table for names, arity and
result types; the engine calls the implementations with the running game as ``game``.

Each built-in's documentation (its docstring) says what it gives, then shows it on lines of their own,
written in the rules language (``Example``):

    Example: next-player(ann) gives cat  # bob, out of the game, is skipped

The examples are worked out in one small game, ``tests/games/builtins.ludex`` (ann, bob and cat; bob
out of the game; a few cards, a row and the board ``yard``), by ``tests/test_builtin_examples.py``,
which reads, checks and runs each through the parser, the checks, the compiler and the engine, and
compares what it gives with what is written. The rules site's built-ins page shows them.
"""

from __future__ import annotations

from . import board  # noqa: F401  (registers the board and row built-ins in the same tables)
from .registry import (  # noqa: F401
    BUILTINS,
    CONSTANTS,
    _card,
    _items,
    _list,
    _number,
    _numbers,
    _seat,
    _wrong,
    builtin,
    constant,
    value_words,
)
from .state import Zone

#: The most dice one roll may have. Every die is a face drawn and traced; games roll a handful, and a
#: count far beyond this is a mistake that would fill the machine's memory before anything stopped it.
DICE_LIMIT = 1000

# ------------------------------------------------------------------ players and order


@constant("players", "list")
def _players(game):
    """The players still in the game, in player order (clockwise from the first seat).

    Example: players gives [ann, cat]  # bob is out of the game
    """
    books = game.books
    remembered = books.players_in                   # (the same list until the next elimination)
    if remembered[0] != books.eliminations:
        remembered = books.players_in = (books.eliminations, [p for p in game.state.players if not p.eliminated])
    return remembered[1]


@constant("all-players", "list")
def _all_players(game):
    """Every player, eliminated or not, in seat order.

    Example: all-players gives [ann, bob, cat]  # bob too, out of the game
    """
    return list(game.state.players)


@constant("player-count", "number")
def _player_count(game):
    """How many players the game started with.

    Example: player-count gives 3  # bob, out of the game, still counts
    """
    return len(game.state.players)


@constant("format", "text")
def _format(game):
    """The format being played, as named in the game header (e.g. joust or melee).

    Example: format gives "trio"
    """
    return game.state.format


@constant("nobody", "none")
def _nobody(game):
    """No player (the same as none), for roles no one holds.

    Example: nobody gives none
    """
    return None


@builtin("players-from", 1, returns="list")
def players_from(game, start):
    """The players still in the game in player order (clockwise), starting with ``start``
    (or, if ``start`` is out of the game, with the next player after that seat).

    Example: players-from(cat) gives [cat, ann]  # bob, out of the game, is skipped
    Example: players-from(bob) gives [cat, ann]  # bob is out: the next seat starts
    """
    seats = game.state.players
    i = _seat("players-from", seats, start)
    return [p for p in seats[i:] + seats[:i] if not p.eliminated]


@builtin("next-player", 1, returns="player")
def next_player(game, player):
    """The player on ``player``'s left: the next one in player order still in the game.

    Example: next-player(ann) gives cat  # bob, out of the game, is skipped
    Example: next-player(cat) gives ann  # round the table
    """
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
    """The player on ``player``'s right: the previous one in player order still in the game.

    Example: previous-player(cat) gives ann  # bob, out of the game, is skipped
    Example: previous-player(ann) gives cat  # round the table
    """
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
    """Every other player still in the game, in player order after ``player``.

    Example: opponents(cat) gives [ann]  # bob is out of the game
    """
    seats = game.state.players
    i = _seat("opponents", seats, player)
    return [p for p in seats[i:] + seats[:i] if not p.eliminated and p is not player]


# ------------------------------------------------------------------ whose turn it is


@builtin("to-act", 1, returns="player")
def to_act(game, window):
    """The player whose opportunity it is in the action window named ``window`` (a ``window "NAME"``
    statement's name: a name no window has is refused, S090), while it is open; none when no window
    of that name is open: before it opens, once every player has passed in a row, and in a play tried
    outside it. Of two windows of that name open inside each other, the innermost's. ``require
    to-act("Turns of the round") == p``: a play made only on its player's turn in that window.

    Example: to-act("Market hours") gives none  # the window is not open
    """
    for name, player in reversed(game.acting):
        if name == window:
            return player
    return None


@constant("turn-player", "player")
def turn_player(game):
    """The player whose turn (a ``turn of PLAYER`` statement) is going on, the innermost's when one
    is taken inside another; none when no turn is going on: before it begins, after it ends, and in a
    play tried outside it. ``require turn-player == p``: a play made only on its player's turn.

    Example: turn-player gives none  # no turn is going on
    """
    for name, player in reversed(game.acting):
        if name is None:
            return player
    return None


# ------------------------------------------------------------------ lists and zones


@builtin("size", 1, returns="number")
def size(game, xs):
    """How many cards a zone holds, or how many items a list has.

    Example: size(ann.hand) gives 3
    Example: size(cat.hand) gives 0
    Example: size(players) gives 2
    """
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
    """The top card of a zone (the most recently placed for a pile), or none if it is empty.

    Example: top(ann.hand) gives "Lantern"
    Example: top(cat.hand) gives none  # an empty zone
    """
    cards = zone.cards if type(zone) is Zone else _list("top", zone)
    return cards[0] if cards else None


@builtin("bottom", 1, returns="card")
def bottom(game, zone):
    """The bottom card of a zone, or none if it is empty.

    Example: bottom(ann.hand) gives "Bell"
    Example: bottom(cat.hand) gives none  # an empty zone
    """
    cards = zone.cards if type(zone) is Zone else _list("bottom", zone)
    return cards[-1] if cards else None


@builtin("cards", 1, returns="list")
def cards(game, zone):
    """The cards of a zone, top first, as a list.

    Example: cards(ann.hand) gives ["Lantern", "Rope", "Bell"]
    Example: cards(cat.hand) gives []
    """
    if type(zone) is Zone or hasattr(zone, "cards"):
        return list(zone.cards)
    return _list("cards", zone)


@builtin("first", 1, returns="any")
def first(game, xs):
    """The first item of a list, or none.

    Example: first(players) gives ann
    Example: first(cards(cat.hand)) gives none  # an empty list
    """
    if type(xs) is not list:
        xs = _list("first", xs)
    return xs[0] if xs else None


@builtin("last", 1, returns="any")
def last(game, xs):
    """The last item of a list, or none.

    Example: last(cards(ann.hand)) gives "Bell"
    Example: last(players) gives cat
    """
    if type(xs) is not list:
        xs = _list("last", xs)
    return xs[-1] if xs else None


@builtin("reverse", 1, returns="list")
def reverse(game, xs):
    """A list in the opposite order.

    Example: reverse(ann.hand) gives ["Bell", "Rope", "Lantern"]
    """
    return list(reversed(_list("reverse", xs)))


@builtin("without", 2, returns="list")
def without(game, xs, ys):
    """The items of the first list that are not in the second (or not equal to a single item).

    Example: without(cards(ann.hand), top(ann.hand)) gives ["Rope", "Bell"]  # without a single card
    Example: without(all-players, players) gives [bob]
    """
    ys = _items([ys]) if isinstance(ys, (list, tuple)) or hasattr(ys, "cards") else [ys]
    return [x for x in _list("without", xs) if x not in ys]


@builtin("join", 2, returns="list")
def join(game, xs, ys):
    """The items of both lists, first then second.

    Example: join(players, [bob]) gives [ann, cat, bob]
    """
    return _list("join", xs) + _list("join", ys)


@builtin("owner", 1, returns="player")
def owner(game, card):
    """The player who owns a card (none for a game-level card).

    Example: owner(top(ann.hand)) gives ann
    Example: owner(top(market)) gives none  # the market is the game's, not a player's
    """
    return _card("owner", card).owner


@builtin("zone-of", 1, returns="zone")
def zone_of(game, card):
    """The zone a card is in.

    Example: zone-of(left-end(ann.street)) gives ann.street
    """
    return _card("zone-of", card).zone


@builtin("titles", 1, returns="list")
def titles(game, xs):
    """The titles of a list of cards (or a zone's cards).

    Example: titles(ann.street) gives ["Rope", "Lantern", "Bell"]
    """
    return [_card("titles", c).title for c in _list("titles", xs)]


@constant("cards-in-play", "list")
def _cards_in_play(game):
    """Every card in a zone the state schema marks ``in-play``: game zones first, then each player's in
    seat order (a player out of the game's too: the rules say what leaves play), top first within a
    zone.

    Example: cards-in-play gives ["Rope", "Bell"]  # ann's Rope, then bob's Bell, though bob is out
    """
    return game.cards_in_play()


@builtin("has-ability", 2, returns="bool")
def has_ability(game, card, kind):
    """Whether a card's definition has an ability of this kind or name (compared without case).

    Example: has-ability(top(ann.hand), "when lit") gives true  # the Lantern's Glow is a When lit ability
    Example: has-ability(top(ann.hand), "glow") gives true  # by its name
    Example: has-ability(bottom(ann.hand), "when lit") gives false  # the Bell has no ability
    """
    definition = game.gamedef.cards.get(_card("has-ability", card).title)
    if type(kind) is not str:
        raise _wrong("has-ability", kind, "a text")
    kind = kind.lower()
    return bool(definition) and any(kind in (a.kind.lower(), a.name.lower()) for a in definition.abilities)


@builtin("flatten", 1, returns="list")
def flatten(game, lists):
    """One list of the items of a list of lists (or zones), in order.

    Example: flatten([ann.table, cat.table, market]) gives ["Rope", "Bell"]  # cat's table is empty
    """
    return [x for xs in _list("flatten", lists) for x in _list("flatten", xs)]


# ------------------------------------------------------------------ arithmetic


@builtin("sum", 1, None, returns="number")
def total(game, *args):
    """The sum of numbers (given one by one, or as a list).

    Example: sum(1, 2, 3) gives 6
    Example: sum([]) gives 0
    """
    xs = _numbers("sum", args)
    return sum(xs)


@builtin("min", 1, None, returns="number")
def minimum(game, *args):
    """The least of numbers (given one by one, or as a list); 0 for an empty list.

    Example: min(4, 2, 7) gives 2
    Example: min([]) gives 0  # nothing to compare
    """
    xs = _numbers("min", args)
    return min(xs) if xs else 0


@builtin("max", 1, None, returns="number")
def maximum(game, *args):
    """The greatest of numbers (given one by one, or as a list); 0 for an empty list.

    Example: max([4, 2, 7]) gives 7
    Example: max([]) gives 0  # nothing to compare
    """
    xs = _numbers("max", args)
    return max(xs) if xs else 0


@builtin("abs", 1, returns="number")
def absolute(game, n):
    """The absolute value of a number.

    Example: abs(2 - 5) gives 3
    """
    return abs(_number("abs", n))


@builtin("odd", 1, returns="bool")
def odd(game, n):
    """Whether a number is odd (1, 3, 5, 7 ...).

    Example: odd(7) gives true
    Example: odd(-3) gives true
    Example: odd(0) gives false
    """
    return _number("odd", n) % 2 == 1


@builtin("even", 1, returns="bool")
def even(game, n):
    """Whether a number is even (2, 4, 6 ...).

    Example: even(0) gives true
    Example: even(-3) gives false
    """
    return _number("even", n) % 2 == 0


#: The most numbers ``range`` lists. Rules count through rounds, players, cards, dice, a few hundred at
#: most; a list this long is a mistake, and a far longer one would take all the machine's memory
#: before anything else could stop it. (The static checks refuse a literal range beyond it too.)
RANGE_LIMIT = 100_000


@builtin("range", 2, returns="list")
def number_range(game, low, high):
    """The whole numbers from ``low`` to ``high``, both included (at most 100,000 of them).

    Example: range(2, 5) gives [2, 3, 4, 5]
    Example: range(3, 1) gives []  # nothing from 3 up to 1
    """
    _number("range", low)
    _number("range", high)
    if high - low + 1 > RANGE_LIMIT:
        # a ValueError: the engine reports it at the call, in its rule, as a value of the wrong kind
        raise ValueError(f"range({low}, {high}) would list {high - low + 1} numbers, more than the "
                         f"{RANGE_LIMIT} a range may hold")
    return list(range(low, high + 1))

