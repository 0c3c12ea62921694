"""The scenario formatter (interpreter/ludex/fmt/scenarios.py): scenario source in, canonical source out.

Over a corpus of every step and expectation (``CONSTRUCTS`` below: a ``.scenario`` file under tests/
would be collected as scenarios to run) and every bundled scenario file: parsing the output gives the
same scenarios, formatting is idempotent, every comment survives and only layout changes; the bundled
scenarios are in canonical form already. Then the layout itself, the check that a form says the same
(``same_scenarios``), sources generated from the scenario grammar and mutated bundled files
(hypothesis), and ``ludex fmt`` on scenario files and folders.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from ludex.parse import ast as A
from ludex.cli import main
from ludex.fmt.comments import scan
from ludex.diagnostics import SourceError
from ludex.resources import grammar_dir
from ludex.fmt.scenarios import format_scenario_file, format_scenario_source, same_scenarios
from ludex.parse.syntax import parse_scenarios, parser

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted((ROOT / "scenarios").rglob("*.scenario"))
QUICK = settings(deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.filter_too_much])

CONSTRUCTS = '''\
# Every step and expectation of the scenario language, with comments in every place one may stand.

# a second comment above the first scenario
scenario "Every step" {  # trailing the head
  question "Who wins?"  # trailing a part
  answer """An answer written long,
    on two lines."""
  cite 1.1, 500.1c
  # above the tags
  tags income, legality
  players ann, bob
  format melee
  board haddonfield """
     A   B
   +---+---+
 1 | .   . |
   +---+---+
"""
  # a card of the scenario's own, as a rules file writes it
  card "Shifting Plans" plot {
    gold 3 initiative 9  # trailing a field
    claim 1 reserve 5
    ability "When Revealed: Draw 1 card." "When revealed" {
      draw 1 from owner(this).draw-deck to owner(this).hand
    }
  }
  card "Small Plans" plot { gold 1 initiative 1 claim 1 reserve 1 }
  deck mine { 1 "Shifting Plans" 2 "Small Plans" }
  setup {
    set first-player = ann  # trailing a statement
    if ann.gold > 0 {
      create ["Hedge Knight", "Roadside Inn"] into ann.draw-deck
    }
    # closing the set-up
  }

  ann plays marshal("Hedge Knight", 2)
  bob plays pass-turn()
  bob plays rest
  ann tries initiate-challenge("military")
  bob tries rest()
  ann passes
  ann chooses "A Noble Cause"
  ann answers yes
  bob answers no
  ann orders ["Bell", "Lantern"]
  force dice attack: success, blank
  force order ann.draw-deck: "A", "B"
  force pick bob
  run 3.2
  run 3.1 to 3.4

  # above a step, after a blank line
  play the game
  expect (ann.gold + 1) * 2 == 5
  expect winner [ann, bob]
  expect no winner
  expect eliminated bob
  expect refused 3.2
  expect refused 3.2 "You do not have enough gold."
  expect trace 1.3, 2.2 "ann draws"
  expect offered ann: "pass", "marshal(Hedge Knight)"
  # closing the scenario
}

scenario "Empty" {}

scenario """A long
    title""" {
  setup {}
}
# closing the file
'''


def fmt(text: str) -> str:
    return format_scenario_source(text, "t.scenario")


def parse(text: str) -> A.ScenarioFile:
    return parse_scenarios(text, "t.scenario")


CORPUS = [("constructs", CONSTRUCTS)] + [(str(p.relative_to(ROOT)), p) for p in BUNDLED]


def text_of(source) -> str:
    return source.read_text(encoding="utf-8") if isinstance(source, Path) else source


# ------------------------------------------------------------------ the corpus


@pytest.mark.parametrize("name, source", CORPUS, ids=[name for name, _ in CORPUS])
def test_round_trip_idempotence_and_comments(name, source):
    text = text_of(source)
    once = format_scenario_source(text, name)
    assert same_scenarios(parse_scenarios(once, name), parse_scenarios(text, name))
    assert format_scenario_source(once, name) == once
    assert [c.text for c in scan(once)] == [c.text for c in scan(text)]


@pytest.mark.parametrize("name, source", CORPUS, ids=[name for name, _ in CORPUS])
def test_canonical_already(name, source):
    """The bundled scenarios are written in canonical form (``ludex fmt --check scenarios/``)."""
    text = text_of(source)
    assert format_scenario_source(text, name) == text


TOKENS = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?!"")(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Za-z0-9_.-]+|\S')


def _tokens(text: str) -> list:
    """The text's tokens but comments; a long string as its words (its line breaks are layout)."""
    out = []
    for token in TOKENS.findall(text):
        if token.startswith('"""'):
            out += ['"""'] + token[3:-3].split() + ['"""']
        elif not token.startswith("#"):
            out.append(token)
    return out


