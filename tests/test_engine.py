"""The engine on the test game tests/games/tally.ludex: whole games, determinism, invariants,
legality, guards and decisions."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from ludex.engine.agents import RandomAgent, ScriptedAgent, Unscripted
from ludex.diagnostics import RuntimeRuleError
from ludex.engine.game import Frame, Game, Play, Program, Violation
from ludex.engine.trace import JUDGE, PUBLIC, format_event
from ludex.load import load_paths
from ludex.parse.syntax import parse_rules
from ludex.parse.definition import assemble
from ludex.check.checks import check

TALLY = Path(__file__).parent / "games" / "tally.ludex"


@pytest.fixture(scope="module")
def tally():
    loaded = load_paths("tally", [TALLY])
    assert loaded.ok, loaded.diagnostics
    return loaded.game


def play(gamedef, seed, players=("p1", "p2", "p3"), format=""):
    game = Game(gamedef, list(players), RandomAgent(seed), seed=seed, format=format)
    game.run()
    return game


@pytest.mark.parametrize("seed", range(1, 21))
def test_random_games_end_with_a_winner_and_keep_invariants(tally, seed):
    game = play(tally, seed)
    assert game.over and len(game.winners) == 1
    assert game.state.invariant_breaks() == []
    # every card created is somewhere, once
    assert sum(len(z.cards) for z in game.state.all_zones()) == len(game.state.cards)
    # the bank and the coins together hold the 60 tokens the bank started with
    coins = sum(p.fields["coins"] for p in game.state.players)
    assert game.state.fields["bank"] + coins == 60


def test_same_seed_same_trace(tally):
    a = [e.as_json() for e in play(tally, 7).trace]
    b = [e.as_json() for e in play(tally, 7).trace]
    c = [e.as_json() for e in play(tally, 8).trace]
    assert a == b
    assert a != c


def test_every_event_cites_a_rule_or_the_flow(tally):
    game = play(tally, 4)
    rules = set(tally.rules)
    for event in game.trace:
        assert event.rule in rules or event.rule == "", event


def test_goto_returns_to_the_step_and_proceeds(tally):
    game = play(tally, 2)
    gotos = [e.text for e in game.trace if e.kind == "goto"]
    assert "go to step 1.3" in gotos and "go to step 1.4" in gotos


def test_refused_play_cites_its_rule_and_changes_nothing(tally):
    game = Game(tally, ["ann", "bob"], RandomAgent(1), seed=1)
    game.run_rule("setup")
    game.state.fields["active-player"] = game.state.player("ann")
    bob = game.state.player("bob")
    bell = next(c for c in game.state.zones["market"].cards if c.title == "Bell")
    before = game.state.snapshot()
    with pytest.raises(Violation) as refused:
        game.attempt(Play("buy", bob, (bell,)), "1.3")
    assert refused.value.rule == "1.3"
    assert refused.value.message == "Only the active player may buy."
    ann = game.state.player("ann")
    with pytest.raises(Violation) as poor:
        game.attempt(Play("buy", ann, (bell,)), "1.3")
    assert poor.value.message == "You do not have enough coins."
    assert game.state.snapshot() == before


def test_a_play_with_a_card_outside_its_choices_is_refused_citing_the_plays_rule(tally):
    game = Game(tally, ["ann", "bob"], RandomAgent(1), seed=1)
    game.run_rule("setup")
    ann = game.state.player("ann")
    game.state.fields["active-player"] = ann
    ann.fields["coins"] = 10
    rope = next(c for c in ann.zones["draw-deck"].cards if c.title == "Rope")   # buy takes a card from market
    before = game.state.snapshot()
    with pytest.raises(Violation) as refused:
        game.attempt(Play("buy", ann, (rope,)), "1.3")
    assert refused.value.rule == "1.3"
    assert refused.value.message == "Rope is not one of the choices for buy's c (market)"
    assert game.state.snapshot() == before


def test_a_hidden_choice_is_hidden_from_the_others_in_the_words_and_in_the_data(tally):
    game = yard_game(tally, "east")
    game.agent.answers.append("F1")
    mark = len(game.trace)
    game.run_rule("3.4")
    (event,) = [e for e in game.trace[mark:] if e.kind == "decision"]
    chosen = event.view(JUDGE)[1]["choice"]
    # the public view and bob's: that ann chose, not what
    assert event.view(PUBLIC) == event.view("bob") == ("ann makes a hidden choice", {"hidden": True})
    assert chosen not in str(event.as_json(PUBLIC)) and chosen not in str(event.as_json("bob"))
    # the judge's view and ann's: what she chose, marked hidden from the others
    assert event.view(JUDGE) == event.view("ann") == (f"ann chooses {chosen} (hidden from the others)",
                                                      {"choice": chosen, "hidden": True, "seen_by": ["ann"]})
    assert event.as_json()["text"] == f"ann chooses {chosen} (hidden from the others)"
    assert format_event(event).endswith(f"ann chooses {chosen} (hidden from the others)")
    assert format_event(event, view=PUBLIC).endswith("ann makes a hidden choice")


def test_setting_a_value_it_already_has_is_not_a_change(tally):
    game = yard_game(tally, "east")
    body = game.compiler.block(parse_rules('rule x "x" { set walker-of(ann).facing = ["north", "east"] }',
                                           "x.ludex").items[0].body)
    frame = Frame(game, {"ann": game.state.player("ann")}, "x")
    body(frame)                     # a new list each time: equal to the last, not the same object
    mark = len(game.trace)
    body(frame)
    assert [e.kind for e in game.trace[:mark]].count("set") >= 1
    assert [e for e in game.trace[mark:] if e.kind == "set"] == []


def test_legal_plays_are_the_ones_whose_requirements_hold(tally):
    game = Game(tally, ["ann", "bob"], RandomAgent(1), seed=1)
    game.run_rule("setup")
    ann = game.state.player("ann")
    game.state.fields["active-player"] = ann
    ann.fields["coins"] = 2
    legal = {p.args[0].title for p in game.legal_plays(ann, ["buy"])}
    assert legal == {"Lantern", "Rope"}
    assert game.legal_plays(game.state.player("bob"), ["buy"]) == []


def test_unscripted_decision_names_the_rule_and_options(tally):
    game = Game(tally, ["ann", "bob"], ScriptedAgent(), seed=1)
    with pytest.raises(Unscripted) as exc:
        game.run()
    d = exc.value.diagnostics[0]
    # the first decision: the first player's first opportunity in the trading window (1.3), where the
    # market's goods cost more than the one coin of income but the Rope
    assert d.rule == "1.3" and d.code == "C010"
    assert d.hint == "the options are: buy(Rope), pass"


def _game_from(text):
    module = parse_rules(text, "loop.ludex")
    gamedef = assemble("loop", [module])
    assert check(gamedef) == []
    return gamedef


LOOP = '''
game loop "Loop" { players 2 to 2 }
state { game counter n = 0 }
rule 1 "Forever" {
  text "Do it again."
  repeat { increase n by 1 decrease n by 1 }
}
flow { run 1 }
'''


def test_a_rule_that_loops_forever_is_an_error_naming_the_rule():
    game = Game(_game_from(LOOP), ["a", "b"], RandomAgent(0), step_budget=10_000)
    with pytest.raises(RuntimeRuleError) as exc:
        game.run()
    d = exc.value.diagnostics[0]
    assert d.rule == "1" and "loop forever" in d.message
    assert d.span.path == "loop.ludex" and d.span.line == 6


RECURSE = '''
game rec "Recurse" { players 2 to 2 }
rule 1 "Again" { text "Do rule 1." run 1 }
flow { run 1 }
'''


def test_a_rule_that_runs_itself_is_an_error_not_a_recursion_error():
    game = Game(_game_from(RECURSE), ["a", "b"], RandomAgent(0))
    with pytest.raises(RuntimeRuleError) as exc:
        game.run()
    d = exc.value.diagnostics[0]
    assert d.rule == "1"
    # the nesting limit, not Python's stack: it names the loop
    assert d.message == "rules run inside each other more than 200 deep: rule 1 keeps starting itself"


def test_counter_bounds_are_enforced_with_the_rule(tally):
    game = Game(tally, ["ann", "bob"], RandomAgent(1), seed=1)
    game.run_rule("setup")
    ann = game.state.player("ann")
    ann.fields["coins"] = 40
    game.state.fields["active-player"] = ann
    with pytest.raises(RuntimeRuleError) as exc:
        game.run_rule("1.3")
    assert "above its maximum 40" in exc.value.diagnostics[0].message
    assert exc.value.diagnostics[0].rule == "1.3"


def test_forced_random_outcomes(tally):
    game = Game(tally, ["ann", "bob"], RandomAgent(1), seed=1)
    game.force("pick", "bob")
    game.force("order ann.draw-deck", ["Bell", "Bell", "Horseshoe"])
    game.run_rule("setup")
    assert game.state.fields["first-player"].name == "bob"
    assert [c.title for c in game.state.player("ann").zones["draw-deck"].cards[:3]] == ["Bell", "Bell", "Horseshoe"]


def test_modifier_lasts_until_the_end_of_the_round(tally):
    game = Game(tally, ["ann", "bob"], RandomAgent(3), seed=3)
    game.force("dice coin", "heads")
    seen = []
    game.listen(seen.append)
    game.run()
    kinds = [e.kind for e in seen]
    assert "modifier" in kinds and "expire" in kinds
    assert kinds.index("expire") > kinds.index("modifier")


LOSE_A_CARD = '''
game lose "Lose" { players 2 to 2 }
state { game zone pile  game zone other }
card type thing { size: number }
card "Stone" thing { size 1 }
rule 1 "Make" { text "Make a stone." create "Stone" into pile }
flow { run 1 }
'''


def test_an_inconsistent_state_after_a_step_names_the_step():
    gamedef = _game_from(LOSE_A_CARD)
    game = Game(gamedef, ["a", "b"], RandomAgent(0))
    original = game.create_cards

    def careless(titles, owner, zone, rule):
        original(titles, owner, zone, rule)
        zone.cards.pop()          # a broken primitive: the last card made is in no zone
    game.create_cards = careless
    with pytest.raises(RuntimeRuleError) as exc:
        game.run()
    d = exc.value.diagnostics[0]
    assert d.rule == "1" and "a card was lost" in d.message


def test_lets_are_evaluated_only_when_a_requirement_needs_them():
    from ludex.parse import ast as A
    from ludex.program.program import _lets_where_needed
    module = parse_rules('''action a "a" by p {
      let x = 1
      let y = x + 1
      let unused = 5
      require p.ok cite 1 "first"
      require y > 1 cite 1 "second"
    }''', "lets.ludex")
    body = module.items[0].body
    order = _lets_where_needed([(s, None) for s in body])
    kinds = [(is_let, getattr(s, "var", getattr(s, "message", ""))) for is_let, s, _ in order]
    assert kinds == [(False, "first"), (True, "x"), (True, "y"), (False, "second")]


def test_a_forced_order_places_each_copy_of_a_title(tally):
    game = Game(tally, ["ann", "bob"], RandomAgent(1), seed=1)
    game.force("order ann.draw-deck", ["Rope", "Bell", "Rope", "Bell"])
    game.run_rule("setup")
    assert [c.title for c in game.state.player("ann").zones["draw-deck"].cards[:4]] == ["Rope", "Bell", "Rope", "Bell"]


# ------------------------------------------------------------------ the yard and the street
# Rule 3 of tally is a board (the yard: a shed walled in at D1-E1 with its door under E1, a window
# E2:F2, a hedge between B2 and B3, four quadrants sharing the middle row 2) with a walker per player
# and a fox whose space is secret until a walker sees it; rule 4 is each player's street, a row of
# goods displayed at its ends only. These tests drive them through the engine: plays are attempted,
# refusals carry the rule and its words, and what the rules did is read from the state and the trace.


class Answers:
    """An agent that answers the decisions it is asked, in order, and records them."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.asked = []

    def __call__(self, game, decision):
        self.asked.append(decision)
        return self.answers.pop(0)


