"""The rules site's playground: how long a judge waits for an answer, in headless Chromium (Debian's
chromium, driven by Playwright). Targets: the first answer within 5 s of the click (never more than
10 s), later ones within 1 s.

The site is built once (the bundled games) and served by a static host on this machine. A cold run is
a fresh browser context (no HTTP cache, no service worker, nothing loaded): open the Huntik "Ask a
question" page, click Run, wait for the answer. A warm run is a second click in the same page; then
the page is opened again in the same browser and Run clicked (a judge who comes back). Each
cold run also reports the worker's own steps, in seconds from its start: Pyodide ready, the engine
(ludex.zip unpacked and imported), the game's rules written, the answer. The machine is shared: the
load average is printed beside the figures, and the median and the spread (min-max) of several runs
are given, not one figure.

Run: python benchmarks/playground.py [--runs N] [--site DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "interpreter"))

from ludex.site.build import build  # noqa: E402
from ludex.site.markup import page_url  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
TARGET_FIRST, TARGET_LATER = 5.0, 1.0


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def spread(values: list) -> str:
    return f"median {statistics.median(values):5.2f} s  (min {min(values):.2f}, max {max(values):.2f}, n={len(values)})"


def answered(page, times: int) -> None:
    page.wait_for_function(f"Number((document.querySelector('.ludex-play') || {{}}).dataset.answered || 0) >= {times}",
                           timeout=120_000)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="cold runs (default 5), each followed by 3 warm ones")
    ap.add_argument("--site", type=Path, default=None, help="a site already built (its build/ folder)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="ludex-playground-bench-") as tmp:
        site = args.site
        if site is None:
            report = build(Path(tmp) / "out")
            if not report.generated.playground:
                print("the site was built without the playground:", *report.warnings, sep="\n  ")
                return 1
            site = report.site_dir
        ask = page_url("huntik/ask.md")
        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/{ask}"
        first, later, again, steps = [], [], [], []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for _ in range(args.runs):
                context = browser.new_context(viewport={"width": 1366, "height": 900})
                page = context.new_page()
                page.goto(url)
                page.wait_for_load_state("load")
                t = time.perf_counter()
                page.locator(".ludex-play-run").click()
                answered(page, 1)
                first.append(time.perf_counter() - t)
                steps.append(page.evaluate("window.LUDEX_PLAYGROUND_TIMINGS || {}"))
                for n in range(3):
                    t = time.perf_counter()
                    page.locator(".ludex-play-run").click()
                    answered(page, n + 2)
                    later.append(time.perf_counter() - t)
                # a judge who comes back: the same browser, the page opened again (the HTTP cache, the
                # service worker's copy and Chromium's compiled WebAssembly kept), a new worker
                page.goto(url)
                page.wait_for_load_state("load")
                t = time.perf_counter()
                page.locator(".ludex-play-run").click()
                answered(page, 1)
                again.append(time.perf_counter() - t)
                context.close()
            browser.close()
        server.shutdown()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"first answer, from the click:  {spread(first)}   target {TARGET_FIRST:.0f} s")
    print(f"later answers:                 {spread(later)}   target {TARGET_LATER:.0f} s")
    print(f"first answer, page reopened:   {spread(again)}")
    for name in ("pyodide", "engine", "rules", "answer"):
        values = [s[name] for s in steps if name in s]
        if values:
            print(f"  worker: {name:<8} at       {spread(values)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
