"""The engine's semantics where a rule could go wrong without a whole game noticing: small games, each
built to break one construct of issue #3 (modifiers read wherever a value is read, durations, state
checks, simultaneous actions, windows and turns, gotos inside loops, eliminations mid-turn, wins and
draws, guards), with assertions that fail when the construct is broken.

Each test's game is written here; ``play`` runs it with an agent answering from a list, in order."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import ludex as run_ludex

from ludex.engine.agents import RandomAgent, ScriptedAgent, Unscripted
from ludex.check.checks import check
from ludex.diagnostics import RuntimeRuleError
from ludex.engine.game import NESTING_LIMIT, Frame, Game, Play, Violation
from ludex.engine.trace import JUDGE, PUBLIC
from ludex.parse.definition import assemble
from ludex.parse.syntax import parse_rules

ROOT = Path(__file__).parent.parent
TALLY = Path(__file__).parent / "games" / "tally.ludex"


def rules(text: str):
    gamedef = assemble("t", [parse_rules(text, "t.ludex")])
    assert check(gamedef) == []
    return gamedef


class Answers:
    """Answers each decision with the next answer: a value, or a function of the decision. Records
    every decision asked, with whether its player was still in the game when asked."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.asked = []

    def __call__(self, game, decision):
        self.asked.append((decision, getattr(decision.player, "eliminated", False)))
        answer = self.answers.pop(0)
        return answer(decision) if callable(answer) else answer


def play(text, agent, players=("a", "b"), **kw):
    game = Game(rules(text), list(players), agent, **kw)
    game.run()
    return game


def texts(game, kind=None):
    return [e.text for e in game.trace if kind is None or e.kind == kind]


def the_play(action, *names):
    """An answer to a play decision: the offered play of ``action`` with these arguments' names."""
    def answer(decision):
        for option in decision.options:
            if option.action == action and [str(a) for a in option.args] == list(names):
                return option
        raise AssertionError(f"{action}{names} is not offered: {decision.describe_options()}")
    return answer


def passes(decision):
    return next(o for o in decision.options if o.action == "pass")


# ------------------------------------------------------------------ modifiers and durations

MODIFIED = '''
game t "T" { players 2 to 2 }
state { game counter r = 0  game counter limit = 5  player counter coins = 0  game zone market  player zone table }
card type good { price: number }
card "Rope" good { price 4 }
value cost(c) = c.price
value discount = 0
rule 1 "Round" {
  text "Each round the players may buy."
  begin round
  increase r by 1
  if r == 1 { MODIFIER }
  window "buy" starting with first(players) { any number of buy }
  end round
  action buy "buy" by p (c: card from market) {
    require cost(c) - discount <= p.coins cite 1 "Too dear."
    require r <= limit cite 1 "Too late."
    move c to p.table
  }
}
flow { create "Rope" into market set first(players).coins = 2 repeat { run 1 } until r >= 2 }
'''


@pytest.mark.parametrize("modifier, first_round", [
    ("", ["pass"]),
    ("modify cost(first(cards(market))) by -2 until end of round", ["buy(Rope)", "pass"]),
    ("modify discount by 2 until end of round", ["buy(Rope)", "pass"]),
    ("modify first(players).coins by 2 until end of round", ["buy(Rope)", "pass"]),
    ("modify first(cards(market)).price to 2 until end of round", ["buy(Rope)", "pass"]),
    ("modify cost(first(cards(market))) by -2 for next round", ["pass"]),
])
def test_a_modifier_is_read_by_requirements_and_the_legal_plays_and_ends_with_its_duration(modifier, first_round):
    offered = []

    def agent(game, decision):
        offered.append(decision.describe_options())
        return passes(decision)
    game = play(MODIFIED.replace("MODIFIER", modifier or 'log "no modifier"'), agent)
    # round 1: a is offered what the modifier allows, then b (no coins); round 2: the modifier has
    # expired (or, 'for next round', applies now)
    assert offered[0] == first_round
    second_round = offered[len(offered) - 2]
    assert second_round == (["buy(Rope)", "pass"] if "next round" in modifier else ["pass"])
    if modifier:
        assert texts(game, "expire") and game.modifiers == []


