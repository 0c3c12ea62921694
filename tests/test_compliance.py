"""Compliance: game logs checked against the rules (``ludex check-log``), logs written by ``ludex run
--log`` and replayed exactly, and the rules checked by playing them (``ludex simulate``).

The example logs under ``scenarios/logs/<game>/`` say what check-log must find in a comment line:
``# expect: legal`` or ``# expect: V001 rule 3.2 line 54`` (the code, the rule, the log's line).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from ludex.compliance.checker import LogChecker, check_log, check_log_text, render_report
from ludex.compliance.log import load_log, parse_log
from ludex.compliance.recorder import record_game
from ludex.compliance.simulation import (
    load_for_simulation,
    render_simulation,
    rules_sources,
    simulate,
    simulate_one,
    simulate_sources,
)
from ludex.engine.agents import RandomAgent
from ludex.cli import main
from ludex.diagnostics import SourceError
from ludex.engine.game import Game
from ludex.load import load_game, load_paths
from ludex.resources import bundled_games, rules_dir, scenarios_dir

ROOT = Path(__file__).resolve().parent.parent
TALLY = ROOT / "tests" / "games" / "tally.ludex"
LOGS = sorted((scenarios_dir() / "logs").glob("*/*.log"))
EXPECT = re.compile(r"^# expect: (?:(legal)|(V\d{3})(?: rule (\S+))? line (\d+))\s*$", re.M)


@lru_cache(maxsize=None)
def game(key: str):
    loaded = load_game(key)
    if not loaded.ok:
        pytest.skip(f"{key} does not load cleanly yet (its rules are being written)")
    return loaded.game


@lru_cache(maxsize=None)
def tally():
    return load_paths("tally", [TALLY]).game


def expectation(path: Path):
    match = EXPECT.search(path.read_text(encoding="utf-8"))
    assert match, f"{path} says what check-log finds in a line '# expect: ...'"
    legal, code, rule, line = match.groups()
    return None if legal else (code, rule, int(line))


# ------------------------------------------------------------------ the example logs


def test_every_bundled_game_has_example_logs_legal_and_illegal():
    for key in bundled_games():
        logs = [p for p in LOGS if p.parent.name == key]
        kinds = {expectation(p) is None for p in logs}
        assert kinds == {True, False}, f"scenarios/logs/{key}/ needs a legal and an illegal log"


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_log_gets_the_verdict_it_states(path):
    gamedef = game(path.parent.name)
    report = check_log(gamedef, load_log(gamedef, path))
    expected = expectation(path)
    if expected is None:
        assert report.ok, render_report(gamedef, report)
        return
    code, rule, line = expected
    assert len(report.findings) == 1, render_report(gamedef, report)
    found = report.findings[0]
    assert (found.code, found.span.line) == (code, line), render_report(gamedef, report)
    if rule:
        assert found.rule == rule
    assert found.span.path == str(path)


def read(key: str, name: str) -> tuple:
    path = scenarios_dir() / "logs" / key / name
    gamedef = game(key)
    return gamedef, path, check_log(gamedef, load_log(gamedef, path))


def test_a_refused_marshal_names_the_rule_its_words_the_options_and_the_state():
    gamedef, path, report = read("agot", "illegal-marshal-without-gold.log")
    found = report.findings[0]
    assert found.message.endswith("You do not have enough gold.")
    assert "marshal(Riverside Holdfast)" in found.options and "pass" in found.options
    assert "marshal(Lady Alys of Oldstones)" not in found.options
    assert any(line.startswith("p1: gold 5") for line in found.state)
    text = render_report(gamedef, report)
    assert f"{path}:55:1: error[V001]: p1 may not play marshal(Lady Alys of Oldstones)" in text
    assert "(in rule 3.2)" in text and "\n55 | p1 plays marshal(\"Lady Alys of Oldstones\")\n" in text
    assert "   | ^^^^" in text                                     # the caret under the entry
    assert 'rule 3.2 "Active player collects income":' in text     # the rule and its text
    assert "To marshal a card, a player returns an amount of gold" in text
    assert 'cite 3.2 "You do not have enough gold."' in text       # the require that refuses it
    assert "state before this entry" in text
    assert text.rstrip().endswith("1 violation found in " + str(path) + " (15 of 24 decisions accepted)")


def test_a_non_active_player_marshaling_and_a_second_military_challenge():
    _, _, report = read("agot", "illegal-marshal-not-active.log")
    assert report.findings[0].message == "p2 may not play marshal(Hedge Knight): Only the active player may marshal cards."
    assert report.findings[0].options == ("pass",)
    _, _, report = read("agot", "illegal-second-military-challenge.log")
    assert "this type has been initiated this phase" in report.findings[0].message


def test_a_huntik_player_moving_the_opponents_hero():
    _, _, report = read("huntik", "illegal-move-opponents-hero.log")
    assert report.findings[0].message.endswith("You can only move a hero or obstacle you control.")


def test_an_impossible_state_is_reported_as_such():
    _, _, report = read("agot", "impossible-treasury.log")
    found = report.findings[0]
    assert "impossible" in found.message and "the treasury holds 20000, outside 0 to 10000" in found.message
    _, _, report = read("agot", "impossible-shuffle.log")
    assert "1 more Tourney Champion than p1.draw-deck holds" in report.findings[0].message


# ------------------------------------------------------------------ hand-made logs


LEGAL = "legal-whole-game.log"


def huntik_log(edit=None) -> str:
    text = (scenarios_dir() / "logs" / "huntik" / LEGAL).read_text(encoding="utf-8")
    lines = text.splitlines()
    if edit:
        edit(lines)
    return "\n".join(lines) + "\n"


def check(text: str, key: str = "huntik", all_violations=False):
    return check_log_text(game(key), text, "<test>", all_violations)


def line_of(lines, start: str, n: int = 1) -> int:
    """The 1-based number of the n-th line starting with ``start``."""
    found = [i + 1 for i, line in enumerate(lines) if line.startswith(start)]
    return found[n - 1]


def test_all_reports_every_violation_reachable_by_skipping_the_refused_entry():
    gamedef = game("agot")
    text = (scenarios_dir() / "logs" / "agot" / "illegal-marshal-not-active.log").read_text(encoding="utf-8")
    lines = text.splitlines()
    lines[63] = 'p1 plays initiate-challenge("military")'         # line 64 as well: a second military
    first = check_log_text(gamedef, "\n".join(lines) + "\n", "<test>")
    assert [f.span.line for f in first.findings] == [54]
    every = check_log_text(gamedef, "\n".join(lines) + "\n", "<test>", all_violations=True)
    assert [(f.code, f.rule, f.span.line) for f in every.findings] == [("V001", "3.2", 54), ("V001", "4.2", 64)]
    assert "as if p2 had passed" in every.findings[0].hint


def test_the_log_going_on_after_the_game_ended():
    def extra(lines):
        lines.insert(len(lines) - 2, "p1 passes")
    report = check(huntik_log(extra))
    assert [f.code for f in report.findings] == ["V013"]
    assert report.findings[0].rule == "501.1"


def test_a_log_that_ends_early_is_legal_unless_it_states_an_outcome():
    lines = huntik_log().splitlines()
    cut = line_of(lines, "# round 3")
    report = check("\n".join(lines[:cut]) + "\n")
    assert report.ok and not report.over and "asks p" in report.stopped_at
    report = check("\n".join(lines[:cut] + ["winner p1"]) + "\n")
    assert [f.code for f in report.findings] == ["V014"]


def test_a_random_outcome_the_rules_do_not_make_or_cannot_make():
    def unused(lines):
        lines.insert(line_of(lines, "# round 2"), "force pick p2")
    report = check(huntik_log(unused))
    assert [f.code for f in report.findings] == ["V012"]
    assert "no such random outcome" in report.findings[0].message

    def impossible(lines):
        lines[line_of(lines, "force pick") - 1] = 'force pick "Foundation Seeker"'
    report = check(huntik_log(impossible))
    assert [(f.code, f.span.line) for f in report.findings] == [("V011", 7)]


def test_a_decision_of_the_wrong_kind_or_a_choice_that_is_not_offered():
    def wrong_kind(lines):
        lines[line_of(lines, "p2 passes") - 1] = "p2 chooses p1"
    report = check(huntik_log(wrong_kind))
    assert report.findings[0].code == "V003"
    gamedef = game("agot")
    text = (scenarios_dir() / "logs" / "agot" / "legal-two-rounds.log").read_text(encoding="utf-8")
    lines = text.splitlines()
    lines[line_of(lines, "p1 chooses \"") - 1] = 'p1 chooses "The Crown Regent"'
    report = check_log_text(gamedef, "\n".join(lines) + "\n", "<test>")
    assert report.findings[0].code == "V004" and report.findings[0].rule == "1.2"
    assert "March to War" in report.findings[0].options


def test_mistakes_in_a_log_are_reported_before_it_is_played():
    gamedef = game("huntik")
    with pytest.raises(SourceError) as error:
        check_log_text(gamedef, "players p1, p2\np1 plays\n", "bad.log")
    assert error.value.diagnostics[0].code == "E002" and error.value.diagnostics[0].span.line == 2
    text = 'game agot\nplayers p1, p3\np3 plays mvoe("Foundation Seekr")\nforce dice attack: hit\n'
    with pytest.raises(SourceError) as error:
        check_log_text(gamedef, text, "bad.log")
    codes = sorted(d.code for d in error.value.diagnostics)
    assert codes == ["L001", "L006", "L007"]
    with pytest.raises(SourceError) as error:
        check_log_text(gamedef, 'players p1, p2\np2 plays move("Foundation Seekr")\nwinner p3\n', "bad.log")
    diagnostics = {d.code: d for d in error.value.diagnostics}
    assert set(diagnostics) == {"L005", "L008"} and "Foundation Seeker" in diagnostics["L008"].hint


def test_a_logs_set_up_and_forced_outcomes_get_the_rules_static_checks_before_anything_runs():
    gamedef = game("agot")

    def found(text):
        with pytest.raises(SourceError) as error:
            check_log_text(gamedef, text, "bad.log")
        return [(d.code, d.span.line, d.span.column, d.message) for d in error.value.diagnostics]

    assert found("players p1, p2\nsetup { set treasury = nosuch(1) }\n") == [
        ("S065", 2, 24, "unknown built-in or value 'nosuch'")]
    assert found("players p1, p2\nsetup { if true { skip this step } }\n") == [
        ("S073", 2, 19, "'skip this step': a log's set-up is not a step, so there is no step to skip")]
    assert found("players p1, p2\nsetup { return to 1.2 }\n") == [
        ("S074", 2, 9, "'return to 1.2': a log's set-up is not one of a sequence of steps, so there is no step "
                       "to go on at")]
    assert found('players p1, p2\nforce order p1.gold: "Hedge Knight"\n') == [
        ("S023", 2, 13, "a zone is needed here, but this is a number")]


def test_a_log_naming_a_player_twice_is_refused_at_the_second():
    with pytest.raises(SourceError) as error:
        check_log_text(game("huntik"), "players p1, p1\n", "bad.log")
    [d] = error.value.diagnostics
    assert (d.code, d.span.line, d.span.column, d.message) == ("L010", 1, 13, "player 'p1' is named twice")
    assert d.related[0].span.column == 9


# ------------------------------------------------------------------ logs written by ludex run --log


@pytest.mark.parametrize("key", bundled_games())
def test_a_recorded_game_replays_exactly_and_legally(key):
    gamedef = game(key)
    for seed in (1, 2):
        played, text = record_game(gamedef, seed)
        checker = LogChecker(gamedef, parse_log(text, f"{key}-{seed}.log"))
        report = checker.run()
        assert report.ok, render_report(gamedef, report)
        assert report.over and report.winners == [p.name for p in played.winners]
        assert report.accepted == report.entries
        plain = [e.text.replace(" (order fixed by the scenario)", "") for e in played.trace]
        again = [e.text.replace(" (order fixed by the scenario)", "") for e in checker.game.trace]
        assert plain == again


def test_the_test_game_with_dice_and_yes_or_no_questions_replays_too():
    # (seeds whose games roll dice, answer yes-or-no questions and order things: a parade's goods, or a
    # charm's abilities at dusk)
    for seed in (1, 5, 6):
        played, text = record_game(tally(), seed)
        assert "force dice coin:" in text and " answers " in text and " orders " in text
        report = check_log_text(tally(), text, "tally.log")
        assert report.ok and report.winners == [p.name for p in played.winners]


def test_ludex_run_log_then_check_log(tmp_path, capsys):
    log = tmp_path / "game.log"
    assert main(["run", "huntik", "--seed", "4", "--log", str(log)]) == 0
    capsys.readouterr()
    assert log.read_text(encoding="utf-8").startswith("# A log of huntik, written by `ludex run huntik --seed 4")
    assert main(["check-log", "huntik", str(log)]) == 0
    assert "legal: " in capsys.readouterr().out
    bad = scenarios_dir() / "logs" / "huntik" / "illegal-move-opponents-hero.log"
    assert main(["check-log", "huntik", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:28:1: error[V001]" in out
    assert main(["check-log", "huntik", str(bad), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["violations"][0]["rule"] == "500.2" and data["violations"][0]["line"] == 28


# ------------------------------------------------------------------ simulation


def test_simulate_one_is_plain_data_and_plays_the_game_ludex_run_plays():
    result = simulate_one("huntik", 5)
    json.dumps(result)
    assert result["status"] in ("won", "draw") and result["problem"] is None
    assert result["replay"] == "ludex run huntik --seed 5"
    assert result["rounds"] == 7 and result["decisions"] > 0 and "500.2" in result["exercised"]
    again = simulate_one("huntik", 5)
    timing = ("seconds", "cpu")
    assert {k: v for k, v in again.items() if k not in timing} == {k: v for k, v in result.items() if k not in timing}
    gamedef = game("huntik")
    played = Game(gamedef, ["p1", "p2"], RandomAgent(5), seed=5)
    played.run()
    assert [p.name for p in played.winners] == result["winners"] and played.steps == result["steps"]


def test_a_game_played_from_the_rules_texts_is_the_game_played_from_the_files(tmp_path):
    """What a worker elsewhere plays (``simulate_sources``: the rules sent as strings, compiled there) is
    what ``simulate_one`` plays from this machine's files, seed for seed; a problem found so too."""
    timing = ("seconds", "cpu")
    key, sources = rules_sources("huntik")
    assert key == "huntik" and [Path(p).name for p, _ in sources] == ["huntik.ludex"]
    for seed in (2, 9):
        sent = simulate_sources(key, sources, "huntik", seed)
        here = simulate_one("huntik", seed)
        assert {k: v for k, v in sent.items() if k not in timing} == {k: v for k, v in here.items() if k not in timing}
    source = (rules_dir() / "huntik.ludex").read_text(encoding="utf-8")
    broken = tmp_path / "huntik.ludex"
    broken.write_text(source.replace("  increase mission-timer by 1\n", ""), encoding="utf-8")
    key, sources = rules_sources(str(broken))
    sent = simulate_sources(key, sources, str(broken), 4, max_rounds=20)
    assert sent["status"] == "unfinished" and sent["problem"]["where"].startswith(str(broken))
    assert sent["replay"] == f"ludex run {broken} --seed 4 --max-rounds 20"


