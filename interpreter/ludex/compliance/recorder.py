"""Recording a game as a log: a game being played in, the log's text out (``ludex run --log``).

``LogRecorder`` is an agent that passes each decision to another agent and writes its answer as a
log line (``answer_line``), and every random outcome of the game as a force line; ``record_game``
plays one game with random agents and returns it with its log. Copies that read alike are written
with their place among the options, so that a replay makes exactly the same choices.
"""

from __future__ import annotations

import re
from typing import Optional

from ..engine.agents import RandomAgent
from ..engine.game import Game
from ..parse.definition import GameDef, default_count, default_format
from ..runtime.records import Decision, _words
from ..runtime.state import Card, Player
from .log import ordinal
from .watch import Watch


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def literal(value) -> str:
    """A value as the log (and scenario) language writes it: a card by its title, a player by name."""
    if isinstance(value, Player):
        return value.name
    if isinstance(value, Card):
        return _quote(value.title)
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    return _quote(str(value))


def _with_ordinal(value, n: int) -> str:
    """A value's literal, marked as the n-th of the options that read alike (``"Hedge Knight #2"``)."""
    if n <= 1:
        return literal(value)
    return _quote(f"{value.title if isinstance(value, Card) else _words(value)} #{n}")


def answer_line(decision: Decision, answer) -> str:
    """The log line for a decision's answer. Copies that read alike are told apart by their place
    among the options (``"Hedge Knight #2"``), so that a replay makes exactly the same choices."""
    who = decision.player.name if isinstance(decision.player, Player) else "nobody"
    if decision.kind == "play":
        if answer.action == "pass":
            return f"{who} passes"
        n = ordinal(decision.options, answer)
        args = [literal(a) for a in answer.args]
        if n > 1:
            # the copy number goes on a card, or else on text; plays alike in players and numbers only
            # are the same play, whichever copy is taken (and a player or number is never quoted text)
            i = next((i for i, a in enumerate(answer.args) if isinstance(a, Card)), None)
            if i is None:
                i = next((i for i, a in enumerate(answer.args) if not isinstance(a, (Player, int))), None)
            if i is not None:
                args[i] = _with_ordinal(answer.args[i], n)
        return f"{who} plays {answer.action}" + (f"({', '.join(args)})" if args else "")
    if decision.kind == "may":
        return f"{who} answers {'yes' if answer else 'no'}"
    if decision.kind == "order":
        remaining = list(decision.options)
        items = []
        for item in answer:
            items.append(_with_ordinal(item, ordinal(remaining, item)))
            remaining = [o for o in remaining if o is not item]
        return f"{who} orders [{', '.join(items)}]"
    return f"{who} chooses {_with_ordinal(answer, ordinal(decision.options, answer))}"


_DICE_EVENT = re.compile(r"^\d+ (\S+) dice roll")


class LogRecorder:
    """An agent that passes decisions to another and writes each answer as a log line; with
    ``attach``, every random outcome of the game becomes a force line. ``rules``: how the command line
    named the game (a bundled game's key, or the path of its rules), for the replay command the log's
    head gives."""

    def __init__(self, agent, gamedef: GameDef, players: list, seed: int, fmt: str = "", command: str = "",
                 rules: str = ""):
        self.agent = agent
        self.gamedef = gamedef
        self.players = set(players)
        self.game: Optional[Game] = None
        self.last_rule = None
        self.lines = [
            f"# A log of {gamedef.key}" + (f", written by `{command}`" if command else "") + ":",
            "# every decision, in the order the rules asked it, and every random outcome as a force line.",
            f"# `ludex check-log {rules or gamedef.key} FILE` replays it against the rules.",
            f"game {gamedef.key}",
            f"players {', '.join(players)}",
        ]
        if fmt or (gamedef.header and gamedef.header.formats):
            self.lines.append(f"format {fmt or default_format(gamedef.header, len(players))}")
        self.lines.append(f"seed {seed}")

    def attach(self, game: Game) -> "LogRecorder":
        self.game = game
        game.listen(self._event)
        return self

    def on_round(self, n: int):
        self.lines += ["", f"# round {n}"]
        self.last_rule = None

    def __call__(self, game, decision: Decision):
        answer = self.agent(game, decision)
        if decision.rule != self.last_rule:
            rule = game.gamedef.rules.get(decision.rule)
            self.lines.append(f"# {decision.rule} {rule.title}" if rule else f"# {decision.rule}")
            self.last_rule = decision.rule
        if not isinstance(decision.player, Player):
            self.lines.append(f"# rule {decision.rule} asked a decision of no player: {answer_line(decision, answer)}")
        else:
            self.lines.append(answer_line(decision, answer))
        return answer

    def _event(self, event):
        if event.kind != "random":
            return
        kind = event.data.get("random")
        if kind == "pick":
            choice = event.data.get("choice", "")
            self.lines.append(f"force pick {choice if choice in self.players else _quote(choice)}")
        elif kind == "dice":
            match = _DICE_EVENT.match(event.text)
            faces = event.data.get("faces") or []
            if match and faces:
                self.lines.append(f"force dice {match.group(1)}: {', '.join(faces)}")
        elif kind == "shuffle":
            name = event.text.split(" is shuffled", 1)[0]
            zone = next((z for z in self.game.state.all_zones() if str(z) == name), None) if self.game else None
            if zone is not None and zone.cards:
                self.lines += _wrap_force_order(name, [c.title for c in zone.cards])

    def text(self) -> str:
        lines = list(self.lines)
        game = self.game
        if game is not None and game.over:
            lines.append("")
            lines.append("winner " + ", ".join(p.name for p in game.winners) if game.winners else "draw")
        return "\n".join(lines) + "\n"


def _wrap_force_order(zone: str, titles: list, width: int = 100) -> list[str]:
    head = f"force order {zone}: "
    lines, current = [], head
    for i, title in enumerate(titles):
        item = _quote(title) + ("," if i < len(titles) - 1 else "")
        if len(current) + len(item) + 1 > width and current.strip() != head.strip():
            lines.append(current.rstrip())
            current = "  "
        current += item + " "
    lines.append(current.rstrip())
    return lines


def record_game(gamedef: GameDef, seed: int, players: Optional[list] = None, fmt: str = "",
                max_rounds: Optional[int] = None) -> tuple[Game, str]:
    """Play one game with random agents (as ``ludex run GAME --seed S`` does) and return it with its log."""
    names = players or default_players(gamedef, None, fmt)
    recorder = LogRecorder(RandomAgent(seed), gamedef, names, seed, fmt,
                           command=f"ludex run {gamedef.key} --seed {seed} --log FILE")
    game = Game(gamedef, names, recorder, seed=seed, format=fmt)
    recorder.attach(game)
    Watch(game, max_rounds=max_rounds, on_round=recorder.on_round)
    game.run()
    return game, recorder.text()


def default_players(gamedef: GameDef, count: Optional[int] = None, fmt: str = "") -> list[str]:
    """p1, p2, ...: as many as asked, or the fewest the game (or the format asked for) allows, as
    ``ludex run``."""
    return [f"p{i + 1}" for i in range(count or default_count(gamedef.header, fmt))]
