"""A judge asks: ``ludex ask GAME [FILE | -]`` answers a question written as a scenario (whole scenarios,
or a bare script) with each expectation met or not, the winner and the whole trace; ``ludex check
--trace`` prints the traces of scenarios that pass, and ``ludex check FILE`` runs a scenario file
against the game its folder names (or ``--game``'s).

``golden/ask/NAME.question``: a question, whole scenarios or a bare script; ``NAME.txt`` is the answer
``ludex ask`` prints, ``NAME.json`` the same with ``--json``. ``golden/ask/errors/NAME.question``: a
bare script with a mistake, read from standard input; ``NAME.err`` is exactly what ``ludex ask``
writes on standard error, positions in the script's own lines. Its first line is ``# expect: CODE``.
``pytest --update-goldens`` rewrites the expected files.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, relative
from ludex.cli import main
from ludex.load import load_game
from ludex.parse.syntax import parse_question, parse_scenarios
from ludex.scenarios.runner import load_question, run_scenario

GOLDEN = Path(__file__).resolve().parent / "golden" / "ask"
#: (named .question, not .scenario, whichever form they take: the pytest plugin would collect a
#: .scenario file as a game's scenarios)
QUESTIONS = sorted(GOLDEN.glob("*.question"))
ERRORS = sorted((GOLDEN / "errors").glob("*.question"))


def ask(argv, stdin: bytes | None = None, monkeypatch=None) -> int:
    """``ludex ask ...`` in this process, standard input given as bytes; its exit code."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    try:
        return main(["ask", *argv])
    except SystemExit as stop:
        return stop.code


def game_of(path: Path) -> str:
    return path.name.split("-")[0]


@pytest.mark.parametrize("source", QUESTIONS, ids=lambda p: p.stem)
def test_the_answer_to_a_question_golden(source, goldens, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)                 # the question named as the repository names it
    code = ask([game_of(source), relative(source)])
    text = capsys.readouterr()
    assert text.err == ""
    goldens.check(source.with_suffix(".txt"), text.out)
    assert code == (0 if "NOT MET" not in text.out else 1)
    ask([game_of(source), relative(source), "--json"])
    out = capsys.readouterr().out
    goldens.check(source.with_suffix(".json"), out)
    answer = json.loads(out)
    assert answer["ok"] is (code == 0) and answer["source"] == relative(source)


def test_the_goldens_cover_a_bare_script_and_whole_scenarios_of_two_games():
    games = {game_of(p) for p in QUESTIONS}
    assert {"huntik", "agot"} <= games
    whole = {p for p in QUESTIONS if re.search(r'^scenario "', p.read_text(encoding="utf-8"), re.M)}
    assert whole and any(p.suffix == ".question" for p in set(QUESTIONS) - whole)
    assert len(ERRORS) >= 6


def test_the_answer_shows_each_expectation_met_or_not_with_both_sides_and_the_whole_trace():
    gamedef = load_game("agot").game
    source = GOLDEN / "agot-initiative-tie.question"
    question = load_question(gamedef, source.read_text(encoding="utf-8"), str(source))
    right, wrong = (run_scenario(gamedef, s) for s in question.scenarios)
    assert right.passed and [c.met for c in right.expectations] == [True, True]
    assert wrong.status == "failed" and [c.met for c in wrong.expectations] == [False, True]
    missed = wrong.expectations[0]
    assert (missed.expected, missed.actual) == ("initiative-winner == ann", "initiative-winner is bob")
    from ludex.scenarios.answer import render_answer
    text = render_answer([right, wrong], str(source))
    for event in wrong.trace:                # every event, none left out
        assert f"{event.seq:5d} [{event.rule or 'set-up'}]" in text
    assert "actual:   initiative-winner is bob" in text and "NOT MET" in text


