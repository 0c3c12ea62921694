"""A board's geometry tables (``runtime/board.py``'s ``Geometry``, made once per drawing) agree with the
geometry worked out directly from the drawing's spaces, coordinates and lines, question by question:
on every board the project carries (the rules files', the scenarios' and the bundled drawing), on a
small board with one line of every kind, and on boards generated at random."""

from collections import deque
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_board import SMALL

from ludex.load import load_game
from ludex.parse.syntax import parse_scenarios
from ludex.program.program import Program
from ludex.resources import bundled_games, scenarios_dir
from ludex.runtime.board import EDGE_KINDS, FACINGS, LETTERS, Board, QuadrantPart

ROOT = Path(__file__).resolve().parent.parent
HADDONFIELD = ROOT / "interpreter" / "ludex" / "runtime" / "boards" / "haddonfield.txt"
_DELTA = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
#: The sets of lines asked about: the default, the bundled games' and every single kind.
THROUGH = [("open", "door"), ("open", "door", "window"), ("open", "window", "hedge")] + [(k,) for k in EDGE_KINDS]


# ------------------------------------------------------------------ the geometry, worked out directly


def d_at(b, col, row):
    return b.spaces[(row - 1) * b.width + col] if 0 <= col < b.width and 1 <= row <= b.height else None


def d_neighbour(b, s, facing):
    dx, dy = _DELTA[facing]
    return d_at(b, s.col + dx, s.row + dy)


def d_edge(b, a, other):
    """The line between a and a neighbouring space, or toward a facing; None for a space not beside a."""
    if other in _DELTA:
        n = d_neighbour(b, a, other)
        return "outside" if n is None else d_edge(b, a, n)
    if abs(a.col - other.col) + abs(a.row - other.row) != 1:
        return None
    return b._edges.get(frozenset((a, other)), "open")


def d_neighbours(b, s, through=None):
    out = [n for f in FACINGS if (n := d_neighbour(b, s, f)) is not None]
    return out if through is None else [n for n in out if d_edge(b, s, n) in through]


def d_ray(b, s, facing, passes):
    out, here = [], s
    while (there := d_neighbour(b, here, facing)) is not None and passes(here, there, d_edge(b, here, there)):
        out.append(there)
        here = there
    return out


def d_sight(b, s, facing, near=()):
    return d_ray(b, s, facing, lambda here, there, kind: (kind == "door" and (here in near or there in near))
                 or not EDGE_KINDS[kind].blocks_sight)


def d_within(b, s, n, through, avoid=()):
    steps, queue = {s: 0}, deque([s])
    while queue:
        here = queue.popleft()
        if n is not None and steps[here] >= n:
            continue
        for there in d_neighbours(b, here, through):
            if there not in steps and there not in avoid:
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps


def d_straight_line(b, a, other):
    if a == other or (a.col != other.col and a.row != other.row):
        return []
    facing = ("north" if other.row < a.row else "south") if a.col == other.col else \
        ("west" if other.col < a.col else "east")
    n = abs(a.col - other.col) + abs(a.row - other.row)
    dx, dy = _DELTA[facing]
    return [d_at(b, a.col + dx * k, a.row + dy * k) for k in range(1, n + 1)]


# ------------------------------------------------------------------ the comparison


