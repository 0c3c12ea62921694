"""Build: the rules and scenarios in, the rules site out, in two plain steps.

1. ``generate`` writes Markdown pages (and the site's small assets) into a generated folder, by default
   ``site/docs/`` (git-ignored): a home page, per game an overview, rule pages in the source's order,
   a page per scenario file and a coverage page, and the language guide; and, as plain HTML that MkDocs
   copies as it is, a short link per rule (``GAME/RULE/index.html``, which leads to the rule).
2. ``build`` runs MkDocs (Material theme) on them with the configuration in ``site/mkdocs.yml`` and
   the navigation computed in step 1, into ``site/build/`` (git-ignored); with ``zip_to``, it packs the
   site into a zip a judge can carry and open from disk.

The site works opened from disk, search included, through Material's ``offline`` plugin. On ``file://``
that plugin needs a small worker shim, the npm package ``iframe-worker`` pinned in ``site/package.json``;
the build installs it with ``npm ci`` when node is present and copies it into the site (without it the
plugin points to a copy online, and says so in a warning).

The playground (``playground.py``): each scenario's "Edit and run" and each game's "Ask a question"
page answer a question with the real engine in the browser, from Pyodide (the npm package ``pyodide``,
installed by the same ``npm ci``) and an archive of the package made with node. Without node, the site
is built without them, and a warning says so in one line.

No MkDocs hook or plugin generates anything: MkDocs only sees finished Markdown.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import posixpath
import re
import shutil
import subprocess
import threading
import time
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Optional

try:                      # POSIX: two builds at once (pytest -n 2) run npm ci one after the other
    import fcntl
except ImportError:       # pragma: no cover - Windows
    fcntl = None

from .. import __version__
from ..resources import rules_dir as _rules_dir
from ..resources import scenarios_dir as _scenarios_dir
from . import playground as _playground
from .collect import collect, rule_label
from .guide import guide_pages
from .markup import esc, page_url, paragraphs
from .pages import (
    ask_page,
    coverage_page,
    game_index,
    home_page,
    question_template,
    referred_by_map,
    rule_page,
    scenario_page,
)

_PACKAGE = Path(__file__).resolve().parent
ASSETS = _PACKAGE / "assets"


def config_file() -> Path:
    """``site/mkdocs.yml``: in the checkout, or bundled inside the package in a wheel."""
    bundled = _PACKAGE.parent / "_bundled" / "site" / "mkdocs.yml"
    return bundled if bundled.is_file() else _PACKAGE.parent.parent.parent / "site" / "mkdocs.yml"


def docs_source() -> Optional[Path]:
    """``docs/`` (language.md, scenarios.md), for the language guide."""
    for candidate in (_PACKAGE.parent / "_bundled" / "docs", _PACKAGE.parent.parent.parent / "docs"):
        if candidate.is_dir():
            return candidate
    return None


def default_out() -> Path:
    """``site/`` beside the configuration in a checkout; ``./ludex-site`` otherwise."""
    cfg = config_file()
    if cfg.parent.name == "site" and "_bundled" not in cfg.parts:
        return cfg.parent
    return Path.cwd() / "ludex-site"


@dataclass
class Generated:
    games: list
    pages: dict                       # path relative to docs_dir -> Markdown
    nav: list
    docs_dir: Path
    written: int = 0                  # files changed on disk
    warnings: list = field(default_factory=list)
    polyfills: list = field(default_factory=list)   # scripts before Material's (the worker shim)
    playground: bool = False          # the scenario pages' "Edit and run" and the "Ask a question" pages


@dataclass
class Report:
    generated: Generated
    site_dir: Path
    seconds_generate: float = 0.0
    seconds_mkdocs: float = 0.0
    index_bytes: int = 0
    warnings: list = field(default_factory=list)
    zip_path: Optional[Path] = None

    @property
    def seconds(self) -> float:
        return self.seconds_generate + self.seconds_mkdocs


# ------------------------------------------------------------------ step 1: Markdown


def generate(docs_dir: Path, rules: Optional[Path] = None, scenarios: Optional[Path] = None,
             docs_src: Optional[Path] = None, now: Optional[_dt.datetime] = None) -> Generated:
    rules, scenarios = _inputs(rules, scenarios)
    games = collect(rules, scenarios)
    now = now or _dt.datetime.now(_dt.timezone.utc)
    warnings, polyfills = [], []
    shim, problem = worker_shim(Path(docs_dir).parent)
    if shim is None:
        warnings.append(f"opened from disk, the search will fetch its worker shim online: {problem}")
    templates = {g.key: question_template(g) for g in games if g.game is not None}
    pyodide, problem = npm_package(Path(docs_dir).parent, "pyodide")
    runtime, problem = _playground.files(pyodide, games, _warm(games, templates)) if pyodide else ({}, problem)
    if problem:
        warnings.append(f"the site is built without the playground: {problem}")
    played = bool(runtime)
    pages: dict = {"index.md": home_page(games, now, __version__)}
    for game in games:
        pages[game.index_page] = game_index(game, played)
        if game.game is None:
            continue
        back = referred_by_map(game)
        for page in game.pages:
            pages[page.page] = rule_page(game, page, back)
        for sf in game.files:
            pages[sf.page] = scenario_page(game, sf, played)
        pages[game.coverage_page] = coverage_page(game)
        if played:
            pages[game.ask_page] = ask_page(game, templates[game.key])
    pages.update(guide_pages(games, docs_src if docs_src is not None else docs_source()))
    files: dict = dict(pages)
    files["assets/ludex-rules.js"] = rules_js(games) + ("window.LUDEX_PLAYGROUND = true;\n" if played else "")
    files["assets/ludex-previews.js"] = previews_js(games)
    for asset in sorted(ASSETS.iterdir()):
        if asset.is_file():
            files[f"assets/{asset.name}"] = asset.read_text(encoding="utf-8")
    files.update(short_links(games))
    files.update(runtime)
    if shim is not None:
        files[SHIM] = shim
        polyfills.append(SHIM)
    written = _write_tree(Path(docs_dir), files)
    return Generated(games, pages, navigation(games, played), Path(docs_dir), written, warnings, polyfills, played)


def _warm(games: list, templates: dict) -> Optional[dict]:
    """A game's rules and a question, for the playground's runtime to answer once as it is made."""
    for game in games:
        if game.game is not None:
            return {"game": game.key, "question": templates[game.key],
                    "files": {p.name: p.read_text(encoding="utf-8") for p in game.loaded.paths}}
    return None


def _inputs(rules, scenarios):
    """The bundled rules and scenarios by default; for other rules, the scenarios beside them."""
    if rules is None:
        return _rules_dir(), Path(scenarios) if scenarios else _scenarios_dir()
    rules = Path(rules)
    if scenarios is None and (rules.parent / "scenarios").is_dir():
        scenarios = rules.parent / "scenarios"
    return rules, Path(scenarios) if scenarios else None


def navigation(games: list, playground: bool = False) -> list:
    """The navigation, in the sources' order. Titles are HTML-escaped here: MkDocs and Material print
    navigation and page titles as they are, and these come from rules and scenario files."""
    nav: list = [{"Home": "index.md"}]
    for game in games:
        children: list = [{esc(game.title): game.index_page}]
        if game.pages:
            children.append({"Rules": [{esc(p.title): p.page} for p in game.pages]})
        if game.files:
            children.append({"Scenarios": [{esc(f.name): f.page} for f in game.files]})
        if game.game is not None:
            children.append({"Coverage": game.coverage_page})
            if playground:
                children.append({"Ask a question": game.ask_page})
        nav.append({esc(game.title): children})
    nav.append({"Language guide": ["guide/language.md", "guide/scenarios.md", "guide/boards.md",
                                   "guide/builtins.md"]})
    return nav


def rules_js(games: list) -> str:
    """Every rule's page and title, for the search's jump to a rule number and the 404 page's nearest
    rules (assets/ludex.js)."""
    data = {}
    for game in games:
        if game.game is None:
            continue
        rules = {}
        for rid, rule in game.game.rules.items():
            page = game.page_of.get(rid)
            if page:
                rules[rid] = [f"{page_url(page)}#r{rid}", rule.title, 1 if rule.outside else 0]
        data[game.key] = {"title": game.title, "url": page_url(game.index_page), "root": f"{game.key}/",
                          "rules": rules}
    return f"window.LUDEX_RULES = {_js(data)};\n"


#: A preview shows at most this many characters of a rule's text.
PREVIEW_CHARS = 700


def previews_js(games: list) -> str:
    """Every rule's words, for the preview a cross-reference shows on hover or tap (assets/ludex.js
    loads this file on the first one): per game, rule id -> [label, text, errata]. Plain text: the
    script puts it into the page as text, never as HTML."""
    data = {}
    for game in games:
        if game.game is None:
            continue
        g = game.game
        errata: dict = {}
        for rid, e, _ in g.errata:
            errata.setdefault(rid, []).append(f"Erratum: “{e.old}” now reads “{e.new}”.")
        rules = {}
        for rid, rule in g.rules.items():
            # the source's words; a rule outside the source has only the transcriber's note
            words = " ".join(p for d in rule.docs if d.kind == "text" for p in paragraphs(d.text)) or \
                " ".join(p for d in rule.docs[:1] for p in paragraphs(d.text))
            if len(words) > PREVIEW_CHARS:
                words = words[:PREVIEW_CHARS].rsplit(" ", 1)[0] + " …"
            rules[rid] = [rule_label(rule), words, errata.get(rid, [])]
        data[game.key] = rules
    return f"window.LUDEX_PREVIEWS = {_js(data)};\n"


def _js(data) -> str:
    return json.dumps(data, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/")


#: Where the worker shim goes in the site (mkdocs.yml's ``extra.polyfills`` points to it).
SHIM = "assets/iframe-worker-shim.js"
#: A rule id that can be a folder name: a number or a heading id (never "..", never a slash).
_SAFE_ID = re.compile(r"[a-z0-9]+(?:[.\-][a-z0-9]+)*")


def short_links(games: list) -> dict:
    """``GAME/RULE/index.html`` for every rule (``huntik/500.1c/``, ``agot/3.2/``): a page that leads to
    the rule at once, served or opened from disk. Plain HTML: MkDocs copies it as it is."""
    files = {}
    for game in games:
        if game.game is None:
            continue
        for rid, rule in game.game.rules.items():
            page = game.page_of.get(rid)
            if not page or not _SAFE_ID.fullmatch(rid):
                continue
            target = posixpath.relpath(page_url(page), f"{game.key}/{rid}") + f"#r{rid}"
            label = esc(f"{rid} {rule.title}" if rid[0].isdigit() else rule.title)
            files[f"{game.key}/{rid}/index.html"] = (
                '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
                f"<title>{label} · {esc(game.title)}</title>"
                '<meta name="robots" content="noindex">'
                f'<link rel="canonical" href="{esc(target)}">'
                f'<meta http-equiv="refresh" content="0; url={esc(target)}">'
                f'</head><body><p>Rule <a href="{esc(target)}">{label}</a> of {esc(game.title)}.</p></body></html>\n')
    return files


def worker_shim(out: Path) -> tuple:
    """The text of the worker shim Material's offline search needs on ``file://`` (the npm package
    ``iframe-worker``, pinned in ``site/package.json``), and why not when it cannot be had."""
    folder, problem = npm_package(out, "iframe-worker")
    if folder is None:
        return None, problem
    return (folder / "shim" / "index.js").read_text(encoding="utf-8"), ""


#: What each npm package of site/package.json must hold to count as installed.
_NPM_MARKS = {"iframe-worker": "shim/index.js", "pyodide": "pyodide.asm.wasm"}


def npm_package(out: Path, name: str) -> tuple:
    """The folder of an npm package pinned in ``site/package.json`` (``iframe-worker``, ``pyodide``),
    installed with ``npm ci`` beside ``package.json`` when it is not there yet and npm is; or None and
    why it cannot be had."""
    home = config_file().parent
    found = partial(_installed, (home, out), name)
    if found() is not None:
        return found(), ""
    if not (home / "package-lock.json").is_file():
        return None, f"{home / 'package-lock.json'} is missing"
    npm = shutil.which("npm")
    if npm is None:
        return None, f"npm is not installed, so the npm package {name} cannot be (apt-get install npm)"
    folder = home
    if not _writable(home):          # installed from a wheel: install beside the site instead
        folder = out
        folder.mkdir(parents=True, exist_ok=True)
        for file in ("package.json", "package-lock.json"):
            shutil.copyfile(home / file, folder / file)
    try:
        with _locked(folder / "node_modules.lock"):
            if found() is not None:       # another build installed it meanwhile
                return found(), ""
            done = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
                                  cwd=folder, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"npm ci failed in {folder}: {exc}"
    if done.returncode != 0 or found() is None:
        said = (done.stderr or done.stdout).strip().splitlines()
        return None, f"npm ci failed in {folder}" + (f": {said[-1]}" if said else "")
    return found(), ""


def _installed(folders: tuple, name: str) -> Optional[Path]:
    """``node_modules/NAME`` in the first folder where every package of site/package.json is."""
    for folder in folders:
        if all((folder / "node_modules" / pkg / mark).is_file() for pkg, mark in _NPM_MARKS.items()):
            return folder / "node_modules" / name
    return None


@contextmanager
def _locked(path: Path):
    with open(path, "a+b") as f:
        if fcntl is not None:
            fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(f, fcntl.LOCK_UN)


def _writable(folder: Path) -> bool:
    try:
        probe = folder / ".ludex-write-probe"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


#: What a generated folder holds, and what is removed from it when it is no longer wanted.
_GENERATED = (".md", ".js", ".css", ".html", ".mjs", ".wasm", ".zip", ".json")


def _write_tree(root: Path, files: dict) -> int:
    """Write the files whose content changed; remove generated files that are no longer wanted."""
    root.mkdir(parents=True, exist_ok=True)
    written = 0
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
            written += 1
    wanted = {(root / rel).resolve() for rel in files}
    for path in sorted(root.rglob("*"), reverse=True):
        if path.is_file() and path.resolve() not in wanted and path.suffix in _GENERATED:
            path.unlink()
            written += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return written


# ------------------------------------------------------------------ step 2: MkDocs


def _mkdocs():
    import importlib.util
    missing = [name for name in ("mkdocs", "material") if importlib.util.find_spec(name) is None]
    if missing:
        raise SiteError("the rules site needs MkDocs and Material: pip install -e '.[site]' "
                        f"({', '.join(missing)} missing)")


class SiteError(Exception):
    pass


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


def build(out: Optional[Path] = None, rules: Optional[Path] = None, scenarios: Optional[Path] = None,
          strict: bool = False, docs_src: Optional[Path] = None, zip_to: Optional[Path] = None) -> Report:
    """Generate the pages into ``out/docs`` and build the site into ``out/build``; with ``zip_to``, pack
    it there as a zip whose one folder holds the site."""
    _mkdocs()
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    out = Path(out) if out else default_out()
    docs_dir, site_dir = out / "docs", out / "build"
    out.mkdir(parents=True, exist_ok=True)      # an unwritable place fails now, before the pages are made
    t0 = time.perf_counter()
    generated = generate(docs_dir, rules, scenarios, docs_src)
    t1 = time.perf_counter()
    handler = _Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        config = load_config(config_file=str(config_file()), docs_dir=str(docs_dir.resolve()),
                             site_dir=str(site_dir.resolve()), nav=generated.nav, strict=strict,
                             extra={"polyfills": generated.polyfills})
        mkdocs_build(config)
    except MkDocsException as exc:
        raise SiteError(f"mkdocs: {exc}") from None
    finally:
        logger.removeHandler(handler)
    zipped = pack(site_dir, Path(zip_to)) if zip_to else None
    t2 = time.perf_counter()
    index = site_dir / "search" / "search_index.json"
    return Report(generated, site_dir, t1 - t0, t2 - t1, index.stat().st_size if index.is_file() else 0,
                  generated.warnings + handler.records, zipped)


def pack(site_dir: Path, target: Path) -> Path:
    """The built site as a zip: one folder, ``ludex-rules/``, to unpack anywhere and open
    ``ludex-rules/index.html`` from (written beside, then moved: a half-written zip is never left)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for path in sorted(site_dir.rglob("*")):
            if path.is_file():
                z.write(path, "ludex-rules/" + path.relative_to(site_dir).as_posix())
    part.replace(target)
    return target


