"""The state of a game in play: players in seat order, counters, supplies, zones, rows, roles, flags
and cards. Built from a game's schema; can be snapshot and compared; checks its own invariants.

In: a ``GameDef``'s state schema and card definitions. Out: mutable state objects the engine changes
(and only the engine: every change goes through ``engine.py``, which cites the rule making it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


def words(value) -> str:
    """How the trace writes a value: ``none``, ``yes``, ``no``, ``[a, b]``, or its ``str``."""
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

    __slots__ = ("name", "owner", "cards", "hidden", "ordered", "row", "in_play", "key")

    def __init__(self, name: str, owner, hidden: bool = False, ordered: bool = False, row: bool = False,
                 in_play: bool = False):
        self.in_play = in_play
        self.name = name
        #: the name its cards are read and written under (``reads.zone_key``)
        self.key = "zone:" + name
        self.owner = owner
        self.cards: list[Card] = []
        self.hidden = hidden
        self.ordered = ordered
        self.row = row

    def __repr__(self) -> str:
        return f"{self.owner.name}.{self.name}" if self.owner else self.name

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
        found = self.__dict__.get("_zone_list")
        if found is None:
            found = self.__dict__["_zone_list"] = list(self.all_zones())
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
        found = self.__dict__.get("_bounded")
        if found is None:
            owners = [(None, self.fields)] + [(p, p.fields) for p in self.players]
            found = self.__dict__["_bounded"] = [
                (name, low, high, fields, owner) for name, (low, high) in self.bounds.items()
                if low is not None or high is not None for owner, fields in owners if name in fields]
        return found

    def invariant_breaks(self, cards_moved: bool = True, changed=None) -> list[str]:
        """What is wrong with this state, in words: cards lost, duplicated or misplaced; supplies or
        counters out of bounds. Empty when the state is consistent. ``cards_moved=False`` (no card
        was created, moved or reordered since the last look) skips the cards. ``changed``: the zones
        whose cards were changed since the last look, which found the state consistent (the engine
        creates, moves and shuffles cards only through ``Game.create_card``, ``Game.move_card`` and
        the shuffle, each of which notes the zones it changes); None to look at every zone."""
        problems = []
        zones = self.zone_list() if cards_moved else []
        zones_ok = True
        if cards_moved:
            # As many cards placed as exist; in each zone (each zone a card entered or left, when
            # ``changed`` says which: the others hold what they held, each card still recording them),
            # each card once, recording the zone. Then no card is in two zones (it records one of them)
            # and none is missing. (Plain loops: here they are quicker than map and attrgetter.)
            placed = 0
            for z in zones:
                placed += len(z.cards)
            zones_ok = placed == len(self.cards)
            for z in (zones if changed is None else changed) if zones_ok else ():
                cards = z.cards
                if len(set(cards)) != len(cards):
                    zones_ok = False
                    break
                for card in cards:
                    if card.zone is not z:
                        zones_ok = False
                        break
                if not zones_ok:
                    break
        seen: dict[int, Zone] = {}
        for zone in (() if zones_ok else zones):
            for card in zone.cards:
                if card.id in seen:
                    problems.append(f"{card.title} is in two places: {seen[card.id]} and {zone}")
                seen[card.id] = zone
                if card.zone is not zone:
                    problems.append(f"{card.title} is in {zone} but records {card.zone}")
        for card in (() if zones_ok else self.cards):
            if card.id not in seen:
                problems.append(f"{card.title} (card {card.id}) is in no zone: a card was lost")
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
