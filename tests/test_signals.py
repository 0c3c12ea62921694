"""A stop by a signal, SIGTERM or Ctrl-C's SIGINT, at any moment ends the ``ludex`` command with one
line on stderr and exit code 143 or 130: no traceback, no worker process left running, no half-written
output (``--json`` writes the whole document or nothing), no half-written log.

Each command runs as a real process (``python -m ludex``, from this checkout) in a session of its own,
so that what it leaves behind is found by its session in /proc once it has ended. The tests wait for
what they can see (the command's handlers set, its workers made), never for a time; a command that
finished before the signal came is a pass too, as long as it finished whole.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ludex.resources import cache_dir

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "interpreter")] + ([os.environ["PYTHONPATH"]]
                                                   if os.environ.get("PYTHONPATH") else [])))

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


def _signals_as_at_a_terminal():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


#: The test runner may run with SIGINT or SIGTERM ignored (as a shell starts a job in the background),
#: and a command started so keeps ignoring them: then, and only then (``preexec_fn`` is not safe with
#: threads), they are given back their default in the command's process before it starts.
IGNORED = any(signal.getsignal(s) == signal.SIG_IGN for s in (signal.SIGINT, signal.SIGTERM))


def start(*argv, env=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ludex", *argv], env=env or ENV, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_signals_as_at_a_terminal if IGNORED else None)  # noqa: PLW1509


def stat(pid: str) -> list[str]:
    """A process's /proc stat fields after its name: state, parent, group, session, ..."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:         # (it ended while being read)
        return []
    return text[text.rindex(")") + 2:].split()


