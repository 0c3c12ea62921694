"""The pytest plugin, tested with pytester: collection, ids, markers, failures a judge can read."""

import textwrap

RULES = '''
game mini "Mini" {
  source main "Mini rules" version "1"
  players 2 to 2
}
state { player counter gold = 0 min 0  role first-player }
rule 1 "Income" {
  text "Each player gains 2 gold."
  for each p in players { increase p.gold by 2 }
}
rule 2 "Spend" {
  text "The first player may spend 1 gold."
  window "Spending" starting with first-player { any number of spend }
  action spend "spend" by p {
    require p == first-player cite 2 "Only the first player may spend."
    require p.gold >= 1 cite 2 "No gold left."
    decrease p.gold by 1
  }
}
flow { run 1 run 2 }
'''

SCENARIOS = '''
scenario "Income is two" {
  question "How much gold does income give?"
  answer "Two (rule 1)."
  cite 1
  tags income
  players ann, bob
  run 1
  expect ann.gold == 2
}

scenario "Wrong on purpose" {
  question "Does income give three?"
  answer "This expectation is deliberately wrong."
  cite 1
  players ann, bob
  run 1
  expect bob.gold == 3
}

scenario "Bob may not spend" {
  question "Bob is not the first player. May he spend?"
  answer "No (rule 2)."
  cite 2
  tags legality
  players ann, bob
  setup { set first-player = ann  set bob.gold = 1 }
  ann passes
  bob plays spend()
  run 2
  expect refused 2 "Only the first player may spend."
}
'''


def make_project(pytester, scenarios=SCENARIOS):
    pytester.makefile(".ludex", **{"rules/mini": RULES})
    (pytester.path / "scenarios" / "mini").mkdir(parents=True)
    (pytester.path / "scenarios" / "mini" / "basics.scenario").write_text(textwrap.dedent(scenarios))


def test_collects_one_item_per_scenario_with_game_file_title_ids(pytester):
    make_project(pytester)
    result = pytester.runpytest("--collect-only", "-q", "scenarios")
    result.stdout.fnmatch_lines([
        "scenarios/mini/basics.scenario::Income is two",
        "scenarios/mini/basics.scenario::Wrong on purpose",
        "scenarios/mini/basics.scenario::Bob may not spend",
    ])


def test_passing_and_failing_scenarios_and_a_readable_failure(pytester):
    make_project(pytester)
    result = pytester.runpytest("scenarios")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*_ mini/basics.scenario::Wrong on purpose _*"])
    result.stdout.fnmatch_lines([
        "*scenario \"Wrong on purpose\" failed*",
        "*basics.scenario:18:10: error?C100?: expectation not met*",
        "*expect bob.gold == 3*",
        "*expected: bob.gold == 3*",
        "*actual:   bob.gold is 2*",
        "*?1?*bob's gold: 0 -> 2*",
    ])


def test_tags_become_markers(pytester):
    make_project(pytester)
    result = pytester.runpytest("scenarios", "-m", "legality")
    result.assert_outcomes(passed=1, deselected=2)


def test_a_scenario_citing_a_missing_rule_is_a_collection_error_with_position(pytester):
    make_project(pytester, SCENARIOS.replace("cite 2\n", "cite 9\n"))
    result = pytester.runpytest("scenarios")
    result.stdout.fnmatch_lines(["*basics.scenario:*: error?C001?: scenario cites rule 9, which does not exist*"])
    assert result.ret != 0


def test_an_unscripted_decision_names_the_rule_and_the_options(pytester):
    make_project(pytester, SCENARIOS.replace("  ann passes\n", ""))
    result = pytester.runpytest("scenarios", "-k", "spend")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*rule 2 asks ann to decide*", "*the options are: pass*"])


def test_collection_order_is_deterministic(pytester):
    make_project(pytester)
    first = pytester.runpytest("--collect-only", "-q", "scenarios").stdout.lines
    second = pytester.runpytest("--collect-only", "-q", "scenarios").stdout.lines
    assert [l for l in first if "::" in l] == [l for l in second if "::" in l]


