"""``ludex explain GAME [RULE | WORDS]``: a rule found and printed for a judge, or the rules listed.

In: the game's name (or words of its title) and the words. Out: what ``ludex.explain`` prints, and
the exit code.
"""

from __future__ import annotations

from pathlib import Path

from ..explain import explain, game_meant
from ..resources import bundled_games
from . import EXIT_USAGE
from .common import load_one


def cmd_explain(args) -> int:
    name = args.game
    if not (Path(name).suffix or Path(name).exists() or name in bundled_games()):
        name = game_meant(name)             # a game's key in any case, or words of its title
        if name is None:
            return EXIT_USAGE
    gamedef = load_one(name)
    return explain(gamedef, name, args.words, original=args.original, python=args.python)