#: Games per bundled game in the test suite (ludex simulate --jobs 2); benchmarks/simulate.py plays 1,000.
GAMES = 10


@pytest.mark.parametrize("key", bundled_games())
def test_simulated_games_of_every_bundled_game_run_clean(key):
    game(key)
    summary = simulate(key, GAMES, seed=1, jobs=2)
    assert summary["problems"] == [], render_simulation(summary)
    assert sum(summary["winners"].values()) == GAMES
    assert summary["coverage"]["reached"] and summary["games_per_second"] > 0
    text = render_simulation(summary)
    assert f"{GAMES} games (seeds 1 to {GAMES})" in text and "games/s" in text


def test_a_broken_transcription_that_never_ends_is_caught_with_its_seed(tmp_path, capsys):
    source = (rules_dir() / "huntik.ludex").read_text(encoding="utf-8")
    assert source.count("  increase mission-timer by 1\n") == 1
    broken = tmp_path / "huntik.ludex"
    broken.write_text(source.replace("  increase mission-timer by 1\n", ""), encoding="utf-8")
    summary = simulate(str(broken), 3, seed=11, jobs=2, max_rounds=20)
    assert [p["seed"] for p in summary["problems"]] == [11, 12, 13]
    problem = summary["problems"][0]
    assert problem["status"] == "unfinished" and "did not end within 20 rounds" in problem["problem"]["message"]
    assert problem["replay"] == f"ludex run {broken} --seed 11 --max-rounds 20"
    capsys.readouterr()
    assert main(problem["replay"].split()[1:]) == 3                  # the replay stops the same way
    assert "did not end within 20 rounds" in capsys.readouterr().err
    assert main(["simulate", str(broken), "--games", "2", "--max-rounds", "20"]) == 1
    assert "replay: ludex run" in capsys.readouterr().out