@pytest.mark.parametrize("name, source", CORPUS, ids=[name for name, _ in CORPUS])
def test_formatting_changes_layout_only(name, source):
    """Its indentation lost, a file is printed back with the same tokens (a board's drawing, whose
    indentation is its own, is left alone)."""
    text = text_of(source)
    flush, drawing = [], False
    for line in text.splitlines():
        if drawing:
            flush.append(line)
            drawing = '"""' not in line
        else:
            flush.append(line.strip())
            drawing = "board" in line and line.count('"""') == 1
    assert _tokens(format_scenario_source("\n".join(flush), name)) == _tokens(text)


@pytest.mark.parametrize("name, source", CORPUS, ids=[name for name, _ in CORPUS])
def test_format_scenario_file_prints_the_ast_alone(name, source):
    file = parse_scenarios(text_of(source), name)
    printed = format_scenario_file(file)
    assert "#" not in "".join(line for line in printed.splitlines() if line.lstrip().startswith("#"))
    assert same_scenarios(parse_scenarios(printed, name), file)
    assert format_scenario_file(parse_scenarios(printed, name)) == printed


def test_the_corpus_has_every_step_and_expectation_of_the_grammar():
    aliases = set(re.findall(r"->\s*(\w+)", (grammar_dir() / "scenario.lark").read_text(encoding="utf-8")))
    tree = parser("scenario").parse(CONSTRUCTS)
    seen = {str(t.data).split("__")[-1] for t in tree.iter_subtrees()}
    assert aliases - seen == set()


def _documented_scenarios() -> list:
    """The scenarios shown in the README and the scenario guide (code blocks opening with 'scenario')."""
    found = []
    for doc in (ROOT / "README.md", ROOT / "docs" / "scenarios.md"):
        for block in re.findall(r"```\n(scenario .*?\n)```", doc.read_text(encoding="utf-8"), re.S):
            found.append((doc.name, block))
    return found


def test_the_documented_scenarios_are_in_canonical_form():
    documented = _documented_scenarios()
    assert len(documented) >= 2
    for name, block in documented:
        assert format_scenario_source(block, name) == block, name


# ------------------------------------------------------------------ layout


def test_canonical_layout():
    source = ('scenario "S" { question "Q?" cite 1.2,1.3 players ann,bob setup { set x = 1 if x > 0 { clear x } }\n'
              'ann plays go ( 1 ) expect  x == 1 } scenario "T" { run 1 }')
    assert fmt(source) == (
        'scenario "S" {\n'
        '  question "Q?"\n'
        '  cite 1.2, 1.3\n'
        '  players ann, bob\n'
        '  setup {\n'
        '    set x = 1\n'
        '    if x > 0 { clear x }\n'      # as written, as in a rules procedure
        '  }\n'
        '  ann plays go(1)\n'
        '  expect x == 1\n'
        '}\n'
        '\n'
        'scenario "T" {\n'
        '  run 1\n'
        '}\n')


