"""Golden files for the language's front end.

``golden/parse/NAME.ludex``: a rules file that parses; ``NAME.ast`` is its AST dump (``astdump.py``).
``golden/errors/NAME.ludex``: a malformed file, or a whole small game with static errors; ``NAME.err``
is exactly what ``render_all`` prints for it (message, path:line:column, the quoted line, the caret,
notes and help). Its first line is ``# expect: CODE ...``, the codes it is about; they must be among
the diagnostics, so the reset mode (``pytest --update-goldens``) cannot quietly turn a golden into a
test of some other mistake.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from astdump import dump
from conftest import ROOT, relative
from ludex.check.checks import check
from ludex.diagnostics import SourceError, render_all
from ludex.load import load_game
from ludex.parse.definition import assemble
from ludex.parse.mistakes import MISTAKES, QUESTION_MISTAKES, SCENARIO_MISTAKES
from ludex.parse.syntax import parse_question, parse_rules, parse_scenarios
from ludex.scenarios.runner import check_scenarios

GOLDEN = Path(__file__).resolve().parent / "golden"
PARSE = sorted((GOLDEN / "parse").glob("*.ludex"))
ERRORS = sorted((GOLDEN / "errors").glob("*.ludex"))


def diagnostics_of(path: Path):
    """Every diagnostic for a file: its syntax errors, or else the static checks' of it as a game."""
    text = path.read_text(encoding="utf-8")
    try:
        module = parse_rules(text, relative(path))
    except SourceError as exc:
        return text, list(exc.diagnostics)
    return text, check(assemble("golden", [module]))


@pytest.mark.parametrize("source", PARSE, ids=lambda p: p.stem)
def test_parse_golden(source, goldens):
    module = parse_rules(source.read_text(encoding="utf-8"), relative(source))
    goldens.check(source.with_suffix(".ast"), dump(module))


@pytest.mark.parametrize("source", ERRORS, ids=lambda p: p.stem)
def test_error_golden(source, goldens):
    text, diagnostics = diagnostics_of(source)
    expect = re.match(r"# expect: ([A-Z0-9 ]+)", text)
    assert expect, f"{relative(source)} must start with '# expect: CODE'"
    codes = {d.code for d in diagnostics}
    assert set(expect.group(1).split()) <= codes, f"expected {expect.group(1)}, got {sorted(codes)}"
    lines = text.splitlines()
    for d in diagnostics:
        assert d.span.path == relative(source)
        assert 1 <= d.span.line <= len(lines) + 1
        assert 1 <= d.span.column <= len(lines[d.span.line - 1] if d.span.line <= len(lines) else "") + 1
    goldens.check(source.with_suffix(".err"), render_all(diagnostics) + "\n")


def test_there_are_enough_goldens():
    assert len(PARSE) >= 3
    assert len(ERRORS) >= 30
    syntax = [p for p in ERRORS if "# expect: E" in p.read_text(encoding="utf-8").splitlines()[0]]
    assert len(syntax) >= 15 and len(ERRORS) - len(syntax) >= 15


def test_every_expected_file_has_its_input():
    for expected in list((GOLDEN / "parse").glob("*.ast")) + list((GOLDEN / "errors").glob("*.err")):
        assert expected.with_suffix(".ludex").exists(), f"{relative(expected)} has no input: delete it"


def test_every_mistake_snippet_fails_and_is_diagnosed_with_its_own_help():
    """The MISTAKES table stays true to the grammar: a snippet that came to parse, or that another
    entry's help now answers, is found here rather than by a user."""
    for label, snippets in MISTAKES.items():
        for snippet in snippets:
            with pytest.raises(SourceError) as caught:
                parse_rules(snippet, "mistake.ludex")
            assert caught.value.diagnostics[0].hint == label, snippet


def test_every_scenario_mistake_snippet_fails_and_is_diagnosed_with_its_own_help():
    """The same for scenario files: 'expect ann.gold = 5' is told that '==' compares."""
    for label, snippets in SCENARIO_MISTAKES.items():
        for snippet in snippets:
            with pytest.raises(SourceError) as caught:
                parse_scenarios(snippet, "mistake.scenario")
            assert caught.value.diagnostics[0].hint == label, snippet
    with pytest.raises(SourceError) as caught:
        parse_scenarios('scenario "s" {\n  players ann, bob\n  expect ann.gold = 5\n}\n', "s.scenario")
    [d] = caught.value.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E002", 3, 19)
    assert d.hint.startswith("'==' compares")


def test_every_question_mistake_snippet_is_diagnosed_with_its_own_help():
    """The same for a question put to 'ludex ask': each scenario mistake, made in a bare script too."""
    for label, snippets in QUESTION_MISTAKES.items():
        for snippet in snippets:
            with pytest.raises(SourceError) as caught:
                parse_question(snippet, "<stdin>")
            assert caught.value.diagnostics[0].hint == label, snippet


@pytest.mark.parametrize("line, hint", [
    ("expct winner ann", "'expct' is not a keyword; did you mean 'expect'?"),
    ("setpu { }", "'setpu' is not a keyword; did you mean 'setup'?"),
    ('qeustion "Who wins?"', "'qeustion' is not a keyword; did you mean 'question'?"),
    ("expect refused 3.2 Only", SCENARIO_MISTAKES and next(iter(
        label for label in SCENARIO_MISTAKES if label.startswith("a line starting with a name")))),
    # (a keyword beginning the line is not taken for a misspelling of itself: "did you mean 'expect'?")
    ("expect refused 3.2 Only the active player", next(iter(
        label for label in SCENARIO_MISTAKES if label.startswith("a line starting with a name")))),
])
def test_a_misspelt_scenario_keyword_is_suggested_and_a_players_line_explained(line, hint):
    with pytest.raises(SourceError) as caught:
        parse_scenarios(f'scenario "s" {{\n  players ann, bob\n  {line}\n}}\n', "s.scenario")
    [d] = caught.value.diagnostics
    assert d.hint == hint


