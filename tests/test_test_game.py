"""The test game tests/games/tally.ludex exercises every construct of the rules language (issue 3: "a
test game written in tests/ exercises every construct above").

The constructs are not listed by hand: they are derived from the AST (``interpreter/ludex/parse/ast.py``: every
statement class, and each closed set of forms a node can take) and the grammar (``grammar/rules.lark``:
the menu counts, durations, milestones, goto words and card places), so that a construct added to the
language later makes these tests fail until the test game uses it. Two checks:

- written: the parsed test game holds each construct;
- reached: random games, a few seeds in each format and number of players, run each of them (the
  statement holding it runs: the engine points ``current_span`` at every statement it runs), and the
  trace shows what each did: each kind of decision asked, each milestone, each way a game ends.
"""

import re
import typing
from collections import Counter
from pathlib import Path

import pytest

from ludex.parse import ast as A
from ludex.engine.agents import RandomAgent
from ludex.engine.game import Game
from ludex.load import load_paths
from ludex.parse.syntax import parse_rules

ROOT = Path(__file__).resolve().parent.parent
TALLY = ROOT / "tests" / "games" / "tally.ludex"
GRAMMAR = (ROOT / "grammar" / "rules.lark").read_text(encoding="utf-8")
#: where the engine asks its decisions: the statements written as Python and what they call
DECIDING = "".join((ROOT / "interpreter" / "ludex" / path).read_text(encoding="utf-8")
                   for path in ("program/statements.py", "runtime/operations.py"))

#: Statement classes a rules file of a game cannot use. Kept minimal; each says why. (None today:
#: every statement of the language, even ``require``, belongs in a game's rules.)
NOT_IN_A_GAME: dict = {}


# ------------------------------------------------------------------ the language, from its sources


def _grammar_alternatives(rule: str) -> list[str]:
    """The quoted words of a grammar rule's alternatives (``!place: "top" | "bottom"`` -> [top, bottom])."""
    m = re.search(rf"^!?{rule}\s*:(.*?)(?=^\S|\Z)", GRAMMAR, re.M | re.S)
    assert m, rule
    return re.findall(r'"([^"]+)"', m.group(1))


def _grammar_labels(rule: str) -> list[str]:
    """The ``-> label`` of each alternative of a grammar rule."""
    m = re.search(rf"^\??{rule}\s*:(.*?)(?=^\S|\Z)", GRAMMAR, re.M | re.S)
    assert m, rule
    return re.findall(r"->\s*(\w+)", m.group(1))


STATEMENTS = [cls for cls in typing.get_args(A.Stmt) if cls.__name__ not in NOT_IN_A_GAME]
GOTO_WORDS = _grammar_alternatives("goto_word")                                   # return, proceed, go
PLACES = _grammar_alternatives("place")                                           # top, bottom, left-end, right-end
MILESTONES = [label.replace("_milestone", "") for label in _grammar_labels("milestone")]  # phase, round, turn, game
DURATIONS = _grammar_labels("duration")                                           # until_end, for_next, for_this
MENU_COUNTS = {"count_n": "n", "count_one": "one", "count_any": "any", "count_up_to": "up-to"}
#: the decision kinds the engine asks (``Decision(..., "play", ...)``, ``_Decision(_who, 'choose', ...)``
#: and ``_decide(f, _who, 'number', ...)`` in the source the statements write)
DECISIONS = sorted(set(re.findall(r'Decision\([^,()]+, ["\'](\w+)["\']', DECIDING))
                   | set(re.findall(r'_decide\(f, \w+, ["\'](\w+)["\']', DECIDING)))


def test_the_lists_derived_from_the_grammar_and_the_engine_are_the_languages():
    # (a guard on the derivation itself: a grammar reshaped so that a pattern finds nothing must not
    # leave these tests asking for nothing)
    assert set(MENU_COUNTS) == set(_grammar_labels("menu_count"))
    assert GOTO_WORDS == ["return", "proceed", "go"]
    assert set(PLACES) == {"top", "bottom", "left-end", "right-end"}
    assert set(MILESTONES) == {"phase", "round", "turn", "game"}
    assert set(DURATIONS) == {"until_end", "for_next", "for_this"}
    assert set(DECISIONS) >= {"choose", "number", "order", "may", "play"}
    assert len(STATEMENTS) >= 34


