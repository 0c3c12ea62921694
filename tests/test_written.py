"""The code the engine writes for speed does what the plainer code beside it does, and the statements
written as Python (``statements.py``) do what the rules say.

- Every statement of the language is written as Python: there is no other way to run one.
- A state check polled only when something it reads may have changed (``reads.py``) against one
  polled whenever the state changed.
- A play's legal arguments written as one function against its candidates filtered by its
  requirements.
- A play just offered made by its written function (``ExpressionWriter.play``) against one recorded
  and made by ``CompiledAction.perform``.
- Blocks nested deeper than Python nests blocks, and their errors' positions.
- ``choose``, ``emit``, ``move``, ``draw``, ``reveal``, ``set``, ``clear``, ``increase``, ``transfer``,
  ``initiate``, jumps and windows: their traces, state and errors (words and spans), with plays refused
  and taken back, eliminations mid-window, agents with and without ``answer_from`` and the step budget.
  (Whole games of every bundled game, byte for byte: ``test_golden_traces.py``.)
"""

import random
import typing
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from ludex.engine.agents import RandomAgent
from ludex.engine.bookkeeping import Bookkeeping
from ludex.runtime.builtins import BUILTINS
from ludex.check.checks import Checker, check
from ludex.parse import ast as A
from ludex.program.compiler import Compiler
from ludex.fmt.rules import Printer
from ludex.program.statements import BlockWriter
from ludex.diagnostics import RuntimeRuleError
from ludex.engine.game import Game, Program
from ludex.parse.definition import assemble
from ludex.load import load_game, load_paths
from ludex.runtime.records import JUDGE, PUBLIC, BareFrame, BarePlay, Frame, Play, Violation, acting
from ludex.resources import bundled_games
from ludex.parse.syntax import parse_rules

TALLY = Path(__file__).parent / "games" / "tally.ludex"
GAMES = bundled_games() + ["tally"]


@lru_cache(maxsize=None)
def _load(key):
    """A game, loaded once for the tests here (each change one makes to its program, a monkeypatch,
    is undone when it ends)."""
    loaded = load_paths("tally", [TALLY]) if key == "tally" else load_game(key)
    assert loaded.ok, loaded.diagnostics
    return loaded.game


@lru_cache(maxsize=None)
def _unchanged(key, seed):
    """``_outcome`` of the game as the engine plays it, nothing changed: what the tests below compare
    their changed games with, played once for all of them."""
    return _outcome(_load(key), seed)


def _outcome(gamedef, seed, adjust=None):
    count = 3 if gamedef.header is None or gamedef.header.min_players < 3 <= gamedef.header.max_players \
        else gamedef.header.min_players
    game = Game(gamedef, [f"p{i + 1}" for i in range(count)], RandomAgent(seed), seed=seed)
    if adjust:
        adjust(game)
    try:
        winners = [str(w) for w in game.run()]
    except RuntimeRuleError as exc:
        winners = str(exc)
    return [e.as_json() for e in game.trace], winners, game.steps


def test_every_statement_of_the_language_is_written_as_python():
    statements = typing.get_args(A.Stmt)
    assert len(statements) >= 34
    assert [s.__name__ for s in statements if not hasattr(BlockWriter, "b_" + s.__name__)] == []
    assert not any(name.startswith("s_") for name in dir(Compiler))


def test_every_statement_of_the_language_is_checked_and_printed():
    """What adding a statement asks (docs/architecture.md): the checker's ``s_`` method and the
    formatter's ``p_`` method, each found by the node's class name."""
    statements = typing.get_args(A.Stmt)
    assert [s.__name__ for s in statements if not hasattr(Checker, "s_" + s.__name__)] == []
    assert [s.__name__ for s in statements if not hasattr(Printer, "p_" + s.__name__)] == []


class _AlwaysStale(Bookkeeping):
    """Books on which every state check is marked at every look: each is polled after every statement."""
    __slots__ = ()
    stale = property(lambda self: self.every, lambda self, bits: None)


@pytest.mark.parametrize("key", GAMES)
def test_state_checks_polled_less_find_what_they_found(key):
    gamedef = _load(key)

    def poll_always(game):
        game.books.__class__ = _AlwaysStale

    for seed in range(1, 4):
        assert _unchanged(key, seed) == _outcome(gamedef, seed, poll_always)


@pytest.mark.parametrize("key", GAMES)
def test_written_legal_arguments_are_the_candidates_that_pass(key):
    gamedef = _load(key)
    checked = 0

    def compare(game):
        nonlocal checked
        for action in game.actions.values():
            for player in game.state.players:
                expected = [args for args in action.candidates(game, player) if action.allows(game, player, args)]
                plays = action.legal(game, player)
                assert [play.args for play in plays] == expected
                assert all(play.action == action.node.name and play.player is player for play in plays)
                checked += 1

    for seed in range(1, 3):
        game = Game(gamedef, ["p1", "p2", "p3"][:max(2, gamedef.header.min_players if gamedef.header else 2)],
                    RandomAgent(seed), seed=seed)
        original = game.agent

        def agent(game, decision, original=original):
            if decision.kind == "play":
                compare(game)
            return original(game, decision)
        game.agent = agent
        try:
            game.run()
        except RuntimeRuleError:
            pass
    assert checked or not gamedef.actions


def _nested(depth, inner, make):
    body = inner
    for i in range(depth):
        body = make(i, body)
    return parse_rules(f'''game t "T" {{ players 2 to 2 }}
state {{ game counter n = 0 }}
rule 1 "R" {{
  text "Nested."
  {body}
}}
flow {{ run 1 }}
''', "nested.ludex")


@pytest.mark.parametrize("make", [
    lambda i, body: f"if n >= 0 {{ {body} }}",
    lambda i, body: f"for each v{i} in [1] {{ {body} }}",
    lambda i, body: f"simultaneously for each v{i} in [1] {{ {body} }}",
    lambda i, body: f"repeat {{ {body} }} until true",
], ids=["if", "for-each", "simultaneously", "repeat"])
def test_blocks_nested_deeper_than_python_nests_them(make):
    gamedef = assemble("t", [_nested(50, "increase n by 1", make)])
    game = Game(gamedef, ["a", "b"], RandomAgent(1))
    game.run()
    assert game.state.fields["n"] == 1 and game.steps == 52


def test_a_wrong_value_deep_inside_is_reported_at_its_statement():
    gamedef = assemble("t", [_nested(40, 'increase n by "x"', lambda i, body: f"if true {{ {body} }}")])
    with pytest.raises(RuntimeRuleError) as exc:
        Game(gamedef, ["a", "b"], RandomAgent(1)).run()
    d = exc.value.diagnostics[0]
    assert d.rule == "1" and d.message.startswith("this cannot be done with these values")
    assert (d.span.line, d.span.column) == (5, 3 + len("if true { ") * 40)



