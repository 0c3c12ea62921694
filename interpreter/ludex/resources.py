"""Where the bundled grammar, rules and scenarios are: beside the package in a checkout or an
editable install, inside it (``ludex/_bundled``) in a wheel. And where computed files are
cached: in the user's cache folder, never in the package."""

from __future__ import annotations

import os
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _folder(name: str) -> Path:
    bundled = _PACKAGE / "_bundled" / name
    if bundled.is_dir():
        return bundled
    return _PACKAGE.parent.parent / name   # interpreter/ludex -> the checkout's top


def grammar_dir() -> Path:
    return _folder("grammar")


def rules_dir() -> Path:
    return _folder("rules")


def scenarios_dir() -> Path:
    return _folder("scenarios")


def bundled_games() -> list[str]:
    """The key of every bundled game: ``rules/<game>.ludex``, and any ``rules/<game>.<part>.ludex``
    files that join it."""
    return sorted({p.name.split(".", 1)[0] for p in rules_dir().glob("*.ludex")})


def cache_dir() -> Path:
    """Where Ludex keeps what it computes once per grammar version (parse tables, Lark's cache):
    ``$LUDEX_CACHE_DIR``, else the user's cache folder (``$XDG_CACHE_HOME/ludex``, ``~/.cache/ludex``,
    ``%LOCALAPPDATA%\\ludex`` on Windows). It may not exist or not be writable: callers carry on
    without it."""
    chosen = os.environ.get("LUDEX_CACHE_DIR")
    if chosen:
        return Path(chosen)
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "ludex"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ludex"


def prune(folder: Path, pattern: str, keep: int = 6) -> None:
    """Remove all but the ``keep`` newest files matching ``pattern`` from a cache folder: what older
    versions of a grammar left (a few stay: other checkouts may still use them)."""
    try:
        files = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
