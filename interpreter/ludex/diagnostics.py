"""Errors as values with positions, and the one place they are rendered.

In: spans (``Span``: where a node or a mistake sits in its source). Out: ``Diagnostic`` values (collected by every pass) and their rendering as
``path:line:col: error[code]: message``, the source line, a caret under the span, secondary spans
("first defined here"), what was expected, and the rule id in whose block the error sits.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional


@dataclass(frozen=True, slots=True)
class Span:
    """Where a node sits in its source: 1-based line and column, end exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Related:
    """A secondary span: where something was first defined, or what a message refers to."""

    span: Span
    message: str


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a user's file. ``kind`` is its class: syntax, static, runtime,
    scenario or violation; each class has its own exit code."""

    kind: str
    code: str
    message: str
    span: Span
    rule: str = ""
    expected: str = ""
    related: tuple = ()
    hint: str = ""

    def sort_key(self):
        return (self.span.path, self.span.line, self.span.column, self.code)

    def as_json(self) -> dict:
        """The diagnostic as data, as ``ludex check --json`` and ``ludex ask --json`` give it."""
        return {"path": self.span.path, "line": self.span.line, "column": self.span.column, "code": self.code,
                "message": self.message, "rule": self.rule, "kind": self.kind, "expected": self.expected,
                "hint": self.hint}


class LudexError(Exception):
    """The one root of every error Ludex reports about a user's files. Carries diagnostics."""

    exit_code = 3

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(d.message for d in self.diagnostics))


class SourceError(LudexError):
    """Syntax or static errors in a rules or scenario file (exit code 3)."""

    exit_code = 3


class RuntimeRuleError(LudexError):
    """A rule that cannot run: a loop that never ends, a value of the wrong kind (exit code 3)."""

    exit_code = 3


class ForcedPickRefused(RuntimeRuleError):
    """A random pick fixed (by a scenario's ``force pick`` or a log's entry) to what the rule does not
    pick from: ``forced`` in words, and the rule's ``options`` in words. Its readers say whose mistake
    it is (the script's line, the log's entry)."""

    def __init__(self, diagnostics, forced: str, options: str):
        super().__init__(diagnostics)
        self.forced, self.options = forced, options


class Sources:
    """The text of every file read, so that a diagnostic can quote its line."""

    def __init__(self):
        self._texts: dict[str, str] = {}
        self._lines: dict[str, list] = {}

    def add(self, path: str, text: str) -> None:
        self._texts[path] = text
        self._lines.pop(path, None)

    def text(self, path: str) -> Optional[str]:
        """The whole text of a file added (None if it was not)."""
        return self._texts.get(path)

    def line(self, path: str, number: int) -> Optional[str]:
        lines = self._lines.get(path)
        if lines is None:
            text = self._texts.get(path)
            if text is None:
                try:
                    text = read_source(path)
                except SourceError as exc:
                    # a file refused as not text (E001) is still quoted, so its error shows its line
                    if exc.diagnostics[0].code != "E001":
                        return None
                    text = _quotable(path)
                except (OSError, LudexError):     # gone or unreadable: nothing to quote
                    return None
                if text is None:
                    return None
                self._texts[path] = text
            # Lines end at "\n" alone, as the parser counts them: ``splitlines`` would also end one at
            # a form feed, a lone "\r", U+0085 or U+2028 and quote the wrong line. A "\r" before the
            # "\n" (Windows) is not part of the line.
            lines = text.split("\n")
            if lines[-1] == "":
                lines.pop()             # (the text ends with a line end: there is no line after it)
            lines = self._lines[path] = [line[:-1] if line.endswith("\r") else line for line in lines]
        if 1 <= number <= len(lines):
            return lines[number - 1]
        if number == len(lines) + 1:
            return ""
        return None


SOURCES = Sources()

#: The byte-order mark some editors (Windows Notepad) write at the start of a UTF-8 file: not text.
BOM = "\ufeff"