def agree(b: Board, far: int = 4) -> int:
    """Every question of the geometry put to the board both ways; how many were compared."""
    asked = 0
    doors = [s for s in b.spaces if any(d_edge(b, s, n) == "door" for n in d_neighbours(b, s))]
    for s in b.spaces:
        assert b.neighbours(s) == d_neighbours(b, s)
        for through in THROUGH:
            assert b.neighbours(s, list(through)) == d_neighbours(b, s, through)
            assert b.spaces_ahead(s, FACINGS[s.col % 4], list(through)) == \
                d_ray(b, s, FACINGS[s.col % 4], lambda here, there, kind: kind in through)
        for facing in FACINGS:
            assert b.neighbour(s, facing) == d_neighbour(b, s, facing)
            assert b.edge(s, facing) == d_edge(b, s, facing)
            assert b.spaces_ahead(s, facing) == d_ray(b, s, facing, lambda here, there, kind: kind in ("open", "door"))
            assert b.line_of_sight(s, facing) == d_sight(b, s, facing)
            near = doors[:1] + [n for n in d_neighbours(b, s) if n in doors]
            assert b.line_of_sight(s, facing, near) == d_sight(b, s, facing, set(near))
            asked += 6
        for n in d_neighbours(b, s):
            assert b.edge(s, n) == d_edge(b, s, n) and b.edge(n, s) == d_edge(b, s, n)
        for n in range(1, far + 1):
            for through in THROUGH[:2]:
                steps = d_within(b, s, n, through)
                assert b.reachable(s, n, through) == steps
                assert b.spaces_within(s, n, through) == [x for x in b.spaces if steps.get(x, 0) > 0]
                avoid = d_neighbours(b, s)[:1]
                avoided = d_within(b, s, n, through, avoid)
                assert b.spaces_within(s, n, through, avoid) == [x for x in b.spaces if avoided.get(x, 0) > 0]
                asked += 3
        assert b.quadrants(s) == list(dict.fromkeys(q.name for q in b.quadrant_parts if s in q))
        asked += 3 + 2 * len(THROUGH)
    for a in b.spaces[::max(1, len(b.spaces) // 12)]:
        everywhere = d_within(b, a, None, ("open", "door"))
        for other in b.spaces:
            if a.col == other.col or a.row == other.row:
                assert b.edge(a, other) == d_edge(b, a, other)
                assert b.straight_line(a, other) == d_straight_line(b, a, other)
            asked += 1
        assert b.reachable(a) == everywhere
        assert b.steps_between(a, b.spaces[-1]) == everywhere.get(b.spaces[-1])
    for name in b.quadrant_names:
        parts = [q for q in b.quadrant_parts if q.name == name]
        assert b.quadrant_spaces(name) == [s for s in b.spaces if any(s in q for q in parts)]
    for word in {w for marks in b.marks.values() for w in marks} | {"nowhere"}:
        assert b.marked_spaces(word) == [s for s in b.spaces if word in b.marks[s]]
        for value in {marks.get(word) for marks in b.marks.values()} - {None}:
            assert b.marked_spaces(word, value) == [s for s in b.spaces if b.marks[s].get(word) == value]
    return asked


def carried_boards() -> dict:
    """Every board the project carries: each bundled game's, each scenario's own drawing, the bundled file."""
    boards = {"boards/haddonfield.txt": Board.parse(HADDONFIELD.read_text(encoding="utf-8"))}
    for key in bundled_games():
        loaded = load_game(key)
        assert loaded.ok, loaded.diagnostics
        for name, board in Program.of(loaded.game).boards.items():
            boards[f"{key}: {name}"] = board
    for path in sorted(scenarios_dir().glob("*/*.scenario")):
        for sc in parse_scenarios(path.read_text(encoding="utf-8"), str(path)).scenarios:
            for drawn in sc.boards:
                boards[f"{path.parent.name}/{path.name}: {sc.title}"] = Board.parse(drawn.drawing, drawn.span)
    return boards


CARRIED = carried_boards()


def test_the_project_carries_boards_of_its_own_and_of_scenarios():
    assert any(k.startswith("halloween: ") for k in CARRIED)
    assert sum(1 for k in CARRIED if ".scenario: " in k) >= 3


@pytest.mark.parametrize("name", sorted(CARRIED))
def test_tables_agree_with_the_direct_geometry_on_a_carried_board(name):
    board = CARRIED[name]
    assert agree(board, far=3) > len(board.spaces)


def test_tables_agree_on_a_board_with_every_kind_of_line():
    assert agree(Board.parse(SMALL)) > 15


def test_tables_are_made_once_and_redrawing_a_line_makes_them_again():
    b = Board(3, 1)
    tables = b.geometry
    assert b.geometry is tables and b.edge("A1", "B1") == "open"
    b.set_edge("A1", "B1", "wall")
    assert b.geometry is not tables and b.edge("A1", "B1") == "wall" and b.neighbours("A1", ["open"]) == []


# ------------------------------------------------------------------ generated boards


@st.composite
def boards(draw):
    width, height = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    kinds = st.sampled_from([k for k in EDGE_KINDS if k != "outside"])
    edges = {}
    for r in range(1, height + 1):
        for c in range(width):
            here = f"{LETTERS[c]}{r}"
            if c + 1 < width:
                edges[(here, f"{LETTERS[c + 1]}{r}")] = draw(kinds)
            if r < height:
                edges[(here, f"{LETTERS[c]}{r + 1}")] = draw(kinds)
    legend = {"o": (("outdoor", None),), "r": (("search", "red"),), "b": (("search", "blue"), ("outdoor", None))}
    names = [f"{LETTERS[c]}{r}" for r in range(1, height + 1) for c in range(width)]
    cells = {n: draw(st.sampled_from(["", "o", "r", "b", "or"])) for n in names}
    quadrants = []
    for name in draw(st.lists(st.sampled_from(["top", "bottom", "left"]), max_size=4)):
        r1, r2 = sorted(draw(st.integers(1, height)) for _ in range(2))
        c1, c2 = sorted(draw(st.integers(0, width - 1)) for _ in range(2))
        quadrants.append(QuadrantPart(name, r1, r2, c1, c2))
    return Board(width, height, cells=cells, edges=edges, legend=legend, quadrants=quadrants)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(boards())
def test_tables_agree_with_the_direct_geometry_on_generated_boards(board):
    agree(board)
    # and the board drawn again and read back has the same tables
    again = Board.parse(board.drawing())
    assert again == board and again.geometry.between == board.geometry.between
