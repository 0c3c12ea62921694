"""Mutation: a game's rules and scenarios in, a mutation score for every rule out (``ludex mutate``).

Each mutant of a rule (``mutants.py``) is parsed, checked and compiled like any rules text, then the
game's scenarios whose runs reach the rule are run against it, those that cite the rule first, until
one fails: that scenario kills the mutant (a run that raises or loops fails it too; the engine's step
budget bounds it). A mutant that does not parse or check is counted apart (``invalid``), a mutant
no scenario fails survives, one marked equivalent in its rule is not counted. The scenarios that
kill a rule's mutants are the rulings that pin it.

The results are plain data, kept in the cache folder (``resources.usable_cache_dir``) as JSON under
the hash of the rules (without their equivalent-mutant comments), the scenarios and the code that
decides a run (``_DECIDING``), each file validated on load and written whole or not at all (as
``parse/tables.py`` keeps its tables): a second run with nothing changed runs nothing, and ``ludex
check``, ``ludex explain`` and the site read the cached results alone (``cached_report``), never
starting a run.

``mutate`` runs the mutants in ``jobs`` processes, which handle signals as ``ludex simulate``'s do
(``simulation._worker_starts``); ``render_report`` writes the report for a reader.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

from ..check.checks import check
from ..diagnostics import SOURCES, LudexError, SourceError, read_source
from ..load import load_paths
from ..parse import ast as A
from ..parse.definition import GameDef, assemble
from ..parse.syntax import parse_rules
from ..parse.tables import write_whole
from ..program.expressions import remember_code
from ..program.program import Program
from ..resources import grammar_dir, prune, rules_dir, scenarios_dir, usable_cache_dir
from ..scenarios.runner import load_scenarios, run_scenario, scenario_files
from .mutants import Mutant, equivalences, mutants_of, without_equivalences
from .simulation import _worker_starts, stoppable_pool

#: The first item of every results file: a file of another layout is run again, never read further.
FORMAT = "ludex-mutants-1"
STATUSES = ("killed", "survived", "invalid")
_PACKAGE = Path(__file__).resolve().parent.parent
#: The code whose change may change a mutant's result, and so the results kept (not the site's or the
#: command line's): the stages a mutant goes through and this tool.
_DECIDING = ("parse", "check", "program", "runtime", "engine", "scenarios", "load.py", "diagnostics.py",
             "compliance/mutants.py", "compliance/mutation.py")


@dataclass
class Ruling:
    """A scenario as the mutation runs use it: its id (``file::title``), the rules it cites and the
    rules its run reached with the rules as written."""

    id: str
    scenario: A.Scenario
    cites: frozenset
    reached: frozenset
    events: int


@dataclass
class Subject:
    """A game ready to mutate: its rules as written (text by path, and checked), its scenarios that
    pass as written, and those that do not (a mutant is not measured against a failing ruling)."""

    key: str
    rule_paths: list
    scenario_paths: list
    texts: dict
    game: GameDef
    rulings: list = field(default_factory=list)
    failing: list = field(default_factory=list)


def scenarios_of(key: str, rule_paths: list) -> list:
    """A game's scenario files: ``scenarios/GAME/`` beside the ``rules/`` folder its rules are in (the
    bundled scenarios for the bundled rules)."""
    folders = {Path(p).resolve().parent for p in rule_paths}
    if folders == {rules_dir().resolve()}:
        return scenario_files(scenarios_dir(), key)
    found = []
    for folder in sorted(folders):
        found += scenario_files(folder.parent / "scenarios", key)
    return found


def prepare(key: str, rule_paths: list, scenario_paths: list, run: bool = True) -> Subject:
    """Load a game's rules and (with ``run``) its scenarios, each run once with the rules as written
    (``SourceError`` if the rules or a scenario file do not check)."""
    loaded = load_paths(key, [Path(p) for p in rule_paths])
    if not loaded.ok:
        raise SourceError(loaded.diagnostics)
    texts = {str(p): read_source(p) for p in loaded.paths}
    subject = Subject(key, [str(p) for p in rule_paths], [str(p) for p in scenario_paths], texts, loaded.game)
    if run:
        run_as_written(subject)
    return subject


def run_as_written(subject: Subject) -> None:
    """Run each scenario once with the rules as written: what it cites and reaches, or that it fails."""
    for path in subject.scenario_paths:
        parsed = load_scenarios(subject.game, Path(path))
        for scenario in parsed.scenarios:
            result = run_scenario(subject.game, scenario)
            sid = f"{Path(path).name}::{scenario.title}"
            if not result.passed:
                subject.failing.append(sid)
                continue
            subject.rulings.append(Ruling(sid, scenario, frozenset(rid for rid, _ in scenario.cites),
                                          frozenset(result.exercised), len(result.trace)))


# ------------------------------------------------------------------ one mutant


def mutated_game(subject: Subject, mutant: Mutant) -> GameDef:
    """The game with the mutant's change: the rule's block, changed, parsed in its place in the file
    (the lines before it kept as blank lines, so every span is where it is in the mutated file), then
    assembled and checked. ``SourceError`` if it does not parse or check."""
    game = subject.game
    rule = game.rules[mutant.rule]
    text = subject.texts[mutant.path]
    changed = mutant.apply(text).split("\n")
    block = changed[rule.span.line - 1:rule.span.end_line]
    block[0] = " " * (rule.span.column - 1) + block[0][rule.span.column - 1:]
    try:
        parsed = parse_rules("\n" * (rule.span.line - 1) + "\n".join(block), mutant.path)
    finally:
        SOURCES.add(mutant.path, text)          # what a diagnostic quotes is the file as written
    if len(parsed.items) != 1 or not isinstance(parsed.items[0], A.Rule):
        raise SourceError([])
    new_rule = parsed.items[0]
    modules = [replace(m, items=tuple(new_rule if item is rule else item for item in m.items))
               if m.path == mutant.path else m for m in game.modules]
    mutated = assemble(game.key, modules)
    problems = check(mutated)
    if problems:
        raise SourceError(problems)
    return mutated


def run_mutant(subject: Subject, mutant: Mutant) -> dict:
    """One mutant's result, plain data: ``status`` (killed, survived, invalid), ``by`` (the scenario
    that killed it), ``ran`` (how many scenarios ran), ``message`` (why it is invalid, or how the
    killing run ended). The code compiled for the rules a mutant leaves as they are is used again
    (``remember_code``): compiling is most of the work of a mutant."""
    remember_code()
    try:
        game = mutated_game(subject, mutant)
        Program.of(game)
    except LudexError as exc:
        first = exc.diagnostics[0] if exc.diagnostics else None
        return {"status": "invalid", "by": None, "ran": 0,
                "message": f"{first.code} {first.message}" if first else "does not parse as one rule"}
    except Exception as exc:                # (an engine that cannot compile what checks: a bug, said so)
        return {"status": "invalid", "by": None, "ran": 0,
                "message": f"the engine could not compile it: {type(exc).__name__}: {exc}"[:300]}
    ran = 0
    for ruling in rulings_for(subject, mutant):
        ran += 1
        try:
            result = run_scenario(game, ruling.scenario)
            passed, how = result.passed, result.status
        except Exception as exc:            # (a mutant's rules may break what no scenario's rules do)
            passed, how = False, f"error: {type(exc).__name__}"
        if not passed:
            return {"status": "killed", "by": ruling.id, "ran": ran, "message": how}
    return {"status": "survived", "by": None, "ran": ran, "message": ""}


def rulings_for(subject: Subject, mutant: Mutant) -> list:
    """The scenarios to run against a mutant: those whose runs reach its rule (every scenario, for a
    mutant in a state check, whose condition is polled where the rule is not counted as reached),
    those citing the rule first, then the shortest runs first."""
    rule = subject.game.rules[mutant.rule]
    polled = any(_within(c.span, mutant) for c in rule.checks)
    chosen = [r for r in subject.rulings if polled or mutant.rule in r.reached]
    return sorted(chosen, key=lambda r: (mutant.rule not in r.cites, r.events))


def _within(span, mutant: Mutant) -> bool:
    return span.path == mutant.path and span.line <= mutant.line <= span.end_line


# ------------------------------------------------------------------ the cache


def digest(subject_texts: dict, scenario_paths: list) -> str:
    """The hash the results are kept under: this code and the grammar (what decides a run), the rules
    without their equivalent-mutant comments and the scenarios."""
    h = hashlib.sha256(FORMAT.encode())
    code = [p for part in _DECIDING for p in sorted((_PACKAGE / part).glob("*.py") if (_PACKAGE / part).is_dir()
                                                   else [_PACKAGE / part])]
    for path in code + sorted(grammar_dir().glob("*.lark")):
        try:
            h.update(path.read_bytes())
        except OSError:
            pass
    for path in sorted(subject_texts):
        h.update(b"\0rules\0" + Path(path).name.encode() + b"\0" + without_equivalences(subject_texts[path]).encode())
    for path in sorted(scenario_paths, key=str):
        try:
            text = Path(path).read_bytes()
        except OSError:
            text = b""
        h.update(b"\0scenario\0" + Path(path).name.encode() + b"\0" + text)
    return h.hexdigest()


def cache_file(key: str, hashed: str) -> Optional[Path]:
    folder = usable_cache_dir()
    return None if folder is None else folder / f"mutants-{key}-{hashed[:24]}.json"


def read_cache(path: Optional[Path], hashed: str) -> tuple[dict, list]:
    """The results a file holds, by mutant id, and the scenarios that fail with the rules as written:
    ({}, []) if it is missing, unreadable, of another layout, made from other rules or scenarios, or
    not of the shape ``write_cache`` writes (a result of another shape is left out)."""
    if path is None:
        return {}, []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, []
    if not (isinstance(data, dict) and data.get("format") == FORMAT and data.get("digest") == hashed
            and isinstance(data.get("results"), dict) and isinstance(data.get("failing"), list)
            and all(isinstance(f, str) for f in data["failing"])):
        return {}, []
    results = {}
    for k, r in data["results"].items():
        if (isinstance(k, str) and isinstance(r, dict) and r.get("status") in STATUSES
                and (r.get("by") is None or isinstance(r.get("by"), str))
                and type(r.get("ran")) is int and isinstance(r.get("message"), str)):
            results[k] = {"status": r["status"], "by": r["by"], "ran": r["ran"], "message": r["message"]}
    return results, list(data["failing"])


def write_cache(path: Optional[Path], hashed: str, key: str, results: dict, failing: list) -> None:
    """Write the results whole or not at all (a file of its own, then put in place in one step);
    only the newest few files of the game stay."""
    if path is None:
        return
    blob = json.dumps({"format": FORMAT, "digest": hashed, "game": key, "results": results, "failing": failing},
                      sort_keys=True)
    if not write_whole(path, blob.encode("utf-8")):
        return
    prune(path.parent, f"mutants-{key}-*.json")


# ------------------------------------------------------------------ many mutants

_SUBJECT: Optional[Subject] = None
_MUTANTS: list = []


def _worker_init(key, rule_paths, scenario_paths, mutants):
    _worker_starts()
    global _SUBJECT, _MUTANTS
    if _SUBJECT is None or _SUBJECT.key != key:         # (a forked worker has the parent's already)
        _SUBJECT = prepare(key, rule_paths, scenario_paths)
    _MUTANTS = mutants


def _task(index: int):
    return index, run_mutant(_SUBJECT, _MUTANTS[index])


def mutate(key: str, rule_paths: list, scenario_paths: list, rules=None, jobs: int = 1, progress=None,
           use_cache: bool = True) -> dict:
    """Mutate a game's rules (those in ``rules``, if given) and run its scenarios against each mutant,
    in ``jobs`` processes (0: every core); the report, plain data (``render_report`` words it)."""
    global _SUBJECT, _MUTANTS
    start = time.perf_counter()
    subject = prepare(key, rule_paths, scenario_paths, run=False)
    hashed = digest(subject.texts, subject.scenario_paths)
    path = cache_file(key, hashed) if use_cache else None
    known, failing = read_cache(path, hashed)
    marked = equivalences(subject.game, subject.texts)
    made = mutants_of(subject.game, subject.texts, rules)
    todo = [m for m in made if m.key not in known and _equivalence(m, marked) is None]
    jobs = jobs or os.cpu_count() or 1
    results = dict(known)
    done = 0
    if todo:
        run_as_written(subject)
        failing = subject.failing
    if todo and (jobs <= 1 or len(todo) <= 1):
        for m in todo:
            results[m.key] = run_mutant(subject, m)
            done += 1
            if progress:
                progress(done, len(todo), time.perf_counter() - start)
    elif todo:
        _SUBJECT, _MUTANTS = subject, todo
        try:
            with stoppable_pool(min(jobs, len(todo)), _worker_init,
                                (key, subject.rule_paths, subject.scenario_paths, todo)) as pool:
                for index, r in pool.imap_unordered(_task, range(len(todo)), chunksize=1):
                    results[todo[index].key] = r
                    done += 1
                    if progress:
                        progress(done, len(todo), time.perf_counter() - start)
        finally:
            _SUBJECT, _MUTANTS = None, []
    if todo:
        write_cache(path, hashed, key, results, failing)
    elapsed = time.perf_counter() - start
    report = build_report(subject.game, made, results, marked, rules)
    report.update(seconds=round(elapsed, 3), jobs=jobs, ran=len(todo), cached=sum(1 for m in made if m.key in known),
                  mutants_per_second=round(len(todo) / elapsed, 2) if elapsed and todo else 0.0,
                  failing_scenarios=failing, scenario_files=len(subject.scenario_paths))
    return report


def _equivalence(mutant: Mutant, marked: list):
    for e in marked:
        if e.rule == mutant.rule and e.before == mutant.before and e.after == mutant.after:
            return e
    return None


def build_report(game: GameDef, made: list, results: dict, marked: list, rules=None) -> dict:
    """The report of a game's mutants and their results (by mutant id; a mutant without one is
    ``unknown``): per rule, and in all."""
    per_rule: dict = {}
    used = set()
    for m in made:
        row = per_rule.setdefault(m.rule, {"made": 0, "killed": 0, "survived": 0, "invalid": 0, "equivalent": 0,
                                           "unknown": 0, "pinned_by": [], "survivors": [], "invalid_mutants": [],
                                           "score": None})
        row["made"] += 1
        e = _equivalence(m, marked)
        if e is not None:
            used.add(e)
            row["equivalent"] += 1
            continue
        r = results.get(m.key)
        if r is None:
            row["unknown"] += 1
            continue
        row[r["status"]] += 1
        if r["status"] == "killed" and r["by"] not in row["pinned_by"]:
            row["pinned_by"].append(r["by"])
        elif r["status"] == "survived":
            row["survivors"].append(_mutant_json(m, r))
        elif r["status"] == "invalid":
            row["invalid_mutants"].append(_mutant_json(m, r))
    for row in per_rule.values():
        counted = row["killed"] + row["survived"]
        row["score"] = round(100.0 * row["killed"] / counted, 1) if counted else None
    totals = {k: sum(row[k] for row in per_rule.values())
              for k in ("made", "killed", "survived", "invalid", "equivalent", "unknown")}
    counted = totals["killed"] + totals["survived"]
    totals["score"] = round(100.0 * totals["killed"] / counted, 1) if counted else None
    stale = [{"rule": e.rule, "where": f"{shown_path(e.path)}:{e.line}", "before": e.before, "after": e.after}
             for e in marked if e not in used and (rules is None or e.rule in rules)]
    return {"game": game.key, "totals": totals, "rules": per_rule, "unmatched_equivalences": stale}


def shown_path(path: str) -> str:
    """A rules file's path as a report shows it: from the current folder when it is under it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:                  # (another drive)
        return path
    return path if relative.startswith("..") else relative


