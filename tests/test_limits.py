"""What a source may not hold, each refused with a positioned syntax error and never a traceback:

- an expression nesting deeper than ``MAX_NESTING`` levels without brackets (``1 + 1 + ...``,
  ``not not ...``): E010 at the operator of its smallest part that is too deep. Up to the limit,
  every pass (checks, compiler, the Python written from it, formatter) handles it: in rules, in a
  scenario and in a log's set-up;
- a number longer than ``MAX_DIGITS`` digits: E003 (rules, scenarios, a log's seed);
- and the quoted line and caret where a line holds a form feed, a lone carriage return, U+0085,
  U+2028, a wide character or a combining mark.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import ludex

from ludex.compliance.log import parse_log
from ludex.diagnostics import Diagnostic, SourceError, Sources, render
from ludex.load import load_paths
from ludex.parse.ast import Span
from ludex.parse.builders import MAX_DIGITS
from ludex.parse.mistakes import MAX_NESTING
from ludex.parse.syntax import parse_rules, parse_scenarios
from ludex.scenarios.runner import load_scenarios, run_scenario

MINI = '''game mini "Mini" {
  source main "Rules" version "1"
  players 2 to 2
}
state {
  game counter score = 0
  role first-player
}
rule 1 "Play" {
  text """Play."""
  set first-player = first(players)
  let zz = EXPR
  win first(players)
}
flow {
  run 1
}
'''
EXPR_LINE = 12           # the line of 'let zz = EXPR' in MINI


def chain(kind: str, levels: int) -> str:
    """An expression nesting ``levels`` levels as the tree holds it (a leaf is one level)."""
    more = levels - 1
    return {
        "plus": "1" + " + 1" * more,
        "times": "1" + " * 1" * more,
        "and": "true" + " and true" * more,
        "or": "false" + " or false" * more,
        "minus": "- " * more + "1",
        "not": "not " * more + "true",
        "if": "if true then 1 else " * more + "1",
        "attribute": "first-player" + ".gold" * more,
    }[kind]


#: the operator each kind of chain is written with
OPERATOR = {"plus": r"\+", "times": r"\*", "and": r"\band\b", "or": r"\bor\b", "minus": "-", "not": r"\bnot\b",
            "if": r"\bif\b", "attribute": r"\."}
PREFIX = {"minus", "not", "if"}
KINDS = list(OPERATOR)
RUNNABLE = [k for k in KINDS if k != "attribute"]     # (a player has no attribute 'gold' in MINI)


def expected_column(line: str, kind: str, levels: int) -> int:
    """Where E010 points: the operator of the smallest part nesting MAX_NESTING + 1 levels. In a
    chain to the left (``1 + 1 + ...``) that is the 64th operator; in a chain of prefix operators
    (``not not ...``), the 64th from the right."""
    operators = [m.start() for m in re.finditer(OPERATOR[kind], line)]
    assert len(operators) == levels - 1
    index = len(operators) - MAX_NESTING if kind in PREFIX else MAX_NESTING - 1
    return operators[index] + 1


def _refused(exc_info, line_text: str, line: int, kind: str, levels: int) -> None:
    (d,) = exc_info.value.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E010", line, expected_column(line_text, kind, levels))
    assert d.message == f"this expression nests deeper than {MAX_NESTING} levels"
    rendered = render(d)
    assert "Traceback" not in rendered and "^" in rendered.splitlines()[3]


LEVELS = [MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1, 210, 5000]


def _in_rules(expression):
    text = MINI.replace("EXPR", expression)
    return parse_rules, text, "chain.ludex", EXPR_LINE


def _in_a_scenario(expression):
    line = f"  setup {{ let zs = {expression} }}"
    return parse_scenarios, f'scenario "chain" {{\n  players ann, bob\n{line}\n  expect true\n}}\n', "chain.scenario", 3


def _in_a_log(expression):
    line = f"setup {{ let zq = {expression} }}"
    return parse_log, f"game mini\nplayers p1, p2\nseed 1\n{line}\n", "chain.log", 4


@pytest.mark.parametrize("levels", LEVELS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("place", [_in_rules, _in_a_scenario, _in_a_log], ids=["rules", "scenario", "log"])
def test_a_chain_parses_up_to_the_limit_and_is_refused_at_its_operator_beyond(place, kind, levels):
    # the same limit in rules, a scenario's set-up and a log's
    parse, text, path, line = place(chain(kind, levels))
    if levels <= MAX_NESTING:
        parse(text, path)
        return
    with pytest.raises(SourceError) as caught:
        parse(text, path)
    _refused(caught, text.splitlines()[line - 1], line, kind, levels)


def test_the_chains_within_the_limit_nest_as_deep_as_they_say():
    """(the levels counted above are the tree's: a chain one level short of the limit, wrapped once
    more, is at the limit, and once more beyond it)"""
    at_limit = MINI.replace("EXPR", "-(" + chain("plus", MAX_NESTING - 1) + ")")
    parse_rules(at_limit, "chain.ludex")
    with pytest.raises(SourceError):
        parse_rules(MINI.replace("EXPR", "- -(" + chain("plus", MAX_NESTING - 1) + ")"), "chain.ludex")


# ------------------------------------------------------------------ end to end: check, run, fmt, scenarios, logs




@pytest.mark.parametrize("levels", [MAX_NESTING, 210])
@pytest.mark.parametrize("kind", RUNNABLE)
def test_check_run_and_fmt_play_a_chain_at_the_limit_and_refuse_one_beyond(kind, levels, tmp_path, capsys):
    rules = tmp_path / "mini.ludex"
    rules.write_text(MINI.replace("EXPR", chain(kind, levels)), encoding="utf-8")
    ok = levels <= MAX_NESTING
    for argv in (["check", str(rules)], ["run", str(rules), "--seed", "1"], ["fmt", str(rules)]):
        code, out, err = ludex(argv, capsys)
        assert "Traceback" not in out + err and "Error:" not in out + err, (argv, out, err)
        if ok:
            assert code == 0, (argv, out, err)
        else:
            assert code == 3, (argv, out, err)
            assert f"mini.ludex:{EXPR_LINE}:" in out + err and "error[E010]" in out + err


@pytest.mark.parametrize("levels", [MAX_NESTING - 1, MAX_NESTING, 210])
@pytest.mark.parametrize("kind", RUNNABLE)
def test_a_scenario_runs_a_chain_at_the_limit_and_refuses_one_beyond(kind, levels, tmp_path):
    rules = tmp_path / "mini.ludex"
    rules.write_text(MINI.replace("EXPR", "1"), encoding="utf-8")
    loaded = load_paths("mini", [rules])
    assert loaded.ok, loaded.diagnostics
    expression = chain(kind, levels)
    value = {"plus": levels, "times": 1, "and": "true", "or": "false", "minus": (-1) ** (levels - 1),
             "not": "true" if levels % 2 else "false", "if": 1}[kind]
    compared = f"({expression}) == {value}"
    scenario = tmp_path / "chain.scenario"
    scenario.write_text(f'scenario "chain" {{\n  players ann, bob\n  setup {{ let zs = {expression} }}\n'
                        f'  run 1\n  expect {compared if levels < MAX_NESTING else "true"}\n}}\n',
                        encoding="utf-8")
    if levels <= MAX_NESTING:
        file = load_scenarios(loaded.game, scenario)
        result = run_scenario(loaded.game, file.scenarios[0])
        assert result.passed, result.status
    else:
        with pytest.raises(SourceError) as caught:
            load_scenarios(loaded.game, scenario)
        assert [d.code for d in caught.value.diagnostics] == ["E010"]


def test_a_scenario_expecting_a_long_sum_is_refused_not_crashed(tmp_path):
    """The fuzzer's case: ``expect 1 + ... == 210``."""
    text = f'scenario "sum" {{\n  players ann, bob\n  expect {chain("plus", 210)} == 210\n}}\n'
    with pytest.raises(SourceError) as caught:
        parse_scenarios(text, "sum.scenario")
    (d,) = caught.value.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E010", 3, 8 + 4 * MAX_NESTING)     # the 64th "+"