def test_a_syntax_error_lists_every_kind_of_line_that_may_stand_there():
    """At a scenario's line, the 15 words that begin one and a player's name: none cut off by '...'."""
    with pytest.raises(SourceError) as caught:
        parse_scenarios('scenario "s" {\n  players ann, bob\n  5\n}\n', "s.scenario")
    [d] = caught.value.diagnostics
    assert "..." not in d.expected and "'setup'" in d.expected and "'tags'" in d.expected
    assert d.expected.endswith("a name")


def test_a_players_misspelt_verb_is_suggested_and_a_players_name_is_not_taken_for_a_keyword():
    with pytest.raises(SourceError) as caught:
        parse_scenarios('scenario "s" {\n  players cate, bob\n  cate plyas marshal("x")\n}\n', "s.scenario")
    assert caught.value.diagnostics[0].hint == "'plyas' is not a keyword; did you mean 'plays'?"
    with pytest.raises(SourceError) as caught:
        parse_scenarios('scenario "s" {\n  players cate, bob\n  cate\n}\n', "s.scenario")
    assert "did you mean 'cite'" not in caught.value.diagnostics[0].hint


# ------------------------------------------------------------------ files that are not text

BYTES = sorted((GOLDEN / "errors" / "bytes").glob("*.ludex-bytes"))


@pytest.mark.parametrize("source", BYTES, ids=lambda p: p.stem)
def test_error_golden_of_a_file_that_is_not_text(source, goldens, monkeypatch):
    """``golden/errors/bytes/NAME.ludex-bytes``: a rules file whose bytes are not UTF-8 text (read as
    bytes: the other goldens are read as text); ``NAME.err`` is its E001, quoting its line and a caret
    under the first bad byte like every other error."""
    from ludex.diagnostics import read_source
    monkeypatch.chdir(ROOT)         # the path is rendered as given: relative to the repository
    assert source.read_bytes().lstrip(b"\xef\xbb\xbf").startswith(b"# expect: E001")
    with pytest.raises(SourceError) as caught:
        read_source(relative(source))
    [d] = caught.value.diagnostics
    assert d.code == "E001" and d.span.path == relative(source)
    rendered = render_all(caught.value.diagnostics)
    assert f"{d.span.line} | " in rendered and "^" in rendered, "an E001 quotes its line and a caret"
    goldens.check(source.with_suffix(".err"), rendered + "\n")


def test_there_are_goldens_of_files_that_are_not_text():
    assert len(BYTES) >= 2
    for expected in (GOLDEN / "errors" / "bytes").glob("*.err"):
        assert expected.with_suffix(".ludex-bytes").exists(), f"{relative(expected)} has no input: delete it"


# ------------------------------------------------------------------ a scenario's own cards

#: (named .scenario-text: the pytest plugin would collect a .scenario file as scenarios to run)
SCENARIO_ERRORS = sorted((GOLDEN / "errors" / "scenarios").glob("*/*.scenario-text"))


def scenario_diagnostics_of(path: Path):
    """Every diagnostic for a scenario file of the bundled game its folder names (its rules read as
    ``rules/GAME.ludex``, from the repository): its syntax errors, or else its checks, its own cards
    checked as a rules file's."""
    text = path.read_text(encoding="utf-8")
    try:
        file = parse_scenarios(text, relative(path))
    except SourceError as exc:
        return text, list(exc.diagnostics)
    loaded = load_game(path.parent.name, Path("rules"))
    assert loaded.ok, loaded.diagnostics
    return text, check_scenarios(loaded.game, file)


@pytest.mark.parametrize("source", SCENARIO_ERRORS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_error_golden_of_a_scenarios_own_card(source, goldens, monkeypatch):
    """``golden/errors/scenarios/GAME/NAME.scenario-text``: a scenario whose own card or deck is wrong, for
    the bundled game GAME; ``NAME.err`` is what ``render_all`` prints, every position the scenario's."""
    monkeypatch.chdir(ROOT)         # the game's rules are named as from the repository
    text, diagnostics = scenario_diagnostics_of(source)
    expect = re.match(r"# expect: ([A-Z0-9 ]+)", text)
    assert expect, f"{relative(source)} must start with '# expect: CODE'"
    codes = {d.code for d in diagnostics}
    assert set(expect.group(1).split()) <= codes, f"expected {expect.group(1)}, got {sorted(codes)}"
    lines = text.splitlines()
    for d in diagnostics:
        assert d.span.path == relative(source)
        assert 1 <= d.span.line <= len(lines) + 1
    goldens.check(source.with_suffix(".err"), render_all(diagnostics) + "\n")


def test_there_are_goldens_of_a_scenarios_own_cards():
    codes = {re.match(r"# expect: ([A-Z0-9]+)", p.read_text(encoding="utf-8")).group(1) for p in SCENARIO_ERRORS}
    assert {"S011", "S092", "C020", "E002"} <= codes
    for expected in (GOLDEN / "errors" / "scenarios").glob("*/*.err"):
        assert expected.with_suffix(".scenario-text").exists(), f"{relative(expected)} has no input: delete it"
