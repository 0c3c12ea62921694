"""Where the bundled grammar, rules and scenarios are: beside the package in a checkout or an
editable install, inside it (``ludex/_bundled``) in a wheel. And where computed files are
cached: in the user's cache folder, never in the package; none at all if that folder cannot be
made, or could be written by anyone but the user."""

from __future__ import annotations

import os
import stat
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
    """Where Ludex keeps what it computes once per grammar version (parse tables, Lark's analysis):
    ``$LUDEX_CACHE_DIR``, else the user's cache folder (``$XDG_CACHE_HOME/ludex``, ``~/.cache/ludex``,
    ``%LOCALAPPDATA%\\ludex`` on Windows). It may not exist: ``usable_cache_dir`` makes it."""
    chosen = os.environ.get("LUDEX_CACHE_DIR")
    if chosen:
        return Path(chosen)
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "ludex"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ludex"


def usable_cache_dir() -> Path | None:
    """The cache folder, made if missing (readable and writable by the user alone), or None if it
    cannot be made or is not the user's own: owned by someone else, or writable by group or others
    (whoever can write there could change what a later run parses with). Then nothing is cached."""
    folder = cache_dir()
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        else:
            os.chmod(folder, 0o700)          # whatever the umask
        status = os.stat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(status.st_mode):
        return None
    if hasattr(os, "getuid") and (status.st_uid != os.getuid() or status.st_mode & 0o022):
        return None
    return folder


def prune(folder: Path, pattern: str, keep: int = 6) -> None:
    """Remove all but the ``keep`` newest files matching ``pattern`` from a cache folder: what older
    versions of a grammar left (a few stay: other checkouts may still use them)."""
    try:
        files = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass

