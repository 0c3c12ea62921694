"""Report: trace events in, lines a judge can read out: ``[3.2] p1: 5 from treasury to p1's gold``."""

from __future__ import annotations

from ..runtime.records import TraceEvent

_INDENT = {"event": "", "window": "  ", "decision": "    ", "play": "    ", "pass": "    "}


def format_event(event: TraceEvent, unruled: str = "flow") -> str:
    """One line of the trace; an event of no rule is labelled ``unruled`` (a scenario's set-up)."""
    rule = f"[{event.rule}]" if event.rule else f"[{unruled}]"
    return f"{event.seq:5d} {rule:<14} {_INDENT.get(event.kind, '  ')}{event.text}"
