"""Agents: who answers the decisions the rules ask. In: a ``Decision``. Out: one of its options.

- ``RandomAgent``: seeded uniform choices (``ludex run``, ``ludex simulate``).
- ``ScriptedAgent``: answers from a script, in order (scenarios and logs); an unscripted decision is an
  error naming the rule and listing the options.
- ``InteractiveAgent``: asks a person in the terminal, with the options numbered and the rule's text.
"""

from __future__ import annotations

import random
import shutil
import sys
import textwrap
from collections import deque

from ..diagnostics import Diagnostic, LudexError
from ..runtime.records import Decision
from ..runtime.state import words as _words


class RandomAgent:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed * 7919 + 17)

    def __call__(self, game, decision: Decision):
        options = decision.options
        if decision.kind == "order":
            answer = list(options)
            self.rng.shuffle(answer)
            return answer
        return self.answer_from(options)

    def answer_from(self, options: list):
        """One of the options, drawn uniformly: this agent's answer to any decision but an order. Windows,
        turns and choices ask an agent that has ``answer_from`` this way, without making a ``Decision``:
        an agent should have it only if its answer depends on the options alone."""
        n = len(options)
        if not n:
            return self.rng.choice(options)   # (refused: no option to choose)
        # ``rng.choice(options)`` written out, drawing the same bits (``Random._randbelow_with_getrandbits``,
        # as Python 3.10 and later write it): as many bits as ``n`` has, drawn again until below ``n``. (The
        # draws then rest on ``getrandbits`` alone, the generator's own output.)
        getrandbits = self.rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return options[r]


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
    """Asks a person at the terminal: the boards (``show``), the cards of the deciding player's own zones
    (a hidden ordered pile, a deck, by its count), the rule's id and title, its reference text the first
    time the rule asks (``?`` shows it again), and the options, numbered. An option is answered by its
    number or by its words (``A1``, ``Hedge Knight``), if no other option reads so."""

    def __init__(self, stdin=None, stdout=None, show=None, width: int | None = None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.show = show
        self.width = width or min(100, shutil.get_terminal_size((100, 24)).columns)
        self.read = set()           # the rules whose text has been shown

    def __call__(self, game, decision: Decision):
        out = self.stdout
        rule = game.gamedef.rules.get(decision.rule)
        if self.show:
            self.show(game, out)
        if decision.player is not None:
            self._show_zones(decision.player)
        title = f" {rule.title}" if rule else ""
        who = decision.player.name if decision.player else "the game"
        print(f"\n[{decision.rule}{title}] {who}: {decision.prompt or decision.kind}", file=out)
        if decision.rule not in self.read:
            self.read.add(decision.rule)
            self._show_text(rule)
        if decision.kind == "may":
            labels = ["yes", "no"]
        else:
            labels = decision.describe_options()
        if decision.kind == "order":
            remaining = list(decision.options)
            ordered = []
            while len(remaining) > 1:
                number = None
                while number is None:
                    for i, o in enumerate(remaining, 1):
                        print(f"  {i}. {o}", file=out)
                    number = self._ask(len(remaining), "which comes next", [_words(o) for o in remaining])
                    if number is None:
                        self._show_text(rule)
                ordered.append(remaining.pop(number - 1))
            return ordered + remaining
        while True:
            for i, label in enumerate(labels, 1):
                print(f"  {i}. {label}", file=out)
            number = self._ask(len(labels), "your choice", labels)
            if number is not None:
                return decision.options[number - 1]
            self._show_text(rule)

    def _show_text(self, rule) -> None:
        """The rule's reference text, its paragraphs wrapped to the terminal and indented under the
        heading; a rule outside the transcribed source says it has none."""
        words = [d.text for d in rule.docs if d.kind == "text"] if rule else []
        if not words:
            print("    (" + ("asked by the game's flow, not by a rule" if rule is None else
                         "no reference text: this rule is outside the transcribed source" if rule.outside else
                         f"rule {rule.id} gives no reference text") + ")", file=self.stdout)
            return
        paragraphs = [" ".join(p.split()) for p in "\n\n".join(words).split("\n\n") if p.strip()]
        print("\n\n".join(textwrap.fill(p, max(40, self.width - 4), initial_indent="    ",
                                         subsequent_indent="    ") for p in paragraphs), file=self.stdout)

    def _show_zones(self, player) -> None:
        """The cards of ``player``'s own zones, which that player sees: each zone's titles, a hidden
        ordered pile (a deck, face down) by its count only."""
        lines, empty = [], []
        for name, zone in player.zones.items():
            cards = zone.cards
            if not cards:
                empty.append(name)
            elif zone.hidden and zone.ordered:
                lines.append(f"  {name}: {len(cards)} card{'s' if len(cards) != 1 else ''}, face down")
            else:
                lines.append(textwrap.fill(f"{name}: {', '.join(c.title for c in cards)}", max(40, self.width - 2),
                                           initial_indent="  ", subsequent_indent="    "))
        if empty:
            lines.append(textwrap.fill(f"empty: {', '.join(empty)}", max(40, self.width - 2), initial_indent="  ",
                                       subsequent_indent="    "))
        if lines:
            print(f"\n{player.name}'s cards:", *lines, sep="\n", file=self.stdout)

    def _ask(self, n: int, prompt: str, labels=()) -> int | None:
        """A number from 1 to ``n``, asked until one is typed, or the words of one of the ``labels``
        (the options, in order: ``A1`` for a space) that no other option reads (case and spaces at the
        ends aside); None when ``?`` asks for the rule's text."""
        named = {}
        for i, label in enumerate(labels, 1):
            key = label.strip().casefold()
            named[key] = 0 if key in named else i       # (0: more than one option reads so)
        while True:
            print(f"{prompt} (1-{n}, ? for the rule)? ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                raise EOFError("no more input")
            typed = line.strip()
            if typed == "?":
                return None
            try:
                number = int(typed)      # not str.isdigit(): that is true of '²', which int() refuses
            except ValueError:
                number = named.get(typed.casefold(), -1)
                if number == 0:
                    print(f"  more than one option reads {typed}: please type its number", file=self.stdout)
                    continue
            if 1 <= number <= n:
                return number
            named_too = ", or an option's words" if labels else ""
            print(f"  please type a number from 1 to {n}{named_too}, or ? for the rule's text", file=self.stdout)
