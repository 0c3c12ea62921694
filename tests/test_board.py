"""The board format, grid geometry and row built-ins (interpreter/ludex/runtime/board.py), and the Haddonfield board."""

import subprocess
import sys
from pathlib import Path

import pytest

from ludex.parse.ast import Span
from ludex.runtime.board import EDGE_KINDS, FACINGS, Board, BoardError, Space, facing_toward
from ludex.runtime.builtins import BUILTINS
from ludex.diagnostics import SourceError, render

HADDONFIELD = Path(__file__).resolve().parent.parent / "interpreter" / "ludex" / "runtime" / "boards" / "haddonfield.txt"

# A small board with one of every edge kind:
#   A1|B1 wall, B1/C1 door, C1:D1 window, D1#E1 hedge, A1-A2 open, B1/B2 door (///), C1-C2 wall (---),
#   D1:D2 window (:::), E1#E2 hedge (###); row 2 open throughout; row 3 behind a wall except at A and E.
SMALL = """\
    A   B   C   D   E
  +---+---+---+---+---+
1 | . | s / _ : .r# . |
  +   +///+---+:::+###+
2 | .   .   .   .   . |
  +   +---+---+---+   +
3 | .   _   _   _>  . |
  +---+---+---+---+---+
mark . outdoor
mark _ indoor
mark s indoor search=red
mark r search=blue
mark > entry
quadrant top rows 1-2
quadrant bottom rows 2-3
"""


def small():
    return Board.parse(SMALL)


def call(name, *args):
    return BUILTINS[name].fn(None, *args)


def error_of(text, span=None):
    with pytest.raises(SourceError) as caught:
        Board.parse(text, span)
    (diagnostic,) = caught.value.diagnostics
    return diagnostic


# ------------------------------------------------------------------ parsing: good drawings


def test_columns_rows_and_space_names():
    b = small()
    assert (b.width, b.height, b.columns) == (5, 3, "ABCDE")
    assert b.spaces[:6] == ["A1", "B1", "C1", "D1", "E1", "A2"]
    s = b.space("C2")
    assert isinstance(s, Space) and s == "C2" and (s.column, s.col, s.row) == ("C", 2, 2)
    assert "E3" in b and "F1" not in b and "A4" not in b and 5 not in b


def test_every_edge_kind_in_both_directions():
    b = small()
    assert [b.edge(x, y) for x, y in [("A1", "B1"), ("B1", "C1"), ("C1", "D1"), ("D1", "E1")]] == \
        ["wall", "door", "window", "hedge"]
    assert [b.edge(x, y) for x, y in [("A1", "A2"), ("B1", "B2"), ("C1", "C2"), ("D1", "D2"), ("E1", "E2")]] == \
        ["open", "door", "wall", "window", "hedge"]
    assert b.edge("B1", "A1") == "wall" and b.edge("D2", "D1") == "window"
    assert b.edge("A2", "B2") == "open"


def test_marks_with_and_without_values():
    b = small()
    assert b.marks[b.space("B1")] == {"indoor": None, "search": "red"}
    assert b.marks[b.space("D1")] == {"outdoor": None, "search": "blue"}
    assert b.marks[b.space("D3")] == {"indoor": None, "entry": None}
    assert b.marked("B1", "search") and b.marked("B1", "search", "red") and not b.marked("B1", "search", "blue")
    assert b.mark_value("D1", "search") == "blue" and b.mark_value("D1", "outdoor") is None
    assert b.mark_value("A1", "search") is None
    assert b.marked_spaces("search") == ["B1", "D1"]
    assert b.marked_spaces("indoor") == ["B1", "C1", "B3", "C3", "D3"]


def test_a_space_with_no_marks_is_still_a_space():
    b = Board.parse("    A   B\n  +---+---+\n1 |   |   |\n  +---+---+\n")
    assert b.spaces == ["A1", "B1"] and b.marks[b.space("A1")] == {} and b.edge("A1", "B1") == "wall"


def test_quadrants_overlap_on_a_shared_row():
    b = small()
    assert b.quadrants("A1") == ["top"]
    assert b.quadrants("C2") == ["top", "bottom"]
    assert b.quadrants("E3") == ["bottom"]
    assert b.quadrant_names == ["top", "bottom"]
    assert b.quadrant_spaces("bottom") == b.spaces[5:]