def yard_game(tally, *answers):
    """ann and bob after set-up, ann the first player, each with 3 coins; the agent answers in order."""
    game = Game(tally, ["ann", "bob"], Answers(*answers), seed=1)
    game.force("pick", "ann")
    game.run_rule("setup")
    for p in game.state.players:
        p.fields["coins"] = 3
    game.state.fields["bank"] -= 6
    return game


def walker(game, name):
    return game.state.player(name).zones["walker"].cards[0]


def fox(game):
    return game.state.zones["den"].cards[0]


def put(game, card, space, facing=None):
    """Stand a figure on a space (as a scenario's set-up would). The version is bumped as the engine
    bumps it for every change, so that no value worked out before is remembered."""
    card.attrs["space"] = space
    if facing is not None:
        card.attrs["facing"] = facing
    game.books.version += 1


def walk(game, name, to):
    game.attempt(Play("walk", game.state.player(name), (game.boards["yard"].space(to),)), "1.4")


def since(game, mark, view=PUBLIC):
    return [(e.rule, e.view(view)[0]) for e in game.trace[mark:]]


def test_the_yard_is_drawn_with_every_kind_of_line_and_the_set_up_places_the_figures(tally):
    game = yard_game(tally)
    yard = game.boards["yard"]
    assert [yard.edge(a, b) for a, b in [("C1", "D1"), ("E1", "E2"), ("E2", "F2"), ("B2", "B3"), ("D2", "E2")]] \
        == ["wall", "door", "window", "hedge", "open"]
    assert yard.quadrants("C2") == ["north-west", "south-west"] and yard.quadrants("E3") == ["south-east"]
    assert [walker(game, p).title for p in ("ann", "bob")] == ["Red Walker", "Blue Walker"]
    assert [(walker(game, p).attrs["space"], walker(game, p).attrs["facing"]) for p in ("ann", "bob")] \
        == [("E3", "north"), ("E3", "north")]
    assert fox(game).attrs["space"] == "A1" and fox(game).attrs["spotted"] is None
    # the fox's space is secret: the trace says that it was set, not where; the judge sees where
    assert [t for r, t in since(game, 0) if t.startswith("Fox's")] == ["Fox's space changes (hidden)"]
    assert [t for r, t in since(game, 0, JUDGE) if t.startswith("Fox's")] == \
        ["Fox's space: none -> A1 (hidden from every player)"]


def test_a_walk_through_a_wall_is_refused_citing_3_1_and_changes_nothing(tally):
    game = yard_game(tally)
    put(game, walker(game, "ann"), "C1")
    before = game.state.snapshot()
    with pytest.raises(Violation) as wall:
        walk(game, "ann", "D1")
    assert (wall.value.rule, wall.value.message) == ("3.1", "A walker may not cross a wall.")
    with pytest.raises(Violation) as diagonal:
        walk(game, "ann", "D2")
    assert (diagonal.value.rule, diagonal.value.message) == \
        ("3.1", "A walker steps to an orthogonally neighbouring space.")
    assert game.state.snapshot() == before
    # the wall is among the candidates (C1's neighbours) but not among the legal plays
    legal = sorted(p.args[0] for p in game.legal_plays(game.state.player("ann"), ["walk"]))
    assert legal == ["B1", "C2"]


def test_a_walk_through_the_door_is_free_and_the_walker_faces_the_way_chosen(tally):
    game = yard_game(tally, "south")
    ann = game.state.player("ann")
    put(game, walker(game, "ann"), "E2")
    ann.fields["coins"] = 0
    assert sorted(p.args[0] for p in game.legal_plays(ann, ["walk"])) == ["D2", "E1", "E3"]
    walk(game, "ann", "E1")
    assert (walker(game, "ann").attrs["space"], walker(game, "ann").attrs["facing"]) == ("E1", "south")
    assert ann.fields["coins"] == 0
    decision = game.agent.asked[-1]
    assert (decision.rule, decision.options) == ("3.1", ["north", "east", "south", "west"])
    assert ("3.1", "ann plays walk(E1)") in since(game, 0)


@pytest.mark.parametrize("start, to", [("E2", "F2"), ("B2", "B3")], ids=["window", "hedge"])
def test_climbing_through_a_window_or_over_a_hedge_costs_a_coin(tally, start, to):
    game = yard_game(tally, "west")
    ann = game.state.player("ann")
    put(game, walker(game, "ann"), start)
    ann.fields["coins"] = 0
    with pytest.raises(Violation) as poor:
        walk(game, "ann", to)
    assert (poor.value.rule, poor.value.message) == ("3.1", "Climbing through a window or over a hedge costs 1 coin.")
    ann.fields["coins"] = 2
    bank = game.state.fields["bank"]
    mark = len(game.trace)
    walk(game, "ann", to)
    assert walker(game, "ann").attrs["space"] == to
    assert ann.fields["coins"] == 1 and game.state.fields["bank"] == bank + 1
    assert ("3.1", f"1 from ann's coins to bank (bank now {bank + 1})") in since(game, mark)