def test_a_json_answer_has_the_documented_shape():
    """The shape docs/scenarios.md gives for ``ludex ask --json``."""
    answer = json.loads((GOLDEN / "huntik-first-turn.json").read_text(encoding="utf-8"))
    assert set(answer) == {"game", "source", "ok", "errors", "scenarios"}
    [scenario] = answer["scenarios"]
    assert set(scenario) == {"title", "line", "question", "answer", "cites", "players", "status", "expectations",
                             "failures", "errors", "game_over", "winners", "setup_events", "trace"}
    assert set(scenario["expectations"][0]) == {"line", "column", "text", "kind", "met", "expected", "actual",
                                                "after_event"}
    assert set(scenario["trace"][0]) == {"seq", "rule", "kind", "player", "text", "data"}
    docs = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for key in [*scenario, *scenario["expectations"][0]]:
        assert f'"{key}"' in docs, key


# ------------------------------------------------------------------ bare scripts and their errors


BARE = b"""players dana, leo
setup {
  set defending-player = dana
  set lead-player = leo
  set mission-timer = 3
}
dana passes
leo passes
run 500.2
expect first-turn-player == dana
"""


def test_a_bare_script_from_standard_input_is_answered(capsys, monkeypatch):
    assert ask(["huntik", "-"], BARE, monkeypatch) == 0
    out = capsys.readouterr().out
    assert out.startswith("<stdin>:1: the question: passed: its expectation met\n")
    assert "  met      line 10   expect first-turn-player == dana\n" in out
    assert "dana acts first" in out


def test_no_file_reads_the_question_from_standard_input(capsys, monkeypatch):
    assert ask(["huntik"], BARE.replace(b"== dana", b"== leo"), monkeypatch) == 1
    out = capsys.readouterr().out
    assert "  NOT MET  line 10   expect first-turn-player == leo\n" in out
    assert "actual:   first-turn-player is dana" in out


def test_a_bare_script_parses_to_the_scenario_it_would_be_inside_braces():
    wrapped = parse_scenarios('scenario "" {\n' + BARE.decode() + "}\n", "<stdin>").scenarios[0]
    bare = parse_question(BARE.decode(), "<stdin>").scenarios[0]
    assert bare == wrapped                  # (spans are not compared: they differ by the wrapper's line)
    assert bare.steps[0].span.line == 7 and wrapped.steps[0].span.line == 8


@pytest.mark.parametrize("source", ERRORS, ids=lambda p: p.stem)
def test_an_error_in_a_bare_script_is_placed_in_its_own_lines(source, goldens, capsys, monkeypatch):
    text = source.read_bytes()
    expect = re.match(rb"# expect: ([A-Z0-9 ]+)", text)
    assert expect, f"{relative(source)} must start with '# expect: CODE'"
    assert ask(["huntik", "-"], text, monkeypatch) == 2
    err = capsys.readouterr().err
    lines = text.decode().splitlines()
    places = re.findall(r"^<stdin>:(\d+):(\d+): error\[([A-Z0-9]+)\]", err, re.M)
    assert places and set(expect.group(1).decode().split()) <= {code for _, _, code in places}
    for line, column, _ in places:          # the caret under the script's own line and column
        quoted = lines[int(line) - 1]
        assert f"\n{line} | {quoted}\n" in err
        assert 1 <= int(column) <= len(quoted) + 1
    assert "Traceback" not in err
    goldens.check(source.with_suffix(".err"), err)


def test_a_question_that_is_not_utf8_is_an_error_at_its_byte(capsys, monkeypatch):
    assert ask(["huntik", "-"], b"players dana, leo\nrun 5\xff\n", monkeypatch) == 2
    err = capsys.readouterr().err
    assert err.startswith("<stdin>:2:6: error[E001]: the file is not UTF-8 text") and "2 | run 5" in err


def test_a_json_answer_to_a_question_that_does_not_check_gives_its_errors(capsys, monkeypatch):
    assert ask(["huntik", "-", "--json"], b"players dana, leo\nrun 500.9\n", monkeypatch) == 2
    captured = capsys.readouterr()
    answer = json.loads(captured.out)
    assert captured.err == "" and answer["ok"] is False and answer["scenarios"] == []
    [error] = answer["errors"]
    assert (error["path"], error["line"], error["column"], error["code"]) == ("<stdin>", 2, 1, "C001")