def test_quadrant_columns_and_a_name_declared_twice_is_a_union():
    text = SMALL + "quadrant west rows 1 columns A-B\nquadrant west rows 3 columns E\n"
    b = Board.parse(text)
    assert b.quadrant_spaces("west") == ["A1", "B1", "E3"]
    assert b.quadrants("E3") == ["bottom", "west"]
    assert b.quadrants("C3") == ["bottom"]
    with pytest.raises(BoardError, match="no quadrant 'north'"):
        b.quadrant_spaces("north")


def test_indentation_comments_blank_lines_footer_and_row_numbers_on_the_right():
    text = """
        -- a comment before the grid
        mark . outdoor

            A   B
          +---+---+
        1 | .   . | 1
          +---+---+
            A   B
        -- and after it

        quadrant all rows 1
    """
    b = Board.parse(text)
    assert b.spaces == ["A1", "B1"] and b.quadrants("B1") == ["all"] and b.marked("A1", "outdoor")


def test_wide_row_numbers():
    rows = "\n".join(f"{r:>2} | . |\n   +   +" for r in range(1, 12))
    text = "     A\n   +---+\n" + rows[: -len("+   +")] + "+---+\nmark . outdoor\n"
    b = Board.parse(text)
    assert b.height == 11 and b.spaces[-1] == "A11"


def test_drawing_it_again_gives_an_equal_board():
    b = small()
    again = Board.parse(b.drawing())
    assert again == b and again.drawing() == b.drawing()
    assert again.cells[again.space("D1")] == " .r"


def test_a_board_built_in_python_draws_and_parses():
    b = Board(2, 2, cells={"A1": ".", "B2": "x"}, legend={".": (("outdoor", None),), "x": (("car", "blue"),)},
              edges={("A1", "B1"): "door", ("B1", "B2"): "window"})
    again = Board.parse(b.drawing())
    assert again == b
    assert again.edge("A1", "B1") == "door" and again.mark_value("B2", "car") == "blue"


# ------------------------------------------------------------------ parsing: bad drawings, exact positions

GOOD = """\
    A   B   C
  +---+---+---+
1 | .   . | . |
  +   +///+---+
2 | . : . # . |
  +---+---+---+
mark . outdoor
"""

