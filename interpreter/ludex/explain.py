"""``ludex explain``: a game and what a judge typed after its name in, what the judge reads out.

In: a checked ``GameDef`` and the words typed (lookup.py finds what they mean). Out: lines printed
and an exit code (0, or 2 when the words name nothing: a message on stderr with what is nearest):
- no words: the game's rules as a tree (``print_tree``);
- a rule id, in any case, or words that name one rule strongly (every word in its number or title,
  or the one rule holding them): the rule for a judge (``print_rule``): its text as corrected
  (parse/errata.py's ``text_as_corrected``), each corrected phrase marked ``[...]*`` and the
  erratum's source, version and the words as published on the line under its paragraph (``original``:
  the text as published, the errata listed after it); its notes and examples; its sub-rules; its
  transcription; the rules it refers to; the scenarios that exercise it and their status (those that
  pin it first, from cached ``ludex mutate`` results, then those that cite it, then the rest on one
  line: ``ruling_lines``). Or, with
  ``python``, the Python the engine wrote for it (``print_python``);
- other words: the rules they match, best first, each with its title and the words around its hit.

``game_meant`` says which bundled game a name that is no game's key means, from its title's words.
"""

from __future__ import annotations

import re
import sys
import textwrap
from typing import Optional

from .check.checks import walk
from .check.spans import references_in
from .compliance.mutation import cached_report, scenarios_of, score_line
from .diagnostics import LudexError
from .lookup import (
    game_titles,
    games_named,
    looks_like_a_number,
    nearest_rules,
    nearest_titles,
    nearest_words,
    query_words,
    rule_named,
    rule_tree,
    search,
)
from .parse import ast as A
from .parse.errata import Piece, errata_on, text_as_corrected
from .parse.syntax import SOURCES
from .program.program import Program
from .scenarios.runner import load_scenarios, run_scenario

#: The exit codes: as cli.py's (2 its usage error: the words named nothing).
OK, NOT_FOUND = 0, 2

#: How many matches a search lists.
LISTED = 20


def explain(game, name: str, words: list, original: bool = False, python: bool = False,
            out=None, err=None) -> int:
    """What ``ludex explain NAME WORDS...`` prints for ``game``; the exit code. ``name`` is the game as
    typed, for the hints that say what to type next."""
    out, err = out or sys.stdout, err or sys.stderr
    if not words:
        if python:
            print("ludex: error: explain --python needs a rule: ludex explain GAME RULE --python", file=err)
            return NOT_FOUND
        print_tree(game, name, out)
        return OK
    if len(words) == 1 and rule_named(game, words[0]):
        rule = game.rules[rule_named(game, words[0])]
    elif len(words) == 1 and looks_like_a_number(words[0]):
        near = nearest_rules(game, words[0])
        print(f"ludex: error: {game.key} has no rule {words[0]}." + (f" Nearest: {', '.join(near)}." if near else "")
              + f" ludex explain {name} lists every rule.", file=err)
        return NOT_FOUND
    else:
        matches = search(game, words)
        rule, why = _the_one(game, name, words, matches, err)
        if rule is None:
            if not matches:
                return NOT_FOUND
            if python:
                print(f"ludex: error: explain --python needs one rule; the words match {len(matches)}",
                      file=err)
                return NOT_FOUND
            print_matches(game, name, words, matches, out)
            return OK
        print(f"# {why}\n" if python else f"{why}\n", file=out)
    if python:
        print_python(game, rule, out)
    else:
        print_rule(game, rule, out, original=original)
    return OK


def _quoted(words) -> str:
    return '"' + " ".join(words) + '"'


def _the_one(game, name, words, matches, err) -> tuple:
    """The rule the words name and why (the words say what else they match); (None, "") if there is
    not one: no match (said on ``err``, with what is nearest), or several to list."""
    if not matches:
        near = [(w, [m.rule for m in search(game, [w])[:3]]) for w in nearest_words(game, words)]
        titles = nearest_titles(game, words)
        said = [f"ludex: error: no rule of {game.key} has {_quoted(words)} in its number, title or text."]
        if near:
            meant = [f'"{w}" ({", ".join(rules)})' for w, rules in near]
            said.append("Did you mean " + (", ".join(meant[:-1]) + " or " if len(meant) > 1 else "") + meant[-1] + "?")
        if titles:
            said.append("Nearest titles: " + ", ".join(f"{r} {game.rules[r].title}" for r in titles) + ".")
        said.append(f"ludex explain {name} lists every rule.")
        print(" ".join(said), file=err)
        return None, ""
    strong = [m for m in matches if m.strong]
    if len(matches) == 1:
        return game.rules[matches[0].rule], f"The one rule that matches {_quoted(words)}:"
    if len(strong) == 1:
        others = [m.rule for m in matches if m is not strong[0]]
        shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        return (game.rules[strong[0].rule],
                f"The one rule whose number or title matches {_quoted(words)}; also found in {shown}:")
    return None, ""


