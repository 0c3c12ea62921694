"""The formatter (interpreter/ludex/fmt/rules.py): source in, canonical source out.

Over a corpus of every construct (tests/corpus/constructs.ludex), the test games and every bundled
game (rules/*.ludex, globbed when the tests are collected): parsing the output gives the same AST,
formatting is idempotent and every comment survives; the bundled games are in canonical form already
(formatting them changes nothing), and formatting rules written by hand changes their layout only.
Then the layout itself, what the author wrote that the formatter keeps (comments at the end of a
line, blank lines, parentheses, words that say the default, string literals as written), random ASTs
(hypothesis) and ``ludex fmt``'s exit codes.
"""

from __future__ import annotations

import re
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
from ludex.fmt.rules import format_module, format_source
from ludex.resources import grammar_dir
from ludex.parse.syntax import parse_rules, parser

ROOT = Path(__file__).resolve().parent.parent
CONSTRUCTS = ROOT / "tests" / "corpus" / "constructs.ludex"
BUNDLED = sorted((ROOT / "rules").glob("*.ludex"))
WRITTEN = sorted((ROOT / "tests" / "games").glob("*.ludex")) + BUNDLED       # rules written by hand
CORPUS = sorted((ROOT / "tests" / "corpus").glob("*.ludex")) + WRITTEN


def fmt(text: str) -> str:
    return format_source(text, "t.ludex")


def parse(text: str) -> A.Module:
    return parse_rules(text, "t.ludex")


# ------------------------------------------------------------------ the corpus


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_round_trip_and_idempotence(path):
    text = path.read_text(encoding="utf-8")
    once = format_source(text, str(path))
    assert parse_rules(once, str(path)) == parse_rules(text, str(path))
    assert format_source(once, str(path)) == once


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_comment_survives(path):
    """Each comment, once (a comment inside a statement printed on one line moves above it, so
    the order may change)."""
    text = path.read_text(encoding="utf-8")
    once = format_source(text, str(path))
    assert sorted(c.text for c in scan(once)) == sorted(c.text for c in scan(text))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_bundled_games_are_in_canonical_form(path):
    text = path.read_text(encoding="utf-8")
    assert format_source(text, str(path)) == text


TOKENS = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?!"")(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Za-z0-9_-]+|\S')


def _tokens(text: str) -> list:
    """The text's tokens, comments apart; a long string as its words (its line breaks and
    indentation are layout)."""
    out = []
    for token in TOKENS.findall(text):
        if token.startswith('"""'):
            out += ['"""'] + token[3:-3].split() + ['"""']
        elif not token.startswith("#"):
            out.append(token)
    return out


@pytest.mark.parametrize("path", WRITTEN, ids=lambda p: str(p.relative_to(ROOT)))
def test_formatting_written_rules_changes_layout_only(path):
    """Its indentation lost, a file is printed back with the same tokens: where the AST cannot tell
    what the author wrote (parentheses, a default written out, a long string), the formatter keeps it."""
    text = path.read_text(encoding="utf-8")
    flush = "\n".join(line.strip() for line in text.splitlines())
    assert _tokens(format_source(flush, str(path))) == _tokens(text)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_format_module_prints_the_ast_alone(path):
    text = path.read_text(encoding="utf-8")
    printed = format_module(parse_rules(text, str(path)))
    assert parse_rules(printed, str(path)) == parse_rules(text, str(path))
    assert "#" not in "".join(line for line in printed.splitlines() if line.lstrip().startswith("#"))
    assert format_module(parse_rules(printed, str(path))) == printed


def _grammar_constructs() -> set:
    """Every tree the parser can build: rules and aliases that are not inlined."""
    names = set()
    for rule in parser("rules").rules:
        name = rule.alias or rule.origin.name
        name = str(name).split("__")[-1]
        if re.search(r"_(star|plus)_\d+$", name) or (rule.options.expand1 and rule.alias is None):
            continue            # Lark's own rules for repetitions; rules inlined into their parent
        names.add(name)
    return names


def test_the_corpus_has_every_construct_of_the_grammar():
    tree = parser("rules").parse(CONSTRUCTS.read_text(encoding="utf-8"))
    seen = {str(t.data).split("__")[-1] for t in tree.iter_subtrees()}
    assert _grammar_constructs() - seen == set()