BAD = [
    # (name, drawing, line, column, code, words in the message)
    ("unknown edge between columns", GOOD.replace("1 | .   . | . |", "1 | .   . x . |"),
     3, 11, "B006", "'x' is not a line between columns"),
    ("unknown edge between rows", GOOD.replace("+   +///+---+", "+   +/-/+---+"),
     4, 8, "B005", "'/-/' is not a line between rows"),
    ("a missing corner post", GOOD.replace("+   +///+---+", "+    ///+---+"),
     4, 7, "B004", "expected a corner post '+' here"),
    ("a separator out of line", GOOD.replace("  +   +///+---+", "   +   +///+---+"),
     4, 4, "B004", "its first '+' belongs in column 3"),
    ("an undeclared mark", GOOD.replace("2 | . : .", "2 | . : Z"),
     5, 9, "B011", "the mark 'Z' is not declared"),
    ("a wrong row number", GOOD.replace("2 | .", "3 | ."),
     5, 1, "B007", "expected row 2 here, not '3'"),
    ("a missing row number", GOOD.replace("2 | .", "  | ."),
     5, 3, "B007", "expected row 2 here, not '|'"),
    ("a line that is no row", GOOD.replace("2 | . : . # . |", "?"),
     5, 1, "B007", "expected a row line, starting with its number"),
    ("a row number that is not the next", GOOD.replace("2 | .", "x | ."),
     5, 1, "B007", "expected row 2 here, not 'x'"),
    ("a row that stops short", GOOD.replace("2 | . : . # . |", "2 | . : . # ."),
     5, 14, "B009", "ends before the board's right edge"),
    ("a cell one character too wide", GOOD.replace("2 | . : . # . |", "2 | . : .  # . |"),
     5, 12, "B017", "'#' draws an edge and cannot mark a space"),
    ("a door in the right edge", GOOD.replace("2 | . : . # . |", "2 | . : . # . /"),
     5, 15, "B008", "right edge is a wall"),
    ("an open outer edge at the top", GOOD.replace("  +---+---+---+\n1", "  +---+   +---+\n1"),
     2, 8, "B008", "outer edge is a wall: draw it '---'"),
    ("a window in the bottom edge", GOOD.replace("  +---+---+---+\nmark", "  +---+:::+---+\nmark"),
     6, 8, "B008", "outer edge is a wall"),
    ("a door in the left edge", GOOD.replace("2 | .", "2 / ."),
     5, 3, "B008", "left edge is a wall"),
    ("columns out of order", GOOD.replace("A   B   C", "A   C   B"),
     1, 9, "B003", "expected B here, not 'C'"),
    ("a column letter out of line", GOOD.replace("    A   B   C", "   A   B   C"),
     1, 4, "B018", "must stand above the middle of its column (column 5"),
    ("no bottom edge", GOOD.replace("  +---+---+---+\nmark", "mark"),
     5, 16, "B015", "must end with its bottom edge"),
    ("two separators in a row", GOOD.replace("  +   +///+---+\n", "  +   +///+---+\n  +---+---+---+\n"),
     5, 3, "B015", "two separator lines in a row"),
    ("two rows without a separator", GOOD.replace("  +   +///+---+\n", ""),
     4, 1, "B015", "expected a separator line"),
    ("no rows at all", "    A\n  +---+\n", 2, 8, "B015", "at least one row"),
    ("no top edge", "    A\n1 | . |\n", 2, 1, "B004", "followed by the top edge"),
    ("a tab", GOOD.replace("1 |", "1\t|"), 3, 2, "B001", "tabs"),
    ("text after the right edge", GOOD.replace("1 | .   . | . |", "1 | .   . | . | x"),
     3, 17, "B010", "after the board's right edge"),
    ("a wrong row number on the right", GOOD.replace("1 | .   . | . |", "1 | .   . | . | 2"),
     3, 17, "B010", "only the row's number"),
    ("a footer that differs", GOOD.replace("mark", "    A   B   D\nmark"),
     7, 13, "B003", "must repeat those above it exactly"),
    ("an edge character inside a cell", GOOD.replace("1 | .   . |", "1 | .  :. |"),
     3, 8, "B017", "':' draws an edge and cannot mark a space"),
    ("a second grid", GOOD + "\n    A\n", 9, 5, "B019", "a board has one grid"),
    ("no grid", "mark . outdoor\n", 1, 1, "B002", "has no grid"),
    ("a grid without column letters", "  +---+\n1 | . |\n  +---+\n", 1, 3, "B002", "line of column letters"),
    ("a mark that is an edge character", GOOD + "mark | wall\n", 8, 6, "B017", "'|' draws an edge"),
    ("a mark of two characters", GOOD + "mark xy wall\n", 8, 6, "B012", "one character"),
    ("a mark without a tag", GOOD + "mark x\n", 8, 7, "B012", "'mark SYMBOL TAG ...'"),
    ("a tag that is not a word", GOOD + "mark x Search\n", 8, 8, "B012", "'Search' is not a tag"),
    ("a mark declared twice", GOOD + "mark . indoor\n", 8, 6, "B012", "already declared on line 7"),
    ("an unknown declaration", GOOD + "region top rows 1\n", 8, 1, "B014", "unknown declaration 'region'"),
    ("a quadrant beyond the last row", GOOD + "quadrant top rows 1-5\n", 8, 21, "B013",
     "row 5 is not on the board (rows 1-2)"),
    ("a quadrant beyond the last column", GOOD + "quadrant top rows 1 columns A-Z\n", 8, 31, "B013",
     "column Z is not on the board (columns A-C)"),
    ("a backwards range", GOOD + "quadrant top rows 2-1\n", 8, 19, "B013", "backwards"),
    ("a quadrant without rows", GOOD + "quadrant top\n", 8, 13, "B013", "'rows' is missing"),
    ("a quadrant with a bad range", GOOD + "quadrant top rows one\n", 8, 19, "B013", "not a range of rows"),
    ("a quadrant with a capital name", GOOD + "quadrant Top rows 1\n", 8, 10, "B013", "lowercase word"),
    ("a quadrant with more after it", GOOD + "quadrant top rows 1 columns A-B x\n", 8, 33, "B013",
     "unexpected text"),
]


@pytest.mark.parametrize("name,text,line,column,code,words", BAD, ids=[case[0] for case in BAD])
def test_bad_drawings_are_refused_at_the_fault(name, text, line, column, code, words):
    d = error_of(text)
    assert (d.kind, d.code) == ("syntax", code)
    assert (d.span.path, d.span.line, d.span.column) == ("<board>", line, column), d.message
    assert words in d.message


def test_two_values_for_one_word_in_a_space():
    text = GOOD.replace("1 | .   . |", "1 | .   rb|") + "mark r search=red\nmark b search=blue\n"
    d = error_of(text)
    assert (d.code, d.span.line, d.span.column) == ("B016", 3, 10)
    assert d.message == "space B1 is given both search=red and search=blue by its marks"


