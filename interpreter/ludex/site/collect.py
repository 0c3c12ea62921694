"""Collect: rules and scenario files in, everything the site shows out (games, rule pages, runs).

Each game is loaded and checked as ``ludex check`` does; every scenario is run once, and what each run
exercised is kept per rule (the same measure of coverage as ``ludex check``). A game or a scenario file
that does not check is still shown, with its diagnostics: the site never stops at a broken file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..compliance.mutation import cached_report
from ..diagnostics import LudexError, render_all
from ..load import Loaded, load_game
from ..parse import ast as A
from ..parse.definition import GameDef, is_numbered
from ..scenarios.runner import load_scenarios, render_failure, run_scenario, scenario_files

#: A page holds at most this many rules; a larger section is split along its sub-sections.
MAX_RULES_PER_PAGE = 150


@dataclass
class Run:
    """One scenario and the result of its run."""

    file: "ScenarioFile"
    scenario: A.Scenario
    number: int                  # S1, S2 ... across the game, in file order
    anchor: str                  # the heading id on its file's page
    status: str = "passed"       # passed | failed | error
    exercised: set = field(default_factory=set)
    trace: list = field(default_factory=list)
    report: str = ""             # the failure report, for a failed or broken run

    @property
    def title(self) -> str:
        return self.scenario.title

    @property
    def cites(self) -> list:
        return [rid for rid, _ in self.scenario.cites]


@dataclass
class ScenarioFile:
    game: str
    path: Path
    name: str                    # relative to scenarios/<game>/, e.g. rounds.scenario
    page: str                    # the Markdown page, e.g. huntik/scenarios/rounds.md
    text: str = ""
    runs: list = field(default_factory=list)
    error: str = ""              # rendered diagnostics when the file does not parse or check


@dataclass
class RulePage:
    page: str                    # e.g. agot/rules/3.md
    title: str
    rules: list                  # rule ids, in the source's order
    single_root: bool = False    # the page is one rule and its sub-rules: that rule is the page's title


@dataclass
class SiteGame:
    """A game as the site shows it: its loaded rules, rule pages, scenario files and runs."""
    key: str
    loaded: Loaded
    title: str = ""
    errors: str = ""             # rendered diagnostics when the rules do not check
    pages: list = field(default_factory=list)
    page_of: dict = field(default_factory=dict)       # rule id -> page
    files: list = field(default_factory=list)
    runs_by_rule: dict = field(default_factory=dict)  # rule id -> [Run] that exercised it
    parent: dict = field(default_factory=dict)        # rule id -> parent rule id (or None)
    children: dict = field(default_factory=dict)      # rule id (None: top level) -> sub-rule ids
    #: the cached ``ludex mutate`` report of these rules and scenarios (compliance/mutation.py), or
    #: None: read, never run, for a build
    mutation: Optional[dict] = None

    def depth(self, rid: str) -> int:
        d, p = 0, self.parent.get(rid)
        while p is not None:
            d += 1
            p = self.parent.get(p)
        return d

    @property
    def game(self) -> Optional[GameDef]:
        return self.loaded.game

    @property
    def index_page(self) -> str:
        return f"{self.key}/index.md"

    @property
    def coverage_page(self) -> str:
        return f"{self.key}/coverage.md"

    @property
    def ask_page(self) -> str:
        return f"{self.key}/ask.md"

    @property
    def runs(self) -> list:
        return [r for f in self.files for r in f.runs]

    @property
    def transcribed(self) -> list:
        return [rid for rid, rule in self.game.rules.items() if not rule.outside] if self.game else []

    @property
    def executable(self) -> list:
        """Rules from the source whose transcription does something: statements or definitions."""
        if not self.game:
            return []
        return [rid for rid in self.transcribed if _runs_something(self.game.rules[rid])]

    def exercised(self, passing_only: bool = False) -> list:
        return [rid for rid in self.transcribed
                if any(r.status == "passed" or not passing_only for r in self.runs_by_rule.get(rid, ()))]

    def percent(self, ids) -> float:
        total = len(self.transcribed)
        return round(100.0 * len(ids) / total, 1) if total else 100.0


def _runs_something(rule: A.Rule) -> bool:
    return bool(rule.body or rule.actions or rule.values or rule.triggers or rule.checks)


# ------------------------------------------------------------------ loading


def collect(rules_dir: Path, scenarios_dir: Optional[Path], run_scenarios: bool = True) -> list[SiteGame]:
    keys = sorted({p.name.split(".", 1)[0] for p in Path(rules_dir).glob("*.ludex")})
    return [collect_game(key, rules_dir, scenarios_dir, run_scenarios) for key in keys]


def collect_game(key: str, rules_dir: Path, scenarios_dir: Optional[Path], run_scenarios: bool = True) -> SiteGame:
    try:
        loaded = load_game(key, Path(rules_dir))
    except LudexError as exc:               # pragma: no cover - load_game collects its diagnostics
        loaded = Loaded(key, [], None, list(exc.diagnostics))
    game = SiteGame(key, loaded)
    gamedef = loaded.game
    game.title = gamedef.header.title if gamedef and gamedef.header else key
    if loaded.diagnostics:
        game.errors = render_all(loaded.diagnostics)
    if gamedef is not None:
        game.parent = {rid: gamedef.parent_of(rid) for rid in gamedef.rules}
        for rid in gamedef.rules:
            game.children.setdefault(game.parent[rid], []).append(rid)
        game.pages = group_pages(gamedef, parent=game.parent)
        for page in game.pages:
            for rid in page.rules:
                game.page_of[rid] = page.page
    if scenarios_dir is not None:
        game.files = _scenario_files(game, Path(scenarios_dir), run_scenarios and gamedef is not None
                                     and not loaded.diagnostics)
    for run in game.runs:
        for rid in sorted(run.exercised):
            game.runs_by_rule.setdefault(rid, []).append(run)
    if gamedef is not None and not loaded.diagnostics and scenarios_dir is not None:
        game.mutation = cached_report(key, [str(p) for p in loaded.paths],
                                      [str(p) for p in scenario_files(Path(scenarios_dir), key)], gamedef)
    return game


def pinned_by(game: SiteGame, rid: str) -> list:
    """The ids (``file::title``) of the scenarios that pin a rule (kill a mutant of it), in the cached
    mutation report; [] without one."""
    row = game.mutation["rules"].get(rid) if game.mutation else None
    return list(row["pinned_by"]) if row else []


def run_id(run: Run) -> str:
    """A run's id as the mutation report names a scenario: its file's name and its title."""
    return f"{Path(run.file.path).name}::{run.title}"


def _scenario_files(game: SiteGame, folder: Path, run: bool) -> list[ScenarioFile]:
    files = []
    number = 0
    used_pages: set = set()
    root = folder / game.key
    for path in scenario_files(folder, game.key):
        name = path.relative_to(root).as_posix()
        slug = re.sub(r"[^a-z0-9._-]+", "-", name[: -len(".scenario")].lower()).strip("-") or "scenarios"
        page = f"{game.key}/scenarios/{slug}.md"
        while page in used_pages:
            slug += "-"
            page = f"{game.key}/scenarios/{slug}.md"
        used_pages.add(page)
        sf = ScenarioFile(game.key, path, name, page, path.read_text(encoding="utf-8", errors="replace"))
        files.append(sf)
        if game.game is None:
            sf.error = "The game's rules do not load, so its scenarios cannot be read."
            continue
        try:
            parsed = load_scenarios(game.game, path)
        except LudexError as exc:
            sf.error = render_all(exc.diagnostics)
            continue
        anchors: set = set()
        for scenario in parsed.scenarios:
            number += 1
            anchor = _unique(f"s-{_slug(scenario.title)}", anchors)
            r = Run(sf, scenario, number, anchor)
            sf.runs.append(r)
            if not run:
                r.status = "error"
                r.report = "Not run: the game's rules do not check."
                continue
            try:
                result = run_scenario(game.game, scenario)
            except Exception as exc:  # a bug in the engine must not stop the site
                r.status = "error"
                r.report = f"The run stopped with an internal error: {type(exc).__name__}: {exc}"
                continue
            r.status = result.status
            r.exercised = set(result.exercised)
            r.trace = list(result.trace)
            if not result.passed:
                r.report = render_failure(result)
    return files


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-") or "scenario"


def _unique(anchor: str, used: set) -> str:
    candidate, n = anchor, 1
    while candidate in used:
        n += 1
        candidate = f"{anchor}-{n}"
    used.add(candidate)
    return candidate


# ------------------------------------------------------------------ pages


def rule_label(rule: A.Rule) -> str:
    """``3.2 Active player collects income``; a rule with a heading id (``setup``) shows its title only."""
    return f"{rule.id} {rule.title}" if is_numbered(rule.id) else rule.title


def group_pages(game: GameDef, limit: int = MAX_RULES_PER_PAGE, parent: Optional[dict] = None) -> list[RulePage]:
    """A page per top-level rule with sub-rules (a phase, a section), in the source's order; runs of
    top-level rules without sub-rules, and of sections outside the source, share a page. A section
    larger than ``limit`` is split along its sub-sections."""
    ids = list(game.rules)
    parent = parent if parent is not None else {rid: game.parent_of(rid) for rid in ids}
    children: dict = {}
    for rid in ids:
        children.setdefault(parent[rid], []).append(rid)

    def subtree(rid) -> list:
        out, stack = [], [rid]
        while stack:
            x = stack.pop()
            out.append(x)
            stack.extend(reversed(children.get(x, [])))
        return out

    position = {rid: i for i, rid in enumerate(ids)}
    units = [sorted(subtree(root), key=position.get) for root in children.get(None, [])]

    pages: list[RulePage] = []
    singles: list = []

    def flush():
        if singles:
            pages.append(_page(game, list(singles), single_root=False, parent=parent))
            singles.clear()

    for unit in units:
        # a rule without sub-rules, or a section wholly outside the source, shares a page with its
        # neighbours of the same kind; a section of the source has a page of its own
        if len(unit) == 1 or all(game.rules[r].outside for r in unit):
            if len(singles) + len(unit) > limit:
                flush()
            singles.extend(unit)
            continue
        flush()
        if len(unit) <= limit:
            pages.append(_page(game, unit, single_root=True, parent=parent))
        else:
            for chunk in _split(unit[0], children, subtree, position, limit):
                pages.append(_page(game, chunk, single_root=False, parent=parent))
    flush()
    used: set = set()
    for page in pages:   # file names from the first rule id; unique whatever the ids
        base = re.sub(r"[^a-z0-9._-]+", "-", page.rules[0].lower()).strip("-.") or "rules"
        name, n = base, 1
        while name in used:
            n += 1
            name = f"{base}-{n}"
        used.add(name)
        page.page = f"{game.key}/rules/{name}.md"
    return pages


def _split(root, children, subtree, position, limit) -> list[list]:
    """A section too large for one page: its own heading, then its sub-sections, packed up to ``limit``."""
    chunks: list[list] = []
    current: list = [root]
    for child in children.get(root, []):
        part = sorted(subtree(child), key=position.get)
        if len(part) > limit:
            if current:
                chunks.append(current)
            current = []
            chunks.extend(_split(child, children, subtree, position, limit))
            continue
        if len(current) + len(part) > limit and current:
            chunks.append(current)
            current = []
        current.extend(part)
    if current:
        chunks.append(current)
    return chunks


def _page(game: GameDef, rules: list, single_root: bool, parent: dict) -> RulePage:
    first, last = game.rules[rules[0]], game.rules[rules[-1]]
    if single_root:
        title = rule_label(first)
    elif len(rules) == 1:
        title = rule_label(first)
    elif len([r for r in rules if parent.get(r) is None]) <= 3:
        title = " · ".join(game.rules[r].title for r in rules if parent.get(r) is None)
    elif all(is_numbered(r) for r in (first.id, last.id)):
        title = f"Rules {first.id} to {last.id}"
    else:
        title = f"{first.title} … {last.title}"
    return RulePage("", title, rules, single_root)