def read_source(path) -> str:
    """The text of a user's file (rules, scenario or log), a leading byte-order mark skipped. A file
    that is not UTF-8, or holds a NUL character, raises ``SourceError`` with one E001 diagnostic at
    its first bad byte (its line is quoted with U+FFFD for the bad bytes, see ``_quotable``); so does
    one whose lines end in a lone carriage return, at the first. A path that cannot be read (a folder,
    a link to a file that is gone, no permission) raises ``SourceError`` with one E000 diagnostic."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SourceError([_unreadable(str(path), exc)]) from None
    return _decoded(data, str(path))


def decode_source(data: bytes, path: str) -> str:
    """The text of what a user gave other than as a file (standard input, named ``path``), as
    ``read_source`` reads a file's: the same E001 errors, the line of each kept to be quoted."""
    try:
        return _decoded(data, path)
    except SourceError:
        SOURCES.add(path, _quotable_text(data))
        raise


def _decoded(data: bytes, path: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError([_not_utf8(path, data, exc)]) from None
    if "\x00" in text:
        raise SourceError([_nul(path, text)])
    text = text[1:] if text.startswith(BOM) else text
    if "\n" not in text and "\r" in text.rstrip("\r"):
        raise SourceError([_lone_carriage_returns(path, text)])
    return text


def _quotable(path) -> Optional[str]:
    """The text of a file ``read_source`` refused with E001, only to quote the line of that error:
    bytes that are not UTF-8 and NUL characters become U+FFFD (the caret's column is counted before the
    first of them, so it lands on it), and lone carriage returns end lines, so the first line is quoted
    rather than the whole file. None if the file cannot be read now."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    return _quotable_text(data)


def _quotable_text(data: bytes) -> str:
    """``_quotable``, of a text's bytes."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", "replace")
    else:
        if "\x00" not in text:     # valid and no NUL: refused for its lone carriage returns
            text = text.replace("\r", "\n")
    text = text.replace("\x00", "\ufffd")
    return text[1:] if text.startswith(BOM) else text


def _lone_carriage_returns(path: str, text: str) -> Diagnostic:
    """E001 at the first line end of a file whose lines end in a lone carriage return (as Mac OS 9 and
    some old editors save text). Lines end at "\n" (LF, or CR LF), so such a file reads as one line:
    all of it after a comment on its first line would be that comment, and a rules, scenario or log
    file would lose its contents without a word (a scenario file ran none of its scenarios)."""
    column = text.index("\r") + 1
    return Diagnostic("syntax", "E001", "the file's lines end in a lone carriage return (CR, byte 0x0d), "
                      "so it would read as one line", Span(path, 1, column, 1, column + 1),
                      hint="save the file with LF or CR LF line ends")


def _unreadable(path: str, exc: OSError) -> Diagnostic:
    """E000 at a file that cannot be read, saying why in the user's words (not Python's)."""
    if isinstance(exc, IsADirectoryError):
        why, hint = "it is a folder, not a file", "rename the folder, or move it out of the rules and scenarios"
    elif isinstance(exc, FileNotFoundError):
        why, hint = "there is no such file (a link to a file that is gone?)", "remove the link, or restore its file"
    elif isinstance(exc, PermissionError):
        why, hint = "permission denied", "make the file readable"
    else:
        why, hint = exc.strerror or "the system refused to read it", ""
    return Diagnostic("syntax", "E000", f"cannot read {path}: {why}", Span(path, 1, 1, 1, 2), hint=hint)


def _nul(path: str, text: str) -> Diagnostic:
    """E001 at a file's first NUL character: text files hold none (a binary file, or a damaged one)."""
    at = text.index("\x00")
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1 - (1 if line == 1 and text.startswith(BOM) else 0)
    return Diagnostic("syntax", "E001", "the file is not text: it holds a NUL character (byte 0x00) here",
                      Span(path, line, column, line, column + 1), hint="save the file as UTF-8 text")


def _not_utf8(path: str, data: bytes, exc: UnicodeDecodeError) -> Diagnostic:
    """E001 at the first byte that is not UTF-8, its column counted in characters as an editor does."""
    line = data.count(b"\n", 0, exc.start) + 1
    line_start = data.rfind(b"\n", 0, exc.start) + 1
    column = len(data[line_start:exc.start].decode("utf-8")) + 1   # all valid before the bad byte
    if line == 1 and data.startswith(BOM.encode("utf-8")):
        column -= 1
    return Diagnostic("syntax", "E001", f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x} here: "
                      f"{exc.reason})", Span(path, line, column, line, column + 1),
                      hint="save the file as UTF-8 text")