def test_an_error_shows_what_is_expected():
    d = error_of(GOOD.replace("+   +///+---+", "+   +/-/+---+"))
    assert d.expected == "'---' wall, '///' door, ':::' window, '###' hedge or '   ' open"
    assert (d.span.end_column - d.span.column) == 3


def test_positions_map_into_a_file_through_a_base_span():
    # the drawing starts just after the opening quotes at line 10, column 20 of rules.ludex
    text = "\n" + GOOD.replace("1 | .   . | . |", "1 | .   . x . |")
    d = error_of(text, Span("rules.ludex", 10, 20, 10, 20))
    assert (d.span.path, d.span.line, d.span.column) == ("rules.ludex", 13, 11)
    d = error_of("    A   X\n", Span("rules.ludex", 10, 20, 10, 20))
    assert (d.span.line, d.span.column) == (10, 28)


def test_positions_map_into_a_rules_file_whose_drawing_was_dedented(tmp_path):
    from ludex.parse.syntax import parse_rules
    path = tmp_path / "tiny.ludex"
    path.write_text('board tiny """\n'
                    '        A   B   C\n'
                    '      +---+---+---+\n'
                    '    1 | .   . | . |\n'
                    '      +   +///+---+\n'
                    '    2 | . : . x . |\n'
                    '      +---+---+---+\n'
                    '    mark . outdoor\n'
                    '"""\n')
    node = parse_rules(path.read_text(), str(path)).items[0]
    d = error_of(node.drawing, node.span)
    assert (d.span.path, d.span.line, d.span.column) == (str(path), 6, 15)
    assert render(d).splitlines()[-3:-1] == ["6 |     2 | . : . x . |", "  |               ^"]


def test_a_literal_as_written_in_a_file():
    literal = '"""\n    A\n  +---+\n1 | x |\n  +---+\n"""'
    with pytest.raises(SourceError) as caught:
        Board.from_literal(literal, Span("g.ludex", 4, 13, 9, 4))
    d = caught.value.diagnostics[0]
    assert (d.span.path, d.span.line, d.span.column, d.code) == ("g.ludex", 7, 5, "B011")
    assert Board.from_literal('"""\n    A\n  +---+\n1 |   |\n  +---+\n"""', Span("g", 1, 1, 1, 1)).spaces == ["A1"]


# ------------------------------------------------------------------ spaces and edges


def test_unknown_spaces_and_facings_are_errors():
    b = small()
    with pytest.raises(BoardError, match=r"no space 'F1' on this board \(columns A-E, rows 1-3\)"):
        b.space("F1")
    with pytest.raises(BoardError, match="north, east, south or west, not 'up'"):
        b.line_of_sight("A1", "up")


def test_neighbours_in_north_east_south_west_order():
    b = small()
    assert b.neighbours("B2") == ["B1", "C2", "B3", "A2"]
    assert b.neighbours("A1") == ["B1", "A2"]
    assert b.neighbours("B2", through=["open"]) == ["C2", "A2"]
    assert b.neighbours("B2", through=["open", "door"]) == ["B1", "C2", "A2"]
    assert b.neighbour("E3", "east") is None and b.neighbour("E3", "north") == "E2"


def test_edge_toward_a_facing_and_the_outside():
    b = small()
    assert b.edge("A1", "north") == "outside" and b.edge("A1", "west") == "outside"
    assert b.edge("A1", "east") == "wall" and b.edge("A1", "south") == "open"
    assert b.edge("A1", "C1") is None and b.edge("A1", "B2") is None
    assert b.adjacent("A1", "A2") and not b.adjacent("A1", "B2") and not b.adjacent("A1", "A1")


def test_crossing_and_step_cost():
    b = small()
    assert [b.crossing("A1", x) for x in ("A2", "B1")] == ["free", "blocked"]
    assert [b.crossing(x, y) for x, y in [("B1", "C1"), ("C1", "D1"), ("D1", "E1")]] == ["free", "action", "action"]
    assert b.crossing("A1", "north") == "blocked" and b.crossing("A1", "C3") is None
    assert b.step_cost("B1", "C1") == 1 and b.step_cost("C1", "D1") is None
    assert b.step_cost("C1", "D1", through=["window"]) == 1 and b.step_cost("A1", "B1") is None
    assert b.step_cost("A1", "C1", through=list(EDGE_KINDS)) is None
    with pytest.raises(BoardError, match="unknown edge kind 'fence'"):
        b.step_cost("A1", "A2", through=["fence"])