LAZY_LET = '''
game t "T" { players 2 to 2 }
state { player counter coins = 3  game zone market  player zone table }
card type good { price: number }
card "Rope" good { price 2 }
card "Lamp" good { price 5 }
card "Bell" good { price 9 }
rule 1 "Round" {
  text "The players may buy: what they can pay for, or what they hold a copy of."
  action buy "buy" by p (c: card from market) {
    let copy = copy-held(p, c)
    require c.price <= p.coins or copy is not none cite 1 "Too dear."
    move c to p.table
  }
  window "buy" starting with first(players) { any number of buy }
}
rule 2 "Copies" {
  text "A copy is a card of the same title on the player's table."
  value copy-held(p, c) = first(those d in cards(p.table): d.title == c.title)
}
flow { run 1 }
'''


def _market(text):
    """A game of ``text`` with Rope, Lamp and Bell in the market and a Bell on a's table; and a."""
    game = Game(assemble("t", [parse_rules(text, "t.ludex")]), ["a", "b"], RandomAgent(0))
    a = game.state.player("a")
    for title in ("Rope", "Lamp", "Bell"):
        game.create_card(title, None, game.state.zones["market"], "1")
    game.create_card("Bell", a, a.zones["table"], "1")
    return game, a


def test_a_let_is_worked_out_only_where_a_requirement_reads_it():
    """``let copy`` is read only for a card its player cannot pay for: with coins for every card, the
    legal plays never look for a copy (rule 2, whose value finds it, is not exercised); with 3, they do
    (for Lamp and Bell), and offer what the requirements allow."""
    game, a = _market(LAZY_LET)
    a.fields["coins"] = 9
    game.exercised.clear()
    assert [str(play.args[0]) for play in game.legal_plays(a, ["buy"])] == ["Rope", "Lamp", "Bell"]
    assert "2" not in game.exercised
    a.fields["coins"] = 3
    game.books.version += 1     # (as a statement setting it would)
    assert [str(play.args[0]) for play in game.legal_plays(a, ["buy"])] == ["Rope", "Bell"]
    assert "2" in game.exercised


@pytest.mark.parametrize("let, require", [
    ("let copy = copy-held(p, c)", "c.price <= p.coins or copy is not none"),
    # read where Python allows no ':=' (a quantifier's list): worked out first
    ("let mine = cards(p.table)", "c.price <= p.coins or (any d in mine: d.title == c.title)"),
    ("let copy = copy-held(p, c)", "c.price <= p.coins or size(those d in [copy]: d is not none) > 0"),
])
def test_a_let_read_anywhere_gives_the_plays_its_requirements_allow(let, require):
    game, a = _market(LAZY_LET.replace("let copy = copy-held(p, c)", let).replace(
        "c.price <= p.coins or copy is not none", require))
    action = game.actions["buy"]
    assert [str(play.args[0]) for play in action.legal(game, a)] == ["Rope", "Bell"]
    assert [str(args[0]) for args in action.candidates(game, a) if action.allows(game, a, args)] == ["Rope", "Bell"]


def test_a_call_that_reads_no_choice_is_worked_out_once_for_every_choice(monkeypatch):
    """``size(cards(p.table))`` is the same for every card offered: the legal plays work it out once,
    not for each card, and offer the cards it allows."""
    counted = []
    size = BUILTINS["size"]
    monkeypatch.setitem(BUILTINS, "size", replace(size, fn=lambda game, xs: counted.append(xs) or size.fn(game, xs)))
    game, a = _market(LAZY_LET.replace("c.price <= p.coins or copy is not none",
                                       "c.price <= p.coins + size(cards(p.table))"))
    assert [str(play.args[0]) for play in game.legal_plays(a, ["buy"])] == ["Rope"]
    a.fields["coins"] = 4
    game.books.version += 1     # (as a statement setting it would)
    assert [str(play.args[0]) for play in game.legal_plays(a, ["buy"])] == ["Rope", "Lamp"]
    assert len(counted) == 2


def test_what_a_quantifier_looks_over_is_worked_out_once_when_it_reads_no_choice(monkeypatch):
    """``any d in reverse(p.table): d.title == c.title`` reads the card offered, but what it looks over
    does not: the legal search works ``reverse(p.table)`` out once, for the first card that needs it
    (Lamp, which its player cannot pay for), not again for Bell; and a value named without arguments
    (``bonus``), the same for every card, is read once too. (``cards(p.table)`` would be looked over in
    place, with no call.)"""
    counted = []
    for name in ("cards", "reverse"):
        made = BUILTINS[name]
        monkeypatch.setitem(BUILTINS, name, replace(made, fn=lambda game, z, made=made: counted.append(z)
                                                    or made.fn(game, z)))
    text = LAZY_LET.replace("    let copy = copy-held(p, c)\n", "").replace(
        "c.price <= p.coins or copy is not none",
        "c.price <= p.coins + bonus or (any d in reverse(p.table): d.title == c.title)") + \
        'rule 3 "Bonus" { text "The market\'s size, less 3." value bonus = size(cards(market)) - 3 }\n'
    game, a = _market(text)
    action = game.actions["buy"]
    assert [str(play.args[0]) for play in action.legal(game, a)] == ["Rope", "Bell"]
    assert len(counted) == 2            # the market's cards (bonus), a's table's
    assert [str(args[0]) for args in action.candidates(game, a) if action.allows(game, a, args)] == ["Rope", "Bell"]
    counted.clear()
    a.fields["coins"] = 9
    game.books.version += 1     # (as a statement setting it would)
    assert [str(play.args[0]) for play in action.legal(game, a)] == ["Rope", "Lamp", "Bell"]
    assert len(counted) == 1            # every card paid for: a's table never looked over