def test_a_step_is_one_line_however_long_but_a_set_up_statement_breaks_as_in_rules():
    names = ", ".join(f'"Card number {i}"' for i in range(12))
    question = "Why? " * 40
    source = (f'scenario "S" {{\n  question "{question}"\n  setup {{\n    create [{names}] into ann.hand\n  }}\n'
              f'  expect offered ann: {names}\n  expect\n    ann.gold ==\n    2\n}}\n')
    lines = fmt(source).splitlines()
    assert lines[1] == f'  question "{question}"'
    assert lines[3] == '    create ["Card number 0", "Card number 1", "Card number 2", "Card number 3", "Card number 4",'
    assert lines[4] == '      "Card number 5", "Card number 6", "Card number 7", "Card number 8", "Card number 9",'
    assert lines[7] == f"  expect offered ann: {names}"
    assert lines[8] == "  expect ann.gold == 2"


def test_comments_and_blank_lines_stay_where_they_are():
    source = ('# file\n\nscenario "S" {  # head\n  run 1  # after\n\n\n  # above\n  run 2\n'
              '  setup {  # opening\n    set x = 1\n\n    # closing\n  }\n  # end\n}\n\n\n# last\n')
    assert fmt(source) == ('# file\n\nscenario "S" {  # head\n  run 1  # after\n\n  # above\n  run 2\n'
                           '  setup {  # opening\n    set x = 1\n\n    # closing\n  }\n  # end\n}\n\n# last\n')


def test_scenarios_are_apart_by_one_blank_line():
    assert fmt('scenario "A" {}\nscenario "B" {}\n\n\n\nscenario "C" {}') == \
        'scenario "A" {}\n\nscenario "B" {}\n\nscenario "C" {}\n'
    assert fmt("") == ""
    assert fmt("# only a comment") == "# only a comment\n"


def test_what_the_author_wrote_is_kept():
    """Brackets after a play without arguments, and a string long or short as written."""
    source = ('scenario """T""" {\n  question """Q"""\n  ann plays rest()\n  ann plays rest\n'
              '  expect refused 3.2 """why"""\n  expect ann.note == """a\n    b"""\n}\n')
    assert fmt(source) == source


def test_a_byte_order_mark_is_not_text():
    assert fmt('\ufeffscenario "S" {\n  run 1\n}\n') == 'scenario "S" {\n  run 1\n}\n'


def test_a_syntax_error_propagates_with_its_position():
    with pytest.raises(SourceError) as caught:
        fmt('scenario "S" {\n  run\n}\n')
    assert (caught.value.diagnostics[0].span.line, caught.value.diagnostics[0].span.column) == (3, 1)


# ------------------------------------------------------------------ saying the same


def test_same_scenarios_ignores_positions_and_nothing_else():
    one = parse('scenario "S" {\n  cite 1.1\n  expect refused 3.2 "m"\n  expect trace 1.1 "w", 2\n}\n')
    moved = parse('\n\n\nscenario "S" {   cite 1.1   expect refused 3.2 "m" expect trace 1.1 "w", 2 }')
    assert one != moved                     # the spans in a cite line's tuples differ
    assert same_scenarios(one, moved)
    for other in ('scenario "S" {\n  cite 1.2\n  expect refused 3.2 "m"\n  expect trace 1.1 "w", 2\n}\n',
                  'scenario "S" {\n  cite 1.1\n  expect refused 3.3 "m"\n  expect trace 1.1 "w", 2\n}\n',
                  'scenario "S" {\n  cite 1.1\n  expect refused 3.2 "m"\n  expect trace 1.1 "x", 2\n}\n',
                  'scenario "T" {\n  cite 1.1\n  expect refused 3.2 "m"\n  expect trace 1.1 "w", 2\n}\n'):
        assert not same_scenarios(one, parse(other)), other


# ------------------------------------------------------------------ generated and mutated sources


