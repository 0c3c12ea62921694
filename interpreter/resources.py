"""Where the bundled grammar, rules and scenarios are: beside the package in a checkout or an
editable install, inside it (``interpreter/_bundled``) in a wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _folder(name: str) -> Path:
    bundled = _PACKAGE / "_bundled" / name
    if bundled.is_dir():
        return bundled
    return _PACKAGE.parent / name


def grammar_dir() -> Path:
    return _folder("grammar")


def rules_dir() -> Path:
    return _folder("rules")


def scenarios_dir() -> Path:
    return _folder("scenarios")


def bundled_games() -> list[str]:
    """The key of every bundled game: one ``rules/<game>.ludex`` file each."""
    return sorted(p.stem for p in rules_dir().glob("*.ludex"))
