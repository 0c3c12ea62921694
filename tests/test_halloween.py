"""Halloween: random games play to the end with a winner, and the state stays consistent.

``ludex run halloween --seed N`` plays a 2-player game (the fewest players the game allows) with
``RandomAgent(N)``; these tests play the same games for seeds 1 to 200, and a smaller sweep with 3 and
4 players. Myers' 24th (or 18th) line of the Movement board bounds every game, so each must end with a
winner: Myers alone, or the Victims as a group.

The 200-seed sweep is over the ~60 s budget: about 66 s of CPU (0.05 s of it per game is building the
board), 100 s of wall time on a busy 2-core machine. It is split into 10 blocks of 20 seeds (so that
``pytest -n N`` shares them out) and marked ``slow``: the plain ``pytest`` leaves it out, ``pytest -m slow``
(as ``.ci/run`` does) runs it.

Random games all end on Myers' last line: random Victims search about 2.5 times a game and never draw
deeper than the 4th card of a Search deck, while each Key Item lies 5th to 9th (among the last 4
cards of its deck), and a Victims' escape needs three of them (Tommy, Lindsey, a car key). The win is
reachable all the same: ``test_every_key_item_can_be_dug_out`` below, the scenario "The Victims' win is
reachable in play" (scenarios/halloween/game-end.scenario) and the whole game the Victims win,
scenarios/logs/halloween/legal-victims-escape.log (replayed by tests/test_compliance.py).
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from ludex.engine.agents import RandomAgent
from ludex.engine.game import Game
from ludex.load import load_game


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


class _SetUpDone(Exception):
    """Raised at the first play of the game: set-up is over."""


def set_up(seed: int, players: int) -> Game:
    """The state ``ludex run halloween --seed SEED --players PLAYERS`` has when its first turn begins."""
    random_agent = RandomAgent(seed)

    def agent(game, decision):
        if decision.kind == "play":
            raise _SetUpDone()
        return random_agent(game, decision)

    game = Game(halloween(), [f"p{i + 1}" for i in range(players)], agent, seed=seed)
    with pytest.raises(_SetUpDone):
        game.run()
    return game


@pytest.mark.parametrize("players", [2, 4])
def test_every_key_item_can_be_dug_out(players):
    """Each Search deck holds one Key Item among its last 4 cards (setup.game-board), and its quadrant's
    Search tokens, searched twice each (search side, then found side: victim-actions.search), are enough
    to draw the whole deck: no Key Item is out of the Victims' reach."""
    for seed in range(1, 21):
        state = set_up(seed, players).state
        keys = []
        for q in ["red", "green", "purple", "orange"]:
            deck = state.zones[f"{q}-deck"].cards
            places = [i for i, c in enumerate(deck) if c.attrs["kind"] == "key item"]
            assert len(places) == 1 and places[0] >= len(deck) - 4, (seed, q, [c.title for c in deck])
            keys.append(deck[places[0]].title)
            tokens = [t for t in state.zones["search-tokens"].cards if t.attrs["colour"] == q]
            assert not any(t.attrs["found"] for t in tokens)
            assert 2 * len(tokens) >= len(deck), (seed, q)
        assert sorted(keys) == ["Blue Car Key", "Lindsey", "Tommy", "Yellow Car Key"], seed


def test_the_trace_writes_empty_text_as_empty_quotes():
    """A token's space starts as empty text; the set-up's first placement reads ``"" -> K10``, not a
    blank a judge would take for a misprint."""
    game = Game(halloween(), ["p1", "p2"], RandomAgent(1), seed=1)
    game.run_rule("setup")
    first = next(e for e in game.trace if e.kind == "set")
    assert first.text.startswith("Locked Car Token's space: \"\" -> "), first.text