def test_sight_through_a_window_reveals_the_fox_and_rewards_a_shared_quadrant(tally):
    game = yard_game(tally, "east")
    put(game, fox(game), "F2")
    put(game, walker(game, "ann"), "C2")
    mark = len(game.trace)
    walk(game, "ann", "D2")                  # facing east from D2: E2, then F2 through the window
    assert fox(game).attrs["spotted"] == "F2"
    events = since(game, mark)
    assert ("3.2", "Fox's spotted: none -> F2") in events
    # D2 and F2 share the north-east and south-east quadrants: 2 coins
    assert ("3.3", "2 from bank to ann's coins (ann's coins now 5)") in events
    # stepping back with the fox still in sight reveals nothing new and pays nothing more
    game.agent.answers.append("east")
    mark = len(game.trace)
    walk(game, "ann", "C2")
    assert not any(r in ("3.2", "3.3") for r, _ in since(game, mark))
    assert game.state.player("ann").fields["coins"] == 5
    # looking away hides it again
    game.agent.answers.append("south")
    walk(game, "ann", "C3")
    assert fox(game).attrs["spotted"] is None
    assert ("3.2", "Fox's spotted: F2 -> none") in since(game, mark)


@pytest.mark.parametrize("fox_at, start, to, way", [
    ("D1", "B1", "C1", "east"),              # the shed's wall
    ("E1", "D3", "E3", "north"),             # the shed's door: E2 is seen, E1 is not
    ("B3", "A2", "B2", "south"),             # the hedge
], ids=["wall", "door", "hedge"])
def test_walls_doors_and_hedges_stop_sight_so_the_fox_stays_hidden(tally, fox_at, start, to, way):
    game = yard_game(tally, way)
    put(game, fox(game), fox_at)
    put(game, walker(game, "ann"), start)
    mark = len(game.trace)
    walk(game, "ann", to)
    assert fox(game).attrs["spotted"] is None
    assert game.state.player("ann").fields["coins"] == 3
    assert not any(r in ("3.2", "3.3") for r, _ in since(game, mark))


@pytest.mark.parametrize("fox_at, reward", [("C2", 2), ("C3", 1)], ids=["middle-row", "other-quadrant"])
def test_the_middle_row_is_in_both_quadrants(tally, fox_at, reward):
    # C1 is in the north-west quadrant; C2, on the middle row, is in the north-west and the
    # south-west; C3 only in the south-west.
    game = yard_game(tally, "south")
    put(game, fox(game), fox_at)
    put(game, walker(game, "ann"), "B1")
    walk(game, "ann", "C1")                  # facing south from C1: C2, C3
    assert fox(game).attrs["spotted"] == fox_at
    assert game.state.player("ann").fields["coins"] == 3 + reward
    assert ("3.3", f"{reward} from bank to ann's coins (ann's coins now {3 + reward})") in since(game, 0)


def test_the_fox_moves_in_secret_across_open_lines_and_doors_and_hides_again(tally):
    game = yard_game(tally, "east")
    put(game, fox(game), "F2")
    put(game, walker(game, "bob"), "C2")
    walk(game, "bob", "D2")
    assert fox(game).attrs["spotted"] == "F2"
    game.agent.answers.append("F3")
    mark = len(game.trace)
    game.run_rule("3.4")
    decision = game.agent.asked[-1]
    # from F2: F1 and F3 across open lines; E2 is across the window, which the fox does not cross
    assert (decision.rule, decision.player.name, decision.hidden) == ("3.4", "ann", True)
    assert decision.options == ["F1", "F3"]
    assert fox(game).attrs["space"] == "F3" and fox(game).attrs["spotted"] is None
    events = since(game, mark)
    assert ("3.4", "Fox's space changes (hidden)") in events
    assert ("3.2", "Fox's spotted: F2 -> none") in events
    assert ("3.2", "No walker sees the fox: its space is secret again.") in events
    assert not any("F3" in text for _, text in events)
    # ann sees her hidden choice; the fox, no player's card, moved by the game's procedure (no one's
    # play), is seen moving by the judge alone
    assert since(game, mark, "ann")[:2] == [("3.4", "ann chooses F3 (hidden from the others)"),
                                             ("3.4", "Fox's space changes (hidden)")]
    assert ("3.4", "Fox's space: F2 -> F3 (hidden from every player)") in since(game, mark, JUDGE)
    assert since(game, mark, "bob") == events


def test_the_fox_moving_into_sight_is_spotted(tally):
    game = yard_game(tally, "E1")
    put(game, fox(game), "E2")
    put(game, walker(game, "bob"), "A2", "east")   # sees B2 ... F2 along the middle row
    game.run_rule("3.4")                            # E2 -> E1, through the door: out of sight
    assert fox(game).attrs["spotted"] is None
    game.agent.answers.append("E2")
    game.run_rule("3.4")                            # back to E2: in sight, from a shared quadrant
    assert fox(game).attrs["spotted"] == "E2"
    assert ("3.3", "1 from bank to bob's coins (bob's coins now 4)") in since(game, 0)


def street_game(tally, *titles):
    """ann after set-up, with these goods (and the Horseshoe) moved from her draw deck into her hand."""
    game = yard_game(tally)
    ann = game.state.player("ann")
    deck = ann.zones["draw-deck"].cards
    hand = []
    for title in titles + ("Horseshoe",):
        card = next(c for c in deck if c.title == title and c not in hand)
        game.move_card(card, ann.zones["hand"])
        hand.append(card)
    return game, ann, hand


def display(game, ann, card, position):
    game.attempt(Play("display", ann, (card, position)), "1.4")


def test_goods_are_displayed_at_the_ends_of_the_street_never_between(tally):
    game, ann, (rope, lantern, bell, horseshoe) = street_game(tally, "Rope", "Lantern", "Bell")
    street = ann.zones["street"]
    display(game, ann, rope, 0)
    display(game, ann, lantern, 1)           # the right end of a street of 1
    assert [c.title for c in street.cards] == ["Rope", "Lantern"]
    before = game.state.snapshot()
    with pytest.raises(Violation) as middle:
        display(game, ann, bell, 1)          # between the Rope and the Lantern
    assert middle.value.rule == "4.1"
    assert middle.value.message == ("A good is displayed at the left end or the right end of your street, "
                                    "never between two goods.")
    with pytest.raises(Violation) as charm:
        display(game, ann, horseshoe, 0)
    assert (charm.value.rule, charm.value.message) == ("4.1", "Only goods are displayed in a street.")
    assert game.state.snapshot() == before
    # positions 0, 1 and 2 are offered; only the two ends are legal
    assert sorted(p.args[1] for p in game.legal_plays(ann, ["display"]) if p.args[0] is bell) == [0, 2]
    display(game, ann, bell, 0)
    assert [c.title for c in street.cards] == ["Bell", "Rope", "Lantern"]
    assert ("4.1", "ann plays display(Bell, 0)") in since(game, 0)


def test_a_good_displayed_beside_one_of_its_title_makes_a_pair(tally):
    game, ann, (rope, lantern, rope2, lantern2, _) = street_game(tally, "Rope", "Lantern", "Rope", "Lantern")
    display(game, ann, rope, 0)
    display(game, ann, lantern, 1)           # Rope, Lantern: not a pair
    display(game, ann, rope2, 2)             # Rope, Lantern, Rope: the new Rope's neighbour is a Lantern
    display(game, ann, lantern2, 0)          # Lantern, Rope, Lantern, Rope: the new Lantern's is a Rope
    assert [c.title for c in ann.zones["street"].cards] == ["Lantern", "Rope", "Lantern", "Rope"]
    assert ann.fields["bonus"] == 0
    assert not any(r == "4.2" for r, _ in since(game, 0))

    game, ann, (rope, rope2, lantern, _) = street_game(tally, "Rope", "Rope", "Lantern")
    display(game, ann, rope, 0)
    mark = len(game.trace)
    display(game, ann, rope2, 0)             # Rope, Rope: a pair
    assert ann.fields["bonus"] == 1
    assert ("4.2", "ann's bonus: 0 -> 1") in since(game, mark)
    display(game, ann, lantern, 2)           # Rope, Rope, Lantern: no new pair
    assert ann.fields["bonus"] == 1


@pytest.mark.parametrize("seed", range(1, 21))
def test_whole_games_keep_to_the_yard_and_the_street(tally, seed):
    game = play(tally, seed)
    yard = game.boards["yard"]
    assert game.over and len(game.winners) == 1 and game.state.invariant_breaks() == []
    for p in game.state.players:
        w = p.zones["walker"].cards
        assert len(w) == 1 and w[0].attrs["space"] in yard and w[0].attrs["facing"] in ("north", "east", "south", "west")
        assert all(c.type == "good" for c in p.zones["street"].cards)
    assert fox(game).attrs["space"] in yard
    # every step a walker took crossed a line the rules allow, between neighbours
    for e in game.trace:
        if e.rule == "3.1" and e.kind == "set" and "Walker's space" in e.text:
            a, b = e.text.split(": ")[1].split(" -> ")
            assert yard.edge(a, b) in ("open", "door", "window", "hedge"), e
        if e.text.startswith("Fox's space"):
            assert e.view(PUBLIC)[0] == "Fox's space changes (hidden)", e