def test_a_comparison_that_reads_no_choice_is_worked_out_once_for_every_choice(monkeypatch):
    """``size(bells-in-play) > 0`` is the same for every card offered (AGoT's "there is a character in
    play" for every attachment a player might marshal): the legal search looks over the cards in play for
    it once, for the first card that needs it (Lamp, too dear), not again for Bell."""
    text = LAZY_LET.replace("    let copy = copy-held(p, c)\n", "").replace(
        "c.price <= p.coins or copy is not none", "c.price <= p.coins or size(bells-in-play) > 0").replace(
        "player zone table", "player zone table in-play") + \
        'rule 3 "Bells" { text "The bells in play." value bells-in-play = those d in cards-in-play: d.title == "Bell" }\n'
    game, a = _market(text)
    looked = []
    zones = game.in_play_zones
    monkeypatch.setattr(game, "in_play_zones", lambda: looked.append(1) or zones())
    action = game.actions["buy"]
    assert [str(play.args[0]) for play in action.legal(game, a)] == ["Rope", "Lamp", "Bell"]
    assert len(looked) == 1
    assert [str(args[0]) for args in action.candidates(game, a) if action.allows(game, a, args)] == \
        ["Rope", "Lamp", "Bell"]
    game.move_card(a.zones["table"].cards[0], game.state.zones["market"])      # a's Bell leaves play
    looked.clear()
    assert [str(play.args[0]) for play in action.legal(game, a)] == ["Rope"]     # no bell in play now
    assert len(looked) == 1


def test_a_requirement_ahead_of_the_choices_is_looked_at_once_before_them(monkeypatch):
    """``require size(cards(p.table)) < n`` reads no choice and comes first: the legal search looks at it
    once, before the cards offered, and offers none when it fails; with no card to offer it is not
    looked at (nor its rule exercised), as the first card would have been the first to look."""
    counted = []
    size = BUILTINS["size"]
    monkeypatch.setitem(BUILTINS, "size", replace(size, fn=lambda game, xs: counted.append(xs) or size.fn(game, xs)))
    text = LAZY_LET.replace("    let copy = copy-held(p, c)\n", "    require size(cards(p.table)) < 2 cite 2 \"Full.\"\n"
                            "    let copy = copy-held(p, c)\n")
    game, a = _market(text)
    action = game.actions["buy"]
    a.fields["coins"] = 9
    game.exercised.clear()
    assert [str(play.args[0]) for play in action.legal(game, a)] == ["Rope", "Lamp", "Bell"]
    assert len(counted) == 1 and "2" not in game.exercised      # (exercised only when it refuses)
    game.create_card("Rope", a, a.zones["table"], "1")          # a's table is full
    assert action.legal(game, a) == [] and len(counted) == 2 and "2" in game.exercised
    assert [args for args in action.candidates(game, a) if action.allows(game, a, args)] == []
    game.exercised.clear()
    for card in list(game.state.zones["market"].cards):        # nothing to buy: not looked at
        game.move_card(card, game.state.player("b").zones["table"])
    counted.clear()
    assert action.legal(game, a) == [] and counted == [] and "2" not in game.exercised


EMPTINESS = '''
game t "T" { players 2 to 2 }
state { player zone hand  player zone table in-play  player counter seen = 0 }
card type good { }
card "Rope" good { }
card "Lamp" good { }
rule 1 "Look" {
  text "Each player counts the times a lamp is in play as he looks."
  for each p in players { if TEST { increase p.seen by 1 } }
}
rule 2 "Lamps" { text "The lamps in play." value lamps = those d in cards-in-play: d.title == "Lamp" }
rule 3 "Dark" { text "No lamp counts this round." modify lamps to [] until end of round }
flow { run 1 }
'''


@pytest.mark.parametrize("test, when_lit", [
    ("size(lamps) > 0", True), ("size(lamps) != 0", True), ("size(lamps) >= 1", True), ("0 < size(lamps)", True),
    ("size(lamps) == 0", False), ("size(lamps) < 1", False), ("1 > size(lamps)", False), ("0 == size(lamps)", False),
])
@pytest.mark.parametrize("lamps, dark", [(0, False), (1, False), (2, False), (1, True)])
@pytest.mark.parametrize("holder", ["a", "b"])      # (the cards in play are looked at zone by zone)
def test_whether_a_list_value_is_empty_is_asked_without_counting_it(monkeypatch, test, when_lit, lamps, dark,
                                                                     holder):
    """``size(lamps) > 0`` and the like ask only whether a card in play passes the value's test, without
    counting them (``size`` is never called), unless a modifier is on the value; either way the
    value's rule is exercised and the answer is what counting would give."""
    counted = []
    size = BUILTINS["size"]
    monkeypatch.setitem(BUILTINS, "size", replace(size, fn=lambda game, xs: counted.append(xs) or size.fn(game, xs)))
    game = Game(assemble("t", [parse_rules(EMPTINESS.replace("TEST", test), "t.ludex")]), ["a", "b"], RandomAgent(0))
    a, b = game.state.players
    game.create_card("Rope", a, a.zones["table"], "1")
    for _ in range(lamps):
        game.create_card("Lamp", game.state.player(holder), game.state.player(holder).zones["table"], "1")
    if dark:
        game.run_rule("3")
    game.run_rule("1")
    lit = lamps > 0 and not dark
    assert [p.fields["seen"] for p in game.state.players] == [int(lit == when_lit)] * 2
    assert "2" in game.exercised
    assert len(counted) == (2 if dark else 0)


HELD = '''
game t "T" { players 2 to 2 }
state { player counter marks = 0  player zone hand  player zone table  role first-player }
card type good { }
card "Rope" good { }
card "Lamp" good { }
rule 1 "Round" {
  text """A player may lay a card, and the next card of his hand with it, and marks the next player; as
  the round begins, each player marks the next player ten times."""
  action lay "lay a card" by p (c: card from p.hand) {
    move c to p.table
    let c = first(cards(p.hand))
    if c is not none { move c to p.table }
    let p = next-player(p)
    increase p.marks by 1
  }
  when begin round for p in players {
    let p = next-player(p)
    increase p.marks by 10
  }
  set first-player = first(players)
  begin round
  window "lay" starting with first-player { any number of lay }
}
flow { run 1 }
'''


def test_a_variable_the_frame_holds_as_a_block_starts_is_read_anew_once_a_statement_sets_it():
    """A play's player and arguments and a trigger's item are read into Python locals as the written
    block starts, except those a statement of the block sets again: then each reading after it sees
    the new value, as the frame holds it."""
    game = Game(assemble("t", [parse_rules(HELD, "t.ludex")]), ["a", "b"], lambda game, d: d.options[0])
    a, b = game.state.players
    for title in ("Rope", "Lamp"):
        game.create_card(title, a, a.zones["hand"], "1")
    game.run()
    assert [str(c) for c in a.zones["table"].cards] == ["Lamp", "Rope"]
    assert (a.fields["marks"], b.fields["marks"]) == (10, 11)


