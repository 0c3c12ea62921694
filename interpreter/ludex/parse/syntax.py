"""Parse: source text in, an AST ``Module`` (or positioned syntax diagnostics) out.

The facade over the parsers: ``parse_rules``, ``parse_scenarios``, ``parse_question`` and, for any grammar and builder,
``parse_with``. The nesting is checked first (``mistakes.check_nesting``); the grammar's parse tables
(``grammars.tables``) then run without Lark, the builder's methods (``builders.py``) making AST nodes
at each reduction. Lark itself is loaded only for a malformed text: its exception is what the
diagnostic is made from (``mistakes.syntax_diagnostic``). Lark exceptions never escape.
"""

from __future__ import annotations

import gc
from functools import partial
from pathlib import Path

from ..diagnostics import BOM, SOURCES, SourceError, read_source
from . import ast as A
from . import tables as lalr
from .builders import Builder, QuestionBuilder, ScenarioBuilder
from .grammars import parser, tables
from .mistakes import check_nesting, syntax_diagnostic


def parse_with(start: str, builder, text: str, path: str):
    """Parse ``text`` with grammar ``start`` (rules, scenario, log) and build it with ``builder``;
    raise ``SourceError`` with positioned diagnostics if it is malformed. A byte-order mark before the
    text is skipped (Windows editors write one), so columns on line 1 count as an editor shows them."""
    if text.startswith(BOM):
        text = text[1:]
    SOURCES.add(path, text)
    check_nesting(text, path)
    fast = tables(start)
    if fast is not None:
        # A parse makes a great many objects and frees few: the collector would only walk them.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return fast.parse(text, builder(path), partial(A.Span, path))
        except lalr.Unparsed:
            pass                        # malformed: Lark says where and what it expected
        finally:
            if collecting:
                gc.enable()
    from lark.exceptions import UnexpectedInput
    try:
        tree = parser(start).parse(text)
    except UnexpectedInput as exc:
        raise SourceError([syntax_diagnostic(exc, text, path, start)]) from None
    return builder(path).build(tree)


def parse_rules(text: str, path: str = "<string>") -> A.Module:
    """Parse a rules file; raise ``SourceError`` with positioned diagnostics if it is malformed."""
    return parse_with("rules", Builder, text, path)


def parse_rules_file(path: Path | str) -> A.Module:
    return parse_rules(read_source(path), str(path))


def parse_scenarios(text: str, path: str = "<string>") -> A.ScenarioFile:
    """Parse a scenario file; raise ``SourceError`` with positioned diagnostics if it is malformed."""
    return parse_with("scenario", ScenarioBuilder, text, path)


def parse_question(text: str, path: str = "<stdin>") -> A.ScenarioFile:
    """Parse a question put to ``ludex ask``: whole scenarios, or a bare script (one scenario's parts
    and steps without ``scenario "..." { }``), which becomes one scenario without a title; raise
    ``SourceError`` with diagnostics positioned in ``text`` if it is malformed."""
    return parse_with("question", QuestionBuilder, text, path)