def living(where: int, field: int) -> list[int]:
    """The processes alive (zombies are not) whose stat field ``field`` (1 parent, 3 session) is ``where``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = stat(entry)
            if fields and fields[0] != "Z" and fields[field] == str(where):
                found.append(int(entry))
    return found


def wait_until(ready, proc: subprocess.Popen, patience: float = 60.0) -> None:
    """Wait until ``ready()`` or the process has ended (or, past ``patience`` seconds, go on: the
    outcome is then what is judged)."""
    limit = time.monotonic() + patience
    while not ready() and proc.poll() is None and time.monotonic() < limit:
        time.sleep(0.005)


def handlers_set(proc: subprocess.Popen):
    """Whether the command has set its SIGTERM handler (``ludex.command``, before ludex's imports):
    from then on a stop is the command's to handle."""
    def ready():
        try:
            status = Path(f"/proc/{proc.pid}/status").read_text()
        except OSError:
            return False
        caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
        return bool(caught & (1 << (signal.SIGTERM - 1)))
    return ready


def stop(proc: subprocess.Popen, signum: int, after: float = 0.0, group: bool = False,
         ending: float = 0.0) -> tuple[int, str, str]:
    """Send ``signum`` after ``after`` seconds: to the command, or to its whole process group (``group``:
    as a terminal sends Ctrl-C's SIGINT); then the outcome, once nothing of the command is left (a
    process of its own still ending, ``ending`` seconds at most after the command has, is not left)."""
    time.sleep(after)
    if proc.poll() is None:
        if group:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    limit = time.monotonic() + ending
    while living(proc.pid, 3) and time.monotonic() < limit:
        time.sleep(0.05)
    left = living(proc.pid, 3)
    for pid in left:                      # not to leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"processes left running after the command ended: {left}"
    return proc.returncode, out.decode(), err.decode()


def assert_stopped(code: int, err: str, signum: int):
    assert "Traceback" not in err and "Error" not in err, err
    assert err.splitlines() == [f"ludex: stopped ({signal.Signals(signum).name})"], err
    assert code == 128 + signum


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_simulate_stopped_while_its_workers_play_leaves_no_process_and_writes_nothing(signum):
    proc = start("simulate", "huntik", "--games", "100000", "--jobs", "2", "--json")
    wait_until(lambda: len(living(proc.pid, 1)) >= 2, proc)
    code, out, err = stop(proc, signum, after=0.3)
    assert_stopped(code, err, signum)
    assert out == ""


# the stop as the workers play keeps a cluster running 8 s and more: slow (pytest -m slow)
@pytest.mark.parametrize("signum, after", [(signal.SIGTERM, 1.0),
                                           pytest.param(signal.SIGINT, 8.0, marks=pytest.mark.slow)])
def test_simulate_on_a_local_cluster_stopped_is_one_line_and_leaves_no_process(signum, after):
    """Stopped as its workers start (1 s after they were made), or as they play (8 s: start-up takes
    2 to 8 s here); SIGINT as Ctrl-C sends it, to the whole process group, workers included, which
    leave the stop to the command: one line, no worker left, nothing written."""
    if not os.environ.get("CI"):        # CI installs the 'test' extra, which brings Dask: there it never skips
        pytest.importorskip("distributed", reason="needs the 'cluster' extra (the 'test' extra brings it)")
    proc = start("simulate", "huntik", "--games", "5000", "--cluster", "local", "--jobs", "2", "--json")
    wait_until(lambda: len(living(proc.pid, 1)) >= 2, proc)
    # (a Dask worker process, or Python's resource tracker, may take a moment more to end on a busy machine)
    code, out, err = stop(proc, signum, after=after, group=signum == signal.SIGINT, ending=10.0)
    assert_stopped(code, err, signum)
    assert out == ""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_mutate_stopped_while_its_workers_run_leaves_no_process_and_writes_nothing(signum, tmp_path):
    # a cache folder of its own, with the parse tables but no results: the workers have mutants to run
    for made in [*cache_dir().glob("*.tables"), *cache_dir().glob("*.lark")]:
        shutil.copy(made, tmp_path)
    proc = start("mutate", "huntik", "--jobs", "2", "--json", env=dict(ENV, LUDEX_CACHE_DIR=str(tmp_path)))
    wait_until(lambda: len(living(proc.pid, 1)) >= 2, proc)
    code, out, err = stop(proc, signum, after=0.3)
    assert_stopped(code, err, signum)
    assert out == "" and not list(tmp_path.glob("*mutants-*"))


def test_simulate_killed_outright_leaves_no_worker_behind():
    """SIGKILL ends the parent before it can end its workers: they notice and end themselves, without
    a word (the parent's end cannot be one line: it is given no moment to write it)."""
    proc = start("simulate", "huntik", "--games", "100000", "--jobs", "2")
    wait_until(lambda: len(living(proc.pid, 1)) >= 2, proc)
    time.sleep(0.3)
    proc.kill()
    _, err = proc.communicate(timeout=120)      # (until the workers, which hold its pipes too, end)
    assert "Traceback" not in err.decode(), err.decode()
    limit = time.monotonic() + 60
    while living(proc.pid, 3) and time.monotonic() < limit:
        time.sleep(0.05)
    left = living(proc.pid, 3)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"workers left running after their parent was killed: {left}"


@pytest.mark.parametrize("after", [0.0, 0.4, 0.8, 1.2])
def test_simulate_stopped_at_any_moment_ends_whole_or_writes_nothing(after):
    """From start-up to the summary: stopped (nothing on stdout, or the whole JSON if the stop came as
    it was written), or finished with its whole summary."""
    proc = start("simulate", "huntik", "--games", "150", "--jobs", "2", "--json")
    wait_until(handlers_set(proc), proc)
    code, out, err = stop(proc, signal.SIGTERM, after=after)
    if code == 0:
        assert err == "" and json.loads(out)["games"] == 150
    else:
        assert_stopped(code, err, signal.SIGTERM)
        assert out == "" or json.loads(out)["games"] == 150


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_after_the_command_has_finished_leaves_its_outcome(signum):
    """A signal that comes once the command has returned, while Python shuts down (sent here from an
    ``atexit`` callback, which runs then), does not turn a finished command into a stopped one: it is
    held, so it reaches neither the handler nor the default ones shutdown puts back later, and the
    command exits as it finished."""
    script = ("import atexit, os, sys\n"
              f"atexit.register(os.kill, os.getpid(), {int(signum)})\n"
              "from ludex.command import main\n"
              "sys.exit(main(['explain', 'huntik', '502.1']))\n")
    done = subprocess.run([sys.executable, "-c", script], env=ENV, cwd=ROOT, capture_output=True, text=True,
                          timeout=120, preexec_fn=_signals_as_at_a_terminal if IGNORED else None)  # noqa: PLW1509
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("502.1 ")


def test_ctrl_c_at_start_up_is_one_line_at_every_moment(tmp_path):
    """``ludex run agot --log X`` stopped while it imports and compiles the rules, or while it plays:
    one line, exit 130, and no log (the game is not one the log could be of)."""
    stopped = 0
    for n, after in enumerate([0.0, 0.05, 0.2, 0.5]):
        log = tmp_path / f"game{n}.log"
        proc = start("run", "agot", "--log", str(log))
        wait_until(handlers_set(proc), proc)
        code, out, err = stop(proc, signal.SIGINT, after=after)
        if code == 0:                       # it finished first: whole
            assert err == "" and "game over after" in out and log.exists()
            continue
        assert_stopped(code, err, signal.SIGINT)
        assert not log.exists()
        stopped += 1
    assert stopped, "no run was stopped: each ended before its signal"


@pytest.mark.parametrize("argv", [["check"], ["run", "agot", "--json"], ["explain", "agot", "3.3"]])
def test_sigterm_stops_every_command_with_one_line(argv):
    proc = start(*argv)
    wait_until(handlers_set(proc), proc)
    code, out, err = stop(proc, signal.SIGTERM)
    assert_stopped(code, err, signal.SIGTERM)
    if "--json" in argv:
        assert out == ""
