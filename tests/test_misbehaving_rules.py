"""Rules that misbehave at run time, each stopped soon with an error that names what misbehaved:

- a loop that asks no one anything (an endless ``return to`` or ``repeat``): stopped after
  ``QUIET_STEPS`` steps without a decision, not the whole game's step budget, naming the rules that
  ran; ``ludex run`` then prints only the trace's last events;
- a named value that keeps reading itself through a branch the checks let pass (S070 does not
  look inside ``if ... then ... else``): named, with the chain of values;
- a number of more than ``MAX_DIGITS`` digits set into a counter, supply or attribute: refused at
  the statement.

Each test's game is written here."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ludex

from ludex.diagnostics import RuntimeRuleError
from ludex.engine import game as engine
from ludex.engine.agents import RandomAgent
from ludex.engine.game import QUIET_STEPS, STEP_BUDGET, Game
from ludex.parse.builders import MAX_DIGITS
from ludex.parse.definition import assemble
from ludex.parse.syntax import parse_rules
from ludex.check.checks import check

ROOT = Path(__file__).parent.parent

RETURNS = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
rule 3 "Round" { text "Round." }
rule 3.2 "Up" { text "Up." increase x by 1 }
rule 3.3 "Again" { text "Again." return to 3.2 }
flow { run 3 }
'''

REPEATS = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
rule 1 "Count" { text "Count." repeat { set x = 1 - x } until x > 1 }
flow { run 1 }
'''

#: a loop that asks a player something at each turn: only the whole game's budget ends it
ASKS = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
rule 1 "Count" { text "Count." repeat { first(players) chooses n from [1, 2]  set x = 1 - x } until x > 1 }
flow { run 1 }
'''


def game_of(text: str, **kw) -> Game:
    gamedef = assemble("t", [parse_rules(text, "t.ludex")])
    assert check(gamedef) == []
    return Game(gamedef, ["a", "b"], RandomAgent(0), **kw)


def failure(game: Game):
    with pytest.raises(RuntimeRuleError) as exc:
        game.run()
    return exc.value.diagnostics[0]


# ------------------------------------------------------------------ loops that ask no one anything

@pytest.mark.parametrize("text, named, rule", [
    (RETURNS, "rules 3.2 and 3.3 keep running", "3.2"),
    (REPEATS, "rule 1 keeps running", "1"),
])
def test_a_loop_that_asks_nothing_is_stopped_long_before_the_step_budget_naming_its_rules(text, named, rule):
    game = game_of(text)
    d = failure(game)
    assert d.code == "R001" and d.rule == rule
    assert d.message == (f"{named} without asking anyone anything: {QUIET_STEPS} steps and no decision, "
                         "a loop that seems never to end")
    assert QUIET_STEPS < game.steps <= 2 * QUIET_STEPS + 1 and 2 * QUIET_STEPS <= STEP_BUDGET // 10


def test_a_loop_that_asks_a_decision_at_each_turn_runs_on_to_the_step_budget(monkeypatch):
    monkeypatch.setattr(engine, "QUIET_STEPS", 50)
    game = game_of(ASKS, step_budget=2000)
    d = failure(game)
    assert d.message == "the game ran 2000 steps without ending: rule 1 seems to loop forever"


def test_a_stretch_without_decisions_shorter_than_the_bound_is_not_a_loop(monkeypatch):
    monkeypatch.setattr(engine, "QUIET_STEPS", 50)
    text = REPEATS.replace("set x = 1 - x } until x > 1", "increase x by 1 } until x == 40")
    game = game_of(text)
    game.run()
    assert game.state.fields["x"] == 40 and game.steps > 40


def test_the_step_budget_below_the_bound_is_met_first():
    d = failure(game_of(REPEATS, step_budget=1000))
    assert d.message == "the game ran 1000 steps without ending: rule 1 seems to loop forever"


def test_ludex_run_prints_only_the_last_events_of_a_loop_that_asks_nothing(tmp_path, capsys):
    path = tmp_path / "t.ludex"
    path.write_text(RETURNS, encoding="utf-8")
    code, out, err = ludex(["run", str(path)], capsys)
    assert code != 0
    lines = out.splitlines()
    assert len(lines) == 21
    left_out = int(lines[0].split()[1])
    assert lines[0] == f"... {left_out} events left out (the last 20 before the error follow)"
    assert left_out > QUIET_STEPS // 2
    assert lines[1].split()[0] == str(left_out + 1) and lines[-1].split()[1:] == ["[3.3]", "go", "to", "step", "3.2"]
    assert "rules 3.2 and 3.3 keep running without asking anyone anything" in err


# ------------------------------------------------------------------ a value that keeps reading itself

VALUES = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
VALUES
rule 1 "Count" { text "Count." set x = READ }
flow { run 1 }
'''


@pytest.mark.parametrize("values, read, loop", [
    ("value a(n) = if n < 0 then 0 else a(n + 1)", "a(1)", "the value a keeps reading itself"),
    ("value a = if x >= 0 then b else 0\nvalue b = a + 1", "a", "the value a reads b, which reads a again"),
    ("value a(n) = if n < 0 then 0 else b(n + 1)\nvalue b(n) = if n < 0 then 0 else c(n)\n"
     "value c(n) = a(n + 1)", "a(x + 1)", "the value a reads b, which reads c, which reads a again"),
])
def test_a_value_that_keeps_reading_itself_is_named_with_its_chain(values, read, loop):
    d = failure(game_of(VALUES.replace("VALUES", values).replace("READ", read)))
    assert d.rule == "1"
    assert d.message == f"the rules nest deeper than Python's stack allows: {loop}"


# ------------------------------------------------------------------ numbers of too many digits

GROWS = '''
game t "T" { players 2 to 2 }
state { game counter n = 1  game supply bank = 0  player counter coins = 0  game zone pile  game counter m = 1 min 0 }
card type thing { worth: number = 1 }
card "Gem" thing { }
rule 1 "Grow" {
  text "Grow."
  GROW
}
flow { run 1 }
'''


@pytest.mark.parametrize("grow, what, value", [
    ("repeat { set n = n * 10 } until n < 0", "n", 10 ** MAX_DIGITS),
    ("repeat { increase n by n } until n < 0", "n", 2 ** 60),
    ("repeat { increase m by m } until m < 0", "m", 2 ** 60),                # a bound on one side only
    ("repeat { set m = m * 10 } until m < 0", "m", 10 ** MAX_DIGITS),
    ("set n = 0 - 1\nrepeat { decrease n by 0 - n } until n > 0", "n", -2 ** 60),
    ("set n = 999999999999999999\nset bank = n\ntransfer 1 from n to bank", "bank", 10 ** MAX_DIGITS),
    ("set n = 999999999999999999\nset first(players).coins = n\nincrease first(players).coins by 1",
     "a's coins", 10 ** MAX_DIGITS),
    ("create \"Gem\" into pile\nset top(pile).worth = 100000000000000000\nset top(pile).worth = top(pile).worth * 10",
     "Gem's worth", 10 ** MAX_DIGITS),
])
def test_a_number_past_the_digits_a_rules_file_may_write_is_refused_at_its_statement(grow, what, value):
    d = failure(game_of(GROWS.replace("GROW", grow)))
    assert d.code == "R001" and d.rule == "1"
    assert d.message == f"{what} would be {value}, more than the {MAX_DIGITS} digits a number may have"
    assert d.span.line == 8 + len(grow.splitlines()) - 1       # the statement that would write it


def test_a_number_of_eighteen_digits_is_kept():
    game = game_of(GROWS.replace("GROW", "set n = 999999999999999998\nincrease n by 1\nset n = -n\ndecrease n by 0"))
    game.run()
    assert game.state.fields["n"] == -(10 ** MAX_DIGITS - 1)
