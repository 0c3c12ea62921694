"""The invariant watch: a ``Game`` in, hooks on it out, without touching the engine.

``Watch`` wraps ``Game.run_rule`` on the instance: it counts rounds (``round_rule_of``: the rule the
flow's outer loop begins with) and stops a game past its bound with ``UnendingGame``; it checks the
state's invariants after every rule run and, through ``check``, at every decision, stopping the
game with ``InvariantBroken`` (a look noted in the game's books as the engine's own looks are). ``describe_state`` puts a game's whole state in words.
"""

from __future__ import annotations

from typing import Optional

from ..diagnostics import Diagnostic, RuntimeRuleError
from ..engine.game import Game
from ..parse import ast as A
from ..parse.definition import GameDef
from ..runtime.records import GameOver, Goto, _words


class UnendingGame(RuntimeRuleError):
    """A game that ran past its bound of rounds."""


class InvariantBroken(RuntimeRuleError):
    """The state broke its invariants: cards lost or duplicated, a supply or counter out of bounds."""

    def __init__(self, diagnostics, breaks=(), rule=""):
        super().__init__(diagnostics)
        self.breaks = list(breaks)
        self.rule = rule


def round_rule_of(gamedef: GameDef) -> tuple[Optional[str], Optional[A.Span]]:
    """The rule that begins each round, read from the game's flow: the first rule its outer
    ``repeat`` (or ``while``) runs. None when the flow has no such loop."""
    if gamedef.flow is None:
        return None, None
    for stmt in gamedef.flow.body:
        if isinstance(stmt, (A.Repeat, A.While)):
            for inner in stmt.body:
                if isinstance(inner, A.Run):
                    return inner.target, stmt.span
    return None, None


class Watch:
    """Hooks on one game, without touching the engine: ``run_rule`` is wrapped on the instance.

    - rounds: how many times the round rule (``round_rule_of``) began from the flow; past
      ``max_rounds`` the game is stopped with ``UnendingGame``;
    - invariants: ``State.invariant_breaks()`` after every rule run (unless the engine checks them
      itself, ``Game.check_invariants``) and at every decision, through ``check``; a break stops the
      game with ``InvariantBroken``;
    - ``on_round(n)`` is called as round n begins."""

    def __init__(self, game: Game, max_rounds: Optional[int] = None, invariants: bool = False,
                 on_round=None):
        self.game = game
        self.rounds = 0
        self.max_rounds = max_rounds
        self.invariants = invariants
        self.on_round = on_round
        self.round_rule, self.loop_span = round_rule_of(game.gamedef)
        self.last_rule = ""
        original = game.run_rule
        engine_checks = bool(getattr(game, "check_invariants", False))

        def run_rule(rule_id, frame=None, jumps=False):
            if rule_id == self.round_rule and game.depth == 0:
                self.rounds += 1
                if self.max_rounds is not None and self.rounds > self.max_rounds:
                    raise UnendingGame([Diagnostic(
                        "runtime", "R002", f"the game did not end within {self.max_rounds} rounds: rule "
                        f"{rule_id} was about to begin round {self.rounds}", self.loop_span or A.NOWHERE,
                        rule=rule_id)])
                if self.on_round:
                    self.on_round(self.rounds)
            if not self.invariants or engine_checks:
                return original(rule_id, frame, jumps)
            try:
                jump = original(rule_id, frame, jumps)     # (a jump returned, ``Game.run_rule``)
            except (Goto, GameOver):
                self.check(rule_id)
                raise
            self.check(rule_id)
            return jump

        game.run_rule = run_rule

    def check(self, rule: Optional[str] = ""):
        """The invariants looked at now (at a decision, mid-rule), as the engine looks after a rule
        (``Game.look``), a break raised as ``InvariantBroken``. Only a card created, moved or reordered
        (``cards_moved``) or a change that may leave a bound broken (``bounds_changed``) can break one:
        while neither moved since the last look (the engine's or this one's: ``books.invariants_at``),
        which found the state sound, there is nothing to look at. The look is narrowed to the zones
        changed and the cards placed since, and a sound look is noted in the books as the engine's is
        (the zones and cards emptied), so that the engine's next look starts from it. ``rule``: the
        rule a break is reported at; None for the innermost rule running (``rule_running``)."""
        if not self.invariants:
            return
        books = self.game.books
        moved, bounds = books.cards_moved, books.bounds_changed
        if moved + bounds == books.invariants_at:
            return
        breaks = self.game.state.invariant_breaks(cards_moved=moved != books.cards_checked_at,
                                                  changed=books.zones_changed, placed=books.cards_placed,
                                                  bounds_changed=bounds != books.bounds_checked_at)
        if breaks:
            if rule is None:
                rule = self.rule_running()
            where = f"after rule {rule} ran" if rule else "here"
            raise InvariantBroken([Diagnostic(
                "runtime", "R003", f"the state is impossible {where}: " + "; ".join(breaks),
                self.game.current_span or A.NOWHERE, rule=rule)], breaks, rule)
        books.invariants_at = moved + bounds
        books.cards_checked_at, books.bounds_checked_at = moved, bounds
        books.zones_changed.clear()
        books.cards_placed.clear()


    def rule_running(self) -> str:
        """The innermost rule running (``Game.running``: a rule's id, not a trigger's or a state check's
        level, whose entries are words), or "" when none is."""
        for what in reversed(self.game.running):
            if " " not in what:
                return what
        return ""


