"""Reasons on events: the values an event's outcome rested on, with the rules behind them.

A window's starting player, a ``set``'s value, a ``win``'s players and the ``if`` conditions around a
statement are told as facts under the event, worked out before the statement changes anything, and only
when the game keeps reasons. What a hidden choice set is never told.
"""

from __future__ import annotations

import re

import pytest

from ludex.check.checks import check
from ludex.engine.agents import RandomAgent
from ludex.engine.game import Game
from ludex.engine.trace import format_event, rule_width, rules_behind
from ludex.parse.definition import assemble
from ludex.parse.syntax import parse_rules
from ludex.runtime.records import TraceEvent

GAME = '''game why "Why" {
  source main "Rules Reference" version "1.0"
  players 2 to 2
}
state {
  game counter turn-count = 1 min 1
  role leader
  role secret-pick
  player counter power = 0 min 0
}
flow {
  set leader = first(players)
  run 2
  run 3
  run 4
  run 5
  end game
}
rule 1 "Who acts first" {
  text "On odd turns the leader acts first; on even turns the other player."
  value first-actor = if odd(turn-count) then leader else other(leader)
  value other(p) = first(those q in players: q != p)
}
rule 2 "Turns" {
  text "Players take turns resting."
  action rest "rest" by p { log "rests" }
  window "Turns" starting with first-actor { exactly one of rest }
}
rule 3 "The lead passes" {
  text "The lead passes to the other player."
  set leader = other(leader)
  if turn-count == 1 { log "the first turn is over" } else { log "a later turn is over" }
}
rule 4 "A secret" {
  text "The leader picks a player in secret."
  leader chooses x from players hidden
  set secret-pick = x
}
rule 5 "Power" {
  text "The player with the highest power wins; a tie goes to the leader."
  let strongest = highest p in players by p.power
  if size(strongest) == 1 { win first(strongest) } else { win leader }
}
'''


def played(reasons: bool = True, seed: int = 1) -> Game:
    gamedef = assemble("why", [parse_rules(GAME, "why.ludex")])
    assert check(gamedef) == []
    game = Game(gamedef, ["ann", "bob"], RandomAgent(seed), seed=seed, reasons=reasons)
    game.run()
    return game


def event(game: Game, words: str) -> TraceEvent:
    return next(e for e in game.trace if words in e.text)


def test_a_window_tells_the_value_it_starts_with_and_the_rule_defining_it():
    opens = event(played(), "acts first")
    facts = opens.data["because"]
    assert facts[0] == {"kind": "value", "rule": "1", "name": "first-actor", "value": "ann",
                        "text": "first-actor is ann (1)"}
    # then what the value's body read: the condition, which held, and the branch's values
    texts = [f["text"] for f in facts]
    assert "odd(turn-count): true" in texts and "turn-count is 1" in texts and "leader is ann" in texts
    assert "other(" not in " ".join(texts)          # the branch not taken is not told
    assert rules_behind(opens) == ["2", "1"]


def test_a_set_tells_what_its_value_read_before_it_changed_anything():
    passed = event(played(), "leader: ann -> bob")
    texts = [f["text"] for f in passed.data["because"]]
    assert texts[0] == "other(ann) is bob (1)"      # the leader as it was, not as the set left it
    assert "leader is ann" in texts


def test_the_conditions_around_a_statement_are_told_with_both_operands():
    over = event(played(), "turn is over")
    assert over.text == "the first turn is over"
    comparison = over.data["because"][0]
    assert comparison["kind"] == "comparison" and comparison["holds"] is True
    assert (comparison["left"], comparison["op"], comparison["right"]) == ("1", "==", "1")


def test_a_ranking_tells_each_items_key():
    won = event(played(), "wins the game")
    ranked = next(f for f in won.data["because"] if f["kind"] == "ranked")
    assert ranked["keys"] == {"ann": "0", "bob": "0"} and ranked["value"] == "[ann, bob]"
    assert won.text == "bob wins the game"          # tied: the leader (bob since rule 3) wins
    assert any(f["text"] == "size(strongest) == 1: 2 == 1, false" for f in won.data["because"])


