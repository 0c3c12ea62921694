"""The benchmark's hand-written Huntik (benchmarks/huntik_by_hand.py) plays the engine's games of
rules/huntik.ludex: for each seed, the same winners and the same trace, event for event. Without this the
hand-written game could drift from the rules unnoticed, and the benchmark's ratio would compare different
games."""

from __future__ import annotations

import pytest

from conftest import load_benchmark
from ludex.engine.agents import RandomAgent
from ludex.engine.game import Game
from ludex.load import load_game

SEEDS = range(1, 31)


@pytest.fixture(scope="module")
def by_hand():
    return load_benchmark("huntik_by_hand")


@pytest.fixture(scope="module")
def huntik():
    loaded = load_game("huntik")
    assert loaded.ok, loaded.diagnostics
    return loaded.game


@pytest.mark.parametrize("seed", SEEDS)
def test_the_hand_written_game_is_the_engines(huntik, by_hand, seed):
    game = Game(huntik, ["p1", "p2"], RandomAgent(seed), seed=seed)
    game.run()
    trace = [(e.rule, e.kind, e.text, e.player) for e in game.trace]
    winners, hand_trace = by_hand.play(seed)
    for i, (engine_event, hand_event) in enumerate(zip(trace, hand_trace), 1):
        assert hand_event == engine_event, f"seed {seed}: event {i} differs"
    assert len(hand_trace) == len(trace), f"seed {seed}: {len(trace)} events by the engine, {len(hand_trace)} by hand"
    assert winners == [p.name for p in game.winners]
