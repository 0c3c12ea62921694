"""The judge's answer: a question's scenarios run (``Result``) in; what ``ludex ask`` prints out, as
text and as data.

For each scenario: whether it passed, each expectation met or not with what it expects and what the
run showed, any other failure (a play refused and not expected, an answer the rules never asked
for), the winner, and the whole trace of what ran, each expectation's place in it marked. The
trace's lines are the engine's (``engine.trace.format_event``), its data the events' own
(``TraceEvent.as_json``).
"""

from __future__ import annotations

from ..diagnostics import SOURCES, SourceError
from ..parse import ast as A
from ..runtime.records import _words
from .runner import Checked, Result, load_question, run_scenario, trace_lines


def expectation_text(step: A.Step) -> str:
    """An expectation as the question wrote it: its line, from ``expect`` on (one line)."""
    return _written(step)[1]


def _written(step: A.Step) -> tuple[int, str]:
    """The column of an expectation's ``expect`` and its words from there to the end of its line."""
    line = SOURCES.line(step.span.path, step.span.line)
    if line is None:
        return step.span.column, step.kind.replace("-", " ")
    at = line.rfind("expect", 0, step.span.column)
    at = at if at >= 0 else step.span.column - 1
    return at + 1, line[at:].strip()


def _status(result: Result) -> str:
    checked = result.expectations
    missed = sum(1 for c in checked if not c.met)
    if result.status == "error":
        return "not answered: the question has an error"
    if result.status == "passed":
        met = {0: "no expectation to check", 1: "its expectation met", 2: "both expectations met"}.get(len(checked),
                                                                        f"all {len(checked)} expectations met")
        return f"passed: {met}"
    if missed:
        return f"failed: {missed} of {len(checked)} expectation{'s' if len(checked) != 1 else ''} not met"
    return "failed"


def _title(result: Result) -> str:
    sc = result.scenario
    return f'scenario "{sc.title}"' if sc.title else "the question"


def _winner(result: Result) -> str:
    if result.winners:
        return f"winner: {_words(result.winners)}"
    return "winner: none, the game is over (a draw)" if result.game_over else "winner: none yet, the game is not over"


def render_answer(results: list, path: str, brief: bool = False) -> str:
    """The answer to a question, for a judge: each scenario's verdict, expectations, winner and trace
    (``brief``: without the transcription's bookkeeping)."""
    out = []
    for result in results:
        sc = result.scenario
        if out:
            out.append("")
        out.append(f"{path}:{sc.span.line}: {_title(result)}: {_status(result)}")
        if sc.question:
            out.append(f"  question: {sc.question}")
        if sc.answer:
            out.append(f"  answer written with it: {sc.answer}")
        if sc.cites:
            out.append(f"  cites: {', '.join(rid for rid, _ in sc.cites)}")
        if result.expectations:
            out.append("expectations:")
            for c in result.expectations:
                out.append(f"  {'met' if c.met else 'NOT MET':<8} line {c.step.span.line:<4} {expectation_text(c.step)}")
                out.append(f"                     expected: {c.expected}")
                out.append(f"                     actual:   {c.actual}")
        others = _other_failures(result)
        if others:
            out.append("also failed:")
            for f in others:
                out.append(f"  line {f.span.line:<4} {f.message}")
                if f.expected:
                    out.append(f"             expected: {f.expected}")
                if f.actual:
                    out.append(f"             actual:   {f.actual}")
        for d in result.diagnostics if result.status == "error" else ():
            out.append(f"error at line {d.span.line}, column {d.span.column}: {d.message} (reported in full "
                       "after the answer)" if d.span.path == sc.span.path else f"error at {d.span}: {d.message}")
        out.append(_winner(result))
        out.append(f"trace ({len(result.trace)} events; '>>>' marks where each expectation was checked):"
                   if result.expectations else f"trace ({len(result.trace)} events):")
        out += trace_lines(result, _marks(result), brief=brief)
    return "\n".join(out)


def _other_failures(result: Result) -> list:
    """The failures that are not an expectation not met: a refused play no expectation accounts for,
    an answer left over, a forced outcome that never came."""
    missed = {id(c.step.span) for c in result.expectations if not c.met}
    others = []
    for f in result.failures:
        if id(f.span) in missed:
            missed.discard(id(f.span))      # (its expectation's own failure, shown with it)
        else:
            others.append(f)
    return others


def _marks(result: Result) -> list:
    marks = [(c.at, f"line {c.step.span.line}: {expectation_text(c.step)}: {'met' if c.met else 'NOT MET'}")
             for c in result.expectations]
    marks += [(f.at, f"line {f.span.line}: {f.message}") for f in _other_failures(result)]
    marks += [(-1, f"error: {d.message}") for d in result.diagnostics]
    return marks


def ask(gamedef, text: str, path: str) -> tuple[dict, int, list]:
    """A question's text answered: the data ``ludex ask --json`` prints, its exit status, and the
    diagnostics met (the question's own if it does not check, else those that stopped a run), for
    rendering. The rules site's playground runs this too, in the browser."""
    try:
        question = load_question(gamedef, text, path)
    except SourceError as exc:
        return ({"game": gamedef.key, "source": path, "ok": False,
                 "errors": [d.as_json() for d in exc.diagnostics], "scenarios": []}, 2, list(exc.diagnostics))
    results = [run_scenario(gamedef, scenario) for scenario in question.scenarios]
    return (answer_json(results, gamedef.key, path, lambda d: d.as_json()), exit_status(results),
            [d for r in results for d in r.diagnostics])


def answer_json(results: list, game: str, path: str, diagnostic_json) -> dict:
    """The same answer as data (the shape is in docs/scenarios.md, "ludex ask --json")."""
    return {"game": game, "source": path, "ok": all(r.passed for r in results), "errors": [],
            "scenarios": [_scenario_json(r, diagnostic_json) for r in results]}


def _scenario_json(result: Result, diagnostic_json) -> dict:
    sc = result.scenario
    return {
        "title": sc.title, "line": sc.span.line, "question": sc.question, "answer": sc.answer,
        "cites": [rid for rid, _ in sc.cites], "players": list(sc.players), "status": result.status,
        "expectations": [_checked_json(c) for c in result.expectations],
        "failures": [{"line": f.span.line, "column": f.span.column, "message": f.message, "expected": f.expected,
                      "actual": f.actual, "after_event": len(result.trace) if f.at < 0 else f.at}
                     for f in result.failures],
        "errors": [diagnostic_json(d) for d in result.diagnostics],
        "game_over": result.game_over,
        "winners": [p.name for p in result.winners or ()],
        "setup_events": result.setup_events,
        "trace": [event.as_json() for event in result.trace],
    }


def _checked_json(c: Checked) -> dict:
    column, text = _written(c.step)
    return {"line": c.step.span.line, "column": column, "text": text,
            "kind": c.step.kind, "met": c.met, "expected": c.expected, "actual": c.actual, "after_event": c.at}


def exit_status(results: list) -> int:
    """0 every expectation met, 1 one not met (or another failure), 2 a question that cannot be
    answered as written (a script's error), 3 a rule that cannot run."""
    errors = [d for r in results if r.status == "error" for d in r.diagnostics]
    if errors:
        return 3 if any(d.kind == "runtime" for d in errors) else 2
    return 0 if all(r.passed for r in results) else 1
