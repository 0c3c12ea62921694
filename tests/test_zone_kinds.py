"""A zone and the list of its cards are different kinds in the static checks.

A zone is a place: it equals only itself, and only a zone takes cards moved, drawn or created into it, or
is shuffled. A list filtered from it (``those c in p.hand: ...``, ``highest``, ``cards(p.hand)``) holds its
cards and is read wherever a list is, but it is not the zone: ``p.hand == []`` was always false, and
``move c to those d in p.hand: ...`` failed when the rule ran, and the checks let both through.
"""

from __future__ import annotations

import re

import pytest

from ludex.check.checks import check
from ludex.parse.definition import assemble
from ludex.parse.syntax import parse_rules

GAME = '''game zones "Zones" {
  source main "Rules Reference" version "1.0"
  players 2 to 4
}
state {
  player zone hand hidden
  player zone discard
  player counter gold = 0
  role first-player
}
card type plot { gold: number }
card "A Noble Cause" plot { gold 5 }
action pay "pay with a card" by p (c: card from those d in p.hand: d.gold > 2) {
  move c to p.discard
}
flow { run 1 }
rule 1 "Rich cards" {
  text "The first player discards the cards worth more than 2 from their hand."
  let p = first-player
  let rich = those c in p.hand: c.gold > 2
BODY
}
'''


def diagnostics(body: str):
    source = GAME.replace("BODY", body)
    return check(assemble("zones", [parse_rules(source, "zones.ludex")]))


def codes(body: str):
    return [(d.code, d.message) for d in diagnostics(body)]


# every place a list is read: the cards filtered from a zone are read there as they always were
A_FILTERED_LIST_WHERE_A_LIST_IS_READ = '''
  for each c in rich { reveal c }
  for each c in those c in p.hand: c.gold > 2 { conceal c }
  if every c in rich: c.gold > 2 { log "every" }
  if any c in rich: c.gold > 4 { log "any" }
  if (count c in rich: c.gold > 4) > 0 { log "count" }
  increase p.gold by total c in rich: c.gold
  increase p.gold by size(rich) + size(those c in p.hand: c.gold > 2) + size(cards(p.hand))
  let richest = those c in (highest c in rich by c.gold): c.gold > 4
  let one = first(rich)
  set p.gold = top(rich).gold + bottom(rich).gold + last(rich).gold + one.gold + rich[0].gold
  let others = join(reverse(rich), without(rich, top(p.hand)))
  if "A Noble Cause" in titles(rich) and top(p.hand) in rich and size(flatten([rich, p.hand])) > 0 {
    log "titles"
  }
  reveal rich
  conceal those c in p.hand: c.gold > 2
  initiate "When revealed" abilities of rich
  p chooses c from rich "Which card?"
  pick d at random from rich
  p orders xs from rich "In which order?"
  move rich to p.discard
  move (those c in p.hand: c.gold > 2) to p.discard
  move cards(p.hand) to p.discard at bottom
  if rich == [] or rich == cards(p.discard) or others != richest { log "lists compared" }
'''


def test_a_filtered_list_is_read_wherever_a_list_is():
    assert codes(A_FILTERED_LIST_WHERE_A_LIST_IS_READ) == []


ZONE = "a zone is needed here, but this is a list of cards"


@pytest.mark.parametrize("statement", [
    "move top(p.hand) to rich",
    "move top(p.hand) to (those c in p.hand: c.gold > 2)",
    "move top(p.hand) to (highest c in p.hand by c.gold)",
    "draw 1 from rich to p.discard",
    "draw 1 from p.hand to rich",
    'create "A Noble Cause" into rich',
    "shuffle rich",
    "shuffle (those c in p.hand: c.gold > 2)",
    "move top(p.hand) to cards(p.discard)",
])
def test_a_filtered_list_is_refused_where_only_a_zone_will_do(statement):
    found = diagnostics(statement)
    assert [(d.code, d.message) for d in found] == [("S023", ZONE)]
    assert "name the zone itself, such as p.hand" in found[0].hint


@pytest.mark.parametrize("statement", [
    "move top(p.hand) to [p.discard]",
    "draw 1 from reverse(p.hand) to p.discard",
])
def test_a_list_is_refused_where_only_a_zone_will_do(statement):
    found = diagnostics(statement)
    assert [(d.code, d.message) for d in found] == [("S023", "a zone is needed here, but this is a list")]
    assert "name the zone itself, such as p.hand" in found[0].hint


def test_a_list_of_cards_is_neither_a_player_nor_a_number():
    assert codes("set first-player = rich\n  increase p.gold by rich\n  win rich") == [
        ("S021", "a player is needed here, but this is a list of cards"),
        ("S020", "a number is needed here, but this is a list of cards"),
        ("S021", "a player is needed here, but this is a list of cards"),
    ]


@pytest.mark.parametrize("comparison, message, better", [
    ("p.hand == []", "cannot compare a zone with a list", "size(p.hand) == 0"),
    ("[] != p.hand", "cannot compare a list with a zone", "size(p.hand) != 0"),
    ("p.hand == rich", "cannot compare a zone with a list of cards", "cards(p.hand) == rich"),
    ("p.discard != cards(p.hand)", "cannot compare a zone with a list of cards",
     "cards(p.discard) != cards(p.hand)"),
    ("p.hand == (those c in p.discard: c.gold > 2)", "cannot compare a zone with a list of cards",
     "cards(p.hand) == (those c in p.discard: c.gold > 2)"),
    ("zone-of(top(p.hand)) == [top(p.hand)]", "cannot compare a zone with a list",
     "cards(zone-of(top(p.hand))) == [top(p.hand)]"),
])
def test_a_zone_is_never_equal_to_a_list_and_the_help_says_what_to_compare(comparison, message, better):
    found = diagnostics(f'  if {comparison} {{ log "compared" }}')
    assert [(d.code, d.message) for d in found] == [("S027", message)]
    always = "always false" if "==" in comparison else "always true"
    assert found[0].hint == f"compare its cards ({better}): '{comparison.split()[1]}' is {always} here, as a " \
                            "zone is never a list"
    # the comparison the help suggests is one the checks accept
    assert codes(f'  if {better} {{ log "compared" }}') == []


def test_a_zone_is_never_equal_to_a_list_of_players():
    found = diagnostics('  if p.hand == players { log "never" }')
    assert [(d.code, d.message, d.hint) for d in found] == [
        ("S027", "cannot compare a zone with a list of players",
         "a zone holds cards, never players: '==' is always false here")]


def test_a_zone_compared_with_a_card_is_asked_whether_it_holds_it():
    found = diagnostics('  if p.hand == top(p.hand) { log "never" }')
    assert [(d.code, d.message) for d in found] == [("S027", "cannot compare a zone with a card")]
    assert re.match(r"to ask whether a list holds it, write 'x in xs'", found[0].hint)


def test_a_zone_is_still_compared_with_a_zone():
    assert codes('  if p.hand == p.discard or zone-of(top(p.hand)) != p.hand { log "the same zone" }') == []
