"""What an expression reads of the state: the names whose values it may depend on.

In: an expression node (``ast.py``) and the compiler of its game (which knows what a name is). Out:
the set of names (game counters, supplies, roles and flags; attributes of players and cards; values)
whose values the expression may read, or None when it cannot be told.

Beyond those names, an expression may depend on which cards lie in which zones in what order, on
which players are eliminated and on which names a player's or a card's dict holds: ``Game`` counts
those changes (``cards_moved``, ``eliminations``, ``reshaped``). Everything else an expression can
read stands still while a game is played: seats, titles, types and owners of cards, card definitions,
decks, boards, the format. A card's face (``face-up``) is read under that name. A name is written
(``Game.written``) when a statement sets it, and when a modifier on it starts, stops or begins to
apply; so an expression over these reads gives the same answer as long as none of its names was
written and none of the counters moved. The engine uses this to poll a state check only when
something it reads may have changed.
"""

from __future__ import annotations

from typing import Optional

from . import ast as A
from .builtins import BUILTINS


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
            elif kind == "value":
                inner = _value_reads(compiler, e.name, values)
                if inner is None:
                    return None
                found |= inner
            # a zone, a constant (players, cards in play, the format), a board, a deck, or nothing
            continue
        if isinstance(e, A.Attr):
            found.add(e.name)       # a counter, flag or attribute; a zone, seat, title ... stand still
            stack.append((e.subject, scope))
            continue
        if isinstance(e, A.Call):
            if e.name in BUILTINS:          # of its arguments, the players and the zones alone
                pass
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


def _value_reads(compiler, name: str, values: dict) -> Optional[frozenset]:
    """What a named value reads: its own name (a modifier on it) and what its body reads."""
    if name in values:                  # worked out, or being worked out (a value reading itself)
        return values[name]
    values[name] = frozenset([name])
    v = compiler.gamedef.values[name]
    inner = reads(compiler, v.body, frozenset(v.params), values)
    values[name] = None if inner is None else inner | {name}
    return values[name]
