"""The targets benchmark (benchmarks/targets.py) judges each row against its target and says why a
miss is one from what it measured; the paired measures it reuses (the Huntik engine ratio, the cost
of simulating) give ratios from interleaved rounds. Nothing here is timed against a figure: the tests
keep the verdicts and the measures' shapes right."""

from __future__ import annotations

import pytest

from conftest import load_benchmark


@pytest.fixture(scope="module")
def targets():
    return load_benchmark("targets")


def test_a_met_target_says_met_and_measures_no_why(targets):
    def why():
        raise AssertionError("a met target needs no why")
    assert targets.verdict(1.9, 2.0, True, why) == "met"
    assert targets.verdict(2.0, 2.0, True, why) == "met"
    assert targets.verdict(400.0, 400, False, why) == "met"


def test_a_missed_target_says_by_how_much_and_why(targets):
    assert targets.verdict(3.0, 2.0, True, lambda: "it is slow") == "missed by 1.50x, because it is slow"
    assert targets.verdict(150.0, 200, False, lambda: "it is slow") == "missed by 1.33x, because it is slow"


def test_the_why_of_a_miss_names_what_the_profile_found(targets):
    def busy():
        return sum(i * i for i in range(200_000))
    words = targets.top_entries(busy, 2)
    assert words.startswith("the profile's top entries by own time: ")
    assert "<genexpr> (test_benchmark_targets.py:" in words or "busy (test_benchmark_targets.py:" in words
    assert words.count(";") == 1


def test_the_huntik_ratio_is_paired_over_the_same_games(targets):
    by_hand = targets.huntik_by_hand
    gamedef, Game, RandomAgent = by_hand._engine()
    figures = by_hand.paired(gamedef, Game, RandomAgent, [1, 2], 3)
    r = figures["ratio"]
    assert r["min"] <= r["q1"] <= r["median"] <= r["q3"] <= r["max"] and r["min"] > 0
    assert figures["games"] == 2 and figures["rounds"] == 3
    assert by_hand.by_engine(gamedef, Game, RandomAgent, 1) == by_hand.by_hand(1)     # the same events


def test_the_cost_of_simulating_is_a_paired_ratio(targets):
    cost = targets.simulate.checking_cost("huntik", [1], 2)
    assert set(cost) == {"median", "q1", "q3", "min", "max"} and cost["min"] > 0


def test_the_why_of_a_games_miss_splits_its_time_by_what_the_engine_does(targets):
    by_hand = targets.huntik_by_hand
    gamedef, Game, RandomAgent = by_hand._engine()
    words, shares = targets.parts(lambda: [by_hand.by_engine(gamedef, Game, RandomAgent, seed) for seed in (1, 2)],
                                  2, 5.0)
    assert words.startswith("the engine's time by what it does (cProfile, cumulative): legal searches ")
    assert set(shares) == {"legal searches", "the trace's words", "state checks"}
    assert 0 < shares["legal searches"] < 1 and 0 < shares["the trace's words"] < 1      # both measured
    assert sum(shares.values()) <= 1 and "ms a game" in words and words.endswith("%")
    bare, _ = targets.parts(lambda: Game(gamedef, ["p1", "p2"], RandomAgent(1), seed=1).run(), 1)
    assert "the trace's words" not in bare          # a game not put into words has no such part
