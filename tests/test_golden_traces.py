"""Golden traces: whole random games of every bundled game, as ``ludex run`` prints them.

``golden/traces/GAME-pN-sS.txt`` is what ``ludex run GAME --players N --seed S`` prints, and ``.json``
what it prints with ``--json``, compared byte for byte: the public view of the trace, what every player
sees. ``GAME-pN-sS-judge.txt`` (``.json``) is the judge's view (``--judge``: every hidden choice, card
and attribute, marked hidden from the players who may not see it), ``GAME-pN-sS-as-PLAYER.txt`` one
player's (``--as PLAYER``), for a few games. They pin everything a game does (rules run,
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


#: (game, players, seed, view, form): other views of the trace than the public one, of a few games
#: (Halloween's Myers moves hidden; AGoT's plots chosen hidden, cards drawn into hidden hands)
VIEWS = [("halloween", 2, 1, "judge", "txt"), ("halloween", 2, 1, "as-p1", "txt"), ("agot", 2, 1, "as-p2", "txt"),
         ("huntik", 2, 1, "judge", "json")]


@pytest.mark.parametrize("game,players,seed,view,form", VIEWS,
                         ids=[f"{g}-p{n}-s{s}-{v}-{f}" for g, n, s, v, f in VIEWS])
def test_trace_golden_in_another_view(game, players, seed, view, form, capsys, goldens):
    argv = ["run", game, "--players", str(players), "--seed", str(seed)] + \
        (["--judge"] if view == "judge" else ["--as", view[3:]]) + (["--json"] if form == "json" else [])
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0, f"ludex {' '.join(argv)} exited {code}"
    goldens.check(TRACES / f"{game}-p{players}-s{seed}-{view}.{form}", out)
