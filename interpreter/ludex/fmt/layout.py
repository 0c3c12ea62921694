"""Text layout for the formatter: values in, string literals and fitted lines out.

- ``quote(value)``: a short ``"..."`` literal, escapes for ``\\``, ``"``, newlines and tabs.
- ``long_text(value, pad, head)``: a ``\"\"\"...\"\"\"`` literal wrapped at WIDTH columns, for rule
  texts (the parser joins a long string's lines into paragraphs, a blank line between two).
- ``board_text(value, pad, head)``: a board's drawing, one line of the drawing per line.
- ``as_written(literal, pad, head, unquote, value)``: a literal from the source, its line breaks kept;
  ``relaid(literal, unquote, value)`` the same inside a line of code (indented by ``fit``).
- ``fit(pad, code)``: one line of code, broken at its break marks when it is longer than WIDTH.
- ``trailed(line, comment)`` and ``align(items)``: a line with a comment at its end; the comments
  trailing a run of one-line items written out in one column.

Every literal is checked by unquoting it the way the parser does; None means "use a short literal".
The printer marks where a line may break with ``mark(rank)``; marks inside string literals are the
user's text, never break points.
"""

from __future__ import annotations

import re

from ..parse import builders

INDENT = "  "
WIDTH = 100
CONTINUATION = "  "             # the lines a statement is broken into, after its first
HEAD = "    "                   # the same for the line opening a block: deeper than the block's body
GAP = "  "                      # at least this much between code and a comment trailing it
COMMENTS = 50                   # the column trailing comments line up at, at the furthest

# Break ranks: the lowest rank at the outermost bracket depth breaks first (in a bracket, the commas
# between the items before the operators inside them). STATEMENT and FILL breaks put as many pieces
# on a line as fit; the others put every piece on a line of its own. THEN breaks a conditional
# before 'then' when breaking before its 'else' was not enough; BODY is the break after a
# quantifier's ':'.
STATEMENT, FILL, ELSE, THEN, BODY, OR, AND = range(7)
LINE = "\x03"              # the start of a long string's line after its first (see ``relaid``)
_MARK = "\x00"             # a break mark that is a space when the line does not break there
_TIGHT = "\x02"            # one that is nothing (right after an opening bracket)
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_LONG_STRING = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""')    # as the grammar's LONG_STRING
_BREAK = re.compile(r"(?<=\S) (?=\S)")     # where a long text's line may break: a single space


def mark(rank: int, tight: bool = False) -> str:
    """A space where a line may break (``tight``: no space, as right after an opening bracket)."""
    return (_TIGHT if tight else _MARK) + str(rank)


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
    return lines if builders.unquote(literal) == value else None


def as_written(literal: str, pad: str, head: str, unquote, value: str) -> list:
    """``head`` and a string literal from the source as lines: a long literal keeps its line breaks,
    its lines after the first indented as the line it starts on (the parser ignores a long string's
    indentation), unless that would change ``value`` (what ``unquote`` makes of it) or no longer be
    one literal (a blank after a backslash is an escape): then as written."""
    first, *rest = literal.split("\n")
    relaid = [(pad + head + first).rstrip()] + [pad + line.strip() if line.strip() else "" for line in rest]
    text = "\n".join(relaid)[len(pad + head):]
    if _LONG_STRING.fullmatch(text) and unquote(text) == value:
        return relaid
    return [pad + head + first] + rest


def relaid(literal: str, unquote, value: str) -> str:
    """A long literal from the source written on several lines, for code: each line after the
    first starts with LINE, which ``fit`` makes the indentation of the line's continuation (the
    parser ignores a long string's indentation); as written if that would change ``value`` or no
    longer be one literal."""
    first, *rest = literal.split("\n")
    lines = [first.rstrip()] + [LINE + line.strip() if line.strip() else "" for line in rest]
    text = "\n".join(lines)
    if _LONG_STRING.fullmatch(text.replace(LINE, INDENT)) and unquote(text.replace(LINE, INDENT)) == value:
        return text
    return literal


def board_text(value: str, pad: str, head: str):
    """A board's drawing of several lines as a long literal, or None if such a literal cannot hold it."""
    unquote_lines = getattr(builders, "unquote_lines", None)
    if unquote_lines is None or "\n" not in value:
        return None
    body = [(pad + INDENT + _escape_long(line, False)).rstrip() for line in value.split("\n")]
    lines = [pad + head + '"""'] + body + [pad + INDENT + '"""']
    literal = "\n".join(lines)[len(pad + head):]
    return lines if unquote_lines(literal) == value else None


# ------------------------------------------------------------------ fitting lines


