"""The grammars: ``grammar/*.lark`` in; Lark's LALR parser for each, and the parse tables taken from
it, out.

Lark analyses a grammar (LALR with the contextual lexer) once per grammar version; its analysis
and the tables (``tables.py``) are kept in the user's cache folder as plain data (``marshal``,
checked when read back: never a pickle, which runs code as it loads), or nowhere if that folder is
not the user's own (``resources.usable_cache_dir``). The tables parse every well-formed
text without Lark; Lark's parser is built only for a malformed one, whose exception the diagnostic
is made from (``mistakes.py``).
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..resources import grammar_dir, usable_cache_dir
from . import tables as lalr

if TYPE_CHECKING:
    from lark import Lark


#: Grammar rules whose string child (by index) reaches the builder as its source text, quotes and
#: all: a board's drawing keeps its lines instead of becoming paragraphs.
RAW_TEXT = {"board": (1,)}


@lru_cache(maxsize=None)
def parser(start: str = "rules") -> Lark:
    """The Lark LALR parser for ``rules.lark``, ``scenario.lark`` or ``log.lark``: from Lark's
    analysis kept in the cache folder as plain data, else analysed now (then kept there)."""
    from lark import Lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    folder = usable_cache_dir()
    material = b"\0".join([_grammar(start), Path(__file__).read_bytes(), lalr.lark_version()])
    path = None if folder is None else folder / (
        f"{start}-{lalr.digest(material)}-py{sys.version_info[0]}{sys.version_info[1]}.lark")
    kept = lalr.read(path, material)
    if kept is not None:
        loaded = _loaded(kept)
        if loaded is not None:
            return loaded
    grammar = grammar_dir() / f"{start}.lark"
    lark = Lark(grammar.read_text(encoding="utf-8"), cache=False, import_paths=[str(grammar_dir())],
                source_path=str(grammar), **_OPTIONS)
    try:
        data, memo = lark.memo_serialize([TerminalDef, Rule])
        kept = _plain_data({"data": data, "memo": memo})
    except Exception:                   # another Lark: nothing kept, the parser is as good
        kept = None
    if kept is not None:
        lalr.write(path, material, kept)
    return lark


#: How Lark is asked to parse; a parser read back from the cache folder must have been made so.
_OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True, "maybe_placeholders": True}
#: What Lark takes from the caller, not from a kept analysis: given here, so that nothing in the
#: file can name a transformer, callbacks or a lexer hook.
_GIVEN = {"postlex": None, "transformer": None, "lexer_callbacks": {}, "tree_class": None, "regex": False,
          "use_bytes": False, "g_regex_flags": 0, "debug": False, "propagate_positions": True, "_plugins": {}}


def _loaded(kept) -> Lark | None:
    """A parser from Lark's analysis as plain data (``Lark.memo_serialize``, what Lark's standalone
    generator also writes), or None if it is not plain data, does not load, or was made otherwise."""
    from lark import Lark
    if (type(kept) is not dict or set(kept) != {"data", "memo"} or type(kept["data"]) is not dict
            or type(kept["data"].get("options")) is not dict or not lalr.plain(kept)):
        return None
    try:
        lark = Lark._load_from_dict(kept["data"], kept["memo"], **_GIVEN)
        if any(lark.options.options.get(key) != value for key, value in _OPTIONS.items()):
            return None
        return lark
    except Exception:                   # damaged, or of another Lark: analysed again
        return None


def _plain_data(value):
    """Lark's serialized parser with its ``Token`` names as plain strings, for ``marshal``."""
    kind = type(value)
    if kind is dict:
        return {_plain_data(k): _plain_data(v) for k, v in value.items()}
    if kind is list:
        return [_plain_data(v) for v in value]
    if kind is tuple:
        return tuple(_plain_data(v) for v in value)
    if isinstance(value, str):
        return str(value)
    return value


@lru_cache(maxsize=None)
def tables(start: str = "rules") -> lalr.Tables | None:
    """The parse tables of a grammar, from the cache folder or else from Lark's analysis (then
    written there). None if the grammar uses something the tables cannot reproduce: then every text
    is parsed by Lark."""
    return lalr.cached(usable_cache_dir(), start, _grammar(start), lambda: lalr.extract(parser(start), RAW_TEXT))


@lru_cache(maxsize=None)
def _grammar(start: str) -> bytes:
    """What a grammar's parser is made from: the grammar files, and which children reach the
    builder as source text."""
    material = [f"{start} {RAW_TEXT!r}".encode()]
    for path in sorted(grammar_dir().glob("*.lark")):
        material += [path.name.encode(), path.read_bytes()]
    return b"\0".join(material)
