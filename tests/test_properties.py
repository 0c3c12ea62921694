"""Property tests of the front end: whatever the text, parsing ends in an AST or in a ``SourceError``
whose diagnostics sit inside the text and render, never in another exception.

(a) sources generated from the rules grammar itself (``hypothesis.extra.lark.from_lark``);
(b) the bundled rules files and the golden inputs with characters and tokens deleted, duplicated,
    swapped or inserted;
(c) nesting far deeper than anyone writes.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from ludex.check.checks import check
from ludex.diagnostics import SourceError, render_all
from ludex.parse.definition import assemble
from ludex.resources import grammar_dir, rules_dir
from ludex.parse.mistakes import MAX_NESTING
from ludex.parse.syntax import parse_rules

GOLDEN = Path(__file__).resolve().parent / "golden"
QUICK = settings(deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.filter_too_much])


def outcome(text: str, path: str = "generated.ludex") -> str:
    """Parse (and, if that works, check) ``text``; assert every diagnostic is inside it and renders.
    Any exception but ``SourceError`` fails the test by escaping."""
    try:
        module = parse_rules(text, path)
    except SourceError as exc:
        assert exc.diagnostics, "a SourceError without a diagnostic"
        assert_inside(exc.diagnostics, text, path)
        return "error"
    diagnostics = check(assemble("generated", [module]))
    assert_inside(diagnostics, text, path)
    return "parsed"


def assert_inside(diagnostics, text: str, path: str) -> None:
    if not diagnostics:
        return
    lines = text.splitlines() or [""]
    for d in diagnostics:
        assert d.span.path == path
        assert 1 <= d.span.line <= len(lines) + 1, (d.message, d.span, len(lines))
        line = lines[d.span.line - 1] if d.span.line <= len(lines) else ""
        assert 1 <= d.span.column <= len(line) + 1, (d.message, d.span, line)
    rendered = render_all(diagnostics)
    first = min(diagnostics, key=lambda d: d.sort_key())
    assert f"{path}:{first.span.line}:{first.span.column}: error[{first.code}]" in rendered


# ------------------------------------------------------------------ (a) from the grammar

# Names that are no keyword anywhere: the contextual lexer reads a keyword's spelling as the keyword
# wherever the keyword may stand, which the generator (blind to lexing) does not know.
NAMES = ["p", "gold", "first-player", "draw-deck", "hand", "c2", "Big_name", "x"]
RULE_IDS = ["1", "3.2", "500.1c", "start-phase", "start-phase.remove-day-counter"]


@lru_cache(maxsize=None)
def rules_grammar() -> Lark:
    """The rules grammar as a fresh Lark object (one loaded from the cache has no ``.grammar``)."""
    path = grammar_dir() / "rules.lark"
    return Lark(path.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                import_paths=[str(grammar_dir())], source_path=str(path))


def token_strategies(grammar: Lark, start: str) -> dict:
    """A strategy for every terminal, each token with spaces around it so that tokens stay apart."""
    spaced = lambda s: s.map(lambda t: f" {t} ")  # noqa: E731
    text = st.lists(st.sampled_from(["a", "Z", " ", ".", ",", "'", '\\"', "\\\\", "é", "3"]), max_size=8).map("".join)
    explicit = {
        "NAME": spaced(st.sampled_from(NAMES)),
        "INT": spaced(st.integers(0, 999).map(str)),
        "RULE_ID": spaced(st.sampled_from(RULE_IDS)),
        "STRING": spaced(text.map(lambda s: f'"{s}"')),
        "LONG_STRING": spaced(st.tuples(text, text).map(lambda t: f'"""{t[0]}\n  {t[1]}"""')),
        "COMPARE": spaced(st.sampled_from(["==", "!=", "<=", ">=", "<", ">"])),
        "ADD": spaced(st.sampled_from(["+", "-"])),
        "MUL": spaced(st.sampled_from(["*", "/", "%"])),
        "COMMENT": st.sampled_from([" # a comment\n", "#\n"]),
        "WS": st.sampled_from([" ", "\n", "\t", "\r\n", "  \n  "]),
    }
    for terminal in grammar.terminals:
        if terminal.name not in explicit and terminal.pattern.type == "str":
            explicit[terminal.name] = st.just(f" {terminal.pattern.value} ")
    # only the terminals the start symbol reaches: from_lark refuses the others
    terminals, rules, ignored = grammar.grammar.compile([start], ())
    reached = {t.name for t in terminals} | set(ignored)
    return {name: strategy for name, strategy in explicit.items() if name in reached}


@lru_cache(maxsize=None)
def generated_sources(start: str):
    grammar = rules_grammar()
    return from_lark(grammar, start=start, explicit=token_strategies(grammar, start))


# Whole files; and, since the shortest files seldom reach them, single rules and statements, each with
# how many examples it gets. Statements are costly to draw (the recursive expressions make
# most attempts outgrow hypothesis's buffer), and drawn from "expr" directly nearly every one does.
WRAPPED = {
    "start": ("{}", 30),
    "rule": ("{}", 30),
    "stmt": ('rule 1 "R" {{\n{}\n}}', 8),
}


@pytest.mark.parametrize("start", list(WRAPPED))
def test_sources_generated_from_the_grammar_parse_or_fail_with_a_diagnostic(start):
    wrapper, examples = WRAPPED[start]
    seen = []

    @settings(QUICK, max_examples=examples)
    @given(generated_sources(start))
    def run(source):
        seen.append(outcome(wrapper.format(source)))

    run()
    # The generator knows the grammar, not the lexer: most of what it writes must parse.
    assert seen.count("parsed") >= len(seen) // 2, seen


# ------------------------------------------------------------------ (b) mutations


def corpus() -> list[tuple[str, str]]:
    """(path, text) of every bundled rules file and every golden input, parseable or not."""
    files = sorted(rules_dir().glob("*.ludex")) + sorted(GOLDEN.glob("*/*.ludex"))
    return [(f"mutated/{p.name}", p.read_text(encoding="utf-8")) for p in files]


TOKEN = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|\s+|[A-Za-z0-9_.-]+|.', re.S)
INSERTABLE = list('{}()[]"\'#=.,:;-\n \t') + ['"""', "rule", "if", "{ }", "\\", "\x00", "é"]


