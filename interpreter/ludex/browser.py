"""The rules site's playground, the Python side: run in the browser by Pyodide (the site's
``playground/worker.js``), never by the command line.

In: a game's rules files as text (written once into the package's bundled rules folder, where the
engine finds a bundled game) and a question's text as the judge edited it. Out: the answer as JSON
text, exactly what ``ludex ask --json`` prints (``scenarios/answer.py``), with, when the question
does not check or an error stops a run, its diagnostics rendered as the command line renders them
(``"rendered"``). The question is data: it is parsed, never run as code.
"""

from __future__ import annotations

import json
from functools import lru_cache

from .diagnostics import render_all
from .load import load_game
from .resources import rules_dir
from .scenarios.answer import ask


def put_rules(game: str, files: dict) -> None:
    """Write a game's rules files (name -> text) where the engine looks for a bundled game."""
    folder = rules_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        if "/" in name or "\\" in name or not name.endswith(".ludex") or name.startswith("."):
            raise ValueError(f"not a rules file's name: {name!r}")
        (folder / name).write_text(text, encoding="utf-8")
    _game.cache_clear()


@lru_cache(maxsize=None)
def _game(key: str):
    """A game loaded once per worker: later questions start from it."""
    return load_game(key)


def answer_question(game: str, text: str, path: str = "question") -> str:
    """The answer to ``text`` as ``ludex ask GAME --json`` gives it, plus ``"rendered"``: the
    diagnostics as the command line prints them ("" if none); ``"exit"``: its exit status."""
    loaded = _game(game)
    if not loaded.ok:
        return json.dumps({"game": game, "source": path, "ok": False, "exit": 3, "scenarios": [],
                           "errors": [d.as_json() for d in loaded.diagnostics],
                           "rendered": render_all(loaded.diagnostics)})
    answer, status, diagnostics = ask(loaded.game, text, path)
    answer["exit"] = status
    answer["rendered"] = render_all(diagnostics) if diagnostics else ""
    return json.dumps(answer)