@lru_cache(maxsize=None)
def _generated():
    """Sources drawn from the scenario grammar itself, comments and odd blanks included; names that
    are no keyword anywhere (the generator does not know the contextual lexer)."""
    path = grammar_dir() / "scenario.lark"
    grammar = Lark(path.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                   import_paths=[str(grammar_dir())], source_path=str(path))
    spaced = lambda s: s.map(lambda t: f" {t} ")  # noqa: E731
    text = st.lists(st.sampled_from(["a", " ", "#", '\\"', "\\\\", "é", "3", "("]), max_size=8).map("".join)
    explicit = {
        "NAME": spaced(st.sampled_from(["ann", "gold", "first-player", "c2", "Big_name"])),
        "INT": spaced(st.integers(0, 999).map(str)),
        "RULE_ID": spaced(st.sampled_from(["1", "3.2", "500.1c", "start-phase.remove-day"])),
        "STRING": spaced(text.map(lambda s: f'"{s}"')),
        "LONG_STRING": spaced(st.tuples(text, text).map(lambda t: f'"""{t[0]}\n  {t[1]}"""')),
        "COMPARE": spaced(st.sampled_from(["==", "!=", "<=", ">=", "<", ">"])),
        "ADD": spaced(st.sampled_from(["+", "-"])),
        "MUL": spaced(st.sampled_from(["*", "/", "%"])),
        "YESNO": spaced(st.sampled_from(["yes", "no"])),
        "COMMENT": st.sampled_from([" # a comment\n", "#\n", "\n# own line\n"]),
        "WS": st.sampled_from([" ", "\n", "\t", "\r\n", "  \n\n  "]),
    }
    for terminal in grammar.terminals:
        if terminal.name not in explicit and terminal.pattern.type == "str":
            explicit[terminal.name] = st.just(f" {terminal.pattern.value} ")
    terminals, _, ignored = grammar.grammar.compile(["start"], ())
    reached = {t.name for t in terminals} | set(ignored)
    return from_lark(grammar, start="start", explicit={k: v for k, v in explicit.items() if k in reached})


def _formats_back(source: str, path: str = "t.scenario") -> bool:
    """Whether the source parses; if it does, its form says the same, is idempotent and keeps every
    comment."""
    try:
        file = parse_scenarios(source, path)
    except SourceError:
        return False
    once = format_scenario_source(source, path)
    assert same_scenarios(parse_scenarios(once, path), file)
    assert format_scenario_source(once, path) == once
    assert sorted(c.text for c in scan(once)) == sorted(c.text for c in scan(source))
    return True


def test_sources_generated_from_the_grammar_format_back_to_themselves():
    formatted = []

    @settings(QUICK, max_examples=40)
    @given(_generated())
    def run(source):
        formatted.append(_formats_back(source))

    run()
    assert sum(formatted) >= len(formatted) // 4, formatted


@st.composite
def mutated(draw):
    """A bundled scenario file with a few lines deleted, duplicated or swapped, or its indentation lost."""
    path = draw(st.sampled_from(BUNDLED))
    lines = path.read_text(encoding="utf-8").splitlines()
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    for _ in range(draw(st.integers(1, 4))):
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "flush", "join"]))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(j, lines[i])
        elif kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "flush":
            lines[i] = lines[i].strip()
        elif i + 1 < len(lines):
            lines[i:i + 2] = [lines[i] + " " + lines[i + 1].strip()]
    return str(path.relative_to(ROOT)), "\n".join(lines) + "\n"


@settings(QUICK, max_examples=60)
@given(mutated())
def test_mutated_bundled_scenarios_format_back_or_fail_with_a_diagnostic(case):
    path, source = case
    try:
        _formats_back(source, path)
    except SourceError as exc:          # raised by the formatter only for a source that does not parse
        raise AssertionError("the formatter failed on a source that parses") from exc


# ------------------------------------------------------------------ ludex fmt


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


UNTIDY = 'scenario "S" {\n question "Q?"\n  setup { set x = 1 }\n   run 1\n}\n'
TIDY = 'scenario "S" {\n  question "Q?"\n  setup {\n    set x = 1\n  }\n  run 1\n}\n'


