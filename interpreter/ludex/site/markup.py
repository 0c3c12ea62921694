"""Markup: text from rules and scenarios in, safe HTML and Markdown out.

Everything a rules or scenario file says is escaped here, once: reference text, titles, notes,
questions, answers, trace lines and source code. Rule references in prose ("step 3.2", "see section
600", a bare "500.1d") become links, and so do the rule ids in highlighted source.
"""

from __future__ import annotations

import html
import posixpath
import re
import textwrap
from typing import Callable, Iterable, Optional

from pygments.token import STANDARD_TYPES, Name, Text, Whitespace

from ..check.spans import references_in
from ..diagnostics import SOURCES

#: A bare rule number in prose: dotted (``3.2``, ``500.1c``) or with a letter (``1a``); never a plain
#: integer, which is far more often a count than a rule.
_BARE = re.compile(r"(?<![\w.\-/])([0-9]+[a-z]?(?:\.[0-9]+[a-z]?)+|[0-9]+[a-z])(?![\w\-]|\.[0-9])")
#: The characters Python-Markdown lets a backslash escape (and no others: "\:" would show its backslash).
#: A heading id in prose (``myers-actions.staggered``, ``gameplay-in-detail``): linked only when the game has it,
#: and only when dotted or hyphenated (a plain word such as "setup" stays a word).
_NAMED = re.compile(r"(?<![\w.\-/])([a-z][a-z0-9]*(?:-[a-z0-9]+|\.[a-z][a-z0-9]*)+)(?![\w\-]|\.[a-z])")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!>])")


def esc(text) -> str:
    """HTML-escape anything from a rules or scenario file (quotes too: it may go into an attribute)."""
    return html.escape(str(text), quote=True)


