"""Report: trace events in, lines a judge can read out: ``[3.2] p1: 5 from treasury to p1's gold``, and
under an event whose outcome rests on values, its reasons: ``because first-turn-player is dana (500.1c)``.

A line is written for a view of the trace (``records.TraceEvent.view``): the judge's (every hidden fact
said, marked hidden from the players who may not see it: scenarios, a judge's question), the public one
(what every player sees: ``ludex run``, golden traces), or one player's (``ludex run --as PLAYER``)."""

from __future__ import annotations

from ..runtime.records import JUDGE, PUBLIC, TraceEvent, seen_data

__all__ = ["JUDGE", "PUBLIC", "format_event", "is_bookkeeping", "reasons", "rule_width", "rules_behind"]

_INDENT = {"event": "", "window": "  ", "decision": "    ", "play": "    ", "pass": "    "}

#: The width of the rule column (``[500.1c]``) at least and at most; a rule id longer than the widest
#: column has the line to itself, its text in the column below.
RULE_WIDTH, WIDEST_RULE = 14, 30



def rule_width(rule_ids) -> int:
    """The rule column's width for a game's rule ids: its longest id's, within the bounds."""
    return min(WIDEST_RULE, max([RULE_WIDTH, *(len(r) + 2 for r in rule_ids)]))


def format_event(event: TraceEvent, unruled: str = "flow", view: str = JUDGE, width: int = RULE_WIDTH) -> str:
    """An event's line of the trace as ``view`` sees it, then its reasons; an event of no rule is
    labelled ``unruled`` (a scenario's set-up); ``width``: the rule column's (``rule_width``)."""
    rule = f"[{event.rule}]" if event.rule else f"[{unruled}]"
    indent = _INDENT.get(event.kind, "  ")
    # (a plain event's words read in place: every line of every trace printed passes here)
    text = event.text if type(event) is TraceEvent else event.view(view)[0]
    if len(rule) > width:
        line = f"{event.seq:5d} {rule}\n{' ' * (width + 7)}{indent}{text}"
    else:
        line = f"{event.seq:5d} {rule:<{width}} {indent}{text}"
    data = event.data
    if data and data.get("because"):      # (most events carry no reasons: looked at no further)
        because = reasons(event, view)
        if because:
            line += f"\n{' ' * (width + 7)}{indent}  because {because}"
    return line


def is_bookkeeping(event: TraceEvent) -> bool:
    """Whether the event only sets or changes a field the transcription keeps for itself, which a brief
    trace leaves out (``bookkeeping`` in the state schema)."""
    return bool(event.data) and event.data.get("bookkeeping", False)


def reasons(event: TraceEvent, view: str = JUDGE) -> str:
    """An event's reasons in words as ``view`` sees them, ``; `` between them ("" for none)."""
    facts = seen_data(event.data, view).get("because") if event.data else None
    return "; ".join(fact["text"] for fact in facts) if facts else ""


def rules_behind(event: TraceEvent) -> list[str]:
    """The rules an event cites: its own, then those its reasons name."""
    facts = event.data.get("because") if event.data else None
    behind = [event.rule] if event.rule else []
    for fact in facts or ():
        if fact.get("rule") and fact["rule"] not in behind:
            behind.append(fact["rule"])
    return behind
