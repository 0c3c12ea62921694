"""Front-end speed, as figures and ratios measured in one run. The machine is shared and noisy, so each
figure is the best of a few repetitions and is CPU time (``time.process_time``, and the children's
CPU time for fresh processes): on an idle machine wall time is the same, on a busy one it is not.

1. Parsing with positions -- ``ludex.parse.syntax.parse_rules``: the nesting scan, then the parse
   tables (Lark's LALR analysis run by ``interpreter/ludex/parse/tables.py``) building the AST at each reduction --
   in lines per second, for the bundled rules files and for a synthetic 20,000-line file of
   realistic rule blocks with distinct ids; the ratio to the target of 10,000 lines/s. The time for
   a 5,000-line file. For comparison, Lark's own parse and the tree walk (still used for a malformed
   text, to say what is wrong).
2. Loading the grammar in a fresh process: the parse tables (all a parse needs) and Lark's grammar
   (needed for a syntax error only), cold (the cache folder empty: Lark analyses the grammar, the
   tables are taken from it, both are written) and warm (read from the cache), in ms. Each process
   gets a temporary folder of its own as LUDEX_CACHE_DIR and TMPDIR, so nothing outside is touched.
3. ``ludex check`` of one small rules file from a fresh process, warm and cold cache, in ms; with
   the bytecode as this environment leaves it (``PYTHONDONTWRITEBYTECODE`` set: every module
   compiled from source in every process) and with the bytecode cached, as after ``pip install``.

Run: python benchmarks/parse.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ludex.diagnostics import SourceError  # noqa: E402
from ludex.resources import rules_dir  # noqa: E402
from ludex.parse.mistakes import check_nesting  # noqa: E402
from ludex.parse.syntax import Builder, parse_rules, parser, tables  # noqa: E402

TARGET_LINES_PER_SECOND = 10_000
SMALL_FILE = ROOT / "tests" / "golden" / "parse" / "agot_excerpt.ludex"

# One section of a game as a transcription writes it: a heading rule, steps with reference text,
# an action with requirements, a window, a trigger, a state check, a value and a modifier. {n} makes
# the ids distinct; each block is BLOCK_LINES lines.
BLOCK = '''# ---------------------------------------------------------------- section {n}
rule {n} "Marshaling phase {n}" {{
  text "Players marshal cards during this phase."
}}
rule {n}.1 "Marshaling phase begins" {{
  text """This step formalizes the beginning of the marshaling phase. The beginning of a phase is an
  important game milestone that may be referenced in card text."""
  begin phase marshaling
}}
rule {n}.2 "Active player collects income" {{
  text """The active player collects income equal to the gold value on his or her revealed plot card,
  and marshals cards during an action window (see step {n}.3)."""
  note "Income incorporates all relevant gold modifiers."
  value income(p) = top(p.revealed-plots).gold + (count c in cards(p.play-area): c.cost > 2)
  action marshal{n} "marshal a card" by p (c: card from p.hand) {{
    let cost = c.cost
    require p == active-player cite {n}.2 "Only the active player may marshal cards."
    require cost <= p.gold or duplicate-in-play(c) cite {n}.2 "You do not have enough gold."
    decrease p.gold by cost
    move c to p.play-area
  }}
  transfer income(active-player) from treasury to active-player.gold
  window "Marshaling action window" starting with first-player {{ any number of marshal{n}, pass }}
}}
rule {n}.3 "Next player becomes active player" {{
  text """If upon reaching this step all players have been the active player this phase, proceed to
  step {n}.4. Otherwise, the next player becomes the active player. Return to step {n}.2."""
  if every p in players: p.has-been-active {{ proceed to {n}.4 }}
  set active-player = next-player(active-player)
  when end round {{ modify income(active-player) by -1 until end of round }}
  whenever size(p.draw-deck) == 0 for p in players {{ eliminate p }}
  return to {n}.2
}}
rule {n}.4 "Marshaling phase ends" {{
  text "This step formalizes the end of the marshaling phase."
  for each p in players-from(first-player) {{
    if p.gold > 0 {{ transfer p.gold from p.gold to treasury }} else {{ log "nothing to return" }}
  }}
  end phase marshaling
}}
'''
BLOCK_LINES = BLOCK.count("\n")


def synthetic(lines: int) -> str:
    """About ``lines`` lines of rule blocks, each section with ids of its own."""
    return "".join(BLOCK.format(n=n) for n in range(1, lines // BLOCK_LINES + 1))


def best_time(fn, repeat: int) -> float:
    """The least CPU time ``fn`` took in ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def parse_speed(text: str, path: str, repeat: int) -> tuple[int, float]:
    """(lines, seconds) for parsing ``text`` with positions, AST included (the grammar is loaded
    before: ``main`` loads it first)."""
    return text.count("\n") + 1, best_time(lambda: parse_rules(text, path), repeat)