def constructs(node) -> set:
    """The constructs a node is an instance of, as names: a statement's class and, for the nodes that
    take one of a closed set of forms, the form (``Goto:go``, ``Duration:for_next:round``,
    ``MenuPart:up-to``)."""
    name = type(node).__name__
    found = set()
    if isinstance(node, tuple(STATEMENTS)):
        found.add(name)
    if isinstance(node, A.Set):
        found.add("Set:clear" if node.value is None else "Set:set")
    elif isinstance(node, A.Change):
        found.add("Change:increase" if node.sign > 0 else "Change:decrease")
    elif isinstance(node, A.Goto):
        found.add(f"Goto:{node.word}")
    elif isinstance(node, A.Move):
        found.add(f"Move:{node.place}")
    elif isinstance(node, A.Milestone):
        found.add(f"Milestone:{node.edge}:{node.kind}")
    elif isinstance(node, A.If):
        found.add("If:else" if node.otherwise else "If:no-else")
        if len(node.branches) > 1:
            found.add("If:else-if")
    elif isinstance(node, A.ForEach):
        found.add("ForEach:simultaneously" if node.simultaneous else "ForEach:in-order")
    elif isinstance(node, A.Repeat):
        found.add("Repeat:until" if node.until is not None else "Repeat:forever")
    elif isinstance(node, A.Choose):
        found.add("Choose:hidden" if node.hidden else "Choose:open")
    elif isinstance(node, A.May):
        found.add("May:else" if node.otherwise else "May:no-else")
    elif isinstance(node, A.Initiate):
        found.add("Initiate:ordered-by" if node.ordered_by is not None else "Initiate:in-order")
    elif isinstance(node, A.Modify):
        found.add(f"Modify:{node.op}")
        found.add(f"Duration:{node.duration.kind}")
        found.add(f"Duration:{node.duration.kind}:{node.duration.milestone}")
    elif isinstance(node, (A.Window, A.Turn)):
        for part in A.menu_parts(node.menu):
            found.add(f"{name}:{part.count}")
            if part.repeats:
                found.add(f"{name}:repeats-allowed")
        if len(node.menu) > 1:
            found.add(f"{name}:then")
        if any(isinstance(step, A.InAnyOrder) for step in node.menu):
            found.add(f"{name}:and")
    elif isinstance(node, A.Trigger):
        event = node.event
        found.add(f"Trigger:{event.kind}" + (f":{event.milestone}" if event.kind != "named" else ""))
        found.add("Trigger:for-each" if node.var else "Trigger:once")
    elif isinstance(node, A.Check):
        found.add("Check:for-each" if node.var else "Check:once")
    elif isinstance(node, A.Ability):
        found.add("Ability:timing" if node.event is not None else "Ability:initiated")
        if node.event is not None:          # a card's ability with a timing is a trigger for that card
            event = node.event
            found.add(f"Trigger:{event.kind}" + (f":{event.milestone}" if event.kind != "named" else ""))
    return found


def expected() -> set:
    """Every construct the language has, by the names ``constructs`` gives them."""
    wanted = {cls.__name__ for cls in STATEMENTS}
    wanted |= {"Set:set", "Set:clear", "Change:increase", "Change:decrease", "If:else", "If:no-else", "If:else-if",
               "ForEach:simultaneously", "ForEach:in-order", "Repeat:until", "Repeat:forever", "Choose:hidden",
               "Choose:open", "May:else", "May:no-else", "Initiate:ordered-by", "Initiate:in-order",
               "Modify:by", "Modify:to", "Trigger:for-each", "Trigger:once", "Check:for-each", "Check:once",
               "Ability:timing", "Ability:initiated", "Trigger:named"}
    wanted |= {f"Goto:{w}" for w in GOTO_WORDS}
    wanted |= {f"Move:{p}" for p in PLACES}
    # a turn's milestones are made by 'turn of' (each turn begins and ends); the others by their statements
    wanted |= {f"Milestone:{edge}:{m}" for edge in ("begin", "end") for m in MILESTONES if m != "turn"}
    wanted |= {f"Duration:{d}" for d in DURATIONS}
    # every milestone a duration can last until the end of; 'for next' waits for a round alone (S087)
    wanted |= {f"Duration:until_end:{m}" for m in MILESTONES} | {"Duration:for_next:round"}
    for menu in ("Window", "Turn"):
        counts = MENU_COUNTS.values() if menu == "Turn" else ["one", "any"]   # a window: one play a time (S084)
        wanted |= {f"{menu}:{c}" for c in counts}
    wanted |= {"Turn:repeats-allowed", "Turn:then", "Turn:and"}
    # a trigger listens to the beginning or end of each kind of milestone
    wanted |= {f"Trigger:{edge}:{m}" for edge in ("begin", "end") for m in MILESTONES} - {"Trigger:end:game"}
    return wanted


def nodes(module):
    return [n for n in A.descendants(module) if hasattr(n, "__dataclass_fields__") and not isinstance(n, A.Span)]


@pytest.fixture(scope="module")
def module():
    return parse_rules(TALLY.read_text(encoding="utf-8"), str(TALLY))


@pytest.fixture(scope="module")
def gamedef():
    loaded = load_paths("tally", [TALLY])
    assert loaded.ok, loaded.diagnostics
    return loaded.game


