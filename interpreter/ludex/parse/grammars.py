"""The grammars: ``grammar/*.lark`` in; Lark's LALR parser for each, and the parse tables taken from
it, out.

Lark analyses a grammar (LALR with the contextual lexer) once per grammar version; its parser and
the tables (``tables.py``) are kept in the user's cache folder. The tables parse every well-formed
text without Lark; Lark's parser is built only for a malformed one, whose exception the diagnostic
is made from (``mistakes.py``).
"""

from __future__ import annotations

import sys
import zlib
from functools import lru_cache
from typing import TYPE_CHECKING

from ..resources import cache_dir, grammar_dir, prune
from . import tables as lalr

if TYPE_CHECKING:
    from lark import Lark


#: Grammar rules whose string child (by index) reaches the builder as its source text, quotes and
#: all: a board's drawing keeps its lines instead of becoming paragraphs.
RAW_TEXT = {"board": (1,)}


@lru_cache(maxsize=None)
def parser(start: str = "rules") -> Lark:
    """The Lark LALR parser for ``rules.lark``, ``scenario.lark`` or ``log.lark``, built once and
    cached in the cache folder (where Lark keeps its caches if that cannot be made)."""
    from lark import Lark
    path = grammar_dir() / f"{start}.lark"
    folder = cache_dir()
    name = f"lark-{start}-{zlib.crc32(_grammar(start)):08x}-py{sys.version_info[0]}{sys.version_info[1]}.cache"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        cache = str(folder / name)
    except OSError:
        cache = True
    lark = Lark(
        path.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=cache,
        import_paths=[str(grammar_dir())],
        source_path=str(path),
    )
    prune(folder, f"lark-{start}-*.cache")
    return lark


@lru_cache(maxsize=None)
def tables(start: str = "rules") -> lalr.Tables | None:
    """The parse tables of a grammar, from the cache folder or else from Lark's analysis (then
    written there). None if the grammar uses something the tables cannot reproduce: then every text
    is parsed by Lark."""
    return lalr.cached(cache_dir(), start, _grammar(start), lambda: lalr.extract(parser(start), RAW_TEXT))


@lru_cache(maxsize=None)
def _grammar(start: str) -> bytes:
    """What a grammar's parser is made from: the grammar files, and which children reach the
    builder as source text."""
    material = [f"{start} {RAW_TEXT!r}".encode()]
    for path in sorted(grammar_dir().glob("*.lark")):
        material += [path.name.encode(), path.read_bytes()]
    return b"\0".join(material)
