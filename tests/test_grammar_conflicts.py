"""The grammars' shift/reduce conflicts, pinned.

Lark's LALR analysis resolves a shift/reduce conflict by shifting: ``a.b[1]`` keeps reading the
postfix chain rather than ending the expression at ``a.b``; ``emit done (x)`` takes the brackets as the
event's arguments. Each conflict the grammars have is listed in ``tests/golden/conflicts/*.txt``, so
that a grammar change adding one fails here and its resolution is reviewed, not discovered later
in a misread rule (``pytest --update-goldens`` rewrites the lists).
"""

import io
import logging
from pathlib import Path

import pytest
from lark import Lark, logger

from ludex.resources import grammar_dir

GOLDEN = Path(__file__).parent / "golden" / "conflicts"


def conflicts(start: str) -> str:
    """Every conflict Lark reports for a grammar: the terminal, how it resolved it, and the rule it
    would otherwise have reduced; sorted, one per line."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        path = grammar_dir() / f"{start}.lark"
        Lark(path.read_text(encoding="utf-8"), parser="lalr", lexer="contextual", propagate_positions=True,
             maybe_placeholders=True, import_paths=[str(grammar_dir())], debug=True)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    found, current = set(), None
    for line in stream.getvalue().splitlines():
        if "conflict for terminal" in line:
            current = line.strip()
        elif line.startswith(" * ") and current:
            found.add(f"{current}  reducing {line[3:].strip()}")
    return "".join(f"{c}\n" for c in sorted(found))


@pytest.mark.parametrize("start", ["rules", "scenario", "log", "question"])
def test_the_grammar_has_only_the_reviewed_conflicts(start, goldens):
    listed = conflicts(start)
    assert "Reduce/Reduce" not in listed
    goldens.check(GOLDEN / f"{start}.txt", listed)
