"""What a trigger listens for must happen: the static checks of events (S085, S086).

A trigger runs only when its event happens. One for an event nothing makes happen (a misspelt name, a
phase never begun, a round never ended) silently never ran; an event emitted with another number of
values than its trigger names bound them wrongly. The golden file
``tests/golden/errors/static_trigger_never_runs`` shows the messages; these tests show what is accepted,
and that a card's ability reads the values its event gives.
"""

from __future__ import annotations

from ludex.engine.agents import RandomAgent
from ludex.check.checks import check
from ludex.engine.game import Game
from ludex.parse.definition import assemble
from ludex.parse.syntax import parse_rules

GAME = '''game events "Events" {
  source main "Rules Reference" version "1.0"
  players 2 to 2
}
state {
  player zone hand hidden
  player zone table
  player counter scare = 0
  game counter round = 0
  role first-player
}
card type plot { gold: number }
card "A Noble Cause" plot {
  gold 5
  ability "Rally" when rallied(c) { increase c.owner.scare by c.gold }
}
flow { set first-player = first(players) repeat { run 1 } until round >= 2 }
rule 1 "Round" {
  text "Each round the first player takes a turn, plays a card and rallies it."
  increase round by 1
  begin round
  BODY
  end round
}
'''


def diagnostics(body: str):
    return check(assemble("events", [parse_rules(GAME.replace("BODY", body), "events.ludex")]))


def codes(body: str):
    return [d.code for d in diagnostics(body)]


def test_every_kind_of_event_that_happens_is_accepted():
    assert codes('''
  when begin round { log "a milestone a statement reaches" }
  when end round { log "the round ends" }
  when begin phase plot { log "a phase begun" }
  when begin turn { log "a turn of begins each turn" }
  when end turn { log "and ends it" }
  when revealed(c) { log "reveal emits it" }
  when scared(p, n) { increase p.scare by n }
  begin phase plot
  turn of first-player { any number of pass }
  create "A Noble Cause" into first-player.table
  reveal top(first-player.table)
  emit scared(first-player, 2)
  emit rallied(top(first-player.table))
  emit marked(first-player)''') == []        # an event no trigger listens for marks the trace


def test_a_trigger_for_an_event_nothing_makes_happen_never_runs():
    assert codes('''
  when scaredd(p) { log "misspelt" }
  when begin phase plots { log "a phase never begun" }
  begin phase plot
  emit scared(first-player)
  emit rallied(first-player)''') == ["S085", "S085"]


def test_a_trigger_for_a_card_ability_counts_too():
    # the card's ability listens for 'rallied', which nothing emits here
    found = diagnostics('log "no rally"')
    assert [d.code for d in found] == ["S085"]
    assert "event 'rallied'" in found[0].message


def test_an_event_emitted_with_fewer_values_than_its_trigger_names():
    found = diagnostics('''
  when scared(p, n) { increase p.scare by n }
  emit scared(first-player)
  emit scared(first-player, 1, 2)
  create "A Noble Cause" into first-player.table
  emit rallied(top(first-player.table), 3)''')      # (more values than named: the first ones are named)
    assert [(d.code, d.span.line) for d in found] == [("S086", 24)]     # (the body: line 23 on)
    assert found[0].message == "event 'scared' is emitted with 1 value, but a trigger of it names 2 values"
    assert found[0].related[0].span.line == 23       # the trigger


def test_a_reveal_gives_its_trigger_the_card():
    assert codes('''
  when revealed { log "a card is revealed" }
  reveal cards(first-player.hand)
  emit rallied(top(first-player.hand))''') == []
    found = diagnostics('''
  when revealed(c, d) { log "two names" }
  reveal cards(first-player.hand)
  emit rallied(top(first-player.hand))''')
    assert [(d.code, d.message, d.span.line, d.hint) for d in found] == [
        ("S086", "a reveal gives its trigger one value, the card, but the trigger names 2 values", 23,
         "name the card alone: when revealed(c)")]


def test_a_trigger_that_alone_makes_its_event_happen_never_runs():
    found = diagnostics('''
  when echo(p) { emit echo(p) }
  emit rallied(top(first-player.hand))''')
    assert [(d.code, d.message, d.hint) for d in found] == [
        ("S085", "nothing but this trigger makes event 'echo' happen, so this never runs",
         "emit echo(p) where it happens")]


def test_a_second_definition_of_a_rule_is_refused_without_hiding_its_events():
    source = GAME.replace("BODY", '''
  when foo(p) { log "foo" }
  emit rallied(top(first-player.hand))''') + '''
rule 1 "Round again" {
  text "A second rule 1."
  emit foo(first-player)
}
'''
    assert [d.code for d in check(assemble("events", [parse_rules(source, "events.ludex")]))] == ["S002"]


def test_a_cards_ability_reads_the_values_its_event_gives():
    body = '''
  create "A Noble Cause" into first-player.table
  emit rallied(top(first-player.table))'''
    assert codes(body) == []        # 'c' is known in the ability (it was an unknown name)
    gamedef = assemble("events", [parse_rules(GAME.replace("BODY", body), "events.ludex")])
    game = Game(gamedef, ["ann", "bob"], RandomAgent(1), seed=1)
    game.run()
    ann = game.state.players[0]
    assert ann.fields["scare"] == 10        # rallied twice, 5 gold each


def test_a_modifier_lasts_until_a_milestone_the_rules_reach():
    assert codes('''
  begin phase plot
  modify first-player.scare by 1 until end of phase plot
  modify first-player.scare by 1 for this round
  modify first-player.scare by 1 for next round
  modify first-player.scare by 1 until end of game
  emit rallied(top(first-player.table))
  end phase plot''') == []


def test_a_modifier_until_a_milestone_nothing_reaches_would_never_expire():
    found = diagnostics('''
  begin phase plot
  modify first-player.scare by 1 until end of phase plot
  modify first-player.scare by 1 until end of turn
  modify first-player.scare by 1 for next phase plot
  emit rallied(top(first-player.table))''')
    assert [(d.code, d.message) for d in found] == [
        ("S087", "nothing ends the plot phase, so this modifier would never expire"),
        ("S087", "nothing ends the turn, so this modifier would never expire"),
        ("S087", "'for next phase': a modifier waits for the next round only"),
    ]
    assert found[0].rule == "1" and (found[0].span.line, found[0].span.column) == (24, 34)     # the duration


def test_a_rule_a_cards_ability_runs_is_run():
    """Reachability (S041) counts every block that can 'run' a rule, a card's ability among them."""
    source = '''game rr "RR" { players 2 to 2 }
state { player zone hand  game counter n = 0 }
card type token { }
card "A" token {
  ability "Boost" "action" { run 2 }
}
rule 1 "Deal" {
  text "Each player gets A, and the first player's is initiated."
  for each p in players { create ["A"] into p.hand }
  initiate "action" abilities of cards(first(players).hand)
}
rule 2 "Boost" {
  text "The counter goes up."
  increase n by 1
}
flow { run 1 }
'''
    gamedef = assemble("rr", [parse_rules(source, "rr.ludex")])
    assert check(gamedef) == []         # (S041: "rule 2 has a procedure, but nothing runs it")
    game = Game(gamedef, ["ann", "bob"], RandomAgent(1), seed=1)
    game.run()
    assert game.state.fields["n"] == 1
    unreached = source.replace("{ run 2 }", '{ log "boost" }')
    assert [d.code for d in check(assemble("rr", [parse_rules(unreached, "rr.ludex")]))] == ["S041"]
