"""Whole games of rules/agot.ludex (A Game of Thrones: The Card Game, Second Edition, framework steps
1.1 to 4.2) played by random agents, as `ludex run agot --seed N` plays them: every game ends with one
winner (the last player standing, or the one the first player chooses when the draw eliminates
everyone left, 2.2) and keeps the state's invariants. Joust for seeds 1 to 200; a few melee games
with 3 to 8 players."""

from __future__ import annotations

import shutil

import pytest

from ludex.engine.agents import RandomAgent
from ludex.engine.game import Game
from ludex.load import load_game
from ludex.resources import rules_dir

SEEDS = range(1, 201)
#: (players, seed): melee games, a seed per table size and two for the cheaper small tables.
MELEE = [(3, 1), (3, 2), (4, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8)]
TREASURY = 10000
TITLES = 6


@pytest.fixture(scope="module")
def agot():
    loaded = load_game("agot")
    assert loaded.ok, loaded.diagnostics
    return loaded.game


def play(gamedef, seed: int, count: int = 2, format: str = "") -> Game:
    """What `ludex run agot --seed N [--players N --format F]` does (interpreter/ludex/commands/run.py, cmd_run)."""
    game = Game(gamedef, [f"p{i + 1}" for i in range(count)], RandomAgent(seed), seed=seed, format=format)
    game.run()
    return game


def check_game(gamedef, game: Game, count: int):
    state = game.state
    assert game.over
    assert game.winners and len(game.winners) == 1, "a game of AGoT ends with one winner"
    winner = game.winners[0]
    eliminated = [p for p in state.players if p.eliminated]
    if winner.eliminated:
        # 2.2, Note: every remaining player was eliminated in the draw; the first player chose the winner
        assert len(eliminated) == count
        assert game.trace[-1].kind == "win" and game.trace[-1].rule == "2.2"
    else:
        # the last player standing (outside the excerpt)
        assert len(eliminated) == count - 1
        assert game.trace[-1].rule == "last-player-standing"
    # every eliminated player ran out of draw deck (2.2, Note)
    assert all(not p.zones["draw-deck"].cards for p in eliminated)
    # invariants: no card lost or duplicated, counters within bounds
    assert state.invariant_breaks() == []
    assert sum(len(z.cards) for z in state.all_zones()) == len(state.cards)
    # gold only moves between the treasury and the gold pools (3.2)
    assert state.fields["treasury"] + sum(p.fields["gold"] for p in state.players) == TREASURY
    for p in state.players:
        zones = p.zones
        # a player's seven plots are in his plot deck, his revealed plot and used pile, or chosen (1.2, 1.3)
        plots = [c for c in state.cards if c.type == "plot" and c.owner is p]
        assert len(plots) == 7
        assert all(c.zone in (zones["plot-deck"], zones["revealed-plots"], state.zones["chosen-plots"])
                   for c in plots)
        # marshaled cards are where 3.2 puts them
        assert all(c.type == "character" for c in zones["front-row"].cards)
        assert all(c.type == "location" for c in zones["back-row"].cards)
        for a in zones["attachments"].cards:
            assert a.type == "attachment" and a.attrs["attached-to"].type == "character"
            assert a.attrs["attached-to"].zone.name == "front-row"
        for d in zones["duplicates"].cards:
            copy = d.attrs["duplicate-of"]
            assert copy.title == d.title and copy.owner is p and copy.attrs["unique"]
        # no event card is ever marshaled
        in_play = [c for name in ("front-row", "back-row", "attachments", "duplicates") for c in zones[name].cards]
        assert all(c.type != "event" for c in in_play)
        # one copy of a unique card in play per player; the others are duplicates
        uniques = [c.title for c in in_play if c.attrs.get("unique") and c.zone.name != "duplicates"]
        assert len(uniques) == len(set(uniques))
        # at most one of each challenge type initiated (4.2)
        challenges = [e for e in game.trace if e.kind == "play" and e.player == p.name
                      and e.data.get("action") == "initiate-challenge"]
        rounds = sum(1 for e in game.trace if e.data.get("event") == "begin phase challenges")
        assert len(challenges) <= 3 * rounds
    # only the active player marshals (3.2): each marshal is made in a window of the player's turn
    active = None
    for e in game.trace:
        if e.kind == "set" and e.text.startswith("active-player:"):
            active = e.text.split("-> ")[1]
        if e.kind == "play" and e.data.get("action") == "marshal":
            assert e.player == active, e
    # every event cites a rule of the game (or the flow)
    assert all(e.rule in gamedef.rules or e.rule == "" for e in game.trace)