IN_PLACE = '''
game t "T" { players 2 to 2 }
state { player counter marks = 0  player zone hand hidden  player zone table  role first-player  role picked }
card type good { }
card "Rope" good { }
card "Lamp" good { }
rule 1 "Round" {
  text """Each player lays a chosen card, facedown, then the rest of his hand, card by card and all at
  once; each card laid, and his table, are told; the first player names a player, who names another."""
  when laid(c) { increase c.owner.marks by 1 }
  when told(xs, n) { increase first-player.marks by n }
  set first-player = first(players)
  for each p in players {
    p chooses c from cards(p.hand) hidden "lay one"
    move c to p.table
    emit laid(c)
    move first(cards(p.hand)) to p.table
    move cards(p.hand) to p.table
    move p.hand to p.table
    emit told(cards(p.table), 2)
    emit unheard(p, "loud")
  }
  let w = first-player
  w chooses w from players
  set picked = w
}
flow { run 1 }
'''


def test_choose_emit_and_move_written_in_place_give_the_same_game_to_either_kind_of_agent():
    """``choose`` (hidden or not, by an agent answering from the options alone or asked a
    ``Decision``; a chooser reading the variable chosen read again after the choice), ``emit`` (a
    list among its values put in words now, a card or number not; triggers listening or none) and
    ``move`` of one card, of a list, of a zone's cards and of nothing: the same trace and state
    whether the agent answers from the options alone or is asked each ``Decision``."""
    def outcome(answer_from):
        agent = RandomAgent(3)
        game = Game(assemble("t", [parse_rules(IN_PLACE, "t.ludex")]), ["a", "b"],
                    agent if answer_from else (lambda game, d: agent(game, d)))
        for player in game.state.players:
            for title in ("Rope", "Lamp", "Rope", "Lamp"):
                game.create_card(title, player, player.zones["hand"], "1")
        game.run()
        return ([e.as_json(PUBLIC) for e in game.trace], [p.fields["marks"] for p in game.state.players],
                [[str(c) for c in p.zones["table"].cards] for p in game.state.players], game.steps,
                [e.as_json(JUDGE) for e in game.trace])

    written = outcome(True)
    assert outcome(False) == written
    trace, marks, tables, _, judged = written
    assert marks[0] > 4 and all(len(table) == 4 for table in tables)
    assert any("chooses a card (hidden)" in e["text"] for e in trace)
    # the judge's view says which card, hidden from the others; the public one does not
    assert any(e["text"] in ("a chooses Rope (hidden from the others)", "a chooses Lamp (hidden from the others)")
               and e["data"]["seen_by"] == ["a"] for e in judged)
    assert not any("(hidden from" in e["text"] or "seen_by" in e["data"] for e in trace)


def test_as_list_gives_every_kind_of_value_its_items_in_a_new_list():
    """``as_list``, which tells a card and a list by their type first, lists each kind of value as
    the general looks do: a tuple or a list subclass as a list, a zone's cards copied."""
    from ludex.runtime.operations import as_list
    from ludex.runtime.state import Card, Zone

    class Items(list):
        pass

    zone = Zone("pile", None)
    card = Card(1, "Rope", "good", {}, None)
    zone.cards.append(card)
    items = [card, 2]
    assert as_list(card) == [card] and as_list(None) == [] and as_list("x") == ["x"] and as_list(3) == [3]
    assert as_list(items) == items and as_list(items) is not items
    assert as_list((card, 2)) == items and as_list(Items(items)) == items and type(as_list(Items(items))) is list
    assert as_list(zone) == [card] and as_list(zone) is not zone.cards


def _performed(action):
    """``CompiledAction.play`` as plain code: the play event recorded, then ``perform``, which works the
    lets out through their closures and makes a frame with ``Frame``."""
    def play(game, play):
        game.events.append((action.rule, "play", play, acting(play.player), None))
        action.perform(game, play.player, play.args)
    return play


@pytest.mark.parametrize("key", GAMES)
def test_a_play_written_as_one_function_does_what_perform_does(key, monkeypatch):
    """A play just offered, made by its written function (``ExpressionWriter.play``: its lets written in
    place, a named value read in place), gives the trace, winners and steps that recording it and
    calling ``perform`` give."""
    gamedef = _load(key)
    expected = [_unchanged(key, seed) for seed in range(1, 4)]
    for action in Program.of(gamedef).actions.values():
        monkeypatch.setattr(action, "play", _performed(action))
    assert [_outcome(gamedef, seed) for seed in range(1, 4)] == expected


LETS = '''
game t "T" { players 2 to 2 }
state {
  player zone hand
  player counter gold = 9
  game counter spent = 0
  game zone pile
}
card type token { cost: number = 1 }
card "A" token { cost 1 }
card "B" token { cost 2 }
card "C" token { cost 4 }
value price(p, c) = c.cost + size(p.hand)
rule 1 "Deal" { text "Each player gets A, B and C." for each p in players { create ["A", "B", "C"] into p.hand } }
rule 2 "Buy" {
  text "A card may be bought for its cost and one more for each card in hand."
  window "w" starting with first(players) { any number of buy }
  action buy "buy" by p (c: card from p.hand) {
    let price = price(p, c)
    let paid = spent + price
    let c = first(reverse(those d in p.hand: d.cost >= c.cost))
    let worth = c.cost
    require price <= p.gold cite 2 "Too dear."
    decrease p.gold by price
    set spent = paid + worth
    move c to pile
  }
}
flow { run 1 run 2 }
'''


@pytest.mark.parametrize("seed", range(1, 4))
def test_a_plays_lets_written_in_place_read_the_choices_and_the_lets_above_them(seed, monkeypatch):
    """A written play's lets: a value of the player and the choice read in place, a let reading the
    state and the let above it, a let setting a choice's name from the choice, read as the let by the
    let below it and by the body (the priciest card in hand is moved): the same trace and state as
    ``perform``'s closures give."""
    def outcome():
        game = Game(gamedef, ["ann", "bob"], RandomAgent(seed), seed=seed)
        game.run()
        return ([e.as_json() for e in game.trace], [p.fields["gold"] for p in game.state.players],
                game.state.fields["spent"], [str(c) for c in game.state.zones["pile"].cards])

    gamedef = assemble("t", [parse_rules(LETS, "t.ludex")])
    assert check(gamedef) == []
    written = outcome()
    for action in Program.of(gamedef).actions.values():
        monkeypatch.setattr(action, "play", _performed(action))
    assert outcome() == written
    trace, gold, spent, pile = written
    assert any(e["kind"] == "play" for e in trace) and spent > 0 and "C" in pile


