"""Scenario files checked before they run: their set-ups and the expressions of their lines go through
the rules' static checks (``checks.Checker.check_script``), their players being names of players;
a player named twice, or a part given twice, is refused where it stands. What the checks cannot see
is a positioned error when the scenario runs, never a Python traceback.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from ludex.diagnostics import SourceError, render_all
from ludex.load import load_game, load_paths
from ludex.scenarios.runner import load_scenarios, run_scenario


@lru_cache(maxsize=None)
def agot():
    loaded = load_game("agot")
    assert loaded.ok, render_all(loaded.diagnostics)
    return loaded.game


def scenario(body: str) -> str:
    return f'scenario "s" {{\n  players ann, bob\n{body}\n}}\n'


def diagnostics(tmp_path, text: str, game=None):
    path = tmp_path / "s.scenario"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        load_scenarios(game or agot(), path)
    return sorted(caught.value.diagnostics, key=lambda d: d.sort_key())


def found(tmp_path, text: str, game=None):
    """(code, line, column, message) of each diagnostic, in file order."""
    return [(d.code, d.span.line, d.span.column, d.message) for d in diagnostics(tmp_path, text, game)]


def run(tmp_path, text: str, game=None):
    path = tmp_path / "s.scenario"
    path.write_text(text, encoding="utf-8")
    file = load_scenarios(game or agot(), path)
    return run_scenario(game or agot(), file.scenarios[0])


def test_an_unknown_function_in_an_expectation_or_a_set_up_is_reported_with_a_caret(tmp_path):
    text = scenario("  setup { set ann.gold = nosuch(ann) }\n  expect nosuch(ann) == 1\n  expect sise(ann.hand) == 0")
    rendered = render_all(diagnostics(tmp_path, text))
    assert "s.scenario:3:26: error[S065]: unknown built-in or value 'nosuch'\n" in rendered
    assert "s.scenario:4:10: error[S065]: unknown built-in or value 'nosuch'\n" in rendered
    assert "4 |   expect nosuch(ann) == 1\n  |          ^^^^^^^^^^^" in rendered
    assert "unknown built-in or value 'sise'" in rendered and "did you mean 'size'?" in rendered


def test_values_of_the_wrong_kind_in_expectations_are_the_rules_checks_errors(tmp_path):
    text = scenario('  expect treasury + "x" == 1\n'
                    '  expect ann.hand < 3\n'
                    '  expect size(ann.gold) == 3\n'
                    '  expect size(ann.hand, 1) == 3\n'
                    '  expect cards() == ann.hand\n'
                    '  expect -ann.name == 1\n'
                    '  expect winner 3')
    assert found(tmp_path, text) == [
        ("S020", 3, 21, "a number is needed here, but this is text"),
        ("S020", 4, 10, "a number is needed here, but this is a zone"),
        ("S024", 5, 15, "a list or a zone is needed here, but this is a number"),
        ("S064", 6, 10, "'size' takes 1 argument, not 2"),
        ("S064", 7, 10, "'cards' takes 1 argument, not 0"),
        ("S020", 8, 11, "a number is needed here, but this is text"),
        ("S021", 9, 17, "a player is needed here, but this is a number"),
    ]


def test_a_set_up_cannot_quietly_make_a_field_or_store_text_in_a_counter(tmp_path):
    text = scenario('  setup {\n'
                    '    set ann.nosuch = 1\n'
                    '    transfer 5 from treasury to ann.nosuch\n'
                    '    set ann.gold = "x"\n'
                    '  }\n'
                    '  force order ann.gold: "A Noble Cause"')
    assert found(tmp_path, text) == [
        ("S063", 4, 13, "unknown attribute 'nosuch' of a player"),
        ("S063", 5, 37, "unknown attribute 'nosuch' of a player"),
        ("S020", 6, 20, "a number is needed here, but this is text"),
        ("S023", 8, 15, "a zone is needed here, but this is a number"),
    ]


def test_a_set_up_asks_no_decisions_goes_to_no_step_and_ends_nothing(tmp_path):
    text = scenario('  setup {\n'
                    '    ann chooses x from players\n'
                    '    if true { return to 1.2 }\n'
                    '    if true { skip this step }\n'
                    '    require false cite 1.2 "no"\n'
                    '    win ann\n'
                    '  }')
    assert found(tmp_path, text) == [
        ("S080", 4, 5, "a scenario's set-up asks no decisions: nobody is there to answer this one yet"),
        ("S074", 5, 15, "'return to 1.2': a scenario's set-up is not one of a sequence of steps, so there is "
                        "no step to go on at"),
        ("S073", 6, 15, "'skip this step': a scenario's set-up is not a step, so there is no step to skip"),
        ("S081", 7, 5, "a scenario's set-up refuses nothing: 'require' belongs to an action"),
        ("S081", 8, 5, "a scenario's set-up builds the state the game starts from, and cannot end the game"),
    ]


def test_a_player_named_twice_or_a_part_given_twice_is_refused_where_it_stands(tmp_path):
    text = ('scenario "s" {\n  players ann, ann\n  format joust\n  format melee\n  players bob, ann\n'
            '  setup { set ann.gold = 1 }\n  setup { set ann.gold = 2 }\n}\n')
    ds = diagnostics(tmp_path, text)
    assert [(d.code, d.span.line, d.span.column, d.message) for d in ds] == [
        ("C016", 2, 16, "player 'ann' is named twice"),
        ("C017", 4, 3, "the scenario gives its format twice"),
        ("C017", 5, 3, "the scenario gives its players twice"),
        ("C017", 7, 3, "the scenario gives its setup twice"),
    ]
    assert ds[0].related[0].span.column == 11 and ds[1].related[0].span.line == 3


def test_the_bundled_scenarios_still_pass_their_checks():
    from ludex.resources import scenarios_dir
    for path in sorted((scenarios_dir() / "agot").glob("*.scenario")):
        load_scenarios(agot(), path)


def test_a_value_of_the_wrong_kind_the_checks_cannot_see_is_an_error_at_the_expression(tmp_path):
    result = run(tmp_path, scenario("  expect last(join(cards(ann.hand), [])) + 1 == 3"))
    assert result.status == "error"
    d = result.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == ("C014", 3, 10)
    assert d.message == "this cannot be worked out with these values (a value is none)"


def test_a_range_too_long_to_hold_is_refused_where_it_is_written(tmp_path):
    result = run(tmp_path, scenario("  expect size(range(1, ann.gold + 9999999999)) == 3"))
    assert result.status == "error"
    assert "range(1, 9999999999) would list 9999999999 numbers, more than the 100000 a range may hold" \
        in result.diagnostics[0].message
    result = run(tmp_path, scenario("  setup { let n = 9999999999  for each i in range(1, n) { increase ann.gold by 1 } }"))
    assert result.status == "error"
    d = result.diagnostics[0]
    assert d.code == "R001" and d.span.line == 3 and "would list 9999999999 numbers" in d.message


def test_a_range_too_long_in_the_rules_is_a_positioned_runtime_error(tmp_path):
    from ludex.diagnostics import RuntimeRuleError
    from ludex.engine.game import Game
    path = tmp_path / "big.ludex"
    path.write_text('game big "Big" { players 2 to 2 }\n'
                    'state { game counter n = 9999999999  player counter gold = 0 }\n'
                    'flow { run 1 }\n'
                    'rule 1 "Count" {\n  text "Count."\n  for each i in range(1, n) { increase first(players).gold by 1 }\n}\n',
                    encoding="utf-8")
    loaded = load_paths("big", [path])
    assert loaded.ok, render_all(loaded.diagnostics)
    with pytest.raises(RuntimeRuleError) as caught:
        Game(loaded.game, ["ann", "bob"], lambda game, decision: None).run()
    d = caught.value.diagnostics[0]
    assert (d.code, d.rule, d.span.line) == ("R001", "1", 6)
    assert "range(1, 9999999999) would list 9999999999 numbers" in d.message


EMPTY_DECK = '''
game t "T" { players 2 to 2 }
state { player zone deck  player zone hand }
card type token { }
card "A" token { }
rule 1 "Set-up" { text "Each player gets a deck of two." for each p in players { create ["A", "A"] into p.deck } }
rule 2 "Empty deck" {
  text "A player whose deck is empty is out of the game."
  whenever size(p.deck) == 0 for p in players { eliminate p }
}
rule 3 "Draw" { text "Each player draws one." for each p in players { draw 1 from p.deck to p.hand } }
flow { run 1  begin game  run 3  end game }
'''


def test_a_scenario_playing_the_game_leaves_the_state_checks_to_the_games_own_beginning(tmp_path):
    # Before the flow's set-up (rule 1) deals the decks, every deck is empty: the check must not look
    # until the game begins, as in a game played from the start.
    (tmp_path / "t.ludex").write_text(EMPTY_DECK, encoding="utf-8")
    loaded = load_paths("t", [tmp_path / "t.ludex"])
    assert loaded.ok, render_all(loaded.diagnostics)
    path = tmp_path / "s.scenario"
    path.write_text(scenario('  question "q"\n  answer "a"\n  cite 1\n  play the game\n'
                             '  expect size(ann.hand) == 1\n  expect not bob.eliminated'), encoding="utf-8")
    [s] = load_scenarios(loaded.game, path).scenarios
    result = run_scenario(loaded.game, s)
    assert result.status == "passed", (result.failures, result.diagnostics)


def test_a_random_outcome_fixed_but_never_drawn_is_reported_at_the_line_fixing_it(tmp_path):
    (tmp_path / "t.ludex").write_text(EMPTY_DECK, encoding="utf-8")
    loaded = load_paths("t", [tmp_path / "t.ludex"])
    path = tmp_path / "s.scenario"
    path.write_text(scenario('  question "q"\n  answer "a"\n  cite 1\n  setup { run 1 }\n  force pick ann\n'
                             '  run 3'), encoding="utf-8")
    [s] = load_scenarios(loaded.game, path).scenarios
    result = run_scenario(loaded.game, s)
    [failure] = result.failures
    assert failure.message == "the scenario fixes a random outcome that never happened"
    assert (failure.span.line, failure.span.column) == (7, 3)


def test_a_scenario_in_a_format_for_another_number_of_players_is_refused(tmp_path):
    assert found(tmp_path, scenario('  question "q"\n  answer "a"\n  cite 1.4\n  format melee')) == [
        ("C004", 1, 1, "agot's melee format is for 3 to 8 players, not 2")]


def test_an_expectation_is_true_or_false_and_names_the_scenarios_players(tmp_path):
    # each of these passed unchecked: 'expect 5' always held, 'expect players' held while anyone played
    text = scenario('  expect 5\n  expect ann\n  expect "x"\n  expect players\n  expect treasury\n'
                    '  expect winner [ann, 3]\n  expect offered nosuch: "x"\n  expect ann == 3\n'
                    '  expect ann.gold == true\n  expect first(players) == "ann"\n  expect ann.gold + true == 1')
    assert found(tmp_path, text) == [
        ("S026", 3, 10, "true or false is needed here, but this is a number"),
        ("S026", 4, 10, "true or false is needed here, but this is a player"),
        ("S026", 5, 10, "true or false is needed here, but this is text"),
        ("S026", 6, 10, "true or false is needed here, but this is a list of players"),
        ("S026", 7, 10, "true or false is needed here, but this is a number"),
        ("S021", 8, 23, "a player is needed here, but this is a number"),
        ("C005", 9, 18, "'nosuch' is not one of this scenario's players"),
        ("S027", 10, 10, "cannot compare a player with a number"),
        ("S027", 11, 10, "cannot compare a number with true or false"),
        ("S027", 12, 10, "cannot compare a player with text"),
        ("S020", 13, 21, "a number is needed here, but this is true or false"),
    ]
    # what is meant is accepted: a condition, a list of players, a player's name
    assert found(tmp_path, scenario('  expect winner [ann, bob]\n  expect first(players).name == "ann"\n'
                                    '  expect offered bob: "x"\n  expect not ann.eliminated\n  expect ann')) == [
        ("S026", 7, 10, "true or false is needed here, but this is a player")]


def test_a_built_in_given_a_value_of_the_wrong_kind_when_the_rule_runs_says_so_in_its_words(tmp_path):
    # no scenario line sets first-player: players-from read none, and Python's "None is not in list" leaked
    result = run(tmp_path, scenario("  expect size(players-from(first-player)) == 2"))
    assert result.status == "error"
    d = result.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == ("C014", 3, 10)
    assert d.message == "this cannot be worked out with these values (players-from: none is not a player)"


@pytest.mark.parametrize("name, args, message", [
    ("players-from", (None,), "players-from: none is not a player"),
    ("next-player", (5,), "next-player: the number 5 is not a player"),
    ("opponents", ("ann",), 'opponents: the text "ann" is not a player'),
    ("owner", (None,), "owner: none is not a card"),
    ("zone-of", ([],), "zone-of: a list is not a card"),
    ("size", (5,), "size: the number 5 is not a list or a zone"),
    ("top", (True,), "top: true is not a list or a zone"),
    ("first", (3,), "first: the number 3 is not a list or a zone"),
    ("titles", ([1],), "titles: the number 1 is not a card"),
    ("abs", ("x",), 'abs: the text "x" is not a number'),
    ("odd", (None,), "odd: none is not a number"),
    ("range", (1, "9"), 'range: the text "9" is not a number'),
    ("sum", ([1, None],), "sum: none is not a number"),
])
def test_a_built_in_refuses_a_value_of_the_wrong_kind_in_its_own_words(name, args, message):
    from types import SimpleNamespace
    from ludex.runtime.builtins import BUILTINS
    from ludex.runtime.state import Player
    game = SimpleNamespace(state=SimpleNamespace(players=[Player("ann", 0), Player("bob", 1)]))
    with pytest.raises(ValueError) as caught:
        BUILTINS[name].fn(game, *args)
    assert str(caught.value) == message


def test_an_error_the_rules_meet_in_a_scenario_also_points_at_the_scenarios_line_that_ran_them(tmp_path):
    # The set-up leaves out Myers' space, which Stalk reads: the error is in the rules, the cause here.
    halloween = load_game("halloween").game
    path = tmp_path / "s.scenario"
    path.write_text('scenario "s" {\n  question "q"\n  answer "a"\n  cite myers-actions.stalk\n'
                    '  players mike, ann\n  setup {\n    set myers-player = mike\n'
                    '    create "Michael Myers" into myers-mat\n  }\n  mike passes\n  mike plays stalk\n'
                    '  run myers-actions\n}\n', encoding="utf-8")
    [s] = load_scenarios(halloween, path).scenarios
    result = run_scenario(halloween, s)
    [d] = result.diagnostics
    assert d.span.path.endswith("halloween.ludex")
    [here] = [r for r in d.related if r.span.path == str(path)]
    assert (here.span.line, here.message) == (12, "the scenario's line that ran the rules")


def test_the_random_outcome_left_over_is_reported_at_the_line_that_fixed_it_not_an_earlier_one(tmp_path):
    (tmp_path / "t.ludex").write_text('''
game t "T" { players 2 to 2 }
state { game counter n = 0 }
dice coin { faces heads, tails }
rule 1 "Toss" { text "Toss a coin." roll 1 coin dice as faces increase n by 1 }
flow { run 1 }
''', encoding="utf-8")
    loaded = load_paths("t", [tmp_path / "t.ludex"])
    assert loaded.ok, render_all(loaded.diagnostics)
    path = tmp_path / "s.scenario"
    path.write_text(scenario('  question "q"\n  answer "a"\n  cite 1\n  force dice coin: heads\n  run 1\n'
                             '  force dice coin: tails'), encoding="utf-8")
    [s] = load_scenarios(loaded.game, path).scenarios
    [failure] = run_scenario(loaded.game, s).failures
    assert failure.message == "the scenario fixes a random outcome that never happened"
    assert failure.span.line == 8               # the second force: the first was rolled


def test_a_stray_jump_in_the_flow_of_a_game_a_scenario_plays_is_an_error_at_it():
    # (rules compiled without the static checks, which refuse it: S073)
    from ludex.parse.definition import assemble
    from ludex.parse.syntax import parse_rules, parse_scenarios
    gamedef = assemble("t", [parse_rules('game t "T" { players 2 to 2 }\nstate { game counter n = 0 }\n'
                                         'flow { skip this step }\n', "t.ludex")])
    [s] = parse_scenarios(scenario('  question "q"\n  answer "a"\n  play the game'), "s.scenario").scenarios
    result = run_scenario(gamedef, s)
    [d] = result.diagnostics
    assert result.status == "error" and (d.span.path, d.span.line) == ("t.ludex", 3)
    assert d.message == "'skip this step' in the flow: no step of the procedure is running here to skip"


def test_a_set_up_makes_events_happen_and_starts_modifiers_as_the_rules_do(tmp_path):
    nightmare = load_game("nightmare")
    assert nightmare.ok
    text = scenario('  setup {\n'
                    '    emit function-performed(ann)\n'
                    '    emit function-performed(ann, top(ann.locales), 3)\n'
                    '    modify ann.pumpkin-points by 1 for next phase player\n'
                    '    modify ann.pumpkin-points by 1 until end of phase nosuch\n'
                    '  }')
    assert found(tmp_path, text, nightmare.game) == [
        ("S086", 4, 5, "event 'function-performed' is emitted with 1 value, but a trigger of it names 2 values"),
        ("S087", 6, 36, "'for next phase': a modifier waits for the next round only"),
        ("S087", 7, 36, "nothing ends the nosuch phase, so this modifier would never expire"),
    ]


def huntik_scenario(lines: str) -> str:
    return ('scenario "s" {\n  players dana, leo\n'
            '  setup { set defending-player = dana  set lead-player = leo  set mission-timer = 1\n'
            '          create "Foundation Seeker" into dana.hand }\n'
            f'{lines}\n}}\n')


def test_a_plays_argument_of_a_kind_its_parameter_never_is_is_refused_where_it_is_written(tmp_path):
    # play-card(5) was refused by 500.2 'You can only play a card from your hand.', and an expectation
    # of that refusal passed
    huntik = load_game("huntik").game
    text = huntik_scenario('  dana plays play-card(5)\n  run 500.2\n'
                           '  expect refused 500.2 "You can only play a card from your hand."\n'
                           '  leo plays move(dana)\n  dana plays use-power("Foundation Seeker")')
    d = diagnostics(tmp_path, text, huntik)[0]
    assert found(tmp_path, text, huntik) == [
        ("C018", 5, 24, "a card is needed here (play-card's c), but this is a number"),
        ("C018", 8, 18, "a card is needed here (move's c), but this is a player"),
    ]
    assert d.hint == "a card is named by its title, in quotes"
    assert d.related[0].message == "play-card's c is a card" and d.related[0].span.path.endswith("huntik.ludex")
    # what every bundled game's plays take: a card by title, a space or a text in quotes
    halloween = load_game("halloween").game
    text = scenario('  ann plays search("F3")\n  ann plays attack("Kitchen Knife")\n  ann plays search(3)\n'
                    '  ann plays attack(bob)\n  ann plays use-item(["Rock"])')
    assert found(tmp_path, text, halloween) == [
        ("C018", 5, 20, "a space is needed here (search's s), but this is a number"),
        ("C018", 6, 20, "text is needed here (attack's w), but this is a player"),
        ("C018", 7, 22, "a card is needed here (use-item's c), but this is a list"),
    ]


def test_a_winner_or_an_eliminated_player_named_twice_is_refused_at_the_second(tmp_path):
    # 'expect winner [ann, ann]' held when ann alone won
    text = scenario('  expect winner [ann, bob, ann]\n  expect eliminated [bob, bob]\n  expect winner [ann, bob]')
    ds = diagnostics(tmp_path, text)
    assert [(d.code, d.span.line, d.span.column, d.message) for d in ds] == [
        ("C016", 3, 28, "player 'ann' is named twice"),
        ("C016", 4, 27, "player 'bob' is named twice"),
    ]
    assert ds[0].related[0].span.column == 18 and ds[0].related[0].message == "first named here"


def test_a_winner_named_twice_by_a_value_is_not_the_winner_alone(tmp_path):
    huntik = load_game("huntik").game
    text = ('scenario "s" {\n  players dana, leo\n'
            '  setup { set defending-player = dana  set lead-player = leo  set mission-timer = 7 }\n'
            '  run 501.1\n  expect winner [dana, defending-player]\n  expect winner dana\n}\n')
    result = run(tmp_path, text, huntik)
    [failure] = result.failures
    assert (failure.span.line, failure.message) == (5, "the winner is not the one expected")
    assert (failure.expected, failure.actual) == ("[dana, dana]", "[dana]")


TWO_INTELLIGENCES = '''  question "q"
  answer "a"
  cite 1.3
  setup {
    create "Hedge Knight" into ann.draw-deck
    create "Village Militia" into bob.draw-deck
    create ["Gathering Intelligence", "Quiet Days"] into ann.plot-deck
    create ["Gathering Intelligence", "Quiet Days"] into bob.plot-deck
  }
  ann chooses "Gathering Intelligence"
  bob chooses "Gathering Intelligence"
  force pick bob
  bob chooses ann
  ann orders [ORDER]
  run 1.2 to 1.3'''


def test_an_ordering_names_a_cards_ability_by_the_card_itself(tmp_path):
    # Each player's copy of the same plot: the ordering says whose goes first by naming the card.
    result = run(tmp_path, scenario(TWO_INTELLIGENCES.replace("ORDER", "top(ann.revealed-plots)")
                                    + "\n  expect winner bob"))
    assert result.status == "passed", (result.failures, result.diagnostics)
    result = run(tmp_path, scenario(TWO_INTELLIGENCES.replace("ORDER", "top(bob.revealed-plots)")
                                    + "\n  expect winner ann"))
    assert result.status == "passed", (result.failures, result.diagnostics)


def test_a_title_naming_different_players_cards_is_refused_not_taken_at_random(tmp_path):
    result = run(tmp_path, scenario(TWO_INTELLIGENCES.replace("ORDER", '"Gathering Intelligence"')))
    [d] = result.diagnostics
    assert (d.code, d.span.line, d.span.column) == ("C012", 16, 3)
    assert d.message == ("Gathering Intelligence names 2 options here, cards of different players (bob's, "
                         "ann's): the script does not say which")
    assert "top(ann.revealed-plots)" in d.hint


def test_a_pick_forced_to_what_the_rules_do_not_pick_from_is_an_error_at_the_force_line(tmp_path):
    text = TWO_INTELLIGENCES.replace("force pick bob", "force pick cara").replace(
        "ann orders [ORDER]\n", "").replace("bob chooses ann", "cara chooses ann")
    result = run(tmp_path, f'scenario "s" {{\n  players ann, bob, cara\n  format melee\n{text}\n}}\n'.replace(
        '    create "Village Militia" into bob.draw-deck\n',
        '    create "Village Militia" into bob.draw-deck\n    create "Steel Blade" into cara.draw-deck\n'
        '    create ["March to War", "Quiet Days"] into cara.plot-deck\n    set cara.power = 5\n').replace(
        '  bob chooses "Gathering Intelligence"\n',
        '  bob chooses "Gathering Intelligence"\n  cara chooses "Quiet Days"\n'))
    [d] = result.diagnostics
    assert d.code == "C012" and d.span.path.endswith("s.scenario")
    assert d.message == ("force pick cara, which is not one of [ann, bob], the options rule 1.3 picks from here")
    assert [r.message for r in d.related] == ["the pick"]
    assert d.related[0].span.path.endswith("agot.ludex")


def test_a_refusal_expected_where_no_one_was_asked_to_play_says_so(tmp_path):
    # No draw decks: both players are eliminated as the set-up ends (2.2, Note), so the window asks no one.
    result = run(tmp_path, scenario('  question "q"\n  answer "a"\n  cite 3.2\n  setup {\n'
                                    '    create "Quiet Days" into ann.revealed-plots\n'
                                    '    set first-player = ann\n    create "Hedge Knight" into ann.hand\n  }\n'
                                    '  run 3.2\n  expect refused 3.2'))
    [failure] = result.failures
    assert (failure.message, failure.actual) == ("no play was refused",
                                                 "no play was made: the rules asked no one for one")
    assert result.trace[-2].text == ("Marshaling phase player action window closes: no player is left in the "
                                     "game to act")
    assert result.trace[-1].text == "marshaling-window-open: yes -> no"


def test_a_failures_trace_labels_the_set_ups_events_as_the_set_ups(tmp_path):
    from ludex.scenarios.runner import render_failure
    result = run(tmp_path, scenario('  question "q"\n  answer "a"\n  cite 3.2\n  setup {\n'
                                    '    create "Hedge Knight" into ann.draw-deck\n    set ann.gold = 2\n  }\n'
                                    '  expect ann.gold == 3'))
    assert result.status == "failed" and result.setup_events == 2
    report = render_failure(result)
    assert "[set-up]" in report and "[flow]" not in report, report


def test_a_play_tried_out_of_turn_is_refused_with_its_rule_and_a_legal_one_is_made(tmp_path):
    """'ann tries PLAY': a play no decision offers, checked against its requirements where the script
    stands; refused with the rule that refuses it, or made."""
    setup = ('  setup {\n    create ["Hedge Knight", "Roadside Inn"] into ann.draw-deck\n'
             '    create ["Village Militia", "Steel Blade"] into bob.draw-deck\n    set active-player = bob\n'
             '    set challenges-phase = true\n  }\n')
    refused = run(tmp_path, scenario(setup + '  ann tries initiate-challenge("military")\n'
                                     '  expect refused 4.2 "Only the active player may initiate a challenge."\n'
                                     '  expect not ann.initiated-military'))
    assert refused.status == "passed", refused.failures
    made = run(tmp_path, scenario(setup + '  ann tries initiate-challenge("military")\n'
                                  '  bob tries initiate-challenge("power")\n'
                                  '  expect bob.initiated-power\n'
                                  '  expect refused 4.2'))
    # the last try was made: the refusal before it is not 'the last refused play'
    assert made.status == "failed"
    (failure,) = made.failures
    assert "no play was refused" in str(failure)
    assert any(e.kind == "play" and e.text == "bob plays initiate-challenge(power)" for e in made.trace)


def test_a_tried_play_is_checked_as_a_scripted_play_is(tmp_path):
    text = scenario('  cara tries initiate-challenge("military")\n'
                    '  ann tries initiate-chalenge("military")\n'
                    '  ann tries initiate-challenge("military", 2)\n'
                    '  ann tries initiate-challenge(5)')
    codes = [(code, line) for code, line, _, _ in found(tmp_path, text)]
    assert ("C005", 3) in codes and ("C006", 4) in codes and ("C009", 5) in codes and ("C018", 6) in codes


def test_a_play_tried_by_a_player_out_of_the_game_or_after_it_ended_is_the_scripts_mistake(tmp_path):
    setup = ('  setup {\n    create ["Hedge Knight", "Roadside Inn"] into ann.draw-deck\n'
             '    create ["Village Militia", "Steel Blade"] into bob.draw-deck\n    set active-player = ann\n'
             '    eliminate ann\n  }\n')
    result = run(tmp_path, scenario(setup + '  ann tries initiate-challenge("military")'))
    assert result.status == "error"
    (found,) = result.diagnostics
    assert (found.code, found.message) == ("C011", "ann is out of the game: ann can try no play")
    assert not any(e.kind == "play" for e in result.trace)


SELF_PERFORMING = '''
game t "T" { players 2 to 2 }
state { game counter x = 0 }
rule 1 "Hop" {
  text "Hop, and hop again."
  action hop "hop" by p { increase x by 1 perform hop by p }
}
flow { run 1 }
'''


def test_a_tried_play_that_performs_itself_forever_is_an_error_at_the_line_not_a_traceback(tmp_path):
    rules = tmp_path / "t.ludex"
    rules.write_text(SELF_PERFORMING, encoding="utf-8")
    game = load_paths("t", [rules]).game
    for text in (scenario("  ann tries hop"), 'scenario "s" {\n  players ann, bob\n  setup { perform hop by ann }\n}\n'):
        result = run(tmp_path, text, game)
        assert result.status == "error"
        (found,) = result.diagnostics
        assert found.code == "R001" and "a play keeps performing itself" in found.message
        assert found.span.path.endswith("s.scenario")


def test_an_answer_written_after_the_line_that_asks_for_it_is_pointed_before_it(tmp_path):
    setup = ('  setup {\n    create ["Hedge Knight", "Roadside Inn"] into ann.draw-deck\n'
             '    create ["Village Militia", "Steel Blade"] into bob.draw-deck\n'
             '    create ["Hedge Knight", "Village Militia"] into ann.front-row\n'
             '    create "Steel Blade" into ann.hand\n    set active-player = ann\n    set ann.gold = 5\n'
             '    set marshaling-window-open = true\n  }\n')
    result = run(tmp_path, scenario(setup + '  ann tries marshal("Steel Blade")\n  ann chooses "Hedge Knight"'))
    assert result.status == "error"
    (found,) = result.diagnostics
    assert found.code == "C010" and found.span.line == 12       # the tries line
    assert found.hint == ("the options are: Hedge Knight, Village Militia; write the answer before the "
                          "'tries' line")


BELLS = '''
game t "T" { players 2 to 2 }
state { player zone table in-play  game counter rung = 0 }
card type thing { }
card "Bell" thing { ability "Ring" "At dusk" { set rung = rung * 10 + 1 } }
card "Bell Tower" thing { ability "Toll" "At dusk" { set rung = rung * 10 + 2 } }
rule 1 "Dusk" {
  text "At dusk the first player orders the abilities of every card on the tables."
  initiate "At dusk" abilities of cards-in-play ordered by first(players)
}
flow { run 1 }
'''


@pytest.mark.parametrize("order, rung", [('["Bell"]', 12), ('["Bell Tower"]', 21), ('["Bell Tower (Toll)"]', 21)])
def test_an_ability_is_named_by_its_cards_whole_title_not_by_a_title_it_begins(tmp_path, order, rung):
    """'Bell' names the Bell's ability, not also the Bell Tower's (another player's card, whose title
    begins the same): no ambiguity, and the Bell rings first."""
    rules = tmp_path / "t.ludex"
    rules.write_text(BELLS, encoding="utf-8")
    game = load_paths("t", [rules]).game
    result = run(tmp_path, scenario('  setup {\n    create "Bell" into ann.table\n    create "Bell Tower" into '
                                    f'bob.table\n  }}\n  ann orders {order}\n  run 1\n  expect rung == {rung}'), game)
    assert result.status == "passed", (result.failures, result.diagnostics)


MARSHALING = ('  setup {\n    create ["Hedge Knight", "Roadside Inn", "Steel Blade"] into ann.draw-deck\n'
              '    create ["Village Militia", "Knight\'s Shield", "Kingsroad Scout"] into bob.draw-deck\n'
              '    create "Quiet Days" into ann.revealed-plots\n    create "A Season of Plenty" into bob.revealed-plots\n'
              '    create "Hedge Knight" into bob.hand\n    set bob.gold = 4\n    set first-player = ann\n  }\n'
              '  ann passes\n  bob plays marshal("Hedge Knight")\n  bob passes\n  run 3.2\n')


def test_a_refused_play_no_expect_refused_accounts_for_fails_the_scenario_at_the_plays_line(tmp_path):
    """A script whose play is refused and taken back goes on as if it had been made: unless an
    'expect refused' after it says so, that is a failure at the play's line, not a silent pass."""
    silent = run(tmp_path, scenario(MARSHALING + '  expect size(bob.front-row) == 0'))
    assert silent.status == "failed"
    (failure,) = silent.failures
    assert failure.span.line == 13          # bob plays marshal("Hedge Knight")
    assert "no 'expect refused' after it" in failure.message
    assert failure.actual == ("bob tries marshal(Hedge Knight): refused by 3.2, Only the active player may marshal "
                              "cards. (p == active-player: bob == ann, false)")
    ruled = run(tmp_path, scenario(MARSHALING + '  expect refused 3.2\n  expect size(bob.front-row) == 0'))
    assert ruled.status == "passed", ruled.failures
    # an 'expect refused' accounts for the refusals before it, not for one after it
    late = run(tmp_path, scenario(MARSHALING + '  expect refused 3.2\n  bob tries marshal("Hedge Knight")'))
    assert [f.span.line for f in late.failures] == [17]      # the 'tries' line