def test_a_modifier_on_a_requirements_counter_refuses_the_play_with_the_requirements_words():
    game = Game(rules(MODIFIED.replace("MODIFIER", 'log "none"')), ["a", "b"], RandomAgent(0))
    a = game.state.player("a")
    a.fields["coins"] = 9
    game.state.fields["r"] = 1
    rope = game.create_card("Rope", None, game.state.zones["market"], "1")
    assert [p.describe() for p in game.legal_plays(a, ["buy"])] == ["buy(Rope)"]
    limit = game.compiler.block(parse_rules('rule x "x" { modify limit to 0 until end of round }', "x.ludex")
                                .items[0].body)
    limit(Frame(game, {}, "1"))
    assert game.legal_plays(a, ["buy"]) == []
    with pytest.raises(Violation) as refused:
        game.attempt(Play("buy", a, (rope,)), "1")
    assert (refused.value.rule, refused.value.message) == ("1", "Too late.")


DURATIONS = '''
game t "T" { players 2 to 2 }
state { game counter r = 0 }
value v = 0
rule 1 "Round" { text "A round: a plot phase, then a marshaling phase." }
rule 1.1 "Begin" { text "The round begins." begin round increase r by 1 }
rule 1.2 "Plot" {
  text "The plot phase."
  begin phase plot
  if r == 1 {
    modify v by 1 until end of phase plot
    modify v by 10 until end of phase marshaling
    modify v by 100 until end of round
    modify v by 1000 for next round
  }
  log "plot"
  end phase plot
}
rule 1.3 "Marshal" { text "The marshaling phase." begin phase marshaling log "marshal" end phase marshaling }
rule 1.4 "End" { text "The round ends." end round }
rule 2 "Watch" {
  text "What v is at each step."
  when end phase plot { emit seen(v) }
  when end phase marshaling { emit seen(v) }
  when end round { emit seen(v) modify v by 7 until end of round }
}
flow { repeat { run 1 } until r >= 3 }
'''


def test_each_duration_ends_at_its_own_milestone_and_for_next_round_waits_for_the_next_round():
    game = play(DURATIONS, RandomAgent(0))
    seen = [e.text for e in game.trace if e.kind == "event" and e.text.startswith("seen(")]
    # round 1: end of plot 111 (the plot modifier still on: triggers run before it expires), end of
    # marshaling 110, end of round 100; round 2: only the 'next round' one, 1000 at each end; round 3: 0.
    # The modifier an 'end round' trigger makes 'until end of round' expires at once (triggers first).
    assert seen == ["seen(111)", "seen(110)", "seen(100)", "seen(1000)", "seen(1000)", "seen(1000)",
                    "seen(0)", "seen(0)", "seen(0)"]
    assert game.modifiers == []


# ------------------------------------------------------------------ state checks and simultaneous actions

AT_ONCE = '''
game t "T" { players 3 to 3 }
state { player counter pts = 0 }
rule 1 "Score" {
  text "Every player scores 10 at once; a and b first reach 10 together."
  for each p in players { if p.seat < 3 { increase p.pts by 9 } }
  simultaneously for each p in players { increase p.pts by 1 }
}
rule 2 "Win" {
  text "A player with 10 points wins; if several have, they share the win."
  whenever any p in players: p.pts >= 10 { win those p in players: p.pts >= 10 }
}
flow { begin game run 1 end game }
'''


def test_state_checks_wait_until_everyone_has_acted_simultaneously():
    game = play(AT_ONCE, RandomAgent(0), players=("a", "b", "c"))
    assert [p.name for p in game.winners] == ["a", "b"]
    assert texts(game, "win") == ["[a, b] win the game"]


EDGE = '''
game t "T" { players 2 to 2 }
state { game counter x = 0  game counter fired = 0 }
rule 1 "Steps" {
  text "x goes 1, 2, 3, 0, 5."
  set x = 1
  set x = 2
  set x = 3
  set x = 0
  set x = 5
}
rule 2 "Check" { text "Whenever x becomes positive, count it." whenever x > 0 { increase fired by 1 } }
flow { begin game run 1 }
'''


def test_a_state_check_runs_when_its_condition_becomes_true_not_while_it_holds():
    game = play(EDGE, RandomAgent(0))
    assert game.state.fields["fired"] == 2


# ------------------------------------------------------------------ windows and turns

WINDOW = '''
game t "T" { players 3 to 3 }
state { player counter n = 0 }
rule 1 "Window" {
  text "Players act in order until all pass in a row."
  window "act" starting with first(players) { any number of act }
  action act "act" by p { increase p.n by 1 }
}
flow { run 1 }
'''