def md_inline(text: str) -> str:
    """Text for a Markdown heading or link label: shown literally, whatever it contains."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def page_url(page: str) -> str:
    """The URL (relative to the site root) of a Markdown page: a/b.md -> a/b.html. The site is built
    without directory URLs (Material's offline plugin), so that every link works opened from disk."""
    return page[: -len(".md")] + ".html"


def href(from_page: str, to_page: str, anchor: str = "") -> str:
    """A relative link from one page to another (and an anchor on it)."""
    frag = f"#{anchor}" if anchor else ""
    if from_page == to_page:
        return frag or posixpath.basename(page_url(to_page))
    return posixpath.relpath(page_url(to_page), posixpath.dirname(from_page) or ".") + frag


def paragraphs(text: str) -> list[str]:
    """A long string's paragraphs, its line wrapping undone."""
    return [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]


class Linker:
    """Turns rule references into links, for one game, from one page."""

    def __init__(self, game, page: str):
        self.game = game            # collect.SiteGame
        self.page = page

    def rule_href(self, rid: str) -> Optional[str]:
        target = self.game.page_of.get(rid)
        return href(self.page, target, f"r{rid}") if target else None

    def rule_link(self, rid: str, label: Optional[str] = None, cls: str = "ludex-ref",
                  say_outside: bool = True) -> str:
        """A link to a rule; a rule outside the transcribed source says so; a rule the game does not
        have is plain text, marked."""
        gamedef = self.game.game
        rule = gamedef.rules.get(rid) if gamedef else None
        text = esc(label if label is not None else rid)
        url = self.rule_href(rid)
        if rule is None or url is None:
            return (f'<span class="ludex-ref-missing" title="Rule {esc(rid)} is not in this '
                    f'transcription">{text}</span>')
        title = esc(f"{rid} {rule.title}")
        if rule.outside:
            link = (f'<a class="{cls} ludex-ref-outside" href="{esc(url)}" title="{title} (outside the '
                    f'transcribed source)">{text}</a>')
            return link + (' <span class="ludex-outside-tag">outside the source</span>' if say_outside else "")
        return f'<a class="{cls}" href="{esc(url)}" title="{title}">{text}</a>'

    def prose(self, text: str, marks: Iterable = ()) -> str:
        """One paragraph of prose as HTML: escaped, its rule references linked. ``marks`` are
        (start, end, html-before, html-after): stretches of the text to wrap (an erratum's words)."""
        gamedef = self.game.game
        known = gamedef.rules if gamedef else {}
        spans = []
        for rid, start in references_in(text):
            spans.append((start, start + len(rid), "ref", rid))
        for m in _BARE.finditer(text):
            if m.group(1) in known:
                spans.append((m.start(1), m.end(1), "ref", m.group(1)))
        for m in _NAMED.finditer(text):
            if m.group(1) in known:
                spans.append((m.start(1), m.end(1), "ref", m.group(1)))
        for start, end, before, after in marks:
            spans.append((start, end, "mark", (before, after)))
        spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
        out, pos = [], 0
        for start, end, kind, data in spans:
            if start < pos:
                continue
            out.append(esc(text[pos:start]))
            if kind == "ref":
                out.append(self.rule_link(data))
            else:
                out.append(data[0] + esc(text[start:end]) + data[1])
            pos = end
        out.append(esc(text[pos:]))
        return "".join(out)


def _css_class(ttype) -> str:
    while ttype not in STANDARD_TYPES and ttype.parent is not None:
        ttype = ttype.parent
    return STANDARD_TYPES.get(ttype, "")


def highlight(code: str, lexer, link: Optional[Callable[[str], Optional[str]]] = None,
              language: str = "ludex", search: bool = False, caption: str = "") -> str:
    """Source code as highlighted HTML in the markup Material styles (``div.highlight > pre > code``);
    every ``Name.Label`` token (a rule id) for which ``link`` gives a URL becomes a link; a hyphenated name
    is kept whole where a long line wraps. The code is
    left out of the search index unless ``search``."""
    parts = []
    run_cls, run_text = None, []

    def flush():
        if run_text:
            body = esc("".join(run_text))
            parts.append(f'<span class="{run_cls}">{body}</span>' if run_cls else body)
            run_text.clear()

    for ttype, value in lexer.get_tokens(code):
        # plain names and whitespace look like plain text in Material's palette: no span for them,
        # and neighbouring tokens of one class share one (fewer tags make a large site build faster)
        cls = "" if ttype in Whitespace or ttype is Name or ttype is Text else _css_class(ttype)
        if link is not None and ttype in Name.Label:
            url = link(value)
            if url:
                flush()
                parts.append(f'<a class="ludex-code-ref {cls}" href="{esc(url)}">{esc(value)}</a>')
                continue
        if "-" in value and ttype in Name:
            # a wrapped line breaks between words, never inside a name at its hyphen ("defending-" on one
            # line, "player" on the next reads as two words)
            flush()
            parts.append(f'<span class="{(cls + " ").lstrip()}ludex-name">{esc(value)}</span>')
            continue
        if cls != run_cls:
            flush()
            run_cls = cls
        run_text.append(value)
    flush()
    text = "".join(parts).rstrip("\n")
    attr = "" if search else ' data-search-exclude="true"'
    cap = f'<span class="filename" data-search-exclude="true">{esc(caption)}</span>' if caption else ""
    return (f'<div class="language-{language} highlight">{cap}<pre{attr}><span></span><code>{text}\n'
            f'</code></pre></div>')


_LINES: dict = {}


def source_lines(path: str, first: int, last: int, cuts: Iterable = ()) -> str:
    """Lines ``first`` to ``last`` of a source file, dedented (each file is split into lines once).
    ``cuts`` are (span, replacement): each span's text (within those lines) is replaced."""
    lines = _lines(path)[max(first, 1) - 1: last]
    for span, replacement in sorted(cuts, key=lambda c: (c[0].line, c[0].column), reverse=True):
        a, b = span.line - first, span.end_line - first
        if not (0 <= a <= b < len(lines)):
            continue
        head, tail = lines[a][: span.column - 1], lines[b][span.end_column - 1:]
        lines[a: b + 1] = [head + replacement + tail]
    return dedent("\n".join(lines))


def file_lines(path: str) -> list:
    """A source file's lines (read once; a file that cannot be read has none)."""
    return _lines(path)


def _lines(path: str) -> list:
    lines = _LINES.get(path)
    if lines is None:
        text = SOURCES._texts.get(path)
        if text is None:
            try:
                text = open(path, encoding="utf-8").read()
            except OSError:
                text = ""
        lines = _LINES[path] = text.splitlines()
    return lines


def forget_sources() -> None:
    _LINES.clear()


def dedent(text: str) -> str:
    return textwrap.dedent(text)