def _mutant_json(m: Mutant, r: dict) -> dict:
    return {"id": m.diff, "where": f"{shown_path(m.path)}:{m.line}", "line": m.line, "operator": m.operator, "before": m.before,
            "after": m.after, "ran": r["ran"], "message": r["message"]}


def cached_report(key: str, rule_paths: list, scenario_paths: list, game: Optional[GameDef] = None) -> Optional[dict]:
    """The report made from cached results alone, or None if there are none for these rules and
    scenarios: nothing is run (the site and ``ludex check`` read it)."""
    texts = {str(p): read_source(p) for p in rule_paths}
    hashed = digest(texts, [str(p) for p in scenario_paths])
    known, _ = read_cache(cache_file(key, hashed), hashed)
    if not known:
        return None
    if game is None:
        loaded = load_paths(key, [Path(p) for p in rule_paths])
        if not loaded.ok:
            return None
        game = loaded.game
    return build_report(game, mutants_of(game, texts), known, equivalences(game, texts))


def score_line(row: dict) -> str:
    """``pinned by 3 rulings, 10 of 12 mutants killed`` (equivalent and invalid mutants not counted)."""
    n = len(row["pinned_by"])
    counted = row["killed"] + row["survived"]
    return (f"pinned by {n} ruling{'s' if n != 1 else ''}, {row['killed']} of {counted} "
            f"mutant{'s' if counted != 1 else ''} killed")


