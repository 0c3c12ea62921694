"""The procedure benchmark (benchmarks/engine.py) compares the engine with the same procedure written by
hand, asserting that both reach the same state and write the same trace. CI does not time anything, but
it keeps the two sides equal: a change to the trace's words or players must be made on both, or the
benchmark would stop at its first run."""

from __future__ import annotations

import pytest

from conftest import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("engine")


@pytest.mark.parametrize("rounds", [1, 2, 7])
def test_the_hand_written_procedure_is_the_engines(bench, rounds):
    bench.ROUNDS_ = rounds
    _, engine_result, engine_trace = bench.engine_run(rounds)
    _, python_result, python_trace = bench.python_run(rounds)
    assert python_result == engine_result
    for i, (engine_event, hand_event) in enumerate(zip(engine_trace, python_trace), 1):
        assert hand_event == engine_event, f"event {i} differs"
    assert len(python_trace) == len(engine_trace)


def test_the_counters_procedure_is_the_engines(bench):
    bench.counters_times(10)            # asserts the two traces are equal