@pytest.mark.parametrize("levels", [MAX_NESTING, 210])
@pytest.mark.parametrize("kind", RUNNABLE)
def test_check_log_replays_a_chain_at_the_limit_and_refuses_one_beyond(kind, levels, tmp_path, capsys):
    rules = tmp_path / "mini.ludex"
    rules.write_text(MINI.replace("EXPR", "1"), encoding="utf-8")
    log = tmp_path / "chain.log"
    log.write_text(f"game mini\nplayers p1, p2\nseed 1\nsetup {{ let zq = {chain(kind, levels)} }}\n",
                   encoding="utf-8")
    code, out, err = ludex(["check-log", str(rules), str(log)], capsys)
    assert "Traceback" not in out + err
    if levels <= MAX_NESTING:
        assert code == 0, out + err
        return
    assert code == 3 and "chain.log:4:" in out + err and "error[E010]" in out + err
    code, out, err = ludex(["check-log", str(rules), str(log), "--json"], capsys)
    report = json.loads(out)
    assert code == 3 and [e["code"] for e in report["errors"]] == ["E010"]


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize("where, text", [
    ("a number in an expression", 'rule 1 "R" { let a = N }'),
    ("a player count", 'game g "G" { source main "R" version "1" players 2 to N }'),
    ("a format's players", 'game g "G" { source main "R" version "1" formats duel for N players }'),
    ("a card's copies", 'card type t { } card "C" t copies N { }'),
    ("a deck's count", 'deck d { N "C" }'),
    ("a menu's count", 'flow { window "w" starting with p { up to N of a } }'),
])
@pytest.mark.parametrize("digits", [MAX_DIGITS + 1, 4301, 10000])
def test_a_number_too_long_is_refused_at_it(where, text, digits):
    source = text.replace("N", "9" * digits)
    with pytest.raises(SourceError) as caught:
        parse_rules(source, "long.ludex")
    (d,) = caught.value.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E003", 1, source.index("9" * digits) + 1), where
    assert d.message == f"this number is too long: {digits} digits, at most {MAX_DIGITS}"


