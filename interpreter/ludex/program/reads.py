"""What an expression reads of the state: the names whose values it may depend on.

In: an expression node (``ast.py``) and the compiler of its game (which knows what a name is). Out:
the set of names (game counters, supplies, roles and flags; attributes of players and cards; values)
whose values the expression may read, or None when it cannot be told.

The cards of zones are read under ``zone:NAME`` (``zone_key``): a card entering, leaving or
reordering a zone changes that name. An expression that may look at the cards of a zone it does not
name (a card's ``zone``, an attribute that might hold a zone, a built-in that looks up a card's
zone) reads ``zone:*`` (``ANY_ZONE``): any card moved may change it. Beyond these, an expression may
depend on which players are eliminated and on which names a player's or a card's dict holds.
Everything else an expression can read stands still while a game is played: seats, titles, types and
owners of cards, card definitions, decks, boards, the format. A card's face (``face-up``) is read
under that name. A name changes when a statement sets it, and when a modifier on it starts, stops or
begins to apply; so an expression over these reads gives the same answer as long as none of its names
changed, no card moved (for ``zone:*``), no player was eliminated and no dict gained a name. The
engine uses this to poll a state check only when something it reads may have changed: each change
marks the checks that read what it changed (``CheckBits``, ``Bookkeeping.stale``), an elimination or
a dict gaining a name marks them all, and a look polls only the checks marked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional
from weakref import WeakKeyDictionary

from ..parse import ast as A
from ..runtime.builtins import BUILTINS

#: Read by an expression that may look at the cards of any zone (see ``zone_key``).
ANY_ZONE = "zone:*"

#: Built-ins that look at no card's zone but through the zones and lists they are given.
_ZONE_BLIND = {"size", "top", "bottom", "cards", "first", "last", "reverse", "without", "join", "titles", "sum",
               "min", "max", "abs", "odd", "even", "range", "players-from", "next-player", "previous-player",
               "opponents", "owner", "has-ability", "flatten"}


def zone_key(name: str) -> str:
    """The name under which the cards of the zones so named are read and changed (``Zone.key``)."""
    return "zone:" + name


def _zone_reads(compiler, attribute: str) -> str:
    """What reading this attribute reads of the zones: the zones so named (``p.hand``); or nothing,
    for a counter, supply or role (a number or a player, never a zone) and a player's or card's own
    name, seat, title ...; or any zone, for anything else (a card's ``zone``, an attribute or flag that
    might hold a zone)."""
    g = compiler.gamedef
    f = g.fields.get(attribute)
    if f is not None and f.kind in ("zone", "row"):
        # a card's attribute so named could hold some other zone
        return ANY_ZONE if attribute in card_attribute_names(compiler) else zone_key(attribute)
    if f is not None and f.kind in ("counter", "supply", "role"):
        return ""
    if attribute in ("name", "seat", "eliminated", "title", "type", "owner", "face-up"):
        return ""
    return ANY_ZONE


def reads(compiler, x, bound=frozenset(), _values=None) -> Optional[frozenset]:
    """The names ``x`` may read (see the module's docstring), ``bound`` being the variables in scope
    (reading one reads nothing of the state); None if it cannot be told."""
    values = _values if _values is not None else {}
    found: set = set()
    stack = [(x, frozenset(bound))]
    while stack:
        e, scope = stack.pop()
        if isinstance(e, (A.Number, A.Text, A.Constant, A.This)):
            continue
        if isinstance(e, A.Name):
            if e.name in scope:
                continue
            kind = compiler.global_kind(e.name)
            if kind == "field":
                found.add(e.name)
            elif kind == "zone":
                found.add(zone_key(e.name))
            elif e.name == "cards-in-play" and kind == "constant":
                found |= {zone_key(f.name) for f in compiler.gamedef.fields.values() if f.in_play}
            elif kind == "value":
                inner = _value_reads(compiler, e.name, values)
                if inner is None:
                    return None
                found |= inner
            # a zone, a constant (players, cards in play, the format), a board, a deck, or nothing
            continue
        if isinstance(e, A.Attr):
            found.add(e.name)       # a counter, flag or attribute; a seat, title ... stand still
            zones = _zone_reads(compiler, e.name)
            if zones:
                found.add(zones)
            stack.append((e.subject, scope))
            continue
        if isinstance(e, A.Call):
            if e.name in BUILTINS:          # of its arguments, the players and the zones alone
                if e.name not in _ZONE_BLIND:
                    found.add(ANY_ZONE)
            elif e.name in compiler.gamedef.values:
                inner = _value_reads(compiler, e.name, values)
                if inner is None:
                    return None
                found |= inner
            else:
                return None
            stack.extend((a, scope) for a in e.args)
            continue
        if isinstance(e, A.Quantified):
            stack += [(e.iterable, scope), (e.body, scope | {e.var})]
            continue
        if isinstance(e, A.Ranked):
            stack += [(e.iterable, scope), (e.key, scope | {e.var})]
            continue
        if isinstance(e, A.Binary):
            stack += [(e.left, scope), (e.right, scope)]
            continue
        if isinstance(e, (A.Unary,)):
            stack.append((e.operand, scope))
            continue
        if isinstance(e, A.IsNone):
            stack.append((e.subject, scope))
            continue
        if isinstance(e, A.IfExpr):
            stack += [(e.condition, scope), (e.then, scope), (e.otherwise, scope)]
            continue
        if isinstance(e, A.ListExpr):
            stack.extend((i, scope) for i in e.items)
            continue
        if isinstance(e, A.Index):
            stack += [(e.subject, scope), (e.index, scope)]
            continue
        return None
    return frozenset(found)


#: What ``card_attribute_names`` and ``check_bits`` found for each compiler (one a game definition): kept
#: beside the compiler, not in it, and let go with it (the entries refer to names only).
_CARD_ATTRIBUTE_NAMES: WeakKeyDictionary = WeakKeyDictionary()
_CHECK_BITS: WeakKeyDictionary = WeakKeyDictionary()


def card_attribute_names(compiler) -> set:
    """Every name a card may hold an attribute under: its type's, its definition's, and any name the
    rules set on something."""
    found = _CARD_ATTRIBUTE_NAMES.get(compiler)
    if found is None:
        g = compiler.gamedef
        found = {f.name for t in g.card_types.values() for f in t.fields}
        found |= {f.name for c in g.cards.values() for f in c.fields}
        for x in A.descendants(tuple(g.modules)):
            if isinstance(x, (A.Set, A.Change)) and isinstance(x.target, A.Attr):
                found.add(x.target.name)
            elif isinstance(x, A.Transfer):
                found |= {t.name for t in (x.source, x.destination) if isinstance(t, A.Attr)}
        _CARD_ATTRIBUTE_NAMES[compiler] = found
    return found


def _value_reads(compiler, name: str, values: dict) -> Optional[frozenset]:
    """What a named value reads: its own name (a modifier on it) and what its body reads."""
    if name in values:                  # worked out, or being worked out (a value reading itself)
        return values[name]
    values[name] = frozenset([name])
    v = compiler.gamedef.values[name]
    inner = reads(compiler, v.body, frozenset(v.params), values)
    values[name] = None if inner is None else inner | {name}
    return values[name]


def check_reads(compiler, check: A.Check) -> Optional[tuple]:
    """The names a state check's condition and items read, sorted, or None if that cannot be told."""
    items = reads(compiler, check.iterable) if check.iterable is not None else frozenset()
    condition = reads(compiler, check.condition, frozenset([check.var] if check.iterable is not None else []))
    return None if items is None or condition is None else tuple(sorted(items | condition))


@dataclass(frozen=True)
class CheckBits:
    """Which of a game's state checks read what, as bits of one number: check ``i`` (in the rules'
    order) is ``1 << i``. A change marks the checks reading what it changed (``Bookkeeping.stale``)."""

    #: for each name (a field, attribute, value, ``face-up``, a zone's key) some check whose reads are
    #: known reads, those checks
    names: dict
    #: the checks that may look at any zone's cards: marked by every card moved
    any_zone: int
    #: the checks whose reads cannot be told: looked at after every change of the state (``version``)
    unknown: int
    #: every check: marked when a player is eliminated or a dict gains a name
    every: int

    def of(self, names) -> int:
        """The checks reading one of ``names``."""
        get = self.names.get
        bits = 0
        for n in names:
            bits |= get(n, 0)
        return bits

    def of_zone(self, key: str) -> int:
        """The checks that a card entering or leaving the zones with this key (``zone_key``) may wake."""
        return self.names.get(key, 0) | self.any_zone


def check_bits(compiler) -> CheckBits:
    """What each of the game's state checks reads (``check_reads``), as ``CheckBits``."""
    found = _CHECK_BITS.get(compiler)
    if found is None:
        names: dict = {}
        any_zone = unknown = 0
        for i, check in enumerate(compiler.gamedef.checks):
            bit = 1 << i
            read = check_reads(compiler, check)
            if read is None:
                unknown |= bit
                continue
            for n in read:
                if n == ANY_ZONE:
                    any_zone |= bit
                else:
                    names[n] = names.get(n, 0) | bit
        found = _CHECK_BITS[compiler] = CheckBits(names, any_zone, unknown, (1 << len(compiler.gamedef.checks)) - 1)
    return found