# ------------------------------------------------------------------ fresh processes

LOAD = r'''
import json, sys, time
start = time.process_time()
from ludex.parse import syntax
figures = {"import": time.process_time() - start}
for what in sys.argv[1:]:
    start = time.process_time()
    syntax.parser("rules") if what == "lark" else syntax.tables("rules")
    figures[what] = time.process_time() - start
figures["lark imported"] = "lark" in sys.modules
print(json.dumps(figures))
'''


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fresh_process(args: list, cache: str, bytecode: str = "") -> tuple[float, subprocess.CompletedProcess]:
    """Run ``python ARGS`` with ``cache`` as its cache folder and TMPDIR (where Lark would keep its
    cache); with ``bytecode``, modules' bytecode is written to and read from that folder. Its CPU
    seconds."""
    env = dict(os.environ, TMPDIR=cache, LUDEX_CACHE_DIR=cache,
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = bytecode
    start = children_cpu()
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True)
    return children_cpu() - start, done


def load(cache: str, *what: str) -> dict:
    seconds, done = fresh_process(["-c", LOAD, *what], cache)
    if done.returncode != 0:
        raise SystemExit(f"loading the grammar failed:\n{done.stderr}")
    figures = json.loads(done.stdout)
    figures["process"] = seconds
    return figures


def grammar_loads(repeat: int) -> dict:
    """The best of each: cold (Lark's analysis, then the tables taken from it, in one process) and
    warm (the tables alone, Lark's grammar alone, each in a process of its own)."""
    runs: dict[str, list] = {"cold": [], "tables": [], "lark": []}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="ludex-bench-") as cache:
            runs["cold"].append(load(cache, "lark", "tables"))
            if not list(Path(cache).glob("rules-*.tables")) or not list(Path(cache).glob("lark-rules-*")):
                raise SystemExit("the cold load wrote no cache: cannot measure a warm load")
            runs["tables"].append(load(cache, "tables"))
            runs["lark"].append(load(cache, "lark"))
    return {
        "cold lark": min(r["lark"] for r in runs["cold"]),
        "cold tables": min(r["tables"] for r in runs["cold"]),
        "warm tables": min(runs["tables"], key=lambda r: r["tables"]),
        "warm lark": min(runs["lark"], key=lambda r: r["lark"]),
    }


def check_command(repeat: int, bytecode: bool) -> tuple[float, float, int]:
    """Seconds for ``ludex check FILE`` in a fresh process, with a warm and with a cold cache."""
    args = ["-m", "ludex.cli", "check", str(SMALL_FILE)]
    warm, cold, code = [], [], 0
    with tempfile.TemporaryDirectory(prefix="ludex-bench-pyc-") as pyc:
        if bytecode:
            with tempfile.TemporaryDirectory(prefix="ludex-bench-") as cache:
                fresh_process(args, cache, pyc)                    # writes the bytecode
        for _ in range(repeat):
            with tempfile.TemporaryDirectory(prefix="ludex-bench-") as cache:
                seconds, done = fresh_process(args, cache, pyc if bytecode else "")
                cold.append(seconds)
                seconds, done = fresh_process(args, cache, pyc if bytecode else "")
                warm.append(seconds)
                code = done.returncode
                if code != 0:
                    print(done.stdout + done.stderr, file=sys.stderr)
    return min(warm), min(cold), code


