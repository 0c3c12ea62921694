"""Run: a checked ``GameDef`` in, a game in play out: state changes, decisions asked of agents, plays
checked for legality, triggers, state checks, modifiers, and a trace citing a rule for every event.

The AST is compiled once per ``GameDef`` (``Program``) into Python source, compiled by Python
(``program/``); Lark trees are never touched at run time. The engine knows no game: everything
game-specific comes from the rules.

What is worked out from the state is not worked out again while nothing it reads has changed, by the
counters and marks the game keeps apart (``Game.books``, ``bookkeeping.py``): values without parameters
are remembered while ``version`` stands still (``expressions._worth_remembering``); a state check is polled
only when something it reads may have changed (``program/reads.py``, ``Bookkeeping.stale``); the
invariants look only at the cards placed since they last looked. The trace is recorded as plain tuples
(``Game.events``) and put into ``TraceEvent``s, and a play, a move, a set, a change, a transfer and a
named event into words, only when it is read (``Game.trace``).
"""

from __future__ import annotations

import random
import sys
from collections import deque
from typing import Callable, Optional

from ..diagnostics import Diagnostic, LudexError, RuntimeRuleError
from ..parse import ast as A
from ..parse.definition import GameDef, default_format, format_problem
from ..program.program import Program
from ..runtime.records import (
    WORDS,
    BareFrame,
    Decision,
    Frame,
    GameOver,
    Goto,
    Hidden,
    HiddenEvent,
    Modifier,
    Play,
    SkipStep,
    TraceEvent,
    Violation,
    _name,
    _words,
    acting,
)
from ..runtime.state import Card, Player, State, Zone
from .bookkeeping import Bookkeeping

#: How many statements one game may execute before a rule is taken to loop forever.
STEP_BUDGET = 2_000_000
#: How many statements may run with no decision asked of anyone before the rules running are taken to
#: loop forever: far above the longest such stretch of the bundled games' random games (docs/language.md).
QUIET_STEPS = 100_000
#: The trace events that a decision leaves: a stretch without any asked no one anything.
DECISION_EVENTS = frozenset({"decision", "play", "pass", "refused"})
#: How deeply rules may run rules (run, triggers, actions) before the engine calls it a loop.
NESTING_LIMIT = 200


#: Trace events that only say what was asked, offered or decided, or that a milestone or event came:
#: the state is as it was. (What an event changes is versioned where it is changed: a card revealed, a
#: modifier starting to apply at the round's beginning; triggers and expiring modifiers record theirs.)
_NOTHING_CHANGES = frozenset({"pass", "play", "window", "log", "decision", "goto", "skip", "refused", "ability",
                              "event"})


class _Heard(list):
    """``Game.events`` while someone listens: each event appended is told to the listeners at once."""

    def __init__(self, events, game):
        super().__init__(events)
        self.game = game

    def append(self, event):
        list.append(self, event)
        made = self.game.trace[-1]
        for listen in self.game.listeners:
            listen(made)


# ------------------------------------------------------------------ the game


