"""The command line refuses bad arguments with a one-line message and exit code 2, never a traceback."""

from pathlib import Path

import pytest

from ludex.cli import main
from ludex.resources import scenarios_dir

ROOT = Path(__file__).resolve().parent.parent


def exit_code(argv) -> int:
    """What the ``ludex`` command exits with (some errors leave through SystemExit, as on the console)."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code


@pytest.mark.parametrize("argv, message", [
    (["explain", "agot", "99.9"], "agot has no rule 99.9"),
    (["run", "nosuch"], "no bundled game 'nosuch'"),
    (["run", "agot", "--players", "9"], "agot is for 2 to 8 players"),
    (["run", "agot", "--max-rounds", "0"], "argument --max-rounds: must be at least 1, not 0"),
    (["simulate", "agot", "--games", "0"], "argument --games: must be at least 1, not 0"),
    (["simulate", "agot", "--games", "2", "--max-rounds", "0"], "argument --max-rounds: must be at least 1, not 0"),
    (["check-log", "agot", "/nonexistent/log"], "no such file"),
    (["check", "huntk"], "no such file or folder: huntk (bundled games: agot, halloween, huntik, nightmare)"),
    (["run", "agot", "--seed", "\u0663"], "argument --seed: expected a whole number, not '\u0663'"),
    (["run", "agot", "--seed", " 5"], "argument --seed: expected a whole number, not ' 5'"),
    (["run", "agot", "--seed", "5_0"], "argument --seed: expected a whole number, not '5_0'"),
    (["run", "agot", "--seed", "-1"], "argument --seed: must be at least 0, not -1"),
    (["run", "agot", "--log", ""], "argument --log: expected the name of a file to write"),
    (["run", str(ROOT / "scenarios" / "logs" / "huntik" / "legal-whole-game.log")], "is a game log: replay it"),
    (["check", str(ROOT / "scenarios" / "logs" / "huntik" / "legal-whole-game.log")], "is a game log: replay it"),
    (["explain", str(ROOT / "scenarios" / "huntik" / "turns.scenario"), "500.2"], "is a scenario file: run it with 'ludex check "),
    (["site", "build", "--rules", "/nonexistent"], "argument --rules: no such folder: /nonexistent"),
    (["site", "build", "--rules", str(ROOT / "rules" / "agot.ludex")], "agot.ludex is a file: give the folder of rules"),
    (["site", "build", "--rules", str(ROOT / "docs")], f"the folder {ROOT / 'docs'} holds no rules files (*.ludex)"),
    (["site", "build", "--scenarios", "/nonexistent"], "argument --scenarios: no such folder"),
    (["site", "build", "--scenarios", str(ROOT / "rules")], "holds no scenario folders"),
    (["site", "serve", "--addr", "garbage"], "argument --addr: expected HOST:PORT"),
    (["site", "serve", "--addr", "localhost:99999"], "argument --addr: expected HOST:PORT"),
])
def test_a_bad_argument_is_a_usage_error_with_a_message(argv, message, capsys):
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_site_that_cannot_be_written_is_refused_before_any_page_is_made(tmp_path, capsys):
    pytest.importorskip("mkdocs")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert exit_code(["site", "build", "--out", str(blocked / "site")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ludex: error: cannot write the site to ") and "Traceback" not in err


# ------------------------------------------------------------------ arguments that used to fall back or misbehave


@pytest.mark.parametrize("argv, message", [
    (["run", "agot", "--players", "0"], "argument --players: must be at least 1, not 0"),
    (["simulate", "agot", "--players", "0"], "argument --players: must be at least 1, not 0"),
    (["run", "agot", "--max-steps", "0"], "argument --max-steps: must be at least 1, not 0"),
    (["run", "agot", "--max-steps", "-5"], "argument --max-steps: must be at least 1, not -5"),
    (["simulate", "agot", "--max-steps", "-1"], "argument --max-steps: must be at least 1, not -1"),
    (["simulate", "agot", "--jobs", "-1"], "argument --jobs: must be at least 0 (0: every core), not -1"),
    (["simulate", "agot", "--games", "many"], "argument --games: expected a whole number, not 'many'"),
    (["run", "agot", "--seat", "0", "--interactive"], "argument --seat: must be at least 1, not 0"),
    (["run", "agot", "--seat", "2"], "argument --seat: only with --interactive"),
    (["run", "agot", "--as", "p3"], "argument --as: no player p3 at this table (the players: p1, p2)"),
    (["run", "agot", "--judge", "--as", "p1"], "argument --judge: not with --as (one view of the trace)"),
    (["fmt", "--check", "--write", "rules/agot.ludex"], "argument --write: not allowed with argument --check"),
    (["run", "agot", "--log", "/"], "argument --log: / is a folder, not a file"),
    (["run", "agot", "--log", "/nonexistent/x.log"],
     "argument --log: cannot write /nonexistent/x.log: there is no folder /nonexistent"),
])
def test_a_value_that_cannot_be_meant_is_a_usage_error_not_a_default(argv, message, capsys):
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: ludex {argv[0]} ") and err.endswith(f"ludex: error: {message}\n")


def test_a_log_that_cannot_be_written_is_refused_before_the_game_is_played(tmp_path, capsys, monkeypatch):
    import ludex.engine.game as engine
    monkeypatch.setattr(engine.Game, "run", lambda self: pytest.fail("the game was played"))
    assert exit_code(["run", "huntik", "--log", str(tmp_path)]) == 2
    assert "is a folder, not a file" in capsys.readouterr().err


def test_a_log_that_fails_to_be_written_after_the_game_is_an_error_not_a_traceback(tmp_path, capsys, monkeypatch):
    from pathlib import Path
    log = tmp_path / "game.log"

    def refuse(self, *args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(Path, "write_text", refuse)
    assert exit_code(["run", "huntik", "--seed", "2", "--log", str(log)]) == 2
    assert capsys.readouterr().err == f"ludex: error: cannot write the log to {log}: No space left on device\n"


@pytest.mark.parametrize("files, message", [
    ([], "holds no rules files (*.ludex)"),
    (["b.ludex", "a.ludex", "a.cards.ludex"], "holds the rules of several games (a, b): give a folder of one game's files"),
])
def test_a_folder_given_for_a_game_must_hold_exactly_one(tmp_path, files, message, capsys):
    for name in files:
        (tmp_path / name).write_text('game x "X" { players 2 to 2 }\n', encoding="utf-8")
    for command in (["run"], ["simulate"], ["explain"], ["check-log"]):
        argv = command + [str(tmp_path)] + {"explain": ["1"], "check-log": ["x.log"]}.get(command[0], [])
        assert exit_code(argv) == 2
        assert capsys.readouterr().err == f"ludex: error: the folder {tmp_path} {message}\n"


# ------------------------------------------------------------------ files that are not plain UTF-8


def test_a_rules_file_that_is_not_utf8_is_an_error_at_its_first_bad_byte_for_every_command(tmp_path, capsys,
                                                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.ludex").write_bytes(b"\xff\xfegame x")
    (tmp_path / "latin.ludex").write_bytes(b'game x\nrule 1 "a" {\n  text "caf\xe9"\n}\n')
    for argv in (["fmt", "bad.ludex"], ["check", "bad.ludex"], ["run", "bad.ludex"], ["fmt", "latin.ludex"]):
        assert exit_code(argv) == 3
        err = capsys.readouterr().err
        assert "Traceback" not in err
    assert err == ("latin.ludex:3:12: error[E001]: the file is not UTF-8 text (byte 0xe9 here: invalid "
                   "continuation byte)\n  |\n3 |   text \"caf\ufffd\"\n  |            ^\n"
                   "  = help: save the file as UTF-8 text\n\n1 error found\n")
    assert exit_code(["run", "bad.ludex"]) == 3
    assert capsys.readouterr().err.startswith("bad.ludex:1:1: error[E001]: the file is not UTF-8 text (byte 0xff")


def test_a_log_that_is_not_utf8_is_reported_not_a_traceback(tmp_path, capsys):
    log = tmp_path / "bad.log"
    log.write_bytes(b"players p1, p2\n\xe9\n")
    assert exit_code(["check-log", "agot", str(log)]) == 3
    err = capsys.readouterr().err
    assert err.startswith(f"{log}:2:1: error[E001]: the file is not UTF-8 text (byte 0xe9 here")


def test_a_scenario_file_that_is_not_utf8_is_an_error_at_its_first_bad_byte(tmp_path):
    from ludex.diagnostics import SourceError
    from ludex.load import load_game
    from ludex.scenarios.runner import load_scenarios
    path = tmp_path / "bad.scenario"
    path.write_bytes(b'scenario "x" {\n  question "caf\xe9"\n}\n')
    with pytest.raises(SourceError) as exc:
        load_scenarios(load_game("huntik").game, path)
    [d] = exc.value.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E001", 2, 16)


def test_a_file_whose_lines_end_in_a_lone_carriage_return_is_an_error_not_one_long_comment(tmp_path, capsys):
    """Lines end at LF (or CR LF): a file saved with lone CRs read as one line, the first line's
    comment running to its end. A scenario file's scenarios were silently not run ('ludex check' passed
    with fewer scenarios); a rules file or a log was 'missing' its header (found by mutation fuzzing)."""
    from ludex.diagnostics import SourceError, read_source
    from ludex.load import load_game
    from ludex.scenarios.runner import load_scenarios
    scenario = tmp_path / "turns.scenario"
    scenario.write_bytes((scenarios_dir() / "huntik" / "turns.scenario").read_bytes().replace(b"\n", b"\r"))
    with pytest.raises(SourceError) as caught:
        load_scenarios(load_game("huntik").game, scenario)
    [d] = caught.value.diagnostics
    first = scenario.read_bytes().index(b"\r")
    assert (d.code, d.span.line, d.span.column) == ("E001", 1, first + 1)
    log = tmp_path / "cr.log"
    log.write_bytes(b"game agot\rplayers p1, p2\rseed 1\r")
    assert exit_code(["check-log", "agot", str(log)]) == 3
    err = capsys.readouterr().err
    assert err == (f"{log}:1:10: error[E001]: the file's lines end in a lone carriage return (CR, byte 0x0d), "
                   "so it would read as one line\n  |\n1 | game agot\n  |          ^\n"
                   "  = help: save the file with LF or CR LF line ends\n\n"
                   "1 error found\n")
    rules = tmp_path / "cr.ludex"
    rules.write_bytes(b'game x "X" {\r}\r')
    for argv in (["check", str(rules)], ["fmt", str(rules)], ["run", str(rules)]):
        assert exit_code(argv) == 3
        assert "error[E001]" in capsys.readouterr().err
    # a lone CR inside a line, CR LF line ends, or one line ending in CRs are read as before
    for text in ("game x\r\n", "# a\rb\ngame x\n", "game x\r", "game x"):
        rules.write_bytes(text.encode())
        assert read_source(rules) == text


def test_the_shared_reader_positions_the_bad_byte_as_an_editor_counts_columns(tmp_path):
    from ludex.diagnostics import SourceError, read_source
    path = tmp_path / "x.scenario"
    path.write_bytes("\ufeffé é\n\n  ok \xff".encode("utf-8").replace(b"\xc3\xbf", b"\xff"))
    with pytest.raises(SourceError) as caught:
        read_source(path)
    [d] = caught.value.diagnostics
    assert (d.code, d.span.path, d.span.line, d.span.column) == ("E001", str(path), 3, 6)
    path.write_bytes("\ufeffgame é".encode("utf-8"))
    assert read_source(path) == "game é"


def test_a_byte_order_mark_is_skipped_and_columns_on_line_one_are_an_editors(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bom.ludex").write_bytes(b"\xef\xbb\xbfgame ;")
    assert exit_code(["check", "bom.ludex"]) == 3
    assert "bom.ludex:1:6: error[E002]: unexpected character ';'" in capsys.readouterr().err
    (tmp_path / "bom.log").write_bytes(b"\xef\xbb\xbf# a log\nplayers p1, p2\n")
    assert exit_code(["check-log", "huntik", "bom.log"]) == 0
    assert "bom.log: legal" in capsys.readouterr().out


def test_fmt_keeps_a_byte_order_mark_and_does_not_count_it_as_a_change(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = 'game x "X" {\n  players 2 to 2\n}\n'
    assert exit_code(["fmt", str(write(tmp_path / "plain.ludex", source))]) == 0
    canonical = capsys.readouterr().out
    path = write(tmp_path / "bom.ludex", "\ufeff" + canonical)
    assert exit_code(["fmt", "--check", "bom.ludex"]) == 0
    write(path, "\ufeff" + canonical + "\n\n")
    assert exit_code(["fmt", "--write", "bom.ludex"]) == 0
    assert path.read_bytes() == ("\ufeff" + canonical).encode("utf-8")


def test_fmt_formats_rules_and_scenario_files_and_says_so_of_anything_else(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "s.scenario", 'scenario "s" {\n  players ann, bob\n}\n')
    write(tmp_path / "g.log", "players p1, p2\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "logs").mkdir()
    write(tmp_path / "logs" / "g.log", "players p1, p2\n")
    assert exit_code(["fmt", "--check", "s.scenario"]) == 0
    for path, said in (("g.log", "g.log is a game log file: 'ludex fmt' formats rules and scenario files "
                                 "(.ludex, .scenario)"),
                       ("empty", "empty holds no rules or scenario files (.ludex, .scenario) to format"),
                       ("logs", "logs holds no rules or scenario files (.ludex, .scenario) to format")):
        assert exit_code(["fmt", "--check", path]) == 2
        assert capsys.readouterr().err == f"ludex: error: {said}\n"


def test_fmt_formats_every_file_it_can_and_reports_the_others_errors(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.ludex", "game ;\n")
    messy = write(tmp_path / "b.ludex", 'game x "X" {\n players 2 to 2 }\n')
    write(tmp_path / "c.ludex", 'game x "X" {\n  x\0\n}\n')
    assert exit_code(["fmt", "--check", "a.ludex", "b.ludex", "c.ludex"]) == 3
    err = capsys.readouterr().err
    assert "b.ludex: not in canonical form" in err
    assert "a.ludex:1:6: error[E002]: unexpected character ';'" in err
    assert "c.ludex:2:4: error[E001]: the file is not text: it holds a NUL character (byte 0x00) here" in err
    assert exit_code(["fmt", "--write", "a.ludex", "b.ludex"]) == 3
    assert messy.read_text(encoding="utf-8") == 'game x "X" {\n  players 2 to 2\n}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ludex", "b.ludex", "c.ludex"]   # no spare left


def test_fmt_that_cannot_write_a_file_says_so_and_leaves_it_whole(tmp_path, capsys, monkeypatch):
    import os
    monkeypatch.chdir(tmp_path)
    source = 'game x "X" {\n players 2 to 2 }\n'
    path = write(tmp_path / "locked.ludex", source)

    def refused(spare, target):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(os, "replace", refused)
    assert exit_code(["fmt", "--write", "locked.ludex"]) == 2
    assert capsys.readouterr().err == ("ludex: error: cannot write locked.ludex: Permission denied; "
                                       "it is left as it is\n")
    assert path.read_text(encoding="utf-8") == source
    assert [p.name for p in tmp_path.iterdir()] == ["locked.ludex"]       # the new form is not left beside it


def test_fmt_never_writes_a_form_that_changes_what_the_rules_say(tmp_path, capsys, monkeypatch):
    """A check on the formatter itself: should it ever print other rules (here, one made to drop the
    header's second 'players', as it once did), the file is left as it is and the fault is reported."""
    import ludex.fmt.rules as formatter
    monkeypatch.chdir(tmp_path)
    source = 'game x "X" {\n  players 2 to 2\n  players 3 to 4\n}\n'
    path = write(tmp_path / "twice.ludex", source)
    monkeypatch.setattr(formatter, "format_source", lambda text, path: 'game x "X" {\n  players 3 to 4\n}\n')
    for mode in ("--check", "--write"):
        assert exit_code(["fmt", mode, "twice.ludex"]) == 1
        assert "formatting twice.ludex would change what its rules say" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == source


def write(path, text):
    path.write_bytes(text.encode("utf-8"))
    return path


# ------------------------------------------------------------------ check-log and its messages


def test_check_log_json_is_json_when_the_log_has_errors(tmp_path, capsys):
    import json
    log = write(tmp_path / "bad.log", "players p1, p9, p2\np1 plays nothing-at-all\n")
    assert exit_code(["check-log", "huntik", str(log), "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["violations"] == [] and data["log"] == str(log)
    assert [(e["code"], e["line"]) for e in data["errors"]] == [("L003", 1), ("L006", 2)]
    legal = scenarios_dir() / "logs" / "huntik"
    good = next(p for p in sorted(legal.glob("legal*.log")))
    assert exit_code(["check-log", "huntik", str(good), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["errors"] == []


@pytest.mark.parametrize("text", ["", "# nothing but a comment\n"])
def test_a_log_without_players_is_positioned_at_its_first_line(tmp_path, text, capsys):
    log = write(tmp_path / "empty.log", text)
    assert exit_code(["check-log", "huntik", str(log)]) == 3
    first = text.splitlines()[0] if text else ""
    assert capsys.readouterr().err == (
        f"{log}:1:1: error[L002]: a log names its players first: players ann, bob\n  |\n1 | {first}\n  | ^\n\n"
        "1 error found\n")


def test_a_yes_or_no_answer_that_is_neither_says_so_in_words(tmp_path, capsys):
    log = write(tmp_path / "maybe.log", "players p1, p2\np1 answers maybe\n")
    assert exit_code(["check-log", "huntik", str(log)]) == 3
    assert "  = expected: 'yes' or 'no'\n" in capsys.readouterr().err


@pytest.mark.parametrize("start", ["rules", "scenario", "log", "question"])
def test_no_grammar_terminal_is_named_by_its_grammar_name(start):
    """Every terminal a syntax error can expect is said in words: a phrase, or the keyword itself."""
    from ludex.parse.grammars import parser
    from ludex.parse.mistakes import _TOKEN_WORDS, _describe
    phrases = set(_TOKEN_WORDS.values())
    for terminal in parser(start).terminals:
        words = _describe(terminal.name, start)
        if terminal.pattern.type == "str":
            assert words in phrases | {f"'{terminal.pattern.value}'"}, terminal
        else:
            assert words in phrases, terminal


# ------------------------------------------------------------------ the interactive seat


def test_a_typed_character_that_looks_like_a_digit_is_asked_again():
    import io
    from ludex.engine.agents import InteractiveAgent
    out = io.StringIO()
    agent = InteractiveAgent(stdin=io.StringIO("²\n٣x\n0\n2\n"), stdout=out)
    assert agent._ask(3, "your choice") == 2
    assert out.getvalue().count("please type a number from 1 to 3") == 3


def test_the_interactive_seat_reads_the_rule_once_and_again_on_a_question_mark():
    """The first decision a rule asks shows its reference text under the heading; the next ones from
    the same rule do not repeat it; '?' shows it again and asks again."""
    import io
    from ludex.engine.agents import InteractiveAgent, RandomAgent
    from ludex.engine.game import Game
    from ludex.load import load_game
    out = io.StringIO()
    person = InteractiveAgent(stdin=io.StringIO("?\n1\n" + "1\n" * 60), stdout=out, width=80)
    random_agent = RandomAgent(1)
    game = Game(load_game("agot").game, ["p1", "p2"],
                lambda g, d: person(g, d) if d.player is not None and d.player.name == "p1" else random_agent(g, d),
                seed=1)
    with pytest.raises(EOFError):
        game.run()
    shown = out.getvalue()
    plot_choices = shown.count("[1.2 Choose plots] p1: Choose a plot to reveal")
    assert plot_choices >= 2                                    # a plot chosen in two rounds at least
    # Shown the first time and on '?': twice, however many plots p1 chose.
    assert shown.count("    Each player looks at the cards remaining in his or her plot deck") == 2
    assert shown.count("  1. A Season of Plenty") == 2          # the options again after the text
    assert all(len(line) <= 80 for line in shown.splitlines() if line.startswith("    "))


def _tally_game():
    from ludex.engine.agents import RandomAgent
    from ludex.engine.game import Game
    from ludex.load import load_paths
    return Game(load_paths("tally", [ROOT / "tests" / "games" / "tally.ludex"]).game, ["ann", "bob"], RandomAgent(1),
                seed=1)


def test_an_option_is_typed_by_its_words_as_well_as_its_number():
    """A space is typed by its name (any case), like any option whose words no other option has; words
    that two options read ask for the number; a number is still the option's number."""
    import io

    from ludex.engine.agents import InteractiveAgent
    from ludex.runtime.records import Decision
    game = _tally_game()
    ann = game.state.players[0]
    out = io.StringIO()
    person = InteractiveAgent(stdin=io.StringIO("b2\nA1\nZ9\n3\nrope\n2\n"), stdout=out)
    spaces = Decision(ann, "choose", ["A1", "B2", "C3"], "1.4", "Where to?")
    assert person(game, spaces) == "B2"
    assert person(game, spaces) == "A1"
    assert person(game, spaces) == "C3"            # Z9, no option's words: asked again; then 3
    assert "please type a number from 1 to 3, or an option's words" in out.getvalue()
    copies = Decision(ann, "choose", ["rope", "rope", "lamp"], "1.4", "Which?")
    assert person(game, copies) == "rope" and "more than one option reads rope" in out.getvalue()


def test_the_interactive_seat_sees_its_own_cards_before_each_decision():
    """The seat's own zones before the question: each one's cards, a face-down pile by its count, the
    empty ones together."""
    import io

    from ludex.engine.agents import InteractiveAgent
    from ludex.runtime.records import Decision
    game = _tally_game()
    ann = game.state.players[0]
    game.create_cards(["Rope", "Lantern"], ann, ann.zones["hand"], "")
    game.create_cards(["Rope", "Rope", "Rope"], ann, ann.zones["draw-deck"], "")
    out = io.StringIO()
    InteractiveAgent(stdin=io.StringIO("1\n"), stdout=out)(game, Decision(ann, "may", [True, False], "1.4", "Flip?"))
    shown = out.getvalue().splitlines()
    mine = shown[shown.index("ann's cards:") + 1:shown.index("[1.4 Luck] ann: Flip?")]
    assert "  draw-deck: 3 cards, face down" in mine and "  hand: Rope, Lantern" in mine, mine
    assert any(line.startswith("  empty: ") and "table" in line for line in mine), mine


def test_the_interactive_seat_sees_its_own_hidden_choices_and_a_board_with_its_legend(monkeypatch, capsys):
    """Halloween, seed 1: p1 is Michael Myers. Seat 1 sees where he chose to start; the board drawn
    before each decision is followed by its legend (what each piece is, the lines, the marks)."""
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("R19\n"))
    assert exit_code(["run", "halloween", "--seed", "1", "--interactive"]) == 1       # (stopped: no more input)
    out = capsys.readouterr().out
    assert "p1 chooses R19 (hidden from the others)" in out and "p1 makes a hidden choice" not in out
    assert "pieces: Ann = Annie (" in out and "Dr. = Dr. Loomis (A12)" in out
    assert "lines: | --- wall, / /// door, : ::: window, # ### hedge" in out
    assert "marks: . outdoor, _ indoor, = outdoor street" in out
    # seat 2, a Victims' player: Myers' choice is hidden from them
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 12))
    exit_code(["run", "halloween", "--seed", "1", "--interactive", "--seat", "2"])
    out = capsys.readouterr().out
    assert "p1 makes a hidden choice" in out and "p1 chooses R19" not in out


def test_the_interactive_seat_sees_its_own_hand_drawn_and_not_the_others(monkeypatch, capsys):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3))
    exit_code(["run", "agot", "--seed", "1", "--interactive"])
    out = capsys.readouterr().out
    assert "p1 draws 2 cards from p1.draw-deck to p1.hand: Riverside Holdfast, Lady Alys of Oldstones (hidden from " \
           "the others)" in out
    assert "p2 draws 2 cards from p2.draw-deck to p2.hand\n" in out
    assert "p1 chooses A Season of Plenty (hidden from the others)" in out and "p2 chooses a card (hidden)" in out