def test_twenty_games_exercise_every_rule_of_the_yard_and_the_street(tally):
    # twenty games in each format: rule 2.1 (the round limit) is reached in the timed and blitz formats
    exercised, texts = set(), []
    for seed, fmt in [(seed, fmt) for seed in range(1, 21) for fmt in tally.header.formats]:
        game = play(tally, seed, format=fmt)
        exercised |= game.rules_exercised()
        texts += [(e.rule, e.text) for e in game.trace]
    assert set(tally.rules) <= exercised
    assert any(r == "3.1" and t.endswith("walk(E1)") for r, t in texts)            # through the door
    assert any(r == "3.1" and t.startswith("1 from") for r, t in texts)            # a window or a hedge
    assert any(r == "3.2" and t.startswith("Fox's spotted: none ->") for r, t in texts)
    assert {t.split(" ")[0] for r, t in texts if r == "3.3"} == {"1", "2"}
    assert any(r == "4.2" for r, t in texts)


def test_a_value_that_reads_itself_without_end_is_an_error_naming_the_rule_not_a_recursion_error():
    gamedef = _game_from('''
game loop "Loop" { players 2 to 2 }
state { game counter n = 0 }
rule 1 "Count" {
  text "Count."
  value a(k) = if k < 0 then 0 else a(k + 1)
  set n = a(1)
}
flow { run 1 }
''')
    game = Game(gamedef, ["a", "b"], RandomAgent(0))
    with pytest.raises(RuntimeRuleError) as exc:
        game.run()
    d = exc.value.diagnostics[0]
    assert d.rule == "1" and "nest deeper than Python's stack allows" in d.message and d.span.line == 4


ZONE_CHECK = '''
game z "Zones" { players 2 to 2 }
state {
  player zone deck
  player zone hand
  player zone discard
  player counter turns = 0
}
card type token { size: number = 1 }
card "Pebble" token { size 1 }
rule 1 "Play" {
  text "Each player draws a card, then discards it and takes it back ten times, then draws his deck."
  for each p in players {
    create ["Pebble", "Pebble", "Pebble"] into p.deck
    move top(p.deck) to p.hand
  }
  begin game
  repeat {
    for each p in players {
      increase p.turns by 1
      move top(p.hand) to p.discard
      move top(p.discard) to p.hand
    }
  } until first(all-players).turns >= 10
  for each p in players { move top(p.deck) to p.hand }
  for each p in players { move top(p.deck) to p.hand }
  whenever size(p.deck) == 0 for p in players { eliminate p }
}
flow { run 1 }
'''


def _deck_check_looks(game, index: int) -> list:
    """The state versions at which the state check ``index`` of ``game``, which reads the deck by name,
    looks (a list filled as the game runs)."""
    looks = []
    bit, rule, poll = game._polls[index]
    bits = game.program.check_bits
    assert {n for n, b in bits.names.items() if b & bit} == {"deck", "zone:deck"} and not bits.any_zone & bit
    game._polls[index] = (bit, rule, lambda f: (looks.append(game.books.version), poll(f))[1])
    return looks


def test_a_state_check_reading_a_zone_by_name_looks_again_only_when_that_zone_changes():
    gamedef = assemble("z", [parse_rules(ZONE_CHECK, "z.ludex")])
    assert check(gamedef) == []
    game = Game(gamedef, ["ann", "bob"], RandomAgent(1))
    polls = _deck_check_looks(game, 0)
    game.run()
    # The 40 moves between hands and discard piles do not wake it; each card taken from a deck does,
    # and so does each elimination (who is in the game changed): one look after 'begin game', one
    # after each of the 4 cards drawn, one after each of the 2 eliminations.
    assert len(polls) == 7
    assert [e.text for e in game.trace if e.kind == "eliminate"] == ["ann is eliminated from the game",
                                                                     "bob is eliminated from the game"]
    assert sum(1 for e in game.trace if e.kind == "move") == 2 + 40 + 4


def test_a_state_check_reading_a_zone_by_name_looks_again_when_it_changes_though_another_reads_any_zone():
    # Another check may look at any zone's cards (a card's zone): every card moved wakes that one, yet
    # the deck check wakes only as cards leave the deck (Zone.checks), as it did alone.
    source = ZONE_CHECK.replace("  whenever size(p.deck) == 0", "  whenever size(p.discard) == 5 and "
                                "first(cards(p.hand)).zone == p.hand for p in players { log \"never\" }\n"
                                "  whenever size(p.deck) == 0")
    gamedef = assemble("z", [parse_rules(source, "z.ludex")])
    assert check(gamedef) == []
    game = Game(gamedef, ["ann", "bob"], RandomAgent(1))
    assert game.program.check_bits.any_zone == 1
    assert {(z.key, z.checks) for z in game.state.zone_list()} == {("zone:deck", 3), ("zone:hand", 1),
                                                                   ("zone:discard", 1)}
    polls = _deck_check_looks(game, 1)
    game.run()
    assert len(polls) == 7
    assert [e.text for e in game.trace if e.kind == "eliminate"] == ["ann is eliminated from the game",
                                                                     "bob is eliminated from the game"]


def test_a_zone_no_state_check_reads_wakes_none():
    game = Game(assemble("z", [parse_rules(ZONE_CHECK, "z.ludex")]), ["ann", "bob"], RandomAgent(1))
    game.run()
    assert [z.key for z in game.state.zone_list() if z.checks] == ["zone:deck", "zone:deck"]


REMEMBERED_SIZE = '''
game t "T" { players 2 to 2 }
state { player zone deck  player zone hand  game counter after = 0 }
card type token { size: number = 1 }
card "Pebble" token { size 1 }
value in-hand = size(first(players).hand)
rule 1 "Deal" {
  text "The first player takes a card from his deck, looks at his hand, and takes another."
  create ["Pebble", "Pebble"] into first(players).deck
  move top(first(players).deck) to first(players).hand
  if in-hand == 1 { log "one in hand" }
  move top(first(players).deck) to first(players).hand
  set after = in-hand
}
flow { run 1 }
'''


def test_a_value_remembered_before_a_move_is_worked_out_again_after_it():
    # The written move statement bumps the version once a card, in Game.move_card (its event adds no
    # bump of its own): a value remembered at the version before is forgotten after it. (The log and
    # the test between change nothing.)
    game = Game(_game_from(REMEMBERED_SIZE), ["ann", "bob"], RandomAgent(1))
    version = []
    original = game.move_card

    def move_card(card, zone, place="top"):
        before = game.books.version
        original(card, zone, place)
        version.append(game.books.version - before)
    game.move_card = move_card
    game.run()
    assert version == [1, 1] and game.state.fields["after"] == 2


def test_a_cards_own_title_cannot_be_changed_by_a_statement():
    source = '''
game t "T" { players 2 to 2 }
state { player zone hand }
card type token { worth: number = 1 }
card "Pebble" token { }
rule 1 "R" {
  text "Each player takes a Pebble, then renames it."
  for each p in players {
    create ["Pebble"] into p.hand
    for each c in cards(p.hand) { set c.title = "Stone" }
  }
}
flow { run 1 }
'''
    gamedef = assemble("t", [parse_rules(source, "t.ludex")])
    # the checks see it (S072: a zone's cards are cards) ...
    assert [(d.code, d.span.line, d.span.column) for d in check(gamedef)] == [("S072", 10, 39)]
    # ... and the engine refuses it all the same where the checks cannot know a value is a card
    with pytest.raises(RuntimeRuleError) as exc:
        Game(gamedef, ["ann", "bob"], RandomAgent(1)).run()
    d = exc.value.diagnostics[0]
    assert d.message == "Pebble's title is its own and cannot be changed" and d.rule == "1"
    assert (d.span.line, d.span.column) == (10, 39)


MOVE = 'rule 2 "Move" { text "Move it." move top(pile) to other }'
MOVE_A_CARD = LOSE_A_CARD.replace("flow { run 1 }", MOVE + "\nflow { run 1 run 2 }")


@pytest.mark.parametrize("broken, words", [
    (lambda card, zone, before: zone.cards.append(card), "Stone is in two places: other and other"),
    (lambda card, zone, before: setattr(card, "zone", None), "Stone is in other but records None"),
    # the card is in the zone it records, once; the count of cards placed is one too many
    (lambda card, zone, before: before.cards.append(card), "Stone is in two places: pile and other"),
    # as many cards are placed as exist, but the card is back where it was, recording the zone it was
    # moved to, which is empty: the narrowed look's search finds no card there at all
    (lambda card, zone, before: (zone.cards.remove(card), before.cards.append(card)),
     "Stone is in pile but records other"),
], ids=["placed twice", "not recording its zone", "left where it was too", "recording a zone left empty"])
def test_a_move_that_breaks_the_cards_bookkeeping_is_caught_after_its_step(broken, words):
    gamedef = _game_from(MOVE_A_CARD)
    game = Game(gamedef, ["a", "b"], RandomAgent(0))
    original = game.move_card

    def careless(card, zone, place="top"):
        before = card.zone
        original(card, zone, place)
        broken(card, zone, before)
    game.move_card = careless
    with pytest.raises(RuntimeRuleError) as exc:
        game.run()
    d = exc.value.diagnostics[0]
    assert d.rule == "2" and words in d.message, d.message