class Game:
    """A game in play. ``agent(decision) -> option`` answers decisions."""

    # Its attributes are slots: a game keeps more names than CPython shares among a class's instances,
    # past which each read is a dict lookup. The ``__dict__`` holds what a caller adds: the compliance
    # checker wraps ``run_rule``, a test replaces a method.
    __slots__ = ('_bits', '_loop_at', '_loop_found', '_polls', '_trace', 'acting', 'actions', 'agent',
                 'boards', 'books', 'check_invariants', 'check_memory', 'checks', 'checks_active', 'choose_again',
                 'compiler', 'current_span', 'events', 'exercised', 'flow', 'forced', 'gamedef',
                 'hidden_attributes', 'listeners', 'modified', 'modifiers', 'over', 'passes', 'procedures',
                 'program', 'quiet_from', 'reasons', 'rng', 'round_ended', 'rounds_begun', 'rounds_ended', 'running',
                 'seed', 'simultaneous', 'state', 'step_budget',
                 'step_limit', 'steps',
                 'triggers', 'values', 'winners', "__dict__", "__weakref__")

    def __init__(self, gamedef: GameDef, players: list[str], agent, seed: int = 0, format: str = "",
                 step_budget: int = STEP_BUDGET, check_invariants: bool = True, reasons: bool = False):
        self.gamedef = gamedef
        self.agent = agent
        self.rng = random.Random(seed)
        self.seed = seed
        self.forced: dict[str, deque] = {}
        #: the trace as it is recorded: ``(rule, kind, text, player name, data or None)`` for each event,
        #: made into ``TraceEvent``s when the trace is read (``trace``). The text is its words, or what
        #: they are made of when the trace is read: a ``Play`` (a play event), or ``(how, *values)`` (a
        #: move, set, change, transfer, named event or card revealed, or an event with a hidden fact, as
        #: it happened, with who may see it: ``records.WORDS``)
        self.events: list[tuple] = []
        self._trace: list[TraceEvent] = []
        self.modifiers: list[Modifier] = []
        #: the names (attributes, counters, values) some modifier in force is on: a read of any other
        #: name skips looking through the modifiers
        self.modified: set = set()
        self.winners: Optional[list] = None
        self.over = False
        self.steps = 0
        self.step_budget = step_budget
        #: the step past which ``over_limit`` looks (every step counted is compared with it): the
        #: budget, or ``QUIET_STEPS`` past the last look, whichever comes first
        self.step_limit = min(step_budget, QUIET_STEPS)
        #: the events recorded by the last look (``over_limit``): where the stretch it looks at begins
        self.quiet_from = 0
        #: after every step (a rule with a procedure), cards, supplies and counters are checked
        self.check_invariants = check_invariants
        #: what runs inside what, outermost first (a rule's id, or ``"when EVENT"`` in a rule for a
        #: trigger, ``"whenever"`` for a state check): the loop a nesting error names; as many as the
        #: levels run inside each other (``depth``)
        self.running: list = []
        #: the loop found where Python's stack ran out, and the rule and span it is reported at, by the
        #: outermost level
        self._loop_found: Optional[str] = None
        self._loop_at: tuple = ("", None)
        self.simultaneous = 0
        #: whether events carry their reasons (``program/reasons.py``): what a judge reads; a game
        #: played only for its outcome (a simulation) need not work them out
        self.reasons = reasons
        #: the rounds begun and ended so far (``round_number``)
        self.rounds_begun = self.rounds_ended = 0
        self.round_ended = 0                # the number of the last round ended (0: none yet)
        #: the windows and turns going on, outermost first, each ``[name, player]``: a window's name and
        #: the player whose opportunity it is, or None and the player whose turn it is (``to-act``,
        #: ``turn-player``)
        self.acting: list = []
        self.check_memory: dict = {}
        self.checks_active = False      # state checks apply from the 'begin game' milestone on
        self.exercised: set = set()
        self.current_span: Optional[A.Span] = None
        #: told each event as it is recorded (``listen``)
        self.listeners: tuple[Callable[[TraceEvent], None], ...] = ()
        #: ``choose_again(violation, player) -> bool``: see ``may_choose_again`` (None: never)
        self.choose_again: Optional[Callable[[Violation, Player], bool]] = None
        problem = format_problem(gamedef.header, format, len(players))
        if problem:
            raise self.error(problem, "")
        fmt = format or default_format(gamedef.header, len(players))
        self.state = State([Player(name, i) for i, name in enumerate(players)], fmt)
        #: each player's pass, by seat (offered at every decision of a window)
        self.passes = [Play("pass", p) for p in self.state.players]
        program = self.program = Program.of(gamedef)
        self.compiler = program.compiler
        self.triggers = program.triggers
        self.checks = program.checks
        #: the state's version, what changed at which version, and who last looked when: the counters
        #: and marks by which nothing is worked out again while nothing it reads has changed
        self.books = Bookkeeping(len(program.checks))
        #: each state check as ``(its bit, rule, poll)`` (``reads.CheckBits``)
        self._polls = [(1 << i, check.rule, poll) for i, (check, poll) in enumerate(program.checks)]
        #: which checks read what: a change marks those that read what it changed (``books.stale``)
        self._bits = program.check_bits
        self.actions = program.actions
        self.hidden_attributes = program.hidden_attributes
        self.values = program.values
        self.procedures = program.procedures
        self.flow = program.flow
        self._build_state()

    # -- set-up
    def _build_state(self):
        s = self.state
        bits = self.program.check_bits
        env = Frame(self, {}, "setup")
        for f, initial_of, low_of, high_of in self.program.fields:
            initial = initial_of(env) if initial_of is not None else None
            low = low_of(env) if low_of is not None else None
            high = high_of(env) if high_of is not None else None
            if f.kind == "supply" or (f.kind == "counter" and (low is not None or high is not None)):
                s.bounds[f.name] = (low if f.kind == "counter" else 0, high)
            owners = s.players if f.scope == "player" else [None]
            for owner in owners:
                if f.kind in ("zone", "row"):
                    zone = Zone(f.name, owner, f.hidden, f.ordered, f.kind == "row", f.in_play)
                    zone.checks = bits.of_zone(zone.key)
                    (owner.zones if owner else s.zones)[f.name] = zone
                else:
                    default = {"counter": 0, "supply": 0, "role": None, "flag": False}[f.kind]
                    (owner.fields if owner else s.fields)[f.name] = initial if initial is not None else default
            if f.kind == "supply" and f.scope == "game":
                s.supply_capacity[f.name] = initial or 0
        self.boards = dict(self.program.boards)

    # -- cards
    def create_card(self, title: str, owner, zone: Zone, rule: str) -> Card:
        """A new card of this title into ``zone`` (at the bottom), its attributes its definition's
        (``create_cards``, for one)."""
        self.create_cards((title,), owner, zone, rule)
        return self.state.cards[-1]

    def create_cards(self, titles, owner, zone: Zone, rule: str):
        """``create_card`` for each title in order, into one zone (a deck made at set-up): each card's
        attributes copied from its definition's, the zone noted once for them all."""
        books = self.books
        cards, placed, attributes = self.state.cards, books.cards_placed, self.program.card_attributes
        definitions = self.gamedef.cards
        try:
            for title in titles:
                definition = definitions.get(title)
                if definition is None:
                    raise self.error(f"there is no card \"{title}\"", rule)
                plain, worked_out = attributes(definition)
                if plain is not None:
                    attrs = dict(plain)
                else:
                    env = Frame(self, {}, rule)
                    attrs = {name: value(env) for name, value in worked_out}
                card = Card(len(cards), title, definition.type, attrs, owner)
                cards.append(card)
                card.zone = zone
                zone.cards.append(card)
                placed.add(card)
        finally:
            books.zones_changed.add(zone)
            books.stale |= zone.checks
            books.version += 1
            books.cards_moved += 1
            if zone.in_play:
                books.titles_in_play = None

    def move_card(self, card: Card, zone: Zone, place: str = "top"):
        """Move ``card`` into ``zone``, on top (``top``, ``left-end``) or at the bottom (``bottom``,
        ``right-end``), noting what the others read (``books``): the zones changed and the card placed
        (the invariants), the state checks it may wake (``Zone.checks``, ``stale``), the cards in play
        by title (``_retitle``),
        ``cards_moved`` and ``version``. The bump of ``version`` stands for the event the caller records
        for the move too: the written ``move`` statement appends it without another (nothing reads the
        version between the two)."""
        books = self.books
        source = card.zone
        if source is not None:
            source.cards.remove(card)
            books.zones_changed.add(source)
            books.stale |= source.checks
            if (source.in_play or zone.in_play) and books.titles_in_play is not None:
                self._retitle(card, source, zone, place)
        elif zone.in_play and books.titles_in_play is not None:
            self._retitle(card, source, zone, place)
        books.zones_changed.add(zone)
        books.cards_placed.add(card)
        books.stale |= zone.checks
        if place in ("top", "left-end"):
            zone.cards.insert(0, card)
        else:
            zone.cards.append(card)
        card.zone = zone
        books.version += 1
        books.cards_moved += 1

    def _retitle(self, card: Card, source: Optional[Zone], zone: Zone, place: str):
        """Keep the index of the cards in play by title (``books.titles_in_play``) up to date as ``card``
        moves from ``source`` (its cards without it already) to ``zone`` (not yet placed there)."""
        index = self.books.titles_in_play
        same = index.get(card.title)
        if source is not None and source.in_play:
            same.remove(card)
            if not same:
                del index[card.title]
                same = None
        if not zone.in_play:
            return
        if not same:
            index[card.title] = [card]
            return
        # Among the cards of its title, in the order of the cards in play (the zones in play in turn,
        # each top first): after those in zones before this one, and before (placed on top) or after
        # (at the bottom) those already in this one. Those it goes before are the last of them (they
        # are in that order): passed from the end, most often none (a card put where none of its
        # title follows it).
        ranks = self.books.in_play_ranks
        if not ranks:
            self.in_play_zones()        # (which places them, once)
            ranks = self.books.in_play_ranks
        rank = ranks[zone]
        on_top = place in ("top", "left-end")
        ahead = len(same)
        while ahead:
            other = same[ahead - 1].zone
            if other is zone:
                if not on_top:
                    break
            elif ranks[other] < rank:
                break
            ahead -= 1
        same.insert(ahead, card)

    def zone_reordered(self, zone: Zone):
        """Note that a zone's cards were put in a new order (a shuffle, an order a scenario fixes)."""
        books = self.books
        books.zones_changed.add(zone)
        books.cards_placed.update(zone.cards)
        books.stale |= zone.checks
        books.cards_moved += 1
        if zone.in_play:
            books.titles_in_play = None

    # -- trace
    def record(self, rule: str, kind: str, text: str, player=None, **data):
        """Add an event to the trace. (Written rules append to ``events`` themselves.)"""
        if kind not in _NOTHING_CHANGES:
            self.books.version += 1
        # (``acting``, written in place: every event recorded passes here)
        self.events.append((rule, kind, text, player.name if type(player) is Player else (player or ""), data))

    @property
    def trace(self) -> list[TraceEvent]:
        """Every event recorded so far, in order, numbered from 1."""
        made, events = self._trace, self.events
        for seq, (rule, kind, text, player, data) in enumerate(events[len(made):], len(made) + 1):
            if type(text) is not str:
                if type(text) is not tuple:     # a play, put in words now (``CompiledAction.play``)
                    text, data = _play_words(text)
                else:                       # ``(how, *values)``: a move, set, change ... (``records``)
                    words = WORDS[text[0]](*text[1:])
                    if type(words) is Hidden:   # the public words; the fact kept for the views seeing it
                        made.append(HiddenEvent(seq, rule, kind, words[0], player, data, text))
                        continue
                    text = words
            made.append(TraceEvent(seq, rule, kind, text, player, data if data is not None else {}))
        return made

    def listen(self, listener: Callable[[TraceEvent], None]):
        """Tell ``listener`` each event from now on, as it is recorded."""
        self.listeners += (listener,)
        if type(self.events) is list:
            self.events = _Heard(self.events, self)

    def rules_exercised(self) -> set:
        """The rules that ran, were cited by an event, or had a requirement checked."""
        return self.exercised | {event[0] for event in self.events if event[0]}

    def error(self, message: str, rule: str, span: Optional[A.Span] = None) -> RuntimeRuleError:
        span = span or self.current_span or A.NOWHERE
        return RuntimeRuleError([Diagnostic("runtime", "R001", message, span, rule=rule)])

    # -- randomness (seeded, forceable)
    def force(self, kind: str, *outcomes):
        self.forced.setdefault(kind, deque()).extend(outcomes)

    def _forced(self, kind: str):
        queue = self.forced.get(kind)
        if queue:
            return queue.popleft(), True
        return None, False

    # -- decisions
    def decide(self, decision: Decision):
        if not decision.options and decision.kind != "may":      # (a number from 3 to 1: none either)
            raise self.error(f"{decision.player} must choose ({decision.prompt or decision.kind}) but has no "
                             "option", decision.rule, decision.span)
        answer = self.agent(self, decision)
        return answer

    # -- running
    def tick(self, rule: str):
        self.steps += 1
        if self.steps > self.step_limit:
            self.over_limit(rule)

    def stray(self, jump) -> RuntimeRuleError:
        """The error for a ``return to``, ``proceed to`` or ``skip this step`` that no running sequence of
        steps takes: made in the flow, a trigger or a state check, or to a step not beside its own."""
        return self.error(str(jump), jump.rule, jump.span)

    def over_limit(self, rule: str):
        """A step past ``step_limit``, counted while running ``rule``: raised, the error for a step beyond
        the budget, or for ``QUIET_STEPS`` steps that asked no one anything (no decision event recorded
        since the last look); otherwise the next look is set ``QUIET_STEPS`` on. A loop that asks
        nothing is so caught within twice ``QUIET_STEPS`` steps; a stretch shorter than ``QUIET_STEPS``
        never is."""
        events, since = self.events, self.quiet_from
        if self.steps > self.step_budget:
            raise self.error(f"the game ran {self.step_budget} steps without ending: rule {rule} seems to "
                             "loop forever", rule)
        # (from the end back: in a game in play a decision is seldom far)
        for k in range(len(events) - 1, since - 1, -1):
            if events[k][1] in DECISION_EVENTS:
                self.quiet_from = len(events)
                self.step_limit = min(self.step_budget, self.steps + QUIET_STEPS)
                return
        raise self.error(f"{self.quiet_words(rule)} without asking anyone anything: {QUIET_STEPS} steps "
                         "and no decision, a loop that seems never to end", rule)

    def quiet_words(self, rule: str) -> str:
        """The rules running in a stretch without decisions, in words: ``rules 3.2 and 3.3 keep running``
        (the rules the stretch's last events cite, and ``rule``, the one running)."""
        events = self.events
        cited = {rule} if rule else set()
        for k in range(len(events) - 1, max(self.quiet_from, len(events) - 10_000) - 1, -1):
            if events[k][0]:
                cited.add(events[k][0])
        named = sorted(cited, key=_rule_order)
        if not named:
            return "the rules keep running"
        if len(named) == 1:
            return f"rule {named[0]} keeps running"
        if len(named) > 6:
            named = named[:5] + [f"{len(named) - 5} more"]
        return f"rules {', '.join(named[:-1])} and {named[-1]} keep running"

    def run(self):
        """Play the whole flow; return the winners (a list, empty for a draw)."""
        try:
            if self.flow is None:
                raise self.error("the game has no flow", "")
            self.flow(Frame(self, {}, ""))
            self.over = True
            self.winners = self.winners or []
        except GameOver as over:
            self.over = True
            self.winners = over.winners
        except (Goto, SkipStep) as stray:
            raise self.stray(stray) from None
        except RecursionError:
            # A last guard: rules are limited to NESTING_LIMIT deep and values may not read
            # themselves (S070), so only Python's own stack limit is left to meet here.
            found, self._loop_found = self._loop_found, None
            rule, span = self._loop_at if found else ("", None)
            raise self.error("the rules nest deeper than Python's stack allows: "
                             f"{found or 'a rule, value or trigger keeps starting itself'}", rule, span) from None
        return self.winners

    def run_rule(self, rule_id: str, frame: Optional[Frame] = None, jumps: bool = False):
        """Run a rule: its procedure, or its sub-rules in order (``run_sequence``) when it has none;
        one level deeper (``enter``), then, after a procedure, the invariants looked at (``look``).
        ``frame``: the one running it (its actor acts in it too).

        A ``return to`` or ``proceed to`` at its procedure's own level comes back from the procedure as
        ``(target, span, word)`` (``BlockWriter.b_Goto``), with no invariants looked at, as when it is
        raised: with ``jumps`` (the caller is ``run_sequence``), it is returned so; otherwise raised as
        the ``Goto`` it stands for. Jumps from deeper (a block or statement written apart) are raised."""
        try:
            span, body, steps = self.procedures[rule_id]
        except KeyError:
            raise self.error(f"there is no rule {rule_id}", frame.rule if frame else "") from None
        # (``enter`` and ``leave``, written in place: every rule run passes here)
        running = self.running
        running.append(rule_id)
        try:
            if len(running) > NESTING_LIMIT:
                raise self.too_deep(rule_id, span)
            self.exercised.add(rule_id)
            if body is None:
                self.run_sequence(steps, frame)
                return None
            # (``Frame(self, {}, rule_id, None, actor)``, made in place: ``BareFrame``)
            inner = BareFrame()
            inner.game = self
            inner.vars = {}
            inner.rule = rule_id
            inner.this = None
            inner.actor = frame.actor if frame is not None else ""
            began = len(self.events)
            try:
                jump = body(inner)
            except SkipStep:
                # (once something of the step has happened, only the rest of it is skipped)
                self.record(rule_id, "skip", f"{'step' if len(self.events) == began else 'the rest of step'} "
                            f"{rule_id} is skipped", inner.actor)
                jump = None
            if jump is not None:
                if jumps:
                    return jump
                target, where, word = jump
                raise Goto(target, where, rule_id, word)
            books = self.books
            if books.invariants_at != books.cards_moved + books.bounds_changed and self.check_invariants:
                self.look(rule_id, span)
        except RecursionError:
            self.out_of_stack(rule_id, span)
        finally:
            running.pop()
        return None

    def look(self, rule_id: str, span):
        """The invariants looked at after rule ``rule_id``'s procedure changed what they look at since
        the last look: narrowed to what changed since (the cards once one was created, moved or
        reordered, the zones and cards it changed noted; the bounds once a statement changed one); a
        break is an error at the rule, in the words of a full look (``State.invariant_breaks``).

        ``run_rule`` calls it only when ``cards_moved`` or ``bounds_changed`` moved since the last look
        (``books.invariants_at``: their sum then; both only grow): most rules that change the state move
        no card and change no bound, and it is passed over for them. (A bound set with no change to
        record, a counter set to what it holds, is looked after too: it finds what the last look found.)"""
        books = self.books
        moved, bounds = books.cards_moved, books.bounds_changed
        books.invariants_at = moved + bounds
        state = self.state
        misplaced = out_of_bounds = False
        if moved != books.cards_checked_at:
            books.cards_checked_at = moved
            changed, placed = books.zones_changed, books.cards_placed
            misplaced = not state._cards_placed_consistent(changed, placed)
            changed.clear()         # (emptied in place: only these looks read them)
            placed.clear()
        if bounds != books.bounds_checked_at:
            books.bounds_checked_at = bounds
            out_of_bounds = not state._within_bounds()
        if misplaced or out_of_bounds:
            # the words: a full look at the cards (which confirms a narrowed look's finding, or finds
            # nothing), and at the bounds
            broken = state.invariant_breaks(misplaced, None, None, out_of_bounds)
            if broken:
                raise self.error(f"after rule {rule_id} the game is inconsistent: "
                                 f"{'; '.join(broken)}", rule_id, span)

    @property
    def depth(self) -> int:
        """How many levels run inside each other now: rules run, triggers' and state checks' bodies."""
        return len(self.running)

    def enter(self, what: str, rule: str, span):
        """One level deeper: a rule run, a trigger's body or a state check's. Past ``NESTING_LIMIT`` an
        error naming the rule and the loop that keeps starting itself."""
        self.running.append(what)
        if len(self.running) > NESTING_LIMIT:
            raise self.too_deep(rule, span)

    def too_deep(self, rule: str, span) -> RuntimeRuleError:
        """The error of a level past ``NESTING_LIMIT``, naming the loop at the top of ``running``."""
        return self.error(f"rules run inside each other more than {NESTING_LIMIT} deep: {self.loop_words()}",
                          rule, span)

    def leave(self):
        self.running.pop()

    def loop_words(self) -> str:
        """The loop at the top of ``running`` in words: ``rule 2 (when ping) runs rule 3, which starts
        rule 2 (when ping) again``; or the innermost thing running, when nothing repeats."""
        running = self.running
        if not running:
            return "a rule keeps starting itself"
        last = running[-1]
        for j in range(len(running) - 2, -1, -1):
            if running[j] == last:
                cycle = running[j:]
                if len(cycle) == 2:
                    return f"{_running_words(last)} keeps starting itself"
                inner = ", which runs ".join(_running_words(w) for w in cycle[1:-1])
                return f"{_running_words(last)} runs {inner}, which starts {_running_words(last)} again"
        return f"{_running_words(last)} keeps starting rules inside each other"

    def out_of_stack(self, rule: str, span):
        """Python's stack ran out (``RecursionError``) while ``rule`` ran: the innermost level notes
        the loop; the outermost reports it (the stack unwound)."""
        if self._loop_found is None:
            self._loop_found = self.value_loop_words(sys.exc_info()[2]) or self.loop_words()
            self._loop_at = (rule, span)
        if self.depth > 1:
            raise
        found, (rule, span) = self._loop_found, self._loop_at
        self._loop_found = None
        raise self.error(f"the rules nest deeper than Python's stack allows: {found}", rule, span) from None

    def value_loop_words(self, tb) -> str:
        """The loop of named values at the bottom of a traceback that ran out of Python's stack, in
        words: ``the value a reads b, which reads a again``; "" when no value reads itself there. (The
        values' functions are told apart by their code; a value written in place inside another is
        found by what the rules say it reads.)"""
        named = {fn.__code__: name for name, fn in self.values.items() if hasattr(fn, "__code__")}
        called = []
        while tb is not None:
            name = named.get(tb.tb_frame.f_code)
            if name is not None:
                called.append(name)
            tb = tb.tb_next
        if not called:
            return ""
        last = called[-1]
        for j in range(len(called) - 2, -1, -1):
            if called[j] == last:
                break
        else:
            return ""
        cycle = [called[j]]
        for here, there in zip(called[j:], called[j + 1:]):
            cycle += _reads_path(self.gamedef.values, here, there)[1:]
        if len(cycle) == 2:
            return f"the value {last} keeps reading itself"
        # (named from the one read first: where the stack ran out says nothing)
        loop = cycle[:-1]
        first = next(name for name in called if name in loop)
        k = loop.index(first)
        loop = loop[k:] + loop[:k]
        inner = ", which reads ".join(loop[1:])
        return f"the value {first} reads {inner}, which reads {first} again"

    def run_sequence(self, ids: list[str], frame: Optional[Frame] = None):
        """Run sibling rules in order; 'return to' / 'proceed to' one of them continues there: raised
        (``Goto``) or returned by the step's procedure (``run_rule``). ``frame``: the one running them
        (its actor acts in them too)."""
        run_rule, i, n = self.run_rule, 0, len(ids)
        while i < n:
            try:
                jump = run_rule(ids[i], frame, True)
            except Goto as goto:
                if goto.target not in ids:
                    raise
                target = goto.target
            else:
                if jump is None:
                    i += 1
                    continue
                target = jump[0]
                if target not in ids:       # a jump beyond this sequence: raised on to one that holds it
                    raise Goto(target, jump[1], ids[i], jump[2])
            self.record(ids[i], "goto", f"go to step {target}", frame.actor if frame is not None else "")
            self.tick(ids[i])       # the jump's own step: the rule making it, at its statement
            i = ids.index(target)

    # -- events
    def emit(self, kind: str, milestone: str, name: str, args: tuple, rule: str, text,
             label: Optional[str] = None):
        """An event or milestone happens (``kind``: begin, end or named): traced, then its triggers
        run; a round's beginning starts the modifiers waiting for it, an end expires those lasting until
        it. ``text``: its words, or ``(how, *values)`` (``events``). ``label``: ``f"{kind} {milestone}
        {name}".strip()``, when the caller has it made already. (The code written for ``begin phase
        plot``, ``emit revealed(c)`` and the like does the same in place: ``BlockWriter.b_Milestone``.)"""
        if label is None:
            label = f"{kind} {milestone} {name}".strip()
        if milestone == "round":
            text = self.round_words(kind)
        self.events.append((rule, "event", text, "", {"event": label}))
        if kind == "begin":
            if milestone == "game":
                self.checks_active = True
            elif milestone == "round":
                books = self.books
                for m in self.modifiers:
                    if m.pending_until_begin:
                        m.pending_until_begin = False
                        books.stale |= self._bits.names.get(m.target, 0)
                        books.version += 1          # it applies from now on
        handlers = self.triggers.get((kind, milestone, name))
        if handlers:
            self.run_triggers(handlers, kind, rule, args)
        if kind == "end":
            if self.modifiers:      # (none in force: none to expire)
                self.expire(milestone, name, rule)
            if milestone == "game":
                raise GameOver(self.winners or [])

    def round_number(self) -> int:
        """The round the game is in: the rules' own count where they define a value ``current-round``
        (a scenario's set-up may start in any round), else the rounds begun, or ended and one more."""
        count = self.values.get("current-round")
        if count is not None:
            rule = self.gamedef.values["current-round"].rule
            read = rule in self.exercised           # (reading it for the trace's words exercises nothing)
            try:
                n = count(Frame(self, {}, "", None, ""))
                if type(n) is int:
                    return n
            except LudexError:
                pass
            finally:
                if not read:
                    self.exercised.discard(rule)
        return max(self.rounds_begun, self.rounds_ended + 1)

    def round_words(self, edge: str) -> str:
        """``round 3 begins``, ``round 3 ends``: a round milestone's words, the round counted."""
        if edge == "begin":
            self.rounds_begun += 1
            # A count the rules advance during the round (a counter taken in its first phase) still
            # reads the last round's number as the round begins: a new round is never numbered below
            # the one after the last round ended.
            return f"round {max(self.round_number(), self.round_ended + 1)} begins"
        self.round_ended = n = self.round_number()
        self.rounds_ended += 1
        return f"round {n} ends"

    def expire(self, milestone: str, name: str, rule: str):
        """The end of a milestone (``end phase plot``: ``phase``, ``plot``) came: the modifiers in force
        lasting until it, or until the end of any of its kind, expire."""
        ends = (milestone, name)
        kept = []
        books = self.books
        for m in self.modifiers:
            if not m.pending_until_begin and (m.ends == ends or (m.ends[0] == milestone and m.ends[1] == "")):
                books.stale |= self._bits.names.get(m.target, 0)
                self.record(rule, "expire", f"modifier expires: {m.describe()} (made by rule {m.rule})")
            else:
                kept.append(m)
        self.modifiers = kept
        # the same set, changed in place: written rules hold it for as long as they run
        self.modified.clear()
        self.modified.update(m.target for m in kept)

    def run_triggers(self, handlers, kind: str, rule: str, args: tuple):
        """Run the triggers listening to an event (``emit``), in the order the rules give them. Each
        runs one level deeper (``enter``): a trigger whose event its own effect makes happen again is
        stopped at the nesting limit, named. A ``return to``, ``proceed to`` or ``skip this step``
        that leaves a trigger is an error: a trigger is no step of a sequence."""
        running = self.running
        try:
            for trigger, body, iterable, title, (label, cited) in handlers:
                running.append(label)
                try:
                    if title is not None:
                        cited = rule        # a card's ability: the rule whose event it answers
                    if len(running) > NESTING_LIMIT:
                        raise self.too_deep(cited, trigger.span)
                    params = trigger.event.params
                    if title is not None:       # a card's ability
                        if kind != "named":
                            # a card's ability on a milestone: every copy of the card that is in play
                            for card in self.cards_in_play():
                                if card.title == title:
                                    self.exercised.add(rule)
                                    body(Frame(self, {}, rule, card, acting(card.owner)))
                            continue
                        if not args or not isinstance(args[0], Card) or args[0].title != title:
                            continue
                        frame = Frame(self, dict(zip(params, args)), rule, args[0], acting(args[0].owner))
                    else:
                        # (``Frame(self, dict(zip(params, args)), trigger.rule)``, made in place: ``BareFrame``)
                        frame = BareFrame()
                        frame.game = self
                        frame.vars = dict(zip(params, args))
                        frame.rule = trigger.rule
                        frame.this = None
                        frame.actor = ""
                    self.exercised.add(frame.rule)
                    if iterable is not None:
                        for item in list(iterable(frame)):
                            frame.vars[trigger.var] = item
                            body(frame)
                    else:
                        body(frame)
                except RecursionError:
                    self.out_of_stack(cited, trigger.span)
                finally:
                    running.pop()
        except (Goto, SkipStep) as stray:
            raise self.stray(stray) from None

    def cards_in_play(self) -> list:
        """Every card in a zone the schema marks ``in-play``, players in seat order, top first."""
        return list(self.cards_in_play_now())

    def cards_in_play_now(self) -> list:
        """``cards_in_play`` as remembered until a card is next created, moved or reordered
        (``books.cards_moved``): to look over, never to change (written rules' quantifiers read it so,
        since an expression changes nothing while it looks)."""
        books = self.books
        if books.in_play_at != books.cards_moved:
            books.in_play_at = books.cards_moved
            books.in_play = [c for z in self.in_play_zones() for c in z.cards]
        return books.in_play

    def in_play_zones(self) -> list[Zone]:
        """The zones marked in-play, players in seat order (the order of ``cards_in_play``)."""
        books = self.books
        zones = books.in_play_zones
        if zones is None:
            zones = books.in_play_zones = [z for z in self.state.zone_list() if z.in_play]
            books.in_play_ranks = {z: i for i, z in enumerate(zones)}
        return zones

    def in_play_by_title(self) -> dict:
        """The cards in play by title, each title's in the order of ``cards_in_play``: an index kept
        up to date as cards move (to look over, never to change); empty when no card is in play."""
        books = self.books
        index = books.titles_in_play
        if index is None:
            index = books.titles_in_play = {}
            for card in self.cards_in_play_now():
                found = index.get(card.title)
                if found is None:
                    index[card.title] = [card]
                else:
                    found.append(card)
        return index

    def cards_in_play_titled(self, title) -> list:
        """The cards in play with this title, in the order of ``cards_in_play`` (``in_play_by_title``)."""
        try:
            return self.in_play_by_title().get(title, ())
        except TypeError:       # a list, say: no card's title equals it
            return ()

    def run_checks(self):
        """Poll the state checks that may find something new: those marked since they last looked
        (``books.stale``), and, after any change, those whose reads cannot be told. A check's mark is
        cleared as it looks: a change its own look makes (or one made by a check looking after it)
        marks it again, for the next look."""
        if self.simultaneous or not self.checks_active:
            return
        books = self.books
        unknown = self._bits.unknown
        if unknown and books.checked_at != books.version:
            books.checked_at = books.version
            books.stale |= unknown
        if not books.stale:
            return
        for bit, rule, poll in self._polls:
            if books.stale & bit:
                books.stale ^= bit
                # (``Frame(self, {}, rule)``, made in place: ``BareFrame``)
                f = BareFrame()
                f.game = self
                f.vars = {}
                f.rule = rule
                f.this = None
                f.actor = ""
                try:
                    poll(f)
                except (Goto, SkipStep) as stray:     # a state check is no step of a sequence
                    raise self.stray(stray) from None

    # -- values and modifiers
    def read_value(self, name: str, args: tuple, frame: Frame):
        """A named value for these arguments, as the rules at ``frame`` read it."""
        return self.values[name](frame, *args)

    def add_modifier(self, modifier: "Modifier"):
        self.modifiers.append(modifier)
        self.modified.add(modifier.target)
        books = self.books
        books.stale |= self._bits.names.get(modifier.target, 0)
        books.version += 1

    def apply_modifiers(self, key: tuple, value):
        for m in self.modifiers:
            if m.key == key and not m.pending_until_begin:
                value = value + m.value if m.op == "by" else m.value
        return value

    # -- plays
    def legal_plays(self, player: Player, names) -> list[Play]:
        """What this player may do now among the plays so named (a ``pass`` among them is not a play)."""
        plays = []
        actions = self.actions
        for name in names:
            if name != "pass":
                plays += actions[name].legal(self, player)
        return plays

    def may_choose_again(self, refused: Violation, player: Player) -> bool:
        """A play refused in a window or a turn: whether it is taken back and the player chooses again
        (``choose_again`` says so: a scenario that scripts another choice for the player), the
        refusal recorded in the trace; otherwise the refusal stops the procedure. Either way the refusal
        carries the state the play was tried in (nothing of it was applied)."""
        if refused.state is None:
            refused.state = self.state.snapshot()
        if self.choose_again is None or not self.choose_again(refused, player):
            return False
        self.record(refused.rule, "refused", refused.words(operands=False), player, **refused.data())
        return True

    def refusal(self, play: Play) -> Optional[Violation]:
        """Why this play may not be made now, nothing of it applied: the first requirement it fails, or an
        argument that is not among its choices (with the state it was tried in); None when it may."""
        action = self.actions[play.action]
        try:
            refusal = action.refusal(self, play.player, play.args)
        except LudexError:
            refusal = action.outside_choices(self, play.player, play.args)
            if refusal is None:
                raise
        if refusal is None:
            refusal = action.outside_choices(self, play.player, play.args)
        if refusal is not None:
            refusal.state = self.state.snapshot()       # the state it was tried in
        return refusal

    def attempt(self, play: Play, rule: str):
        """Make a play: refused (a Violation, nothing applied) unless every requirement holds. (A play
        just offered as legal is made with ``CompiledAction.play``, without checking it again.)"""
        if play.action == "pass":
            self.record(rule, "pass", f"{play.player} passes", play.player)
            return
        action = self.actions.get(play.action)
        if action is None:
            raise Violation(rule, f"there is no play called {play.action}", play, state=self.state.snapshot())
        refusal = self.refusal(play)
        if refusal is not None:
            raise refusal
        self.record(action.rule_of_play(), "play", f"{play.player} plays {play.describe()}", play.player,
                    action=play.action, args=[_words(a) for a in play.args])
        action.perform(self, play.player, play.args)


