"""The cluster benchmark (benchmarks/cluster.py) runs both of its sides, 1 and 2 local workers, on the same
games, and reports paired ratios and summaries identical to a local run's. No timing is asserted (CI is
no place to measure speed): only the report's shape and that the summaries are equal."""

from __future__ import annotations

import os

import pytest

from conftest import load_benchmark

if not os.environ.get("CI"):    # CI installs the 'test' extra, which brings Dask: there it never skips
    pytest.importorskip("distributed", reason="needs the 'cluster' extra (the 'test' extra brings it)")


@pytest.mark.slow     # 8 to 20 s: it starts two clusters
def test_the_cluster_benchmark_pairs_1_and_2_workers_on_the_same_games():
    cluster = load_benchmark("cluster")
    report = cluster.compare("huntik", games=4, rounds=2, seed=5)
    assert report["summaries_identical"]
    assert report["seeds"] == [5, 8] and len(report["seconds"]["1"]) == len(report["seconds"]["2"]) == 2
    s = report["speedup"]
    assert len(s["ratios"]) == 2 and s["min"] <= s["q1"] <= s["median"] <= s["q3"] <= s["max"]
    assert report["games_per_s"]["1"] > 0 and report["games_per_s"]["2"] > 0
    text = cluster.render(report)
    assert "speed-up of 2 workers over 1: median" in text and "identical to a local run" in text
