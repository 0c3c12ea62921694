"""Whole games of rules/huntik.ludex (Huntik TCG, section 5 "Round and Turn Sequence") played by random
agents, as ``ludex run huntik --seed N`` plays them: every game ends with a winner within seven rounds
(the mission timer, 500.1, 501.1), and keeps the state's invariants."""

from __future__ import annotations

import pytest

from ludex.engine.agents import RandomAgent
from ludex.engine.game import Game
from ludex.load import load_game

SEEDS = range(1, 201)
PLAYERS = ["p1", "p2"]


@pytest.fixture(scope="module")
def huntik():
    loaded = load_game("huntik")
    assert loaded.ok, loaded.diagnostics
    return loaded.game


def play(gamedef, seed: int) -> Game:
    """The game `ludex run huntik --seed N` plays (interpreter/ludex/commands/run.py, cmd_run)."""
    game = Game(gamedef, list(PLAYERS), RandomAgent(seed), seed=seed)
    game.run()
    return game


@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_ends_with_a_winner_within_seven_rounds(huntik, seed):
    game = play(huntik, seed)
    state = game.state
    assert game.over
    assert game.winners and len(game.winners) == 1, "one player wins"
    # within seven rounds: the mission timer never passes 7 (500.1), and no more than six rounds start after
    # the first (502.1 begins rounds 2 to 7)
    assert 1 <= state.fields["mission-timer"] <= 7
    assert sum(1 for e in game.trace if e.data.get("event") == "begin round") <= 6
    # no mission is won in these games, so the game ends at the end of round seven and the defending player
    # wins (501.1)
    assert state.fields["mission-timer"] == 7
    assert game.winners == [state.fields["defending-player"]]
    assert game.trace[-1].kind == "win" and game.trace[-1].rule == "501.1"
    # invariants: bounds, zones and cards agree, no card lost or duplicated
    assert state.invariant_breaks() == []
    assert sum(len(z.cards) for z in state.all_zones()) == len(state.cards) == 60
    # every event cites a rule of the game (or the flow)
    assert all(e.rule in huntik.rules or e.rule == "" for e in game.trace)


def test_same_seed_same_game(huntik):
    a = [e.as_json() for e in play(huntik, 5).trace]
    b = [e.as_json() for e in play(huntik, 5).trace]
    c = [e.as_json() for e in play(huntik, 6).trace]
    assert a == b
    assert a != c