def test_the_invariants_look_after_a_rule_only_once_it_moved_a_card_or_wrote_a_bound():
    # Rule 2 changes the state (a counter with no bounds) but moves no card and writes no bound: the
    # invariants would find what they found after rule 1, and are not looked at. Rules 1 and 3 move.
    source = MOVE_A_CARD.replace("game zone other }", "game zone other  game counter n = 0 }").replace(
        "flow { run 1 run 2 }", 'rule 3 "Count" { text "Count." increase n by 1 }\nflow { run 1 run 3 run 2 }')
    game = Game(_game_from(source), ["a", "b"], RandomAgent(0))
    looked = []
    original = game.look

    def look(rule_id, span):
        looked.append(rule_id)
        original(rule_id, span)
    game.look = look
    game.run()
    assert looked == ["1", "2"] and game.state.fields["n"] == 1 and game.state.invariant_breaks() == []


# ------------------------------------------------------------------ the fast paths mean what the plain ones do


ONE_PLAY_WINDOW = '''
game t "T" { players 2 to 2 }
state { player counter gold = 0 }
rule 1 "Window" {
  text "Players act in a window of one play."
  window "w" starting with first(players) { any number of go }
  action go "go" by p { BODY }
}
flow { run 1 }
'''


def test_a_window_closes_when_its_plays_eliminate_players_in_a_game_without_state_checks():
    gamedef = _game_from(ONE_PLAY_WINDOW.replace("BODY", "eliminate p"))
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0], step_budget=1000)
    game.run()
    assert [e.text for e in game.trace if e.kind in ("play", "pass", "window")] == [
        "w opens; ann acts first", "ann plays go", "bob plays go",
        "w closes: no player is left in the game to act"]      # (no one passed)


def test_a_plays_let_may_read_the_name_it_sets():
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state {
  player zone hand
  game counter limit = 1
  game zone pile
}
card type token { cost: number = 1 }
card "A" token { cost 1 }
card "B" token { cost 2 }
rule 1 "Deal" { text "Each player gets A and B." for each p in players { create ["A", "B"] into p.hand } }
rule 2 "Spend" {
  text "A card may be spent when the limit and its cost exceed 2."
  window "w" starting with first(players) { any number of spend }
  action spend "spend" by p (c: card from p.hand) {
    let limit = limit + c.cost
    require limit > 2 cite 2 "Too cheap."
    move c to pile
  }
}
flow { run 1 run 2 }
''')
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    ann = game.state.players[0]
    game.run_rule("1")
    assert [play.args[0].title for play in game.actions["spend"].legal(game, ann)] == ["B"]
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    game.run()
    assert [c.title for c in game.state.zones["pile"].cards] == ["B", "B"]



def test_a_legal_search_reads_the_players_counters_as_they_are_at_each_search():
    """``p.gold`` and ``limit`` read no choice: a legal search works them out once, before looking at the
    cards, and again at each search; a modifier in force is applied to them."""
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state {
  player zone hand
  player counter gold = 2
  game counter limit = 3
  game zone pile
}
card type token { cost: number = 1 }
card "A" token { cost 1 }
card "B" token { cost 2 }
card "C" token { cost 3 }
rule 1 "Deal" { text "Each player gets A, B and C." for each p in players { create ["A", "B", "C"] into p.hand } }
rule 2 "Buy" {
  text "A card costing no more than your gold, and less than the limit, may be bought."
  window "w" starting with first(players) { any number of buy }
  action buy "buy" by p (c: card from p.hand) {
    require c.cost <= p.gold and c.cost < limit cite 2 "Too dear."
    move c to pile
  }
}
rule 3 "Boom" { text "Gold is worth 1 more this round." for each p in players { modify p.gold by 1 until end of round } }
flow { run 1 run 3 run 2 end round }
''')
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    ann, bob = game.state.players
    game.run_rule("1")

    def legal(player):
        return [play.args[0].title for play in game.actions["buy"].legal(game, player)]

    assert legal(ann) == ["A", "B"]
    ann.fields["gold"] = 1
    assert legal(ann) == ["A"] and legal(bob) == ["A", "B"]
    game.run_rule("3")                    # gold + 1 while the modifier is in force
    assert legal(ann) == ["A", "B"] and legal(bob) == ["A", "B"]
    game.state.fields["limit"] = 4
    assert legal(bob) == ["A", "B", "C"]


def test_events_made_while_a_play_or_an_ability_is_carried_out_name_its_player():
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state {
  player zone hand
  player counter gold = 0
  game zone pile
}
card type token { }
card "Coin" token {
  ability "Mint" "played" { set this.owner.gold = this.owner.gold + 5  log "Minted." }
}
rule 1 "Deal" { text "Each player gets a Coin." for each p in players { create ["Coin"] into p.hand } }
rule 2 "Spend" {
  text "A player may spend a card."
  window "w" starting with first(players) { any number of spend }
  action spend "spend" by p (c: card from p.hand) {
    move c to pile
    set p.gold = p.gold + 1
    initiate "played" abilities of [c]
    run 3
  }
}
rule 3 "Tally" { text "The spender notes it." log "Noted." }
flow { run 1 run 2 }
''')
    # the first option: ann spends her Coin, bob his, then each has only the pass
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    game.run()
    acted = [(e.kind, e.text, e.player) for e in game.trace if e.kind not in ("event", "window")]
    assert acted == [
        ("create", "1 card into ann.hand", ""), ("create", "1 card into bob.hand", ""),
        ("play", "ann plays spend(Coin)", "ann"),
        ("move", "Coin moves from ann.hand to pile", "ann"),
        ("set", "ann's gold: 0 -> 1", "ann"),
        ("ability", "ann's Coin: Mint (played) initiates", "ann"),
        ("set", "ann's gold: 1 -> 6", "ann"),
        ("log", "Minted.", "ann"),
        ("log", "Noted.", "ann"),              # rule 3, run by the play
        ("play", "bob plays spend(Coin)", "bob"),
        ("move", "Coin moves from bob.hand to pile", "bob"),
        ("set", "bob's gold: 0 -> 1", "bob"),
        ("ability", "bob's Coin: Mint (played) initiates", "bob"),
        ("set", "bob's gold: 1 -> 6", "bob"),
        ("log", "Minted.", "bob"),
        ("log", "Noted.", "bob"),
        ("pass", "ann passes", "ann"), ("pass", "bob passes", "bob")]


def test_a_legal_search_reads_a_counter_only_where_the_rules_read_it():
    """``limit`` reads no choice, so a legal search keeps what it found; but it is read only where the
    requirement reaches it. Here it never is (every card is cheap), and reading it would fail: two
    modifiers make it none + 1."""
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state {
  player zone hand
  game counter limit = 0
  game zone pile
}
card type token { cost: number = 1 }
card "Coin" token { }
rule 1 "Deal" { text "Each player gets a Coin." for each p in players { create ["Coin"] into p.hand } }
rule 2 "Spend" {
  text "A cheap card, or any card under a limit, may be spent."
  window "w" starting with first(players) { any number of spend }
  action spend "spend" by p (c: card from p.hand) {
    require c.cost < 5 or limit > 0 cite 2 "Too dear."
    move c to pile
  }
}
rule 3 "Boom" { text "No limit." modify limit to none until end of round  modify limit by 1 until end of round }
flow { run 1 run 3 run 2 end round }
''')
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    game.run()
    assert [c.title for c in game.state.zones["pile"].cards] == ["Coin", "Coin"]
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    game.run_rule("1")
    game.run_rule("3")
    ann = game.state.players[0]
    ann.zones["hand"].cards[0].attrs["cost"] = 9         # now the requirement reads limit, and fails
    with pytest.raises(RuntimeRuleError, match="none"):
        game.run_rule("2")