TINY = '''
game tiny "A game for the simulator's tests" {
  source main "Tiny rules" version "1" "written for the tests"
  players 2 to 2
}
state {
  game supply pool = 5
  game counter score = 0
}
rule setup "Setup" outside source { note "Nothing to set up." }
rule 1 "Play" {
  text "Each round, the first player plays."
  action go "go" by p { require false cite 1 "Never." }
  turn of first(players) { exactly one of go }
}
flow { run setup begin game repeat { run 1 } }
'''


@pytest.mark.parametrize("body, status", [
    ("turn of first(players) { exactly one of go }", "no-option"),
    ("set pool = 9", "invariant"),
    ("set score = 1 / score", "error"),
])
def test_problems_are_classified(tmp_path, body, status):
    path = tmp_path / "tiny.ludex"
    path.write_text(TINY.replace("turn of first(players) { exactly one of go }", body), encoding="utf-8")
    load_for_simulation.cache_clear()
    result = simulate_one(str(path), 3)
    assert result["status"] == status, result
    assert result["problem"]["rule"] == "1"


def test_a_logged_card_outside_a_play_of_one_choice_is_not_one_of_its_choices():
    from ludex.parse.definition import assemble
    from ludex.parse.syntax import parse_rules
    gamedef = assemble("t", [parse_rules('''
game t "T" { players 2 to 2 }
state {
  player zone hand ordered
  game zone pile
}
card type token { }
card "A" token { }
card "B" token { }
rule 1 "Deal" { text "Each player gets A and B." for each p in players { create ["A", "B"] into p.hand } }
rule 2 "Buy" {
  text "A player may buy the first card of his hand."
  window "w" starting with first(players) { any number of buy }
  action buy "buy" by p (c: card from first(p.hand)) { move c to pile }
}
flow { run 1 run 2 }
''', "t.ludex")])
    report = check_log_text(gamedef, 'game t\nplayers ann, bob\nann plays buy("B")\n', "<test>")
    assert [(f.code, f.span.line) for f in report.findings] == [("V005", 3)]
    assert "B is not one of the choices for its c (first(p.hand))" in report.findings[0].message