def test_a_window_closes_only_when_every_player_still_in_has_passed_in_a_row():
    agent = Answers(passes, passes, the_play("act"), passes, passes, passes)   # a, b pass; c acts; all pass
    game = play(WINDOW, agent, players=("a", "b", "c"))
    assert [(d.player.name, d.kind) for d, _ in agent.asked] == [
        ("a", "play"), ("b", "play"), ("c", "play"), ("a", "play"), ("b", "play"), ("c", "play")]
    assert game.state.player("c").fields["n"] == 1


TURNS = '''
game t "T" { players 2 to 2 }
state { player counter n = 0  player counter m = 0 }
rule 1 "Turn" {
  text "A turn is two actions, not the same one twice, then any number of rests."
  turn of first(players) { 2 of act, other then any number of rest }
  action act "act" by p { increase p.n by 1 }
  action other "other" by p { increase p.m by 1 }
  action rest "rest" by p { log "rests" }
}
flow { run 1 }
'''


def test_a_turn_of_two_without_repeats_offers_the_other_action_second():
    agent = Answers(the_play("act"), lambda d: d.options[0], passes)
    play(TURNS, agent)
    assert [o.action for o in agent.asked[1][0].options] == ["other"]


IN_ANY_ORDER = '''
game t "T" { players 2 to 2 }
state { player counter n = 0  player counter m = 0  player counter r = 0 }
rule 1 "Turn" {
  text "A turn is exactly one act and up to 2 rests, in any order, then one other."
  turn of first(players) { exactly one of act and up to 2 of rest repeats allowed then exactly one of other }
  action act "act" by p { increase p.n by 1 }
  action other "other" by p { increase p.m by 1 }
  action rest "rest" by p { increase p.r by 1 }
}
flow { run 1 }
'''


def test_parts_joined_by_and_are_played_in_any_order_and_a_pass_waits_for_the_one_needed():
    agent = Answers(the_play("rest"), the_play("act"), passes, the_play("other"))
    game = play(IN_ANY_ORDER, agent)
    # before the act: rests and the act are offered, no pass; after it: a rest or a pass
    assert [o.action for o in agent.asked[0][0].options] == ["act", "rest"]
    assert [o.action for o in agent.asked[1][0].options] == ["act", "rest"]
    assert [o.action for o in agent.asked[2][0].options] == ["rest", "pass"]
    assert [o.action for o in agent.asked[3][0].options] == ["other"]
    a = game.state.player("a")
    assert (a.fields["n"], a.fields["r"], a.fields["m"]) == (1, 1, 1)
    assert "a passes, on to other" in texts(game, "pass")


def test_parts_joined_by_and_end_without_a_pass_once_each_has_all_it_allows():
    agent = Answers(the_play("rest"), the_play("act"), the_play("rest"), the_play("other"))
    game = play(IN_ANY_ORDER, agent)
    assert [o.action for o in agent.asked[3][0].options] == ["other"]     # no pass was asked for
    assert game.state.player("a").fields["r"] == 2


IN_ANY_ORDER_KINDS = IN_ANY_ORDER.replace(
    "exactly one of act and up to 2 of rest repeats allowed then exactly one of other",
    "any number of act and any number of rest repeats allowed and exactly one of other")


def test_parts_joined_by_and_offer_again_what_each_play_leaves_them():
    """The plays offered are worked out again only when a play changes them (``in_any_order``): a play
    made once where repeats are not allowed is offered no more, one whose repeats are allowed stays
    offered, and a part that needs a play lets the player pass once it has it."""
    agent = Answers(the_play("rest"), the_play("act"), the_play("rest"), the_play("other"), the_play("rest"),
                    passes)
    game = play(IN_ANY_ORDER_KINDS, agent)
    offered = [[o.action for o in asked[0].options] for asked in agent.asked]
    assert offered == [["act", "rest", "other"], ["act", "rest", "other"], ["rest", "other"], ["rest", "other"],
                       ["rest", "pass"], ["rest", "pass"]]
    a = game.state.player("a")
    assert (a.fields["n"], a.fields["r"], a.fields["m"]) == (1, 3, 1)


def refused_then(*answers):
    """A game whose refused plays are taken back, the player choosing again (as a scenario's are)."""
    agent = Answers(*answers)
    game = Game(rules(IN_ANY_ORDER), ["a", "b"], agent)
    game.choose_again = lambda refused, player: True
    game.run()
    return game