def test_a_modifier_and_its_expiry_say_what_it_modifies_and_an_ownerless_cards_ability_names_who_acts():
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state {
  player zone hand
  game zone pile
  game counter pot = 0
  player counter gold = 0
}
card type token { power: number = 1 }
card "Coin" token { }
card "Bell" token { ability "Ring" "rung" { increase pot by 1 } }
rule 1 "Deal" {
  text "Each player gets a Coin; a Bell is in the pile."
  for each p in players { create ["Coin"] into p.hand }
  create ["Bell"] into pile
}
rule 2 "Spend" {
  text "Spending a card makes it stronger this round and rings the Bell."
  window "w" starting with first(players) { any number of spend }
  action spend "spend" by p (c: card from p.hand) {
    modify c.power by 1 until end of round
    modify p.gold by 2 until end of round
    initiate "rung" abilities of cards(pile)
    move c to pile
  }
}
rule 3 "End" { text "The round ends." end round }
flow { run 1 begin round run 2 run 3 }
''')
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    game.run()
    events = [(e.kind, e.text, e.player) for e in game.trace if e.kind in ("modifier", "expire", "ability")]
    assert events[:3] == [
        ("modifier", "modifier: Coin's power by 1 until the end of the round", "ann"),
        ("modifier", "modifier: ann's gold by 2 until the end of the round", "ann"),
        ("ability", "Bell: Ring (rung) initiates", "ann")]
    assert ("expire", "modifier expires: Coin's power by 1 (made by rule 2)", "") in events
    assert ("expire", "modifier expires: bob's gold by 2 (made by rule 2)", "") in events


def test_an_ability_without_a_kind_is_initiated_by_its_name_and_traced_without_one():
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state { game zone pile  game counter pot = 0 }
card type token { }
card "Bell" token { ability "Ring" { increase pot by 1 } }
rule 1 "Ring" {
  text "The Bell in the pile rings."
  create ["Bell"] into pile
  initiate "ring" abilities of cards(pile)
}
flow { run 1 }
''')
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    game.run()
    assert [e.text for e in game.trace if e.kind == "ability"] == ["Bell: Ring initiates"]
    assert game.state.fields["pot"] == 1


def test_a_plays_choices_from_one_card_are_that_card_and_from_none_are_none():
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state {
  player zone hand ordered
  game zone pile
}
card type token { }
card "Coin" token { }
card "Bead" token { }
rule 1 "Deal" { text "Ann gets a Coin and a Bead." create ["Coin", "Bead"] into first(players).hand }
rule 2 "Spend" {
  text "A player may spend the top card of his hand."
  window "w" starting with first(players) { any number of spend }
  action spend "spend" by p (c: card from top(p.hand)) {
    move c to pile
  }
}
flow { run 1 run 2 }
''')
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    game.run_rule("1")
    ann, bob = game.state.players
    coin, bead = ann.zones["hand"].cards
    spend = game.actions["spend"]
    assert [play.args for play in spend.legal(game, ann)] == spend.candidates(game, ann) == [(coin,)]
    assert spend.legal(game, bob) == [] and spend.candidates(game, bob) == []      # top of no cards: none
    with pytest.raises(Violation, match="Bead is not one of the choices for spend's c"):
        game.attempt(Play("spend", ann, (bead,)), "2")
    game.run_rule("2")
    assert [c.title for c in game.state.zones["pile"].cards] == ["Bead", "Coin"]


LETS = '''
game t "T" { players 2 to 2 }
state {
  player zone hand
  game counter bonus = 0
  game counter b = 0
  game counter limit = 0
  game zone pile
}
card type token { cost: number = 1 }
card "A" token { cost 3 }
rule 1 "Deal" { text "Each player gets an A." for each p in players { create ["A"] into p.hand } }
rule 2 "Buy" {
  text "A card may be bought on these terms."
  window "w" starting with first(players) { any number of buy }
  action buy "buy" by p (c: card from p.hand) {
    BODY
    move c to pile
  }
}
flow { run 1 run 2 }
'''


@pytest.mark.parametrize("body, refused", [
    # a requirement above a let reads the game's counter the let's name shadows (0); the one below, the let
    ("require limit > 0 cite 2 \"There is no limit.\"\n let limit = limit + c.cost\n"
     " require limit > 2 cite 2 \"Too cheap.\"", "There is no limit."),
    ("require limit == 0 cite 2 \"There is a limit.\"\n let limit = limit + c.cost\n"
     " require limit > 2 cite 2 \"Too cheap.\"", None),
    # price reads the game's bonus (0): 3, not 8; the requirement on bonus reads the let above it
    ("let price = bonus + c.cost\n let bonus = 5\n require bonus > 0 cite 2 \"bonus\"\n"
     " require price > 6 cite 2 \"min price 7\"", "min price 7"),
    ("let a = b + 1\n let b = 5\n require b == 5 cite 2 \"first\"\n require a == 1 cite 2 \"second\"", None),
    ("let x = 1\n let z = x\n let x = 2\n require x == 2 cite 2 \"first\"\n require z == 1 cite 2 \"second\"\n"
     " require x == 2 cite 2 \"third\"", None),
])
def test_lets_put_off_for_legality_read_what_they_read_in_the_rules_order(body, refused):
    gamedef = _game_from(LETS.replace("BODY", body))
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0])
    game.run_rule("1")
    ann = game.state.players[0]
    a = ann.zones["hand"].cards[0]
    buy = game.actions["buy"]
    refusal = buy.refusal(game, ann, (a,))
    assert (refusal and refusal.message) == refused
    assert [play.args for play in buy.legal(game, ann)] == ([] if refused else [(a,)])


FIRST_OF = '''
game t "T" { players 2 to 2 }
state { player zone hand  player counter gold = 0 }
card type token { cost: number = 1 }
card "A" token { cost 1 }
card "Z" token { cost 0 }
rule 1 "Deal" { text "Each player gets A and Z." for each p in players { create ["A", "Z"] into p.hand } }
rule 2 "Pick" {
  text "Each player picks."
  for each p in players { let b = first(those c in p.hand: CONDITION)  increase p.gold by b.cost }
}
rule 3 "Goodness" { text "What is good." value good(c) = c.cost > 0 }
flow { run 1 run 2 }
'''


def test_first_of_those_looks_at_every_item_when_a_later_one_could_fail_or_exercise_a_rule():
    failing = _game_from(FIRST_OF.replace("CONDITION", "c.cost >= 1 or 10 / c.cost > 1"))
    with pytest.raises(RuntimeRuleError) as exc:
        Game(failing, ["ann", "bob"], RandomAgent(1)).run()
    assert "division by zero" in exc.value.diagnostics[0].message
    citing = _game_from(FIRST_OF.replace("CONDITION", "c.cost == 1 or good(c)"))
    game = Game(citing, ["ann", "bob"], RandomAgent(1))
    game.run()
    assert "3" in game.rules_exercised()            # good(Z) was worked out, as rule 3 says


def test_a_scenario_player_named_like_a_game_zone_is_the_player():
    from ludex.scenarios.runner import run_scenario
    from ludex.parse.syntax import parse_scenarios
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state { game zone market  player zone hand }
card type token { price: number = 1 }
card "Rope" token { }
rule 1 "Stock" { text "The market gets a Rope." create ["Rope"] into market }
flow { run 1 }
''')
    file = parse_scenarios('''
scenario "a player named market" {
  question "Is market the player?"
  answer "Yes."
  cite 1
  players market, bob
  setup { run 1 }
  expect size(market.hand) == 0
}
scenario "the player market has no price" {
  question "Is market the player?"
  answer "Yes: a player has no price."
  cite 1
  players market, bob
  setup { run 1 }
  expect every c in market: c.price > 0
}
''', "named.scenario")
    passing, failing = (run_scenario(gamedef, s) for s in file.scenarios)
    assert passing.status == "passed", (passing.failures, passing.diagnostics)
    assert failing.status == "error"
    assert failing.diagnostics[0].message == "market has no 'price'"


def test_a_cards_default_is_worked_out_even_when_the_card_gives_its_own():
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state { player zone hand  game counter zero = 0 }
card type token { cost: number = 10 / zero }
card "A" token { cost 1 }
rule 1 "Deal" { text "Each player gets A." for each p in players { create ["A"] into p.hand } }
flow { run 1 }
''')
    with pytest.raises(RuntimeRuleError) as exc:
        Game(gamedef, ["ann", "bob"], RandomAgent(1)).run()
    (found,) = exc.value.diagnostics
    assert found.message == "division by zero: the divisor is 0"
    assert (found.span.line, found.span.column) == (4, 39)     # the caret under `zero`, not `10 / zero`


def test_a_division_by_zero_in_a_scenario_expectation_points_at_the_divisor():
    from ludex.scenarios.runner import run_scenario
    from ludex.parse.syntax import parse_scenarios
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state { game counter n = 0 }
rule 1 "Count" { text "Count one." increase n by 1 }
flow { run 1 }
''')
    # Nested deeper than the generated code goes in one function, some of the sums are written as functions
    # of their own (expressions.py: ``apart``); one of these depths (39) puts the division itself at the cut.
    for depth in [0] + list(range(34, 46)):
        file = parse_scenarios(f'''
scenario "divide by nothing" {{
  players ann, bob
  run 1
  expect n == {"0 + (" * depth}4 / (n - 1){")" * depth}
}}
''', "zero.scenario")
        (result,) = (run_scenario(gamedef, s) for s in file.scenarios)
        assert result.status == "error", depth
        (found,) = result.diagnostics
        assert found.message == "division by zero: the divisor is 0", depth
        start = 20 + 5 * depth                                                  # `n - 1`
        assert (found.span.line, found.span.column, found.span.end_column) == (5, start, start + 5), depth


