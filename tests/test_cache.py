"""The cache folder (``resources.usable_cache_dir``, ``parse/tables.py``'s ``read``/``write``,
``parse/grammars.py``): nothing in it is ever unpickled, a damaged or foreign file is remade, the
folder is the user's alone or not used, nothing is written anywhere else, and two processes filling
it at once leave it whole.

Each check runs ``python -m ludex check`` in a subprocess with its own ``LUDEX_CACHE_DIR`` (and
``TMPDIR``), as a user would.
"""

from __future__ import annotations

import marshal
import os
import pathlib
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ludex.parse import grammars, syntax
from ludex.parse import tables as lalr

ROOT = Path(__file__).resolve().parent.parent
GOOD = 'rule 1 "One" { log "x" }\n'
#: A syntax error: the tables find it (remade from Lark's analysis if missing), then Lark's parser
#: is made for the diagnostic. One check of it reads or writes every file of the cache.
BAD = 'rule 1 "One" { log "x"\n'


class Touch:
    """Unpickled, creates the file ``path``: proof that a pickle was loaded."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return (pathlib.Path.touch, (self.path,))


def check(tmp: Path, cache: Path, text: str, name: str = "t.ludex") -> subprocess.CompletedProcess:
    source = tmp / name
    source.write_text(text, encoding="utf-8")
    temp = tmp / "systemp"
    temp.mkdir(exist_ok=True)
    env = dict(os.environ, LUDEX_CACHE_DIR=str(cache), TMPDIR=str(temp),
               PYTHONPATH=os.pathsep.join([str(ROOT / "interpreter"), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "ludex", "check", str(source)], capture_output=True,
                          text=True, env=env, cwd=tmp, timeout=60)


def assert_diagnosed(result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 3 and "error[E002]: unexpected end of file" in result.stderr, result.stderr


@pytest.fixture(scope="module")
def filled(tmp_path_factory) -> Path:
    """A cache folder as a syntax error's check leaves it: the tables and Lark's parser."""
    tmp = tmp_path_factory.mktemp("filled")
    cache = tmp / "cache"
    assert_diagnosed(check(tmp, cache, BAD))
    return cache


def copy_of(filled: Path, tmp: Path) -> Path:
    cache = tmp / "cache"
    shutil.copytree(filled, cache)
    os.chmod(cache, 0o700)
    return cache


@pytest.mark.parametrize("tables", ["kept", "missing"])
def test_a_pickle_planted_in_the_cache_folder_is_never_loaded(filled, tmp_path, tables):
    cache = copy_of(filled, tmp_path)
    proof = tmp_path / "PWNED"
    # Whatever reads a file as a pickle (after a first line, as Lark's cache files have) runs it.
    payload = b"0\n" + pickle.dumps(Touch(proof)) + pickle.dumps(Touch(proof))
    for path in cache.iterdir():
        if path.suffix == ".tables" and tables == "missing":
            path.unlink()
        elif path.suffix != ".tables":
            path.write_bytes(payload)
    assert_diagnosed(check(tmp_path, cache, BAD))
    assert not proof.exists()
    for path in cache.iterdir():                               # every planted file was remade
        assert path.read_bytes() != payload


def test_a_cache_folder_that_cannot_be_made_means_no_cache_and_nothing_written_elsewhere(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert_diagnosed(check(tmp_path, blocker / "ludex", BAD))
    assert list((tmp_path / "systemp").iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "systemp", "t.ludex"]


def test_the_cache_folder_is_made_for_the_user_alone(filled):
    assert stat.S_IMODE(filled.stat().st_mode) == 0o700
    assert sorted(p.suffix for p in filled.iterdir()) == [".lark", ".tables"]


def test_a_cache_folder_others_can_write_is_not_used(tmp_path):
    cache = tmp_path / "shared"
    cache.mkdir()
    os.chmod(cache, 0o777)
    assert_diagnosed(check(tmp_path, cache, BAD))
    assert list(cache.iterdir()) == []
    assert list((tmp_path / "systemp").iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs to give a folder away")
def test_a_cache_folder_owned_by_another_user_is_not_used(tmp_path):
    cache = tmp_path / "theirs"
    cache.mkdir(mode=0o700)
    os.chown(cache, 65534, 65534)
    assert_diagnosed(check(tmp_path, cache, BAD))
    assert list(cache.iterdir()) == []


def damaged(blob: bytes, proof: Path) -> list[bytes]:
    """A tables file's bytes made wrong in the ways a file can be: garbage, a pickle, cut short,
    another layout, data of another shape (a state's row not a dict; a handler that is no builder
    method; keys missing)."""
    form, material, data = marshal.loads(blob)
    rows = dict(data, states={0: 1})
    rule = data["rules"][0]
    handler = dict(data, rules=[rule[:6] + ("__class__",) + rule[7:]] + data["rules"][1:])
    return [b"\x00garbage", pickle.dumps(Touch(proof)), blob[: len(blob) // 2], marshal.dumps(data),
            marshal.dumps(("other", material, data)), marshal.dumps((form, material, rows)),
            marshal.dumps((form, material, handler)), marshal.dumps((form, material, {"start": 0}))]


def test_a_damaged_or_wrong_shaped_tables_file_is_ignored_and_remade(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("LUDEX_CACHE_DIR", str(cache))
    syntax.tables.cache_clear()
    try:
        good = syntax.tables("rules")
        (path,) = cache.glob("rules-*.tables")
        blob = path.read_bytes()
        for wrong in damaged(blob, tmp_path / "PWNED"):
            path.write_bytes(wrong)
            syntax.tables.cache_clear()
            again = syntax.tables("rules")
            assert again.states == good.states
            assert syntax.parse_rules(GOOD).items[0].id == "1"
            assert path.read_bytes() == blob, "the damaged file is remade"
        assert not (tmp_path / "PWNED").exists()
    finally:
        syntax.tables.cache_clear()


def test_two_processes_filling_an_empty_cache_folder_at_once_leave_it_whole(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    sources = []
    for i in range(2):
        (tmp_path / f"t{i}.ludex").write_text(BAD, encoding="utf-8")
        sources.append(tmp_path / f"t{i}.ludex")
    env = dict(os.environ, LUDEX_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join([str(ROOT / "interpreter"), os.environ.get("PYTHONPATH", "")]))
    runs = [subprocess.Popen([sys.executable, "-m", "ludex", "check", str(s)], env=env, cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for s in sources]
    for run in runs:
        _, err = run.communicate(timeout=60)
        assert run.returncode == 3 and "error[E002]" in err, err
    files = sorted(cache.iterdir(), key=lambda p: p.suffix)
    assert [p.suffix for p in files] == [".lark", ".tables"], files        # no temporary file left
    for path in files:
        form, _, data = marshal.loads(path.read_bytes())
        assert form == lalr.FORMAT
        assert lalr._tables_shape(data) if path.suffix == ".tables" else grammars._loaded(data) is not None