def test_a_pass_before_the_needed_play_of_parts_joined_by_and_is_refused():
    a_pass = lambda d: Play("pass", d.player, ())        # noqa: E731  (not offered: tried)
    game = refused_then(a_pass, the_play("act"), passes, the_play("other"))
    assert texts(game, "refused") == ["a tries pass: refused by 1, a may not pass yet: this part of the turn still needs a play of act"]


def test_a_play_of_a_full_part_joined_by_and_is_refused_in_the_menus_words():
    again = lambda d: Play("act", d.player, ())        # noqa: E731
    game = refused_then(the_play("act"), again, passes, the_play("other"))
    assert texts(game, "refused") == ["a tries act: refused by 1, this part of the turn allows exactly one of act, and it was made"]
    assert game.state.player("a").fields["n"] == 1


ELIMINATION = '''
game t "T" { players 3 to 3 }
state { player counter hp = 1  game counter r = 0 }
rule 1 "Round" {
  text "Each player in turn takes two actions."
  begin round
  increase r by 1
  for each p in players { turn of p { 2 of hit, wait repeats allowed } }
  end round
  action hit "hit a player" by p (q: player from players) { decrease q.hp by 1 }
  action wait "wait" by p { log "waits" }
}
rule 2 "Death" { text "A player with no health is out." whenever p.hp <= 0 for p in players { eliminate p } }
flow { begin game repeat { run 1 } until r >= 1 end game }
'''


def test_a_player_eliminated_during_their_turn_makes_no_more_plays_and_the_turn_ends():
    agent = Answers(the_play("hit", "a"), the_play("wait"), the_play("wait"), the_play("wait"), the_play("wait"))
    game = play(ELIMINATION, agent, players=("a", "b", "c"))
    assert [(d.player.name, out) for d, out in agent.asked] == [("a", False), ("b", False), ("b", False),
                                                                ("c", False), ("c", False)]
    words = texts(game)
    assert words.index("a is eliminated from the game") < words.index("a's turn ends") < words.index("b's turn begins")


def test_a_player_eliminated_before_their_turn_takes_none():
    agent = Answers(the_play("hit", "b"), the_play("wait"), the_play("wait"), the_play("wait"))
    game = play(ELIMINATION, agent, players=("a", "b", "c"))
    assert [d.player.name for d, _ in agent.asked] == ["a", "a", "c", "c"]
    assert "b's turn begins" not in texts(game)
    assert "b is out of the game: no turn" in texts(game, "log")


# ------------------------------------------------------------------ gotos, skipped steps

GOTO = '''
game t "T" { players 2 to 2 }
state { game counter laps = 0  game counter inner = 0 }
rule 3 "Steps" { text "Steps 3.1 to 3.3." }
rule 3.1 "First" { text "Once." log "3.1" }
rule 3.2 "Second" { text "Each lap." increase laps by 1 }
rule 3.3 "Third" {
  text "Count to 2 for each player; return to 3.2 from inside the loops on the first lap."
  for each p in players {
    repeat {
      increase inner by 1
      if laps == 1 and inner == 2 { return to 3.2 }
    } until inner >= 2
  }
  if laps == 2 { skip this step }
  log "not reached"
}
rule 3.4 "Fourth" { text "After." log "3.4" }
flow { run 3 }
'''


def test_return_to_from_inside_nested_loops_goes_on_at_that_step_and_skip_ends_only_its_step():
    game = play(GOTO, RandomAgent(0))
    trace = [(e.rule, e.kind, e.text) for e in game.trace if e.kind in ("goto", "skip", "log", "change")]
    assert trace == [
        ("3.1", "log", "3.1"),
        ("3.2", "change", "laps: 0 -> 1"),
        ("3.3", "change", "inner: 0 -> 1"), ("3.3", "change", "inner: 1 -> 2"),
        ("3.3", "goto", "go to step 3.2"),
        ("3.2", "change", "laps: 1 -> 2"),
        ("3.3", "change", "inner: 2 -> 3"), ("3.3", "change", "inner: 3 -> 4"),
        ("3.3", "skip", "the rest of step 3.3 is skipped"),      # after its changes: the rest
        ("3.4", "log", "3.4"),
    ]


# ------------------------------------------------------------------ decisions