class CheckedAgent:
    """A simulated game's agent: ``agent``'s answers (a ``RandomAgent``), each decision counted
    (``decisions``) and the invariants looked at first (``Watch.check``). Like a ``RandomAgent`` it
    answers from the options alone (``answer_from``), so that windows, turns and choices ask it
    without making a ``Decision``; an order, or a decision with no option, comes as one."""

    __slots__ = ("agent", "watch", "decisions")

    def __init__(self, agent):
        self.agent = agent
        self.watch: Optional[Watch] = None      # (set once the game and its watch are made)
        self.decisions = 0

    def __call__(self, game, decision):
        self.decisions += 1
        self.watch.check(decision.rule)
        return self.agent(game, decision)

    def answer_from(self, options: list):
        self.decisions += 1
        self.watch.check(None)
        return self.agent.answer_from(options)


#: The words of the engine's own invariant check (``Game.check_invariants``).
INCONSISTENT = "the game is inconsistent"


# ================================================================== the state, in words


def describe_state(game: Game, watch: Optional[Watch] = None) -> list[str]:
    """The whole state as a judge reads it: game entries, then each player's; the cards of every
    zone that holds any (a hidden ordered pile, or a long one, by its count)."""
    s = game.state

    def entries(fields: dict) -> list[str]:
        parts = []
        for name, value in fields.items():
            if isinstance(value, bool):
                if value:
                    parts.append(name)
            elif value is not None:
                parts.append(f"{name} {_words(value)}")
        return parts

    def zones(table: dict) -> list[str]:
        parts = []
        for zone in table.values():
            if not zone.cards:
                continue
            if (zone.hidden and zone.ordered) or len(zone.cards) > 10:
                parts.append(f"{zone.name} {len(zone.cards)} card{'s' if len(zone.cards) != 1 else ''}")
            else:
                parts.append(f"{zone.name}: " + ", ".join(c.title for c in zone.cards))
        return parts

    lines = []
    if watch is not None and watch.round_rule:
        lines.append(f"round {watch.rounds}")
    game_parts = entries(s.fields) + zones(s.zones)
    lines.append("game: " + ("; ".join(game_parts) if game_parts else "-"))
    for p in s.players:
        parts = entries(p.fields) + zones(p.zones)
        lines.append(f"{p.name}{' (eliminated)' if p.eliminated else ''}: " + ("; ".join(parts) if parts else "-"))
    for m in game.modifiers:
        kind, name, *rest = m.key
        target = (f"{name}({', '.join(_words(a) for a in rest[0])})" if rest and rest[0] else name) \
            if kind == "value" else name if kind == "field" else f"{name}.{rest[0]}"
        lines.append(f"modifier from rule {m.rule}: {target} {m.op} {_words(m.value)}")
    return lines