def serve(out: Optional[Path] = None, addr: str = "127.0.0.1:8000", rules: Optional[Path] = None,
          scenarios: Optional[Path] = None, poll: float = 1.0) -> None:
    """Serve the site with live reload; a change to a rules or scenario file regenerates the pages."""
    _mkdocs()
    from mkdocs.commands.serve import serve as mkdocs_serve

    out = Path(out) if out else default_out()
    docs_dir = out / "docs"
    generated = generate(docs_dir, rules, scenarios)
    nav = list(generated.nav)          # the same list object is read again at every rebuild
    watched = [p for p in _inputs(rules, scenarios) if p is not None]
    if docs_source():
        watched.append(docs_source())
    stop = threading.Event()

    def stamp():
        return sorted((str(p), p.stat().st_mtime_ns) for d in watched if d.is_dir() for p in d.rglob("*") if p.is_file())

    def watch():
        last = stamp()
        while not stop.wait(poll):
            now = stamp()
            if now != last:
                last = now
                try:
                    again = generate(docs_dir, rules, scenarios)
                    nav[:] = again.nav
                    logging.getLogger("mkdocs").info("ludex: pages regenerated (%d files changed)", again.written)
                except Exception as exc:  # keep serving the last good pages
                    logging.getLogger("mkdocs").warning("ludex: could not regenerate the pages: %s", exc)

    thread = threading.Thread(target=watch, name="ludex-site-watch", daemon=True)
    thread.start()
    try:
        mkdocs_serve(config_file=str(config_file()), docs_dir=str(docs_dir.resolve()), nav=nav, dev_addr=addr,
                     extra={"polyfills": generated.polyfills})
    finally:
        stop.set()


def clean(out: Optional[Path] = None) -> None:
    out = Path(out) if out else default_out()
    for name in ("docs", "build"):
        shutil.rmtree(out / name, ignore_errors=True)
