"""Boards: a grid of named spaces drawn in text, its geometry, and rows of cards, as built-ins.

In: the text of a ``board NAME "..."`` drawing (and where it sits in its file). Out: a ``Board`` value
(spaces, typed edges, marks, quadrants), its geometry worked out once as plain tables indexed by
space (``Geometry``: neighbours, lines, rays and lines of sight, quadrants, marked spaces), and the
built-ins the rules call on it, which read those tables (``line-of-sight``,
``spaces-within``, ``quadrants`` ...), plus the row built-ins (``left-end``, ``row-adjacent`` ...).
Nothing here knows a game: a board says which spaces are marked "search" or "car"; the rules say what
that means.

The drawing format, the geometry (facing, line of sight, movement) and rows of cards are described
for rules writers in ``docs/boards.md``; the built-ins below carry their own documentation, which the
rules site's built-ins page shows. In short: a grid in ASCII art, ``+`` posts every fourth character,
the line between two spaces drawn as ``' '`` open, ``|``/``---`` wall, ``/``/``///`` door, ``:``/``:::``
window, ``#``/``###`` hedge (``EDGE_KINDS``); marks inside a space declared by ``mark SYMBOL TAG``
lines; ``quadrant NAME rows A-B [columns C-D]`` lines. A drawing that breaks the format raises
``SourceError`` with one ``Diagnostic`` (B001 to B019) at the fault's line and column in the file:
given the ``span`` of the ``board`` declaration, ``Board.parse`` finds the drawing's lines in that
file, so that the position is the one a reader sees even when the drawing reached it dedented (without
a span, the position is counted inside the drawing, path ``<board>``). ``Board.from_literal`` takes a
string literal as written (quotes included) and its span.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Iterable, Optional

from ..diagnostics import SOURCES, Diagnostic, SourceError
from ..parse.ast import Span
from .registry import _items, builtin
from .state import Zone

# ------------------------------------------------------------------ vocabulary


@dataclass(frozen=True)
class EdgeKind:
    """What a kind of line between two spaces does."""

    name: str
    column_char: str      # drawn between two columns (on a row line)
    row_chars: str        # drawn between two rows (on a separator line)
    blocks_sight: bool
    crossing: str         # "free", "action" or "blocked": what moving across it costs
    blocks_attack: bool


EDGE_KINDS: dict[str, EdgeKind] = {k.name: k for k in (
    EdgeKind("open", " ", "   ", False, "free", False),
    EdgeKind("wall", "|", "---", True, "blocked", True),
    EdgeKind("door", "/", "///", True, "free", False),
    EdgeKind("window", ":", ":::", False, "action", False),
    EdgeKind("hedge", "#", "###", True, "action", False),
    EdgeKind("outside", "", "", True, "blocked", True),
)}

_BY_COLUMN_CHAR = {k.column_char: k.name for k in EDGE_KINDS.values() if k.column_char}
_BY_ROW_CHARS = {k.row_chars: k.name for k in EDGE_KINDS.values() if k.row_chars}
#: Characters that draw the grid; they cannot be marks.
RESERVED = frozenset("+|-/:#")

FACINGS = ("north", "east", "south", "west")
_DELTA = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
#: The edges an ordinary step crosses: those free to move through.
FREE = ("open", "door")
_BLOCKS_SIGHT = frozenset(k.name for k in EDGE_KINDS.values() if k.blocks_sight)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_WORD = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*"
_TAG = re.compile(rf"({_WORD})(?:=({_WORD}))?$")
_NAME = re.compile(r"([A-Z])([1-9][0-9]*)$")


class BoardError(ValueError):
    """A built-in asked about something the board does not have (a space, a facing), or given
    something that is not a board. The engine reports it at the call in the rules."""


class Space(str):
    """A space: its name as text (``"A12"``, equal to the text ``"A12"``), with its column letter,
    column index (0 for A) and row number."""

    def __new__(cls, col: int, row: int):
        self = super().__new__(cls, f"{LETTERS[col]}{row}")
        self.column = LETTERS[col]
        self.col = col
        self.row = row
        return self

    def __reduce__(self):
        return (Space, (self.col, self.row))


def coordinates(name) -> Optional[tuple[int, int]]:
    """(column index, row) of a space or a space's name, or None if it is not a space name."""
    if isinstance(name, Space):
        return name.col, name.row
    m = _NAME.match(str(name)) if isinstance(name, str) else None
    return (LETTERS.index(m.group(1)), int(m.group(2))) if m else None


def check_facing(facing) -> str:
    if facing not in _DELTA:
        raise BoardError(f"a facing is north, east, south or west, not {facing!r}")
    return facing


def facing_toward(a, b) -> Optional[str]:
    """The facing from space a straight towards space b, or None if they share no row or column."""
    ca, cb = coordinates(a), coordinates(b)
    if ca is None or cb is None:
        raise BoardError(f"{a if ca is None else b!r} is not a space")
    (x1, y1), (x2, y2) = ca, cb
    if (x1, y1) == (x2, y2) or (x1 != x2 and y1 != y2):
        return None
    if x1 == x2:
        return "north" if y2 < y1 else "south"
    return "west" if x2 < x1 else "east"


# ------------------------------------------------------------------ the board


@dataclass(frozen=True)
class QuadrantPart:
    """One rectangle of a quadrant: rows and column indexes, both ends included."""

    name: str
    first_row: int
    last_row: int
    first_col: int
    last_col: int

    def __contains__(self, space: Space) -> bool:
        return self.first_row <= space.row <= self.last_row and self.first_col <= space.col <= self.last_col


