"""The ``ludex`` command's entry point (the console script and ``python -m ludex``): the command line
in, an exit code out, and a stop by a signal at any moment ending in one line.

Before anything else of ludex is imported (the rules compile at start-up, and an import takes a
while), SIGINT (Ctrl-C) and SIGTERM are given a handler that raises ``Stopped``: the command unwinds
through its ``finally`` clauses (``simulate`` tears its worker processes down there), and ``main``
prints one line on stderr, ``ludex: stopped (SIGINT)``, and returns 130 (SIGINT) or 143 (SIGTERM):
128 plus the signal's number, as a shell reports a command a signal ended. No traceback, no process
left behind. A second signal while the first unwinds ends the process at once, its worker processes
ended first. ``held_signals()`` holds the two signals off over what must be written whole or not at
all (a summary, a JSON document). Once the command has returned, it has ended whole: a signal from
then on is held until the process exits (Python's shutdown puts the default handlers back, under
which a late SIGTERM would end a finished command with no line). (A signal in the milliseconds
before this module has run, while Python itself starts, is Python's to handle.)
"""

from __future__ import annotations

import os
import signal
import sys

#: The signals that stop the command.
STOPS = (signal.SIGINT, signal.SIGTERM)

#: The process that installed the handlers: a child made by ``fork`` inherits them, and must not
#: act as the command does.
_COMMAND_PID = [0]


class Stopped(BaseException):
    """A stop by a signal, raised by the handler. A BaseException, as KeyboardInterrupt is, so that no
    ``except Exception`` keeps it; not a KeyboardInterrupt, so that no handler of Ctrl-C within the
    command (``site serve``'s) takes it for a request it can answer and exit 0."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def exit_code(signum: int) -> int:
    return 128 + signum


def stopped_line(signum: int) -> str:
    return f"ludex: stopped ({signal.Signals(signum).name})"


def _say_stopped(signum: int) -> None:
    try:
        # on a terminal the line would otherwise follow the echoed ^C or a progress bar
        lead = "\n" if sys.stderr.isatty() else ""
        sys.stderr.write(f"{lead}{stopped_line(signum)}\n")
        sys.stderr.flush()
    except (OSError, ValueError):       # stderr closed or gone: the exit code still says it
        pass


def _end_children() -> None:
    """End the worker processes that ``multiprocessing`` made, if it was imported (a hard stop
    skips the ``finally`` clauses that would)."""
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is None:
        return
    try:
        children = multiprocessing.active_children()
        for child in children:
            child.terminate()
        for child in children:
            child.join(2)
            if child.is_alive():
                child.kill()
    except Exception:  # noqa: BLE001, S110 (a hard stop must end: what could not be ended is left)
        pass


def _hard_stop(signum: int) -> None:
    _end_children()
    _say_stopped(signum)
    os._exit(exit_code(signum))


def _on_signal(signum, frame):
    if os.getpid() != _COMMAND_PID[0]:      # a forked child before it set its own handlers
        os._exit(exit_code(signum))
    for s in STOPS:     # the next signal, while this one unwinds, is obeyed at once
        if signal.getsignal(s) != signal.SIG_IGN:
            signal.signal(s, _on_second_signal)
    raise Stopped(signum)


def _on_second_signal(signum, frame):
    if os.getpid() != _COMMAND_PID[0]:
        os._exit(exit_code(signum))
    _hard_stop(signum)


def _on_unraisable(unraisable, default=sys.unraisablehook):
    # a signal whose handler ran inside a finaliser (``__del__``, a weakref callback) raised Stopped
    # where Python can only report it and carry on: the stop is carried out here instead
    if isinstance(unraisable.exc_value, Stopped) and os.getpid() == _COMMAND_PID[0]:
        _hard_stop(unraisable.exc_value.signum)
    default(unraisable)


def install() -> None:
    """Make SIGINT and SIGTERM raise ``Stopped`` in this process; one ignored as the process began
    (as a shell starts a job in the background with ``&``) stays ignored."""
    _COMMAND_PID[0] = os.getpid()
    for s in STOPS:
        if signal.getsignal(s) != signal.SIG_IGN:
            signal.signal(s, _on_signal)
    sys.unraisablehook = _on_unraisable


class held_signals:
    """``with held_signals():`` SIGINT and SIGTERM held off (left pending, not lost) inside the block;
    one that came is obeyed as the block ends. (A class, not ``contextlib``: this module is imported
    before the handlers are set, and so imports as little as it can.)"""

    def __enter__(self):
        self.before = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        return self

    def __exit__(self, *exc):
        signal.pthread_sigmask(signal.SIG_SETMASK, self.before)
        return False


def main(argv=None) -> int:
    try:
        install()
        # imported here, after the handlers: a stop while the command's modules load is one line too
        from .cli import main as command
        code = command(argv)
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        return code
    except Stopped as stop:
        _say_stopped(stop.signum)
        return exit_code(stop.signum)
