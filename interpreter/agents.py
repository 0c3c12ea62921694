"""Agents: who answers the decisions the rules ask. In: a ``Decision``. Out: one of its options.

- ``RandomAgent``: seeded uniform choices (``ludex run``, ``ludex simulate``).
- ``ScriptedAgent``: answers from a script, in order (scenarios and logs); an unscripted decision is an
  error naming the rule and listing the options.
- ``InteractiveAgent``: asks a person in the terminal, with the options numbered and the rule's text.
"""

from __future__ import annotations

import random
import sys
from collections import deque

from .diagnostics import Diagnostic, LudexError
from .engine import Decision


class RandomAgent:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed * 7919 + 17)

    def __call__(self, game, decision: Decision):
        options = decision.options
        if decision.kind == "order":
            answer = list(options)
            self.rng.shuffle(answer)
            return answer
        return options[self.rng.randrange(len(options))]


class Unscripted(LudexError):
    """The rules asked a decision that the script does not answer."""

    exit_code = 1


class ScriptedAgent:
    """Answers decisions from a queue of ``(matcher, answer)``; falls back to ``fallback`` if given."""

    def __init__(self, answers=(), fallback=None):
        self.answers = deque(answers)
        self.fallback = fallback

    def __call__(self, game, decision: Decision):
        if self.answers:
            answer = self.answers[0]
            resolved = answer(game, decision)
            if resolved is not _NO_MATCH:
                self.answers.popleft()
                return resolved
        if self.fallback is not None:
            return self.fallback(game, decision)
        options = ", ".join(decision.describe_options())
        who = decision.player.name if decision.player else "the game"
        span = decision.span
        raise Unscripted([Diagnostic(
            "scenario", "C010", f"rule {decision.rule} asks {who} to decide ({decision.prompt or decision.kind}), "
            f"but the script does not say what {who} decides", span, rule=decision.rule,
            hint=f"the options are: {options}")])


_NO_MATCH = object()
NO_MATCH = _NO_MATCH


class InteractiveAgent:
    """Asks a person at the terminal; shows the rule's title and the options, numbered."""

    def __init__(self, stdin=None, stdout=None, show=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.show = show

    def __call__(self, game, decision: Decision):
        out = self.stdout
        rule = game.gamedef.rules.get(decision.rule)
        if self.show:
            self.show(game, out)
        title = f" {rule.title}" if rule else ""
        who = decision.player.name if decision.player else "the game"
        print(f"\n[{decision.rule}{title}] {who}: {decision.prompt or decision.kind}", file=out)
        if decision.kind == "may":
            labels = ["yes", "no"]
        else:
            labels = decision.describe_options()
        if decision.kind == "order":
            remaining = list(decision.options)
            ordered = []
            while len(remaining) > 1:
                for i, o in enumerate(remaining, 1):
                    print(f"  {i}. {o}", file=out)
                ordered.append(remaining.pop(self._ask(len(remaining), "which comes next") - 1))
            return ordered + remaining
        for i, label in enumerate(labels, 1):
            print(f"  {i}. {label}", file=out)
        return decision.options[self._ask(len(labels), "your choice") - 1]

    def _ask(self, n: int, prompt: str) -> int:
        while True:
            print(f"{prompt} (1-{n})? ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                raise EOFError("no more input")
            try:
                number = int(line.strip())      # not str.isdigit(): that is true of '²', which int() refuses
            except ValueError:
                number = 0
            if 1 <= number <= n:
                return number
            print(f"  please type a number from 1 to {n}", file=self.stdout)