def test_a_play_offered_is_a_play_and_is_traced_as_one():
    """The plays a legal search offers (``BarePlay``, made without ``Play.__init__``) are equal to, hash
    as and are traced as the plays ``Play`` makes; the frames made without ``Frame.__init__``
    (``BareFrame``) are frames."""
    gamedef = assemble("t", [parse_rules(LETS, "t.ludex")])
    game = Game(gamedef, ["ann", "bob"], RandomAgent(1), seed=1)
    game.run_rule("1")
    ann = game.state.players[0]
    offered = game.actions["buy"].legal(game, ann)
    assert [type(play) for play in offered] == [BarePlay] * 3
    made = [Play("buy", ann, play.args) for play in offered]
    assert offered == made and [hash(p) for p in offered] == [hash(p) for p in made]
    assert all(isinstance(play, Play) for play in offered) and repr(offered[0]) == repr(made[0])
    for play in (offered[0], made[0]):            # each put in words when the trace is read
        game.events.append(("2", "play", play, "ann", None))
    first, second = game.trace[-2:]
    assert (first.text, first.data) == (second.text, second.data) == (
        "ann plays buy(A)", {"action": "buy", "args": ["A"]})
    assert isinstance(BareFrame(), Frame)


DRAWN = '''
game t "T" { players 2 to 2 }
state { player counter marks = 0  player zone deck hidden ordered  player zone hand hidden  player zone table
        zone pile }
card type good { }
card "Rope" good { }
card "Lamp" good { }
rule 1 "Round" {
  text """Each player draws one card to his hand, then three to his table (his deck runs out), then none;
  he reveals one card of his table, then all of them (one twice), then his hand, each counted when
  revealed; then the pile, which no one owns, is drawn from and revealed."""
  when revealed(c) { if c.owner is not none { increase c.owner.marks by 1 } }
  for each p in players {
    draw 1 from p.deck to p.hand
    draw 3 from p.deck to p.table
    draw 0 from p.deck to p.table
    reveal first(cards(p.table))
    reveal cards(p.table)
    reveal p.hand
  }
  draw 1 from pile to first(players).hand
  draw 2 from pile to pile
  reveal pile
}
flow { run 1 }
'''


def _played(game):
    """Play ``game`` to its end: None, or the error that stopped it (its words, and each diagnostic's
    message, span and rule)."""
    try:
        game.run()
    except RuntimeRuleError as exc:
        return str(exc), [(d.message, d.span, d.rule) for d in exc.diagnostics]
    return None


def _drawn_outcome(text):
    """The trace, marks, hands and tables and steps of a game of ``text``, each player's deck holding
    Rope, Lamp and Rope, the pile Lamp and Rope; or the error that stopped it."""
    game = Game(assemble("t", [parse_rules(text, "t.ludex")]), ["a", "b"], RandomAgent(1))
    for player in game.state.players:
        for title in ("Rope", "Lamp", "Rope"):
            game.create_card(title, player, player.zones["deck"], "1")
    for title in ("Lamp", "Rope"):
        game.create_card(title, None, game.state.zones["pile"], "1")
    error = _played(game)
    return ([e.as_json(PUBLIC) for e in game.trace], error, [p.fields["marks"] for p in game.state.players],
            [[(str(c), c.face_up) for c in z.cards] for p in game.state.players for z in p.zones.values()],
            game.steps)


_CANNOT = "this cannot be done with these values"


@pytest.mark.parametrize("change, refused", [
    (None, None),
    (("draw 3 from p.deck to p.table", "draw -1 from p.deck to p.table"),       # a negative count
     ("cannot draw a negative number of cards (-1)", 15, 5)),
    (("draw 3 from p.deck to p.table", 'draw "x" from p.deck to p.table'),      # not a number
     (f"{_CANNOT} (these values cannot be compared or added)", 15, 5)),
    (("draw 3 from p.deck to p.table", "draw 1 from p to p.table"),             # not a zone
     (f"{_CANNOT} ('Player' object has no attribute 'cards')", 15, 5)),
    (("draw 0 from p.deck to p.table", "draw 0 from p to p.table"),             # nor, drawing none
     (f"{_CANNOT} ('Player' object has no attribute 'owner')", 16, 5)),
    (("reveal p.hand", "reveal p"), ("only a card is revealed, not the player a", 19, 5)),
    (("reveal p.hand", "reveal [first(cards(p.table)), 3]"),                    # a number, after a card
     ("only a card is revealed, not the number 3", 19, 5)),
    (("reveal p.hand", "reveal none"), None),                                   # nothing: no error
])
def test_draw_and_reveal_written_in_place(change, refused):
    """``draw`` (one card, several, more than the deck holds, none; from a zone no one owns) and
    ``reveal`` (one card, a list with a card already face up, a zone's cards; the triggers of
    ``revealed`` run for each), written in place: their trace and state; and their errors, with their
    words and spans, for a negative count, a value that is not a number, a zone or a card."""
    text = DRAWN if change is None else DRAWN.replace(*change)
    trace, error, marks, _, _ = _drawn_outcome(text)
    if change is None:
        assert error is None and marks == [4, 4]
        texts = [e["text"] for e in trace]
        assert "a draws 1 card from a.deck to a.hand" in texts
        assert "a draws 2 cards from a.deck to a.table (a.deck was empty after 2)" in texts
        assert "draws 1 card from pile to a.hand" in texts
    else:
        assert _refusal(error) == refused


def _refusal(error):
    """The words, line and column of the one error that stopped a game (``_played``) in rule 1, or None."""
    if error is None:
        return None
    (message, span, rule), = error[1]
    assert rule == "1"
    return message, span.line, span.column


JUMPS = '''
game t "T" { players 2 to 2 }
state { game counter n = 0  game counter m = 0  game counter k = 0 }
rule 1 "Steps" { }
rule 1.1 "Count" { text "Count." increase n by 1 }
rule 1.2 "Inner steps" { }
rule 1.2.1 "Back" {
  text "Back to 1.1, beyond its own sequence, twice."
  increase m by 1
  if m < 3 { return to 1.1 }
}
rule 1.2.2 "Skip" {
  text "Skipped once; back to itself once from deep inside; past 1.2.3 at once."
  increase k by 1
  if k == 1 { skip this step }
  if k == 2 { DEEP }
  if k == 3 { proceed to 1.2.4 }
}
rule 1.2.3 "Passed over" { text "Passed over once." increase n by 100 }
rule 1.2.4 "Last" {
  text "Back to 1.2.2 until it has run three times."
  increase n by 10
  if k < 3 { return to 1.2.2 }
}
rule 2 "On its own" { text "Runs a step on its own." run 1.2.2 }
flow { run 1  FLOW }
'''


@pytest.mark.parametrize("flow", ["", "run 1.2", "set k = 2  run 2", "set k = 2  run 1.2.2"],
                         ids=["steps", "again", "run-by-a-rule", "run-by-the-flow"])