MYERS_STALKS = '''scenario "s" {
  question "q"
  answer "a"
  cite myers-actions.stalk
  players mike, ann
  setup {
    set myers-player = mike
    create "Michael Myers" into myers-mat
    set michael.space = "E8"
    set michael.lines = ["E8"]
    create "Annie" into victims
    set bottom(victims).controller = ann
    set bottom(victims).space = "E1"
    set bottom(victims).facing = "north"
    create "Unstoppable" into myers-deck
  }
  mike passes
  mike plays stalk
  mike chooses "E9"
  mike chooses "stop"
  mike plays stalk
  mike chooses "stop"
  run myers-actions
  EXPECT
}
'''


def test_a_scenarios_trace_is_the_judges_view_of_the_hidden_moves(tmp_path):
    """A judge ruling on a game sees Myers' hidden moves: the trace a failure shows says where he went,
    marked hidden from the others, and 'expect trace' matches those words."""
    from ludex.scenarios.runner import render_failure
    halloween = load_game("halloween").game
    met = run(tmp_path, MYERS_STALKS.replace("EXPECT", 'expect trace myers-actions.stalk "mike chooses E9", '
                                             'myers-actions.stalk "Michael Myers\'s space: E8 -> E9"'), halloween)
    assert met.status == "passed", met.failures
    failed = run(tmp_path, MYERS_STALKS.replace("EXPECT", 'expect michael.space == "E1"'), halloween)
    report = render_failure(failed)
    assert "mike chooses E9 (hidden from the others)" in report, report
    assert "Michael Myers's space: E8 -> E9 (hidden from all but mike)" in report, report
    assert "hidden choice" not in report and "changes (hidden)" not in report, report