@pytest.mark.parametrize("text", [
    'rule 1 "R" { let a = N }',
    'game g "G" { source main "R" version "1" players 2 to N }',
    'deck d { N "C" }',
])
def test_a_number_of_the_most_digits_is_read(text):
    parse_rules(text.replace("N", "9" * MAX_DIGITS), "long.ludex")


def test_a_number_too_long_in_a_scenario_is_refused_at_it():
    text = f'scenario "x" {{\n  players ann, bob\n  expect score == {"9" * 5000}\n}}\n'
    with pytest.raises(SourceError) as caught:
        parse_scenarios(text, "long.scenario")
    (d,) = caught.value.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E003", 3, 19)


def test_a_seed_too_long_in_a_log_is_refused_by_check_log_and_its_json(tmp_path, capsys):
    log = tmp_path / "long.log"
    log.write_text(f"game agot\nplayers p1, p2\nseed {'9' * 5000}\n", encoding="utf-8")
    code, out, err = ludex(["check-log", "agot", str(log)], capsys)
    assert code == 3 and "Traceback" not in out + err
    assert "long.log:3:6: error[E003]: this number is too long: 5000 digits, at most 18" in out + err
    code, out, err = ludex(["check-log", "agot", str(log), "--json"], capsys)
    report = json.loads(out)
    assert code == 3 and [(e["code"], e["line"], e["column"]) for e in report["errors"]] == [("E003", 3, 6)]


def test_fmt_and_run_refuse_a_number_too_long(tmp_path, capsys):
    rules = tmp_path / "mini.ludex"
    rules.write_text(MINI.replace("EXPR", "9" * 5000), encoding="utf-8")
    for argv in (["fmt", str(rules)], ["run", str(rules)], ["check", str(rules), "--json"]):
        code, out, err = ludex(argv, capsys)
        assert code == 3 and "E003" in out + err and "Traceback" not in out + err, argv