# ------------------------------------------------------------------ formats for some numbers of players


def test_a_game_is_played_in_the_format_for_its_number_of_players(capsys):
    # agot: joust for 2 players, melee for 3 to 8; only melee selects titles (1.4)
    assert exit_code(["run", "agot", "--seed", "1", "--players", "3", "--max-rounds", "1"]) != 2
    melee = capsys.readouterr().out
    assert "step 1.4 is skipped" not in melee and "p3" in melee
    assert exit_code(["run", "agot", "--seed", "1", "--max-rounds", "1"]) != 2
    joust = capsys.readouterr().out
    assert "step 1.4 is skipped" in joust and "p3" not in joust
    assert exit_code(["run", "agot", "--seed", "1", "--format", "melee", "--max-rounds", "1"]) != 2
    assert "p3" in capsys.readouterr().out          # a melee game has 3 players at fewest


@pytest.mark.parametrize("argv, message", [
    (["--players", "2", "--format", "melee"], "agot's melee format is for 3 to 8 players, not 2"),
    (["--players", "4", "--format", "joust"], "agot's joust format is for 2 players, not 4"),
    (["--format", "rumble"], "agot has formats joust, melee, not 'rumble'"),
])
def test_a_format_for_another_number_of_players_is_a_usage_error(capsys, argv, message):
    for command in ("run", "simulate"):
        extra = ["--games", "1"] if command == "simulate" else []
        assert exit_code([command, "agot", *argv, *extra]) == 2
        assert capsys.readouterr().err == f"ludex: error: {message}\n"