def test_the_line_legend():
    assert {k: (e.blocks_sight, e.crossing, e.blocks_attack) for k, e in EDGE_KINDS.items()} == {
        "open": (False, "free", False), "wall": (True, "blocked", True), "door": (True, "free", False),
        "window": (False, "action", False), "hedge": (True, "action", False),
        "outside": (True, "blocked", True)}


# ------------------------------------------------------------------ line of sight

# Row 1: A1 B1 C1 in the open, a window C1:D1, D1 open to E1, a wall E1|F1.
# Row 2: A2 B2, a door B2/C2, C2 D2, a hedge D2#E2, E2 F2.  Column A: A1..A3 open, a wall A3-A4.
SIGHT = """\
    A   B   C   D   E   F
  +---+---+---+---+---+---+
1 |           :       |   |
  +   +   +   +   +   +   +
2 |       /       #       |
  +   +   +   +   +   +   +
3 |                       |
  +---+   +   +   +   +   +
4 |                       |
  +---+---+---+---+---+---+
"""


def sight():
    return Board.parse(SIGHT)


def test_sight_goes_through_open_lines_and_windows_and_stops_at_a_wall():
    assert sight().line_of_sight("A1", "east") == ["B1", "C1", "D1", "E1"]


def test_sight_stops_at_the_board_edge_and_excludes_the_viewer():
    b = sight()
    assert b.line_of_sight("F1", "south") == ["F2", "F3", "F4"]
    assert b.line_of_sight("A1", "north") == [] and b.line_of_sight("A1", "west") == []


def test_sight_stops_at_a_hedge_and_at_a_door():
    b = sight()
    assert b.line_of_sight("C2", "east") == ["D2"]
    assert b.line_of_sight("A2", "east") == ["B2"]
    assert b.line_of_sight("F2", "west") == ["E2"]


def test_a_door_does_not_block_sight_when_someone_is_beside_it():
    b = sight()
    assert b.line_of_sight("A2", "east", beside=["B2"]) == ["B2", "C2", "D2"]
    assert b.line_of_sight("A2", "east", beside=["C2"]) == ["B2", "C2", "D2"]
    assert b.line_of_sight("A2", "east", beside=["A2"]) == ["B2"]
    assert b.line_of_sight("A2", "east", beside=["E2"]) == ["B2"]


def test_a_wall_right_in_front_leaves_nothing_in_sight():
    b = sight()
    assert b.line_of_sight("E1", "east") == []
    assert b.line_of_sight("A3", "south") == []
    assert b.line_of_sight("A4", "north") == []


def test_in_sight():
    b = sight()
    assert b.in_sight("A1", "east", "D1") and not b.in_sight("A1", "east", "F1")
    assert not b.in_sight("A1", "south", "D1") and not b.in_sight("A1", "east", "A1")
    assert b.in_sight("A2", "east", "C2", beside=["B2"]) and not b.in_sight("A2", "east", "C2")


def test_spaces_ahead_for_straight_moves():
    b = sight()
    assert b.spaces_ahead("A1", "east") == ["B1", "C1"]
    assert b.spaces_ahead("A1", "east", through=["open", "window"]) == ["B1", "C1", "D1", "E1"]
    assert b.spaces_ahead("A2", "east") == ["B2", "C2", "D2"]
    assert b.spaces_ahead("A2", "east", through=["open"]) == ["B2"]


def test_straight_lines_and_facing_toward():
    b = sight()
    assert b.straight_line("A1", "A4") == ["A2", "A3", "A4"]
    assert b.straight_line("D2", "A2") == ["C2", "B2", "A2"]
    assert b.straight_line("A1", "B2") == [] and b.straight_line("A1", "A1") == []
    assert b.straight_distance("A1", "D1") == 3 and b.straight_distance("C3", "C2") == 1
    assert b.straight_distance("A1", "B2") is None and b.straight_distance("A1", "A1") is None
    assert b.in_line("B1", "B4") and not b.in_line("B1", "C2") and not b.in_line("B1", "B1")
    assert [facing_toward("C3", x) for x in ("C1", "F3", "C4", "A3")] == list(FACINGS)
    assert facing_toward("C3", "D4") is None and facing_toward("C3", "C3") is None
    assert facing_toward(b.space("A4"), "A1") == "north"


# ------------------------------------------------------------------ movement