class Geometry:
    """A board's geometry worked out once, as plain tables indexed by space, for the built-ins to read
    instead of working it out at every call: made from the board's spaces, lines and marks at the first
    question asked of it (after its drawing is read), and dropped only if a line is drawn again
    (``Board.set_edge``). A table is a dict keyed by ``Space``, which hashes as its name: a name finds
    its space's entry too. Nothing here knows a game: any drawing gives its own tables."""

    __slots__ = ("index", "step", "side", "around", "between", "ray", "sight", "quadrants", "quadrant_spaces",
                 "marked")

    def __init__(self, board: "Board"):
        spaces, at, drawn = board.spaces, board.at, board._edges
        #: space -> its place in board order
        self.index = {s: i for i, s in enumerate(spaces)}
        #: facing -> space -> the neighbour on that side, None at the board's edge
        self.step = {f: {s: at(s.col + dx, s.row + dy) for s in spaces} for f, (dx, dy) in _DELTA.items()}
        #: facing -> space -> the kind of line on that side, "outside" at the board's edge
        self.side = {f: {s: "outside" if n is None else drawn.get(frozenset((s, n)), "open")
                         for s, n in self.step[f].items()} for f in FACINGS}
        #: space -> its neighbours and the lines to them, ((neighbour, kind), ...) north, east, south, west
        self.around = {s: tuple((self.step[f][s], self.side[f][s]) for f in FACINGS if self.step[f][s] is not None)
                       for s in spaces}
        #: (space, neighbour) -> the kind of line between them, either way round
        self.between = {(s, n): kind for s in spaces for n, kind in self.around[s]}
        #: facing -> space -> the spaces straight ahead to the board's edge, nearest first, each with the
        #: line crossed to reach it: ((space, kind), ...)
        self.ray = {}
        #: facing -> space -> its line of sight when no one is beside a door (``Board.line_of_sight``)
        self.sight = {}
        for f in FACINGS:
            step, side, rays, sights = self.step[f], self.side[f], {}, {}
            for s in spaces:
                ray, here = [], s
                while (there := step[here]) is not None:
                    ray.append((there, side[here]))
                    here = there
                rays[s] = tuple(ray)
                seen = []
                for there, kind in ray:
                    if kind in _BLOCKS_SIGHT:
                        break
                    seen.append(there)
                sights[s] = tuple(seen)
            self.ray[f], self.sight[f] = rays, sights
        parts = board.quadrant_parts
        #: space -> the names of the quadrants it is in, in the order declared
        self.quadrants = {s: tuple(dict.fromkeys(q.name for q in parts if s in q)) for s in spaces}
        #: quadrant name -> its spaces in board order
        self.quadrant_spaces = {name: tuple(s for s in spaces if name in self.quadrants[s])
                                for name in dict.fromkeys(q.name for q in parts)}
        #: tag word -> ((space, its value), ...) of the spaces carrying it, in board order
        self.marked: dict[str, tuple] = {}
        for s in spaces:
            for word, value in board.marks[s].items():
                self.marked[word] = self.marked.get(word, ()) + ((s, value),)