@pytest.mark.parametrize("head, line, message", [
    ("players p1, p2\nformat melee\n", 2, "agot's melee format is for 3 to 8 players, not 2"),
    ("players p1, p2, p3\nformat joust\n", 2, "agot's joust format is for 2 players, not 3"),
])
def test_a_log_in_a_format_for_another_number_of_players_is_refused_before_it_is_played(head, line, message):
    with pytest.raises(SourceError) as error:
        check_log_text(game("agot"), head, "bad.log")
    [d] = error.value.diagnostics
    assert (d.code, d.span.line, d.message) == ("L004", line, message)


# ------------------------------------------------------------------ copy numbers, arguments, winners


def halloween_log(line: int, entry: str) -> str:
    lines = (scenarios_dir() / "logs" / "halloween" / "legal-two-rounds.log").read_text(encoding="utf-8").splitlines()
    lines[line - 1] = entry
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("entry, message", [
    # no Rock is offered: "list index out of range" was reported at the players line
    ('p2 chooses "Rock #0"', "p2 cannot choose Rock #0: copy numbers start at #1"),
    # accepted as the last Annie offered
    ('p2 chooses "Annie #0"', "p2 cannot choose Annie #0: copy numbers start at #1, the first Annie offered"),
    ('p2 chooses "Annie #2"', "p2 cannot choose Annie #2: there is no Annie #2 (1 is offered)"),
])
def test_a_chosen_copy_number_names_a_copy_offered_counting_from_one(entry, message):
    report = check(halloween_log(21, entry), "halloween")
    [found] = report.findings
    assert (found.code, found.span.line, found.span.column, found.message) == ("V007", 21, 12, message)
    assert found.rule == "setup.victims" and "Annie" in found.options


