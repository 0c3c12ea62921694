"""The state of a game in play: players in seat order, counters, supplies, zones, rows, roles, flags
and cards. Built from a game's schema; can be snapshot and compared; checks its own invariants.

In: a ``GameDef``'s state schema and card definitions. Out: mutable state objects the engine changes
(and only the engine: every change goes through the engine, which cites the rule making it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

#: ``State._within_bounds``'s test maker, compiled, by the shape of the bounds (the same for every game of
#: a set of rules)
_BOUNDS_TESTS: dict = {}


def _bounds_test_maker(shape: tuple):
    """A function that, given the fields' dicts and the bounds in the order of ``shape`` (each supply's
    fields and capacity; each bounded counter's fields, then its minimum and maximum, those it has),
    makes ``State._within_bounds``'s test: one expression, each value it reads a closure cell."""
    params, terms = [], []
    for i, (name, _, no_low, no_high) in enumerate(shape):
        if no_low is None:                  # a supply (its entry ``(name, None, None, None)``): 0 to its capacity
            params += [f"s{i}", f"c{i}"]
            terms.append(f"(type(v := s{i}.get({name!r}, 0)) is not int or 0 <= v <= c{i})")
            continue
        params.append(f"f{i}")
        test = []
        if not no_low:
            params.append(f"lo{i}")
            test.append(f"lo{i} <= v")
        if not no_high:
            params.append(f"hi{i}")
            test.append(f"v <= hi{i}")
        terms.append(f"(type(v := f{i}[{name!r}]) is not int or ({' and '.join(test)}))")
    source = (f"def make({', '.join(params)}):\n"
              f"    return lambda: {' and '.join(terms) or 'True'}\n")
    env: dict = {}
    exec(compile(source, "<bounds>", "exec"), env)
    return env["make"]


def words(value) -> str:
    """How the trace writes a value: ``none``, ``yes``, ``no``, ``[a, b]``, ``""`` for empty text (which
    would otherwise print as nothing at all), or its ``str`` (a player's name and a card's title read in
    place)."""
    kind = type(value)
    if kind is str:
        return value or '""'
    if kind is Player:
        return value.name
    if kind is Card:
        return value.title
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(words(v) for v in value) + "]"
    return str(value)


def items_of(value):
    """The items a value stands for where a list is wanted, not copied: a zone's cards, a list's (or a
    tuple's) items, nothing for none, and otherwise the value alone (``for each``, quantifiers and a
    play's choices read a single card as a list of one)."""
    if type(value) is list:
        return value
    if isinstance(value, Zone):
        return value.cards
    if value is None:
        return ()
    if isinstance(value, tuple):
        return value
    return (value,)


class Card:
    """One physical card in play: a definition's title and attributes, an owner, the zone it is in."""

    __slots__ = ("id", "title", "type", "attrs", "owner", "zone", "face_up")

    def __init__(self, id: int, title: str, type: str, attrs: dict, owner):
        self.id = id
        self.title = title
        self.type = type
        self.attrs = attrs
        self.owner = owner
        self.zone: Optional[Zone] = None
        self.face_up = False

    def __repr__(self) -> str:
        return f"{self.title}#{self.id}"

    def __str__(self) -> str:
        return self.title


class Zone:
    """An ordered collection of cards (index 0 is the top, or the left end of a row)."""

    __slots__ = ("name", "owner", "cards", "hidden", "ordered", "row", "in_play", "key", "checks", "label")

    def __init__(self, name: str, owner, hidden: bool = False, ordered: bool = False, row: bool = False,
                 in_play: bool = False):
        self.in_play = in_play
        self.name = name
        #: the name its cards are read and changed under (``reads.zone_key``)
        self.key = "zone:" + name
        #: the state checks that a card entering or leaving it, or its cards reordered, may wake
        #: (``reads.CheckBits.of_zone``): marked in ``Bookkeeping.stale`` then
        self.checks = 0
        self.owner = owner
        #: how the trace names it: ``ann.hand``, ``market`` (its owner and name never change)
        self.label = f"{owner.name}.{name}" if owner else name
        self.cards: list[Card] = []
        self.hidden = hidden
        self.ordered = ordered
        self.row = row

    def __repr__(self) -> str:
        return self.label

    __str__ = __repr__

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def __contains__(self, card) -> bool:
        return card in self.cards


class Player:
    """A seat at the table: a name, counters and flags (``fields``), zones."""

    __slots__ = ("name", "seat", "fields", "zones", "eliminated")

    def __init__(self, name: str, seat: int):
        self.name = name
        self.seat = seat
        self.fields: dict = {}
        self.zones: dict[str, Zone] = {}
        self.eliminated = False

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__