# ------------------------------------------------------------------ long runs of letters


class _Counted(str):
    """A text that counts the characters read from it one at a time."""
    reads = 0

    def __getitem__(self, i):
        _Counted.reads += 1
        return str.__getitem__(self, i)


@pytest.mark.parametrize("before", [0, 1_000, 100_000])
def test_the_word_before_an_error_is_found_reading_only_that_word(before):
    """The word before a syntax error is found reading its own letters and the white space after it,
    however long a run of letters lies before it (the search once read from the text's start): the
    letters read are the same for any length of what comes before, counted rather than timed."""
    from ludex.parse.mistakes import _word_before
    text = "# " + "x" * before + "\n  sett   "
    _Counted.reads = 0
    match = _word_before(_Counted(text), len(text))
    assert match.group(1) == "sett"
    assert _Counted.reads < 30, _Counted.reads


@pytest.mark.parametrize("where", ["comment", "name"])
def test_a_long_run_of_letters_before_a_misspelt_statement_is_reported_at_once(where, capsys, tmp_path):
    """The help for a statement that begins with a name (``sett score = 1``: did you mean 'set'?)
    looked for the word before the error by searching the text from its start, which took time
    quadratic in the length of every run of letters before it: 20,000 letters in a comment, or a name
    that long, took minutes (found by mutation fuzzing: a name repeated into one long word)."""
    long = "x" * 200_000
    body = ("  sett score = 1", "  set score = 1\n  " + long + " score = 1")[where == "name"]
    text = MINI.replace("  let zz = EXPR", body).replace("game mini", f"# {long}\ngame mini")
    with pytest.raises(SourceError) as caught:
        parse_rules(text, "long.ludex")
    (d,) = caught.value.diagnostics
    assert d.code == "E002"
    if where == "comment":
        assert d.hint == "'sett' is not a keyword; did you mean 'set'?"
    rules = tmp_path / "mini.ludex"
    rules.write_text(text, encoding="utf-8")
    code, out, err = ludex(["check", str(rules)], capsys)
    assert code == 3 and "error[E002]" in err and "Traceback" not in out + err


@pytest.mark.parametrize("text", ["", "a", "  ", "a b", "first-player  ", "x--y", "a-1b", "9lives", "_a-b_ \n ",
                                  "a-", "-a", "é ab", "a\u00a0", "a\u2028", "ab-cd-", "ab\n  cd-ef \t"])
def test_the_word_before_an_error_is_what_the_search_found(text):
    from ludex.parse.mistakes import _WORD_BEFORE, _word_before
    for offset in range(len(text) + 1):
        found, searched = _word_before(text, offset), _WORD_BEFORE.search(text, 0, offset)
        assert (found and (found.start(1), found.group(1))) == (searched and (searched.start(1), searched.group(1)))


# ------------------------------------------------------------------ quoted lines and carets


@pytest.mark.parametrize("separator", ["\f", "\r", "\x85", "\u2028", "\u2029", "\v"])
def test_a_line_is_quoted_as_the_parser_counts_lines_whatever_else_it_holds(separator):
    """The parser ends a line at "\\n" alone; a form feed, a lone carriage return, U+0085 or U+2028
    inside a file used to shift every quoted line after it by one."""
    text = f'rule 1 "A" {{ }}\n# one{separator}two\nrule 2 "B" {{ let a = ) }}\n'
    with pytest.raises(SourceError) as caught:
        parse_rules(text, "lines.ludex")
    (d,) = caught.value.diagnostics
    assert (d.span.line, d.span.column) == (3, 22)
    quoted = render(d).splitlines()
    assert quoted[2] == '3 | rule 2 "B" { let a = ) }'
    assert quoted[3].index("^") == quoted[2].index(")")


