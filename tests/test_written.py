"""The code the engine writes for speed does what the plainer code beside it does.

- A block written as one Python function (``blocks.py``) against the same block as a loop over its
  statements' closures (``Compiler.closure_block``): whole random games of every bundled game and of
  the tally test game give the same trace, winners and step count.
- A state check polled only when something it reads may have changed (``reads.py``) against one
  polled whenever the state changed.
- A play's legal arguments written as one function against its candidates filtered by its
  requirements.
- Blocks nested deeper than Python nests blocks, and their errors' positions.
"""

from pathlib import Path

import pytest

from interpreter.agents import RandomAgent
from interpreter.compiler import Compiler
from interpreter.diagnostics import RuntimeRuleError
from interpreter.engine import Game
from interpreter.model import assemble
from interpreter.project import load_game, load_paths
from interpreter.resources import bundled_games
from interpreter.syntax import parse_rules

TALLY = Path(__file__).parent / "games" / "tally.ludex"
GAMES = bundled_games() + ["tally"]


def _load(key):
    loaded = load_paths("tally", [TALLY]) if key == "tally" else load_game(key)
    assert loaded.ok, loaded.diagnostics
    return loaded.game


def _outcome(gamedef, seed, adjust=None):
    count = 3 if gamedef.header is None or gamedef.header.min_players < 3 <= gamedef.header.max_players \
        else gamedef.header.min_players
    game = Game(gamedef, [f"p{i + 1}" for i in range(count)], RandomAgent(seed), seed=seed)
    if adjust:
        adjust(game)
    try:
        winners = [str(w) for w in game.run()]
    except RuntimeRuleError as exc:
        winners = str(exc)
    return [e.as_json() for e in game.trace], winners, game.steps


@pytest.mark.parametrize("key", GAMES)
def test_written_blocks_do_what_the_closures_do(key, monkeypatch):
    written = _load(key)
    expected = [_outcome(written, seed) for seed in range(1, 4)]
    monkeypatch.setattr(Compiler, "block", Compiler.closure_block)
    closures = _load(key)           # a new GameDef: its rules compiled again, as closures
    assert [_outcome(closures, seed) for seed in range(1, 4)] == expected


@pytest.mark.parametrize("key", GAMES)
def test_state_checks_polled_less_find_what_they_found(key):
    gamedef = _load(key)

    def poll_always(game):
        game._polls = [(i, rule, poll, None, True) for i, rule, poll, *_ in game._polls]
        game._watched = None

    for seed in range(1, 4):
        assert _outcome(gamedef, seed) == _outcome(gamedef, seed, poll_always)


@pytest.mark.parametrize("key", GAMES)
def test_written_legal_arguments_are_the_candidates_that_pass(key):
    gamedef = _load(key)
    checked = 0

    def compare(game):
        nonlocal checked
        for action in game.actions.values():
            for player in game.state.players:
                expected = [args for args in action.candidates(game, player) if action.allows(game, player, args)]
                plays = action.legal(game, player)
                assert [play.args for play in plays] == expected
                assert all(play.action == action.node.name and play.player is player for play in plays)
                checked += 1

    for seed in range(1, 3):
        game = Game(gamedef, ["p1", "p2", "p3"][:max(2, gamedef.header.min_players if gamedef.header else 2)],
                    RandomAgent(seed), seed=seed)
        original = game.agent

        def agent(game, decision, original=original):
            if decision.kind == "play":
                compare(game)
            return original(game, decision)
        game.agent = agent
        try:
            game.run()
        except RuntimeRuleError:
            pass
    assert checked or not gamedef.actions


def _nested(depth, inner, make):
    body = inner
    for i in range(depth):
        body = make(i, body)
    return parse_rules(f'''game t "T" {{ players 2 to 2 }}
state {{ game counter n = 0 }}
rule 1 "R" {{
  text "Nested."
  {body}
}}
flow {{ run 1 }}
''', "nested.ludex")


@pytest.mark.parametrize("make", [
    lambda i, body: f"if n >= 0 {{ {body} }}",
    lambda i, body: f"for each v{i} in [1] {{ {body} }}",
    lambda i, body: f"simultaneously for each v{i} in [1] {{ {body} }}",
    lambda i, body: f"repeat {{ {body} }} until true",
], ids=["if", "for-each", "simultaneously", "repeat"])
def test_blocks_nested_deeper_than_python_nests_them(make):
    gamedef = assemble("t", [_nested(50, "increase n by 1", make)])
    game = Game(gamedef, ["a", "b"], RandomAgent(1))
    game.run()
    assert game.state.fields["n"] == 1 and game.steps == 52


def test_a_wrong_value_deep_inside_is_reported_at_its_statement():
    gamedef = assemble("t", [_nested(40, 'increase n by "x"', lambda i, body: f"if true {{ {body} }}")])
    with pytest.raises(RuntimeRuleError) as exc:
        Game(gamedef, ["a", "b"], RandomAgent(1)).run()
    d = exc.value.diagnostics[0]
    assert d.rule == "1" and d.message.startswith("this cannot be done with these values")
    assert (d.span.line, d.span.column) == (5, 3 + len("if true { ") * 40)