class Board:
    """A grid of spaces with typed edges between neighbours, marks on spaces and named quadrants.

    Build one with ``Board.parse(drawing, span)``. Every method takes spaces as ``Space`` values or
    their names ("A12") and returns ``Space`` values, in board order (row by row, west to east)
    unless it says otherwise."""

    def __init__(self, width: int, height: int, *, cells: dict[str, str] | None = None,
                 edges: dict[tuple[str, str], str] | None = None,
                 legend: dict[str, tuple[tuple[str, Optional[str]], ...]] | None = None,
                 quadrants: Iterable[QuadrantPart] = ()):
        if not (1 <= width <= len(LETTERS)) or height < 1:
            raise BoardError(f"a board has 1 to {len(LETTERS)} columns and at least one row")
        self.width = width
        self.height = height
        self.columns = LETTERS[:width]
        self.spaces: list[Space] = [Space(c, r) for r in range(1, height + 1) for c in range(width)]
        self._by_name = {str(s): s for s in self.spaces}
        #: each space's drawn cell, three characters (for drawing the board again)
        self.cells: dict[Space, str] = {s: "   " for s in self.spaces}
        self.legend: dict[str, tuple[tuple[str, Optional[str]], ...]] = dict(legend or {})
        self.marks: dict[Space, dict[str, Optional[str]]] = {s: {} for s in self.spaces}
        self._edges: dict[frozenset, str] = {}
        self._geometry: Optional[Geometry] = None         # made at the first question (``geometry``)
        self.quadrant_parts: tuple[QuadrantPart, ...] = tuple(quadrants)
        for name, cell in (cells or {}).items():
            s = self.space(name)
            self.cells[s] = cell.center(3) if len(cell) < 3 else cell
            for symbol in cell.replace(" ", ""):
                if symbol not in self.legend:
                    raise BoardError(f"the mark {symbol!r} of {name} is not in the legend")
                for word, value in self.legend[symbol]:
                    self.marks[s][word] = value
        for (a, b), kind in (edges or {}).items():
            self.set_edge(a, b, kind)

    # -- construction
    @classmethod
    def parse(cls, drawing: str, span: Optional[Span] = None) -> "Board":
        """The board a drawing describes; ``SourceError`` at the fault's line and column if it breaks
        the format. ``span``: where the ``board`` declaration (or the drawing's text) sits in its file,
        if it has one; error positions then point into that file (see "Errors" above)."""
        return _Parser(drawing, span).board()

    @classmethod
    def from_literal(cls, literal: str, span: Span) -> "Board":
        """The board of a string literal exactly as written in a file (quotes included), ``span``
        being the literal's position: error positions then point into the file."""
        quote = '"""' if literal.startswith('"""') else '"'
        if not (literal.startswith(quote) and literal.endswith(quote) and len(literal) >= 2 * len(quote)):
            raise BoardError("a board drawing is text in quotes")
        origin = Span(span.path, span.line, span.column + len(quote), span.line, span.column + len(quote))
        return cls.parse(literal[len(quote):-len(quote)], origin)

    def set_edge(self, a, b, kind: str) -> None:
        a, b = self.space(a), self.space(b)
        if not self.adjacent(a, b):
            raise BoardError(f"{a} and {b} are not neighbours")
        if kind not in EDGE_KINDS or kind == "outside":
            raise BoardError(f"unknown edge kind {kind!r}")
        key = frozenset((a, b))
        self._geometry = None
        if kind == "open":
            self._edges.pop(key, None)
        else:
            self._edges[key] = kind

    @property
    def geometry(self) -> Geometry:
        """The board's tables (``Geometry``), made at the first question asked of it."""
        g = self._geometry
        if g is None:
            g = self._geometry = Geometry(self)
        return g

    # -- spaces
    def space(self, name) -> Space:
        """The space with this name; ``BoardError`` if the board has none."""
        if type(name) is Space or type(name) is str:      # hashed and compared as its text: no copy
            s = self._by_name.get(name)
        else:
            s = self._by_name.get(str(name)) if isinstance(name, str) else None
        if s is None:
            raise BoardError(f"there is no space {name!r} on this board "
                             f"(columns A-{self.columns[-1]}, rows 1-{self.height})")
        return s

    def __contains__(self, name) -> bool:
        return isinstance(name, str) and str(name) in self._by_name

    def at(self, col: int, row: int) -> Optional[Space]:
        if 0 <= col < self.width and 1 <= row <= self.height:
            return self.spaces[(row - 1) * self.width + col]
        return None

    def neighbour(self, s, facing: str) -> Optional[Space]:
        """The space next to s in the direction ``facing``, or None at the board's edge."""
        s = self.space(s)
        step = (self._geometry or self.geometry).step
        return step[facing if type(facing) is str and facing in step else check_facing(facing)][s]

    def neighbours(self, s, through: Optional[Iterable[str]] = None) -> list[Space]:
        """The orthogonal neighbours of s (north, east, south, west order); with ``through``, only those
        across an edge of one of those kinds."""
        around = (self._geometry or self.geometry).around[self.space(s)]
        if through is None:
            return [n for n, _ in around]
        allowed = _kinds(through)
        return [n for n, kind in around if kind in allowed]

    def adjacent(self, a, b) -> bool:
        """Whether two spaces are orthogonal neighbours (whatever lies between them)."""
        a, b = self.space(a), self.space(b)
        return abs(a.col - b.col) + abs(a.row - b.row) == 1

    # -- edges
    def edge(self, a, b) -> Optional[str]:
        """The kind of line between a and b, where b is a neighbouring space or a facing ("outside" at
        the board's edge); None if b is a space that is not a neighbour of a."""
        a = self.space(a)
        g = self._geometry or self.geometry
        if b in _DELTA:
            return g.side[b][a]
        return g.between.get((a, self.space(b)))

    def crossing(self, a, b) -> Optional[str]:
        """What moving from a to its neighbour b costs: "free" (open, door), "action" (window, hedge)
        or "blocked" (wall, the board's edge); None if they are not neighbours."""
        kind = self.edge(a, b)
        return None if kind is None else EDGE_KINDS[kind].crossing

    def step_cost(self, a, b, through: Iterable[str] = FREE) -> Optional[int]:
        """1 if a figure may step from a to its neighbour b across an edge of a kind in ``through``,
        None if it may not."""
        kind = self.edge(a, b)
        return 1 if kind is not None and kind in _kinds(through) else None

    def edges(self) -> dict[tuple[Space, Space], str]:
        """Every edge that is not open, as (space, space) in board order -> kind."""
        pairs = (tuple(sorted(k, key=lambda s: (s.row, s.col))) for k in self._edges)
        return {p: self._edges[frozenset(p)] for p in sorted(pairs, key=lambda p: (p[0].row, p[0].col,
                                                                                   p[1].row, p[1].col))}

    # -- straight lines
    def spaces_ahead(self, s, facing: str, through: Iterable[str] = FREE) -> list[Space]:
        """The spaces straight ahead of s, nearest first, up to the first edge whose kind is not in
        ``through`` or the board's edge."""
        allowed = _kinds(through)
        out = []
        for there, kind in self._ray(s, facing):
            if kind not in allowed:
                break
            out.append(there)
        return out

    def line_of_sight(self, s, facing: str, beside: Iterable = ()) -> list[Space]:
        """What a figure on s facing ``facing`` sees: from the space in front, straight ahead until an
        edge that blocks sight (wall, hedge, door, the board's edge). A door does not block when a
        space on either side of it is in ``beside``."""
        near = {self.space(x) for x in beside}
        s = self.space(s)
        g = self._geometry or self.geometry
        facing = facing if type(facing) is str and facing in g.sight else check_facing(facing)
        if not near:
            return list(g.sight[facing][s])
        out, here = [], s
        for there, kind in g.ray[facing][s]:
            if kind in _BLOCKS_SIGHT and not (kind == "door" and (here in near or there in near)):
                break
            out.append(there)
            here = there
        return out

    def in_sight(self, s, facing: str, target, beside: Iterable = ()) -> bool:
        """Whether ``target`` is in the line of sight of s facing ``facing``."""
        return self.space(target) in self.line_of_sight(s, facing, beside)

    def _ray(self, s, facing) -> tuple:
        """The spaces straight ahead of s to the board's edge, each with the line crossed to reach it."""
        s = self.space(s)
        ray = (self._geometry or self.geometry).ray
        return ray[facing if type(facing) is str and facing in ray else check_facing(facing)][s]

    def in_line(self, a, b) -> bool:
        """Whether two different spaces share a row or a column."""
        return facing_toward(self.space(a), self.space(b)) is not None

    def straight_distance(self, a, b) -> Optional[int]:
        """How many spaces b is from a in a straight line (1 for a neighbour), None if not in line."""
        a, b = self.space(a), self.space(b)
        return abs(a.col - b.col) + abs(a.row - b.row) if self.in_line(a, b) else None

    def straight_line(self, a, b) -> list[Space]:
        """The spaces from a towards b in a straight line, a excluded and b included; [] if not in line."""
        a, b = self.space(a), self.space(b)
        facing = facing_toward(a, b)
        if facing is None:
            return []
        n = abs(a.col - b.col) + abs(a.row - b.row)
        return [there for there, _ in (self._geometry or self.geometry).ray[facing][a][:n]]

    # -- movement
    def reachable(self, s, n: Optional[int] = None, through: Iterable[str] = FREE,
                  avoid: Iterable = ()) -> dict[Space, int]:
        """Every space reachable from s in at most n orthogonal steps (any number if n is None), each
        step across an edge of a kind in ``through``, never entering a space in ``avoid``, with its
        fewest steps. s itself is included, at 0."""
        start, allowed = self.space(s), _kinds(through)
        blocked = {self.space(x) for x in avoid}
        around = (self._geometry or self.geometry).around
        steps = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            far = steps[here]
            if n is not None and far >= n:
                continue
            far += 1
            for there, kind in around[here]:
                if there in steps or there in blocked or kind not in allowed:
                    continue
                steps[there] = far
                queue.append(there)
        return steps

    def spaces_within(self, s, n: int, through: Iterable[str] = FREE, avoid: Iterable = ()) -> list[Space]:
        """The spaces a figure on s can reach in 1 to n steps (s itself excluded), in board order."""
        steps = self.reachable(s, n, through, avoid)
        return sorted((x for x, far in steps.items() if far > 0), key=self.geometry.index.__getitem__)

    def steps_between(self, a, b, through: Iterable[str] = FREE, avoid: Iterable = ()) -> Optional[int]:
        """The fewest steps from a to b (0 if they are the same), None if b cannot be reached."""
        return self.reachable(a, None, through, avoid).get(self.space(b))

    # -- marks and quadrants
    def marked(self, s, word: str, value: Optional[str] = None) -> bool:
        """Whether s carries the tag ``word`` (and, if ``value`` is given, with that value)."""
        marks = self.marks[self.space(s)]
        return word in marks and (value is None or marks[word] == value)

    def mark_value(self, s, word: str) -> Optional[str]:
        """The value of s's tag ``word`` (``search=red`` gives "red"); None if s has no such tag or the
        tag has no value."""
        return self.marks[self.space(s)].get(word)

    def marked_spaces(self, word: str, value: Optional[str] = None) -> list[Space]:
        """Every space carrying the tag ``word`` (with that value, if given), in board order."""
        return [s for s, v in (self._geometry or self.geometry).marked.get(word, ()) if value is None or v == value]

    @property
    def quadrant_names(self) -> list[str]:
        """The quadrants' names, in the order first declared."""
        return list(dict.fromkeys(q.name for q in self.quadrant_parts))

    def quadrants(self, s) -> list[str]:
        """The names of the quadrants s is in, in the order declared (two on a shared middle row)."""
        return list((self._geometry or self.geometry).quadrants[self.space(s)])

    def quadrant_spaces(self, name: str) -> list[Space]:
        """The spaces of a quadrant, in board order; ``BoardError`` for an unknown name."""
        found = (self._geometry or self.geometry).quadrant_spaces.get(name) if isinstance(name, str) else None
        if found is None:
            known = ", ".join(self.quadrant_names) or "none"
            raise BoardError(f"this board has no quadrant {name!r} (it has {known})")
        return list(found)

    # -- drawing it again
    def picture(self, pieces: dict) -> str:
        """The grid alone, with ``pieces`` (space -> up to 3 characters) drawn in their spaces: what
        ``ludex run --interactive`` shows after each action."""
        lines = self.drawing(pieces).splitlines()
        return "\n".join(l for l in lines if not l.startswith(("mark ", "quadrant ")))

    def key(self, named: Optional[dict] = None) -> str:
        """The legend printed under ``picture``: what each piece drawn stands for (``named``: a space's
        name -> its piece's up to 3 characters and what they stand for), the kinds of line the board
        has between its spaces (walls are also its edge) and the marks inside its spaces::

            pieces: Ann = Annie (E9), Mic = Michael Myers (B3)
            lines: | --- wall, / /// door, # ### hedge
            marks: . outdoor, R search=red
        """
        lines = []
        if named:
            at = {piece: [] for piece in named.values()}
            for space in self.spaces:
                if str(space) in named:
                    at[named[str(space)]].append(str(space))
            lines.append("pieces: " + ", ".join(f"{pieces} = {what} ({', '.join(spaces)})"
                                                for (pieces, what), spaces in sorted(at.items())))
        kinds = set(self._edges.values()) | {"wall"}
        lines.append("lines: " + ", ".join(f"{k.column_char} {k.row_chars} {k.name}" for k in EDGE_KINDS.values()
                                           if k.name in kinds))
        if self.legend:
            lines.append("marks: " + ", ".join(f"{symbol} " + " ".join(w if v is None else f"{w}={v}" for w, v in tags)
                                               for symbol, tags in self.legend.items()))
        return "\n".join(lines)

    def drawing(self, pieces: Optional[dict] = None) -> str:
        """The board drawn in the format above (a parse of it gives an equal board)."""
        pieces = pieces or {}
        w = self.width
        pad = len(str(self.height)) + 1
        header = " " * (pad + 2) + "   ".join(self.columns)
        lines = [header.rstrip()]

        def separator(row):   # the line under ``row`` (0: the top edge)
            parts = []
            for c in range(w):
                above, below = self.at(c, row), self.at(c, row + 1)
                kind = "wall" if above is None or below is None else self.edge(above, below)
                parts.append(EDGE_KINDS[kind].row_chars)
            return " " * pad + "+" + "+".join(parts) + "+"

        lines.append(separator(0))
        for r in range(1, self.height + 1):
            text = f"{r:>{pad - 1}} |"
            for c in range(w):
                s = self.at(c, r)
                text += pieces[s][:3].center(3) if s in pieces else self.cells[s]
                right = self.at(c + 1, r)
                text += "|" if right is None else EDGE_KINDS[self.edge(s, right)].column_char
            lines.append(text)
            lines.append(separator(r))
        for symbol, tags in self.legend.items():
            lines.append(f"mark {symbol} " + " ".join(w if v is None else f"{w}={v}" for w, v in tags))
        for q in self.quadrant_parts:
            rows = f"{q.first_row}" if q.first_row == q.last_row else f"{q.first_row}-{q.last_row}"
            line = f"quadrant {q.name} rows {rows}"
            if (q.first_col, q.last_col) != (0, w - 1):
                line += f" columns {LETTERS[q.first_col]}-{LETTERS[q.last_col]}"
            lines.append(line)
        return "\n".join(lines) + "\n"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return ((self.width, self.height, self._edges, self.marks, self.quadrant_parts) ==
                (other.width, other.height, other._edges, other.marks, other.quadrant_parts))

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<board {self.columns[0]}-{self.columns[-1]} x 1-{self.height}>"