def test_a_window_over_the_step_budget_counts_its_steps_once():
    gamedef = _game_from(ONE_PLAY_WINDOW.replace("BODY", 'require p.gold >= 0 cite 1 "Never refused."'))
    game = Game(gamedef, ["ann", "bob"], lambda game, decision: decision.options[0], step_budget=100)
    with pytest.raises(RuntimeRuleError) as exc:
        game.run()
    assert "ran 100 steps without ending" in exc.value.diagnostics[0].message
    assert game.steps == 101


def test_the_simulators_check_at_a_decision_finds_a_break_made_since_the_last_look():
    from ludex.compliance.watch import InvariantBroken, Watch
    gamedef = _game_from(MOVE_A_CARD.replace(MOVE, 'rule 2 "Move" { text "Move it, then say." move top(pile) to '
                                                   'other first(players) may "Go on?" { log "on" } }'))
    watch_box = []

    def agent(game, decision):
        watch_box[0].check(decision.rule)
        return decision.options[0]
    game = Game(gamedef, ["a", "b"], agent)        # the engine looks after each rule; this, mid-rule
    watch_box.append(Watch(game, invariants=True))
    original = game.move_card

    def careless(card, zone, place="top"):
        original(card, zone, place)
        zone.cards.append(card)             # placed twice, in a zone the engine notes as changed
    game.move_card = careless
    with pytest.raises(InvariantBroken) as exc:
        game.run()
    assert "Stone is in two places: other and other" in exc.value.diagnostics[0].message


TITLED = '''
game t "T" { players 2 to 2 }
state { player zone hand  player zone table in-play  player counter copies = 0  game counter zero = 0 }
card type token { cost: number = 1 }
card "A" token { cost 1 }
card "B" token { cost 2 }
rule 1 "Deal" {
  text "Each player gets A and B in hand, and B, A, B on the table."
  for each p in players { create ["A", "B"] into p.hand  create ["B", "A", "B"] into p.table }
}
rule 2 "Count" {
  text "Each player counts his copies in play of each card in hand."
  for each p in players {
    for each c in cards(p.hand) { increase p.copies by size(copies-of(p, c)) }
  }
}
rule 3 "Copies" { text "What is a copy." value copies-of(p, c) = those d in cards-in-play: TEST }
flow { run 1 run 2 }
'''


@pytest.mark.parametrize("test, copies", [
    ("d.title == c.title and d.owner == p", 3),         # A: 1, B: 2
    ("c.title == d.title and d.owner == p", 3),
    ("d.title == c.title", 6),                          # either player's
    ("d.title == c.title and d.cost > 1", 4),           # the Bs
    # kinds the static checks cannot see (the first item of a list), which they refuse when written plainly
    ("d.title == first([c.cost])", 0),                  # a title is never a number
    ("d.title == first([[c.title]]) and d.owner == p", 0),   # nor a list
])
def test_a_quantifier_over_the_cards_in_play_asking_for_a_title_finds_the_cards_of_that_title(test, copies):
    gamedef = _game_from(TITLED.replace("TEST", test))
    game = Game(gamedef, ["ann", "bob"], RandomAgent(1))
    game.run()
    assert [p.fields["copies"] for p in game.state.players] == [copies, copies]


def test_a_title_asked_for_is_not_worked_out_when_no_card_is_in_play():
    # The test reads c.title / zero only for a card in play: with none in play, it never fails.
    source = TITLED.replace("TEST", "d.title == first([10 / zero]) and d.owner == p").replace(
        'create ["B", "A", "B"] into p.table', "")
    game = Game(_game_from(source), ["ann", "bob"], RandomAgent(1))
    game.run()
    assert [p.fields["copies"] for p in game.state.players] == [0, 0]
    with pytest.raises(RuntimeRuleError) as exc:
        Game(_game_from(TITLED.replace("TEST", "d.title == first([10 / zero])")), ["ann", "bob"], RandomAgent(1)).run()
    assert "division by zero" in exc.value.diagnostics[0].message



MOVES = '''
game t "T" { players 2 to 2 }
state { player zone hand  player zone table in-play  player zone shelf in-play  game zone pile in-play }
card type token { }
card "A" token { }
card "B" token { }
card "C" token { }
rule 1 "Deal" {
  text "Each player gets two of each card in hand."
  for each p in players { create ["A", "B", "C", "A", "B", "C"] into p.hand }
}
flow { run 1 }
'''


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 6), st.sampled_from(["top", "bottom"])), max_size=40))
def test_the_cards_in_play_by_title_follow_every_move_in_the_order_of_the_cards_in_play(moves):
    # Kept up to date move by move (Game.move_card): the same index as one made afresh from the cards in play.
    game = Game(_game_from(MOVES), ["ann", "bob"], RandomAgent(1))
    game.run()
    state = game.state
    zones = [z for p in state.players for z in p.zones.values()] + list(state.zones.values())
    game.in_play_by_title()
    for card, to, place in moves:
        zone = zones[to]
        if card == 11 and to == 6:        # a zone in play reordered: the index is made again
            zone.cards.reverse()
            game.zone_reordered(zone)
        else:
            game.move_card(state.cards[card], zone, place)
        fresh = {}
        for c in game.cards_in_play():
            fresh.setdefault(c.title, []).append(c)
        assert game.in_play_by_title() == fresh
        assert all(list(game.cards_in_play_titled(t)) == fresh.get(t, []) for t in "ABC")


STRAY = '''
game t "T" { players 2 to 2 }
state { game counter n = 0 }
rule 1 "Steps" { }
rule 1.1 "First" { text "Count." increase n by 1 }
rule 1.2 "Second" { text "Count again." increase n by 1 }
rule 2 "Listen" { text "When the round begins." when begin round { JUMP } }
rule 3 "Watch" { text "When n reaches 9." whenever n == 9 { JUMP } }
flow { begin game  FLOW  begin round  run 1  end game }
'''


@pytest.mark.parametrize("where, flow, set_n, line", [
    ("the flow", "return to 1.1", 0, 9),
    ("a trigger", "", 0, 7),
    ("a state check", "", 9, 8),
])
@pytest.mark.parametrize("jump", ["return to 1.1", "proceed to 1.2", "skip this step"])
def test_a_jump_no_sequence_of_steps_takes_is_an_error_at_the_statement(where, flow, set_n, line, jump):
    if where == "the flow" and jump != "return to 1.1":
        flow = jump
    source = STRAY.replace("FLOW", flow + (f"  set n = {set_n}" if set_n else "")).replace("JUMP", jump)
    gamedef = assemble("t", [parse_rules(source, "t.ludex")])       # (the static checks refuse it too)
    with pytest.raises(RuntimeRuleError) as exc:
        Game(gamedef, ["ann", "bob"], RandomAgent(1)).run()
    d = exc.value.diagnostics[0]
    assert (d.span.line, d.span.column) == (line, source.splitlines()[line - 1].index(jump if where != "the flow"
                                                                                       else flow) + 1)
    place = "the flow" if where == "the flow" else "rule "
    if jump == "skip this step":
        assert d.message.startswith(f"'skip this step' in {place}") and "no step of the procedure" in d.message
    else:
        target = jump.split()[-1]
        assert d.message.startswith(f"'{jump}' in {place}") and f"step {target} is not a step of a sequence" in d.message


IN_A_STEP = '''
game t "T" { players 2 to 2 }
state { game counter n = 0 }
rule 1 "Steps" { }
rule 1.1 "First" { text "Count." increase n by 1 }
rule 1.2 "Second" { text "Count again." EVENT  increase n by 1 }
rule 2 "Listen" { text "When it happens." when HEARD { JUMP } }
flow { begin game  run 1  end game }
'''


