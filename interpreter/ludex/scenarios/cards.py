"""A scenario's own cards: a checked ``GameDef`` and a scenario in; the game with the scenario's cards
and deck lists added, and the diagnostics of those, out.

A scenario (or a question put to ``ludex ask``) may declare cards and deck lists as a rules file
writes them, for that scenario alone. They join the game's own declarations as one more module,
assembled and checked as a rules file is (parse/definition.py, check/checks.py), so the positions of
their diagnostics are the scenario's; the game so extended is compiled as any game is, when its first
scenario runs (``Program.of``), and kept on the game's definition, one per scenario. A scenario without
cards is played with the game's own definition and program: nothing more is assembled, checked or
compiled for it. A title or a deck name that the game already has is refused (C020) at the card.
"""

from __future__ import annotations

from ..check.checks import check
from ..check.spans import word_span
from ..diagnostics import Diagnostic, Related
from ..parse import ast as A
from ..parse.definition import GameDef, assemble


def scenario_game(gamedef: GameDef, scenario: A.Scenario) -> tuple[GameDef, list[Diagnostic]]:
    """The game a scenario is played with, and what is wrong with its cards: the game's own definition
    (no diagnostics) for a scenario that declares none; else the game with them, made once for the
    scenario and kept on ``gamedef``, whose program is then compiled once for every run of it."""
    if not scenario.cards:
        return gamedef, []
    kept = gamedef.scenario_games.get(id(scenario))
    if kept is not None and kept[0] is scenario:
        return kept[1], kept[2]
    problems, items = [], []
    for item in scenario.cards:
        table, kind, name = ((gamedef.cards, "card", item.title) if isinstance(item, A.CardDefinition)
                             else (gamedef.decks, "deck", item.name))
        first = table.get(name)
        if first is not None:
            quoted = f'"{name}"' if kind == "card" else f"'{name}'"
            problems.append(Diagnostic(
                "scenario", "C020", f"the game already has a {kind} {quoted}: a scenario's {kind} needs a "
                f"{'title' if kind == 'card' else 'name'} of its own", word_span(item.span, quoted.strip("'")),
                hint=f"the game's {kind} is used as it is; give this one another "
                     f"{'title' if kind == 'card' else 'name'}",
                related=(Related(first.span, f"the game's {kind}"),)))
        else:
            items.append(item)
    module = A.Module(scenario.span, scenario.span.path, tuple(items))
    game = assemble(gamedef.key, list(gamedef.modules) + [module])
    problems.extend(check(game))
    gamedef.scenario_games[id(scenario)] = (scenario, game, problems)
    return game, problems
