"""The benchmark of two versions (benchmarks/versions.py) compares this checkout with itself: both of its
worker processes start, play the same games, and report the paired figures and equal traces. No timing
is asserted (CI is no place to measure speed): only the report's shape and that the traces are equal."""

from __future__ import annotations

import json

import pytest

from conftest import ROOT, load_benchmark


@pytest.fixture(scope="module")
def versions():
    return load_benchmark("versions")


@pytest.fixture(scope="module")
def report(versions):
    return versions.compare(ROOT, ROOT, games=1, rounds=2, seed=3)


def test_a_checkout_against_itself_plays_the_same_traces(report):
    assert report["traces_identical"] and report["traces_stable"]
    assert report["differing"] == {}
    assert [s["label"] for s in report["sides"]] == ["old", "new"]
    assert all(s["package"] == "ludex" and s["huntik_by_hand"]["ok"] for s in report["sides"])


def test_every_bundled_game_has_paired_ratios(report, versions):
    assert list(report["per_game"]) == list(versions.GAMES)
    for figures in report["per_game"].values():
        assert figures["traces_identical"]
        assert figures["old_games_per_s"] > 0 and figures["new_games_per_s"] > 0
        paired = figures["new_over_old"]
        assert len(paired["ratios"]) == 2
        assert paired["min"] <= paired["q1"] <= paired["median"] <= paired["q3"] <= paired["max"]
    huntik = report["huntik_engine_ratio"]
    assert huntik["old"] > 0 and huntik["new"] > 0 and len(huntik["new_over_old"]["ratios"]) == 2


def test_the_report_prints_and_is_json(report, versions):
    text = versions.render(report)
    for key in versions.GAMES:
        assert f"  {key} " in text
    assert "engine ÷ hand-written" in text and "traces: identical" in text
    assert json.loads(json.dumps(report)) == report


def test_a_checkout_of_neither_layout_is_refused(versions, tmp_path):
    with pytest.raises(SystemExit):
        versions.layout(tmp_path)
    assert versions.layout(ROOT) == ("ludex", ROOT / "interpreter")
