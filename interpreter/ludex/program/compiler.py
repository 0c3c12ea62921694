"""Compile: AST expressions and blocks of statements in, Python functions out, built once per game.

Everything is written as Python source and compiled by Python: an expression becomes
``fn(frame) -> value`` (``expressions.py``), a block of statements ``run(frame) -> None``
(``statements.py``), whose statements call what ``runtime/operations.py`` holds for the work not
written in place. Every statement runs under a guard that turns a wrong kind of value (a card where a
number is needed, an empty choice) into a positioned error naming the rule, never a Python traceback.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, SourceError
from ..parse import ast as A
from ..runtime.builtins import CONSTANTS
from ..runtime.state import Card, Player, words
from .expressions import ExpressionWriter
from .statements import BlockWriter


class Compiler:
    """Compiles one game's rules once; the functions it writes serve every game of it played, each
    reading the game in play from its frame (``f.game``)."""

    def __init__(self, gamedef):
        self.gamedef = gamedef
        self._abilities: dict = {}
        #: the game's counters, supplies, roles and flags (``field``) and zones (``zone``), by name
        self._game_names = {f.name: "zone" if f.kind in ("zone", "row") else "field"
                            for f in gamedef.fields.values() if f.scope != "player"}
        #: the triggers listening to each event, by ``(kind, milestone, name)``: a list for each event
        #: some trigger listens to, filled as ``Program`` compiles the triggers (``Program.triggers``).
        #: The lists are made first, so that the code written for a milestone or event holds its own
        #: (None when no trigger listens) and looks for none as it runs
        self.triggers: dict[tuple, list] = {}
        for t in gamedef.triggers:
            self.triggers.setdefault((t.event.kind, t.event.milestone, t.event.name), [])
        self.writer = ExpressionWriter(self)
        self.blocks = BlockWriter(self)

    def note_variables(self, names):
        """Names that frames may hold as variables beyond those the rules bind (a scenario's or log's
        frame names its players), for the expressions and blocks compiled from now on: a name that
        may be a variable is never taken to be the game's zone or constant so named."""
        self.writer.bound.update(names)

    # ================================================================ expressions
    def expr(self, x):
        """``fn(frame) -> value``, written as Python source (``expressions.py``)."""
        return self.writer.compile(x)

    def global_kind(self, n: str):
        """What a name that is not a variable reads, known from the rules alone: ``field`` (a game
        counter, supply, role or flag), ``zone`` (a game zone or row), ``value``, ``constant``,
        ``board``, ``deck``, or None (nothing: an error when read). The state's game fields and zones
        are the schema's, made once at set-up; the first kind in this order wins."""
        g = self.gamedef
        declared = self._game_names.get(n)
        if declared is not None:
            return declared
        if n in g.values:
            return "value"
        if n in CONSTANTS:
            return "constant"
        if n in g.boards:
            return "board"
        if n in g.decks:
            return "deck"
        return None

    @staticmethod
    def attribute_reader(n: str, span):
        """``read(obj, frame)``: attribute ``n`` of a card (its definition's, or title, type, owner,
        zone, face-up) or of a player (counter, flag, zone, name, seat, eliminated), with the
        modifiers in force applied."""
        def read(obj, f):
            if type(obj) is Card:
                attrs = obj.attrs
                if n in attrs:
                    game = f.game
                    return game.apply_modifiers(("attr", obj.id, n), attrs[n]) if n in game.modified else attrs[n]
                if n == "title":
                    return obj.title
                if n == "type":
                    return obj.type
                if n == "owner":
                    return obj.owner
                if n == "zone":
                    return obj.zone
                if n == "face-up":
                    return obj.face_up
                return None
            if type(obj) is Player:
                if n in obj.fields:
                    game = f.game
                    value = obj.fields[n]
                    return game.apply_modifiers(("attr", obj.name, n), value) if n in game.modified else value
                if n in obj.zones:
                    return obj.zones[n]
                if n == "name":
                    return obj.name
                if n == "seat":
                    return obj.seat + 1
                if n == "eliminated":
                    return obj.eliminated
            raise f.game.error(f"{words(obj)} has no '{n}'", f.rule, span)
        return read

    def named_value(self, x: A.Call) -> A.Value:
        """The value a call names. The static checks refuse an unknown one; rules compiled without them
        (through the API) get the same error here, not a KeyError."""
        v = self.gamedef.values.get(x.name)
        if v is None:
            raise SourceError([Diagnostic("static", "S065", f"unknown built-in or value '{x.name}'", x.span)])
        return v

    # ================================================================ statements
    def block(self, body, held=None, jumps=False):
        """``run(frame)`` for a block of statements, written as one function (``statements.py``);
        ``held``: the variables the frame is sure to hold as it starts, and what each is sure to be;
        ``jumps``: it is a rule's procedure, which may return a jump (``BlockWriter.block``)."""
        return self.blocks.block(body, held, jumps)

    def ability_body(self, ability):
        """A card ability's body as a block, compiled when it is first initiated, not as the statement
        that initiates it is written (an ability may initiate abilities itself): one for every
        ``initiate`` (``statements._Initiated``)."""
        body = self._abilities.get(id(ability))
        if body is None:
            body = self._abilities[id(ability)] = self.block(ability.body)
        return body
