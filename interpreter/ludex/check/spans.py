"""Where a diagnostic points, read from the source text: a node's span (and a word, a count or a
reference it holds) in, the narrower span of that word out.

A node's span covers the whole construct; a message about one name in it (``cite 3.2``, ``move ...
to p.hand``, a deck list's count) points at that name, found on the source lines (``SOURCES``).
``references_in`` finds the rule numbers a reference text points at ("see 3.3", "step 1.2");
``source_words`` gives an expression as its author wrote it.
"""

from __future__ import annotations

import re

from ..diagnostics import SOURCES
from ..parse import ast as A

# "step 1.2", "see 3.3", "see section 600", "(see section 702)", "rule 500.1d"
_REFERENCE = re.compile(
    r"\b(?:[Ss]tep|[Ss]ee(?: section)?|[Ss]ection|[Rr]ule)s?\s+([0-9]+(?:\.[0-9]+)*[a-z]?)\b")


def references_in(text: str):
    """Rule numbers a reference text points at, with their offsets: ``step 3.2``, ``see section 600``."""
    for match in _REFERENCE.finditer(text):
        yield match.group(1), match.start(1)


def name_span(x: A.Attr) -> A.Span:
    """The span of the name in ``p.gold``: it ends where the attribute access ends."""
    s = x.span
    if s.end_line > 0 and s.end_column - len(x.name) >= 1:
        return A.Span(s.path, s.end_line, s.end_column - len(x.name), s.end_line, s.end_column)
    return s


def word_span(span: A.Span, word: str, after=None, before: str = "") -> A.Span:
    """The span of ``word`` (a name, or a text in quotes) inside ``span``, read from the source: the
    first whole-word match after the expression or title ``after`` and the regular expression
    ``before`` (e.g. ``cite\\s+``), if given; the whole span when it is not found."""
    if span.line <= 0:
        return span
    pattern = re.compile(rf"{before}(?<![\w-])({re.escape(word)})(?![\w-])")
    last = max(span.line, span.end_line)
    for number in range(span.line, last + 1):
        line = SOURCES.line(span.path, number)
        if line is None:
            break
        start = span.column - 1 if number == span.line else 0
        end = span.end_column - 1 if number == last and span.end_line == last else len(line)
        if number == span.line and isinstance(after, str):
            found = line.find(f'"{after}"', start)
            start = found + len(after) + 2 if found >= 0 else start
        elif getattr(after, "span", None) is not None and after.span.end_line == number:
            start = after.span.end_column - 1
        match = pattern.search(line, start, max(start, end))
        if match is not None:
            return A.Span(span.path, number, match.start(1) + 1, number, match.end(1) + 1)
    return span


def source_words(x, fallback: str = "this") -> str:
    """An expression as its author wrote it, when it stands on one line (for messages)."""
    span = x.span
    line = SOURCES.line(span.path, span.line) if span.line > 0 else None
    if line is not None and span.end_line == span.line and span.end_column > span.column:
        return line[span.column - 1: span.end_column - 1]
    return fallback


def count_span(span: A.Span, count: int, title: str) -> A.Span:
    """The span of a deck list's count: the number before ``"title"`` (else the title's span)."""
    title_span = word_span(span, f'"{title}"')
    line = SOURCES.line(span.path, title_span.line) if title_span.line > 0 else None
    if line is not None:
        match = None
        for match in re.finditer(rf"(?<![\w-]){count}(?=\s+\"{re.escape(title)}\")", line):
            pass
        if match is not None:
            return A.Span(span.path, title_span.line, match.start() + 1, title_span.line, match.end() + 1)
    return title_span


def reference_span(doc: A.Doc, ref: str, offset: int) -> A.Span:
    """Where "see 3.3" stands in the source of a text: the n-th reference to ``ref`` in the text is
    looked for on the source lines of the text (long text is re-flowed, so offsets do not carry)."""
    nth = sum(1 for r, o in references_in(doc.text) if r == ref and o < offset)
    seen = 0
    for number in range(doc.span.line, max(doc.span.line, doc.span.end_line) + 1):
        line = SOURCES.line(doc.span.path, number)
        if line is None:
            break
        first = doc.span.column - 1 if number == doc.span.line else 0
        for r, o in references_in(line[first:]):
            if r == ref:
                if seen == nth:
                    return A.Span(doc.span.path, number, first + o + 1, number, first + o + 1 + len(ref))
                seen += 1
    return doc.span
