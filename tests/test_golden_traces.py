"""Golden traces: whole random games of every bundled game, as ``ludex run`` prints them.

``golden/traces/GAME-pN-sS.txt`` is what ``ludex run GAME --players N --seed S`` prints, and ``.json``
what it prints with ``--json``, compared byte for byte. They pin everything a game does (rules run,
decisions offered and taken, words of every event), so any change to the engine that is meant to change
nothing a user sees must leave them as they are; a change meant to alter a trace rewrites them with
``pytest --update-goldens`` for review with ``git diff``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ludex.cli import main

TRACES = Path(__file__).resolve().parent / "golden" / "traces"

#: (game, player counts): the fewest players and a larger table, where the game allows one
GAMES = (("agot", (2, 4)), ("huntik", (2,)), ("nightmare", (2, 4)), ("halloween", (2, 4)))
SEEDS = (1, 2)

CASES = [(game, players, seed, form) for game, counts in GAMES for players in counts for seed in SEEDS
         for form in ("txt", "json")]


@pytest.mark.parametrize("game,players,seed,form", CASES,
                         ids=[f"{g}-p{n}-s{s}-{f}" for g, n, s, f in CASES])
def test_trace_golden(game, players, seed, form, capsys, goldens):
    argv = ["run", game, "--players", str(players), "--seed", str(seed)] + (["--json"] if form == "json" else [])
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0, f"ludex {' '.join(argv)} exited {code}"
    goldens.check(TRACES / f"{game}-p{players}-s{seed}.{form}", out)
