"""Errata applied: a rule's reference text and its errata in, the text as corrected out.

An erratum (``erratum faq "1.0" replaces "reserve modifiers" with "initiative modifiers"``, the node
``ast.Erratum``; written in its rule or apart with ``on 1.3``, both listed in ``GameDef.errata``)
corrects the words of its rule's reference text: its ``text`` blocks, not its notes or examples,
which are the transcriber's own. ``text_as_corrected`` is the one place that works the correction
out; ``ludex explain`` prints its pieces with the corrected words marked, and any other reader (the
rules site) can mark the same pieces its own way. The text as published is the text itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional

from . import ast as A


@dataclass(frozen=True)
class Piece:
    """A stretch of a text as corrected. ``text`` reads as the text reads now; where an erratum put it
    there, ``erratum`` is that erratum and ``published`` the words it replaced, as printed."""
    text: str
    erratum: Optional[A.Erratum] = None
    published: str = ""


def errata_on(game, rule_id: str) -> list:
    """The errata of a rule (``GameDef.errata``: in its block or written apart), in source order."""
    return [erratum for rid, erratum, _ in game.errata if rid == rule_id]


def _phrase(words: str) -> str:
    """A pattern for words as the text may carry them: the same words, any run of white space between
    them (a text's lines were joined, so "reserve\\nmodifiers" and "reserve modifiers" are one)."""
    return r"\s+".join(re.escape(w) for w in words.split())


def text_as_corrected(text: str, errata: Iterable[A.Erratum]) -> tuple:
    """The pieces of ``text`` with every erratum applied: each occurrence of an erratum's old words is a
    piece carrying its new words (and the erratum); the rest is pieces as published. Joined, the
    pieces' ``text`` is the text as corrected. Two errata never overlap: where their old words do,
    the one starting first wins (the longer, where they start together), as a reader would take them."""
    found = []
    for erratum in errata:
        if not erratum.old.strip():
            continue
        for m in re.finditer(_phrase(erratum.old), text):
            found.append((m.start(), -(m.end() - m.start()), m.end(), erratum))
    found.sort(key=lambda f: (f[0], f[1]))
    pieces, pos = [], 0
    for start, _, end, erratum in found:
        if start < pos:
            continue
        if start > pos:
            pieces.append(Piece(text[pos:start]))
        pieces.append(Piece(erratum.new, erratum, text[start:end]))
        pos = end
    if pos < len(text) or not pieces:
        pieces.append(Piece(text[pos:]))
    return tuple(pieces)


def corrected(text: str, errata: Iterable[A.Erratum]) -> str:
    """The text as corrected, as plain words (``text_as_corrected`` joined)."""
    return "".join(p.text for p in text_as_corrected(text, errata))
