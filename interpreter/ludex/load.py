"""Load: rules files (or their texts) in, a checked ``GameDef`` (or every diagnostic found) out.

The pipeline for a game's rules, listed in one place: parse each file (parse/syntax.py), assemble
the declarations (parse/definition.py), check them (check/checks.py). A pass that found errors stops
the pipeline.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from glob import escape as glob_escape
from pathlib import Path

from .check.checks import check
from .diagnostics import Diagnostic, SourceError
from .parse.definition import GameDef, assemble, game_key_of
from .parse.syntax import parse_rules, parse_rules_file
from .resources import rules_dir


@dataclass
class Loaded:
    key: str
    paths: list
    game: GameDef | None = None
    diagnostics: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.diagnostics


def rule_files(key: str, folder: Path | None = None) -> list[Path]:
    folder = folder or rules_dir()
    return sorted(p for p in folder.glob("*.ludex") if game_key_of(p) == key)


def load_paths(key: str, paths: list[Path]) -> Loaded:
    return _assembled(Loaded(key, list(paths)), [lambda path=path: parse_rules_file(path) for path in paths])


def load_sources(key: str, sources: list[tuple[str, str]]) -> Loaded:
    """As ``load_paths``, from each file's path and text already read (a simulation's worker on
    another machine is sent the texts, not the files)."""
    return _assembled(Loaded(key, [Path(path) for path, _ in sources]),
                      [lambda path=path, text=text: parse_rules(text, path) for path, text in sources])


def _assembled(loaded: Loaded, parses: list) -> Loaded:
    """Parse each file (every file's errors are collected), then, if none had any, assemble and check."""
    modules = []
    for parse in parses:
        try:
            modules.append(parse())
        except SourceError as exc:
            loaded.diagnostics.extend(exc.diagnostics)
    if loaded.diagnostics:
        return loaded
    game = assemble(loaded.key, modules)
    loaded.game = game
    loaded.diagnostics.extend(check(game))
    return loaded


def load_game(key: str, folder: Path | None = None) -> Loaded:
    return load_paths(key, rule_files(key, folder))


def group_by_game(paths: list[Path]) -> dict[str, list[Path]]:
    """Rules files given on the command line, grouped into games by their file name. A file given
    brings its game's other files from its folder (``huntik.ludex`` and ``huntik.cards.ludex`` are one
    game, whichever is named); a file named twice, or also through its folder, is read once."""
    groups: dict[str, list[Path]] = {}
    seen: set = set()
    for path in paths:
        if path.is_dir():
            found = sorted(path.glob("*.ludex"))
        else:
            key = game_key_of(path)
            found = [path] + [p for p in sorted(path.parent.glob(f"{glob_escape(key)}.*ludex"))
                              if game_key_of(p) == key and p.suffix == ".ludex"]
        for p in found:
            where = os.path.realpath(p)
            if where not in seen:
                seen.add(where)
                groups.setdefault(game_key_of(p), []).append(p)
    return groups


def require_game(key: str) -> GameDef:
    loaded = load_game(key)
    if not loaded.ok:
        raise SourceError(loaded.diagnostics)
    return loaded.game


__all__ = ["Loaded", "load_game", "load_paths", "load_sources", "group_by_game", "require_game", "Diagnostic"]