def test_the_test_game_is_written_with_every_construct_of_the_language(module):
    written = set().union(*(constructs(n) for n in nodes(module)))
    assert expected() - written == set()


# ------------------------------------------------------------------ reached at run time


class Watched(Game):
    """A game that notes every statement it runs (the engine points ``current_span`` at each one) and
    every decision it asks."""

    def __init__(self, *args, **kwargs):
        self.ran: set = set()
        self.asked: Counter = Counter()
        super().__init__(*args, **kwargs)
        agent = self.agent

        def asking(game, decision):
            self.asked[decision.kind] += 1
            return agent(game, decision)
        self.agent = asking

    @property
    def current_span(self):
        return self._span

    @current_span.setter
    def current_span(self, span):
        self._span = span
        self.ran.add(span)


#: (format, number of players): each format with every number of players the game allows
TABLES = [(fmt, n) for fmt in ("short", "timed", "blitz") for n in (2, 3, 4)]
SEEDS = range(1, 11)


@pytest.fixture(scope="module")
def games(gamedef):
    """Random games by (format, number of players, seed)."""
    played = {}
    for fmt, n in TABLES:
        for seed in SEEDS:
            game = Watched(gamedef, [f"p{i + 1}" for i in range(n)], RandomAgent(seed), seed=seed, format=fmt)
            game.run()
            assert game.over and game.state.invariant_breaks() == [], (fmt, n, seed)
            played[fmt, n, seed] = game
    return played


def test_random_games_reach_every_construct_of_the_test_game(module, games):
    ran = set().union(*(g.ran for g in games.values()))
    reached = set()
    for n in nodes(module):
        if n.span in ran:
            reached |= constructs(n)
        elif isinstance(n, (A.Trigger, A.Check, A.Ability, A.Action)) and any(s.span in ran for s in n.body):
            # a definition is reached when its body runs; an action's requirements held for its play
            # (they are worked out as the legal plays are, not as statements)
            reached |= constructs(n) | set().union(*(constructs(r) for r in n.body if isinstance(r, A.Require)))
    # a construct whose statement runs but does nothing would hide here: the trace says what each did
    assert expected() - reached == set()


def test_random_games_ask_every_kind_of_decision(games):
    asked = sum((g.asked for g in games.values()), Counter())
    assert set(DECISIONS) - set(asked) == set()
    texts = [(e.rule, e.text) for g in games.values() for e in g.trace if e.kind == "decision"]
    assert any(t.endswith("(hidden)") or "hidden choice" in t for _, t in texts)      # chooses ... hidden
    assert any(r == "5.2" and " orders " in t for r, t in texts)                       # initiate ... ordered by
    assert any(r == "4.3" and " orders " in t for r, t in texts)                       # orders


def test_random_games_reach_every_milestone_and_every_modifier_ends(games):
    events = Counter(e.data["event"] for g in games.values() for e in g.trace if e.kind == "event")
    for edge in ("begin", "end"):
        for m in MILESTONES:
            label = f"{edge} {m}" + (" luck" if m == "phase" else "")
            assert events[label], label
    made = [e.text for g in games.values() for e in g.trace if e.kind == "modifier"]
    for words in ("until the end of the round", "until the end of the turn", "until the end of the phase",
                  "until the end of the game", "for this round", "for this turn", "for this phase",
                  "for the next round"):
        assert any(t.endswith(words) for t in made), words
    assert any(" to 2 " in t for t in made)                                            # modify ... to
    expired = [e.text for g in games.values() for e in g.trace if e.kind == "expire"]
    assert any("flip-prize" in t for t in expired) and any("income" in t for t in expired)


def test_random_games_end_in_every_way_the_language_has(games):
    ends = Counter()
    for (fmt, _, _), g in games.items():
        kinds = [e.kind for e in g.trace]
        if len(g.winners) > 1:
            ends["several share the win"] += 1
        elif len(g.winners) == 1:
            ends["one wins"] += 1
        else:
            ends["a draw"] += 1
            assert "win" not in kinds
            assert [e.data for e in g.trace if e.kind == "event"][-1] == {"event": "end game"}
            assert any(e.rule == "2.1" and "draw" in e.text for e in g.trace)
        if "eliminate" in kinds:
            ends["an elimination"] += 1
        if any(e.rule == "2" and e.kind == "decision" for e in g.trace):
            ends["the winner chosen by a player"] += 1
            assert g.trace[-1].kind == "win" and g.trace[-1].rule == "2"
        if fmt == "short":
            # a shared win and a draw belong to the long format's round limit (rule 2.1)
            assert len(g.winners) == 1
    assert set(ends) == {"several share the win", "one wins", "a draw", "an elimination",
                         "the winner chosen by a player"}, ends
