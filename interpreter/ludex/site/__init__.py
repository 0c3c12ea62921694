"""The rules site: what a judge reads. ``ludex site build`` / ``ludex site serve``.

    collect.py   rules and scenario files -> games, rule pages, scenario runs, coverage
    markup.py    escaping, rule-reference links, highlighted source with linked rule ids
    lexer.py     Pygments lexers for *.ludex and *.scenario (entry point ``pygments.lexers``)
    pages.py     home, game overview, rule pages, scenario pages, coverage pages (Markdown)
    weave.py     a rule's words paragraph by paragraph, each with the statements that carry it out
    guide.py     the language guide, each construct with an example from the bundled games
    playground.py the playground's files: Pyodide, the package's archive (made by runtime/prepare.mjs
                 under node), each game's rules, the worker (runtime/worker.js), the service worker
    build.py     step 1 writes the Markdown and short links (site/docs/), step 2 runs MkDocs (site/build/), the zip
    synthetic.py a large generated game, for the benchmark and the tests

MkDocs and Material are optional (the ``site`` extra); nothing here imports them until a build runs.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["build", "serve", "generate", "command"]


def build(*args, **kwargs):
    # imported here: MkDocs and the site's pages load only when the site is built or served
    from .build import build as _build
    return _build(*args, **kwargs)


def serve(*args, **kwargs):
    # imported here: MkDocs and the site's pages load only when the site is built or served
    from .build import serve as _serve
    return _serve(*args, **kwargs)


def generate(*args, **kwargs):
    # imported here: MkDocs and the site's pages load only when the site is built or served
    from .build import generate as _generate
    return _generate(*args, **kwargs)


def _path(value: str):
    """An argument type: a path, as ``pathlib.Path`` (imported when an argument is one, not at the top:
    this module is read to make ``ludex --help``, which starts without pathlib)."""
    from pathlib import Path
    return Path(value)


def _folder(holds: str, pattern: str):
    """An argument type: a folder that exists and holds something (``pattern``) to build from; a site
    built from nothing, or from the wrong place, is a usage error, never an empty site."""
    def parse(value: str):
        path = _path(value)
        if not path.exists():
            raise argparse.ArgumentTypeError(f"no such folder: {value}")
        if not path.is_dir():
            raise argparse.ArgumentTypeError(f"{value} is a file: give the folder of {holds}")
        if not any(path.glob(pattern)):
            raise argparse.ArgumentTypeError(f"the folder {value} holds no {holds}")
        return path
    return parse


def _address(value: str) -> str:
    """An argument type: HOST:PORT, the port a number from 1 to 65535."""
    host, colon, port = value.rpartition(":")
    if not colon or not host or not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT (e.g. 127.0.0.1:8000), not '{value[:40]}'")
    return value


def add_arguments(p) -> None:
    p.add_argument("action", choices=["build", "serve"], help="build the site, or serve it with live reload")
    p.add_argument("--out", type=_path, default=None,
                   help="where the generated pages (OUT/docs) and the site (OUT/build) go (default: site/)")
    p.add_argument("--rules", type=_folder("rules files (*.ludex)", "*.ludex"), default=None,
                   help="a folder of rules files (default: the bundled games)")
    p.add_argument("--scenarios", type=_folder("scenario folders (NAME/*.scenario)", "*/**/*.scenario"),
                   default=None, help="a folder of scenario folders, one per game")
    p.add_argument("--strict", action="store_true", help="fail on any MkDocs warning")
    p.add_argument("--zip", nargs="?", type=_path, const=True, default=None, metavar="FILE",
                   help="build: also pack the site into a zip to carry and open from disk "
                        "(default FILE: OUT/ludex-rules.zip)")
    p.add_argument("--addr", type=_address, default="127.0.0.1:8000", help="serve: the address to listen on")


def command(args) -> int:
    """``ludex site build|serve``: exit 0 when built, 1 on MkDocs warnings with --strict, 2 without MkDocs."""
    # imported here: MkDocs and the site's pages load only when the site is built or served
    from .build import SiteError
    from .build import build as _build
    from .build import default_out as _default_out
    from .build import serve as _serve
    try:
        if args.action == "serve":
            import logging
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
            logger = logging.getLogger("mkdocs")
            logger.addHandler(handler)
            logger.setLevel(logging.INFO)
            try:
                _serve(args.out, args.addr, args.rules, args.scenarios)
            except KeyboardInterrupt:
                pass
            except OSError as exc:
                print(f"ludex: error: cannot serve on {args.addr}: {exc.strerror or exc}", file=sys.stderr)
                return 1
            return 0
        zip_to = args.zip
        if zip_to is True:
            zip_to = (args.out or _default_out()) / "ludex-rules.zip"
        report = _build(args.out, args.rules, args.scenarios, strict=args.strict, zip_to=zip_to)
    except SiteError as exc:
        print(f"ludex: error: {exc}", file=sys.stderr)
        return 2 if "pip install" in str(exc) else 1
    except OSError as exc:
        where = exc.filename or args.out
        print(f"ludex: error: cannot write the site to {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    games = report.generated.games
    failed = sum(1 for g in games for r in g.runs if r.status != "passed")
    print(f"site: {len(games)} game(s), {len(report.generated.pages)} pages, search index "
          f"{report.index_bytes / 1e6:.2f} MB, built in {report.seconds:.1f} s "
          f"(pages {report.seconds_generate:.1f} s, mkdocs {report.seconds_mkdocs:.1f} s)")
    print(f"open {report.site_dir / 'index.html'} (from disk, search included), or serve the folder "
          f"{report.site_dir} with any static web server")
    if report.zip_path:
        print(f"zip: {report.zip_path} ({report.zip_path.stat().st_size / 1e6:.1f} MB): unpack it anywhere and "
              "open ludex-rules/index.html")
    else:
        print("to carry it to a venue without network: ludex site build --zip")
    for w in report.warnings:
        print(f"warning: {w}", file=sys.stderr)
    for g in games:
        if g.errors:
            print(f"note: {g.key} does not check; its page shows the errors", file=sys.stderr)
        elif g.game is not None:
            # a scenario file that does not parse has no scenarios to count: say so, or it goes unseen
            for f in g.files:
                if f.error:
                    print(f"note: {f.path} does not check; its scenarios are not counted, and its page "
                          "shows the errors", file=sys.stderr)
    if failed:
        print(f"note: {failed} scenario(s) did not pass; their pages say why", file=sys.stderr)
    return 0
