"""Mutation fuzzing: a broken rules, scenario or log file is a positioned error, never a traceback.

Mutants of the bundled rules (``rules/*.ludex``), scenarios (``scenarios/**/*.scenario``) and logs
(``scenarios/logs/**/*.log``): lines and tokens deleted, duplicated or swapped, characters replaced,
numbers made huge or negative, quotes and braces removed, bytes that are not UTF-8 and NULs put in.
Each goes through the entry points a user reaches, in-process for speed: ``ludex check PATH``,
``ludex fmt --check``, ``ludex run --max-steps`` for rules that check, ``ludex check-log``, and the
scenario runner the pytest plugin calls. Each must end with one of the documented exit codes (0, 1, 2,
3), print no traceback, let no exception out, and end within ``CASE_SECONDS`` (a hang is failed, not
waited for). Seeded: the same mutants every run, on every machine.

The plain ``pytest`` runs the first ``PLAIN_CASES`` mutants; the rest of the ``CASES`` are marked ``slow``
and run in ``pytest -m slow`` (a mutant does not depend on how many are drawn, so the two runs together
are the ``CASES`` of one seed). ``LUDEX_FUZZ_CASES=N pytest -m "slow or not slow" tests/test_fuzz.py``
runs N mutants; ``LUDEX_FUZZ_SEED`` another seed. A mutant that ever failed
is kept as a golden error test (``tests/golden/errors/``) and its case below in ``FOUND``.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ludex.cli import main
from ludex.diagnostics import LudexError, render_all

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").glob("*.ludex"))
SCENARIOS = sorted(p for p in (ROOT / "scenarios").rglob("*.scenario"))
LOGS = sorted((ROOT / "scenarios" / "logs").rglob("*.log"))

SEED = int(os.environ.get("LUDEX_FUZZ_SEED", "20261202"))
#: Mutants in all: 200 take about 26 s on one quiet core, too long for the plain ``pytest``.
CASES = int(os.environ.get("LUDEX_FUZZ_CASES", "200"))
#: Of those, the mutants the plain ``pytest`` runs (every source kind and every mutation kind, as cases
#: take them in turn: 3 x 11 = 33 cases cover each pair once); the others are marked ``slow``.
PLAIN_CASES = 40
#: A case taking longer than this is a hang (the slowest take about 1 s).
CASE_SECONDS = 30
EXIT_CODES = {0, 1, 2, 3}

# ------------------------------------------------------------------ mutations

#: A token: a string, a word or number (ids like 3.2, names like has-been-active), or one other character.
TOKEN = re.compile(r'"[^"\n]*"|[\w.-]+|[^\s\w]')
NUMBER = re.compile(r"(?<![\w.])\d+(?![\w])")
#: Numbers that cannot be meant: huge (past Python's 4,300-digit limit on int() of a string too),
#: negative, zero, past 64 bits.
NUMBERS = ["0", "-1", "-999999999", "999999999999", str(2 ** 64), "9" * 40, "1" * 5000, "00", "1.5", "3.2.1"]
#: Characters put in place of one: the language's punctuation, quotes, white space a parser may trip
#: on, and characters past ASCII (wide, combining, a line separator).
CHARACTERS = list('{}()[]"\'#:;,.=<>+-*/\\|!?@$%^&~`') + ["\t", "\r", "\f", "\v", "\u00e9", "\u4e00", "\u0301",
                                                             "\u2028", "\ufeff", "\U0001f600", " ", "\n"]
#: Bytes that are not text: not UTF-8 (a lone continuation byte, a start byte cut short, an overlong
#: form, a surrogate) and NUL.
BAD_BYTES = [b"\xff", b"\xfe", b"\x80", b"\xc3", b"\xe2\x82", b"\xc0\xaf", b"\xed\xa0\x80", b"\x00", b"\x00\x00"]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def delete_line(rng, text):
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(rng, text):
    lines = _lines(text)
    at = rng.randrange(len(lines))
    lines.insert(at, lines[at])
    return "\n".join(lines)


def swap_lines(rng, text):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    j = min(len(lines) - 1, i + 1) if rng.random() < 0.5 else rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _tokens(text):
    return list(TOKEN.finditer(text)) or [re.match(r"", text)]


def delete_token(rng, text):
    t = rng.choice(_tokens(text))
    return text[:t.start()] + text[t.end():]


def duplicate_token(rng, text):
    t = rng.choice(_tokens(text))
    return text[:t.end()] + " " + t.group() + text[t.end():]


def swap_tokens(rng, text):
    tokens = _tokens(text)
    i = rng.randrange(len(tokens))
    # a neighbour most often (what a slip of the hand does), else any token of the file
    j = min(len(tokens) - 1, i + 1) if rng.random() < 0.7 else rng.randrange(len(tokens))
    a, b = sorted((tokens[i], tokens[j]), key=lambda m: m.start())
    if a.start() == b.start():
        return text
    return text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():]


def replace_character(rng, text):
    if not text:
        return rng.choice(CHARACTERS)
    at = rng.randrange(len(text))
    return text[:at] + rng.choice(CHARACTERS) + text[at + 1:]


def change_number(rng, text):
    numbers = list(NUMBER.finditer(text))
    if not numbers:
        return replace_character(rng, text)
    n = rng.choice(numbers)
    return text[:n.start()] + rng.choice(NUMBERS) + text[n.end():]


def remove_quote(rng, text):
    quotes = [m.start() for m in re.finditer('"', text)]
    if not quotes:
        return delete_token(rng, text)
    at = rng.choice(quotes)
    return text[:at] + text[at + 1:]


def remove_brace(rng, text):
    braces = [m.start() for m in re.finditer(r"[{}()\[\]]", text)]
    if not braces:
        return delete_token(rng, text)
    at = rng.choice(braces)
    return text[:at] + text[at + 1:]


TEXT_MUTATIONS = {f.__name__: f for f in (delete_line, duplicate_line, swap_lines, delete_token, duplicate_token,
                                         swap_tokens, replace_character, change_number, remove_quote,
                                         remove_brace)}


def bad_bytes(rng, data: bytes) -> bytes:
    """Bytes that are not text put in at a random place (or a run of random bytes)."""
    at = rng.randrange(len(data) + 1)
    junk = rng.choice(BAD_BYTES) if rng.random() < 0.8 else bytes(rng.randrange(256) for _ in range(8))
    return data[:at] + junk + data[at:]


KINDS = [*TEXT_MUTATIONS, "bad_bytes"]


def mutant(rng: random.Random, kind: str, data: bytes) -> bytes:
    """One to three mutations of one kind (the last may follow another kind's, to pile up damage)."""
    if kind == "bad_bytes":
        return bad_bytes(rng, data)
    text = data.decode("utf-8")
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        text = TEXT_MUTATIONS[kind](rng, text)
    return text.encode("utf-8", "surrogatepass")


def cases(count: int, seed: int, plain: int | None = None):
    """``count`` cases (source, kind, seed), the same for a seed on every machine: the sources' kinds in
    turn (rules, scenarios, logs), each kind of mutation in turn, the file and the damage drawn. With
    ``plain``, the cases after the first ``plain`` are marked ``slow``."""
    rng = random.Random(seed)
    sources = [RULES, SCENARIOS, LOGS]
    out = []
    for i in range(count):
        source = rng.choice(sources[i % 3])
        marks = [pytest.mark.slow] if plain is not None and i >= plain else []
        out.append(pytest.param(source, KINDS[(i // 3) % len(KINDS)], rng.randrange(2 ** 32), marks=marks,
                                id=f"{i:04d}-{KINDS[(i // 3) % len(KINDS)]}-{source.parent.name}-{source.stem}"))
    return out


# ------------------------------------------------------------------ running one case


class Hung(BaseException):
    """A case that ran past CASE_SECONDS (a BaseException: no ``except Exception`` of the code swallows it)."""


def _hung(signum, frame):
    raise Hung(f"no answer after {CASE_SECONDS} s")


@pytest.fixture
def deadline():
    """Fails a case that hangs instead of waiting for it (SIGALRM, which only the main thread may set:
    pytest and its xdist workers run tests there; elsewhere the case runs unguarded)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    before = signal.signal(signal.SIGALRM, _hung)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, before)


def ludex(argv, capsys) -> tuple[int, str]:
    """Exit code and output of ``ludex ARGV`` run in-process, asserting it ended as documented."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as stop:          # usage errors leave through SystemExit, as on the console
        code = stop.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out, f"ludex {' '.join(map(str, argv))}:\n{err}"
    assert code in EXIT_CODES, f"ludex {' '.join(map(str, argv))} exited {code!r}:\n{err}"
    return code, out + err


def _game_of(source: Path) -> str:
    """The bundled game a scenario or log belongs to: its folder's name."""
    return source.parent.name


def exercise(path: Path, source: Path, seed: int, capsys) -> None:
    """Every entry point that reads a file like ``source``, on ``path`` (its mutant)."""
    if source.suffix == ".ludex":
        code, _ = ludex(["check", path], capsys)
        ludex(["fmt", "--check", path], capsys)
        if code == 0:
            # a step budget and a round limit: a mutant that loops ends with R001 or R002 (exit 3)
            ludex(["run", path, "--seed", seed % 1000, "--max-steps", 20000, "--max-rounds", 3], capsys)
            logs = sorted((ROOT / "scenarios" / "logs" / path.stem).glob("legal-*.log"))
            if logs:
                ludex(["check-log", path, logs[0]], capsys)
    elif source.suffix == ".scenario":
        ludex(["fmt", "--check", path], capsys)
        run_scenarios(path, _game_of(source))
    else:
        ludex(["check-log", _game_of(source), path] + (["--all", "--json"] if seed % 2 else []), capsys)


def run_scenarios(path: Path, game: str) -> None:
    """What the pytest plugin does with a scenario file: load it, run each scenario, render the result."""
    from ludex.load import load_game
    from ludex.scenarios.runner import load_scenarios, render_failure, run_scenario
    gamedef = load_game(game).game
    try:
        parsed = load_scenarios(gamedef, path)
    except LudexError as exc:
        assert render_all(exc.diagnostics)
        return
    for scenario in parsed.scenarios:
        result = run_scenario(gamedef, scenario)
        if not result.passed:
            assert render_failure(result)


@pytest.mark.fuzz
@pytest.mark.parametrize("source, kind, seed", cases(CASES, SEED, PLAIN_CASES))
def test_a_mutant_is_a_positioned_error_or_runs_never_a_traceback(source, kind, seed, tmp_path, capsys, deadline):
    data = mutant(random.Random(seed), kind, source.read_bytes())
    # the file keeps its name: a rules file's game key and a scenario's or log's game are its own
    path = tmp_path / source.name
    path.write_bytes(data)
    exercise(path, source, seed, capsys)


#: Cases that failed once, run again on every run: (seed, case number, what was wrong). A case's mutant
#: does not depend on how many cases are run.
FOUND = [
    (7, 384, ("a rule numbered with 5,000 digits: int() refused it ordering the rules, a traceback "
              "(golden: errors/fuzz_rule_number_of_4301_digits)")),
]


@pytest.mark.parametrize("seed, number, why", FOUND, ids=[f"{s}-{n}" for s, n, _ in FOUND])
def test_a_case_that_failed_once_passes(seed, number, why, tmp_path, capsys, deadline):
    source, kind, case_seed = cases(number + 1, seed)[number].values
    path = tmp_path / source.name
    path.write_bytes(mutant(random.Random(case_seed), kind, source.read_bytes()))
    exercise(path, source, case_seed, capsys)


# ------------------------------------------------------------------ the same through the console


@pytest.mark.parametrize("source, kind", [(RULES[0], "bad_bytes"), (LOGS[0], "remove_quote")],
                         ids=lambda v: v if isinstance(v, str) else v.name)
def test_a_mutant_run_as_the_command_prints_no_traceback(source, kind, tmp_path):
    """The command itself, started as a user starts it, with a time limit: what runs in-process above
    (with its output captured) behaves the same on the console."""
    path = tmp_path / source.name
    path.write_bytes(mutant(random.Random(SEED), kind, source.read_bytes()))
    argv = ["check", str(path)] if source.suffix == ".ludex" else ["check-log", _game_of(source), str(path)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "interpreter"),
                                                                     os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "ludex", *argv], capture_output=True, text=True, timeout=120,
                          env=env, check=False)
    assert done.returncode in EXIT_CODES and "Traceback" not in done.stderr, done.stderr


def test_the_mutations_are_seeded_and_change_the_file():
    """The same seed, the same mutants (so a failure found is a failure again); and each kind of
    mutation changes most files it is given."""
    first = [mutant(random.Random(s), k, p.read_bytes()) for p, k, s in (c.values for c in cases(40, SEED))]
    again = [mutant(random.Random(s), k, p.read_bytes()) for p, k, s in (c.values for c in cases(40, SEED))]
    assert first == again
    for kind in KINDS:
        changed = sum(mutant(random.Random(s), kind, p.read_bytes()) != p.read_bytes()
                      for s, p in enumerate(RULES + SCENARIOS[:6] + LOGS[:6]))
        assert changed >= 10, kind
