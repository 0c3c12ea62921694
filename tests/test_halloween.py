"""Halloween: random games play to the end with a winner, and the state stays consistent.

``ludex run halloween --seed N`` plays a 2-player game (the fewest players the game allows) with
``RandomAgent(N)``; these tests play the same games for seeds 1 to 200, and a smaller sweep with 3 and
4 players. Myers' 24th (or 18th) line of the Movement board bounds every game, so each must end with a
winner: Myers alone, or the Victims as a group.

The 200-seed sweep is over the ~60 s budget: about 66 s of CPU (0.05 s of it per game is building the
board), 100 s of wall time on a busy 2-core machine. It is split into 10 blocks of 20 seeds (so that
``pytest -n N`` shares them out) and marked ``slow``; ``pytest -m "not slow"`` leaves it out.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine import Game
from interpreter.project import load_game


@lru_cache(maxsize=None)
def halloween():
    loaded = load_game("halloween")
    assert loaded.ok, loaded.diagnostics
    return loaded.game


def play(seed: int, players: int) -> Game:
    """The game ``ludex run halloween --seed SEED --players PLAYERS`` plays."""
    game = Game(halloween(), [f"p{i + 1}" for i in range(players)], RandomAgent(seed), seed=seed)
    game.run()
    return game


def check_finished(game: Game, seed: int, players: int) -> None:
    where = f"seed {seed}, {players} players"
    assert game.over, where
    assert game.winners, f"{where}: the game ended without a winner"
    myers = game.state.fields["myers-player"]
    victims = [p for p in game.state.players if p is not myers]
    assert game.winners == [myers] or sorted(map(str, game.winners)) == sorted(map(str, victims)), \
        f"{where}: the winners {game.winners} are neither Myers nor the Victims as a group"
    assert game.state.invariant_breaks() == [], f"{where}: {game.state.invariant_breaks()}"
    # Myers never plays past the last line of his Movement board.
    assert game.state.fields["movement-line"] <= (18 if players == 4 else 24), where


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_random_two_player_games_end_with_a_winner(block):
    for seed in range(block * 20 + 1, block * 20 + 21):
        check_finished(play(seed, 2), seed, 2)


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_with_more_players_end_with_a_winner(players):
    for seed in range(1, 11):
        check_finished(play(seed, players), seed, players)


def test_a_seed_replays_the_same_game():
    first, second = play(7, 2), play(7, 2)
    assert [(e.rule, e.text) for e in first.trace] == [(e.rule, e.text) for e in second.trace]