def test_what_a_hidden_choice_set_is_never_told():
    for seed in (1, 2, 3):
        game = played(seed=seed)
        kept = event(game, "secret-pick:")
        assert "because" not in kept.data
        told = " ".join(f["text"] for e in game.trace for f in e.data.get("because", ()))
        assert " x " not in f" {told} " and "x is" not in told


def test_a_game_that_keeps_no_reasons_works_none_out():
    game = played(reasons=False)
    assert all("because" not in e.data for e in game.trace)
    with_reasons = played(reasons=True)
    assert [e.text for e in game.trace] == [e.text for e in with_reasons.trace]


def test_the_text_trace_shows_reasons_under_the_event():
    lines = format_event(event(played(), "acts first")).splitlines()
    assert lines[0].endswith("Turns opens; ann acts first")
    assert lines[1].strip().startswith("because first-actor is ann (1); ")


@pytest.mark.parametrize("rule, one_line", [("500.1c", True), ("victim-actions.move-through-window", False)])
def test_a_long_rule_id_never_breaks_the_columns(rule, one_line):
    width = rule_width(["500.1c", "setup.game-board"])
    assert width == len("[setup.game-board]")
    text = format_event(TraceEvent(7, rule, "log", "something happens"), width=width)
    first = text.splitlines()[0]
    assert (first.endswith("something happens")) is one_line
    # the text starts in the same column either way
    assert text.splitlines()[-1].index("something") == 5 + 1 + width + 1 + 2


def test_a_brief_trace_leaves_out_the_fields_the_transcription_keeps_for_itself(capsys):
    from ludex.cli import main
    assert main(["run", "agot", "--seed", "1"]) == 0
    full = capsys.readouterr().out
    assert main(["run", "agot", "--seed", "1", "--brief"]) == 0
    brief = capsys.readouterr().out
    assert "has-been-active: no -> yes" in full and "marshaling-window-open: no -> yes" in full
    assert "has-been-active: no -> yes" not in brief and "marshaling-window-open" not in brief.replace(
        "not p.has-been-active", "")
    # everything else is kept, numbered as in the full trace
    marked = re.compile(r"(has-been-active|marshaling-window-open|initiated-\w+|challenges-phase): (yes|no) -> ")
    kept = [line for line in full.splitlines() if not marked.search(line)]
    assert kept == brief.splitlines()


def test_what_the_reasons_read_exercises_no_rule():
    """Coverage is of what the rules ran: a reason that reads a value the rules did not read (the
    branch of an ``and`` they stopped before) does not count its rule as exercised."""
    source = (GAME + '''rule 6 "Never read by the rules" {
  text "A value only a reason reads."
  value unread = 1
}
''').replace(
        'if turn-count == 1 { log "the first turn is over" }',
        'if turn-count == 2 and unread == 1 { log "the first turn is over" }')
    gamedef = assemble("why", [parse_rules(source, "why.ludex")])
    assert check(gamedef) == []
    kept = Game(gamedef, ["ann", "bob"], RandomAgent(1), seed=1, reasons=True)
    kept.run()
    told = [f["text"] for e in kept.trace for f in e.data.get("because", ())]
    assert "unread is 1 (6)" in told                    # the reason read it ...
    assert "6" not in kept.rules_exercised()            # ... the rules never did


def test_a_reason_reading_a_hidden_zone_is_the_judges_alone():
    from ludex.engine.trace import JUDGE, PUBLIC
    source = GAME.replace("  player counter power = 0 min 0",
                          "  player counter power = 0 min 0\n  player zone hand hidden")
    source = source.replace('if turn-count == 1 { log', 'if size(leader.hand) == 0 and turn-count == 1 { log')
    gamedef = assemble("why", [parse_rules(source, "why.ludex")])
    assert check(gamedef) == []
    game = Game(gamedef, ["ann", "bob"], RandomAgent(1), seed=1, reasons=True)
    game.run()
    over = event(game, "the first turn is over")
    judge = [f for f in over.as_json(JUDGE)["data"]["because"]]
    public = [f for f in over.as_json(PUBLIC)["data"]["because"]]
    assert any("hand" in f["text"] and f.get("hidden") for f in judge)
    assert not any("hand" in f["text"] for f in public)
    assert any(f["text"].startswith("turn-count == 1") for f in public)     # the rest is everyone's
    assert "hand" not in format_event(over, view=PUBLIC) and "hand" in format_event(over, view=JUDGE)