def test_expect_trace_with_words_checks_the_order_of_events_within_a_rule(pytester):
    make_project(pytester, '''
    scenario "Ann gains before Bob" {
      question "In what order do the players gain?"
      answer "In player order: Ann, then Bob (rule 1)."
      cite 1
      players ann, bob
      run 1
      expect trace 1 "ann's gold: 0 -> 2", 1 "bob's gold: 0 -> 2"
    }

    scenario "Bob before Ann, wrongly" {
      question "Does Bob gain first?"
      answer "This expectation is deliberately wrong."
      cite 1
      players ann, bob
      run 1
      expect trace 1 "bob's gold", 1 "ann's gold"
    }
    ''')
    result = pytester.runpytest("scenarios")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*the trace does not have these events in this order*",
        "*actual:   no event cites 1 saying \"ann's gold\" after the one matching 1 \"bob's gold\"*",
    ])


def test_a_refused_play_is_taken_back_when_the_script_has_another_choice_for_the_player(pytester):
    make_project(pytester, '''
    scenario "Refused, then another choice" {
      question "Bob, not the first player, tries to spend; what then?"
      answer "The play is refused (rule 2) and taken back; Bob passes instead and the window closes."
      cite 2
      players ann, bob
      setup { set first-player = ann  set bob.gold = 1 }
      ann passes
      bob plays spend()
      bob passes
      run 2
      expect refused 2 "Only the first player may spend."
      expect bob.gold == 1
      expect trace 2 "bob tries spend: refused by 2, Only the first player may spend.", 2 "bob passes", 2 "closes"
    }
    ''')
    result = pytester.runpytest("scenarios")
    result.assert_outcomes(passed=1)


def test_scenarios_in_a_folder_that_names_no_game_are_a_collection_error_not_skipped(pytester):
    make_project(pytester)
    (pytester.path / "scenarios" / "minni").mkdir()
    (pytester.path / "scenarios" / "minni" / "typo.scenario").write_text(textwrap.dedent(SCENARIOS))
    result = pytester.runpytest("scenarios")
    result.stdout.fnmatch_lines([
        "*typo.scenario:1:1: error?C019?: this scenario is in the folder 'minni', which names no game*",
        "*help: did you mean mini? the games are mini*"])
    assert result.ret != 0


INCOME_RULES = '''
game mini "Mini" {
  source main "Mini rules" version "1"
  players 2 to 2
}
state { player counter gold = 0 min 0 }
rule 1 "Income" {
  text "Each player gains 2 gold."
  for each p in players { increase p.gold by 2 }
}
flow { run 1 }
'''


def test_the_pytest_option_prints_the_trace_of_every_scenario(pytester):
    pytester.makefile(".ludex", **{"rules/mini": INCOME_RULES})
    (pytester.path / "scenarios" / "mini").mkdir(parents=True)
    (pytester.path / "scenarios" / "mini" / "income.scenario").write_text(textwrap.dedent('''
        scenario "Income is two" {
          players ann, bob
          run 1
          expect ann.gold == 2
        }
        '''))
    quiet = pytester.runpytest("scenarios")
    quiet.assert_outcomes(passed=1)
    assert "bob's gold: 0 -> 2" not in quiet.stdout.str()
    traced = pytester.runpytest("scenarios", "--ludex-trace")
    traced.assert_outcomes(passed=1)
    traced.stdout.fnmatch_lines(["*ludex traces*", "scenarios/mini/income.scenario::Income is two",
                                 "*passed, 2 events:*", "*?1?*ann's gold: 0 -> 2", "*?1?*bob's gold: 0 -> 2"])


def test_a_failure_report_shows_the_whole_trace_with_the_failing_point_marked(pytester):
    pytester.makefile(".ludex", **{"rules/mini": INCOME_RULES.replace("flow { run 1 }", '''
rule 2 "Tally" {
  text "Twelve more events."
  for each p in players { increase p.gold by 1  increase p.gold by 1  increase p.gold by 1
    increase p.gold by 1  increase p.gold by 1  increase p.gold by 1 }
}
flow { run 1 run 2 }''')})
    (pytester.path / "scenarios" / "mini").mkdir(parents=True)
    (pytester.path / "scenarios" / "mini" / "income.scenario").write_text(textwrap.dedent('''
        scenario "Wrong at first" {
          players ann, bob
          run 1
          expect ann.gold == 3
          run 2
        }
        '''))
    result = pytester.runpytest("scenarios")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*the trace (14 events; '>>>' marks where a failure was found):*",
                                 "*1 ?1?*ann's gold: 0 -> 2", "*2 ?1?*bob's gold: 0 -> 2",
                                 "*>>> line 5: expectation not met", "*3 ?2?*ann's gold: 2 -> 3",
                                 "*14 ?2?*bob's gold: 7 -> 8"])