# ------------------------------------------------------------------ exit codes


def test_exit_codes_met_not_met_and_bad_input(capsys, monkeypatch, tmp_path):
    assert ask(["huntik", "-"], BARE, monkeypatch) == 0
    assert ask(["huntik", "-"], BARE + b"expect winner dana\n", monkeypatch) == 1
    assert ask(["huntik", "-"], BARE + b"expect = 1\n", monkeypatch) == 2          # a syntax error
    assert ask(["huntik", "-"], BARE.replace(b"leo passes\n", b""), monkeypatch) == 2  # unanswered (C010)
    assert ask(["huntik", str(tmp_path / "missing.question")]) == 2
    assert ask(["huntik", str(tmp_path)]) == 2
    assert ask(["nosuch", "-"], BARE, monkeypatch) == 2
    rules = tmp_path / "broken.ludex"
    rules.write_text('game broken "Broken" { players 2 to 2 }\nrule 1 "One" { set nothing = 1 }\n')
    assert ask([str(rules), "-"], b"players a, b\nrun 1\n", monkeypatch) == 3      # rules that do not check
    err = capsys.readouterr().err
    assert "no such file: " in err and "is a folder, not a file" in err and "Traceback" not in err


def test_a_question_asked_through_the_command_at_the_process_boundary():
    """The installed command's way in: standard input as a pipe, the answer on standard output, the
    exit code the verdict's."""
    done = subprocess.run([sys.executable, "-m", "ludex", "ask", "huntik", "-"], input=BARE + b"expect winner leo\n",
                          capture_output=True, timeout=120, cwd=ROOT)
    assert done.returncode == 1, done.stderr
    out = done.stdout.decode()
    assert "NOT MET  line 11   expect winner leo" in out and "dana acts first" in out
    assert done.stderr == b""


# ------------------------------------------------------------------ traces of scenarios that pass