def test_fmt_prints_checks_and_writes_a_scenario_file(tmp_path, capsys):
    path = write(tmp_path / "s.scenario", UNTIDY)
    assert main(["fmt", str(path)]) == 0
    assert capsys.readouterr().out == TIDY
    assert main(["fmt", "--check", str(path)]) == 1
    assert capsys.readouterr().err == f"{path}: not in canonical form\n"
    assert path.read_text(encoding="utf-8") == UNTIDY
    assert main(["fmt", "--write", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == TIDY
    assert main(["fmt", "--check", str(path)]) == 0
    assert capsys.readouterr() == ("", "")


def test_fmt_keeps_a_scenario_files_byte_order_mark(tmp_path, capsys):
    path = write(tmp_path / "bom.scenario", "\ufeff" + TIDY)
    assert main(["fmt", "--check", str(path)]) == 0
    write(path, "\ufeff" + UNTIDY)
    assert main(["fmt", "--write", str(path)]) == 0
    assert path.read_bytes() == ("\ufeff" + TIDY).encode("utf-8")


def test_fmt_on_a_folder_takes_its_rules_files_and_its_scenario_files_at_any_depth(tmp_path, capsys):
    """A folder's rules files beside each other, as 'ludex check FOLDER' takes them; its scenario
    files under it at any depth, as a game's are found (scenarios/<game>/...)."""
    rules = write(tmp_path / "g.ludex", 'flow {run 1}\n')
    nested_rules = write(tmp_path / "old" / "h.ludex", 'flow {run 1}\n')
    top = write(tmp_path / "top.scenario", UNTIDY)
    deep = write(tmp_path / "scenarios" / "g" / "more" / "deep.scenario", UNTIDY)
    write(tmp_path / "scenarios" / "logs" / "g" / "a.log", "players p1, p2\n")
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == "".join(f"{p}: not in canonical form\n" for p in (rules, deep, top))
    assert main(["fmt", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "flow {\n  run 1\n}\n" + TIDY + TIDY
    assert main(["fmt", "--write", str(tmp_path)]) == 0
    assert main(["fmt", "--check", str(tmp_path)]) == 0
    assert deep.read_text(encoding="utf-8") == TIDY
    assert nested_rules.read_text(encoding="utf-8") == 'flow {run 1}\n'
    assert main(["fmt", "--check", str(tmp_path / "scenarios")]) == 0


def test_fmt_check_passes_on_the_bundled_scenarios(capsys):
    assert main(["fmt", "--check", str(ROOT / "rules"), str(ROOT / "scenarios")]) == 0
    assert capsys.readouterr().err == ""


def test_fmt_reports_a_scenario_files_syntax_error_with_its_position(tmp_path, capsys):
    broken = write(tmp_path / "broken.scenario", 'scenario "S" {\n  expect refused\n}\n')
    tidy = write(tmp_path / "tidy.scenario", UNTIDY)
    assert main(["fmt", "--write", str(broken), str(tidy)]) == 3
    err = capsys.readouterr().err
    assert f"{broken}:3:1: error[E002]: unexpected '}}'" in err
    assert "3 | }\n  | ^\n" in err
    assert broken.read_text(encoding="utf-8") == 'scenario "S" {\n  expect refused\n}\n'
    assert tidy.read_text(encoding="utf-8") == TIDY         # the other files are formatted


def test_fmt_never_writes_a_form_that_changes_what_the_scenarios_say(tmp_path, capsys, monkeypatch):
    """A check on the formatter itself: should it ever print other scenarios (here, one made to drop
    a cite), the file is left as it is and the fault is reported."""
    import ludex.fmt.scenarios as scenario_formatter
    source = 'scenario "S" {\n  cite 1.1, 1.2\n run 1\n}\n'
    path = write(tmp_path / "s.scenario", source)
    monkeypatch.setattr(scenario_formatter, "format_scenario_source",
                        lambda text, path: 'scenario "S" {\n  cite 1.1\n  run 1\n}\n')
    for mode in ("--check", "--write"):
        assert main(["fmt", mode, str(path)]) == 1
        assert f"formatting {path} would change what its scenarios say" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == source
