"""Assemble: parsed modules in, one ``GameDef`` out (a game's declarations gathered by name).

This is a side table over the AST: nodes are not changed, only indexed. Duplicates are kept in
``duplicates`` for the static checks to report; the first definition wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from . import ast as A


def format_players(header: Optional[A.GameHeader], fmt: str) -> Optional[tuple]:
    """``(fewest, most)`` players of a format, when the header gives them (``melee for 3 to 8 players``);
    None for a format open to any number the game is for."""
    for name, fewest, most in header.format_players if header else ():
        if name == fmt:
            return fewest, most
    return None


def default_format(header: Optional[A.GameHeader], count: int) -> str:
    """The format a game of ``count`` players is played in when none is asked for: the first the header
    names that is for that many players ("" for a game without formats; the first format, when none is)."""
    if header is None or not header.formats:
        return ""
    for name in header.formats:
        players = format_players(header, name)
        if players is None or players[0] <= count <= players[1]:
            return name
    return header.formats[0]


def default_count(header: Optional[A.GameHeader], fmt: str = "") -> int:
    """How many players a game is played with when no number is asked for: the fewest the format
    asked for allows, else the fewest the game allows."""
    players = format_players(header, fmt) if fmt else None
    return players[0] if players else header.min_players if header else 2


def format_problem(header: Optional[A.GameHeader], fmt: str, count: int) -> str:
    """What is wrong with playing format ``fmt`` (or the default one, for "") with ``count`` players, in
    words ("" if nothing): a format the game does not have, or one for another number of players."""
    if header is None:
        return ""
    if fmt and fmt not in header.formats:
        if not header.formats:
            return f"{header.key} has no formats, so no format '{fmt}'"
        return f"{header.key} has formats {', '.join(header.formats)}, not '{fmt}'"
    fmt = fmt or default_format(header, count)
    players = format_players(header, fmt)
    if players is not None and not players[0] <= count <= players[1]:
        fewest, most = players
        counted = f"{fewest} player{'s' if fewest != 1 else ''}" if fewest == most else f"{fewest} to {most} players"
        return f"{header.key}'s {fmt} format is for {counted}, not {count}"
    return ""


@dataclass
class GameDef:
    """Everything one game declares, indexed by name. Built by ``assemble``; read by every pass."""

    key: str
    header: Optional[A.GameHeader] = None
    modules: list = field(default_factory=list)
    fields: dict = field(default_factory=dict)          # name -> StateField
    card_types: dict = field(default_factory=dict)      # name -> CardType
    cards: dict = field(default_factory=dict)           # title -> Card
    dice: dict = field(default_factory=dict)            # name -> Dice
    boards: dict = field(default_factory=dict)          # name -> Board
    decks: dict = field(default_factory=dict)           # name -> Deck
    rules: dict = field(default_factory=dict)           # id -> Rule, in source order
    actions: dict = field(default_factory=dict)         # name -> Action
    values: dict = field(default_factory=dict)          # name -> Value
    triggers: list = field(default_factory=list)        # Trigger (rules' and cards' abilities)
    checks: list = field(default_factory=list)          # Check
    errata: list = field(default_factory=list)          # (rule id, Erratum, span of the id)
    flow: Optional[A.Flow] = None
    duplicates: list = field(default_factory=list)      # (kind, name, new node, first node)
    #: The compiled program (``Program.of``, program/program.py), made on first use. A field, not a
    #: side table: the program refers to its definition, so a table's entry would keep both alive for
    #: good; and a GameDef, compared by value, cannot key a weak one.
    program: object = field(default=None, init=False, repr=False, compare=False)
    #: The game with a scenario's own cards (``scenarios/cards.py``), for each scenario that declares
    #: some: ``id(scenario) -> (scenario, GameDef, diagnostics)``, made on first use.
    scenario_games: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    # -- the rule tree, from the ids: 3.2 is a sub-rule of 3; 500.1c of 500.1
    def parent_of(self, rule_id: str) -> Optional[str]:
        return parent_id(rule_id, self.rules)

    def children_of(self, rule_id: str) -> list:
        return [r for r in self.rules if self.parent_of(r) == rule_id]

    def source(self, key: str) -> Optional[A.Source]:
        if self.header:
            for s in self.header.sources:
                if s.key == key:
                    return s
        return None

    def field_names(self, scope: str) -> dict:
        return {n: f for n, f in self.fields.items() if f.scope == scope}


def parent_id(rule_id: str, known) -> Optional[str]:
    """The nearest enclosing rule id that exists: 500.1c -> 500.1 -> 500; 3.2 -> 3;
    start-phase.remove-day-counter -> start-phase."""
    candidate = rule_id
    while True:
        if candidate and candidate[-1].isalpha() and re.search(r"[0-9][a-z]$", candidate):
            candidate = candidate[:-1]
        elif "." in candidate:
            candidate = candidate.rsplit(".", 1)[0]
        else:
            return None
        if candidate in known and candidate != rule_id:
            return candidate


_NUMBERED = re.compile(r"[0-9]+[a-z]?(\.[0-9]+[a-z]?)*")


def is_numbered(rule_id: str) -> bool:
    return bool(_NUMBERED.fullmatch(rule_id))


def number_key(rule_id: str) -> tuple:
    """A sort key for numbered ids: 3.2 < 3.10 < 4; 500.1 < 500.1a < 500.1b < 500.2."""
    key = []
    for part in rule_id.split("."):
        m = re.fullmatch(r"([0-9]+)([a-z]?)", part)
        # compared as digit strings, shorter first: in number order, and without int(), which refuses a
        # number of more than 4,300 digits (a rule numbered so was a traceback; found by fuzzing)
        digits = m.group(1).lstrip("0") or "0"
        key.append((len(digits), digits, m.group(2)))
    return tuple(key)


def assemble(key: str, modules: list) -> GameDef:
    game = GameDef(key=key, modules=list(modules))

    def put(table: dict, kind: str, name: str, item):
        if name in table:
            game.duplicates.append((kind, name, item, table[name]))
        else:
            table[name] = item

    for module in modules:
        for item in module.items:
            if isinstance(item, A.GameHeader):
                if game.header is None:
                    game.header = item
                else:
                    game.duplicates.append(("game header", item.key, item, game.header))
            elif isinstance(item, A.State):
                for f in item.fields:
                    put(game.fields, "state entry", f.name, f)
            elif isinstance(item, A.CardType):
                put(game.card_types, "card type", item.name, item)
            elif isinstance(item, A.CardDefinition):
                put(game.cards, "card", item.title, item)
                for ability in item.abilities:
                    if ability.event is not None:
                        game.triggers.append(A.Trigger(ability.span, ability.event, "", None, ability.body,
                                                       rule=f"card:{item.title}"))
            elif isinstance(item, A.Dice):
                put(game.dice, "dice", item.name, item)
            elif isinstance(item, A.Deck):
                put(game.decks, "deck", item.name, item)
            elif isinstance(item, A.BoardDrawing):
                put(game.boards, "board", item.name, item)
            elif isinstance(item, A.Rule):
                put(game.rules, "rule", item.id, item)
                for a in item.actions:
                    put(game.actions, "action", a.name, a)
                for v in item.values:
                    put(game.values, "value", v.name, v)
                game.triggers.extend(item.triggers)
                game.checks.extend(item.checks)
                for e in item.errata:
                    game.errata.append((item.id, e, item.id_span))
            elif isinstance(item, A.Action):
                put(game.actions, "action", item.name, item)
            elif isinstance(item, A.Value):
                put(game.values, "value", item.name, item)
            elif isinstance(item, A.Erratum):
                game.errata.append((item.rule, item, item.rule_span))
            elif isinstance(item, A.Flow):
                if game.flow is None:
                    game.flow = item
                else:
                    game.duplicates.append(("flow", "flow", item, game.flow))
    return game


def game_key_of(path: Path) -> str:
    """``rules/agot.ludex`` and ``rules/agot.cards.ludex`` both belong to game ``agot``."""
    return path.name.split(".", 1)[0]