def test_check_trace_prints_the_trace_of_scenarios_that_pass(capsys):
    path = ROOT / "scenarios" / "huntik" / "initiative.scenario"
    assert main(["check", "--trace", str(path)]) == 0
    out = capsys.readouterr().out
    assert "huntik/initiative.scenario::Who takes the first turn in each of the seven rounds: passed\n" in out
    assert "[501.1]" in out and "mission-timer: 6 -> 7" in out
    assert main(["check", "--trace", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    traced = report["games"]["huntik"]["traces"]
    assert traced and all(t["status"] == "passed" and t["trace"] for t in traced)


def test_check_runs_a_scenario_file_against_the_game_its_folder_names(capsys):
    path = ROOT / "scenarios" / "huntik" / "initiative.scenario"
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    scenarios = len(parse_scenarios(path.read_text(encoding="utf-8"), str(path)).scenarios)
    assert re.search(rf"^huntik +\d+ +{scenarios} +0 ", out, re.M), out


def test_check_of_a_scenario_file_outside_scenarios_says_how_to_ask_it_or_takes_game(tmp_path, capsys):
    path = tmp_path / "question.scenario"
    path.write_text('scenario "s" {\n' + BARE.decode() + "}\n")
    with pytest.raises(SystemExit) as stop:
        main(["check", str(path)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"ask the question with 'ludex ask GAME {path}'" in err and "--game GAME" in err
    assert main(["check", "--game", "huntik", str(path)]) == 0
    assert re.search(r"^huntik +\d+ +1 +0 ", capsys.readouterr().out, re.M)


def test_a_game_given_by_name_and_by_a_scenario_file_is_given_twice(capsys):
    path = ROOT / "scenarios" / "huntik" / "initiative.scenario"
    with pytest.raises(SystemExit):
        main(["check", "huntik", str(path)])
    assert "huntik is given twice" in capsys.readouterr().err


def test_game_without_scenario_files_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["check", "--game", "huntik"])
    assert stop.value.code == 2 and "only with scenario files" in capsys.readouterr().err


def test_the_benchmarks_question_is_answered_as_it_expects():
    """benchmarks/ask.py times a one-step question: it must stay one the rules answer as it says."""
    from conftest import load_benchmark
    bench = load_benchmark("ask")
    gamedef = load_game("huntik").game
    [scenario] = load_question(gamedef, bench.QUESTION, "<stdin>").scenarios
    assert [s.kind for s in scenario.steps].count("run") == 1
    result = run_scenario(gamedef, scenario)
    assert result.passed and len(result.expectations) == 2
    assert set(bench.in_process()) == {"load the game's rules", "parse and check the question",
                                       "run it (the rules compiled on first use)", "put the answer in words"}


# ------------------------------------------------------------------ a question with its own cards

OWN_CARD = b"""players dana, leo
# a free action card of the question's own, and a deck list of it with one of the game's cards
card "Cut Them Off" free-action {
  alignment "Good"
  ability "Cut Them Off" "free action" {
    modify first-turn-player to first(opponents(this.owner)) for next round cite 500.1d
  }
}
deck leos-hand { 1 "Cut Them Off" 1 "Take the Initiative" }
setup {
  set defending-player = dana
  set lead-player = leo
  set mission-timer = 3
  create leos-hand into leo.hand
}
dana passes
leo plays play-card("Cut Them Off")
dana passes
leo passes
run 500 to 502
expect first-turn-player == dana
expect size(leo.hand) == 1
"""


def test_a_question_declares_a_card_and_a_deck_of_its_own(capsys, monkeypatch):
    """The card is played by the game's own play-card and initiated by its 'free action' rule (500.2),
    its modifier cited to 500.1d: round 4, even, is Dana's."""
    assert ask(["huntik", "-"], OWN_CARD, monkeypatch) == 0
    out = capsys.readouterr().out
    assert "  met      line 21   expect first-turn-player == dana\n" in out
    assert "leo plays play-card(Cut Them Off)" in out
    assert "[500.1d]         modifier: first-turn-player to dana for the next round\n" in out


def test_a_questions_card_named_as_a_card_of_the_game_is_refused_at_its_line(capsys, monkeypatch):
    clash = OWN_CARD.replace(b'"Cut Them Off"', b'"Take the Initiative"', 1)
    assert ask(["huntik", "-"], clash, monkeypatch) == 2
    err = capsys.readouterr().err
    assert err.startswith('<stdin>:3:6: error[C020]: the game already has a card "Take the Initiative"')
    assert "the game's card" in err


def test_a_questions_own_cards_are_checked_as_a_rules_files_at_its_lines(capsys, monkeypatch):
    wrong = OWN_CARD.replace(b'alignment "Good"', b'alignment "Good"\n  strength 3')
    assert ask(["huntik", "-"], wrong, monkeypatch) == 2
    err = capsys.readouterr().err
    assert err.startswith("<stdin>:5:3: error[S011]: card type 'free-action' has no attribute 'strength'")


def test_own_cards_are_compiled_with_the_game_once_and_a_question_without_any_compiles_nothing_more():
    loaded = load_game("huntik")
    game = loaded.game
    plain = load_question(game, BARE.decode(), "<stdin>").scenarios[0]
    assert run_scenario(game, plain).passed
    program = game.program
    assert program is not None and game.scenario_games == {}        # nothing but the game's own program
    own = load_question(game, OWN_CARD.decode(), "<stdin>").scenarios[0]
    assert run_scenario(game, own).passed and run_scenario(game, own).passed
    [(_, with_cards, problems)] = game.scenario_games.values()
    assert problems == [] and with_cards.program is not None and with_cards.program is not program
    assert "Cut Them Off" in with_cards.cards and "Cut Them Off" not in game.cards
    assert game.program is program                                  # the game's own rules unchanged