def _running_words(what: str) -> str:
    """An entry of ``Game.running`` in words: ``rule 2``, ``rule 2's trigger (when ping)``, ``Bell's
    ability (when revealed)``: each is written so when it is pushed, but a rule's id."""
    return what if " " in what else f"rule {what}"


def _reads_path(values: dict, start: str, end: str) -> list:
    """The shortest chain of named values from ``start`` to ``end``, each read by the one before it in
    its definition (in a branch or not): ``[start, end]`` when ``start`` reads ``end`` itself, or when
    no chain is found."""
    def reads(name):
        v, found, stack = values[name], [], [values[name].body]
        while stack:
            x = stack.pop()
            if isinstance(x, A.Name) and x.name in values and x.name not in v.params or \
                    isinstance(x, A.Call) and x.name in values:
                found.append(x.name)
            stack.extend(A.children(x))
        return found
    paths, queue = {start: [start]}, deque([start])
    while queue:
        here = queue.popleft()
        for there in reads(here):
            if there == end:
                return paths[here] + [end]
            if there not in paths:
                paths[there] = paths[here] + [there]
                queue.append(there)
    return [start, end]


def _rule_order(rule: str) -> tuple:
    """A rule's id as its place among the rules: 3.2 before 3.10."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in rule.split("."))


def _play_words(play: Play) -> tuple[str, dict]:
    """A play event's text and data: ``ann plays marshal(Arya Stark)``."""
    return (f"{_name(play.player)} plays {play.describe()}",
            {"action": play.action, "args": [_words(a) for a in play.args]})