# ---------------------------------------------------------------- the tree and the matches


def tree_lines(game, entries, indent: str = "") -> list:
    """Lines of rules as a tree: each ``(depth, id)`` indented by its depth, its title in a column."""
    labels = ["  " * depth + rid for depth, rid in entries]
    width = min(max((len(label) for label in labels), default=0), 40)
    lines = []
    for label, (_, rid) in zip(labels, entries):
        rule = game.rules[rid]
        lines.append(f"{indent}{label.ljust(width)}  {rule.title}" + ("  (outside the source)" if rule.outside else ""))
    return lines


def print_tree(game, name: str, out) -> None:
    title = game.header.title if game.header else game.key
    count = len(game.rules)
    print(f"{title}: {count} rule{'s' if count != 1 else ''}\n", file=out)
    for line in tree_lines(game, rule_tree(game)):
        print(line, file=out)
    print(f"\nludex explain {name} RULE shows a rule;\nludex explain {name} WORDS... finds the rules whose "
          "number, title or text has them.", file=out)


def print_matches(game, name: str, words, matches, out) -> None:
    count = len(matches)
    print(f"{count} rules of {game.key} match {_quoted(query_words(words))}, best first:\n", file=out)
    entries = [(0, m.rule) for m in matches[:LISTED]]
    for line, m in zip(tree_lines(game, entries, "  "), matches):
        print(line, file=out)
        if m.snippet:
            print(f"      {m.where}: {m.snippet}", file=out)
    if count > LISTED:
        print(f"  ... and {count - LISTED} more: add words to narrow the search", file=out)
    print(f"\nludex explain {name} RULE shows one.", file=out)


# ---------------------------------------------------------------- a rule for a judge


def erratum_source(game, erratum: A.Erratum) -> str:
    source = game.source(erratum.source)
    return f"{source.title if source else erratum.source}, version {erratum.version}"


def _marked_paragraphs(text: str, errata: list) -> list:
    """The paragraphs of a text as corrected: (line, errata marked in it, words each replaced)."""
    paragraphs = [[]]
    for piece in text_as_corrected(text, errata):
        if piece.erratum is not None:
            paragraphs[-1].append(piece)
            continue
        first, *rest = re.split(r"\n\s*\n", piece.text)
        paragraphs[-1].append(Piece(first))
        paragraphs += [[Piece(chunk)] for chunk in rest]
    out = []
    for pieces in paragraphs:
        line, used = "", {}
        for piece in pieces:
            if piece.erratum is None:
                line += piece.text
            else:
                line += f"[{piece.text}]{_mark(errata, piece.erratum)}"
                used.setdefault(errata.index(piece.erratum), " ".join(piece.published.split()))
        out.append((line, used))
    return out


def _mark(errata: list, erratum: A.Erratum) -> str:
    return "*" if len(errata) == 1 else f"*{errata.index(erratum) + 1}"


def print_rule(game, rule: A.Rule, out, original: bool = False) -> None:
    """A rule for a judge (see the module's docstring)."""
    print(f"{rule.id} {rule.title}" + ("  (outside the transcribed source)" if rule.outside else ""), file=out)
    print("=" * min(80, len(rule.id) + len(rule.title) + 1), file=out)
    errata = errata_on(game, rule.id)
    applied = set()
    for doc in rule.docs:
        label = {"text": "", "note": "Note: ", "example": "Example: "}[doc.kind]
        if doc.kind != "text" or original or not errata:
            print(f"\n{label}{doc.text}", file=out)
            continue
        for line, used in _marked_paragraphs(doc.text, errata):
            print(f"\n{line}", file=out)
            for index, published in used.items():
                applied.add(index)
                print(f"  {_mark(errata, errata[index])} erratum ({erratum_source(game, errata[index])}); "
                      f"as published: \"{published}\"", file=out)
    for index, erratum in enumerate(errata):
        if index not in applied:
            why = "not applied above (--original)" if original else "its words are not in the text above"
            print(f"\nErratum ({erratum_source(game, erratum)}), {why}: \"{erratum.old}\" now reads "
                  f"\"{erratum.new}\"", file=out)
    subs = rule_tree(game, rule.id)
    if subs:
        print("\nSub-rules:", file=out)
        for line in tree_lines(game, subs, "  "):
            print(line, file=out)
    print("\nTranscription:", file=out)
    for n in range(rule.span.line, rule.span.end_line + 1):
        line = SOURCES.line(rule.span.path, n)
        if line is not None:
            print(f"  {n:4d} | {line}", file=out)
    refs = sorted({ref for d in rule.docs for ref, _ in references_in(d.text)} |
                  {s.target for s in walk(rule.body) if isinstance(s, (A.Goto, A.Run))} |
                  {s.cite for a in rule.actions for s in walk(a.body) if isinstance(s, A.Require)} - {rule.id})
    if refs:
        print("\nRefers to: " + ", ".join(f"{r} {game.rules[r].title}" if r in game.rules else r for r in refs),
              file=out)
    print("\nScenarios that exercise it:", file=out)
    for line in ruling_lines(game, rule):
        print(line, file=out)