def test_an_order_decision_orders_the_abilities_of_cards_of_different_players():
    text = '''
game t "T" { players 2 to 2 }
state { player zone table  game counter x = 1 }
card type plot { n: number }
card "Double" plot { n 2  ability "Double" "When revealed" { set x = x * 2 } }
card "Add" plot { n 3  ability "Add" "When revealed" { set x = x + 3 } }
rule 1 "Reveal" {
  text "The first player orders the When revealed abilities."
  create "Double" into first(players).table
  create "Add" into last(players).table
  initiate "When revealed" abilities of join(cards(first(players).table), cards(last(players).table)) ordered by last(players)
}
flow { run 1 }
'''
    for order, x in ((["Add", "Double"], 8), (["Double", "Add"], 5)):
        def answer(decision, order=order):
            assert decision.kind == "order" and decision.player.name == "b"
            return sorted(decision.options, key=lambda o: order.index(o.card.title))
        game = play(text, Answers(answer))
        assert game.state.fields["x"] == x


def test_a_number_decision_with_no_number_to_choose_is_an_error_naming_the_rule():
    text = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
rule 1 "Count" { text "Choose." first(players) chooses number n from 3 to x "How many?" set x = n }
flow { run 1 }
'''
    with pytest.raises(RuntimeRuleError) as exc:
        play(text, RandomAgent(0))
    d = exc.value.diagnostics[0]
    assert d.rule == "1" and d.message == "a must choose (How many?) but has no option"


def test_an_unscripted_decision_names_its_rule_and_lists_every_option():
    text = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
rule 1 "Pick" { text "Pick." first(players) chooses y from [1, 2, 3] "Which?" set x = y }
flow { run 1 }
'''
    with pytest.raises(Unscripted) as exc:
        play(text, ScriptedAgent())
    d = exc.value.diagnostics[0]
    assert d.rule == "1" and d.code == "C010"
    assert d.message == "rule 1 asks a to decide (Which?), but the script does not say what a decides"
    assert d.hint == "the options are: 1, 2, 3"


# ------------------------------------------------------------------ legality

def test_a_refused_play_carries_the_state_it_was_tried_in():
    text = MODIFIED.replace("MODIFIER", 'log "none"')
    game = Game(rules(text), ["a", "b"], RandomAgent(0))
    a = game.state.player("a")
    rope = game.create_card("Rope", None, game.state.zones["market"], "1")
    before = game.state.snapshot()
    with pytest.raises(Violation) as refused:
        game.attempt(Play("buy", a, (rope,)), "1")
    assert refused.value.state == before == game.state.snapshot()
    assert refused.value.state["zones"]["market"] == [rope.id]


# ------------------------------------------------------------------ game end

def test_a_win_of_no_one_is_a_draw_in_words():
    text = '''
game t "T" { players 2 to 2 }
state { player counter pts = 0 }
rule 1 "End" { text "Those with 10 points win." win those p in players: p.pts >= 10 }
flow { run 1 }
'''
    game = play(text, RandomAgent(0))
    assert game.winners == [] and texts(game, "win") == ["the game ends with no winner (a draw)"]


# ------------------------------------------------------------------ guards

LOOPS = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
rule 1 "Start" { text "Start." BODY }
rule 2 "Echo" { text "Echo." TRIGGER }
rule 3 "Again" { text "Again." increase x by 1 emit ping(x) }
flow { begin game run 1 }
'''


@pytest.mark.parametrize("body, trigger, rule, loop", [
    ("run 1", 'note "none"', "1", "rule 1 keeps starting itself"),
    ("emit ping(x)", "when ping(v) { increase x by 1 emit ping(x) }", "2",
     "rule 2's trigger (when ping) keeps starting itself"),
    ("emit ping(x)", "when ping(v) { run 3 }", "3",
     "rule 3 runs rule 2's trigger (when ping), which starts rule 3 again"),
    ("set x = 1", "whenever x == 1 { set x = 2 set x = 1 }", "2", "rule 2's state check keeps starting itself"),
])
def test_a_rule_trigger_or_state_check_that_keeps_starting_itself_meets_the_nesting_limit_named(body, trigger,
                                                                                                rule, loop):
    text = LOOPS.replace("BODY", body).replace("TRIGGER", trigger)
    if "run 3" not in trigger:
        text = text.replace('rule 3 "Again" { text "Again." increase x by 1 emit ping(x) }\n', "")
    with pytest.raises(RuntimeRuleError) as exc:
        play(text, RandomAgent(0))
    d = exc.value.diagnostics[0]
    assert d.rule == rule
    assert d.message == f"rules run inside each other more than {NESTING_LIMIT} deep: {loop}"


@pytest.mark.parametrize("loop", ["while x == 0 { }", "repeat { } until x == 1"])
def test_an_empty_loop_that_never_ends_meets_the_step_budget(loop):
    text = f'''
