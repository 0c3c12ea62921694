"""The pytest plugin (entry point ``pytest11``): plain ``pytest`` collects ``scenarios/**/*.scenario``,
one item per scenario, with the id ``game/file::title``; a scenario's tags become markers; a failure
shows the scenario's file:line, the expectation, expected vs actual and the trace of what ran, the
failing point marked. ``pytest --ludex-trace`` prints every scenario's trace, those that pass too, in
a section of the summary."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from ..diagnostics import LudexError, render_all


@lru_cache(maxsize=None)
def _game(key: str, rules_folder: str):
    # imported here: pytest loads this plugin in every run, scenarios or not
    from ..load import load_game
    loaded = load_game(key, Path(rules_folder))
    if not loaded.ok:
        raise LudexError(loaded.diagnostics)
    return loaded.game


def _rules_folder(path: Path) -> Path:
    """The rules/ folder beside the scenarios/ folder this file is under (or the bundled one)."""
    # imported here: pytest loads this plugin in every run, scenarios or not
    from ..resources import rules_dir
    from .runner import rules_folder_of
    return rules_folder_of(path) or rules_dir()


def _game_folder(path: Path) -> Path:
    """The folder naming the game a scenario file is for: the one in scenarios/ (or else its own)."""
    # imported here: pytest loads this plugin in every run, scenarios or not
    from .runner import game_folder_of
    return game_folder_of(path) or path.parent


def _game_key(path: Path) -> str:
    return _game_folder(path).name


def pytest_addoption(parser):
    parser.getgroup("ludex").addoption(
        "--ludex-trace", action="store_true", default=False,
        help="print the trace of every scenario run, those that pass too (after the tests)")


def pytest_terminal_summary(terminalreporter, config):
    """``--ludex-trace``: each scenario's trace, by its id (from every worker, with pytest-xdist)."""
    if not config.getoption("ludex_trace", False):
        return
    reports = [r for kind in ("passed", "failed") for r in terminalreporter.stats.get(kind, ())
               if getattr(r, "when", "") == "call"]
    traced = [(r.nodeid, text) for r in reports for key, text in r.user_properties if key == "ludex trace"]
    if traced:
        terminalreporter.section("ludex traces")
        for nodeid, text in sorted(traced):
            terminalreporter.write_line(f"{nodeid}\n{text}\n")


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".scenario":
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        # imported here: pytest loads this plugin in every run, scenarios or not
        from ..parse.definition import game_key_of
        from .runner import load_scenarios, stray_scenarios
        key = _game_key(self.path)
        rules = _rules_folder(self.path)
        games = {game_key_of(p) for p in rules.glob("*.ludex")}
        if key not in games:          # a misspelt folder: C019, as 'ludex check' says it
            stray = [d for d in stray_scenarios(_game_folder(self.path).parent, games)
                     if d.span.path == str(self.path)]
            raise pytest.Collector.CollectError(render_all(stray))
        try:
            gamedef = _game(key, str(rules))
            parsed = load_scenarios(gamedef, self.path)
        except LudexError as exc:
            raise pytest.Collector.CollectError(render_all(exc.diagnostics)) from None
        seen = {}
        for scenario in parsed.scenarios:
            name = scenario.title
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name} ({seen[name]})"
            item = ScenarioItem.from_parent(self, name=name, scenario=scenario, gamedef=gamedef)
            for tag in scenario.tags:
                self.config.addinivalue_line("markers", f"{tag}: scenarios tagged {tag}")
                item.add_marker(tag)
            yield item

    def _getobj(self):
        return None


class ScenarioFailed(Exception):
    def __init__(self, result):
        self.result = result


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, gamedef, **kwargs):
        super().__init__(**kwargs)
        self.scenario = scenario
        self.gamedef = gamedef

    def runtest(self):
        # imported here: pytest loads this plugin in every run, scenarios or not
        from .runner import failure_marks, run_scenario, trace_lines
        result = run_scenario(self.gamedef, self.scenario)
        if self.config.getoption("ludex_trace", False):
            lines = trace_lines(result, failure_marks(result))
            self.user_properties.append(("ludex trace", f"  {result.status}, {len(result.trace)} events:\n"
                                         + "\n".join(lines)))
        if not result.passed:
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            # imported here: pytest loads this plugin in every run, scenarios or not
            from .runner import render_failure
            result = excinfo.value.result
            head = f"scenario \"{self.scenario.title}\" {result.status}"
            return head + "\n" + render_failure(result)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, self.scenario.span.line - 1, f"{_game_key(self.path)}/{self.path.name}::{self.name}"