@st.composite
def mutated(draw):
    path, text = draw(st.sampled_from(corpus()))
    for _ in range(draw(st.integers(1, 4))):
        tokens = TOKEN.findall(text) or [""]
        op = draw(st.sampled_from(["delete char", "duplicate char", "swap chars", "insert",
                                   "delete token", "duplicate token", "swap tokens"]))
        if op.endswith("char") or op.endswith("chars") or op == "insert":
            i = draw(st.integers(0, max(0, len(text) - 1)))
            if op == "delete char":
                text = text[:i] + text[i + 1:]
            elif op == "duplicate char":
                text = text[:i] + text[i:i + 1] + text[i:]
            elif op == "swap chars":
                text = text[:i] + text[i + 1:i + 2] + text[i:i + 1] + text[i + 2:]
            else:
                text = text[:i] + draw(st.sampled_from(INSERTABLE)) + text[i:]
        else:
            i = draw(st.integers(0, len(tokens) - 1))
            if op == "delete token":
                del tokens[i]
            elif op == "duplicate token":
                tokens.insert(i, tokens[i])
            else:
                j = draw(st.integers(0, len(tokens) - 1))
                tokens[i], tokens[j] = tokens[j], tokens[i]
            text = "".join(tokens)
    return path, text


@settings(QUICK, max_examples=100)
@given(mutated())
def test_mutated_rules_files_parse_or_fail_with_a_diagnostic_inside_the_text(case):
    path, text = case
    outcome(text, path)


def test_the_corpus_is_not_empty():
    assert len(corpus()) >= 30


# ------------------------------------------------------------------ (c) depth


def test_500_nested_ifs_give_a_positioned_error_not_a_recursion_error():
    text = 'rule 1 "Deep" {\n' + "if true {\n" * 500 + "}\n" * 500 + "}\n"
    with pytest.raises(SourceError) as caught:
        parse_rules(text, "deep.ludex")
    (d,) = caught.value.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E010", 1 + MAX_NESTING, 9)
    assert f"nesting is deeper than {MAX_NESTING} levels" in render_all([d])


def test_nesting_at_the_limit_parses():
    depth = MAX_NESTING - 1                    # the rule's own braces are one level
    text = 'rule 1 "Deep" {\n' + "if true {\n" * depth + "}\n" * depth + "}\n"
    rule = parse_rules(text, "deep.ludex").items[0]
    assert len(rule.body) == 1


@pytest.mark.parametrize("expression", [
    "not " * 2000 + "true",
    "- " * 2000 + "1",
    "if true then 1 else " * 1500 + "2",
    "every p in players: " * 1500 + "true",
    "highest p in " * 1500 + "players" + " by 1" * 1500,
    "first-player" + ".name" * 2000,
    "players" + "[0]" * 2000,
    "1" + " + 1" * 2000,
], ids=["not", "minus", "if-then-else", "every", "highest", "attributes", "indexes", "sum"])
def test_deep_expressions_without_brackets_are_refused_with_a_positioned_error(expression):
    """Every pass after the parser walks an expression as it nests: 2000 levels would overflow them
    (or the Python written from it), so the parser refuses them (E010), without recursing itself."""
    text = ('game g "G" { source main "R" version "1" }\nflow { run 1 }\n'
            f'rule 1 "Deep" {{ let a = {expression} }}\n')
    assert outcome(text, "deep.ludex") == "error"
    with pytest.raises(SourceError) as caught:
        parse_rules(text, "deep.ludex")
    (d,) = caught.value.diagnostics
    assert (d.code, d.span.line) == ("E010", 3)
