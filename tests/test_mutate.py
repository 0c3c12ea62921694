"""``ludex mutate``: the mutants of each rule (one operator at a time, on small rules), the report of a
small game (``golden/mutate/tiny.txt``), the cache of results (a second run runs nothing; a changed
scenario runs again; a damaged file is not read) and the equivalent-mutant comment.

The game is ``tests/games/mutate/``: its rules and its scenarios, small enough to mutate in seconds.
The bundled games are mutated by ``ludex mutate GAME --jobs 2`` (minutes), not here.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import ludex as run

from ludex.compliance import mutation
from ludex.compliance.mutants import EQUIVALENT, equivalences, mutants_of, without_equivalences
from ludex.parse import ast as A
from ludex.parse.definition import assemble
from ludex.parse.syntax import parse_rules

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "games" / "mutate"
GOLDEN = ROOT / "tests" / "golden" / "mutate"

HEADER = """game t "T" { players 2 to 2 }
state {
  game counter pot = 0
  game counter rounds = 0
  role leader
  role follower
  player zone hand
  player zone deck
}
flow { run 1 }
"""


def game_of(body: str):
    text = HEADER + 'rule 1 "R" {\n' + body + "\n}\n"
    return assemble("t", [parse_rules(text, "t.ludex")]), text


def made(body: str, operator: str) -> list:
    """The lines each mutant of ``operator`` makes of ``body`` (the rule's own lines), stripped."""
    game, text = game_of(body)
    return [m.after for m in mutants_of(game, {"t.ludex": text}) if m.operator == operator]


def rule_after(body: str, after: str, before: str = ""):
    """The rule as the mutant making ``after`` of ``body`` (of its line ``before``) parses back."""
    game, text = game_of(body)
    (m,) = [m for m in mutants_of(game, {"t.ludex": text}) if m.after == after and m.before.startswith(before)]
    return parse_rules(m.apply(text), "t.ludex").items[-1]


# ------------------------------------------------------------------ the operators


@pytest.mark.parametrize("body, operator, expected", [
    ("if pot < 5 { win leader }", "negate", ["if not (pot < 5) { win leader }"]),
    ("if not (pot < 5) { win leader }", "negate", ["if pot < 5 { win leader }"]),
    ("while pot < 5 { increase pot by 1 }", "negate", ["while not (pot < 5) { increase pot by 1 }"]),
    ("set pot = if pot > 1 then 2 else 3", "negate", ["set pot = if not (pot > 1) then 2 else 3"]),
    ("if pot < 5 { win leader }", "compare", ["if pot <= 5 { win leader }"]),
    ("if pot <= 5 { win leader }", "compare", ["if pot < 5 { win leader }"]),
    ("if pot > 5 { win leader }", "compare", ["if pot >= 5 { win leader }"]),
    ("if pot >= 5 { win leader }", "compare", ["if pot > 5 { win leader }"]),
    ("if pot == 5 { win leader }", "compare", ["if pot != 5 { win leader }"]),
    ("if pot != 5 { win leader }", "compare", ["if pot == 5 { win leader }"]),
    ("if leader in players { win leader }", "compare", ["if leader not in players { win leader }"]),
    ("if leader not in players { win leader }", "compare", ["if leader in players { win leader }"]),
    ("if pot > 1 and rounds > 1 { win leader }", "logic", ["if pot > 1 or rounds > 1 { win leader }"]),
    ("if pot > 1 or rounds > 1 { win leader }", "logic", ["if pot > 1 and rounds > 1 { win leader }"]),
    ("set pot = pot + rounds", "arithmetic", ["set pot = pot - rounds"]),
    ("set pot = pot - rounds", "arithmetic", ["set pot = pot + rounds"]),
    ("increase pot by 2", "number", ["increase pot by 1", "increase pot by 3"]),
    ("increase pot by 0", "number", ["increase pot by 1"]),
    ("increase pot by 2\n  win leader", "drop", ["", ""]),
    ("set pot = if pot > 1 then 2 else 3", "swap-values", ["set pot = if pot > 1 then 3 else 2"]),
    ("win leader", "other-name", ["win follower"]),
    ("set pot = rounds", "other-name", ["set rounds = rounds", "set pot = pot"]),
    ("for each p in players { draw 1 from p.deck to p.hand }", "other-name",
     ["for each p in players { draw 1 from p.hand to p.hand }", "for each p in players { draw 1 from p.deck to p.deck }"]),
])
def test_each_operator_makes_its_one_line_change(body, operator, expected):
    assert made(body, operator) == expected


def test_a_let_is_never_dropped_and_a_statement_over_several_lines_is_not_dropped_whole():
    body = "let n = 2\n  if pot < n {\n    win leader\n  }"
    assert made(body, "drop") == [""]                   # the win alone: not the let, not the whole if


def test_a_mutant_parses_back_to_the_mutated_rule():
    rule = rule_after("if pot < 5 { win leader }", "if pot <= 5 { win leader }")
    (stmt,) = rule.body
    assert isinstance(stmt.branches[0][0], A.Binary) and stmt.branches[0][0].op == "<="
    rule = rule_after("if pot < 5 { win leader }", "if not (pot < 5) { win leader }")
    assert rule.body[0].branches[0][0].op == "not"
    rule = rule_after("increase pot by 2\n  win leader", "", "increase")
    assert [type(s).__name__ for s in rule.body] == ["Win"]


def test_a_mutant_is_named_by_its_rule_and_its_two_lines_not_by_its_place():
    game, text = game_of("increase pot by 2")
    (minus, plus) = [m for m in mutants_of(game, {"t.ludex": text}) if m.operator == "number"]
    moved, moved_text = game_of("\n\n  increase pot by 2")
    assert plus.key in {m.key for m in mutants_of(moved, {"t.ludex": moved_text})}
    assert plus.where() == "t.ludex:12" and plus.diff == "`increase pot by 2` -> `increase pot by 3`"


# ------------------------------------------------------------------ the equivalent-mutant comment


def test_the_equivalent_comment_names_the_two_lines_and_a_reason():
    m = EQUIVALENT.search("  # equivalent: `if pot < 5 {` -> `if pot <= 5 {`: the pot is never 5 here")
    assert m.groups() == ("if pot < 5 {", "if pot <= 5 {", "the pot is never 5 here")
    assert EQUIVALENT.search("# equivalent: `a` -> `b`") is None            # a reason is required
    game, text = game_of("# equivalent: `win leader` -> `win follower`: both win\n  win leader")
    (e,) = equivalences(game, {"t.ludex": text})
    assert (e.rule, e.before, e.after, e.reason) == ("1", "win leader", "win follower", "both win")


def test_the_results_do_not_depend_on_the_equivalent_comments():
    text = "rule 1 \"R\" {\n  # equivalent: `a` -> `b`: why\n  win leader  # equivalent: `c` -> `d`: why\n}"
    assert without_equivalences(text) == "rule 1 \"R\" {\n  win leader\n}"


# ------------------------------------------------------------------ a small game, the report and the cache


def tiny_paths(folder: Path = TINY):
    rules = [str(folder / "rules" / "tiny.ludex")]
    return rules, [str(p) for p in mutation.scenarios_of("tiny", rules)]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("LUDEX_CACHE_DIR", str(folder))
    return folder


def test_the_report_of_a_small_game(cache, monkeypatch, goldens):
    monkeypatch.chdir(ROOT)
    rules, scenarios = tiny_paths(Path("tests/games/mutate"))
    report = mutation.mutate("tiny", rules, scenarios)
    assert report["ran"] == 30 and report["cached"] == 0
    report.update(seconds=0.0, mutants_per_second=0.0)            # (the time taken is no part of the golden)
    goldens.check(GOLDEN / "tiny.txt", mutation.render_report(report) + "\n")
    totals = report["totals"]
    assert (totals["made"], totals["killed"], totals["survived"], totals["invalid"], totals["equivalent"]) == \
        (31, 13, 16, 1, 1)
    assert report["rules"]["1"]["pinned_by"] == ["tiny.scenario::Scoring adds two to a small pot"]


def test_a_second_run_runs_nothing_and_a_changed_scenario_runs_again(cache, tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(TINY, folder)
    rules, scenarios = tiny_paths(folder)
    first = mutation.mutate("tiny", rules, scenarios, rules=["2"])
    assert first["ran"] == 13 and first["cached"] == 0
    again = mutation.mutate("tiny", rules, scenarios, rules=["2"])
    assert again["ran"] == 0 and again["cached"] == 13 and again["rules"] == first["rules"]
    # another rule's mutants are run and kept beside the first's
    both = mutation.mutate("tiny", rules, scenarios, rules=["1", "2"])
    assert both["ran"] == 12 and both["cached"] == 13
    # a scenario changed: every result is made again
    path = Path(scenarios[0])
    path.write_text(path.read_text().replace("expect winner ann", "expect winner ann\n  expect no winner") , encoding="utf-8")
    changed = mutation.mutate("tiny", rules, scenarios, rules=["2"])
    assert changed["ran"] == 13 and changed["cached"] == 0


def test_marking_a_mutant_equivalent_runs_nothing_again(cache, tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(TINY, folder)
    rules, scenarios = tiny_paths(folder)
    first = mutation.mutate("tiny", rules, scenarios, rules=["2"])
    assert "`win follower` -> `win leader`" in [s["id"] for s in first["rules"]["2"]["survivors"]]
    path = Path(rules[0])
    path.write_text(path.read_text().replace(
        "    win follower\n", "    # equivalent: `win follower` -> `win leader`: a reason\n    win follower\n"),
        encoding="utf-8")
    marked = mutation.mutate("tiny", rules, scenarios, rules=["2"])
    assert marked["ran"] == 0
    row = marked["rules"]["2"]
    assert row["equivalent"] == 1 and row["survived"] == first["rules"]["2"]["survived"] - 1


def test_a_damaged_or_foreign_cache_file_is_not_read(cache):
    rules, scenarios = tiny_paths()
    mutation.mutate("tiny", rules, scenarios, rules=["0"])
    (path,) = cache.glob("mutants-tiny-*.json")
    data = json.loads(path.read_text())
    assert data["format"] == mutation.FORMAT and len(data["results"]) == 5
    for damaged in ("{not json", json.dumps({**data, "digest": "0" * 64}),
                    json.dumps({**data, "results": {k: {"status": "exploded"} for k in data["results"]}})):
        path.write_text(damaged)
        assert mutation.mutate("tiny", rules, scenarios, rules=["0"])["ran"] == 5
    assert not list(cache.glob(".mutants-*"))                 # no half-written file left


def test_the_command_with_jobs_gives_the_same_results_as_in_one_process(cache, capsys):
    rules, scenarios = tiny_paths()
    alone = mutation.mutate("tiny", rules, scenarios, rules=["1"], use_cache=False)
    code, out, err = run(["mutate", rules[0], "1", "--jobs", "2", "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["jobs"] == 2 and report["ran"] == 12 and report["rules"] == alone["rules"]
    code, out, err = run(["mutate", rules[0], "1"], capsys)
    assert code == 0 and re.search(r"in [0-9.]+ s \([0-9.]+ mutants/s, 1 job; 0 run, 12 from the cache\)", out)


def test_an_unknown_rule_is_a_usage_error(cache, capsys):
    code, out, err = run(["mutate", str(TINY / "rules" / "tiny.ludex"), "9"], capsys)
    assert code == 2 and "tiny has no rule 9" in err and "Traceback" not in err


def test_cached_results_alone_are_read_and_none_is_none(cache):
    rules, scenarios = tiny_paths()
    assert mutation.cached_report("tiny", rules, scenarios) is None
    mutation.mutate("tiny", rules, scenarios, rules=["1"])
    report = mutation.cached_report("tiny", rules, scenarios)
    assert report["rules"]["1"]["killed"] == 6 and report["rules"]["2"]["unknown"] == 13
    assert mutation.score_line(report["rules"]["1"]) == "pinned by 1 ruling, 6 of 12 mutants killed"


# ------------------------------------------------------------------ who reads the cached results


ODD_ROUNDS = "rounds.scenario::Odd rounds: the defending player takes the first turn"


def fake_report(rid: str, pinned: list) -> dict:
    row = {"made": 4, "killed": 4, "survived": 0, "invalid": 0, "equivalent": 0, "unknown": 0, "score": 100.0,
           "pinned_by": pinned, "survivors": [], "invalid_mutants": []}
    return {"game": "huntik", "totals": dict(row), "rules": {rid: row}, "unmatched_equivalences": []}


def test_explain_lists_the_rulings_that_pin_a_rule_first_then_those_citing_it_then_the_rest(monkeypatch, capsys):
    import ludex.explain
    monkeypatch.setattr(ludex.explain, "cached_report", lambda *a: fake_report("500.1c", [ODD_ROUNDS]))
    code, out, err = run(["explain", "huntik", "500.1c"], capsys)
    assert code == 0, err
    said = out[out.index("\nScenarios that exercise it:\n") + 1:].splitlines()
    assert said[1] == "  pinned by 1 ruling, 4 of 4 mutants killed (ludex mutate)"
    assert said[2].startswith("  pinning it") and "Odd rounds: the defending player" in said[3]
    assert said[4] == "  citing it:" and "Odd rounds" not in "\n".join(said[5:])
    assert any(line.startswith("  and ") and "more that pass through it: " in line for line in said)


def test_explain_without_cached_results_says_no_score(monkeypatch, capsys):
    import ludex.explain
    monkeypatch.setattr(ludex.explain, "cached_report", lambda *a: None)
    code, out, err = run(["explain", "huntik", "500.1c"], capsys)
    said = out[out.index("\nScenarios that exercise it:\n"):]
    assert code == 0 and "pinned by" not in said and "pinning it" not in said and "  citing it:" in said


def test_check_shows_a_mutation_column_only_with_cached_results(monkeypatch, capsys):
    import ludex.commands.scenario_runs as runs
    monkeypatch.setattr(runs, "cached_mutation", lambda loaded: None)
    code, out, err = run(["check", "huntik"], capsys)
    assert code == 0 and "mutation" not in out.splitlines()[0]
    monkeypatch.setattr(runs, "cached_mutation", lambda loaded: {"score": 90.2, "killed": 120})
    code, out, err = run(["check", "huntik", "--json"], capsys)
    assert code == 0 and json.loads(out)["games"]["huntik"]["mutation"]["score"] == 90.2
    code, out, err = run(["check", "huntik"], capsys)
    head, row = out.splitlines()[:2]
    assert head.split()[:6] == ["game", "rules", "scenarios", "failed", "coverage", "mutation"]
    assert row.split()[5] == "90.2%"


def test_the_site_puts_the_rulings_that_pin_a_rule_first_under_its_score(cache):
    from ludex.site.collect import collect_game
    from ludex.site.markup import Linker
    from ludex.site.pages import _rulings
    rules, scenarios = tiny_paths()
    assert collect_game("tiny", TINY / "rules", TINY / "scenarios").mutation is None     # none cached: none read
    mutation.mutate("tiny", rules, scenarios, rules=["1", "2"])
    game = collect_game("tiny", TINY / "rules", TINY / "scenarios")
    page = game.page_of["1"]
    html = _rulings(game, page, "1", game.runs_by_rule["1"], Linker(game, page))
    assert html.index("pinned by 1 ruling, 6 of 12 mutants killed") < html.index("Rulings that pin 1") \
        < html.index("Scoring adds two to a small pot")
    assert "Rulings on 1: the scenarios that cite it" not in html      # (its one citing ruling pins it)