@pytest.mark.parametrize("seed, message", [
    ("-5", "must be at least 0, not -5"),
    ("1" + "0" * 18, "must be at most 999999999999999999, not 1" + "0" * 18),
    ("x", "expected a whole number, not 'x'"),
])
def test_a_seed_a_log_could_not_write_is_a_usage_error(capsys, seed, message):
    for command in ("run", "simulate"):
        assert exit_code([command, "huntik", "--seed", seed]) == 2
        assert capsys.readouterr().err.endswith(f"argument --seed: {message}\n")


def test_simulated_games_whose_seeds_would_pass_the_last_seed_are_a_usage_error(capsys):
    assert exit_code(["simulate", "huntik", "--seed", "999999999999999999", "--games", "2"]) == 2
    assert capsys.readouterr().err.endswith(
        "argument --seed: 2 games from seed 999999999999999999 go past the last seed, 999999999999999999\n")


def test_a_format_asked_of_a_game_without_formats_says_it_has_none(capsys):
    assert exit_code(["run", "huntik", "--format", "x"]) == 2
    assert capsys.readouterr().err == "ludex: error: huntik has no formats, so no format 'x'\n"


@pytest.mark.parametrize("command", [["check"], ["run"], ["simulate", "--games", "1"], ["explain", "500.2"]])
@pytest.mark.parametrize("unreadable", ["folder", "dangling link"])
def test_a_rules_file_that_cannot_be_read_is_an_error_at_it_not_a_traceback(tmp_path, capsys, command, unreadable):
    """A folder, or a link to a file that is gone, named like one of a game's rules files (E000)."""
    from ludex.resources import rules_dir
    (tmp_path / "huntik.ludex").write_text((rules_dir() / "huntik.ludex").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    odd = tmp_path / "huntik.cards.ludex"
    if unreadable == "folder":
        odd.mkdir()
    else:
        odd.symlink_to(tmp_path / "gone.ludex")
    name, *rest = command
    argv = [name, str(tmp_path), *rest]
    assert exit_code(argv) == 3
    err = capsys.readouterr().err
    why = "it is a folder, not a file" if unreadable == "folder" else "there is no such file"
    assert f"{odd}:1:1: error[E000]: cannot read {odd}: {why}" in err
    assert "Traceback" not in err and "Errno" not in err


def test_a_reader_leaving_early_does_not_change_the_verdict():
    """``ludex check-log ... | head -1``: the pipe closes before the report is written; the command
    still exits 1 for a log the rules refuse (not 0, as if the pipe's end were the verdict)."""
    import subprocess
    import sys
    log = scenarios_dir() / "logs" / "agot" / "illegal-marshal-not-active.log"
    command = subprocess.Popen([sys.executable, "-m", "ludex.cli", "check-log", "agot", str(log)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    command.stdout.close()                  # the reader leaves before anything is written
    err = command.stderr.read().decode()
    assert command.wait(timeout=120) == 1
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_an_error_not_a_traceback():
    import subprocess
    import sys
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "ludex.cli", "run", "huntik"], stdout=full,
                              stderr=subprocess.PIPE, timeout=120)
    err = done.stderr.decode()
    assert done.returncode == 2
    assert "ludex: error: cannot write the output: No space left on device" in err and "Traceback" not in err


def test_check_reports_scenarios_in_a_folder_that_names_no_game(tmp_path, capsys, monkeypatch):
    """A misspelt scenarios/hunitk/ would leave its scenarios unrun while the check passed (C019)."""
    import ludex.commands.check as check
    (tmp_path / "hunitk").mkdir()
    (tmp_path / "hunitk" / "turns.scenario").write_text(
        (scenarios_dir() / "huntik" / "turns.scenario").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(check, "scenarios_dir", lambda: tmp_path)
    assert exit_code(["check"]) == 3
    err = capsys.readouterr().err
    assert f"{tmp_path / 'hunitk' / 'turns.scenario'}:1:1: error[C019]: this scenario is in the folder 'hunitk'" in err
    assert "did you mean huntik?" in err


def test_a_log_of_a_game_given_by_its_rules_file_says_how_to_replay_it_with_that_file(tmp_path, capsys):
    from ludex.resources import rules_dir
    rules = tmp_path / "my rules" / "other.ludex"
    rules.parent.mkdir()
    rules.write_text((rules_dir() / "huntik.ludex").read_text(encoding="utf-8"), encoding="utf-8")
    log = tmp_path / "other.log"
    assert exit_code(["run", str(rules), "--log", str(log)]) == 0
    head = log.read_text(encoding="utf-8").splitlines()[:3]
    assert f"# `ludex check-log '{rules}' FILE` replays it against the rules." in head
    capsys.readouterr()
    assert exit_code(["check-log", str(rules), str(log)]) == 0
    assert "legal" in capsys.readouterr().out


def test_a_rules_file_given_brings_its_games_other_files_and_a_file_named_twice_is_read_once(tmp_path, capsys):
    from ludex.resources import rules_dir
    (tmp_path / "huntik.ludex").write_text((rules_dir() / "huntik.ludex").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    (tmp_path / "huntik.extra.ludex").write_text('card "Extra Seeker" herooo { }\n', encoding="utf-8")
    assert exit_code(["check", str(tmp_path / "huntik.ludex")]) == 3      # the extra file's mistake
    assert "error[S010]" in capsys.readouterr().err
    (tmp_path / "huntik.extra.ludex").unlink()
    main_file = str(tmp_path / "huntik.ludex")
    assert exit_code(["check", main_file, main_file, str(tmp_path)]) == 0   # not 'defined twice'
    assert "defined twice" not in capsys.readouterr().err


def test_a_games_part_file_in_the_bundled_rules_is_no_game_of_its_own(tmp_path, monkeypatch):
    import ludex.resources as resources
    for name in ("huntik.ludex", "agot.ludex"):
        (tmp_path / name).write_text("")
    (tmp_path / "huntik.extra.ludex").write_text("")
    monkeypatch.setattr(resources, "rules_dir", lambda: tmp_path)
    assert resources.bundled_games() == ["agot", "huntik"]


def test_a_scenario_file_that_does_not_check_shows_in_its_games_row_and_json(tmp_path, capsys, monkeypatch):
    import json
    import ludex.commands.check as check
    (tmp_path / "huntik").mkdir()
    text = (scenarios_dir() / "huntik" / "rounds.scenario").read_text(encoding="utf-8")
    (tmp_path / "huntik" / "rounds.scenario").write_text(text.replace("expect", "expect zed.gold == 1\n  expect", 1),
                                                         encoding="utf-8")
    monkeypatch.setattr(check, "scenarios_dir", lambda: tmp_path)
    assert exit_code(["check"]) == 3
    [row] = [line for line in capsys.readouterr().out.splitlines() if line.startswith("huntik")]
    assert row.endswith("(1 scenario file does not check: not run)")
    assert exit_code(["check", "--json"]) == 3
    huntik = json.loads(capsys.readouterr().out)["games"]["huntik"]
    assert huntik["ok"] is False and huntik["unchecked_files"] == [str(tmp_path / "huntik" / "rounds.scenario")]


def test_check_takes_a_bundled_games_name_and_runs_its_scenarios(tmp_path, capsys, monkeypatch):
    """'ludex check huntik', as 'run huntik' takes the name: that game's rules and scenarios, no other
    game's; a rules file beside it is checked without scenarios; a file or folder so named wins."""
    import json
    monkeypatch.chdir(tmp_path)
    assert exit_code(["check", "huntik"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert len(rows) == 1 and rows[0].split()[:2] == ["huntik", "20"] and rows[0].endswith("100.0%  -")
    passed = int(rows[0].split()[2])
    assert passed == len([s for f in (scenarios_dir() / "huntik").glob("*.scenario")
                          for s in f.read_text(encoding="utf-8").splitlines() if s.startswith("scenario ")])
    from ludex.resources import rules_dir
    assert exit_code(["check", "--json", "nightmare", str(rules_dir() / "agot.ludex")]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert sorted(games) == ["agot", "nightmare"]
    assert "scenarios" in games["nightmare"] and "scenarios" not in games["agot"]
    assert exit_code(["check", "huntik", str(rules_dir() / "huntik.ludex")]) == 2
    assert "huntik is given twice: by its name (its rules and scenarios) and by" in capsys.readouterr().err
    (tmp_path / "huntik").mkdir()                       # a folder here named huntik: the folder is meant
    assert exit_code(["check", "huntik"]) == 2
    assert ("the folder huntik holds no rules files (*.ludex); the bundled game huntik is named so from a "
            "folder where no file or folder has its name") in capsys.readouterr().err
