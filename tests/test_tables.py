"""The parse tables (``interpreter/ludex/parse/tables.py``) against Lark itself: every text is accepted or refused
as Lark's parser does, and an accepted one gives the AST Lark's tree gives through the builder, span
for span (every node's start and end, every token's name and position, not only what ``==`` on the
nodes compares).
"""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from ludex.parse import ast as A
from ludex.parse import tables as lalr, syntax
from ludex.compliance.log import LogBuilder
from ludex.diagnostics import Diagnostic, SourceError
from ludex.resources import rules_dir, scenarios_dir
from test_properties import QUICK, TOKEN, WRAPPED, generated_sources, mutated

ROOT = Path(__file__).resolve().parent.parent
BUILDERS = {"rules": syntax.Builder, "scenario": syntax.ScenarioBuilder, "log": LogBuilder}


def files() -> list[tuple[str, Path]]:
    rules = sorted(rules_dir().glob("*.ludex")) + sorted((ROOT / "tests").glob("**/*.ludex"))
    return ([("rules", p) for p in rules]
            + [("scenario", p) for p in sorted(scenarios_dir().glob("*/*.scenario"))]
            + [("log", p) for p in sorted((scenarios_dir() / "logs").glob("*/*.log"))])


def exact(value):
    """``value`` as nested tuples with every span and token position in it."""
    done: dict[int, object] = {}
    stack = [(value, False)]
    while stack:                                  # without recursion: ASTs may be deep
        item, ready = stack.pop()
        if isinstance(item, str) and hasattr(item, "type"):
            done[id(item)] = ("token", item.type, str(item), item.line, item.column, item.end_line,
                              item.end_column, item.start_pos, item.end_pos)
            continue
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            parts = [getattr(item, f.name) for f in dataclasses.fields(item)]
        elif isinstance(item, (list, tuple)):
            parts = list(item)
        elif isinstance(item, dict):
            parts = [x for pair in item.items() for x in pair]
        else:
            done[id(item)] = item
            continue
        if ready:
            done[id(item)] = (type(item).__name__, *(done[id(p)] for p in parts))
        else:
            stack.append((item, True))
            stack.extend((p, False) for p in parts)
    return done[id(value)]


def both(start: str, text: str, path: str = "t"):
    """(the tables' AST or "refused", Lark's AST or "refused"); a builder's own refusal (a log that
    gives its game twice) as its diagnostics."""
    builder = BUILDERS[start]
    try:
        fast = syntax.tables(start).parse(text, builder(path), partial(A.Span, path))
    except lalr.Unparsed:
        fast = "refused"
    except SourceError as exc:
        fast = exc.diagnostics
    try:
        slow = builder(path).build(syntax.parser(start).parse(text))
    except UnexpectedInput:
        slow = "refused"
    except SourceError as exc:
        slow = exc.diagnostics
    return fast, slow


def _diagnostics(result) -> bool:
    """Whether a parse gave a builder's diagnostics (its refusal) rather than an AST or "refused"."""
    return isinstance(result, (list, tuple)) and bool(result) and all(isinstance(d, Diagnostic) for d in result)


def assert_same(start: str, text: str, path: str = "t") -> str:
    fast, slow = both(start, text, path)
    if slow == "refused" and _diagnostics(fast):
        # The tables build as they parse: a builder's refusal made on the way (an expression nested
        # too deep) comes before a syntax error further on, which Lark, parsing first, meets first.
        # Both refuse the file.
        return "refused"
    if "refused" in (fast, slow):
        assert fast == slow, f"tables: {fast if fast == 'refused' else 'parsed'}; Lark: " \
                             f"{slow if slow == 'refused' else 'parsed'}"
        return "refused"
    assert exact(fast) == exact(slow)
    return "parsed"


@pytest.mark.parametrize("start", list(BUILDERS))
def test_every_grammar_has_tables(start):
    assert syntax.tables(start) is not None


def sampled() -> list:
    """``files()``, those past the plain run's sample marked ``slow``: the sample is every rules file
    and, of each game's scenarios and of its logs, the largest file (the most of the grammar in one)."""
    largest = {}
    for start, path in files():
        if start != "rules":
            key = (start, path.parent.name)
            if key not in largest or path.stat().st_size > largest[key].stat().st_size:
                largest[key] = path
    keep = set(largest.values())
    return [pytest.param(start, path, marks=[] if start == "rules" or path in keep else [pytest.mark.slow])
            for start, path in files()]