@pytest.mark.parametrize("copy, message", [
    ("#0", "copy numbers start at #1, the first Foundation Seeker offered"),     # was taken as #1
    ("#99", "there is no Foundation Seeker #99 (3 are offered)"),                # was V006, 'not offered now'
])
def test_a_played_copy_number_names_a_copy_offered_counting_from_one(copy, message):
    text = (scenarios_dir() / "logs" / "huntik" / "illegal-move-opponents-hero.log").read_text(encoding="utf-8")
    text = text.replace('p1 plays play-card("Foundation Seeker #2")', f'p1 plays play-card("Foundation Seeker {copy}")')
    [found] = check(text).findings
    assert (found.code, found.span.line, found.span.column) == ("V007", 27, 20)
    assert found.message == f"p1 cannot play play-card(Foundation Seeker {copy}): {message}"
    assert found.options.count("play-card(Foundation Seeker)") == 3


def ordering_game():
    from ludex.parse.definition import assemble
    from ludex.parse.syntax import parse_rules
    return assemble("t", [parse_rules('''
game t "T" { players 2 to 2 }
state {
  player zone hand ordered
  game zone pile
}
card type token { }
card "A" token { }
card "B" token { }
rule 1 "Deal" { text "The first player gets two A and a B." create ["A", "A", "B"] into first(players).hand }
rule 2 "Order" {
  text "The first player puts his hand in order, onto the pile."
  first(players) orders xs from cards(first(players).hand) "In which order?"
  move xs to pile
}
flow { run 1 run 2 }
''', "t.ludex")])


