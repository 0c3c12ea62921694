"""Build: the rules and scenarios in, the rules site out, in two plain steps.

1. ``generate`` writes Markdown pages (and the site's small assets) into a generated folder, by default
   ``site/docs/`` (git-ignored): a home page, per game an overview, rule pages in the source's order,
   a page per scenario file and a coverage page, and the language guide.
2. ``build`` runs MkDocs (Material theme) on them with the configuration in ``site/mkdocs.yml`` and
   the navigation computed in step 1, into ``site/build/`` (git-ignored).

No MkDocs hook or plugin generates anything: MkDocs only sees finished Markdown.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .. import __version__
from ..resources import rules_dir as _rules_dir
from ..resources import scenarios_dir as _scenarios_dir
from .collect import collect
from .guide import guide_pages
from .markup import esc, page_url
from .pages import coverage_page, game_index, home_page, referred_by_map, rule_page, scenario_page

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


@dataclass
class Report:
    generated: Generated
    site_dir: Path
    seconds_generate: float = 0.0
    seconds_mkdocs: float = 0.0
    index_bytes: int = 0
    warnings: list = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return self.seconds_generate + self.seconds_mkdocs


# ------------------------------------------------------------------ step 1: Markdown


def generate(docs_dir: Path, rules: Optional[Path] = None, scenarios: Optional[Path] = None,
             docs_src: Optional[Path] = None, now: Optional[_dt.datetime] = None) -> Generated:
    rules, scenarios = _inputs(rules, scenarios)
    games = collect(rules, scenarios)
    now = now or _dt.datetime.now(_dt.timezone.utc)
    pages: dict = {"index.md": home_page(games, now, __version__)}
    for game in games:
        pages[game.index_page] = game_index(game)
        if game.game is None:
            continue
        back = referred_by_map(game)
        for page in game.pages:
            pages[page.page] = rule_page(game, page, back)
        for sf in game.files:
            pages[sf.page] = scenario_page(game, sf)
        pages[game.coverage_page] = coverage_page(game)
    pages.update(guide_pages(games, docs_src if docs_src is not None else docs_source()))
    files = dict(pages)
    files["assets/ludex-rules.js"] = rules_js(games)
    for asset in sorted(ASSETS.iterdir()):
        if asset.is_file():
            files[f"assets/{asset.name}"] = asset.read_text(encoding="utf-8")
    written = _write_tree(Path(docs_dir), files)
    return Generated(games, pages, navigation(games), Path(docs_dir), written)


def _inputs(rules, scenarios):
    """The bundled rules and scenarios by default; for other rules, the scenarios beside them."""
    if rules is None:
        return _rules_dir(), Path(scenarios) if scenarios else _scenarios_dir()
    rules = Path(rules)
    if scenarios is None and (rules.parent / "scenarios").is_dir():
        scenarios = rules.parent / "scenarios"
    return rules, Path(scenarios) if scenarios else None


def navigation(games: list) -> list:
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
        nav.append({esc(game.title): children})
    nav.append({"Language guide": ["guide/language.md", "guide/scenarios.md", "guide/boards.md",
                                   "guide/builtins.md"]})
    return nav


def rules_js(games: list) -> str:
    """Every rule's page and title, for the search's jump to a rule number (assets/ludex.js)."""
    data = {}
    for game in games:
        if game.game is None:
            continue
        rules = {}
        for rid, rule in game.game.rules.items():
            page = game.page_of.get(rid)
            if page:
                rules[rid] = [f"{page_url(page)}#r{rid}", rule.title, 1 if rule.outside else 0]
        data[game.key] = {"title": game.title, "url": page_url(game.index_page), "rules": rules}
    payload = json.dumps(data, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/")
    return f"window.LUDEX_RULES = {payload};\n"


def _write_tree(root: Path, files: dict) -> int:
    """Write the files whose content changed; remove generated files that are no longer wanted."""
    root.mkdir(parents=True, exist_ok=True)
    written = 0
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
            written += 1
    wanted = {(root / rel).resolve() for rel in files}
    for path in sorted(root.rglob("*"), reverse=True):
        if path.is_file() and path.resolve() not in wanted and path.suffix in (".md", ".js", ".css"):
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
          strict: bool = False, docs_src: Optional[Path] = None) -> Report:
    """Generate the pages into ``out/docs`` and build the site into ``out/build``."""
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
                             site_dir=str(site_dir.resolve()), nav=generated.nav, strict=strict)
        mkdocs_build(config)
    except MkDocsException as exc:
        raise SiteError(f"mkdocs: {exc}") from None
    finally:
        logger.removeHandler(handler)
    t2 = time.perf_counter()
    index = site_dir / "search" / "search_index.json"
    return Report(generated, site_dir, t1 - t0, t2 - t1, index.stat().st_size if index.is_file() else 0,
                  handler.records)


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
        mkdocs_serve(config_file=str(config_file()), docs_dir=str(docs_dir.resolve()), nav=nav, dev_addr=addr)
    finally:
        stop.set()


def clean(out: Optional[Path] = None) -> None:
    out = Path(out) if out else default_out()
    for name in ("docs", "build"):
        shutil.rmtree(out / name, ignore_errors=True)
