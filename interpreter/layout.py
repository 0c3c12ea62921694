"""Text layout for the formatter: values in, string literals and fitted lines out.

- ``quote(value)``: a short ``"..."`` literal, escapes for ``\\``, ``"``, newlines and tabs.
- ``long_text(value, pad, head)``: a ``\"\"\"...\"\"\"`` literal wrapped at WIDTH columns, for rule
  texts (the parser joins a long string's lines into paragraphs, a blank line between two).
- ``board_text(value, pad, head)``: a board's drawing, one line of the drawing per line.
- ``fit(pad, code)``: one line of code, broken at its break marks when it is longer than WIDTH.

Every literal is checked by unquoting it the way the parser does; None means "use a short literal".
The printer marks where a line may break with ``mark(rank)``; marks inside string literals are the
user's text, never break points.
"""

from __future__ import annotations

import re

from . import syntax

INDENT = "  "
WIDTH = 100
CONTINUATION = "    "

# Break ranks: the lowest rank at the outermost bracket depth breaks first (in a bracket, the commas
# between the items before the operators inside them). A FILL break puts as many pieces on a line as
# fit; the others put every piece on a line of its own.
STATEMENT, FILL, ELSE, OR, AND = range(5)
_MARK = "\x00"
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_BREAK = re.compile(r"(?<=\S) (?=\S)")     # where a long text's line may break: a single space


def mark(rank: int) -> str:
    """A space where a line may break."""
    return _MARK + str(rank)


def quote(value: str) -> str:
    """A short string literal."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def _escape_long(text: str, at_end: bool) -> str:
    """Text inside triple quotes: backslashes escaped, and every '"' that a '"' follows (or that
    ends the literal), so that no three quotes meet before the closing ones."""
    out = []
    for i, ch in enumerate(text):
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"' and (text[i + 1:i + 2] == '"' or (at_end and i + 1 == len(text))):
            out.append('\\"')
        else:
            out.append(ch)
    return "".join(out)


def long_text(value: str, pad: str, head: str):
    """``head\"\"\"value\"\"\"`` as lines wrapped at WIDTH, or None if such a literal cannot hold it."""
    paragraphs = value.split("\n\n")
    if not value or any(not p or p != p.strip() or "\n" in p for p in paragraphs):
        return None
    lines = []
    for i, paragraph in enumerate(paragraphs):
        last = i == len(paragraphs) - 1
        words = _BREAK.split(_escape_long(paragraph, last))
        if last:
            words[-1] += '"""'
        if i:
            lines.append("")
        line = pad + (head + '"""' if i == 0 else "") + words[0]
        for word in words[1:]:
            if len(line) + 1 + len(word) <= WIDTH:
                line += " " + word
            else:
                lines.append(line)
                line = pad + word
        lines.append(line)
    literal = "\n".join(lines)[len(pad + head):]
    return lines if syntax.unquote(literal) == value else None


def board_text(value: str, pad: str, head: str):
    """A board's drawing of several lines as a long literal, or None if such a literal cannot hold it."""
    unquote_lines = getattr(syntax, "unquote_lines", None)
    if unquote_lines is None or "\n" not in value:
        return None
    body = [(pad + INDENT + _escape_long(line, False)).rstrip() for line in value.split("\n")]
    lines = [pad + head + '"""'] + body + [pad + INDENT + '"""']
    literal = "\n".join(lines)[len(pad + head):]
    return lines if unquote_lines(literal) == value else None


# ------------------------------------------------------------------ fitting lines


def _marks(code: str) -> list:
    """(offset, bracket depth, rank) of every break mark outside string literals."""
    found, depth, i = [], 0, 0
    while i < len(code):
        ch = code[i]
        if ch == '"':
            match = _STRING.match(code, i)
            i = match.end() if match else i + 1
            continue
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == _MARK:
            found.append((i, depth, int(code[i + 1])))
            i += 1
        i += 1
    return found


def _split(code: str, offsets) -> list:
    pieces, start = [], 0
    for offset in offsets:
        pieces.append(code[start:offset])
        start = offset + 2
    return pieces + [code[start:]]


def flat(code: str) -> str:
    """The line with every break mark a space."""
    return " ".join(_split(code, [offset for offset, _, _ in _marks(code)]))


def fit(pad: str, code: str) -> list:
    """A line of code (with break marks) as lines of at most WIDTH columns where it can be done."""
    marks = _marks(code)
    if not marks or len(pad) + len(flat(code)) <= WIDTH:
        return [pad + flat(code)]
    depth, rank = min((d, r) for _, d, r in marks)
    pieces = _split(code, [offset for offset, d, r in marks if (d, r) == (depth, rank)])
    more = pad + CONTINUATION
    lines = [pieces[0]]
    for piece in pieces[1:]:
        indent = pad if len(lines) == 1 else more
        if rank == FILL and len(indent) + len(flat(lines[-1] + " " + piece)) <= WIDTH:
            lines[-1] += " " + piece
        else:
            lines.append(piece)
    out = fit(pad, lines[0])
    for line in lines[1:]:
        out += fit(more, line)
    return out