def test_the_corpus_has_every_keyword_of_the_grammar():
    text = CONSTRUCTS.read_text(encoding="utf-8")
    code = re.sub(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?!"")(?:[^"\\\n]|\\.)*"|#[^\n]*', " ", text)
    words = set(re.findall(r"[a-z][a-z-]*", code)) | set(code.split())
    keywords = {t.pattern.value for t in parser("rules").terminals
                if t.pattern.type == "str" and re.fullmatch(r"[a-z][a-z -]*", t.pattern.value)}
    assert {k for k in keywords if not set(k.split()) <= words} == set()


def test_the_corpus_has_every_node_of_the_ast():
    module = parse(CONSTRUCTS.read_text(encoding="utf-8"))
    seen, todo = set(), [module]
    while todo:
        value = todo.pop()
        if isinstance(value, (tuple, list)):
            todo.extend(value)
        elif hasattr(value, "__dataclass_fields__") and not isinstance(value, A.Span):
            seen.add(type(value).__name__)
            todo.extend(getattr(value, f) for f in value.__dataclass_fields__)
    nodes = {name for name, cls in vars(A).items()
             if isinstance(cls, type) and hasattr(cls, "__dataclass_fields__") and cls.__module__ == A.__name__}
    assert nodes - seen - {"Span"} - SCENARIO_NODES == set()


SCENARIO_NODES = {"Step", "Scenario", "ScenarioFile"}     # the scenario language's, not printed here


# ------------------------------------------------------------------ layout


def test_canonical_layout():
    source = 'rule 1 "R" { if a { set x = 1 } else { clear x } log "done" } flow { run 1 }'
    assert fmt(source) == (
        'rule 1 "R" {\n'
        '  if a {\n'
        '    set x = 1\n'
        '  } else {\n'
        '    clear x\n'
        '  }\n'
        '  log "done"\n'
        '}\n'
        '\n'
        'flow {\n'
        '  run 1\n'
        '}\n')


@pytest.mark.parametrize("source, printed", [
    ("(a + b) * c", "(a + b) * c"),
    ("a - (b - c)", "a - (b - c)"),
    ("(a - b) - c", "a - b - c"),
    ("-(a + b)", "-(a + b)"),
    ("not (a and b)", "not (a and b)"),
    ("(not a) and b", "not a and b"),
    ("(a or b) and c", "(a or b) and c"),
    ("((a == b))", "a == b"),
    ("(a == b) == c", "(a == b) == c"),
    ("(every p in xs: p.ready) and b", "(every p in xs: p.ready) and b"),
    ("a and (every p in xs: p.ready)", "a and (every p in xs: p.ready)"),
    ("every p in (xs): (p.ready)", "every p in xs: p.ready"),
    ("(if a then b else c) + 1", "(if a then b else c) + 1"),
    ("(highest p in xs by k) + 1", "(highest p in xs by k) + 1"),
    ("(highest p in xs by k).gold", "(highest p in xs by k).gold"),
    ("(highest p in xs by k) == 1", "highest p in xs by k == 1"),
    ("highest p in xs by (k + 1)", "highest p in xs by k + 1"),
    ("(xs)[0].gold", "xs[0].gold"),
])
def test_minimal_parentheses(source, printed):
    """Printed from the AST alone, an expression gets the fewest parentheses that keep its tree."""
    assert format_module(parse(f"value v = {source}")) == f"value v = {printed}\n"


@pytest.mark.parametrize("source, printed", [
    ("(a - b) - c", "(a - b) - c"),
    ("(not a) and b", "(not a) and b"),
    ("a or (b and c)", "a or (b and c)"),
    ("(highest p in xs by k) == 1", "(highest p in xs by k) == 1"),
    ("highest p in xs by (k + 1)", "highest p in xs by (k + 1)"),
    ("if (any x in xs: x.ok) then (those x in xs: x.ok) else xs",
     "if (any x in xs: x.ok) then (those x in xs: x.ok) else xs"),
    ("f((a or b), c)", "f((a or b), c)"),
    ("f((a or b))", "f((a or b))"),
    ("f(a or b)", "f(a or b)"),
    ("(a + b)", "(a + b)"),
    ("((a == b))", "(a == b)"),
    ("every p in (xs): (p.ready)", "every p in xs: p.ready"),
    ("(xs)[0].gold", "xs[0].gold"),
    ("f((x))", "f(x)"),
])
def test_the_authors_parentheses_around_an_expression_with_operators_are_kept(source, printed):
    """They show how its parts group; around a name, a call or a literal they say nothing, and a
    second pair says nothing more."""
    assert fmt(f"value v = {source}") == f"value v = {printed}\n"


def test_a_name_before_a_parenthesised_chooser_keeps_its_parentheses():
    source = 'flow { reveal (c) (a + b).x chooses y from z }'
    assert fmt(source) == 'flow {\n  reveal (c)\n  (a + b).x chooses y from z\n}\n'
    assert fmt('flow { reveal (c) d chooses y from z }') == 'flow {\n  reveal c\n  d chooses y from z\n}\n'


def test_an_empty_prompt_before_a_quoted_chooser_stays():
    source = 'flow { p chooses x from xs "" "t".owner chooses y from ys }'
    assert parse(fmt(source)) == parse(source)
    assert 'from xs ""' in fmt(source)


def test_long_text_is_wrapped_inside_triple_quotes():
    """Printed from the AST alone; from a source, a literal is kept as written (below)."""
    words = " ".join(f"word{i}" for i in range(60))
    source = f'rule 1 "R" {{ text "{words}\\n\\nSecond paragraph with a \\"quote\\"" note "short" }}'
    out = format_module(parse(source))
    assert '  text """word0 word1' in out and '\n\n  Second paragraph with a "quote\\""""' in out
    assert all(len(line) <= 100 for line in out.splitlines())
    assert '  note "short"' in out
    assert parse(out) == parse(source)


def test_long_statements_break_and_stay_equal():
    items = ", ".join(f'"Card number {i}"' for i in range(12))
    source = (f'rule 1 "R" {{ create [{items}] into pool '
              'require aaaaaaaaaaaaaaa or bbbbbbbbbbbbbbbbbbbbbb or ccccccccccccccccccccc or ddddddddddddddddddddddd '
              'cite 1 "A message long enough to need a line of its own after the condition." }')
    out = fmt(source)
    assert all(len(line) <= 100 for line in out.splitlines())
    assert parse(out) == parse(source)
    assert fmt(out) == out


def test_a_long_string_keeps_its_line_breaks_and_is_indented_as_its_line():
    source = ('rule 1 "R" {\n'
              '      text """A. The first item of a list\n'
              '         B. the second, which the author   \n'
              '\n'
              '     C. a new paragraph"""\n'
              '  note "A short string stays short, however long it is: ' + "words " * 20 + '"\n'
              '}\n')
    out = fmt(source)
    assert out == ('rule 1 "R" {\n'
                   '  text """A. The first item of a list\n'
                   '  B. the second, which the author\n'
                   '\n'
                   '  C. a new paragraph"""\n'
                   '  note "A short string stays short, however long it is: ' + "words " * 20 + '"\n'
                   '}\n')
    assert parse(out) == parse(source)


def test_a_long_string_that_cannot_be_indented_again_is_kept_as_written():
    source = 'rule 1 "R" {\n      text """a line ending in an escaped blank\\ \n        b"""\n}\n'
    assert fmt(source) == 'rule 1 "R" {\n  text """a line ending in an escaped blank\\ \n        b"""\n}\n'
    assert parse(fmt(source)) == parse(source)


def test_a_boards_drawing_is_kept_as_drawn():
    source = 'board b """\n    A   B\n  +---+---+\n1 | .   . |\n  +---+---+\n"""\n'
    assert fmt(source) == source


def test_short_strings_escape_quotes_and_backslashes():
    out = fmt(r'rule 1 "a \"b\" \\ c" { log "x\ny" }')
    assert out.splitlines()[0] == r'rule 1 "a \"b\" \\ c" {'
    assert r'log "x\ny"' in out


def test_a_board_keeps_its_lines():
    drawing = '     A   B\n   +---+---+\n 1 | . # . |\n   +---+---+\nmark . outdoor'
    source = f'board b """\n{drawing}\n"""'
    out = fmt(source)
    assert parse(out) == parse(source) and fmt(out) == out
    assert parse(out).items[0].drawing == parse(source).items[0].drawing


# ------------------------------------------------------------------ comments


def test_comments_stay_at_the_end_of_their_line_and_in_their_block():
    source = (
        "# file\n"
        "flow {  # opens\n"
        "  run 1  # trails\n"
        "  if a {\n"
        "    run 2\n"
        "    # ends the if\n"
        "  } else {  # opens the else\n"
        "    run 3\n"
        "  }   # closes the if\n"
        "\n"
        "  run 4\n"
        "\n"
        "  # ends the flow\n"
        "}\n"
        "# ends the file\n")
    assert fmt(source) == (
        "# file\n"
        "flow {  # opens\n"
        "  run 1  # trails\n"
        "  if a {\n"
        "    run 2\n"
        "    # ends the if\n"
        "  } else {  # opens the else\n"
        "    run 3\n"
        "  }  # closes the if\n"
        "\n"
        "  run 4\n"
        "\n"
        "  # ends the flow\n"
        "}\n"
        "# ends the file\n")


def test_trailing_comments_of_one_line_items_line_up():
    """Two spaces past the longest line of the run, whatever the source had; a blank line or a line
    without a comment does not end the run, an item on several lines does; a line too long to line
    up with the others keeps its comment two spaces past its code."""
    source = (
        "state {\n"
        "  game supply treasury = 10000 min 0 # the gold tokens\n"
        "  player counter gold = 0 min 0    # the gold pool\n"
        "\n"
        "  player zone hand hidden\n"
        "  role first-player      # holds the token\n"
        "  player zone a-zone-whose-name-is-long-enough public ordered # the outlier\n"
        "}\n"
        "flow {\n"
        "  set x = 1 # one\n"
        "  if a {  # a block\n"
        "    run 1\n"
        "  }\n"
        "  set yy = 2 # two\n"
        "}\n")
    assert fmt(source) == (
        "state {\n"
        "  game supply treasury = 10000 min 0  # the gold tokens\n"
        "  player counter gold = 0 min 0       # the gold pool\n"
        "\n"
        "  player zone hand hidden\n"
        "  role first-player                   # holds the token\n"
        "  player zone a-zone-whose-name-is-long-enough public ordered  # the outlier\n"
        "}\n"
        "flow {\n"
        "  set x = 1  # one\n"
        "  if a {  # a block\n"
        "    run 1\n"
        "  }\n"
        "  set yy = 2  # two\n"
        "}\n")


def test_a_comment_inside_a_statement_printed_on_one_line():
    source = 'flow {\n  require a and  # why\n    b cite 1 "m"\n  require c  # c\n    # d\n    cite 1 "n"\n}\n'
    assert fmt(source) == 'flow {\n  require a and b cite 1 "m"  # why\n  # d\n  require c cite 1 "n"        # c\n}\n'


def test_blank_lines_the_author_wrote_are_kept_once():
    source = (
        "# A header\n"
        "# of two lines.\n"
        "\n"
        "\n"
        "# Its second paragraph.\n"
        "\n"
        "card type plot { gold: number }\n"
        "card \"A\" plot { gold 1 }\n"
        "# the second card\n"
        "card \"B\" plot { gold 2 }\n"
        "\n"
        "\n"
        "flow {\n"
        "\n"
        "  run 1\n"
        "  # about run 2\n"
        "\n"
        "  run 2\n"
        "  run 3\n"
        "\n"
        "\n"
        "  # the end\n"
        "\n"
        "}\n"
        "value v = 1 value w = 2\n")
    # top-level items are apart by a blank line unless the source wrote them on consecutive lines
    assert fmt(source) == (
        "# A header\n"
        "# of two lines.\n"
        "\n"
        "# Its second paragraph.\n"
        "\n"
        "card type plot { gold: number }\n"
        "card \"A\" plot { gold 1 }\n"
        "# the second card\n"
        "card \"B\" plot { gold 2 }\n"
        "\n"
        "flow {\n"
        "  run 1\n"
        "  # about run 2\n"
        "\n"
        "  run 2\n"
        "  run 3\n"
        "\n"
        "  # the end\n"
        "}\n"
        "value v = 1\n"
        "\n"
        "value w = 2\n")


def test_a_hash_in_text_is_not_a_comment():
    source = 'rule 1 "#1" { text """a # b""" note "c # d" }  # real'
    out = fmt(source)
    assert [c.text for c in scan(out)] == ["# real"]
    assert parse(out) == parse(source)


def test_a_file_of_comments_only():
    assert fmt("# just this\n\n\n# and this") == "# just this\n\n# and this\n"
    assert fmt("") == ""


# ------------------------------------------------------------------ what the author chose


def test_words_that_say_the_default_are_kept_where_written_and_not_added():
    source = ('state {\n  player zone hand public in-play\n  game role first-player\n  game zone deck ordered hidden\n'
              '  role second-player\n  counter c = 0 max 3 min 0\n}\n'
              'card "A" plot copies 1 { gold 1 }\ncard "B" plot { gold 1 }\n'
              'flow {\n  move c to p.hand at top\n  move c to p.hand\n'
              '  turn of p { exactly one of a then one of b }\n}\n')
    assert fmt(source) == ('state {\n  player zone hand public in-play\n  game role first-player\n'
                           '  game zone deck ordered hidden\n  role second-player\n  counter c = 0 min 0 max 3\n}\n'
                           'card "A" plot copies 1 { gold 1 }\ncard "B" plot { gold 1 }\n'
                           'flow {\n  move c to p.hand at top\n  move c to p.hand\n'
                           '  turn of p { exactly one of a then one of b }\n}\n')
    assert format_module(parse(source)) == (
        'state {\n  player zone hand in-play\n  role first-player\n  game zone deck hidden ordered\n'
        '  role second-player\n  game counter c = 0 min 0 max 3\n}\n'
        '\n'
        'card "A" plot { gold 1 }\n\ncard "B" plot { gold 1 }\n'
        '\n'
        'flow {\n  move c to p.hand\n  move c to p.hand\n  turn of p { one of a then one of b }\n}\n')


def test_one_line_or_a_block_as_the_source_wrote_it():
    """A card, card type, deck or menu keeps the source's choice (a block, or one line if it fits);
    a card's fields stay on the lines the source gave them, while they fit; a block of one statement
    written on one line (an ability, a trigger, a one-branch statement) stays so if it fits, not a
    rule, an action or the flow."""
    source = ('card type t { a: number  b: number }\ncard type u {\n  a: number\n}\n'
              'card "A" t { a 1 b 2 }\ncard "B" t {\n  a 1\n  b 2\n}\ncard "C" t {\n  a 1 b 2\n'
              '  ability "X" { log "x" }\n  ability "Y" {\n    log "y"\n  }\n}\n'
              'deck d { 1 "A" }\ndeck e {\n  1 "A"\n}\n'
              'rule 1 "R" { run 2 }\nrule 2 "S" {\n  whenever a { end game }\n  if b { run 1 }\n'
              '  turn of p {\n    one of a\n  }\n  window "w" starting with p { one of a }\n}\n')
    assert fmt(source) == ('card type t { a: number  b: number }\ncard type u {\n  a: number\n}\n'
                           'card "A" t { a 1 b 2 }\ncard "B" t {\n  a 1\n  b 2\n}\ncard "C" t {\n  a 1 b 2\n'
                           '  ability "X" { log "x" }\n  ability "Y" {\n    log "y"\n  }\n}\n'
                           'deck d { 1 "A" }\ndeck e {\n  1 "A"\n}\n'
                           'rule 1 "R" {\n  run 2\n}\nrule 2 "S" {\n  whenever a { end game }\n  if b { run 1 }\n'
                           '  turn of p {\n    one of a\n  }\n  window "w" starting with p { one of a }\n}\n')
    wide = 'card "A" t { ' + " ".join(f"a-field-of-the-card{i} {i}" for i in range(6)) + ' }\n'
    assert fmt(wide) == ('card "A" t {\n  ' + " ".join(f"a-field-of-the-card{i} {i}" for i in range(4)) + "\n  "
                         + " ".join(f"a-field-of-the-card{i} {i}" for i in range(4, 6)) + '\n}\n')


def test_a_long_statement_breaks_before_cite_and_message_as_needed():
    condition = " or ".join(f"c.type == \"kind-{i}\"" for i in range(3))
    message = "A message long enough that the statement cannot keep it on its first line at all."
    assert fmt(f'flow {{ require {condition} cite 1.2 "{message}" }}') == (
        'flow {\n'
        f'  require {condition} cite 1.2\n'
        f'    "{message}"\n'
        '}\n')
    long_condition = " or ".join(f"c.type == \"kind-{i}\"" for i in range(6))
    assert fmt(f'flow {{ require {long_condition} cite 1.2 "{message}" }}') == (
        'flow {\n'
        '  require c.type == "kind-0"\n' + "".join(f'    or c.type == "kind-{i}"\n' for i in range(1, 6)) +
        f'    cite 1.2 "{message}"\n'
        '}\n')


def test_a_line_breaks_after_an_opening_bracket_a_quantifiers_colon_and_before_then():
    items = ", ".join(f'spaces-ahead(haddonfield, michael.space, "direction-{i}", myers-move-lines)'
                      for i in range(3))
    out = fmt(f"value pursue-spaces = flatten([{items}])")
    assert out == ("value pursue-spaces = flatten([\n" + ",\n".join(
        f'  spaces-ahead(haddonfield, michael.space, "direction-{i}", myers-move-lines)' for i in range(3)) + "])\n")
    out = fmt("value steps(v) = those n in neighbours(board, v.space, movement-lines-of-the-victim): "
              "not locked(n) and free(n)")
    assert out == ("value steps(v) = those n in neighbours(board, v.space, movement-lines-of-the-victim):\n"
                   "  not locked(n) and free(n)\n")
    out = fmt("value free-entries = if (any s in entry-spaces: not occupied(s)) then "
              "(those s in entry-spaces: not occupied(s)) else entry-spaces")
    assert out == ("value free-entries = if (any s in entry-spaces: not occupied(s))\n"
                   "  then (those s in entry-spaces: not occupied(s))\n"
                   "  else entry-spaces\n")


# ------------------------------------------------------------------ random ASTs and sources

QUICK = settings(deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.filter_too_much])

S = A.Span("t.ludex", 0, 0, 0, 0)
NAMES = st.sampled_from(["a", "b", "xs", "first-player", "p-q2", "x_y"])
OPS = ["or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "+", "-", "*", "/", "%"]
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
LEAVES = st.one_of(
    st.integers(0, 10 ** 6).map(lambda n: A.Number(S, n)),
    TEXT.map(lambda t: A.Text(S, t)),
    st.sampled_from([True, False, None]).map(lambda v: A.Constant(S, v)),
    st.just(A.This(S)),
    NAMES.map(lambda n: A.Name(S, n)),
)


def _extend(children):
    few = st.lists(children, max_size=3).map(tuple)
    return st.one_of(
        st.builds(lambda s, n: A.Attr(S, s, n), children, NAMES),
        st.builds(lambda s, i: A.Index(S, s, i), children, children),
        st.builds(lambda n, args: A.Call(S, n, args), NAMES, few),
        few.map(lambda items: A.ListExpr(S, items)),
        st.builds(lambda op, e: A.Unary(S, op, e), st.sampled_from(["not", "-"]), children),
        st.builds(lambda op, l, r: A.Binary(S, op, l, r), st.sampled_from(OPS), children, children),
        st.builds(lambda e, negated: A.IsNone(S, e, negated), children, st.booleans()),
        st.builds(lambda c, t, o: A.IfExpr(S, c, t, o), children, children, children),
        st.builds(lambda k, v, it, b: A.Quantified(S, k, v, it, b),
                  st.sampled_from(["every", "any", "those", "count"]), NAMES, children, children),
        st.builds(lambda k, v, it, key: A.Ranked(S, k, v, it, key),
                  st.sampled_from(["highest", "lowest"]), NAMES, children, children),
    )


EXPRS = st.recursive(LEAVES, _extend, max_leaves=14)
# a chooser may be any expression whose printed form does not begin with '[' (after an expression,
# '[' would index it: no layout can keep such a pair of statements apart)
CHOOSERS = EXPRS.filter(lambda e: not format_module(
    A.Module(S, "t.ludex", (A.Value(S, "v", (), e),))).startswith("value v = ["))
STATEMENTS = st.one_of(
    st.builds(lambda v, e: A.Let(S, v, e), NAMES, EXPRS),
    st.builds(lambda e: A.Reveal(S, e), EXPRS),
    st.builds(lambda t, e: A.Set(S, t, e), EXPRS, st.one_of(st.none(), EXPRS)),
    st.builds(lambda c, v, o, h, pr: A.Choose(S, c, v, o, h, pr), CHOOSERS, NAMES, EXPRS, st.booleans(),
              st.sampled_from(["", "Which?"])),
    st.builds(lambda c, v, o: A.Order(S, c, v, o, ""), CHOOSERS, NAMES, EXPRS),
    st.builds(lambda e, a: A.Emit(S, "happened", (a,)), EXPRS, EXPRS),
    st.builds(lambda cond, msg: A.Require(S, cond, "1.2", msg), EXPRS, TEXT),
)


@settings(QUICK, max_examples=200)
@given(EXPRS)
def test_any_expression_prints_back_to_itself(expr):
    module = A.Module(S, "t.ludex", (A.Value(S, "v", (), expr),))
    printed = format_module(module)
    assert parse(printed) == module
    assert fmt(printed) == printed


@settings(QUICK, max_examples=100)
@given(st.lists(STATEMENTS, max_size=5))
def test_any_statements_print_back_to_themselves(body):
    module = A.Module(S, "t.ludex", (A.Flow(S, tuple(body)),))
    printed = format_module(module)
    assert parse(printed) == module
    assert fmt(printed) == printed


@settings(QUICK, max_examples=200)
@given(st.sampled_from(["text", "note", "example"]), st.text(max_size=300), TEXT)
def test_any_rule_text_prints_back_to_itself(kind, words, title):
    module = A.Module(S, "t.ludex", (A.Rule(S, "1.2a", title, docs=(A.Doc(S, kind, words),)),))
    printed = format_module(module)
    assert parse(printed) == module
    assert fmt(printed) == printed


def _generated(start: str):
    """Sources drawn from the rules grammar itself, comments and odd blanks included; names that
    are no keyword anywhere (the generator does not know the contextual lexer)."""
    path = grammar_dir() / "rules.lark"
    grammar = Lark(path.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                   import_paths=[str(grammar_dir())], source_path=str(path))
    spaced = lambda s: s.map(lambda t: f" {t} ")  # noqa: E731
    text = st.lists(st.sampled_from(["a", " ", "#", '\\"', "\\\\", "é", "3", "\n", "  "]), max_size=8).map("".join)
    explicit = {
        "NAME": spaced(st.sampled_from(["p", "gold", "first-player", "c2", "Big_name"])),
        "INT": spaced(st.integers(0, 999).map(str)),
        "RULE_ID": spaced(st.sampled_from(["1", "3.2", "500.1c", "start-phase.remove-day"])),
        "STRING": spaced(text.map(lambda s: '"' + s.replace("\n", " ") + '"')),
        "LONG_STRING": spaced(st.tuples(text, text).map(lambda t: f'"""{t[0]}\n  {t[1]}"""')),
        "COMPARE": spaced(st.sampled_from(["==", "!=", "<=", ">=", "<", ">"])),
        "ADD": spaced(st.sampled_from(["+", "-"])),
        "MUL": spaced(st.sampled_from(["*", "/", "%"])),
        "COMMENT": st.sampled_from([" # a comment\n", "#\n", "\n# own line\n"]),
        "WS": st.sampled_from([" ", "\n", "\t", "\r\n", "  \n\n  "]),
    }
    for terminal in grammar.terminals:
        if terminal.name not in explicit and terminal.pattern.type == "str":
            explicit[terminal.name] = st.just(f" {terminal.pattern.value} ")
    terminals, _, ignored = grammar.grammar.compile([start], ())
    reached = {t.name for t in terminals} | set(ignored)
    return from_lark(grammar, start=start, explicit={k: v for k, v in explicit.items() if k in reached})


@pytest.mark.parametrize("start, wrapper, examples", [
    ("start", "{}", 40), ("rule", "{}", 40), ("stmt", 'rule 1 "R" {{\n{}\n}}', 10)])
def test_sources_generated_from_the_grammar_format_back_to_themselves(start, wrapper, examples):
    formatted = []

    @settings(QUICK, max_examples=examples)
    @given(_generated(start))
    def run(source):
        source = wrapper.format(source)
        try:
            module = parse(source)
        except SourceError:
            return                      # the generator does not know the lexer: some do not parse
        once = fmt(source)
        assert parse(once) == module
        assert fmt(once) == once
        assert sorted(c.text for c in scan(once)) == sorted(c.text for c in scan(source))
        formatted.append(once)

    run()
    assert len(formatted) >= examples // 4, len(formatted)


# ------------------------------------------------------------------ ludex fmt


def test_fmt_check_exit_codes(tmp_path, capsys):
    canonical = tmp_path / "canonical.ludex"
    canonical.write_text(fmt('rule 1 "R" { run 2 }'), encoding="utf-8")
    untidy = tmp_path / "untidy.ludex"
    untidy.write_text('rule 1 "R" {   run 2 }', encoding="utf-8")
    assert main(["fmt", "--check", str(canonical)]) == 0
    assert main(["fmt", "--check", str(untidy)]) == 1
    assert main(["fmt", "--check", str(canonical), str(untidy)]) == 1
    assert "untidy.ludex: not in canonical form" in capsys.readouterr().err


def test_fmt_write_and_print(tmp_path, capsys):
    untidy = tmp_path / "untidy.ludex"
    untidy.write_text('flow {run 1} # done', encoding="utf-8")
    assert main(["fmt", str(untidy)]) == 0
    assert capsys.readouterr().out == "flow {\n  run 1\n}  # done\n"
    assert main(["fmt", "--write", str(untidy)]) == 0
    assert untidy.read_text(encoding="utf-8") == "flow {\n  run 1\n}  # done\n"
    assert main(["fmt", "--check", str(untidy)]) == 0


def test_fmt_check_passes_on_the_bundled_games(capsys):
    assert main(["fmt", "--check", str(ROOT / "rules")]) == 0
    assert capsys.readouterr().err == ""


def test_fmt_reports_a_syntax_error(tmp_path, capsys):
    broken = tmp_path / "broken.ludex"
    broken.write_text('rule 1 { }', encoding="utf-8")
    with pytest.raises(SourceError):
        format_source(broken.read_text(encoding="utf-8"), str(broken))
    assert main(["fmt", "--check", str(broken)]) == 3
    assert "broken.ludex:1:" in capsys.readouterr().err


# ------------------------------------------------------------------ found by fuzzing


def test_every_header_line_is_kept_in_the_sources_order_with_its_comment():
    """The AST keeps only the last 'players', 'formats' or 'excerpt' line (the checker reports the
    other, S083): the formatter prints every line the source has, where it has it."""
    twice = ('game g "G" {\n  source main "Rules" version "1"\n  players 2 to 2\n  formats joust\n'
             '  players 3 to 4\n  formats melee\n  excerpt ends after 1 "a"\n  excerpt ends after 2 "b"\n}\n')
    assert fmt(twice) == twice
    assert len(parse(fmt(twice)).items[0].given_twice) == 3
    reordered = 'game g "G" {\n  players 2 to 4  # 5 with the expansion\n  source main "Rules" version "1"\n}\n'
    assert fmt(reordered) == reordered
    commented = ('game g "G" {\n  source main "Rules" version "1"  # the printed rulebook\n'
                 '  players 2 to 4   # 5 with the expansion\n'
                 '  formats duel for 2 players melee  # melee: 3+ players\n}\n')
    assert fmt(commented) == (
        'game g "G" {\n  source main "Rules" version "1"   # the printed rulebook\n'
        '  players 2 to 4                    # 5 with the expansion\n'
        '  formats duel for 2 players melee  # melee: 3+ players\n}\n')
    spaced = 'game g "G" {\n  # the book\n  source main "Rules" version "1"\n\n  # how many\n  players 2 to 2\n}\n'
    assert fmt(spaced) == spaced


def test_a_decks_comments_stay_with_their_entries():
    trailing = 'deck starter {\n  3 "Guard"    # cheap blockers\n  2 "Knight"   # the finishers\n  1 "Dragon"\n}\n'
    assert fmt(trailing) == 'deck starter {\n  3 "Guard"   # cheap blockers\n  2 "Knight"  # the finishers\n  1 "Dragon"\n}\n'
    above = 'deck starter {\n  # blockers\n  3 "Guard"\n\n  # finishers\n  2 "Knight"\n  1 "Dragon"\n  # the end\n}\n'
    assert fmt(above) == above


def test_a_menus_comments_stay_with_its_parts():
    """In a turn's or a window's menu written as a block, as in a deck: a comment on a line of its
    own stays above its part, one after a part trails that part's line, one before the '}' stays there."""
    above = 'flow {\n  turn of p {\n    # first the upkeep\n    one of upkeep\n    # then the main phase\n' \
            '    then any number of play\n  }\n}\n'
    assert fmt(above) == above
    trailing = ('flow {\n  window "w" starting with p {  # who acts\n    one of upkeep # why\n'
                '    then any number of play, pass   # the rest\n    # before the brace\n  }  # done\n}\n')
    assert fmt(trailing) == ('flow {\n  window "w" starting with p {  # who acts\n'
                             '    one of upkeep                  # why\n'
                             '    then any number of play, pass  # the rest\n'
                             '    # before the brace\n  }  # done\n}\n')
    spread = ('flow {\n  turn of p { one of a then  # after a\n    # above b\n    one of b,\n'
              '      # inside b\n      c }\n}\n')
    assert fmt(spread) == ('flow {\n  turn of p {\n    one of a  # after a\n    # above b\n    # inside b\n'
                           '    then one of b, c\n  }\n}\n')
    for source in (above, trailing, spread):
        assert parse(fmt(source)) == parse(source)
        assert fmt(fmt(source)) == fmt(source)
        assert [c.text for c in scan(fmt(source))] == [c.text for c in scan(source)]

def test_comments_in_a_head_written_on_several_lines_go_above_it_not_into_the_body():
    source = ('flow {\n  if a > 0  # positive\n      and b  # and b\n      # own line\n      and c {  # then\n'
              '    run 1\n  } else if d  # d\n      and e {\n    run 2\n  }\n}\n')
    assert fmt(source) == ('flow {\n  # positive\n  # and b\n  # own line\n  if a > 0 and b and c {  # then\n'
                           '    run 1\n  } else if d and e {  # d\n    run 2\n  }\n}\n')
    assert fmt(fmt(source)) == fmt(source)


def test_a_long_string_stays_long_wherever_it_is_written():
    """Not only in rule texts and text expressions: messages, logs, names, titles, prompts, notes."""
    source = ('game g """G""" {\n  source main """Rules""" version """1""" """a\n    b"""\n  players 2 to 2\n'
              '  excerpt ends after 1 """The note,\n    on two lines"""\n}\n\n'
              'deck d { 1 """A""" }\n\ncard type t { a: number }\ncard """B""" t { a 1 }\n\n'
              'rule 1 """R""" {\n  text "t"\n  erratum main """2""" replaces """old""" with """new\n    text"""\n'
              '  action go """Go""" by p {\n'
              '    require p.ready cite 1 """You cannot go yet: wait until every other player\n'
              '      has finished their turn and the round has ended."""\n'
              '    p chooses c from [1, 2] """Pick\n      one"""\n    p may """Do it?""" { run 1 }\n'
              '    window """w""" starting with p { any number of go }\n'
              '    initiate """reaction""" abilities of c\n    log """done"""  # trailing\n'
              '    log """several\n      lines"""  # trailing 2\n  }\n}\n'
              'card """C""" t {\n  a 1\n  ability """A""" "k" when played { run 1 }\n}\n')
    assert fmt(source) == source
    indented = 'flow {\n  log """several\n  lines"""\n}\n'
    assert fmt(indented) == 'flow {\n  log """several\n    lines"""\n}\n'
    assert parse(fmt(indented)) == parse(indented)
    expressions = 'flow {\n  set x = f(1, """a\n   b""")  # c\n  if """x\n  y""" == z { run 1 }\n}\n'
    assert fmt(expressions) == ('flow {\n  set x = f(1, """a\n    b""")  # c\n  if """x\n      y""" == z {\n'
                                '    run 1\n  }\n}\n')
    assert parse(fmt(expressions)) == parse(expressions)


def test_public_after_a_parenthesised_value_is_kept():
    source = 'state {\n  counter c = (1 + 2) public\n  counter d = 0 max (3) public hidden\n}\n'
    assert fmt(source) == 'state {\n  counter c = (1 + 2) public\n  counter d = 0 max 3 public hidden\n}\n'


def test_a_card_type_named_copies_is_not_a_count():
    source = 'card type copies { a: number }\ncard "A" copies { a 1 }\ncard "B" copies copies 1 { a 1 }\n'
    assert fmt(source) == source


def test_long_parameter_lists_and_formats_break():
    params = ", ".join(f"parameter{i}" for i in range(12))
    value = f"value f({params}) = 1\n"
    assert fmt(value) == ("value f(parameter0, parameter1, parameter2, parameter3, parameter4, parameter5, parameter6,\n"
                          "  parameter7, parameter8, parameter9, parameter10, parameter11) = 1\n")
    when = f'rule 1 "R" {{\n  when happened({params}) {{\n    run 1\n  }}\n}}\n'
    assert fmt(when) == ('rule 1 "R" {\n  when happened(parameter0, parameter1, parameter2, parameter3, parameter4, '
                         'parameter5, parameter6,\n      parameter7, parameter8, parameter9, parameter10, parameter11) {\n'
                         '    run 1\n  }\n}\n')
    ability = f'card type t {{ a: number }}\ncard "A" t {{\n  ability "x" when happened({params}) {{ run 1 }}\n}}\n'
    formats = " ".join(f"formatnumber{i}" for i in range(10))
    header = f'game g "G" {{\n  source main "R" version "1"\n  formats {formats}\n}}\n'
    assert fmt(header) == ('game g "G" {\n  source main "R" version "1"\n  formats formatnumber0 formatnumber1 '
                           'formatnumber2 formatnumber3 formatnumber4 formatnumber5\n    formatnumber6 formatnumber7 '
                           'formatnumber8 formatnumber9\n}\n')
    for source in (value, when, ability, header):
        assert all(len(line) <= 100 for line in fmt(source).splitlines())
        assert parse(fmt(source)) == parse(source)
        assert fmt(fmt(source)) == fmt(source)


def test_brackets_and_quotes_inside_a_long_string_are_not_break_points():
    x = "x" * 60
    source = f'value v = f({x}, """a "(" b""", {x}, {x})\n'
    assert fmt(source) == f'value v = f({x}, """a "(" b""",\n  {x},\n  {x})\n'