@pytest.mark.parametrize("watched", [False, True])
def test_jumps_returned_by_a_procedure_are_taken_as_jumps_raised_are(flow, watched, monkeypatch):
    """A ``return to`` or ``proceed to`` written in a rule's procedure is returned, not raised
    (``BlockWriter.b_Goto``): taken by the sequence holding its target, raised on beyond it, an error
    where no sequence runs the rule; one deep inside (in a block written apart) is raised. The same
    game, also under the compliance checker's wrapped ``run_rule``; only jumps that leave their
    sequence, or that come from deep inside, are made as ``Goto``s."""
    from ludex.engine import game as engine
    from ludex.runtime import operations
    from ludex.runtime import records
    from ludex.compliance.watch import Watch
    # (deeper than Python nests loops: written in a function of its own, which raises it)
    deep = "".join(f"for each v{i} in [1] {{ " for i in range(20)) + "return to 1.2.2" + " }" * 20
    source = JUMPS.replace("DEEP", deep).replace("FLOW", flow)
    made = []

    class Counted(records.Goto):
        def __init__(self, *args):
            made.append(args[0])
            super().__init__(*args)

    def outcome():
        game = Game(assemble("t", [parse_rules(source, "t.ludex")]), ["a", "b"], RandomAgent(1),
                    check_invariants=not watched)
        if watched:
            Watch(game, invariants=True)
        made.clear()
        try:
            game.run()
            error = None
        except RuntimeRuleError as exc:
            d = exc.value.diagnostics[0] if hasattr(exc, "value") else exc.diagnostics[0]
            error = (d.message, d.rule, d.span.line, d.span.column)
        return [e.as_json() for e in game.trace], dict(game.state.fields), game.steps, error, list(made)

    monkeypatch.setattr(engine, "Goto", Counted)
    monkeypatch.setitem(operations.NAMESPACE, "_Goto", Counted)      # the written code's Goto
    trace, fields, steps, error, made_ = outcome()
    if flow in ("", "run 1.2"):
        assert error is None and any(e["kind"] == "goto" for e in trace)
        assert (fields["n"], fields["k"]) == ((123, 3) if flow == "" else (233, 4))
    else:       # 1.2.2 run on its own: its 'proceed to 1.2.4' is taken by no sequence
        assert error[0].startswith("'proceed to 1.2.4' in rule 1.2.2") and error[1] == "1.2.2"
    # of the five jumps made, only those leaving their sequence or from deep inside are raised
    if flow == "":
        assert made_ == ["1.1", "1.1", "1.2.2"] and steps == 55


WRITES = '''
game t "T" { players 2 to 2 }
state {
  game supply pool = 20
  game counter n = 0 min 0 max 9
  game counter k = 5 min size(players)
  player counter coins = 1 min 0 max 6
  player counter luck = 0 max 4
  player flag ready
  player zone hand
  role leader
}
rule 1 "Writes" {
  text "Every kind of field set, cleared, increased and transferred, holding values of its kind and not."
  for each p in players {
    set p.ready = true
    clear p.ready
    clear p.ready
    set p.ready = 3
    clear p.ready
    set p.ready = players
    clear p.ready
    increase p.coins by 2
    set p.luck = 4
    clear p.luck
    set p.luck = true
    clear p.luck
    set p.luck = [p]
    clear p.luck
    transfer 1 from pool to p.coins
    transfer 1 from p.coins to pool
    set leader = p
    clear leader
    set leader = 2
    clear leader
    set n = 9
    clear n
    increase k by 1
  }
  EXTRA
}
rule 2 "Check" { text "Never." whenever leader == none and n > 100 { log "never" } }
flow { run 1 }
'''


@pytest.mark.parametrize("extra, refused", [
    ("", None),
    ("for each p in players { set p.coins = 7 }",                    # above a maximum written as a number
     ("a's coins would be 7, above its maximum 6", 40, 27)),
    ("set first(players).coins = 7",                                 # of a player not sure to be one
     ("a's coins would be 7, above its maximum 6", 40, 3)),
    ("for each p in players { set p.coins = -1 }",                   # below a minimum
     ("a's coins would be -1, below its minimum 0", 40, 27)),
    ("for each p in players { increase p.coins by 10 }", ("a's coins would be 13, above its maximum 6", 40, 27)),
    ("for each p in players { increase p.luck by 5 }",               # a maximum alone
     ("a's luck would be 5, above its maximum 4", 40, 27)),
    ("for each p in players { transfer 10 from pool to p.coins }",
     ("a's coins would be 13, above its maximum 6", 40, 27)),
    ("for each p in players { transfer 5 from p.coins to p.luck }",  # more than it holds
     ("a's coins holds 3, not the 5 to transfer", 40, 27)),
    ("set n = -1", ("n would be -1, below its minimum 0", 40, 3)),
    ("decrease n by 1", ("n would be -1, below its minimum 0", 40, 3)),
    ("set k = 1", ("k would be 1, below its minimum 2", 40, 3)),     # below a minimum worked out at set-up
    ('for each p in players { set p.coins = true  set p.coins = none  set p.luck = "x" }', None),  # not numbers
    ("for each p in players { set p.ready = [p]  clear p.ready }", None),
    ("for each p in players { set first(cards(p.hand)).ready = true }",   # no card: none has no field
     ("none has no 'ready' to change", 40, 31)),
])
def test_set_clear_increase_and_transfer_written_in_place(extra, refused):
    """``set``, ``clear``, ``increase``, ``decrease`` and ``transfer`` of a player's field (of a
    variable sure to be a player, read and cleared as a field that is there from set-up) and of the
    game's, each holding a value of its declared kind or not (a flag a number or list, a counter a
    flag's value, a role a number), written in place: their state, and their errors, with their words
    and spans, for a value out of bounds written as numbers (the comparison in place) or worked out at
    set-up, and for more than a counter holds."""
    game = Game(assemble("t", [parse_rules(WRITES.replace("EXTRA", extra), "t.ludex")]), ["a", "b"], RandomAgent(1))
    error = _played(game)
    fields, players = dict(game.state.fields), [dict(p.fields) for p in game.state.players]
    assert _refusal(error) == refused
    if extra == "":
        assert (fields["n"], fields["k"], fields["leader"]) == (0, 7, 0)
        assert [(p["ready"], p["luck"], p["coins"]) for p in players] == [(None, None, 3)] * 2


