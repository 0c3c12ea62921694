"""The words of a move, set, change, transfer, named event or card revealed are made when the trace is
read (``records.WORDS``), from values taken when the event is recorded: they must be the words the event
had when it was recorded, whatever changed since.

- Whole random games of every bundled game: the words read after the game are those a listener was told
  as each event was recorded (``Game.listen`` makes them at once).
- A list set or emitted (a live list, as a zone's cards are) and changed afterwards is worded as it was.
"""

from pathlib import Path

import pytest

from ludex.engine.agents import RandomAgent
from ludex.diagnostics import RuntimeRuleError
from ludex.engine.game import Frame, Game
from ludex.load import load_game, load_paths
from ludex.resources import bundled_games
from ludex.runtime.state import words
from ludex.parse.syntax import parse_rules

TALLY = Path(__file__).parent / "games" / "tally.ludex"


def _run(gamedef, seed, listen=None):
    game = Game(gamedef, [f"p{i + 1}" for i in range(gamedef.header.min_players)], RandomAgent(seed), seed=seed)
    if listen is not None:
        game.listen(listen)
    try:
        game.run()
    except RuntimeRuleError:
        pass
    return game


@pytest.mark.parametrize("key", bundled_games())
def test_the_words_read_after_a_game_are_those_told_as_each_event_was_recorded(key):
    gamedef = load_game(key).game
    for seed in (1, 2):
        told = []
        _run(gamedef, seed, lambda event: told.append((event.kind, event.text, event.data)))
        game = _run(gamedef, seed)
        assert any(type(event[2]) is tuple for event in game.events)     # some left to be worded when read
        assert [(e.kind, e.text, e.data) for e in game.trace] == told


@pytest.fixture(scope="module")
def tally():
    loaded = load_paths("tally", [TALLY])
    assert loaded.ok, loaded.diagnostics
    return loaded.game


def test_a_list_changed_after_its_event_is_worded_as_it_was(tally):
    game = Game(tally, ["ann", "bob"], RandomAgent(1), seed=1)
    game.run_rule("setup")
    body = game.compiler.block(parse_rules('rule x "x" { set walker-of(ann).facing = ways  emit waved(ann, ways) }',
                                "x.ludex").items[0].body)
    ann = game.state.player("ann")
    walker = ann.zones["walker"].cards[0]
    old = walker.attrs["facing"]
    ways = ["north", "east"]
    mark = len(game.events)
    body(Frame(game, {"ann": ann, "ways": ways}, "x"))
    ways.append("south")
    assert [(e.kind, e.text) for e in game.trace[mark:]] == [
        ("set", f"{walker.title}'s facing: {words(old)} -> [north, east]"),
        ("event", "waved(ann, [north, east])")]