game t "T" {{ players 2 to 2 }}
state {{ game counter x = 0 }}
rule 1 "Wait" {{ text "Wait." {loop} }}
flow {{ run 1 }}
'''
    with pytest.raises(RuntimeRuleError) as exc:
        play(text, RandomAgent(0), step_budget=1000)
    d = exc.value.diagnostics[0]
    assert d.rule == "1" and "loop forever" in d.message


# ------------------------------------------------------------------ ludex run on the test game

class Done:
    """What ``ludex ARGV`` gave, called in-process (``cli.main``): its exit code and its output."""

    def __init__(self, argv, capsys):
        self.returncode, self.stdout, self.stderr = run_ludex(list(argv), capsys)


def test_ludex_run_plays_the_test_game_to_the_end_with_a_cited_trace_the_same_byte_for_byte(capsys):
    def ludex(*argv):
        return Done(argv, capsys)
    first, again, other = ludex("run", str(TALLY), "--seed", "5"), ludex("run", str(TALLY), "--seed", "5"), \
        ludex("run", str(TALLY), "--seed", "6")
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout and first.stdout != other.stdout
    lines = first.stdout.splitlines()
    assert re.fullmatch(r"game over after \d+ events: p[12]", lines[-1])
    assert any(line.split()[1] == "[1.3]" and "plays buy(" in line for line in lines[:-1])


def test_ludex_run_json_gives_each_event_its_rule_player_words_and_data(capsys):
    def ludex(*argv):
        return Done(argv, capsys)
    done = ludex("run", str(TALLY), "--seed", "5", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["seed"] == 5 and report["players"] == ["p1", "p2"] and len(report["winners"]) == 1
    events = report["trace"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert {tuple(e) for e in events} == {("seq", "rule", "kind", "player", "text", "data")}
    rolled = [e for e in events if e["kind"] == "random" and e["data"].get("random") == "dice"]
    assert rolled and all(e["rule"] == "1.4" and e["data"]["faces"] for e in rolled)
    assert ludex("run", str(TALLY), "--seed", "5", "--json").stdout == done.stdout


def test_the_interactive_seat_is_shown_the_rule_its_text_and_the_options_numbered():
    import io
    from ludex.engine.agents import InteractiveAgent
    from ludex.load import load_paths
    from ludex.runtime.records import Decision
    game = Game(load_paths("tally", [TALLY]).game, ["ann", "bob"], RandomAgent(1), seed=1)
    ann, bob = game.state.players
    out = io.StringIO()
    person = InteractiveAgent(stdin=io.StringIO("0\n2\n"), stdout=out)
    assert person(game, Decision(ann, "choose", [ann, bob], "1.4", "Choose the next first player")) is bob
    shown = out.getvalue().splitlines()
    heading = shown.index("[1.4 Luck] ann: Choose the next first player")
    assert "ann's cards:" in shown[:heading]                    # her own zones, before the question
    assert shown[heading + 1].startswith("    The first player flips the coin: heads gives one more income")
    assert "  1. ann" in shown and "  2. bob" in shown and "please type a number from 1 to 2" in out.getvalue()


def test_a_cards_ability_on_a_named_event_runs_for_that_card_alone():
    text = '''
game t "T" { players 2 to 2 }
state { player zone table  player counter pts = 0 }
card type thing { n: number }
card "Horn" thing { n 1  ability "Blow" when shown(c) { increase owner(this).pts by this.n } }
card "Drum" thing { n 10  ability "Beat" when shown(c) { increase owner(this).pts by this.n } }
rule 1 "Show" {
  text "Each player shows their card."
  create "Horn" into first(players).table
  create "Drum" into last(players).table
  emit shown(top(first(players).table))
}
flow { run 1 }
'''
    game = play(text, RandomAgent(0))
    assert [p.fields["pts"] for p in game.state.players] == [1, 0]


def test_may_runs_its_yes_block_or_its_else_block_as_answered():
    text = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
rule 1 "Ask" { text "Ask." first(players) may "Take it?" { set x = 1 } else { set x = 2 } }
flow { run 1 }
'''
    assert play(text, Answers(True)).state.fields["x"] == 1
    assert play(text, Answers(False)).state.fields["x"] == 2