WINDOWS_AND_TURNS = '''
game t "T" { players 3 to 3 }
state { player counter hp = 7  player counter gold = 4  player counter n = 0  game counter r = 0 }
rule 1 "Round" {
  text """A window of hits and buys, one of buys alone, one of exactly one play each; then each player's
  turn, of every kind of part."""
  begin round
  increase r by 1
  let everyone = players
  window "Hits" starting with first(players) { any number of hit, buy }
  window "Buys" starting with next-player(first(players)) { any number of buy }
  window "Once" starting with first(players) { exactly one of hit, wait }
  for each p in everyone {
    turn of p {
      up to 1 of wait
      then 2 of hit, buy, wait, risk repeats allowed
      then any number of wait, buy
      then exactly one of hit, pass
      then 2 of wait, pass
      then exactly one of wait and any number of buy repeats allowed
    }
  }
  end round
  action hit "hit a player" by p (q: player from players) {
    require q != p cite 1 "Not yourself."
    decrease q.hp by 1
  }
  action buy "buy" by p { require p.gold > 0 cite 1 "Gold is needed." decrease p.gold by 1 increase p.n by 1 }
  action wait "wait" by p { log "waits" }
  action risk "risk" by p { decrease p.hp by 2 }
}
rule 2 "Death" { text "A player with no health is out." whenever p.hp <= 0 for p in players { eliminate p } }
flow { begin game repeat { run 1 } until r >= 3 end game }
'''


class _Wayward:
    """Answers a play with one of its options, or now and then with a play not offered: a copy of an
    option (tried, then made), a hit of oneself or a wait where none is allowed (refused, taken back),
    a play by another player (refused, not taken back: ``stray``)."""

    def __init__(self, seed, stray=False):
        self.rng = random.Random(seed)
        self.stray = stray
        self.players = []
        self.asked = []     # every decision asked (of an agent without ``answer_from``), in its fields

    def answer_from(self, options):
        option = self.rng.choice(options)
        player, roll = option.player, self.rng.random()
        if roll < 0.15:
            return Play(option.action, option.player, option.args)
        if roll < 0.25:
            return Play("hit", player, (player,))
        if roll < 0.3:
            return Play("wait", player, ())
        if self.stray and roll < 0.32:
            return Play("wait", next(p for p in self.players if p is not player), ())
        return option

    def __call__(self, game, decision):
        self.asked.append((str(decision.player), decision.kind, [repr(o) for o in decision.options], decision.rule,
                           decision.prompt, decision.hidden, decision.span))
        return self.answer_from(decision.options) if decision.kind == "play" else self.rng.choice(decision.options)


def _window_outcome(seed, answer_from, stray=False, budget=None):
    """A game of ``WINDOWS_AND_TURNS`` with every refused play taken back: its trace, winners or the
    error that stopped it, steps, the decisions asked and the players' counters."""
    agent = _Wayward(seed, stray)
    game = Game(assemble("t", [parse_rules(WINDOWS_AND_TURNS, "t.ludex")]), ["a", "b", "c"],
                agent if answer_from else (lambda game, decision: agent(game, decision)), seed=seed,
                **({"step_budget": budget} if budget else {}))
    agent.players = game.state.players
    game.choose_again = lambda refused, player: True
    try:
        winners = [str(w) for w in game.run()]
    except (RuntimeRuleError, Violation) as exc:
        winners = f"{type(exc).__name__}: {exc}"
    return ([e.as_json() for e in game.trace], winners, game.steps, agent.asked,
            [(p.fields["hp"], p.fields["gold"], p.fields["n"], p.eliminated) for p in game.state.players])


@pytest.mark.parametrize("answer_from", [False, True])
def test_windows_and_turns_take_every_path(answer_from):
    """``window`` (of one play, of several, of exactly one play each), written in place, and ``turn``:
    plays not offered tried and made, refused plays taken back and chosen again, a play the window does
    not allow refused, players eliminated mid-window (and turns of every kind around it: a turn of a
    player eliminated in a window, a play by another player in a turn refused for good), and the step
    budget running out anywhere; decisions asked only of an agent without ``answer_from``."""
    seeds = range(1, 9)
    budgets = [(1, b) for b in (40, 75, 110, 160, 230)]
    written = ([_window_outcome(seed, answer_from) for seed in seeds]
               + [_window_outcome(seed, answer_from, stray=True) for seed in seeds]
               + [_window_outcome(seed, answer_from, budget=budget) for seed, budget in budgets])
    # every path was taken
    texts = [e["text"] for trace, *_ in written for e in trace]
    kinds = {(e["kind"], e["text"].split(":")[0]) for trace, *_ in written for e in trace}
    assert any(": refused by " in t and t.endswith("Not yourself.") for t in texts)
    assert any("is not a play this window allows" in t for t in texts)
    assert any("is not a play of this part of the turn" in t for t in texts)
    assert any(t.endswith("is eliminated from the game") for t in texts)
    assert any("passes, on to" in t for t in texts) and any(t.endswith("is out of the game: no turn") for t in texts)
    assert ("window", "Hits closes") in kinds
    ends = [winners for _, winners, *_ in written]
    assert any(w.startswith("Violation") and "turn, not" in w for w in ends if isinstance(w, str))
    assert any("steps without ending" in w for w in ends if isinstance(w, str))
    assert any(isinstance(w, list) for w in ends)
    assert all(asked == [] for *_, asked, _ in written) if answer_from else any(asked for *_, asked, _ in written)


INITIATED = '''
game t "T" { players 2 to 2 }
state { player counter marks = 0  player zone hand  zone pile  role first-player }
card type good { }
card "Rope" good {
  ability "Tie" "when played" {
    if owner(this) is not none { increase owner(this).marks by 1 }
    initiate "echo" abilities of [this]
  }
  ability "Echo" "echo" { log "echo" }
}
card "Lamp" good { ability "Glow" "when played" { increase first-player.marks by 2 } }
card "Bell" good { ability "Ring" "Other" { log "ring" } }
rule 1 "Round" {
  text """Each player's cards in hand initiate their abilities played, in the order the first player
  gives; the first of them its Glow by its name; none has a "nothing"; then the pile's, no one's."""
  set first-player = first(players)
  for each p in players {
    initiate "when played" abilities of cards(p.hand) ordered by first-player
    initiate "Glow" abilities of first(cards(p.hand))
    initiate "nothing" abilities of cards(p.hand)
  }
  initiate "WHEN PLAYED" abilities of pile
}
flow { run 1 }
'''


