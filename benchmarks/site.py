"""The rules site's build: time and search-index size, for the bundled games and for a synthetic game of
2,000 rules (targets: under 60 s and under 5 MB each).

Each build runs both steps of ``ludex site build`` into a temporary folder: the Markdown generator
(loading and checking the rules, running every scenario, writing the pages) and MkDocs with Material.
Wall time is what a user waits; the machine is shared and noisy, so CPU time (``time.process_time``)
is printed beside it: on an idle machine the two are about the same.

Run: python benchmarks/site.py [--rules N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ludex.site import synthetic  # noqa: E402
from ludex.site.build import build  # noqa: E402

TARGET_SECONDS = 60.0
TARGET_INDEX_BYTES = 5_000_000


def measure(label: str, out: Path, **kwargs) -> dict:
    wall, cpu = time.perf_counter(), time.process_time()
    report = build(out, **kwargs)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    games = report.generated.games
    rules = sum(len(g.game.rules) for g in games if g.game)
    runs = sum(len(g.runs) for g in games)
    row = {"label": label, "games": len(games), "rules": rules, "scenarios": runs,
           "pages": len(report.generated.pages), "wall": wall, "cpu": cpu,
           "generate": report.seconds_generate, "mkdocs": report.seconds_mkdocs, "index": report.index_bytes}
    print(f"{label:<28} {len(games):>5} {rules:>6} {runs:>9} {row['pages']:>6} {wall:>8.1f} {cpu:>8.1f} "
          f"{report.seconds_generate:>9.1f} {report.seconds_mkdocs:>7.1f} {report.index_bytes / 1e6:>9.2f}")
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=2000, help="rules in the synthetic game (default 2000)")
    args = parser.parse_args(argv)
    print(f"{'site':<28} {'games':>5} {'rules':>6} {'scenarios':>9} {'pages':>6} {'wall s':>8} {'cpu s':>8} "
          f"{'generate':>9} {'mkdocs':>7} {'index MB':>9}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="ludex-site-bench-") as tmp:
        tmp = Path(tmp)
        rows.append(measure("bundled games", tmp / "bundled"))
        rules = synthetic.write(tmp / "synthetic", rules=args.rules)
        rows.append(measure(f"synthetic, {args.rules} rules", tmp / "synthetic-out", rules=rules))
    print()
    ok = True
    for row in rows:
        t_ok, i_ok = row["wall"] < TARGET_SECONDS, row["index"] < TARGET_INDEX_BYTES
        ok = ok and t_ok and i_ok
        print(f"{row['label']}: build {row['wall']:.1f} s wall ({row['cpu']:.1f} s CPU), "
              f"{row['wall'] / TARGET_SECONDS:.2f} of the {TARGET_SECONDS:.0f} s target "
              f"[{'ok' if t_ok else 'OVER'}]; search index {row['index'] / 1e6:.2f} MB, "
              f"{row['index'] / TARGET_INDEX_BYTES:.2f} of the 5 MB target [{'ok' if i_ok else 'OVER'}]")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
