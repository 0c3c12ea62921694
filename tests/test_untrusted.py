"""A rules file, its path and its names are data: what the code generator writes for them never runs
them. Each name below would run ``touch PWNED`` if it were spliced into the generated Python as text."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from ludex.cli import main
from ludex.resources import rules_dir

TESTS = Path(__file__).resolve().parent

BREAKOUTS = ['x"""; __import__("os").system("touch PWNED"); """y',
             "x'''; __import__('os').system('touch PWNED'); '''y",
             'x\\"; __import__("os").system("touch PWNED") #']


@pytest.mark.parametrize("folder", BREAKOUTS, ids=["triple-double", "triple-single", "escaped-quote"])
def test_a_rules_files_path_never_becomes_code(folder, tmp_path, monkeypatch, capsys):
    home = tmp_path / folder
    home.mkdir()
    shutil.copy(rules_dir() / "huntik.ludex", home / "huntik.ludex")
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(home / "huntik.ludex"), "--seed", "1"]) == 0
    assert "game over" in capsys.readouterr().out
    assert not (tmp_path / "PWNED").exists()


def test_a_card_title_and_a_prompt_never_become_code(tmp_path, monkeypatch, capsys):
    """Titles and texts of a rules file reach the generated code as constants or ``repr()`` literals."""
    breakout = '"""; __import__("os").system("touch PWNED"); """'
    source = (rules_dir() / "huntik.ludex").read_text(encoding="utf-8")
    title = source.split('card "', 1)[1].split('"', 1)[0]
    home = tmp_path / "game"
    home.mkdir()
    (home / "huntik.ludex").write_text(source.replace(f'"{title}"', '"' + breakout.replace('"', "'") + '"'),
                                       encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(home / "huntik.ludex"), "--seed", "1"]) == 0
    assert "__import__" in capsys.readouterr().out      # the title, played and traced as it is
    assert not (tmp_path / "PWNED").exists()


#: Said in every kind of string the generated code carries (a rule's title and text, a note, a
#: requirement's message, a question asked): each quote, an f-string's braces, a backslash, a comment.
SAID = "{__import__('os').system('touch PWNED')} ''' \\\" \\\\ # touch PWNED"


def _saying(source: str) -> str:
    """Tally's rules with the breakout said in its titles, texts, notes, messages, questions and choices'
    prompts."""
    source = re.sub(r'^(rule \S+ ")', lambda m: m.group(1) + SAID, source, flags=re.M)
    source = re.sub(r'(\bnote "|\bcite \S+ "|\bmay ")', lambda m: m.group(1) + SAID, source)
    # a choice's question, said in the trace after its answer
    source = re.sub(r'(\b(?:chooses|orders) [^"\n]* ")', lambda m: m.group(1) + SAID, source)
    return re.sub(r'(\btext "(?!""))', lambda m: m.group(1) + SAID, source)


def test_titles_texts_messages_and_questions_never_become_code(tmp_path, monkeypatch, capsys):
    source = _saying((TESTS / "games" / "tally.ludex").read_text(encoding="utf-8"))
    assert source.count("touch PWNED") > 20
    (tmp_path / "tally.ludex").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for seed in ("1", "2", "3"):
        assert main(["run", str(tmp_path / "tally.ludex"), "--seed", seed, "--players", "3"]) == 0
        out = capsys.readouterr().out
        assert "game over" in out
    assert main(["explain", str(tmp_path / "tally.ludex"), "1.3", "--python"]) == 0
    assert "PWNED" in capsys.readouterr().out        # the message, held as a constant or a literal
    assert not (tmp_path / "PWNED").exists()