def test_a_window_never_asks_a_player_eliminated_in_it():
    text = '''
game t "T" { players 3 to 3 }
state { player counter n = 0 }
rule 1 "Window" {
  text "Players act in order until all pass in a row; a player may knock another out."
  window "act" starting with first(players) { any number of knock }
  action knock "knock out" by p (q: player from players) { eliminate q }
}
flow { run 1 }
'''
    agent = Answers(the_play("knock", "b"), passes, passes)
    play(text, agent, players=("a", "b", "c"))
    assert [d.player.name for d, _ in agent.asked] == ["a", "c", "a"]


def test_a_counter_out_of_its_bounds_after_a_step_is_an_error_naming_the_step():
    text = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 min 0 max 3 }
rule 1 "Count" { text "Count." log "counting" }
flow { run 1 }
'''
    game = Game(rules(text), ["a", "b"], RandomAgent(0))
    game.state.fields["x"] = 7           # a broken primitive, say: no statement would set it
    with pytest.raises(RuntimeRuleError) as exc:
        game.run()
    d = exc.value.diagnostics[0]
    assert d.rule == "1" and d.message == "after rule 1 the game is inconsistent: x is 7, above its maximum 3"


BOUNDED = '''
game t "T" { players 2 to 2 }
state {
  game supply pool = 5
  game counter bank = 3
  game counter floor = 2 min 1
  player counter timer = 2 min 1 max 8
}
rule 1 "Begin" { text "Begin." increase floor by 1 }
rule 2 "Idle" { text "Idle." increase bank by 1 }
rule 3 "Break" { text "Break." BODY }
flow { run 1 run 2 run 3 }
'''


@pytest.mark.parametrize("body, broken", [
    ("set pool = 9", "the pool holds 9, outside 0 to 5"),
    ("increase pool by 1", "the pool holds 6, outside 0 to 5"),
    ("transfer 2 from bank to pool", "the pool holds 7, outside 0 to 5"),
    ("transfer 3 from floor to bank", "floor is 0, below its minimum 1"),
    ("transfer 2 from first(players).timer to bank", "a's timer is 0, below its minimum 1"),
])
def test_a_bound_a_statement_breaks_after_looks_that_skipped_the_bounds_is_found(body, broken):
    # Rule 2's look skips the bounds (it wrote none); rule 3's must look at them again, whatever writes
    # one: a set, an increase or a transfer. (Only these get past the statements' own refusal of a
    # value out of bounds: a game's supply above what it held at set-up, and what a transfer takes from
    # a counter with a minimum.)
    game = Game(rules(BOUNDED.replace("BODY", body)), ["a", "b"], RandomAgent(0))
    with pytest.raises(RuntimeRuleError) as exc:
        game.run()
    d = exc.value.diagnostics[0]
    assert d.rule == "3" and d.message == f"after rule 3 the game is inconsistent: {broken}"


@pytest.mark.parametrize("body, looked", [
    ("increase pool by 0", True),                      # a game's supply: no statement checks its capacity
    ("set pool = 5", True),
    ("transfer 0 from bank to pool", True),
    ("transfer 1 from floor to bank", True),           # what a transfer takes is checked only by the invariants
    ("decrease floor by 1", False),                    # refused by the statement past the minimum
    ("set first(players).timer = 8", False),
    ("transfer 1 from pool to first(players).timer", False),
    ("increase bank by 1", False),                     # no bounds at all
])
def test_the_invariants_look_at_the_bounds_again_only_after_a_write_no_statement_refuses(body, looked):
    # Rule 1 increases a counter with a minimum, which the increase itself keeps within it: after the first
    # look (at every bound), only a change that may leave a bound broken makes the invariants look again.
    game = Game(rules(BOUNDED.replace("BODY", body)), ["a", "b"], RandomAgent(0))
    game.run()
    assert game.books.bounds_changed == (1 if looked else 0)
    assert game.state.invariant_breaks() == []


def test_player_order_starting_with_a_player_goes_clockwise_from_them_and_skips_the_eliminated():
    text = '''