def _marks(code: str) -> list:
    """(offset, bracket depth, rank) of every break mark outside string literals (a mark right
    after an opening bracket is inside it)."""
    found, depth, i = [], 0, 0
    while i < len(code):
        ch = code[i]
        if ch == '"':
            match = _LONG_STRING.match(code, i) or _STRING.match(code, i)
            i = match.end() if match else i + 1
            continue
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch in (_MARK, _TIGHT):
            found.append((i, depth, int(code[i + 1])))
            i += 1
        i += 1
    return found


def _split(code: str, offsets) -> tuple:
    """The pieces of the code between the marks at ``offsets``, and what joins each piece to the
    one before it when the line does not break there."""
    pieces, joints, start = [], [], 0
    for offset in offsets:
        pieces.append(code[start:offset])
        joints.append("" if code[offset] == _TIGHT else " ")
        start = offset + 2
    return pieces + [code[start:]], joints


def flat(code: str) -> str:
    """The line with every break mark a space (or nothing, for a tight one)."""
    pieces, joints = _split(code, [offset for offset, _, _ in _marks(code)])
    return pieces[0] + "".join(joint + piece for joint, piece in zip(joints, pieces[1:]))


def fit(pad: str, code: str, continuation: str = CONTINUATION, inside: str = "") -> list:
    """A line of code (with break marks) as lines of at most WIDTH columns where it can be done;
    the lines after the first are indented by ``continuation`` more, and by ``inside`` more again
    when they break inside brackets (so that, in the first piece of a line broken already, they
    stand deeper than the pieces after it). Code holding a long string written on several lines
    is not broken: its lines are the string's."""
    marks = _marks(code)
    if "\n" in code:           # a long string's line breaks (only those hold one): as they are
        return (pad + flat(code).replace("\n" + LINE, "\n" + pad + continuation)).split("\n")
    if not marks or len(pad) + len(flat(code)) <= WIDTH:
        return [pad + flat(code)]
    depth, rank = min((d, r) for _, d, r in marks)
    pieces, joints = _split(code, [offset for offset, d, r in marks if (d, r) == (depth, rank)])
    more = pad + continuation + (inside if depth else "")
    lines = [pieces[0]]
    for joint, piece in zip(joints, pieces[1:]):
        indent = pad if len(lines) == 1 else more
        if rank in (STATEMENT, FILL) and len(indent) + len(flat(lines[-1] + joint + piece)) <= WIDTH:
            lines[-1] += joint + piece
        else:
            lines.append(piece)
    out = fit(pad, lines[0], continuation, CONTINUATION)
    for line in lines[1:]:
        out += fit(more, line)
    return out


# ------------------------------------------------------------------ trailing comments


class Trailed(str):
    """A line of code (the string) with a comment at its end (``comment``), written out by ``align``."""

    comment: str

    def __new__(cls, code: str, comment: str):
        line = super().__new__(cls, code)
        line.comment = comment
        return line


class Remark(str):
    """A comment on a line of its own (told apart from code that starts with '#' in a string)."""


def trailed(line: str, comment: str) -> str:
    """The line with the comment at its end (None if it has one already: it keeps that one)."""
    if not comment:
        return line
    return None if isinstance(line, Trailed) else Trailed(line.rstrip(), comment)


def joined(line: str, more: str) -> str:
    """Code put after a line's code (a comment trailing ``more`` stays at the end)."""
    code = str.__str__(line) + " " + str.__str__(more).lstrip()
    return Trailed(code, more.comment) if isinstance(more, Trailed) else code


def align(items: list) -> list:
    """Items (each a list of lines) with their trailing comments written out. The comments of a
    run of items printed on one line each line up: GAP past the longest such line, but no further
    than COMMENTS (a longer line has its comment GAP past its code). Blank lines and comment lines
    do not end a run; an item printed on several lines does, and its comments are GAP past its code."""
    out, run = [list(item) for item in items], []

    def close():
        column = max((len(out[i][j]) + len(GAP) for i, j in run if len(out[i][j]) + len(GAP) <= COMMENTS),
                     default=0)
        for i, j in run:
            line = out[i][j]
            out[i][j] = (line.ljust(column) if len(line) + len(GAP) <= column else line + GAP) + line.comment
        run.clear()

    for i, item in enumerate(out):
        code = [j for j, line in enumerate(item) if line.strip() and not isinstance(line, Remark)]
        if len(code) == 1:
            if isinstance(item[code[0]], Trailed):
                run.append((i, code[0]))
            continue
        close()
        out[i] = [line + GAP + line.comment if isinstance(line, Trailed) else line for line in item]
    close()
    return out