@pytest.mark.parametrize("event, heard", [
    ("begin phase count", "begin phase count"),
    ("end phase count", "end phase count"),
    ("emit ping", "ping"),
])
@pytest.mark.parametrize("jump", ["return to 1.1", "proceed to 1.2", "skip this step"])
def test_a_jump_in_a_trigger_of_an_event_inside_a_step_is_an_error_not_a_jump_of_the_steps(event, heard, jump):
    # (the step's sequence would take 'return to 1.1' and 'proceed to 1.2', and its rule 'skip this step')
    source = IN_A_STEP.replace("EVENT", event).replace("HEARD", heard).replace("JUMP", jump)
    gamedef = assemble("t", [parse_rules(source, "t.ludex")])       # (the static checks refuse it too)
    with pytest.raises(RuntimeRuleError) as exc:
        Game(gamedef, ["ann", "bob"], RandomAgent(1)).run()
    d = exc.value.diagnostics[0]
    assert (d.span.line, d.span.column) == (7, source.splitlines()[6].index(jump) + 1)
    if jump == "skip this step":
        assert d.message.startswith("'skip this step' in rule 2") and "no step of the procedure" in d.message
    else:
        target = jump.split()[-1]
        assert d.message.startswith(f"'{jump}' in rule 2") and f"step {target} is not a step of a sequence" in d.message


@pytest.mark.parametrize("statement, words", [
    ("draw n - 5 from p.deck to p.hand", "cannot draw a negative number of cards (-5)"),
    ("roll n - 2 coin dice as faces", "cannot roll a negative number of dice (-2)"),
    ("roll n + 1001 coin dice as faces", "cannot roll 1001 dice: a roll has at most 1000"),
])
def test_a_count_of_cards_or_dice_that_cannot_be_is_an_error_not_none_or_a_hang(statement, words):
    source = f'''
game t "T" {{ players 2 to 2 }}
state {{ game counter n = 0  player zone deck  player zone hand }}
dice coin {{ faces heads, tails }}
card type token {{ }}
card "A" token {{ }}
rule 1 "Deal" {{
  text "Each player draws."
  for each p in players {{ create ["A"] into p.deck  {statement} }}
}}
flow {{ run 1 }}
'''
    with pytest.raises(RuntimeRuleError) as exc:
        Game(_game_from(source), ["ann", "bob"], RandomAgent(1)).run()
    d = exc.value.diagnostics[0]
    assert d.message == words and d.rule == "1"
    assert (d.span.line, d.span.column) == (9, source.splitlines()[8].index(statement) + 1)


def test_rules_compiled_without_the_static_checks_still_name_an_unknown_value_at_its_call():
    from ludex.diagnostics import SourceError
    source = LOOP.replace("increase n by 1 decrease n by 1", "increase n by nosuch(1)")
    gamedef = assemble("loop", [parse_rules(source, "loop.ludex")])     # (check() would refuse it: S065)
    with pytest.raises(SourceError) as exc:
        Game(gamedef, ["a", "b"], RandomAgent(0)).run()
    [d] = exc.value.diagnostics
    assert (d.code, d.message, d.span.line) == ("S065", "unknown built-in or value 'nosuch'", 6)


@pytest.mark.parametrize("statement, words", [
    ("reveal first([5])", "only a card is revealed, not the number 5"),
    ("conceal first(players)", "only a card is turned face down, not the player ann"),
    ('initiate "action" abilities of first([players])', "only a card's abilities initiate, not the player ann's"),
])
def test_a_value_that_is_not_a_card_where_a_card_is_needed_is_an_error_in_words(statement, words):
    source = f'''
game t "T" {{ players 2 to 2 }}
state {{ game counter n = 0 }}
rule 1 "Show" {{ text "Show it." {statement} }}
flow {{ run 1 }}
'''
    gamedef = assemble("t", [parse_rules(source, "t.ludex")])
    with pytest.raises(RuntimeRuleError) as exc:
        Game(gamedef, ["ann", "bob"], RandomAgent(1)).run()
    d = exc.value.diagnostics[0]
    assert d.message == words and d.rule == "1" and d.span.line == 4


def test_a_number_or_text_asked_whether_it_is_none_is_answered_without_a_python_warning():
    import warnings
    source = LOOP.replace("repeat { increase n by 1 decrease n by 1 }",
                          'if 1 is none or "x" is none or not (2 is not none) { increase n by 1 }')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game = Game(_game_from(source), ["a", "b"], RandomAgent(0))
        game.run()
    assert game.state.fields["n"] == 0



def test_every_card_in_play_is_tested_by_every_even_when_it_asks_for_a_title_first():
    # (the title index serves 'those', 'any' and 'count'; 'every' must see the cards of other titles)
    source = TITLED.replace("TEST", "d.title == c.title").replace(
        "for each c in cards(p.hand) { increase p.copies by size(copies-of(p, c)) }",
        'if every d in cards-in-play: d.title == "A" { increase p.copies by 1 } '
        'if every d in cards-in-play: d.title == "A" or d.title == "B" { increase p.copies by 10 }')
    game = Game(_game_from(source), ["ann", "bob"], RandomAgent(1))
    game.run()
    assert [p.fields["copies"] for p in game.state.players] == [10, 10]


def test_lists_of_one_and_none_are_read_as_the_language_guide_says():
    # a single card or player is a list of one; nobody is none; top of a list is its first item
    gamedef = _game_from('''
game t "T" { players 2 to 2 }
state { player zone hand  role first-player  game counter n = 0 }
card type token { power: number = 1  holder: player = none }
card "A" token { }
rule 1 "Deal" {
  text "Each player gets A; the checks below all hold."
  set first-player = first(players)
  for each p in players { create ["A"] into p.hand }
  let c = top(first-player.hand)
  if size(join(players, first-player)) == 3 and size(reverse(first-player)) == 1 and titles(c) == ["A"] {
    increase n by 1
  }
  if top(players) == first-player and size(those x in c: x.power > 0) == 1 and c.holder == nobody {
    increase n by 1
  }
}
flow { run 1 }
''')
    game = Game(gamedef, ["ann", "bob"], RandomAgent(1))
    game.run()
    assert game.state.fields["n"] == 2


@pytest.mark.parametrize("key", ["agot", "nightmare", "huntik"])
def test_a_random_agent_asked_from_the_options_answers_as_asked_with_decisions(key):
    # The rules ask a RandomAgent for its answer from the options alone (``answer_from``), making no
    # Decision; an agent wrapping it, which has no ``answer_from``, is asked each Decision instead: the
    # same draws, so the same game, event for event, and the same decisions asked of it.
    from ludex.load import load_game
    gamedef = load_game(key).game
    players = [f"p{i + 1}" for i in range(gamedef.header.min_players)]
    for seed in (1, 2):
        fast = Game(gamedef, players, RandomAgent(seed), seed=seed)
        fast.run()
        asked = []
        random = RandomAgent(seed)

        def agent(game, decision):
            asked.append(decision.kind)
            return random(game, decision)
        slow = Game(gamedef, players, agent, seed=seed)
        slow.run()
        assert [(e.rule, e.kind, e.text, e.player, e.data) for e in fast.trace] == \
            [(e.rule, e.kind, e.text, e.player, e.data) for e in slow.trace]
        assert "play" in asked and [p.name for p in fast.winners] == [p.name for p in slow.winners]


def test_a_random_agent_draws_as_random_choice_does():
    import random
    for seed in range(5):
        agent, rng = RandomAgent(seed), random.Random(seed * 7919 + 17)
        for n in [1, 2, 3, 5, 8, 17, 100, 1000] * 5:
            options = list(range(n))
            assert agent.answer_from(options) == rng.choice(options)
    with pytest.raises(IndexError):
        RandomAgent(1).answer_from([])


@pytest.mark.parametrize("key", ["agot", "halloween", "huntik", "nightmare"])
def test_a_game_let_go_is_freed_at_once_leaving_only_its_states_cycles(key):
    # Nothing a game makes as it runs (frames, plays, its trace) refers back to the game, so that a
    # game let go is freed by reference counting at once, not left for Python's cyclic collector to
    # find (which walked every event of every finished game: a tenth of the time of many games).
    # Only the state's own links remain to collect: a card and its zone, a zone and its owner.
    import gc
    import weakref
    from ludex.load import load_game
    gamedef = load_game(key).game
    players = [f"p{i + 1}" for i in range(gamedef.header.max_players or 4)][:4]
    Program.of(gamedef)         # (compiled first: the rules' closures may refer to one another)
    gc.collect()
    gc.disable()
    try:
        game = Game(gamedef, players, RandomAgent(3), seed=3)
        game.run()
        freed = []
        weakref.finalize(game, freed.append, True)
        del game
        assert freed == [True]
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left <= {"Card", "Zone", "Player", "list", "dict"}


@pytest.mark.parametrize("key", ["agot", "halloween", "huntik", "nightmare"])
def test_every_name_a_game_keeps_is_one_of_its_slots(key):
    # A name kept outside ``Game.__slots__`` would land in the instance dict, whose reads are slower.
    from ludex.load import load_game
    gamedef = load_game(key).game
    players = [f"p{i + 1}" for i in range(gamedef.header.min_players)]
    game = Game(gamedef, players, RandomAgent(2), seed=2)
    game.run()
    assert game.trace and vars(game) == {}
