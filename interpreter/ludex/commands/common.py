"""What the commands share: a game named on the command line loaded (a bundled game's key, or a
rules file or folder), a diagnostic as JSON, a player count or format checked, boards drawn.

In: the command line's words for a game. Out: a loaded game definition, or a usage error (exit 2)
or the rules' diagnostics (``SourceError``, exit 3).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from ..diagnostics import SourceError
from ..load import group_by_game, load_game, load_paths
from ..parse.definition import default_count, format_problem
from ..resources import bundled_games
from . import EXIT_USAGE


def diag_json(d) -> dict:
    return {"path": d.span.path, "line": d.span.line, "column": d.span.column, "code": d.code,
            "message": d.message, "rule": d.rule, "kind": d.kind, "expected": d.expected, "hint": d.hint}


def load_one(game: str):
    """A bundled game by key, or a rules file by path; exits with the diagnostics if it has errors."""
    loaded = loaded_one(game)
    if not loaded.ok:
        raise SourceError(loaded.diagnostics)
    return loaded.game


def loaded_one(game: str):
    """A bundled game by key, or a rules file or folder by path, loaded (its diagnostics with it); a
    name that is neither is a usage error."""
    path = Path(game)
    if path.suffix in (".log", ".scenario") and not path.is_dir():
        what = (f"a game log: replay it with 'ludex check-log GAME {path}'" if path.suffix == ".log" else
                f"a scenario file: run it with 'ludex check {path}', or ask it with 'ludex ask GAME {path}'")
        print(f"ludex: error: {path} is {what}; the game is a bundled game's name or its rules (.ludex)",
              file=sys.stderr)
        raise SystemExit(EXIT_USAGE)
    if path.suffix == ".ludex" or path.exists():
        if not path.exists():
            print(f"ludex: error: no such file: {path}", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        groups = group_by_game([path])
        if len(groups) != 1:
            # a folder holds the files of one game, or the command would have to pick one itself
            found = (f"the rules of several games ({', '.join(groups)}): give a folder of one game's files"
                     if groups else "no rules files (*.ludex)")
            print(f"ludex: error: the folder {path} holds {found}", file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        [(key, paths)] = groups.items()
        loaded = load_paths(key, paths)
    else:
        if game not in bundled_games():
            close = difflib.get_close_matches(game, bundled_games(), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            print(f"ludex: error: no bundled game '{game}'{hint}; games: {', '.join(bundled_games())}",
                  file=sys.stderr)
            raise SystemExit(EXIT_USAGE)
        loaded = load_game(game)
    return loaded


def show_boards(game, out, seat: str = "") -> None:
    """Draw each board with the cards that stand on it, and its legend: a card in a public zone whose
    attribute holds one of the board's spaces is drawn there by the first letters of its title; a
    hidden attribute only for the player ``seat`` who owns the card (its owner's secret)."""
    for name, board in game.boards.items():
        spaces = set(board.spaces)
        pieces, named = {}, {}
        for zone in game.state.all_zones():
            if zone.hidden:
                continue
            for card in zone.cards:
                for attr, value in card.attrs.items():
                    if (card.type, attr) in game.hidden_attributes and not (
                            seat and card.owner is not None and card.owner.name == seat):
                        continue
                    if isinstance(value, str) and value in spaces:
                        pieces[value] = card.title.replace(" ", "")[:3]
                        named[value] = (pieces[value], card.title)
        print(f"\n{name}:\n{board.picture(pieces)}\n{board.key(named)}", file=out)


def table_problem(gamedef, players, format) -> str:
    """What is wrong with a player count or a format asked for on the command line ("" if nothing);
    ``players`` None: as many as the format (or the game) has at fewest."""
    header = gamedef.header
    if players and header and not header.min_players <= players <= header.max_players:
        return f"{gamedef.key} is for {header.min_players} to {header.max_players} players"
    return format_problem(header, format, players or default_count(header, format))
