"""``ludex explain``: how a judge finds a rule at the terminal and reads it, text as corrected.

``golden/explain/NAME.out``: what ``ludex explain ...`` prints (run in-process through
``ludex.cli.main``), its exit code, standard output and standard error; a rule's output is kept up to
its transcription (the rules file's lines and the scenarios that exercise it are tested apart, and
change with every scenario added). ``pytest --update-goldens`` rewrites them for review.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ludex as run
from conftest import relative

from ludex.load import load_game
from ludex.lookup import game_titles, games_named, rule_tree, search
from ludex.resources import bundled_games

GOLDEN = Path(__file__).resolve().parent / "golden" / "explain"
AGOT_RULES = Path(__file__).resolve().parent.parent / "rules" / "agot.ludex"
ERRATA_GAME = str(GOLDEN / "errata.ludex")




CASES = {
    "tree_huntik": ["explain", "huntik"],
    "tree_agot_by_title_word": ["explain", "thrones"],
    "rule_agot_1.3_as_corrected": ["explain", "agot", "1.3"],
    "rule_agot_1.3_original": ["explain", "agot", "1.3", "--original"],
    "rule_huntik_500_lists_its_sub_rules": ["explain", "huntik", "500"],
    "rule_huntik_500.1C_in_upper_case": ["explain", "huntik", "500.1C"],
    "rule_two_errata_marked_by_number": ["explain", ERRATA_GAME, "1"],
    "rule_two_errata_original": ["explain", ERRATA_GAME, "1", "--original"],
    "search_huntik_initiative_one_rule": ["explain", "huntik", "initiative"],
    "search_agot_reveal_plots_by_title": ["explain", "agot", "reveal", "plots"],
    "search_agot_plot_titles_above_text": ["explain", "agot", "plot"],
    "search_agot_published_words": ["explain", "agot", "reserve", "modifiers"],
    "search_halloween_move_whole_words_first": ["explain", "halloween", "move"],
    "search_huntik_number_and_word": ["explain", "huntik", "500", "turns"],
    "search_no_match_suggests_words": ["explain", "agot", "initiatve"],
    "unknown_id_suggests_its_parent_and_siblings": ["explain", "agot", "1.9"],
    "unknown_id_with_nothing_near": ["explain", "agot", "99.9"],
    "game_title_word_in_several_games": ["explain", "card", "1"],
    "game_named_nowhere": ["explain", "xyz", "1"],
    "python_needs_a_rule": ["explain", "huntik", "--python"],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_explain_golden(name, capsys, goldens):
    argv = CASES[name]
    code, out, err = run(argv, capsys)
    assert "Traceback" not in err
    if "\nTranscription:\n" in out:
        assert "\nScenarios that exercise it:\n" in out
        out = out[:out.index("\nTranscription:\n")] + "\nTranscription: ... (not kept here)\n"
    shown = [relative(a) if a == ERRATA_GAME else a for a in argv]
    goldens.check(GOLDEN / f"{name}.out",
                  f"$ ludex {' '.join(shown)}\nexit {code}\n--- stdout\n{out}--- stderr\n{err}")


def test_a_title_word_finds_the_same_game_as_its_key(capsys):
    assert run(["explain", "thrones", "1.3"], capsys) == run(["explain", "agot", "1.3"], capsys)
    assert run(["explain", "Thrones", "3"], capsys) == run(["explain", "AGOT", "3"], capsys)


@pytest.mark.parametrize("name, keys", [
    ("thrones", ["agot"]), ("THRONES", ["agot"]), ("throne", ["agot"]), ("game of thrones", ["agot"]),
    ("christmas", ["nightmare"]), ("Huntik", ["huntik"]), ("board", ["halloween"]),
    ("card", ["agot", "huntik", "nightmare"]), ("thr", []), ("xyz", []), ("", []),
])
def test_a_game_is_found_from_its_key_or_the_words_of_its_title(name, keys):
    assert games_named(name, game_titles()) == keys


def test_explain_python_takes_the_one_rule_the_words_name(capsys):
    code, out, err = run(["explain", "huntik", "initiative", "--python"], capsys)
    assert code == 0 and err == ""
    assert out.startswith('# The one rule that matches "initiative":\n\n# 500.1d ')
    compile(out, "explain", "exec")          # still Python: the line that says why is a comment


def test_python_and_original_do_not_go_together(capsys):
    code, _, err = run(["explain", "agot", "1.3", "--python", "--original"], capsys)
    assert code == 2 and "not allowed with argument" in err


def test_a_rule_shows_its_transcription_and_scenarios(capsys):
    code, out, _ = run(["explain", "agot", "1.3"], capsys)
    assert code == 0
    erratum = '  erratum faq "1.0" replaces "reserve modifiers" with "initiative modifiers"'
    # the line number explain prints is the rules file's own (comments above it move it)
    line = AGOT_RULES.read_text(encoding="utf-8").splitlines().index(erratum) + 1
    assert f"{line:>6} | {erratum}" in out
    assert "[passed] plot-phase.scenario:" in out and "FAQ erratum" in out


@pytest.mark.parametrize("game", bundled_games())
def test_the_tree_lists_every_rule_once_under_its_parent(game):
    gamedef = load_game(game).game
    tree = rule_tree(gamedef)
    assert sorted(rid for _, rid in tree) == sorted(gamedef.rules)
    for (depth, rid), before in zip(tree[1:], tree):
        assert depth <= before[0] + 1
        if depth:
            parent = next(r for d, r in reversed(tree[:tree.index((depth, rid))]) if d == depth - 1)
            assert gamedef.parent_of(rid) == parent


def test_a_title_hit_ranks_above_a_text_hit_and_a_note_below_both():
    found = search(load_game("huntik").game, ["turn"])
    assert [(m.rule, m.strong, m.where) for m in found] == [
        ("500.2", True, ""), ("500.1c", False, "text"), ("500.1d", False, "note"), ("701", False, "note")]
    assert "first turn" in found[1].snippet and found[1].snippet.startswith("…")