def test_moves_go_around_walls_and_through_doors():
    b = small()
    # A1|B1 is a wall: B1 is reached through the door B2/B1, three steps away.
    assert b.steps_between("A1", "B1") == 3
    assert b.steps_between("A1", "A3") == 2
    # C1 is walled in south (---) and reached only through the door B1/C1
    assert b.steps_between("A1", "C1") == 4
    # D1 lies behind a window (C1:D1) and a window (D1:D2) and a hedge (D1#E1): no free way in
    assert b.steps_between("A1", "D1") is None
    assert b.steps_between("A1", "D1", through=["open", "door", "window"]) == 5   # ... D2, D1
    assert b.steps_between("E3", "E3") == 0


def test_spaces_within_n_steps():
    b = small()
    assert b.spaces_within("A1", 1) == ["A2"]
    assert b.spaces_within("A1", 2) == ["A2", "B2", "A3"]
    assert b.spaces_within("A1", 3) == ["B1", "A2", "B2", "C2", "A3", "B3"]
    assert "A1" not in b.spaces_within("A1", 4)
    assert b.reachable("A1", 1) == {"A1": 0, "A2": 1}


def test_spaces_within_not_through_occupied_spaces():
    b = small()
    assert b.spaces_within("A1", 3, avoid=["A2"]) == []
    assert b.spaces_within("A1", 4, avoid=["B2"]) == ["A2", "A3", "B3", "C3"]
    assert b.steps_between("A1", "C2", avoid=["B2"]) == 9      # round by row 3 and E2
    assert b.steps_between("A1", "C2", avoid=["B2", "E3"]) is None


def test_crossing_windows_and_hedges_when_allowed():
    b = small()
    assert "D1" not in b.spaces_within("D2", 1)
    assert b.spaces_within("D2", 1, through=["window"]) == ["D1"]
    assert b.spaces_within("E2", 1, through=["hedge"]) == ["E1"]
    assert b.spaces_within("D1", 1, through=["hedge", "window"]) == ["C1", "E1", "D2"]


# ------------------------------------------------------------------ built-ins


BOARD_BUILTINS = {
    "space": "space", "spaces": "list", "adjacent": "bool", "edge": "text", "crossing": "text",
    "neighbours": "list", "next-space": "space", "line-of-sight": "list", "in-sight": "bool",
    "spaces-ahead": "list", "in-line": "bool", "straight-line": "list", "straight-distance": "number",
    "facing-toward": "text", "spaces-within": "list", "steps-between": "number", "quadrants": "list",
    "quadrant-spaces": "list", "marked": "bool", "mark-value": "text", "marked-spaces": "list",
    "left-end": "card", "right-end": "card", "row-neighbours": "list", "row-adjacent": "bool",
    "row-distance": "number",
}


def test_builtins_are_registered_with_docs_and_result_types():
    for name, returns in BOARD_BUILTINS.items():
        b = BUILTINS[name]
        assert b.returns == returns, name
        assert len(b.doc) > 40, name


def test_importing_builtins_alone_registers_the_board_builtins():
    code = "from ludex.runtime.builtins import BUILTINS; assert {'line-of-sight', 'left-end'} <= set(BUILTINS)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parent.parent)


def test_board_builtins():
    b = small()
    assert call("space", b, "C2") == "C2" and isinstance(call("space", b, "C2"), Space)
    assert call("spaces", b) == b.spaces
    assert call("adjacent", b, "A1", "B1") is True
    assert call("edge", b, "A1", "B1") == "wall" and call("edge", b, "A1", "north") == "outside"
    assert call("crossing", b, "C1", "D1") == "action"
    assert call("neighbours", b, "B2") == ["B1", "C2", "B3", "A2"]
    assert call("neighbours", b, "B2", ["open"]) == ["C2", "A2"]
    assert call("next-space", b, "B2", "west") == "A2" and call("next-space", b, "A2", "west") is None
    assert call("quadrants", b, "B2") == ["top", "bottom"]
    assert call("quadrant-spaces", b, "top") == b.spaces[:10]
    assert call("marked", b, "B1", "search") and call("marked", b, "B1", "search", "red")
    assert call("mark-value", b, "D1", "search") == "blue"
    assert call("marked-spaces", b, "search", "red") == ["B1"]
    assert call("spaces-within", b, "A1", 2) == ["A2", "B2", "A3"]
    assert call("spaces-within", b, "A1", 4, ["B2"]) == ["A2", "A3", "B3", "C3"]
    assert call("spaces-within", b, "D2", 1, [], ["window"]) == ["D1"]
    assert call("steps-between", b, "A1", "C1") == 4
    assert call("steps-between", b, "A1", "D1", None, ["open", "door", "window"]) == 5


