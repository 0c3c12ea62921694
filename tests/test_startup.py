"""Start-up: ``ludex --help``, a command's ``--help`` and a usage error import nothing of the pipeline
(no parser, no AST, no checker, no engine, no command body: ``cli.py`` imports a command's module of
``commands/`` when it runs), and a check of rules files alone no scenario runner nor engine. Each case
runs in a fresh Python process, which reports the modules it ended with; nothing is timed here
(``benchmarks/startup.py`` measures the start-up's CPU time against Python's own).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What no help text or usage error needs: the pipeline's stages and what loads them.
HEAVY_PACKAGES = ("ludex.parse", "ludex.check", "ludex.program", "ludex.runtime", "ludex.engine",
                  "ludex.scenarios", "ludex.compliance", "ludex.fmt", "lark")
HEAVY_MODULES = ("ludex.load", "ludex.diagnostics", "ludex.explain", "ludex.lookup")

#: In the fresh process: ``ludex.cli.main`` on the arguments given, then the modules loaded, as JSON.
PROBE = """
import json, sys
from ludex.cli import main
try:
    code = main(json.loads(sys.argv[1]))
except SystemExit as stop:
    code = stop.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT / "interpreter"))


def heavy(modules) -> list:
    """The modules of those given that a help text or a usage error should not have loaded."""
    return sorted(m for m in modules if m in HEAVY_MODULES
                  or any(m == p or m.startswith(p + ".") for p in HEAVY_PACKAGES)
                  or m.startswith(("ludex.site.", "ludex.commands.")))


def loaded_by(argv: list) -> tuple[int, list]:
    """The exit code of ``ludex ARGV`` called in a fresh process, and the modules it loaded."""
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv)], cwd=ROOT, env=env(),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    return found["code"], found["modules"]


def test_the_heavy_modules_are_told_apart():
    """The check itself: the pipeline's modules are caught, the light ones and look-alikes are not."""
    caught = ["lark", "lark.lexer", "ludex.check.checks", "ludex.commands.check", "ludex.commands.common",
              "ludex.engine.game", "ludex.load", "ludex.parse", "ludex.parse.ast", "ludex.site.build"]
    assert heavy(caught) == caught
    assert heavy(["ludex", "ludex.cli", "ludex.command", "ludex.commands", "ludex.resources", "ludex.site", "larkspur",
                  "ludex.parser_notes", "argparse"]) == []


def test_a_command_run_loads_the_pipeline():
    """The probe sees an import when there is one: a command that checks rules loads the parser."""
    code, modules = loaded_by(["check", "--json", str(ROOT / "rules" / "huntik.ludex")])
    assert code == 0
    assert {"ludex.parse.ast", "ludex.check.checks", "ludex.load"} <= set(modules)


#: What a check of rules files alone runs without: no scenario is run, so no engine and no compiler.
SCENARIO_MODULES = ("ludex.scenarios.runner", "ludex.engine.game", "ludex.program.program", "ludex.commands.scenario_runs")


def test_a_check_of_rules_files_loads_no_scenario_runner_nor_engine():
    code, modules = loaded_by(["check", str(ROOT / "rules" / "huntik.ludex")])
    assert code == 0
    assert "ludex.commands.check" in modules and "ludex.check.checks" in modules
    assert [m for m in SCENARIO_MODULES if m in modules] == []


def test_a_check_of_a_bundled_game_loads_what_runs_its_scenarios():
    """The probe above would see them: a check by a game's name runs its scenarios."""
    code, modules = loaded_by(["check", "--json", "huntik"])
    assert code == 0
    assert [m for m in SCENARIO_MODULES if m in modules] == list(SCENARIO_MODULES)


@pytest.mark.parametrize("argv, code", [
    (["--help"], 0),
    ([], 2),                                    # no command: the help, as a usage error
    (["run", "--help"], 0),
    (["check", "--help"], 0),
    (["simulate", "--help"], 0),
    (["site", "--help"], 0),
    (["run"], 2),                               # a usage error: the game is missing
    (["run", "huntik", "--seed", "x"], 2),      # a usage error in an argument's value
    (["nonesuch"], 2),                          # no such command
])
def test_help_and_usage_errors_load_nothing_of_the_pipeline(argv, code):
    got, modules = loaded_by(argv)
    assert got == code
    assert heavy(modules) == []
    assert "ludex.cli" in modules


def test_the_command_itself_loads_nothing_of_the_pipeline_for_its_help():
    """``python -m ludex --help`` as a user runs it, through the entry point (``ludex.command``), seen
    by Python's own report of every import it makes (``-X importtime``)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "ludex", "--help"], cwd=ROOT, env=env(),
                          capture_output=True, text=True)
    assert done.returncode == 0 and "usage: ludex" in done.stdout
    imported = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:") and "|" in line]
    assert "ludex.cli" in imported and "ludex.command" in imported
    assert heavy(imported) == []