def ruling_lines(game, rule: A.Rule) -> list:
    """The scenarios that exercise a rule, for a judge: first those that pin it (they kill a mutant of
    its transcription, ``ludex mutate``: read from its cached results, none run here), then those that
    cite it, then the rest on one line; the rule's score first, when there are cached results."""
    paths = [m.path for m in game.modules]
    scenario_paths = scenarios_of(game.key, paths)
    report = cached_report(game.key, paths, scenario_paths, game)
    row = report["rules"].get(rule.id) if report else None
    pinning = row["pinned_by"] if row else []
    pinned, citing, rest = [], [], []
    for path in scenario_paths:
        try:
            parsed = load_scenarios(game, path)
        except LudexError:
            continue
        for scenario in parsed.scenarios:
            result = run_scenario(game, scenario)
            if rule.id not in result.exercised:
                continue
            sid = f"{path.name}::{scenario.title}"
            line = f"    [{result.status}] {path.name}:{scenario.span.line} {scenario.title}"
            if sid in pinning:
                pinned.append((pinning.index(sid), line))
            elif any(rid == rule.id for rid, _ in scenario.cites):
                citing.append(line)
            else:
                rest.append(f"{path.name}:{scenario.span.line}")
    lines = [f"  {score_line(row)} (ludex mutate)"] if row else []
    if pinned:
        lines += ["  pinning it (each fails with a mutant of its transcription):"]
        lines += [line for _, line in sorted(pinned)]
    if citing:
        lines += ["  citing it:"] + citing
    if rest:
        lines += textwrap.wrap(f"and {len(rest)} more that pass through it: {', '.join(rest)}", 100,
                               initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)
    if not (pinned or citing or rest):
        lines.append("  none yet")
    return lines


def print_python(game, rule: A.Rule, out) -> None:
    """``explain --python``: the source of each function the engine wrote for the rule, headed by
    what it is, each followed by the functions written apart that it calls (a block or expression
    nested too deep, a play's body)."""
    program = Program.of(game)
    writer = program.compiler.writer
    parts = []
    if rule.id in program.procedures and program.procedures[rule.id][1] is not None:
        parts.append(("procedure", program.procedures[rule.id][1]))
    for action in rule.actions:
        compiled = program.actions[action.name]
        parts += [(f"play {action.name}: legal plays", compiled.legal),
                  (f"play {action.name}: requirements", compiled.failing),
                  (f"play {action.name}: made", compiled.play)]
    for listening in program.triggers.values():
        for trigger, block, *_ in listening:
            if trigger.rule == rule.id:
                parts.append((f"trigger at line {trigger.span.line}", block))
    for check, poll in program.checks:
        if check.rule == rule.id:
            parts.append((f"state check at line {check.span.line}", poll))
    for value_name, v in game.values.items():
        if v.rule == rule.id:
            parts.append((f"value {value_name}", program.values[value_name]))
    print(f"# {rule.id} {rule.title}: the Python written for it", file=out)
    shown = set()
    for what, fn in parts:
        pending = [fn]
        while pending:
            fn = pending.pop(0)
            source = writer.source_of(fn)
            if source is None or fn.__code__.co_filename in shown:
                continue
            shown.add(fn.__code__.co_filename)
            print(f"\n# {what}: {fn.__code__.co_filename}", file=out)
            print(source, end="", file=out)
            what = "called by the above"
            pending += [writer.env[k] for k in dict.fromkeys(re.findall(r"\b_k\d+\b", source)) if k in writer.env]
    if not shown:
        print("\n# (nothing: the rule has no procedure, plays, triggers, state checks or values)", file=out)


# ---------------------------------------------------------------- the game


def game_meant(name: str, err=None) -> Optional[str]:
    """The bundled game ``name`` means (lookup.py's ``games_named``: its key in any case, or words of
    its title); None, said on ``err`` with every game and its title, if it means none or several."""
    err = err or sys.stderr
    titles = game_titles()
    keys = games_named(name, titles)
    if len(keys) == 1:
        return keys[0]
    listed = ", ".join(f"{k} ({titles[k]})" if titles[k] else k for k in (keys or titles))
    if keys:
        print(f"ludex: error: '{name}' is in the title of {len(keys)} games: {listed}; name one by its key",
              file=err)
    else:
        print(f"ludex: error: no bundled game is named '{name}' or has it in its title; games: {listed}",
              file=err)
    return None