def test_sight_builtins():
    b = sight()
    assert call("line-of-sight", b, "A1", "east") == ["B1", "C1", "D1", "E1"]
    assert call("line-of-sight", b, "A2", "east", ["B2"]) == ["B2", "C2", "D2"]
    assert call("in-sight", b, "A1", "east", "E1") and not call("in-sight", b, "A2", "east", "C2")
    assert call("in-sight", b, "A2", "east", "C2", ["C2"])
    assert call("spaces-ahead", b, "A1", "east") == ["B1", "C1"]
    assert call("spaces-ahead", b, "A1", "east", ["open", "window"]) == ["B1", "C1", "D1", "E1"]
    assert call("in-line", b, "A1", "A4") and call("straight-line", b, "A1", "C1") == ["B1", "C1"]
    assert call("straight-distance", b, "A1", "C1") == 2
    assert call("facing-toward", "A1", "C1") == "east" and call("facing-toward", b.space("B2"), "B1") == "north"


def test_builtins_refuse_what_is_not_a_board():
    with pytest.raises(BoardError, match="a board is needed here"):
        call("line-of-sight", "haddonfield", "A1", "east")
    with pytest.raises(BoardError, match="no space 'Z9'"):
        call("space", small(), "Z9")
    with pytest.raises(BoardError, match="'A0' is not a space"):
        call("facing-toward", "A0", "A1")


# ------------------------------------------------------------------ rows of cards (NBC Locales)


class Card:
    def __init__(self, title):
        self.title = title

    def __repr__(self):
        return self.title


class Row:
    """A stand-in for a row zone: its cards left to right."""

    def __init__(self, cards):
        self.cards = list(cards)


def test_row_ends():
    a, b, c = Card("Town Hall"), Card("Graveyard"), Card("Guillotine")
    row = Row([a, b, c])
    assert call("left-end", row) is a and call("right-end", row) is c
    assert call("left-end", Row([])) is None and call("right-end", []) is None
    assert call("left-end", [b]) is b and call("right-end", [b]) is b


def test_row_neighbours_and_adjacency():
    a, b, c, d = (Card(t) for t in ("Town Hall", "Graveyard", "Guillotine", "Lab"))
    row = Row([a, b, c])
    assert call("row-neighbours", row, b) == [a, c]
    assert call("row-neighbours", row, a) == [b] and call("row-neighbours", row, c) == [b]
    assert call("row-neighbours", Row([a]), a) == []
    with pytest.raises(BoardError, match="Lab is not in the row"):
        call("row-neighbours", row, d)
    assert call("row-adjacent", row, a, b) and call("row-adjacent", row, c, b)
    assert not call("row-adjacent", row, a, c) and not call("row-adjacent", row, a, a)
    assert not call("row-adjacent", row, a, d)
    assert call("row-distance", row, a, c) == 2 and call("row-distance", row, c, c) == 0
    assert call("row-distance", row, a, d) is None


def test_rows_tell_equal_cards_apart():
    a, b = Card("Same"), Card("Same")
    row = Row([a, b])
    assert call("row-neighbours", row, b) == [a] and call("row-distance", row, a, b) == 1


# ------------------------------------------------------------------ the Haddonfield board


@pytest.fixture(scope="module")
def haddonfield():
    return Board.parse(HADDONFIELD.read_text(encoding="utf-8"), Span(str(HADDONFIELD), 1, 1, 1, 1))


def test_haddonfield_has_18_columns_and_a_middle_row(haddonfield):
    b = haddonfield
    assert b.columns == "ABCDEFGHIJKLMNOPQR" and b.height == 23
    assert (b.height + 1) // 2 == 12


def test_haddonfield_entry_spaces_on_the_street(haddonfield):
    b = haddonfield
    assert b.marked_spaces("entry") == ["A12", "R12"]
    assert b.marked_spaces("street") == [f"{c}12" for c in b.columns]
    assert all(b.marked(s, "outdoor") for s in b.marked_spaces("street"))