def _initiated_outcome(text, answer_from):
    """The trace, marks and steps of a game of ``text``, each player's hand holding Lamp, Rope and
    Bell, the pile Rope and Lamp, with the decisions asked (their fields), or the error that stopped
    it; by an agent answering plays from the options alone, or one asked every ``Decision``."""
    agent, asked = RandomAgent(2), []

    def ask(game, d):
        asked.append((str(d.player), d.kind, [str(o) for o in d.options], d.rule, d.prompt, d.hidden, d.span))
        return agent(game, d)
    if answer_from:
        ask.answer_from = agent.answer_from
    game = Game(assemble("t", [parse_rules(text, "t.ludex")]), ["a", "b"], ask)
    for player in game.state.players:
        for title in ("Lamp", "Rope", "Bell"):
            game.create_card(title, player, player.zones["hand"], "1")
    for title in ("Rope", "Lamp"):
        game.create_card(title, None, game.state.zones["pile"], "1")
    error = _played(game)
    return [e.as_json() for e in game.trace], error, [p.fields["marks"] for p in game.state.players], \
        asked, game.steps


@pytest.mark.parametrize("answer_from", [False, True])
@pytest.mark.parametrize("change, refused", [
    (None, None),
    (("of cards(p.hand) ordered", "of [first(cards(p.hand)), 3] ordered"),     # a number, after a card
     ("only a card's abilities initiate, not the number 3's", 19, 5)),
    (("of first(cards(p.hand))", "of p"), ("only a card's abilities initiate, not the player a's", 20, 5)),
    (("ordered by first-player", "ordered by first-player.marks + none"),      # a chooser gone wrong
     (f"{_CANNOT} (a value is none)", 19, 5)),
    (('initiate "nothing" abilities of cards(p.hand)', 'initiate "nothing" abilities of none'), None),
])
def test_initiate_written_in_place(change, refused, answer_from):
    """``initiate`` (abilities found by kind or name, in any case; several, ordered by a player asked a
    ``Decision``; one; none; an ability initiating another; a card no one owns, whose ability acts for
    whoever acts), written in place: its trace, state and decisions; and its errors, with their words
    and spans, for a value that is not a card and a chooser that cannot be worked out."""
    text = INITIATED if change is None else INITIATED.replace(*change)
    trace, error, marks, asked, _ = _initiated_outcome(text, answer_from)
    if change is None:
        assert error is None and marks == [11, 1]
        texts = [e["text"] for e in trace]
        assert "a's Lamp: Glow (when played) initiates" in texts and "Rope: Echo (echo) initiates" in texts
        assert any(e["kind"] == "decision" and "orders" in e["text"] for e in trace)
        assert [kind for _, kind, *_ in asked] == ["order", "order"]
    else:
        assert _refusal(error) == refused


CALLS = '''
game t "T" { players 2 to 2 }
state { game counter x = 0  player zone hand  zone pile }
dice coin { faces heads, tails }
card type good { strength: number }
card "Rope" good { strength 1 }
rule 1 "Do" {
  text "Do."
  action refused "refused" by p { require x > 5 cite 1 "Not yet." }
  BODY
}
flow { begin round run 1 end round }
'''


@pytest.mark.parametrize("body, stopped, last", [
    ("pick v at random from []", ("RuntimeRuleError", "nothing to pick from at random", 3), "round 1 begins"),
    ('pick v at random from ["Rope", "Bell"]',         # fixed to a title that is none of them
     ("ForcedPickRefused", "the random pick is fixed to Lamp, which is not one of [Rope, Bell]", 3),
     "round 1 begins"),
    ("roll x - 1 coin dice as r", ("RuntimeRuleError", "cannot roll a negative number of dice (-1)", 3),
     "round 1 begins"),
    ("roll x + 1001 coin dice as r",
     ("RuntimeRuleError", "cannot roll 1001 dice: a roll has at most 1000", 3), "round 1 begins"),
    ("conceal [first(cards(pile)), first([x])]",
     ("RuntimeRuleError", "only a card is turned face down, not none", 3), "round 1 begins"),
    ("perform refused by first(players)",
     ("RuntimeRuleError", "rule 1 makes a play that rule 1 refuses: Not yet.", 3), "round 1 begins"),
    ("shuffle first([x])", ("RuntimeRuleError", f"{_CANNOT} ('int' object has no attribute 'cards')", 3),
     "round 1 begins"),
    ("eliminate first([x])",
     ("RuntimeRuleError", f"{_CANNOT} ('int' object has no attribute 'eliminated')", 3), "round 1 begins"),
    ("win first([x])", None, "0 wins the game"),
    ("turn of first([x]) { any number of refused }",
     ("RuntimeRuleError", f"{_CANNOT} ('int' object has no attribute 'seat')", 3), "0's turn begins"),
    ("create first(cards(pile)) into pile", ("RuntimeRuleError", f"{_CANNOT} (a value is none)", 3),
     "round 1 begins"),
    ("modify first([x]).strength by 1 until end of round",
     ("RuntimeRuleError", f"{_CANNOT} ('int' object has no attribute 'id')", 3), "round 1 begins"),
    ("modify x by first(cards(pile)) until end of round", None, "modifier expires: x by none (made by rule 1)"),
    ('first(players) may "Go?" { increase x by none } else { log "no" }',     # at the statement inside
     ("RuntimeRuleError", f"{_CANNOT} (a value is none)", 30), "a answers yes: Go?"),
    ("first(players) orders o from [1, 2, 3]", None, "round 1 ends"),
    ("first(players) chooses number n from 1 to none", ("RuntimeRuleError", f"{_CANNOT} (a value is none)", 3),
     "round 1 begins"),
    ("skip this step", None, "round 1 ends"),
])
def test_statements_written_as_calls_stop_where_the_rules_go_wrong(body, stopped, last, tmp_path):
    """The statements whose work ``runtime/operations.py`` does (``pick``, ``roll``, ``conceal``,
    ``perform``, ``shuffle``, ``eliminate``, ``win``, ``turn``, ``create``, ``modify``) and those
    written in place around their decisions (``may``, ``orders``, ``chooses number``) or jumps
    (``skip``): a value the checker cannot know is wrong stops the game with the words of the
    statement's own refusal or a wrong kind of value, at the statement (inside ``may``, at the one in
    its block); the trace up to there."""
    path = tmp_path / "t.ludex"
    path.write_text(CALLS.replace("BODY", body), encoding="utf-8")
    loaded = load_paths("t", [path])
    assert loaded.ok, loaded.diagnostics
    game = Game(loaded.game, ["a", "b"], RandomAgent(1))
    game.force("pick", "Lamp")
    try:
        game.run()
        got = None
    except RuntimeRuleError as exc:
        (d,) = exc.diagnostics
        assert (d.rule, d.span.line) == ("1", 10)
        got = (type(exc).__name__, d.message, d.span.column)
    assert got == stopped
    assert game.trace[-1].text == last
    if body == "skip this step":
        assert game.trace[-2].text == "step 1 is skipped"
