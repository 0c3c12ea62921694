"""Shared test set-up: the golden files' reset mode, the benchmark scripts loaded as modules, and a
cache folder of the run's own.

``pytest --update-goldens`` rewrites every expected file (``tests/golden/**/*.ast``, ``*.err``) from
what the code produces now, instead of comparing; review the rewrite with ``git diff``.
"""

from __future__ import annotations

import difflib
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from ludex.resources import cache_dir

ROOT = Path(__file__).resolve().parent.parent


_OWN_CACHE = []


def pytest_configure(config):
    """The run's own cache folder (``LUDEX_CACHE_DIR``, inherited by every worker and subprocess), so
    that what a user cached (``ludex mutate``'s results, which ``ludex check``, explain and the site
    show) never changes what a test sees. What only saves time is copied in: the grammars' tables,
    Lark's analysis of them and the playground's prepared archive (each keyed by a digest of what made it)."""
    if os.environ.get("LUDEX_CACHE_DIR"):
        return
    folder = Path(tempfile.mkdtemp(prefix="ludex-tests-"))
    try:
        for pattern in ("*.tables", "*.lark", "playground-*.zip"):     # validated, or keyed, on load
            for made in cache_dir().glob(pattern):
                shutil.copy2(made, folder / made.name)
    except OSError:
        pass
    os.environ["LUDEX_CACHE_DIR"] = str(folder)
    _OWN_CACHE.append(folder)


def pytest_unconfigure(config):
    for folder in _OWN_CACHE:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("LUDEX_CACHE_DIR", None)


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite the expected golden files from the current output (review with git diff)")


class Goldens:
    """Compares produced text with an expected file, or rewrites the file in reset mode."""

    def __init__(self, update: bool):
        self.update = update

    def check(self, expected_path: Path, actual: str) -> None:
        if self.update:
            if not expected_path.exists() or expected_path.read_text(encoding="utf-8") != actual:
                expected_path.write_text(actual, encoding="utf-8")
            return
        if not expected_path.exists():
            pytest.fail(f"{relative(expected_path)} is missing: run pytest --update-goldens and review it")
        expected = expected_path.read_text(encoding="utf-8")
        if expected != actual:
            diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                str(relative(expected_path)), "actual output"))
            pytest.fail(f"output differs from {relative(expected_path)} "
                        f"(pytest --update-goldens rewrites it):\n{diff}", pytrace=False)


def ludex(argv, capsys) -> tuple[int, str, str]:
    """``(exit code, stdout, stderr)`` of the ``ludex`` command called in-process (``cli.main``)."""
    from ludex.cli import main
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def relative(path: Path) -> str:
    """A path relative to the repository, with '/' separators: the same on every machine."""
    return Path(path).resolve().relative_to(ROOT).as_posix()


@pytest.fixture
def goldens(request) -> Goldens:
    return Goldens(request.config.getoption("--update-goldens"))


def load_benchmark(name: str):
    """``benchmarks/NAME.py`` loaded as a module (the scripts are not a package), for the tests that keep
    a benchmark's hand-written side equal to the engine."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