def test_haddonfield_middle_row_is_in_a_top_and_a_bottom_quadrant(haddonfield):
    b = haddonfield
    top = {q.name for q in b.quadrant_parts if q.first_row == 1}
    bottom = {q.name for q in b.quadrant_parts if q.last_row == b.height}
    assert len(top) == 2 and len(bottom) == 2 and len(b.quadrant_names) == 4
    for s in b.spaces:
        names = b.quadrants(s)
        if s.row == 12:
            assert len(names) == 2 and len(set(names) & top) == 1 and len(set(names) & bottom) == 1, s
        else:
            assert len(names) == 1, s
    assert b.quadrants("A12") == ["red", "purple"] and b.quadrants("R12") == ["green", "orange"]


def test_haddonfield_20_search_spaces_in_4_colours_one_per_quadrant(haddonfield):
    b = haddonfield
    found = b.marked_spaces("search")
    assert len(found) == 20
    colours = {b.mark_value(s, "search") for s in found}
    assert colours == set(b.quadrant_names) and len(colours) == 4
    for colour in colours:
        spaces = b.marked_spaces("search", colour)
        assert len(spaces) == 5
        assert all(b.quadrants(s) == [colour] for s in spaces), colour


def test_haddonfield_two_car_spaces_walled_in_and_entered_by_a_door(haddonfield):
    b = haddonfield
    cars = b.marked_spaces("car")
    assert cars == ["K10", "H14"]
    assert [b.mark_value(s, "car") for s in cars] == ["blue", "yellow"]
    for car in cars:
        kinds = sorted(b.edge(car, n) for n in b.neighbours(car))
        assert kinds == ["door", "wall", "wall", "wall"], car
        (door,) = [n for n in b.neighbours(car) if b.edge(car, n) == "door"]
        assert b.marked(door, "outdoor")
        assert b.steps_between("A12", car) is not None


def test_haddonfield_every_space_is_outdoor_indoor_or_a_car(haddonfield):
    b = haddonfield
    for s in b.spaces:
        assert sum(b.marked(s, w) for w in ("outdoor", "indoor", "car")) == 1, s
    assert len(b.marked_spaces("outdoor")) > 100 and len(b.marked_spaces("indoor")) > 60


def test_haddonfield_houses_are_closed_by_walls_doors_and_windows(haddonfield):
    b = haddonfield
    indoor = set(b.marked_spaces("indoor"))
    houses, seen = [], set()
    for s in b.spaces:
        if s in indoor and s not in seen:
            house = {x for x in b.reachable(s, None, ["open", "door", "window", "hedge"], avoid=[
                y for y in b.spaces if y not in indoor])}
            seen |= house
            houses.append(house)
    assert len(houses) == 4
    for house in houses:
        ways_out = [b.edge(s, n) for s in house for n in b.neighbours(s) if n not in house]
        assert set(ways_out) <= {"wall", "door", "window", "outside"}
        assert "door" in ways_out and "window" in ways_out


def test_haddonfield_has_every_kind_of_line(haddonfield):
    kinds = set(haddonfield.edges().values())
    assert kinds == {"wall", "door", "window", "hedge"}


def test_haddonfield_every_space_can_be_walked_to_from_an_entry(haddonfield):
    b = haddonfield
    assert set(b.reachable("A12")) == set(b.spaces)
    assert b.steps_between("A12", "R12") == 17


def test_haddonfield_line_of_sight_example(haddonfield):
    # "Bob can see the space in front of him and through the window to the next space. His
    # line-of-sight stops at the solid line of the hedge."
    b = haddonfield
    assert b.line_of_sight("F5", "east") == ["G5", "H5"]
    assert (b.edge("G5", "H5"), b.edge("H5", "I5")) == ("window", "hedge")


def test_haddonfield_street_sight_runs_the_whole_row(haddonfield):
    b = haddonfield
    assert b.line_of_sight("A12", "east") == [f"{c}12" for c in b.columns[1:]]


def test_haddonfield_draws_again_the_same(haddonfield):
    assert Board.parse(haddonfield.drawing()) == haddonfield


def test_the_example_in_the_format_description_parses():
    """The drawing docs/boards.md teaches the format with is a board, and means what it says."""
    from ludex.site.build import docs_source
    doc = (docs_source() / "boards.md").read_text(encoding="utf-8")
    start = doc.index("```text\n") + len("```text\n")
    example = doc[start: doc.index("```", start)]
    b = Board.parse(example)
    assert b.spaces[-1] == "E2" and b.edge("C1", "D1") == "window" and b.edge("C1", "C2") == "door"
    assert b.quadrants("A2") == ["bottom"] and b.quadrants("A1") == ["top", "bottom"]
    assert b.marked_spaces("indoor") == ["D1", "E1"]
