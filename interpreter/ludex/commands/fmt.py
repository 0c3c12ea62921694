"""``ludex fmt PATH...``: rules and scenario files printed, checked or rewritten in canonical form; a
form that would change what a file says is never written.

In: the files and folders given. Out: the canonical text, or the files rewritten, and the exit code.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from ..diagnostics import SourceError, read_source, render_all

# the formatters as modules, read when a file is formatted (so a test can stand in for one)
from ..fmt import rules as rules_form
from ..fmt import scenarios as scenarios_form
from ..parse import ast as A
from ..parse.syntax import parse_rules, parse_scenarios
from . import EXIT_FAILURES, EXIT_OK, EXIT_SOURCE, EXIT_USAGE


def cmd_fmt(args) -> int:
    changed, unsafe, unwritten, errors = 0, 0, 0, []
    paths = []
    for path in args.paths:
        if not path.exists():
            print(f"ludex: error: no such file: {path}", file=sys.stderr)
            return EXIT_USAGE
        if path.suffix == ".log" and not path.is_dir():
            print(f"ludex: error: {path} is a game log file: 'ludex fmt' formats rules and scenario files "
                  "(.ludex, .scenario)", file=sys.stderr)
            return EXIT_USAGE
        found = fmt_files(path) if path.is_dir() else [path]
        if not found:
            print(f"ludex: error: {path} holds no rules or scenario files (.ludex, .scenario) to format",
                  file=sys.stderr)
            return EXIT_USAGE
        paths += found
    for path in paths:
        scenario = path.suffix == ".scenario"
        try:
            text = read_source(path)        # a byte-order mark is not part of the form: it is kept
            pretty = _formatted(text, str(path), scenario)
        except SourceError as exc:          # reported with the others'; the other files are formatted
            errors += exc.diagnostics
            continue
        except OSError as exc:
            print(f"ludex: error: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
            unwritten += 1
            continue
        says_the_same = _says_the_same_scenarios if scenario else _says_the_same
        if pretty != text and not says_the_same(text, pretty, str(path)):
            what = "scenarios" if scenario else "rules"
            print(f"ludex: error: formatting {path} would change what its {what} say (a fault in ludex fmt, "
                  "please report it): the file is left as it is", file=sys.stderr)
            unsafe += 1
            continue
        if args.check:
            if pretty != text:
                print(f"{path}: not in canonical form", file=sys.stderr)
                changed += 1
        elif args.write:
            if pretty != text:
                try:
                    mark = "\ufeff" if path.read_bytes().startswith(b"\xef\xbb\xbf") else ""
                    _replace(path, mark + pretty)
                except OSError as exc:
                    print(f"ludex: error: cannot write {path}: {exc.strerror or exc}; it is left as it is",
                          file=sys.stderr)
                    unwritten += 1
        else:
            sys.stdout.write(pretty)
    if errors:
        print(render_all(errors), file=sys.stderr)
        return EXIT_SOURCE
    if unwritten:
        return EXIT_USAGE
    return EXIT_FAILURES if changed or unsafe else EXIT_OK


def fmt_files(folder: Path) -> list:
    """The files ``ludex fmt`` formats in a folder, found as the rest of ludex finds them: its rules
    files (``*.ludex``, not in sub-folders: a game's rules sit side by side, as ``ludex check FOLDER``
    takes them), then its scenario files at any depth (``*.scenario``, as a game's scenarios are found
    under ``scenarios/<game>/``; so ``ludex fmt scenarios/`` formats every game's)."""
    return sorted(folder.glob("*.ludex")) + sorted(folder.rglob("*.scenario"))


def _formatted(text: str, path: str, scenario: bool) -> str:
    """The canonical form of a rules file's text, or of a scenario file's."""
    if scenario:
        return scenarios_form.format_scenario_source(text, path)
    return rules_form.format_source(text, path)


def _says_the_same(text: str, pretty: str, path: str) -> bool:
    """Whether the formatted text parses to the same rules as the text, the header's parts given twice
    included (a check on the formatter before its output replaces or stands for a user's file)."""
    try:
        before, after = parse_rules(text, path), parse_rules(pretty, path)
    except SourceError:
        return False

    def twice(module):
        return [[part for part, _, _ in item.given_twice] for item in module.items if isinstance(item, A.GameHeader)]
    return before == after and twice(before) == twice(after)


def _says_the_same_scenarios(text: str, pretty: str, path: str) -> bool:
    """Whether the formatted text parses to the same scenarios as the text (the same check, for a
    scenario file: its nodes compared without their spans, see ``same_scenarios``)."""
    try:
        return scenarios_form.same_scenarios(parse_scenarios(text, path), parse_scenarios(pretty, path))
    except SourceError:
        return False


def _replace(path: Path, text: str):
    """Write ``text`` to ``path`` whole or not at all: to a new file beside it, then moved over it.
    ``OSError`` (a folder or a file that cannot be written) is the caller's to report."""
    handle, spare = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".ludex-fmt", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(spare, path)
    except BaseException:
        os.unlink(spare)
        raise