@dataclass
class State:
    players: list
    format: str = ""
    fields: dict = field(default_factory=dict)      # game counters, supplies, roles, flags
    zones: dict = field(default_factory=dict)       # game zones
    cards: list = field(default_factory=list)       # every card ever created, by id
    supply_capacity: dict = field(default_factory=dict)
    bounds: dict = field(default_factory=dict)      # field name -> (min, max) evaluated at set-up
    # What the invariant check works out once and keeps (``zone_list``, ``_bounded_counters``,
    # ``_within_bounds``) or updates as it looks (``_cards_consistent``): declared, so that a State
    # holds only the names its class gives.
    _zone_list: Optional[list] = field(default=None, init=False, repr=False, compare=False)
    _bounded: Optional[list] = field(default=None, init=False, repr=False, compare=False)
    _sizes: Optional[dict] = field(default=None, init=False, repr=False, compare=False)
    _placed: int = field(default=0, init=False, repr=False, compare=False)
    _bounds_test: object = field(default=None, init=False, repr=False, compare=False)

    def player(self, name: str) -> Optional[Player]:
        for p in self.players:
            if p.name == name:
                return p
        return None

    def all_zones(self):
        yield from self.zones.values()
        for p in self.players:
            yield from p.zones.values()

    def zone_list(self) -> list:
        """``all_zones`` as a list, made once the zones are (the schema's: none is added in play)."""
        found = self._zone_list
        if found is None:
            found = self._zone_list = list(self.all_zones())
        return found

    def snapshot(self) -> dict:
        """A plain, comparable picture of the whole state (names, numbers, titles in order)."""
        def value(v):
            if isinstance(v, Player):
                return f"player:{v.name}"
            if isinstance(v, Card):
                return f"card:{v.id}"
            return v
        return {
            "format": self.format,
            "fields": {k: value(v) for k, v in sorted(self.fields.items())},
            "zones": {z.name: [c.id for c in z.cards] for z in self.zones.values()},
            "players": [{
                "name": p.name, "eliminated": p.eliminated,
                "fields": {k: value(v) for k, v in sorted(p.fields.items())},
                "zones": {z.name: [c.id for c in z.cards] for z in p.zones.values()},
            } for p in self.players],
            "cards": [(c.id, c.title, c.face_up, sorted((k, value(v)) for k, v in c.attrs.items()))
                      for c in self.cards],
        }

    def _bounded_counters(self) -> list:
        """``(name, low, high, fields, owner)`` for every counter and supply with a bound, once."""
        found = self._bounded
        if found is None:
            owners = [(None, self.fields)] + [(p, p.fields) for p in self.players]
            found = self._bounded = [
                (name, low, high, fields, owner) for name, (low, high) in self.bounds.items()
                if low is not None or high is not None for owner, fields in owners if name in fields]
        return found

    def _cards_consistent(self, changed, placed) -> bool:
        """Whether every card is in exactly one zone, the one it records.

        As many cards are placed as exist: counted in full at the first look, then kept up to date
        from the changed zones' sizes (``_sizes``: each zone's size when last looked at). Each card
        placed since the last look is in the zone it records; the others are where they were. Then no
        card is in two places (two zones, or one twice): its extra place would leave one card too many
        placed, or another card missing, and a card leaves a zone only by being placed in another,
        which it would then be found in. (Looking for a card at its zone's ends first, where a card
        is put, spares a search through a deck: a list's ``in`` compares every other card on the way.)
        ``changed`` or ``placed`` None: a full look (``_cards_placed_consistent`` narrows one)."""
        if changed is not None and placed is not None and self._sizes is not None:
            return self._cards_placed_consistent(changed, placed)
        sizes = self._sizes = {z: len(z.cards) for z in self.zone_list()}
        self._placed = sum(sizes.values())
        if self._placed != len(self.cards):
            return False
        for z in sizes:
            cards = z.cards
            if len(set(cards)) != len(cards):
                return False
            for card in cards:
                if card.zone is not z:
                    return False
        return True

    def _cards_placed_consistent(self, changed, placed) -> bool:
        """``_cards_consistent`` narrowed to the zones ``changed`` and the cards ``placed`` since the
        last look (a full one first, which counts the zones' sizes). The engine's look after every
        rule that moved a card calls it: kept to as few steps as it needs, a card's zone empty or None
        caught as the ``IndexError`` or ``AttributeError`` it raises rather than asked about."""
        sizes = self._sizes
        if sizes is None:               # (no look yet)
            return self._cards_consistent(None, None)
        total = self._placed
        for z in changed:
            now = len(z.cards)
            total += now - sizes[z]
            sizes[z] = now
        self._placed = total
        if total != len(self.cards):
            return False
        try:
            for card in placed:
                cards = card.zone.cards
                if cards[0] is not card and cards[-1] is not card and card not in cards:
                    return False
        except (AttributeError, IndexError):    # (a card in no zone, None; or its zone empty)
            return False
        return True

    def _card_problems(self) -> list[str]:
        """The cards' problems, in words (a full look: ``_cards_consistent`` found one)."""
        problems = []
        seen: dict[int, Zone] = {}
        for zone in self.zone_list():
            for card in zone.cards:
                if card.id in seen:
                    problems.append(f"{card.title} is in two places: {seen[card.id]} and {zone}")
                seen[card.id] = zone
                if card.zone is not zone:
                    problems.append(f"{card.title} is in {zone} but records {card.zone}")
        for card in self.cards:
            if card.id not in seen:
                problems.append(f"{card.title} (card {card.id}) is in no zone: a card was lost")
        if not problems:        # (a card twice in one zone is named above as in two places)
            problems.append("the cards are not where they record")
        return problems

    def _within_bounds(self) -> bool:
        """Whether every supply and bounded counter is within its bounds: one Python expression,
        written once the fields are (all of them exist from set-up on), since it is asked after every
        step. The expression is made by a function compiled
        once a process for each shape of bounds (``_BOUNDS_TESTS``: which names, of whom, with which
        bounds), given the fields' dicts and the bounds of a game, which its expression reads as
        closure cells. The words for a break: ``invariant_breaks``."""
        held = self._bounds_test
        if held is None:
            shape, values = [], []
            for name, capacity in self.supply_capacity.items():
                shape.append((name, None, None, None))
                values += (self.fields, capacity)
            for name, low, high, fields, owner in self._bounded_counters():
                shape.append((name, owner is None, low is None, high is None))
                values += (fields,) + ((low,) if low is not None else ()) + ((high,) if high is not None else ())
            shape = tuple(shape)
            make = _BOUNDS_TESTS.get(shape)
            if make is None:
                make = _BOUNDS_TESTS[shape] = _bounds_test_maker(shape)
            held = self._bounds_test = make(*values)
        return held()

    def invariant_breaks(self, cards_moved: bool = True, changed=None, placed=None,
                         bounds_changed: bool = True) -> list[str]:
        """What is wrong with this state, in words: cards lost, duplicated or misplaced; supplies or
        counters out of bounds. Empty when the state is consistent.

        A look may be narrowed to what changed since the last look (anyone's), which found the state
        consistent; the engine creates, moves and shuffles cards only through ``Game.create_cards``,
        ``Game.move_card`` and the shuffle, each of which notes the zones it changes and the cards it
        places (``Bookkeeping.zones_changed``, ``cards_placed``); and only the statements ``set``,
        ``increase``, ``decrease`` and ``transfer`` change a supply or counter, each refusing a value out
        of its bounds and counting a change that may break one all the same (``bounds_changed``: a
        game's supply's capacity, a transfer's source's minimum). ``cards_moved=False`` (no card was
        created, moved or reordered) skips the cards. ``changed``: the zones whose cards were changed; ``placed``: the
        cards created, moved or reordered; None to look at every zone and card. ``bounds_changed=False``
        (no supply or counter with bounds was changed) skips the bounds."""
        problems = []
        if cards_moved and not self._cards_consistent(changed, placed) and \
                not self._cards_consistent(None, None):
            problems += self._card_problems()       # (a narrowed look is confirmed by a full one)
        if not bounds_changed or self._within_bounds():
            return problems
        for name, capacity in self.supply_capacity.items():
            held = self.fields.get(name, 0)
            if held < 0 or held > capacity:
                problems.append(f"the {name} holds {held}, outside 0 to {capacity}")
        for name, low, high, fields, owner in self._bounded_counters():
            value = fields[name]
            if type(value) is not int:
                continue
            if low is not None and value < low:
                who = f"{owner.name}'s " if owner else ""
                problems.append(f"{who}{name} is {value}, below its minimum {low}")
            if high is not None and value > high:
                who = f"{owner.name}'s " if owner else ""
                problems.append(f"{who}{name} is {value}, above its maximum {high}")
        return problems
