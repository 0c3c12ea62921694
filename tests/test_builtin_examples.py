"""Every built-in's examples, worked out: the documentation says what the engine does.

Each built-in and built-in name (``BUILTINS``, ``CONSTANTS``: ``interpreter/ludex/runtime/builtins.py`` and
``interpreter/ludex/runtime/board.py``) ends its documentation with examples, a line each, which the rules site's
built-ins page shows::

    Example: next-player(ann) gives cat  # bob, out of the game, is skipped

Each is worked out here in the game ``tests/games/builtins.ludex`` once its set-up has run, as a
scenario's expectation is: the expression and the result are read by the scenario parser, checked by
the rules' static checks, and worked out by the compiler and the engine (never by calling the
built-in's Python function). What the expression gives must be what the result writes, and of the
kind the built-in says it gives. A built-in without an example fails.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path

import pytest

from ludex.runtime.board import Space
from ludex.runtime.builtins import BUILTINS, CONSTANTS
from ludex.runtime.registry import example_lines, parse_example
from ludex.check.checks import Checker
from ludex.diagnostics import LudexError, render_all
from ludex.load import load_paths
from ludex.scenarios.runner import Runner, render_failure
from ludex.runtime.state import Card, Player, Zone
from ludex.parse.syntax import parse_scenarios

GAME = Path(__file__).parent / "games" / "builtins.ludex"
PLAYERS = ("ann", "bob", "cat")

#: An example as a scenario: the game's set-up, then the expression and the result, each an expression
#: a scenario's line reads (``expect`` is only their vehicle here: neither is a condition to meet).
SCENARIO = '''scenario "{name}" {{
  players {players}
  run setup
  expect {expression}
  expect {result}
}}
'''


@lru_cache(maxsize=None)
def game():
    loaded = load_paths("builtins", [GAME])
    assert loaded.ok, render_all(loaded.diagnostics)
    return loaded.game


def every_builtin():
    return list(CONSTANTS.values()) + list(BUILTINS.values())


def examples():
    """Every example, with its built-in: its id is the built-in's name, numbered from the built-in's
    second example on (``next-player``, ``next-player-2``)."""
    out = []
    for b in every_builtin():
        for i, example in enumerate(b.examples, 1):
            out.append(pytest.param(b, example, id=b.name if i == 1 else f"{b.name}-{i}"))
    return out


# ------------------------------------------------------------------ working an example out


def work_out(name: str, expression: str, result: str):
    """What ``expression`` gives and the value ``result`` writes, both worked out in the examples' game
    after its set-up. A ``LudexError`` if either does not parse, does not check or cannot be worked
    out."""
    text = SCENARIO.format(name=name, players=", ".join(PLAYERS), expression=expression, result=result)
    file = parse_scenarios(text, f"<example of {name}>")
    (scenario,) = file.scenarios
    setup, expect_expression, expect_result = scenario.steps
    exprs = [expect_expression.args[0], expect_result.args[0]]
    problems = Checker(game()).check_script(scenario.players, (), exprs)
    if problems:
        raise LudexError(problems)
    runner = Runner(game(), dataclasses.replace(scenario, steps=(setup,)))
    ran = runner.run()
    assert ran.passed, render_failure(ran)
    return runner.value(exprs[0]), runner.value(exprs[1])


def same(value, stated) -> bool:
    """Whether a value is the one the example writes: a card by its title, a space by its name (both
    text), a list item by item, anything else as itself and of the same kind (3 is not "3", true is
    not 1, an empty list is not none)."""
    if type(value) is Card:
        return type(stated) is str and stated == value.title
    if isinstance(value, (list, tuple)):
        return isinstance(stated, (list, tuple)) and len(value) == len(stated) and \
            all(same(v, s) for v, s in zip(value, stated))
    if isinstance(value, str):
        return type(stated) is str and str(value) == stated
    return type(value) is type(stated) and (value is stated or value == stated)


def written(value) -> str:
    """A value as an example writes it."""
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is Card:
        return f'"{value.title}"'
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(written(v) for v in value) + "]"
    return str(value)


#: The Python values of each kind a built-in says it gives (``Builtin.returns``); none is allowed for
#: any, as ``top`` gives for an empty zone.
KINDS = {"number": (int,), "bool": (bool,), "player": (Player,), "card": (Card,), "zone": (Zone,),
         "list": (list,), "text": (str,), "space": (Space,), "none": ()}


def of_its_kind(value, returns: str) -> bool:
    if value is None or returns == "any":
        return True
    if returns == "number":
        return type(value) is int          # not true or false
    return isinstance(value, KINDS[returns])


def mismatch(b, expression: str, result: str):
    """What is wrong with an example of built-in ``b`` (None if nothing): the diagnostics of an
    expression that does not check or cannot be worked out, or what it gives instead."""
    try:
        value, stated = work_out(b.name, expression, result)
    except LudexError as exc:
        return render_all(exc.diagnostics)
    if not same(value, stated):
        return f"{expression} gives {written(value)}, not {result}"
    if not of_its_kind(value, b.returns):
        return f"{expression} gives {written(value)}, which is not of the kind {b.name} gives ({b.returns})"
    return None


# ------------------------------------------------------------------ the examples


@pytest.mark.parametrize("b, example", examples())
def test_the_example_gives_what_it_says(b, example):
    problem = mismatch(b, example.expression, example.result)
    assert problem is None, f"{b.name}: Example: {example.expression} gives {example.result}\n{problem}"


def test_every_built_in_and_built_in_name_has_an_example_and_each_is_well_formed():
    """A built-in added without an example fails here: its documentation must show it at work."""
    without = [b.name for b in every_builtin() if not b.examples]
    assert without == [], f"built-ins without an example (write 'Example: ... gives ...'): {without}"
    malformed = [line for b in every_builtin() for line in example_lines(b.doc) if parse_example(line) is None]
    assert malformed == [], f"examples not written 'Example: EXPRESSION gives RESULT  # note': {malformed}"


def test_an_example_calls_the_built_in_it_documents():
    """An example of ``next-player`` that never calls it would document nothing."""
    for b in every_builtin():
        for example in b.examples:
            assert b.name in example.expression, f"{b.name}: {example.expression}"


@pytest.mark.parametrize("name, expression, result", [
    ("next-player", "next-player(ann)", "bob"),                               # another player
    ("next-player", "next-player(ann)", '"cat"'),                             # text, not the player
    ("top", "top(ann.hand)", '"Rope"'),                                       # another card's title
    ("top", "top(cat.hand)", '""'),                                           # none is not empty text
    ("size", "size(cat.hand)", "none"),                                       # 0 is not none
    ("player-count", "player-count", '"3"'),                                  # 3 is not "3"
    ("odd", "odd(7)", "1"),                                                   # true is not 1
    ("even", "even(0)", "false"),
    ("cards", "cards(cat.hand)", "none"),                                     # an empty list is not none
    ("neighbours", 'neighbours(yard, "B2")', '["A2", "B1", "C2", "B3"]'),     # the order matters
    ("line-of-sight", 'line-of-sight(yard, "A1", "east")', '["B1", "C1"]'),   # the door blocks sight
    ("zone-of", "zone-of(left-end(ann.street))", "ann.hand"),                 # another zone
    ("reverse", "reverse(ann.hand)", '["Bell", "Rope"]'),                     # a list too short
    ("size", "size(top(ann.hand))", "1"),                                     # refused by the checks
    ("size", "size(ann.hand", "3"),                                           # does not parse
    ("row-neighbours", "row-neighbours(ann.street, top(ann.hand))", "[]"),    # an error when worked out
])
def test_an_example_stating_a_wrong_result_fails(name, expression, result):
    """The check is not blind: an example whose result is wrong (of another value or kind), or whose
    expression does not check or cannot be worked out, is reported."""
    b = {**BUILTINS, **CONSTANTS}[name]
    assert mismatch(b, expression, result) is not None


def test_a_wrong_result_is_reported_with_what_the_expression_gives():
    assert mismatch(BUILTINS["next-player"], "next-player(ann)", "bob") == "next-player(ann) gives cat, not bob"
    assert mismatch(BUILTINS["line-of-sight"], 'line-of-sight(yard, "A1", "east")', '["B1", "C1"]') == \
        'line-of-sight(yard, "A1", "east") gives ["B1"], not ["B1", "C1"]'
    assert "a list or a zone is needed here, but this is a card" in \
        mismatch(BUILTINS["size"], "size(top(ann.hand))", "1")


# ------------------------------------------------------------------ what the examples found


@pytest.mark.parametrize("expression", ["sum([true, true])", "max([1, \"b\"])", "min([2, none])"])
def test_sum_min_and_max_refuse_what_is_not_a_number_when_worked_out(expression):
    """``sum([true, true])`` gave 2 and ``max("a", "b")`` gave "b": Python counted true as 1 and
    compared text. Each item must be a number (true and false are not one)."""
    with pytest.raises(LudexError) as exc:
        work_out("sum", expression, "0")
    (d,) = exc.value.diagnostics
    assert d.code == "C014" and "is not a number" in d.message


@pytest.mark.parametrize("expression, wanted", [
    ("sum(true, 2)", "a number is needed here, but this is true or false"),
    ('max("a", "b")', "a number is needed here, but this is text"),
    ("min(players)", "a number or a list of numbers is needed here, but this is a list of players"),
    ("sum(ann.hand)", "a number or a list of numbers is needed here, but this is a zone"),
    ("sum([1, 2], 3)", "a number is needed here, but this is a list"),
])
def test_sum_min_and_max_of_what_is_certainly_not_numbers_are_refused_by_the_checks(expression, wanted):
    with pytest.raises(LudexError) as exc:
        work_out("sum", expression, "0")
    assert exc.value.diagnostics[0].code == "S020"
    assert exc.value.diagnostics[0].message == wanted


@pytest.mark.parametrize("expression", ["sum(size(ann.hand), 2)", "max(count c in cards(ann.hand): c.price > 1)",
                                        "min([3, 1])", "sum(range(1, 3))"])
def test_sum_min_and_max_of_numbers_or_a_list_still_check(expression):
    work_out("sum", expression, "0")
