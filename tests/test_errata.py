"""parse/errata.py: a rule's text and its errata in, the text as corrected out, in pieces that carry
the erratum behind each corrected phrase (what ``ludex explain`` marks: tests/test_explain.py)."""

from __future__ import annotations

from ludex.load import load_game
from ludex.parse import ast as A
from ludex.parse.ast import NOWHERE
from ludex.parse.errata import Piece, corrected, errata_on, text_as_corrected


def erratum(old, new, source="faq", version="1.0"):
    return A.Erratum(NOWHERE, source, version, old, new)


def test_the_text_as_corrected_is_pieces_carrying_their_erratum():
    e = erratum("reserve modifiers", "initiative modifiers")
    pieces = text_as_corrected("all relevant reserve modifiers) wins", [e])
    assert pieces == (Piece("all relevant "), Piece("initiative modifiers", e, "reserve modifiers"), Piece(") wins"))
    assert corrected("all relevant reserve modifiers) wins", [e]) == "all relevant initiative modifiers) wins"


def test_every_occurrence_is_corrected_across_white_space_and_text_without_errata_is_one_piece():
    e = erratum("reserve modifiers", "initiative modifiers")
    text = "reserve\n  modifiers and reserve modifiers"
    assert corrected(text, [e]) == "initiative modifiers and initiative modifiers"
    assert [p.published for p in text_as_corrected(text, [e]) if p.erratum] == ["reserve\n  modifiers",
                                                                               "reserve modifiers"]
    assert text_as_corrected(text, []) == (Piece(text),)
    assert text_as_corrected("", [e]) == (Piece(""),)


def test_overlapping_errata_the_first_to_start_wins_then_the_longer():
    short, long_ = erratum("reserve", "initiative"), erratum("reserve value", "initiative value")
    assert corrected("the reserve value", [short, long_]) == "the initiative value"
    assert corrected("a b c", [erratum("b c", "X"), erratum("a b", "Y")]) == "Y c"


def test_a_rules_errata_are_those_in_its_block_and_those_written_apart():
    gamedef = load_game("agot").game
    assert [(e.source, e.old) for e in errata_on(gamedef, "1.3")] == [("faq", "reserve modifiers")]
    assert errata_on(gamedef, "1.2") == []
    text = gamedef.rules["1.3"].docs[0].text
    assert "relevant initiative modifiers) wins" in corrected(text, errata_on(gamedef, "1.3"))