game t "T" { players 4 to 4 }
state { role first-player }
rule 1 "Order" {
  text "Starting with the first player, clockwise."
  eliminate last(players)
  set first-player = players[2]
  for each p in players-from(first-player) { log "turn" }
  for each p in players-from(first-player) { turn of p { any number of rest } }
  action rest "rest" by p { log "rests" }
}
flow { run 1 }
'''
    agent = Answers(passes, passes, passes)
    play(text, agent, players=("a", "b", "c", "d"))
    assert [d.player.name for d, _ in agent.asked] == ["c", "a", "b"]


PASS_AS_A_PLAY = '''
game t "T" { players 2 to 2 }
state { game counter flips = 0  game counter rests = 0 }
rule 1 "Turn" {
  text "Two plays, flip or pass; then rest as often as you like."
  turn of first(players) { 2 of flip, pass then any number of rest }
  action flip "flip" by p { increase flips by 1 }
  action rest "rest" by p { increase rests by 1 }
}
flow { run 1 }
'''


def test_a_pass_counted_as_a_play_of_its_part_does_not_read_as_moving_on():
    """In '2 of flip, pass' a pass is one of the two plays: only the one that ends the part moves on."""
    passing = lambda d: next(o for o in d.options if o.action == "pass")
    game = play(PASS_AS_A_PLAY, Answers(passing, the_play("flip"), passing))
    assert texts(game, "pass") == ["a passes", "a passes"]
    assert game.state.fields["flips"] == 1
    game = play(PASS_AS_A_PLAY, Answers(the_play("flip"), passing, the_play("rest"), passing))
    assert texts(game, "pass") == ["a passes, on to rest", "a passes"]


def test_the_interactive_seat_says_why_a_rule_shows_no_text():
    import io
    from ludex.engine.agents import InteractiveAgent
    from ludex.runtime.records import Decision
    gamedef = rules('''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
rule 1 "Pick" { first(players) chooses n from [1, 2] "Pick a number"  set x = n }
rule 2 "Outside" outside source { note "Not in the pages." }
flow { run 1 }
''')
    game = Game(gamedef, ["a", "b"], RandomAgent(1))
    a = game.state.players[0]
    out = io.StringIO()
    person = InteractiveAgent(stdin=io.StringIO("1\n1\n1\n"), stdout=out)
    for rule in ("1", "2", ""):
        person(game, Decision(a, "choose", [1, 2], rule, "Pick"))
    shown = out.getvalue()
    assert "    (rule 1 gives no reference text)" in shown
    assert "    (no reference text: this rule is outside the transcribed source)" in shown
    assert "    (asked by the game's flow, not by a rule)" in shown


def test_a_cards_ability_that_keeps_revealing_its_card_names_the_card_and_cites_the_rule_it_answers():
    text = '''
game t "T" { players 2 to 2 }
state { player zone hand hidden }
card type thing { }
card "Bell" thing { ability "Ring" when revealed(c) { reveal this } }
rule 1 "Show" { text "The first player shows his Bell." create "Bell" into first(players).hand
  reveal top(first(players).hand) }
flow { run 1 }
'''
    with pytest.raises(RuntimeRuleError) as exc:
        play(text, RandomAgent(0))
    d = exc.value.diagnostics[0]
    assert "Bell's ability (when revealed) keeps starting itself" in d.message
    assert d.rule == "1"                    # a rule of the game, not 'Bell'


CONCEALED = '''
game t "T" { players 2 to 2 }
state { player zone hand hidden  player zone table }
card type thing { }
card "Secret Plan" thing { }
card "Open Book" thing { }
rule 1 "Face down" {
  text "Each player's revealed cards are turned face down again."
  for each p in players {
    create "Secret Plan" into p.hand
    create "Open Book" into p.table
    reveal cards(p.hand)
    reveal cards(p.table)
    conceal join(cards(p.hand), cards(p.table))
  }
}
flow { run 1 }
'''


def test_a_card_turned_face_down_in_a_hidden_zone_is_named_to_its_owner_and_the_judge_only():
    game = play(CONCEALED, Answers())
    shown = {view: [e.view(view)[0] for e in game.trace if e.kind == "conceal"] for view in (PUBLIC, "a", JUDGE)}
    assert shown[PUBLIC] == ["a card in a.hand is turned face down", "Open Book is turned face down",
                             "a card in b.hand is turned face down", "Open Book is turned face down"]
    assert shown["a"] == ["Secret Plan in a.hand is turned face down (hidden from all but a)",
                          "Open Book is turned face down",
                          "a card in b.hand is turned face down", "Open Book is turned face down"]
    assert shown[JUDGE] == ["Secret Plan in a.hand is turned face down (hidden from all but a)",
                            "Open Book is turned face down",
                            "Secret Plan in b.hand is turned face down (hidden from all but b)",
                            "Open Book is turned face down"]