#: The sets of edge kinds already asked for, by the list (as a tuple) that named them: a rules file names
#: a few, asked for at every step. Only lists of known kinds are kept, and no more than a few hundred.
_KINDS_NAMED: dict[tuple, frozenset] = {}


def _kinds(through) -> frozenset:
    key = None
    if type(through) is list or type(through) is tuple:
        key = tuple(through)
        try:
            found = _KINDS_NAMED.get(key)
        except TypeError:          # an item that is no text (a list ...): refused or flattened below
            found = key = None
        if found is not None:
            return found
    kinds = frozenset([through] if isinstance(through, str) else _items([through]))
    unknown = [k for k in kinds if k not in EDGE_KINDS]
    if unknown:
        raise BoardError(f"unknown edge kind {unknown[0]!r} (the kinds: {', '.join(EDGE_KINDS)})")
    if key is not None and len(_KINDS_NAMED) < 256:
        _KINDS_NAMED[key] = kinds
    return kinds


# ------------------------------------------------------------------ the parser


class _Parser:
    """Reads a drawing line by line; the first fault raises ``SourceError``."""

    def __init__(self, drawing: str, span: Optional[Span]):
        self.lines = [line.rstrip("\r") for line in drawing.split("\n")]
        self.origin = span
        self.located = _locate(self.lines, span) if span is not None else None

    # -- errors
    def where(self, line: int, column: int, length: int = 1) -> Span:
        if self.origin is None:
            return Span("<board>", line, column, line, column + length)
        if self.located is not None:
            first, offsets = self.located
            l, c = first + line - 1, column + offsets.get(line, 0)
        else:
            l = self.origin.line + line - 1
            c = self.origin.column + column - 1 if line == 1 else column
        return Span(self.origin.path, l, c, l, c + length)

    def fail(self, code: str, message: str, line: int, column: int, length: int = 1, *,
             expected: str = "", hint: str = ""):
        raise SourceError([Diagnostic("syntax", code, message, self.where(line, column, length),
                                      expected=expected, hint=hint)])

    # -- the whole drawing
    def board(self) -> Board:
        grid, declarations = [], []
        state = "before"
        for k, raw in enumerate(self.lines, 1):
            if "\t" in raw:
                self.fail("B001", "a board drawing may not contain tabs (alignment matters): use spaces",
                          k, raw.index("\t") + 1)
            text = raw.strip()
            if text.startswith("--"):
                continue
            if not text or (text[0].islower() and not (state == "grid" and "|" in text)):
                if text:
                    declarations.append((k, raw))
                if state == "grid":
                    state = "after"
                continue
            if state == "after":
                self.fail("B019", "a board has one grid, drawn as one block of lines: this line is outside it",
                          k, _indent(raw) + 1, hint="remove the blank or declaration line inside the grid")
            state = "grid"
            grid.append((k, raw))
        if not grid:
            self.fail("B002", "this drawing has no grid: it starts with a line of column letters (A B C ...)",
                      1, 1)
        self.cells: dict[tuple[int, int], str] = {}          # (col, row) -> the cell's three characters
        self.symbols: list[tuple[int, int, str, int, int]] = []   # (line, column, symbol, col, row)
        self.edges: dict[tuple, str] = {}
        self.width, self.height = self._grid(grid)
        legend, quadrants = self._declarations(declarations)
        for k, column, symbol, _, _ in self.symbols:
            if symbol not in legend:
                self.fail("B011", f"the mark {symbol!r} is not declared", k, column,
                          hint=f"add a line 'mark {symbol} WORD' (or WORD=VALUE) to the drawing")
        board = Board(self.width, self.height, legend={s: tags for s, (tags, _) in legend.items()},
                      quadrants=quadrants)
        for k, column, symbol, c, r in self.symbols:
            marks = board.marks[board.at(c, r)]
            for word, value in legend[symbol][0]:
                if word in marks and marks[word] != value:
                    old, new = (f"{word}={v}" if v is not None else word for v in (marks[word], value))
                    self.fail("B016", f"space {board.at(c, r)} is given both {old} and {new} by its marks",
                              k, column)
                marks[word] = value
        for (c, r), cell in self.cells.items():
            board.cells[board.at(c, r)] = cell
        for (a, b), kind in self.edges.items():
            if 1 <= a[1] and b[1] <= self.height:
                board.set_edge(board.at(*a), board.at(*b), kind)
        return board

    # -- the grid
    def _grid(self, grid) -> tuple[int, int]:
        k0, header = grid[0]
        letters = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
        if not re.fullmatch(r"[A-Z]", letters[0][1]):
            self.fail("B002", "the grid starts with a line of column letters (A B C ...)", k0, letters[0][0] + 1)
        for i, (x, word) in enumerate(letters):
            if i >= len(LETTERS) or word != LETTERS[i]:
                want = LETTERS[i] if i < len(LETTERS) else "nothing (at most 26 columns)"
                self.fail("B003", f"columns are lettered A, B, C ... in order: expected {want} here, not "
                          f"{word!r}", k0, x + 1, len(word))
        width = len(letters)
        body = grid[1:]
        if not body or not body[0][1].lstrip().startswith("+"):
            k, raw = body[0] if body else (k0, header)
            self.fail("B004", "the column letters are followed by the top edge: '+---+---+...'",
                      k, (_indent(raw) + 1) if body else len(raw) + 1)
        x0 = body[0][1].index("+")
        for i, (x, word) in enumerate(letters):
            want = x0 + 2 + 4 * i
            if x != want:
                self.fail("B018", f"the column letter {word} must stand above the middle of its column "
                          f"(column {self._col(k0, want)} of this line)", k0, x + 1)
        if len(body) > 1 and body[-1][1].lstrip()[:1].isupper():
            k, raw = body.pop()
            if raw.rstrip() != header.rstrip():
                self.fail("B003", "the column letters under the grid must repeat those above it exactly",
                          k, _first_difference(raw, header) + 1)
        for i, (k, raw) in enumerate(body):
            first = raw.lstrip()[:1]
            if i % 2 == 0:
                if first.isdigit():
                    self.fail("B015", "expected a separator line ('+---+---+...') between two rows", k,
                              _indent(raw) + 1)
                self._separator(k, raw, x0, width, i // 2, outer=(i == 0))
            else:
                if first == "+":
                    self.fail("B015", "two separator lines in a row: a row line (its number first) goes "
                              "between them", k, _indent(raw) + 1)
                if not first.isdigit() and "|" not in raw[:_indent(raw) + 4]:
                    self.fail("B007", "expected a row line, starting with its number", k, _indent(raw) + 1)
                self._row(k, raw, x0, width, (i + 1) // 2)
        if len(body) < 3 or len(body) % 2 == 0:
            k, raw = body[-1]
            what = "a board needs at least one row" if len(body) < 3 else "the grid must end with its bottom edge"
            self.fail("B015", f"{what}: '+---+---+...' under the last row", k, len(raw) + 1)
        k, raw = body[-1]
        for c in range(width):
            x = x0 + 1 + 4 * c
            if raw[x: x + 3] != "---":
                self.fail("B008", "the board's outer edge is a wall: draw it '---'", k, x + 1, 3)
        return width, len(body) // 2

    def _col(self, k, x):
        return self.where(k, x + 1).column

    def _separator(self, k, raw, x0, width, row, outer):
        """The line under ``row`` (0: the top edge)."""
        if _indent(raw) != x0:
            self.fail("B004", f"separator lines line up with the top edge: its first '+' belongs in column "
                      f"{self._col(k, x0)}", k, _indent(raw) + 1)
        end = x0 + 4 * width
        line = raw.ljust(end + 1)
        for c in range(width + 1):
            x = x0 + 4 * c
            if line[x] != "+":
                self.fail("B004", f"expected a corner post '+' here, not {line[x]!r}", k, x + 1,
                          hint="every fourth character of a separator line is '+'")
        for c in range(width):
            x = x0 + 1 + 4 * c
            segment = line[x: x + 3]
            kind = _BY_ROW_CHARS.get(segment)
            if kind is None:
                self.fail("B005", f"{segment!r} is not a line between rows", k, x + 1, 3,
                          expected="'---' wall, '///' door, ':::' window, '###' hedge or '   ' open")
            if outer and kind != "wall":
                self.fail("B008", "the board's outer edge is a wall: draw it '---'", k, x + 1, 3)
            self.edges[((c, row), (c, row + 1))] = kind
        if line[end + 1:].strip():
            self.fail("B010", "unexpected text after the board's right edge", k, end + 2 + _indent(line[end + 1:]))

    def _row(self, k, raw, x0, width, row):
        label = raw[:x0].strip()
        if label != str(row):
            x = _indent(raw)
            shown = label or raw[x:].split()[0]
            self.fail("B007", f"expected row {row} here, not {shown!r}: rows are numbered 1, 2, 3 ... from the "
                      "top, and each row's number stands left of the grid", k, x + 1, len(shown))
        end = x0 + 4 * width
        if len(raw) <= end:
            self.fail("B009", f"this row ends before the board's right edge (a '|' in column "
                      f"{self._col(k, end)})", k, len(raw) + 1)
        if raw[x0] != "|":
            self.fail("B008", "the board's left edge is a wall: draw it '|'", k, x0 + 1)
        for c in range(width):
            x = x0 + 1 + 4 * c
            self.cells[(c, row)] = raw[x: x + 3]
            for i, ch in enumerate(raw[x: x + 3]):
                if ch == " ":
                    continue
                if ch in RESERVED:
                    self.fail("B017", f"{ch!r} draws an edge and cannot mark a space", k, x + i + 1,
                              hint="a space is three characters wide; is this row out of line with the posts?")
                self.symbols.append((k, x + i + 1, ch, c, row))
            if c < width - 1:
                ch = raw[x + 3]
                kind = _BY_COLUMN_CHAR.get(ch)
                if kind is None:
                    self.fail("B006", f"{ch!r} is not a line between columns", k, x + 4,
                              expected="'|' wall, '/' door, ':' window, '#' hedge or ' ' open")
                self.edges[((c, row), (c + 1, row))] = kind
        if raw[end] != "|":
            self.fail("B008", "the board's right edge is a wall: draw it '|'", k, end + 1,
                      hint="is a cell in this row wider or narrower than three characters?")
        rest = raw[end + 1:]
        if rest.strip() and rest.strip() != str(row):
            self.fail("B010", "unexpected text after the board's right edge (only the row's number may "
                      "stand there)", k, end + 2 + _indent(rest))

    # -- declarations
    def _declarations(self, declarations):
        legend: dict[str, tuple] = {}
        quadrants: list[QuadrantPart] = []
        for k, raw in declarations:
            tokens = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", raw)]
            keyword = tokens[0][1]
            if keyword == "mark":
                self._mark(k, raw, tokens, legend)
            elif keyword == "quadrant":
                quadrants.append(self._quadrant(k, raw, tokens))
            else:
                self.fail("B014", f"unknown declaration {keyword!r}", k, tokens[0][0], len(keyword),
                          expected="'mark SYMBOL TAG ...' or 'quadrant NAME rows FIRST-LAST [columns FIRST-LAST]'")
        return legend, quadrants

    def _mark(self, k, raw, tokens, legend):
        if len(tokens) < 3:
            self.fail("B012", "a mark is declared as 'mark SYMBOL TAG ...'", k, len(raw) + 1,
                      expected="a symbol and at least one tag (a word, or word=value)")
        col, symbol = tokens[1]
        if len(symbol) != 1:
            self.fail("B012", f"a mark's symbol is one character, not {symbol!r}", k, col, len(symbol))
        if symbol in RESERVED:
            self.fail("B017", f"{symbol!r} draws an edge and cannot be a mark", k, col)
        if symbol in legend:
            self.fail("B012", f"the mark {symbol!r} is already declared on line {legend[symbol][1]}", k, col)
        tags = []
        for col, text in tokens[2:]:
            m = _TAG.match(text)
            if not m:
                self.fail("B012", f"{text!r} is not a tag", k, col, len(text),
                          expected="a lowercase word (outdoor) or word=value (search=red)")
            tags.append((m.group(1), m.group(2)))
        legend[symbol] = (tuple(tags), self.where(k, 1).line)

    def _quadrant(self, k, raw, tokens):
        def need(i, what):
            if i >= len(tokens):
                self.fail("B013", f"a quadrant is declared as 'quadrant NAME rows FIRST-LAST [columns "
                          f"FIRST-LAST]': {what} is missing", k, len(raw) + 1)
            return tokens[i]

        col, name = need(1, "its name")
        if not re.fullmatch(_WORD, name):
            self.fail("B013", f"a quadrant's name is a lowercase word, not {name!r}", k, col, len(name))
        col, word = need(2, "'rows'")
        if word != "rows":
            self.fail("B013", f"expected 'rows' here, not {word!r}", k, col, len(word))
        first_row, last_row = self._range(k, need(3, "the rows"), r"[1-9][0-9]*", int, self.height, "row")
        first_col, last_col = 0, self.width - 1
        if len(tokens) > 4:
            col, word = tokens[4]
            if word != "columns":
                self.fail("B013", f"expected 'columns' or the end of the line here, not {word!r}", k, col, len(word))
            first_col, last_col = self._range(k, need(5, "the columns"), r"[A-Z]", LETTERS.index,
                                              self.width - 1, "column")
            if len(tokens) > 6:
                self.fail("B013", "unexpected text after the quadrant's columns", k, tokens[6][0])
        return QuadrantPart(name, first_row, last_row, first_col, last_col)

    def _range(self, k, token, pattern, convert, highest, what):
        col, text = token
        m = re.fullmatch(rf"({pattern})(?:-({pattern}))?", text)
        if not m:
            example = "1-12" if what == "row" else "A-I"
            self.fail("B013", f"{text!r} is not a range of {what}s (e.g. {example})", k, col, len(text))
        lowest = 1 if what == "row" else 0
        shown_range = f"1-{highest}" if what == "row" else f"A-{LETTERS[highest]}"
        for shown, at in ((m.group(1), col), (m.group(2), col + m.end(1) + 1)):
            if shown is not None and not lowest <= convert(shown) <= highest:
                self.fail("B013", f"{what} {shown} is not on the board ({what}s {shown_range})", k, at,
                          len(shown))
        first, last = convert(m.group(1)), convert(m.group(2) or m.group(1))
        if last < first:
            self.fail("B013", f"a range runs from the first {what} to the last: {text!r} is backwards", k, col,
                      len(text))
        return first, last


def _locate(lines: list[str], span: Span):
    """Where the drawing's lines stand in the file ``span`` points into: (the file line of drawing line
    1, {drawing line: columns to add}), or None if the file cannot be read or does not hold them.

    The drawing may have reached the parser unchanged or with its common indentation and its blank
    first and last lines taken away; either way each of its lines ends a line of the file, from
    ``span``'s line on, after nothing but spaces (or, on the first, the opening quotes)."""

    drawn = [(k, text.rstrip()) for k, text in enumerate(lines, 1) if text.strip()]
    if not drawn:
        return None
    k1, text1 = drawn[0]
    start = span.line
    for first in range(start, start + 10_000):
        candidate = SOURCES.line(span.path, first + k1 - 1)
        if candidate is None:
            return None
        if not candidate.rstrip().endswith(text1):
            continue
        offsets = {}
        for k, text in drawn:
            file_line = SOURCES.line(span.path, first + k - 1)
            file_line = "" if file_line is None else file_line.rstrip()
            prefix = file_line[: len(file_line) - len(text)]
            if not file_line.endswith(text) or not (prefix.strip() == "" or (k == k1 and prefix.rstrip()
                                                                                .endswith('"'))):
                break
            offsets[k] = len(prefix)
        else:
            return first, offsets
    return None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _first_difference(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


# ------------------------------------------------------------------ built-ins: the board


def _board(x) -> Board:
    if not isinstance(x, Board):
        raise BoardError(f"a board is needed here (a name declared with 'board NAME \"...\"'), not {x!r}")
    return x


def _spaces(board: Board, xs) -> list[Space]:
    if xs is None:
        return []
    if isinstance(xs, str):
        return [board.space(xs)]
    return [board.space(x) for x in _items([xs]) if x is not None]


def _through(through):
    return FREE if through is None else through


@builtin("space", 2, returns="space")
def space(game, board, name):
    """The space of ``board`` named ``name`` ("A12": its column letter, then its row number).

    Example: space(yard, "B2") gives "B2"
    """
    return _board(board).space(name)


@builtin("spaces", 1, returns="list")
def spaces(game, board):
    """Every space of ``board``, row by row from row 1, each row from column A.

    Example: spaces(yard) gives ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3"]
    """
    return list(_board(board).spaces)


@builtin("adjacent", 3, returns="bool")
def adjacent(game, board, a, b):
    """Whether spaces ``a`` and ``b`` are orthogonal neighbours (side by side, not diagonal), whatever line
    is drawn between them.

    Example: adjacent(yard, "C1", "D1") gives true  # though a wall stands between them
    Example: adjacent(yard, "A1", "B2") gives false  # diagonal
    """
    return _board(board).adjacent(a, b)


@builtin("edge", 3, returns="text")
def edge(game, board, a, b):
    """The line between space ``a`` and its neighbour ``b`` (``b`` may also be a facing: the line on that
    side of ``a``): "open", "wall", "door", "window", "hedge", or "outside" at the board's edge; none if
    ``b`` is a space that is not a neighbour of ``a``.

    Example: edge(yard, "B1", "C1") gives "door"
    Example: edge(yard, "A1", "north") gives "outside"
    Example: edge(yard, "A1", "C1") gives none  # not neighbours
    """
    return _board(board).edge(a, b)


@builtin("crossing", 3, returns="text")
def crossing(game, board, a, b):
    """What moving from space ``a`` to its neighbour ``b`` costs: "free" across an open line or a door,
    "action" across a window or a hedge, "blocked" by a wall or the board's edge; none if they are not
    neighbours.

    Example: crossing(yard, "B1", "C1") gives "free"  # a door
    Example: crossing(yard, "C2", "D2") gives "action"  # a window
    Example: crossing(yard, "C1", "C2") gives "blocked"  # a wall
    """
    return _board(board).crossing(a, b)


@builtin("neighbours", 2, 3, returns="list")
def neighbours(game, board, s, through=None):
    """The spaces orthogonally next to ``s`` (north, east, south, west order). With ``through`` (a list of
    edge kinds, e.g. ["open", "door"]), only those across a line of one of those kinds.

    Example: neighbours(yard, "B2") gives ["B1", "C2", "B3", "A2"]
    Example: neighbours(yard, "B2", ["open", "door"]) gives ["C2", "B3", "A2"]  # not B1, across the hedge
    """
    return _board(board).neighbours(s, through)


@builtin("next-space", 3, returns="space")
def next_space(game, board, s, facing):
    """The space next to ``s`` in the direction ``facing`` ("north" is towards row 1, "east" towards
    later column letters), or none at the board's edge.

    Example: next-space(yard, "A1", "south") gives "A2"
    Example: next-space(yard, "A1", "west") gives none  # the board's edge
    """
    return _board(board).neighbour(s, facing)


@builtin("line-of-sight", 3, 4, returns="list")
def line_of_sight(game, board, s, facing, beside=None):
    """What a figure on ``s`` facing ``facing`` can see, nearest first: from the space in front of it,
    straight ahead until a line that blocks sight (a wall, a hedge, a door) or the board's edge. Windows
    and open lines do not block. A door does not block when one of the spaces on either side of it is in
    the list ``beside`` (for "unless a Victim is adjacent").

    Example: line-of-sight(yard, "A1", "east") gives ["B1"]  # the door between B1 and C1 blocks sight
    Example: line-of-sight(yard, "A1", "east", ["B1"]) gives ["B1", "C1"]  # someone on B1 is beside the door
    Example: line-of-sight(yard, "A2", "east") gives ["B2", "C2", "D2"]  # through the window
    """
    b = _board(board)
    return b.line_of_sight(s, facing, _spaces(b, beside))


@builtin("in-sight", 4, 5, returns="bool")
def in_sight(game, board, s, facing, target, beside=None):
    """Whether space ``target`` is in the line of sight of a figure on ``s`` facing ``facing`` (see
    line-of-sight; ``beside`` as there).

    Example: in-sight(yard, "A2", "east", "D2") gives true  # through the window
    Example: in-sight(yard, "B3", "north", "B1") gives false  # the hedge blocks sight
    """
    b = _board(board)
    return b.in_sight(s, facing, target, _spaces(b, beside))


@builtin("spaces-ahead", 3, 4, returns="list")
def spaces_ahead(game, board, s, facing, through=None):
    """The spaces straight ahead of ``s`` in the direction ``facing``, nearest first, up to the first
    line whose kind is not in ``through`` (default ["open", "door"]: the lines free to move through) or
    the board's edge.

    Example: spaces-ahead(yard, "A1", "east") gives ["B1", "C1"]  # through the door, up to the wall
    Example: spaces-ahead(yard, "A2", "east", ["open", "window"]) gives ["B2", "C2", "D2"]
    """
    return _board(board).spaces_ahead(s, facing, _through(through))


@builtin("in-line", 3, returns="bool")
def in_line(game, board, a, b):
    """Whether two different spaces share a row or a column.

    Example: in-line(yard, "A1", "A3") gives true
    Example: in-line(yard, "B2", "B2") gives false  # the same space
    """
    return _board(board).in_line(a, b)


@builtin("straight-line", 3, returns="list")
def straight_line(game, board, a, b):
    """The spaces from ``a`` to ``b`` in a straight line, nearest first, ``a`` left out and ``b`` included
    (whatever lines lie between); an empty list if they share no row or column or are the same space.

    Example: straight-line(yard, "A1", "D1") gives ["B1", "C1", "D1"]  # the door and the wall do not matter
    Example: straight-line(yard, "A1", "B2") gives []  # not in line
    """
    return _board(board).straight_line(a, b)


@builtin("straight-distance", 3, returns="number")
def straight_distance(game, board, a, b):
    """How many spaces ``b`` is away from ``a`` in a straight line (1 for a neighbour), or none if they
    share no row or column or are the same space (as for in-line).

    Example: straight-distance(yard, "A3", "D3") gives 3
    Example: straight-distance(yard, "A1", "B2") gives none  # not in line
    Example: straight-distance(yard, "B2", "B2") gives none  # the same space
    """
    return _board(board).straight_distance(a, b)


@builtin("facing-toward", 2, returns="text")
def facing_toward_builtin(game, a, b):
    """The facing from space ``a`` straight towards space ``b`` ("north", "east", "south" or "west"), or
    none if they are the same space or share no row or column.

    Example: facing-toward("B3", "B1") gives "north"
    Example: facing-toward("A1", "B2") gives none  # not in line
    """
    return facing_toward(a, b)


@builtin("spaces-within", 3, 5, returns="list")
def spaces_within(game, board, s, n, avoid=None, through=None):
    """The spaces a figure on ``s`` can reach in 1 to ``n`` orthogonal steps (``s`` itself left out), in
    board order. Each step crosses a line whose kind is in ``through`` (default ["open", "door"]); no
    step enters a space in the list ``avoid`` (spaces that may not be moved through).

    Example: spaces-within(yard, "B1", 2) gives ["A1", "C1", "A2"]  # through the door, not across the hedge
    Example: spaces-within(yard, "B1", 2, ["A1"]) gives ["C1"]  # A1 may not be moved through
    """
    b = _board(board)
    return b.spaces_within(s, n, _through(through), _spaces(b, avoid))


@builtin("steps-between", 3, 5, returns="number")
def steps_between(game, board, a, b, avoid=None, through=None):
    """The fewest orthogonal steps from space ``a`` to space ``b`` (``avoid`` and ``through`` as for
    spaces-within), or none if ``b`` cannot be reached.

    Example: steps-between(yard, "B1", "B2") gives 3  # round the hedge
    Example: steps-between(yard, "B1", "B2", ["A2"]) gives none  # no way round
    """
    bd = _board(board)
    return bd.steps_between(a, b, _through(through), _spaces(bd, avoid))


@builtin("quadrants", 2, returns="list")
def quadrants(game, board, s):
    """The names of the quadrants space ``s`` is in, in the order the board declares them: one, or two
    on a row that two quadrants share, or an empty list for a space in no quadrant.

    Example: quadrants(yard, "A2") gives ["north-west", "south-west"]  # the middle row is in two
    Example: quadrants(yard, "A1") gives ["north-west"]
    """
    return _board(board).quadrants(s)


@builtin("quadrant-spaces", 2, returns="list")
def quadrant_spaces(game, board, name):
    """The spaces of the quadrant ``name``, in board order.

    Example: quadrant-spaces(yard, "south-east") gives ["C2", "D2", "C3", "D3"]
    """
    return _board(board).quadrant_spaces(name)


@builtin("marked", 3, 4, returns="bool")
def marked(game, board, s, word, value=None):
    """Whether space ``s`` carries the tag ``word`` of the board's marks (e.g. "outdoor"); with ``value``,
    whether it carries ``word=value`` (e.g. "search", "red").

    Example: marked(yard, "D1", "search", "red") gives true
    Example: marked(yard, "D1", "search", "blue") gives false
    Example: marked(yard, "C1", "search") gives false
    """
    return _board(board).marked(s, word, value)


@builtin("mark-value", 3, returns="text")
def mark_value(game, board, s, word):
    """The value of space ``s``'s tag ``word`` (for a space marked ``car=blue``, "blue" for "car"); none if
    it has no such tag or the tag has no value.

    Example: mark-value(yard, "D1", "search") gives "red"
    Example: mark-value(yard, "D1", "indoor") gives none  # a tag without a value
    """
    return _board(board).mark_value(s, word)


@builtin("marked-spaces", 2, 3, returns="list")
def marked_spaces(game, board, word, value=None):
    """Every space carrying the tag ``word`` (with ``value``, if given), in board order.

    Example: marked-spaces(yard, "indoor") gives ["C1", "D1"]
    Example: marked-spaces(yard, "search", "blue") gives []
    """
    return _board(board).marked_spaces(word, value)


# ------------------------------------------------------------------ built-ins: rows of cards


def _row_cards(row) -> list:
    """The cards of a row zone (not copied: read, never changed), or the items of a list."""
    return row.cards if type(row) is Zone else _items([row])


def _position(cards: list, card) -> Optional[int]:
    for i, c in enumerate(cards):
        if c is card:
            return i
    for i, c in enumerate(cards):
        if c == card:
            return i
    return None


@builtin("left-end", 1, returns="card")
def left_end(game, row):
    """The card at the left end of a row (a row zone or a list, left to right), or none if it is empty.

    Example: left-end(ann.street) gives "Rope"
    Example: left-end(cat.street) gives none  # an empty row
    """
    cards = _row_cards(row)
    return cards[0] if cards else None


@builtin("right-end", 1, returns="card")
def right_end(game, row):
    """The card at the right end of a row, or none if it is empty.

    Example: right-end(ann.street) gives "Bell"
    """
    cards = _row_cards(row)
    return cards[-1] if cards else None


@builtin("row-neighbours", 2, returns="list")
def row_neighbours(game, row, card):
    """The cards directly left and right of ``card`` in a row, left first (one at an end, an empty list if
    it is alone); an error if ``card`` is not in the row.

    Example: row-neighbours(ann.street, cards(ann.street)[1]) gives ["Rope", "Bell"]
    Example: row-neighbours(ann.street, right-end(ann.street)) gives ["Lantern"]  # at an end
    """
    cards = _row_cards(row)
    i = _position(cards, card)
    if i is None:
        raise BoardError(f"{card} is not in the row {row}")
    return cards[max(i - 1, 0): i] + cards[i + 1: i + 2]


@builtin("row-adjacent", 3, returns="bool")
def row_adjacent(game, row, a, b):
    """Whether cards ``a`` and ``b`` are side by side in a row (false if either is not in it).

    Example: row-adjacent(ann.street, left-end(ann.street), cards(ann.street)[1]) gives true
    Example: row-adjacent(ann.street, top(market), right-end(ann.street)) gives false  # the market's Bell
    """
    cards = _row_cards(row)
    i, j = _position(cards, a), _position(cards, b)
    return i is not None and j is not None and abs(i - j) == 1


@builtin("row-distance", 3, returns="number")
def row_distance(game, row, a, b):
    """How many moves from one card to the next it takes to go from ``a`` to ``b`` in a row (1 for
    neighbours, 0 for the same card), or none if either is not in it.

    Example: row-distance(ann.street, left-end(ann.street), right-end(ann.street)) gives 2
    Example: row-distance(ann.street, top(market), left-end(ann.street)) gives none  # not in the row
    """
    cards = _row_cards(row)
    i, j = _position(cards, a), _position(cards, b)
    return None if i is None or j is None else abs(i - j)
