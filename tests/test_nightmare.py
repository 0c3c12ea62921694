"""Whole games of rules/nightmare.ludex (The Nightmare Before Christmas TCG, Round Order) played by
random agents: every game runs exactly twelve Rounds (one per Day Counter), ends with winners chosen
by the Scare Point tally, and keeps the state's invariants."""

from __future__ import annotations

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine import Game
from interpreter.project import load_game

SEEDS = range(1, 201)


@pytest.fixture(scope="module")
def nightmare():
    loaded = load_game("nightmare")
    assert loaded.ok, loaded.diagnostics
    return loaded.game


def play(gamedef, seed: int) -> Game:
    count = 2 + seed % 3                      # 2, 3 and 4 players in turn
    game = Game(gamedef, [f"p{i + 1}" for i in range(count)], RandomAgent(seed), seed=seed)
    game.run()
    return game


@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_lasts_twelve_rounds_and_ends_with_winners(nightmare, seed):
    game = play(nightmare, seed)
    state = game.state
    assert game.over
    assert game.winners, "the tally names at least one winner"
    # one Round per Day Counter: twelve begin, and the last one's End Phase ends the game
    rounds = [e for e in game.trace if e.data.get("event") == "begin round"]
    assert len(rounds) == 12
    assert state.fields["day-counters"] == 0 and state.fields["days-passed"] == 12
    assert game.trace[-1].kind == "win" and game.trace[-1].rule == "game-end"
    # the winners are the players with the most Scare Points
    best = max(p.fields["scare-points"] for p in state.players)
    assert {p.name for p in game.winners} == {p.name for p in state.players if p.fields["scare-points"] == best}
    # invariants: no card lost or duplicated, counters within bounds, Day Counters conserved
    assert state.invariant_breaks() == []
    assert sum(len(z.cards) for z in state.all_zones()) == len(state.cards)
    assert state.fields["day-counters"] + state.fields["days-passed"] == 12
    for p in state.players:
        # a row of Locales: the Starting Locale and one new Locale for each of Rounds 2 to 12
        assert len(p.zones["locales"].cards) == 12
        assert all(c.face_up for c in p.zones["locales"].cards)
        assert not p.zones["new-locale"].cards and not p.zones["locale-deck"].cards
        # no duplicates in a player's own Halloweentown
        town = [c.title for z in ("locales", "characters", "creations", "table") for c in p.zones[z].cards]
        assert len(town) == len(set(town))
        # every Character is below one of its owner's Locales
        assert all(c.attrs["locale"] in p.zones["locales"].cards for c in p.zones["characters"].cards)
    # every event cites a rule of the game (or the flow)
    assert all(e.rule in nightmare.rules or e.rule == "" for e in game.trace)


def test_same_seed_same_game(nightmare):
    a = [e.as_json() for e in play(nightmare, 5).trace]
    b = [e.as_json() for e in play(nightmare, 5).trace]
    assert a == b