@pytest.mark.parametrize("seed", SEEDS)
def test_joust_game_ends_with_a_winner_and_keeps_invariants(agot, seed):
    game = play(agot, seed)
    check_game(agot, game, 2)
    # joust: the title step is skipped every round (1.4) that gets that far; the last round may end
    # before it, when a when revealed draw (1.3 III) eliminates a player
    starts = [i for i, e in enumerate(game.trace) if e.data.get("event") == "begin round"]
    skips = sum(1 for e in game.trace if e.rule == "1.4" and e.kind == "skip")
    reached = any(e.rule == "1.4" for e in game.trace[starts[-1]:])
    assert skips == len(starts) - (0 if reached else 1)


@pytest.mark.parametrize("count,seed", MELEE, ids=[f"{n}-players-seed-{s}" for n, s in MELEE])
def test_melee_game_ends_with_a_winner_and_keeps_invariants(agot, count, seed):
    game = play(agot, seed, count, "melee")
    check_game(agot, game, count)
    state = game.state
    # the six titles are all somewhere, and no player bears more than one (1.4)
    titles = [c for c in state.cards if c.type == "title"]
    assert len(titles) == TITLES
    assert all(len(p.zones["title"].cards) <= 1 for p in state.players)
    assert not state.zones["removed-titles"].cards
    assert not any(e.rule == "1.4" and e.kind == "skip" for e in game.trace)


def test_same_seed_same_game(agot):
    a = [e.as_json() for e in play(agot, 5).trace]
    b = [e.as_json() for e in play(agot, 5).trace]
    c = [e.as_json() for e in play(agot, 6).trace]
    assert a == b
    assert a != c


def test_a_reaction_to_revealing_a_plot_waits_until_step_iii_is_complete(tmp_path):
    """1.3's TIMING NOTE: "After you reveal a plot card" reactions may be initiated after step III. A
    reaction written for the event 1.3 makes, plot-revealed, runs once per plot just revealed, after the
    first player is chosen (II) and the When Revealed abilities have initiated (III), not at the reveal."""
    shutil.copy(rules_dir() / "agot.ludex", tmp_path)
    (tmp_path / "agot.reaction.ludex").write_text('''
rule reaction "After you reveal a plot card" outside source {
  note "A reaction for this test: it marks the trace when it runs."
  when plot-revealed(plot) {
    log "reaction to a revealed plot"
  }
}
''', encoding="utf-8")
    loaded = load_game("agot", tmp_path)
    assert loaded.ok, loaded.diagnostics
    game = play(loaded.game, 3)
    rounds = [i for i, e in enumerate(game.trace) if e.data.get("event") == "begin round"] + [len(game.trace)]
    checked = seen_abilities = 0
    for start, end in zip(rounds, rounds[1:]):
        events = game.trace[start:end]
        reactions = [i for i, e in enumerate(events) if e.text == "reaction to a revealed plot"]
        if not any(e.rule == "1.4" for e in events):
            continue                    # the game ended in this round's 1.3
        first_player = [i for i, e in enumerate(events) if e.rule == "1.3" and e.kind == "decision"
                        and " chooses " in e.text]
        reveals = [i for i, e in enumerate(events) if e.rule == "1.3" and e.text.endswith(" is revealed")]
        abilities = [i for i, e in enumerate(events) if e.rule == "1.3" and e.kind == "ability"]
        assert len(reactions) == len(reveals) == 2
        assert len(first_player) == 1
        assert min(reactions) > max(reveals + first_player + abilities)
        seen_abilities += len(abilities)
        checked += 1
    assert checked >= 10 and seen_abilities >= 5
