"""The wheel (``pip install .``, not editable): the package ``ludex`` and its bundled files, and nothing
installed at the top level under another name (the import name ``interpreter`` is another project's).

The wheel is built with the project's own build backend, without build isolation (``hatchling`` comes
with the ``test`` extra), and read as the zip it is: nothing is installed.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                    "--quiet", "--wheel-dir", str(out)], check=True, capture_output=True)
    (built,) = out.glob("ludex-*.whl")
    return zipfile.ZipFile(built)


@pytest.fixture(scope="module")
def wheel_names(wheel) -> list[str]:
    return wheel.namelist()


def test_the_wheel_installs_ludex_alone(wheel_names):
    tops = {name.split("/")[0] for name in wheel_names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"ludex"}
    assert "ludex/__init__.py" in wheel_names and "ludex/__main__.py" in wheel_names
    assert "ludex/engine/game.py" in wheel_names and "ludex/runtime/boards/haddonfield.txt" in wheel_names


def test_the_wheel_bundles_grammar_rules_scenarios_docs_and_site_configuration(wheel_names):
    for name in ("grammar/rules.lark", "grammar/scenario.lark", "grammar/log.lark", "grammar/question.lark",
                 "rules/agot.ludex",
                 "rules/halloween.ludex", "scenarios/huntik/turns.scenario", "docs/language.md",
                 "site/mkdocs.yml", "site/overrides/404.html", "site/package.json", "site/package-lock.json"):
        assert f"ludex/_bundled/{name}" in wheel_names, name
    assert "ludex/site/assets/ludex.js" in wheel_names


def test_the_entry_points_name_the_ludex_package(wheel):
    (entry,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    text = wheel.read(entry).decode("utf-8")
    assert "ludex = ludex.command:main" in text and "ludex = ludex.scenarios.plugin" in text
    assert "interpreter" not in text