def test_an_ordered_copy_number_names_a_copy_offered_counting_from_one():
    gamedef = ordering_game()
    assert check_log_text(gamedef, 'players ann, bob\nann orders ["A #2", "B", "A"]\n', "<test>").ok
    for copy, message in [("#0", "copy numbers start at #1, the first A offered"),
                          ("#3", "there is no A #3 (2 are offered)")]:
        report = check_log_text(gamedef, f'players ann, bob\nann orders ["B", "A {copy}"]\n', "<test>")
        [found] = report.findings
        assert (found.code, found.span.line, found.span.column) == ("V007", 2, 18)
        assert found.message == f"ann cannot order A {copy}: {message}"


@pytest.mark.parametrize("key, line, entry, column, message", [
    # huntik's move(5) was refused by 500.2 'You can only move a hero or obstacle you control.', agot's
    # marshal(5) as 'not one of the choices': a number is never a card, in any game
    ("huntik", 28, "p2 plays move(5)", 15, "a card is needed here (move's c), but this is a number"),
    ("agot", 53, "p1 plays marshal(5)", 18, "a card is needed here (marshal's c), but this is a number"),
    ("agot", 53, "p1 plays marshal(p2)", 18, "a card is needed here (marshal's c), but this is a player"),
    ("agot", 64, "p1 plays initiate-challenge(3)", 29,
     "text is needed here (initiate-challenge's kind), but this is a number"),
])
def test_a_plays_argument_of_a_kind_its_parameter_never_is_is_refused_before_the_log_is_played(
        key, line, entry, column, message):
    name = {"huntik": "illegal-move-opponents-hero.log", "agot": "legal-two-rounds.log"}[key]
    lines = (scenarios_dir() / "logs" / key / name).read_text(encoding="utf-8").splitlines()
    lines[line - 1] = entry
    with pytest.raises(SourceError) as error:
        check_log_text(game(key), "\n".join(lines) + "\n", "bad.log")
    [d] = error.value.diagnostics
    assert (d.code, d.span.line, d.span.column, d.message) == ("L011", line, column, message)
    assert d.related[0].span.path.endswith(f"{key}.ludex")         # the parameter, in the rules


def test_a_log_naming_a_winner_twice_is_refused_at_the_second():
    text = huntik_log(lambda lines: lines.__setitem__(lines.index("winner p1"), "winner p1, p1"))
    with pytest.raises(SourceError) as error:
        check(text)
    [d] = error.value.diagnostics
    assert (d.code, d.span.column, d.message) == ("L010", 12, "player 'p1' is named twice")
    assert d.span.line == text.splitlines().index("winner p1, p1") + 1 and d.related[0].span.column == 8