# ------------------------------------------------------------------ report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="repetitions per figure; the best is shown")
    args = ap.parse_args(argv)
    repeat = max(1, args.repeat)
    ms = lambda s: f"{s * 1000:8.1f} ms"  # noqa: E731

    tables("rules")
    parser("rules")
    print(f"parsing with positions (parse_rules, AST included), CPU time, best of {repeat}; "
          f"target {TARGET_LINES_PER_SECOND:,} lines/s")
    total_lines = total_seconds = 0
    for path in sorted(rules_dir().glob("*.ludex")):
        text = path.read_text(encoding="utf-8")
        try:
            lines, seconds = parse_speed(text, str(path), repeat)
        except SourceError as exc:
            print(f"  {path.name:<26} does not parse ({exc.diagnostics[0].span}): left out")
            continue
        total_lines += lines
        total_seconds += seconds
        print(f"  {path.name:<26} {lines:7,} lines {ms(seconds)} {lines / seconds:10,.0f} lines/s")
    if total_seconds:
        rate = total_lines / total_seconds
        print(f"  {'bundled rules, together':<26} {total_lines:7,} lines {ms(total_seconds)} {rate:10,.0f} lines/s"
              f"   ratio to target: {rate / TARGET_LINES_PER_SECOND:.2f}")
    whole = {}
    for size in (20_000, 5_000):
        text = synthetic(size)
        lines, seconds = whole[size] = parse_speed(text, f"<synthetic {size}>", repeat)
        rate = lines / seconds
        print(f"  {'synthetic ' + format(lines, ',') + ' lines':<26} {lines:7,} lines {ms(seconds)} "
              f"{rate:10,.0f} lines/s   ratio to target: {rate / TARGET_LINES_PER_SECOND:.2f}")

    # Where the time of the 20,000-line parse goes, and what Lark's own parse and the tree walk
    # (the path a malformed text takes) would take for it.
    text = synthetic(20_000)
    lines = text.count("\n") + 1
    whole = whole[20_000][1]
    scan = best_time(lambda: check_nesting(text, "<scan>"), repeat)
    lark = best_time(lambda: Builder("<lark>").build(parser("rules").parse(text)), repeat)
    print(f"  where the 20,000 lines go: nesting scan {scan / whole:.0%}, tables and AST builder "
          f"{max(0.0, whole - scan) / whole:.0%}")
    print(f"  Lark's own parse and tree walk instead: {lines / lark:,.0f} lines/s, "
          f"{lark / whole:.1f}x the time of parse_rules")

    print(f"\ngrammar load in a fresh process (rules.lark, LALR, contextual lexer), CPU time, best of {repeat}")
    loads = grammar_loads(repeat)
    warm, lark = loads["warm tables"], loads["warm lark"]
    print(f"  parse tables, warm (read)       {ms(warm['tables'])}   (import {ms(warm['import']).strip()}, "
          f"whole process {ms(warm['process']).strip()}, Lark imported: {'yes' if warm['lark imported'] else 'no'})")
    print(f"  parse tables, cold (from Lark)  {ms(loads['cold tables'])}   (after Lark's analysis)")
    print(f"  Lark's grammar, warm (cache)    {ms(lark['lark'])}   (for syntax errors only; "
          f"whole process {ms(lark['process']).strip()})")
    print(f"  Lark's grammar, cold (analysis) {ms(loads['cold lark'])}")

    print(f"\nludex check {SMALL_FILE.relative_to(ROOT)} ({SMALL_FILE.read_text().count(chr(10))} lines) "
          f"in a fresh process, CPU time, best of {repeat}")
    for bytecode in (False, True):
        warm_check, cold_check, code = check_command(repeat, bytecode)
        label = "bytecode cached      " if bytecode else (
            "no bytecode written  " if os.environ.get("PYTHONDONTWRITEBYTECODE") else "bytecode as it is    ")
        print(f"  {label} warm cache {ms(warm_check)}   cold cache {ms(cold_check)}   exit code {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
