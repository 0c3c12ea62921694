"""The playground's files: the built site's games and the ludex package in, what the browser needs to
answer a question with the real engine out (``ludex ask --json``, run by Pyodide in a Web Worker).

    playground/pyodide/...     Pyodide, copied from the npm package ``pyodide`` (site/package.json)
    playground/ludex.zip       the ludex package and lark as source, the grammar, Lark's analysis of it
                               and .pyc files, both made by running Pyodide under node (runtime/prepare.mjs)
    playground/games/GAME.json each game's rules files, as text
    playground/worker.js       the worker: loads the above on the first question, then answers
    ludex-sw.js                the service worker: after one visit, the playground works offline

``ludex.zip`` depends only on the package, lark and Pyodide: it is made once per version of them and
kept in the user's cache folder (``resources.usable_cache_dir``). Without node, or without the npm
package, there is no playground: ``files`` says why in one line and the site is built without it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path
from typing import Optional

import lark

from ..resources import grammar_dir, usable_cache_dir

_PACKAGE = Path(__file__).resolve().parent
RUNTIME = _PACKAGE / "runtime"
#: What of the npm package the browser loads (no console pages, no type declarations, no source maps).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: The package's folders the browser does not need: the site builder itself.
_LEFT_OUT = {"site", "__pycache__"}


def staging_zip() -> bytes:
    """The ludex package (without the site builder), the grammar where the package finds it
    (``ludex/_bundled/grammar``) and lark, as source, in a zip with fixed timestamps: the same
    sources make the same bytes."""
    ludex = _PACKAGE.parent
    entries = []
    for path in sorted(ludex.rglob("*.py")):
        rel = path.relative_to(ludex)
        if not _LEFT_OUT & set(rel.parts[:-1]):
            entries.append((f"ludex/{rel.as_posix()}", path))
    for path in sorted(grammar_dir().glob("*.lark")):
        entries.append((f"ludex/_bundled/grammar/{path.name}", path))
    lark_dir = Path(lark.__file__).resolve().parent
    for path in sorted(lark_dir.rglob("*")):
        rel = path.relative_to(lark_dir)
        if path.is_file() and "__pycache__" not in rel.parts and path.suffix in (".py", ".lark", ".typed"):
            entries.append((f"lark/{rel.as_posix()}", path))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        # where the engine finds a bundled game's rules: the worker writes them there
        z.writestr(zipfile.ZipInfo("ludex/_bundled/rules/", date_time=(2020, 1, 1, 0, 0, 0)), b"")
        for name, path in entries:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, path.read_bytes())
    return buf.getvalue()


def files(pyodide: Optional[Path], games: list, warm: Optional[dict]) -> tuple[dict, str]:
    """The playground's files (site path -> bytes or text), or ``({}, why)`` when it cannot be had.
    ``pyodide``: the npm package's folder; ``warm``: a game's rules and a question to run once at
    build time (``{"game", "files", "question"}``), so that its analysis is made then."""
    if pyodide is None or not (pyodide / "pyodide.asm.wasm").is_file():
        return {}, "the npm package pyodide is not installed (npm ci in site/)"
    node = shutil.which("node")
    if node is None:
        return {}, "node is not installed (apt-get install nodejs)"
    version = json.loads((pyodide / "package.json").read_text(encoding="utf-8")).get("version", "?")
    staging = staging_zip()
    digest = hashlib.sha256(staging + version.encode() + (RUNTIME / "prepare.mjs").read_bytes()).hexdigest()[:16]
    archive, problem = _archive(node, pyodide, staging, digest, warm)
    if archive is None:
        return {}, problem
    out: dict = {f"playground/pyodide/{name}": (pyodide / name).read_bytes() for name in PYODIDE_FILES}
    out["playground/ludex.zip"] = archive
    out["playground/worker.js"] = (RUNTIME / "worker.js").read_text(encoding="utf-8")
    build_id = hashlib.sha256(archive + version.encode()).hexdigest()[:12]
    for game in games:
        if game.game is None:
            continue
        rules = {p.name: p.read_text(encoding="utf-8") for p in game.loaded.paths}
        text = json.dumps({"game": game.key, "files": rules}, ensure_ascii=True, sort_keys=True)
        out[f"playground/games/{game.key}.json"] = text
        build_id = hashlib.sha256((build_id + text).encode()).hexdigest()[:12]
    sw = (RUNTIME / "sw.js").read_text(encoding="utf-8")
    out["ludex-sw.js"] = sw.replace("__BUILD__", build_id)
    return out, ""


def _archive(node: str, pyodide: Path, staging: bytes, digest: str, warm: Optional[dict]) -> tuple:
    """``ludex.zip``: from the cache folder, else made now by Pyodide under node (and kept there)."""
    cache = usable_cache_dir()
    kept = cache / f"playground-{digest}.zip" if cache is not None else None
    if kept is not None and kept.is_file():
        return kept.read_bytes(), ""
    if warm is None:
        return None, "no game checks, so there is no question to prepare the playground with"
    with tempfile.TemporaryDirectory(prefix="ludex-playground-") as tmp:
        t = Path(tmp)
        (t / "staging.zip").write_bytes(staging)
        (t / "warm.json").write_text(json.dumps(warm), encoding="utf-8")
        try:
            done = subprocess.run([node, str(RUNTIME / "prepare.mjs"), str(pyodide), str(t / "staging.zip"),
                                   str(t / "warm.json"), str(t / "ludex.zip")],
                                  capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"preparing it with node failed: {exc}"
        if done.returncode != 0 or not (t / "ludex.zip").is_file():
            said = (done.stderr or done.stdout).strip().splitlines()
            return None, "preparing it with node failed" + (f": {said[-1]}" if said else "")
        data = (t / "ludex.zip").read_bytes()
    if kept is not None:
        part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
        part.write_bytes(data)
        part.replace(kept)
    return data, ""