def _quote(span: Span, sources: Sources, marker: str = "^") -> list[str]:
    """The source line of a span and a caret (or an underline) under it."""
    text = sources.line(span.path, span.line)
    if text is None or span.line <= 0:
        return []
    width = len(str(span.line))
    gutter = " " * width
    start = max(span.column, 1)
    if span.end_line == span.line and span.end_column > start:
        length = span.end_column - start
    else:
        length = max(1, len(text) - start + 1) if marker != "^" else 1
    length = max(1, min(length, max(1, len(text) - start + 1)))
    # The caret goes as far across as the characters before it take on screen: a wide (East Asian)
    # character takes two columns, a combining mark none, a tab is copied (the terminal's tab stops
    # then apply to both lines alike).
    underline = marker * max(1, _width(text[start - 1:start - 1 + length]))
    prefix = "".join(ch if ch == "\t" else " " * _width(ch) for ch in text[: start - 1])
    return [f"{gutter} |", f"{span.line} | {text.translate(_UNPRINTABLE)}", f"{gutter} | {prefix}{underline}"]


#: Characters a terminal would act on rather than show (a lone carriage return, a form feed, the
#: Unicode line and paragraph separators): quoted as a space, one column, so the caret stays in line.
_UNPRINTABLE = {c: " " for c in [*range(0x00, 0x09), *range(0x0a, 0x20), *range(0x7f, 0xa0), 0x2028, 0x2029]}


def _width(text: str) -> int:
    """How many columns ``text`` takes on a terminal (a tab counted as one)."""
    width = 0
    for ch in text:
        if ch.isascii():
            width += 1
        elif unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
            continue
        else:
            width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def render(diagnostic: Diagnostic, sources: Sources = SOURCES) -> str:
    """Render one diagnostic the way a compiler would."""
    d = diagnostic
    head = f"{d.span}: error[{d.code}]: {d.message}"
    if d.rule:
        head += f" (in rule {d.rule})"
    lines = [head]
    lines += _quote(d.span, sources)
    if d.expected:
        lines.append(f"  = expected: {d.expected}")
    for related in d.related:
        lines.append(f"  = note: {related.span}: {related.message}")
        lines += ["    " + line for line in _quote(related.span, sources, "-")]
    if d.hint:
        lines.append(f"  = help: {d.hint}")
    return "\n".join(lines)


def render_all(diagnostics: Iterable[Diagnostic], sources: Sources = SOURCES) -> str:
    """Every diagnostic in file order, then a count."""
    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    if not ordered:
        return ""
    body = "\n\n".join(render(d, sources) for d in ordered)
    count = len(ordered)
    return f"{body}\n\n{count} error{'s' if count != 1 else ''} found"


def error(kind: str, code: str, message: str, span: Span, **extra) -> Diagnostic:
    return Diagnostic(kind=kind, code=code, message=message, span=span, **extra)


def source_text(expr, fallback: str = "the expression") -> str:
    """An expression as its author wrote it (one line), for messages."""
    span = expr.span
    line = SOURCES.line(span.path, span.line)
    if line is not None and span.end_line == span.line:
        return line[span.column - 1: span.end_column - 1]
    return fallback