@pytest.mark.parametrize("start,path", sampled(), ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_file_parses_as_lark_parses_it(start, path):
    """Every rules, scenario and log file, through the tables and through Lark. The plain ``pytest``
    compares a sample (every rules file; the largest scenario file and log of each game); the other
    scenario files and logs are marked ``slow`` and compared in ``pytest -m slow``."""
    assert_same(start, path.read_text(encoding="utf-8"), str(path))


def test_text_the_tables_cannot_lex_or_parse_is_refused():
    for text in ['rule 1 "x" {', 'rule 1 "x" { set a = }', "rule 1 'x' {}", 'rule 1 "x" {} }', "é"]:
        assert assert_same("rules", text) == "refused", text


def test_an_empty_file_and_comments_alone_parse_as_lark_parses_them():
    for text in ["", "# nothing\n", "\n\n   \t\n"]:
        assert assert_same("rules", text) == "parsed"


@settings(QUICK, max_examples=100)
@given(mutated())
def test_mutated_files_are_accepted_or_refused_as_lark_does(case):
    assert_same("rules", case[1], case[0])


@st.composite
def mutated_scenarios_and_logs(draw):
    """A scenario file or a game log with a token or two deleted, duplicated or swapped."""
    start, path = draw(st.sampled_from([(s, p) for s, p in files() if s != "rules"]))
    tokens = TOKEN.findall(path.read_text(encoding="utf-8"))
    for _ in range(draw(st.integers(1, 2))):
        i, j = draw(st.integers(0, len(tokens) - 1)), draw(st.integers(0, len(tokens) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "swap"]))
        if op == "delete":
            del tokens[i]
        elif op == "duplicate":
            tokens.insert(i, tokens[i])
        else:
            tokens[i], tokens[j] = tokens[j], tokens[i]
    return start, str(path), "".join(tokens)


@settings(QUICK, max_examples=60)
@given(mutated_scenarios_and_logs())
def test_mutated_scenarios_and_logs_are_accepted_or_refused_as_lark_does(case):
    start, path, text = case
    assert_same(start, text, path)


@pytest.mark.parametrize("start", list(WRAPPED))
def test_sources_generated_from_the_grammar_parse_as_lark_parses_them(start):
    wrapper, examples = WRAPPED[start]

    @settings(QUICK, max_examples=examples)
    @given(generated_sources(start))
    def run(source):
        assert_same("rules", wrapper.format(source))

    run()


def test_tokens_pickle_with_their_positions():
    import pickle
    token = lalr.Token.make("NAME", "gold", (3, 5, 3, 9, 40, 44))
    again = pickle.loads(pickle.dumps(token))
    assert (again, again.type, again.line, again.column, again.end_line, again.end_column,
            again.start_pos, again.end_pos) == ("gold", "NAME", 3, 5, 3, 9, 40, 44)


def test_tables_are_read_from_the_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDEX_CACHE_DIR", str(tmp_path))
    syntax.tables.cache_clear()
    try:
        first = syntax.tables("rules")
        written = list(tmp_path.glob("rules-*.tables"))
        assert len(written) == 1
        syntax.tables.cache_clear()
        again = syntax.tables("rules")
        assert again is not first and again.states == first.states
    finally:
        syntax.tables.cache_clear()


def test_an_unwritable_or_broken_cache_is_passed_over(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LUDEX_CACHE_DIR", str(blocker / "ludex"))
    syntax.tables.cache_clear()
    try:
        assert syntax.tables("rules") is not None
        monkeypatch.setenv("LUDEX_CACHE_DIR", str(tmp_path))
        syntax.tables.cache_clear()
        syntax.tables("rules")
        (cached,) = tmp_path.glob("rules-*.tables")
        cached.write_bytes(b"\x00garbage")
        syntax.tables.cache_clear()
        assert syntax.tables("rules") is not None
        assert syntax.parse_rules('rule 1 "One" { log "x" }').items[0].id == "1"
    finally:
        syntax.tables.cache_clear()