# ------------------------------------------------------------------ the report in words


def _percent(score) -> str:
    return "-" if score is None else f"{score:.1f}%"


def render_report(report: dict) -> str:
    t = report["totals"]
    jobs = report.get("jobs", 1)
    lines = [f"{report['game']}: {t['made']} mutants of {len(report['rules'])} rules in {report.get('seconds', 0):.1f} s"
             f" ({report.get('mutants_per_second', 0):.2f} mutants/s, {jobs} job{'s' if jobs != 1 else ''}; "
             f"{report.get('ran', 0)} run, {report.get('cached', 0)} from the cache)",
             f"  killed {t['killed']}, survived {t['survived']}, not valid {t['invalid']} (fail the static checks), "
             f"equivalent {t['equivalent']}: score {_percent(t['score'])} "
             f"({t['killed']} of {t['killed'] + t['survived']})"]
    if t["unknown"]:
        lines.append(f"  {t['unknown']} mutants have no result")
    if report.get("scenario_files") == 0:
        lines.append("  no scenario files found (scenarios/GAME/ beside the rules/ folder): no mutant can be killed")
    lines.append("")
    width = max([len("rule")] + [len(r) for r in report["rules"]])
    lines.append(f"{'rule':<{width}}  {'made':>4}  {'killed':>6}  {'survived':>8}  {'invalid':>7}  {'equiv':>5}  "
                 f"{'score':>6}  pinned by")
    for rid, row in report["rules"].items():
        n = len(row["pinned_by"])
        lines.append(f"{rid:<{width}}  {row['made']:>4}  {row['killed']:>6}  {row['survived']:>8}  {row['invalid']:>7}  "
                     f"{row['equivalent']:>5}  {_percent(row['score']):>6}  {n} ruling{'s' if n != 1 else ''}")
    survivors = [(rid, s) for rid, row in report["rules"].items() for s in row["survivors"]]
    if survivors:
        lines += ["", f"survivors ({len(survivors)}):"]
        for rid, s in survivors:
            ran = "reached by no scenario" if not s["ran"] else \
                f"{s['ran']} scenario{'s' if s['ran'] != 1 else ''} passed"
            lines += [f"{s['where']}: {rid} ({s['operator']}): {ran}", f"  - {s['before']}", f"  + {s['after']}"]
    for e in report["unmatched_equivalences"]:
        lines.append(f"\n{e['where']}: warning: this equivalent-mutant comment matches no mutant of rule {e['rule']}: "
                     f"`{e['before']}` -> `{e['after']}`")
    if report.get("failing_scenarios"):
        lines.append(f"\nnot used ({len(report['failing_scenarios'])} scenarios fail with the rules as written): "
                     + ", ".join(report["failing_scenarios"]))
    return "\n".join(lines)