def test_a_character_the_terminal_would_act_on_is_quoted_as_a_space():
    sources = Sources()
    sources.add("x.ludex", "let a = 1\r+ \x1b[2J )\n")
    d = Diagnostic("syntax", "E002", "unexpected ')'", Span("x.ludex", 1, 18, 1, 19))
    lines = render(d, sources).splitlines()
    assert lines[2] == "1 | let a = 1 +  [2J )"
    assert lines[3].index("^") == lines[2].index(")")


def test_windows_line_ends_are_not_quoted():
    sources = Sources()
    sources.add("x.ludex", "a\r\nb )\r\n")
    assert sources.line("x.ludex", 2) == "b )"
    assert sources.line("x.ludex", 3) == ""
    assert sources.line("x.ludex", 4) is None


@pytest.mark.parametrize("before, shift", [
    ("日本語", 6),               # wide: two columns each
    ("ｆｕｌｌ", 8),             # fullwidth: two columns each
    ("e\u0301e\u0301", 2),       # a combining acute accent after each e: no column of its own
    ("\t", None),                # a tab is copied, so the terminal moves both lines alike
])
def test_the_caret_sits_under_its_character_however_wide_the_ones_before_it(before, shift):
    sources = Sources()
    line = f'log "{before}" )'
    sources.add("w.ludex", line + "\n")
    column = line.index(")") + 1
    d = Diagnostic("syntax", "E002", "unexpected ')'", Span("w.ludex", 1, column, 1, column + 1))
    caret = render(d, sources).splitlines()[3]
    prefix = caret[len("  | "):caret.index("^")]
    if shift is None:
        assert prefix == '     \t  '
    else:
        assert prefix == " " * (len('log "') + shift + len('" '))


def test_an_underline_is_as_wide_as_what_it_underlines():
    sources = Sources()
    sources.add("w.ludex", 'log 日本\n')
    d = Diagnostic("syntax", "E002", "x", Span("w.ludex", 1, 5, 1, 7))
    assert render(d, sources).splitlines()[3] == "  |     ^^^^"


DEEPEST = '''game deep "Deep" {
  source main "Rules" version "1"
  players 2 to 2
}
state {
  game counter score = 0
  player counter gold = 1
}
rule 1 "Play" {
  text """Play."""
  value ones = [1]
  value negated = MINUS
  value every-one = EVERY
  value ranked(p) = RANKED
  let best = size(RANKED)
  action act "act" by p (c: player from players) {
    let found = EVERY
    require EVERY_C cite 1 "m"
  }
  whenever EVERY_P for p in players { set score = 1 }
  window "w" starting with first(players) { any number of act }
  set score = size(ranked(1)) + negated
  win first(players)
}
flow {
  run 1
}
'''


def test_expressions_at_the_limit_are_written_as_python_python_can_compile(tmp_path, capsys):
    """Python refuses source nested some 200 brackets deep; the Python written for an expression
    opens up to four per level, and a value read in place brings its own body's. At the limit, a
    ranked list whose key reads such a value, and quantifiers reading their variable at the bottom,
    in a value, a play's requirement, a state check and a statement: all compile and run."""
    levels = MAX_NESTING
    ranked = "highest p in ones by " * (levels - 2) + "negated"
    every = "every q in ones: " * (levels - 2) + "q == 1"                  # (== is two levels)
    every_c = "every q in ones: " * (levels - 3) + "q == 1 or c == p"       # (or, three)
    every_p = "every q in ones: " * (levels - 3) + "q == p.gold"            # (==, attribute: three)
    text = (DEEPEST.replace("MINUS", "- " * (levels - 1) + "1").replace("RANKED", ranked)
            .replace("EVERY_C", every_c).replace("EVERY_P", every_p).replace("EVERY", every))
    rules = tmp_path / "deep.ludex"
    rules.write_text(text, encoding="utf-8")
    for argv in (["check", str(rules)], ["run", str(rules), "--seed", "2"]):
        code, out, err = ludex(argv, capsys)
        assert code == 0 and "Traceback" not in out + err and "Warning" not in err, (argv, out, err)
