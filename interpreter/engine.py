"""Run: a checked ``GameDef`` in, a game in play out: state changes, decisions asked of agents, plays
checked for legality, triggers, state checks, modifiers, and a trace citing a rule for every event.

The AST is compiled once into Python closures (``compile_expr`` / ``compile_block``); Lark trees are
never touched at run time. The engine knows no game: everything game-specific comes from the rules.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from . import ast as A
from .diagnostics import Diagnostic, RuntimeRuleError
from .model import GameDef
from .state import Card, Player, State, Zone

#: How many statements one game may execute before a rule is taken to loop forever.
STEP_BUDGET = 2_000_000
#: How deeply rules may run rules (run, triggers, actions) before the engine calls it a loop.
NESTING_LIMIT = 200


# ------------------------------------------------------------------ signals and records


class GameOver(Exception):
    def __init__(self, winners):
        self.winners = winners


class Goto(Exception):
    def __init__(self, target: str, span: A.Span):
        self.target = target
        self.span = span


class SkipStep(Exception):
    pass


@dataclass
class TraceEvent:
    """One line of the trace: what happened, which rule made it happen, who acted."""

    seq: int
    rule: str
    kind: str
    text: str
    player: str = ""
    data: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"seq": self.seq, "rule": self.rule, "kind": self.kind, "player": self.player,
                "text": self.text, "data": self.data}


@dataclass
class Play:
    """A play a player may make: an action with its arguments (or a pass)."""

    action: str
    player: Player
    args: tuple = ()

    def describe(self) -> str:
        if self.action == "pass":
            return "pass"
        args = ", ".join(_words(a) for a in self.args)
        return f"{self.action}({args})" if args else self.action

    def __eq__(self, other):
        return (isinstance(other, Play) and self.action == other.action and self.player is other.player
                and self.args == other.args)

    def __hash__(self):
        return hash((self.action, id(self.player), tuple(id(a) for a in self.args)))


@dataclass
class Decision:
    """A question the rules ask a player: who decides, the options, the rule asking, hidden or not."""

    player: Optional[Player]
    kind: str                  # choose | number | order | may | play
    options: list
    rule: str
    prompt: str = ""
    hidden: bool = False
    span: Optional[A.Span] = None

    def describe_options(self) -> list[str]:
        return [o.describe() if isinstance(o, Play) else _words(o) for o in self.options]


@dataclass
class Violation(Exception):
    """A play the rules refuse: the rule it breaks, the rules' own words, and the play."""

    rule: str
    message: str
    play: Optional[Play] = None
    span: Optional[A.Span] = None

    def __str__(self) -> str:
        return f"refused by rule {self.rule}: {self.message}"


def _words(value) -> str:
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_words(v) for v in value) + "]"
    return str(value)


@dataclass
class Modifier:
    key: tuple
    op: str
    value: Any
    rule: str
    ends: tuple                 # (milestone kind, phase name or "")
    pending_until_begin: bool = False


class Frame:
    """The names visible while a procedure runs, the rule it runs for, and ``this`` card."""

    __slots__ = ("vars", "rule", "this")

    def __init__(self, vars: dict, rule: str, this=None):
        self.vars = vars
        self.rule = rule
        self.this = this


# ------------------------------------------------------------------ the game


class Game:
    """A game in play. ``agent(decision) -> option`` answers decisions."""

    def __init__(self, gamedef: GameDef, players: list[str], agent, seed: int = 0, format: str = "",
                 step_budget: int = STEP_BUDGET, check_invariants: bool = True):
        self.gamedef = gamedef
        self.agent = agent
        self.rng = random.Random(seed)
        self.seed = seed
        self.forced: dict[str, deque] = {}
        self.trace: list[TraceEvent] = []
        self.modifiers: list[Modifier] = []
        self.winners: Optional[list] = None
        self.over = False
        self.steps = 0
        self.step_budget = step_budget
        #: after every step (a rule with a procedure), cards, supplies and counters are checked
        self.check_invariants = check_invariants
        self.depth = 0
        self.simultaneous = 0
        self.check_memory: dict = {}
        self.checks_active = False      # state checks apply from the 'begin game' milestone on
        self.checked_at = -1            # the trace length when the state checks last looked
        self.exercised: set = set()
        self.current_span: Optional[A.Span] = None
        self.listeners: list[Callable[[TraceEvent], None]] = []
        fmt = format or (gamedef.header.formats[0] if gamedef.header and gamedef.header.formats else "")
        self.state = State([Player(name, i) for i, name in enumerate(players)], fmt)
        self.compiler = Compiler(self)
        self._build_state()

    # -- set-up
    def _build_state(self):
        g, s = self.gamedef, self.state
        env = Frame({}, "setup")
        for f in g.fields.values():
            initial = self.compiler.expr(f.initial)(env) if f.initial is not None else None
            low = self.compiler.expr(f.minimum)(env) if f.minimum is not None else None
            high = self.compiler.expr(f.maximum)(env) if f.maximum is not None else None
            if f.kind in ("counter", "supply"):
                s.bounds[f.name] = (low if f.kind == "counter" else 0, high)
            owners = s.players if f.scope == "player" else [None]
            for owner in owners:
                if f.kind in ("zone", "row"):
                    zone = Zone(f.name, owner, f.hidden, f.ordered, f.kind == "row", f.in_play)
                    (owner.zones if owner else s.zones)[f.name] = zone
                else:
                    default = {"counter": 0, "supply": 0, "role": None, "flag": False}[f.kind]
                    (owner.fields if owner else s.fields)[f.name] = initial if initial is not None else default
            if f.kind == "supply" and f.scope == "game":
                s.supply_capacity[f.name] = initial or 0
        self.boards = {}
        if g.boards:
            from .board import Board
            built = g.__dict__.setdefault("_built_boards", {})     # a board is parsed once per game
            for name, b in g.boards.items():
                if name not in built:
                    built[name] = Board.parse(b.drawing, b.span)
                self.boards[name] = built[name]
        self.triggers: dict[tuple, list] = {}
        for t in g.triggers:
            key = (t.event.kind, t.event.milestone, t.event.name)
            self.triggers.setdefault(key, []).append((t, self.compiler.block(t.body),
                                                      self.compiler.expr(t.iterable) if t.iterable else None))
        self.checks = [(c, self.compiler.expr(c.condition), self.compiler.block(c.body),
                        self.compiler.expr(c.iterable) if c.iterable else None) for c in g.checks]
        self.actions = {name: CompiledAction(self.compiler, a) for name, a in g.actions.items()}
        #: (card type, attribute) pairs declared hidden: the trace says that they changed, not to what
        self.hidden_attributes = {(t.name, f.name) for t in g.card_types.values() for f in t.fields if f.hidden}
        self.values = {name: (v, self.compiler.expr(v.body)) for name, v in g.values.items()}
        self.rule_bodies = {rid: self.compiler.block(r.body) for rid, r in g.rules.items() if r.body}
        self.children = {rid: [] for rid in g.rules}
        for rid in g.rules:
            parent = g.parent_of(rid)
            if parent is not None:
                self.children[parent].append(rid)
        self.flow = self.compiler.block(g.flow.body) if g.flow else None

    # -- cards
    def create_card(self, title: str, owner, zone: Zone, rule: str) -> Card:
        definition = self.gamedef.cards.get(title)
        if definition is None:
            raise self.error(f"there is no card \"{title}\"", rule)
        attrs = {}
        ctype = self.gamedef.card_types.get(definition.type)
        env = Frame({}, rule)
        if ctype:
            for fd in ctype.fields:
                if fd.default is not None:
                    attrs[fd.name] = self.compiler.expr(fd.default)(env)
        for f in definition.fields:
            attrs[f.name] = self.compiler.expr(f.value)(env)
        card = Card(len(self.state.cards), title, definition.type, attrs, owner)
        self.state.cards.append(card)
        card.zone = zone
        zone.cards.append(card)
        return card

    def move_card(self, card: Card, zone: Zone, place: str = "top"):
        if card.zone is not None:
            card.zone.cards.remove(card)
        if place in ("top", "left-end"):
            zone.cards.insert(0, card)
        else:
            zone.cards.append(card)
        card.zone = zone

    # -- trace
    def record(self, rule: str, kind: str, text: str, player=None, **data) -> TraceEvent:
        event = TraceEvent(len(self.trace) + 1, rule, kind, text, player.name if isinstance(player, Player)
                           else (player or ""), data)
        self.trace.append(event)
        if rule:
            self.exercised.add(rule)
        for listen in self.listeners:
            listen(event)
        return event

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
        if not decision.options and decision.kind not in ("may", "number"):
            raise self.error(f"{decision.player} must choose ({decision.prompt or decision.kind}) but has no "
                             "option", decision.rule, decision.span)
        answer = self.agent(self, decision)
        return answer

    # -- running
    def tick(self, rule: str):
        self.steps += 1
        if self.steps > self.step_budget:
            raise self.error(f"the game ran {self.step_budget} steps without ending: rule {rule} seems to "
                             "loop forever", rule)

    def run(self):
        """Play the whole flow; return the winners (a list, empty for a draw)."""
        try:
            if self.flow is None:
                raise self.error("the game has no flow", "")
            self.flow(Frame({}, ""))
            self.over = True
            self.winners = self.winners or []
        except GameOver as over:
            self.over = True
            self.winners = over.winners
        return self.winners

    def run_rule(self, rule_id: str, frame: Optional[Frame] = None):
        rule = self.gamedef.rules.get(rule_id)
        if rule is None:
            raise self.error(f"there is no rule {rule_id}", frame.rule if frame else "")
        self.depth += 1
        if self.depth > NESTING_LIMIT:
            self.depth = 0
            raise self.error(f"rules run inside each other more than {NESTING_LIMIT} deep: rule {rule_id} "
                             "keeps running itself", rule_id, rule.span)
        try:
            self.exercised.add(rule_id)
            body = self.rule_bodies.get(rule_id)
            if body is not None:
                try:
                    body(Frame({}, rule_id))
                except SkipStep:
                    self.record(rule_id, "skip", f"step {rule_id} is skipped")
                if self.check_invariants:
                    broken = self.state.invariant_breaks()
                    if broken:
                        raise self.error(f"after rule {rule_id} the game is inconsistent: {'; '.join(broken)}",
                                         rule_id, rule.span)
            else:
                self.run_sequence(self.children[rule_id])
        finally:
            self.depth -= 1

    def run_sequence(self, ids: list[str]):
        """Run sibling rules in order; 'return to' / 'proceed to' one of them continues there."""
        i = 0
        while i < len(ids):
            try:
                self.run_rule(ids[i])
                i += 1
            except Goto as goto:
                if goto.target not in ids:
                    raise
                self.record(ids[i], "goto", f"go to step {goto.target}")
                i = ids.index(goto.target)
                self.tick(goto.target)

    # -- events
    def emit(self, kind: str, milestone: str, name: str, args: tuple, rule: str, text: str):
        self.record(rule, "event", text, **({"event": f"{kind} {milestone} {name}".strip()}))
        if kind == "begin" and milestone == "game":
            self.checks_active = True
        if kind == "begin" and milestone == "round":
            for m in self.modifiers:
                if m.pending_until_begin:
                    m.pending_until_begin = False
        handlers = self.triggers.get((kind, milestone, name))
        if kind != "named" and milestone == "phase" and not handlers:
            handlers = None
        for trigger, body, iterable in handlers or ():
            params = trigger.event.params
            if trigger.rule.startswith("card:"):
                title = trigger.rule[5:]
                if kind != "named":
                    # a card's ability on a milestone: every copy of the card that is in play
                    for card in self.cards_in_play():
                        if card.title == title:
                            self.exercised.add(rule)
                            body(Frame({}, rule, this=card))
                    continue
                if not args or not isinstance(args[0], Card) or args[0].title != title:
                    continue
                frame = Frame(dict(zip(params, args)), rule, this=args[0])
            else:
                frame = Frame(dict(zip(params, args)), trigger.rule)
            self.exercised.add(frame.rule)
            if iterable is not None:
                for item in list(iterable(frame)):
                    frame.vars[trigger.var] = item
                    body(frame)
            else:
                body(frame)
        if kind == "end":
            ends = (milestone, name)
            kept = []
            for m in self.modifiers:
                if not m.pending_until_begin and (m.ends == ends or (m.ends[0] == milestone and m.ends[1] == "")):
                    self.record(rule, "expire", f"a modifier from rule {m.rule} expires")
                else:
                    kept.append(m)
            self.modifiers = kept
            if milestone == "game":
                raise GameOver(self.winners or [])

    def cards_in_play(self) -> list:
        """Every card in a zone the schema marks ``in-play``, players in seat order, top first."""
        return [c for z in self.state.all_zones() if z.in_play for c in z.cards]

    def run_checks(self):
        if self.simultaneous or not self.checks or not self.checks_active:
            return
        mark = len(self.trace)
        if mark == self.checked_at:
            return                       # nothing has happened since the last look
        self.checked_at = mark
        for check, condition, body, iterable in self.checks:
            frame = Frame({}, check.rule)
            items = list(iterable(frame)) if iterable is not None else [None]
            for item in items:
                if iterable is not None:
                    frame.vars[check.var] = item
                key = (id(check), id(item))
                holds = bool(condition(frame))
                if holds and not self.check_memory.get(key):
                    self.check_memory[key] = True
                    self.exercised.add(check.rule)
                    body(Frame(dict(frame.vars), check.rule))
                elif not holds:
                    self.check_memory[key] = False

    # -- values and modifiers
    def read_value(self, name: str, args: tuple, frame: Frame):
        v, body = self.values[name]
        self.exercised.add(v.rule)
        value = body(Frame(dict(zip(v.params, args)) if args else {}, frame.rule, frame.this))
        if self.modifiers:
            return self.apply_modifiers(("value", name, args), value)
        return value

    def apply_modifiers(self, key: tuple, value):
        for m in self.modifiers:
            if m.key == key and not m.pending_until_begin:
                value = value + m.value if m.op == "by" else m.value
        return value

    # -- plays
    def legal_plays(self, player: Player, names) -> list[Play]:
        plays = []
        for name in names:
            if name == "pass":
                continue
            action = self.actions[name]
            for args in action.candidates(player):
                if action.allows(player, args):
                    plays.append(Play(name, player, args))
        return plays

    def attempt(self, play: Play, rule: str):
        """Make a play: refused (a Violation, nothing applied) unless every requirement holds."""
        if play.action == "pass":
            self.record(rule, "pass", f"{play.player} passes", play.player)
            return
        action = self.actions.get(play.action)
        if action is None:
            raise Violation(rule, f"there is no play called {play.action}", play)
        refusal = action.refusal(play.player, play.args)
        if refusal is not None:
            raise refusal
        self.record(action.rule_of_play(), "play", f"{play.player} plays {play.describe()}", play.player,
                    action=play.action, args=[_words(a) for a in play.args])
        action.perform(play.player, play.args)


class CompiledAction:
    def __init__(self, compiler: "Compiler", action: A.Action):
        self.node = action
        self.game = compiler.game
        self.domains = [(p, compiler.expr(p.domain) if p.domain is not None else None) for p in action.params]
        leading = []
        rest_start = 0
        for i, s in enumerate(action.body):
            if isinstance(s, (A.Let, A.Require)):
                leading.append(s)
                rest_start = i + 1
            else:
                break
        self.requirements = [(s, compiler.expr(s.value if isinstance(s, A.Let) else s.condition))
                             for s in leading]
        self.checks = _lets_where_needed(self.requirements)
        self.param_names = [p.name for p in action.params]
        self.body = compiler.block(action.body[rest_start:])
        self.rule = action.rule or action.cite

    def rule_of_play(self) -> str:
        return self.rule

    def frame(self, player, args) -> Frame:
        vars = {self.node.actor: player}
        for (param, _), arg in zip(self.domains, args):
            vars[param.name] = arg
        return Frame(vars, self.rule)

    def candidates(self, player):
        frame = Frame({self.node.actor: player}, self.rule)
        pools = []
        for param, domain in self.domains:
            if domain is None:
                pool = list(self.game.state.players) if param.type == "player" else []
            else:
                pool = domain(frame)
                pool = list(pool.cards) if isinstance(pool, Zone) else list(pool)
            pools.append(pool)
        combos = [()]
        for pool in pools:
            combos = [c + (x,) for c in combos for x in pool]
        return combos

    def _failing(self, player, args):
        """The first requirement that does not hold for this play, or None."""
        vars = {self.node.actor: player}
        for name, arg in zip(self.param_names, args):
            vars[name] = arg
        frame = Frame(vars, self.rule)
        for is_let, stmt, fn in self.checks:
            if is_let:
                vars[stmt.var] = fn(frame)
            elif not fn(frame):
                self.game.exercised.add(stmt.cite)
                return stmt
        return None

    def allows(self, player, args) -> bool:
        """Whether every requirement holds (``refusal`` without building the refusal)."""
        return self._failing(player, args) is None

    def refusal(self, player, args) -> Optional[Violation]:
        stmt = self._failing(player, args)
        if stmt is None:
            return None
        return Violation(stmt.cite, stmt.message, Play(self.node.name, player, tuple(args)), stmt.span)

    def perform(self, player, args):
        frame = self.frame(player, args)
        for stmt, fn in self.requirements:
            if isinstance(stmt, A.Let):
                frame.vars[stmt.var] = fn(frame)
            else:
                self.game.exercised.add(stmt.cite)
        self.game.exercised.add(self.rule)
        self.body(frame)


def _names_in(expr) -> set:
    """Every name an expression reads (walked without recursion)."""
    names, stack = set(), [expr]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Name):
            names.add(x.name)
        elif isinstance(x, tuple):
            stack.extend(x)
        elif hasattr(x, "__dataclass_fields__"):
            stack.extend(getattr(x, f) for f in x.__dataclass_fields__ if f != "span")
    return names


def _lets_where_needed(requirements) -> list:
    """The requirements in order, each ``let`` moved to just before the first requirement that reads
    it: deciding legality then skips the work a failing earlier requirement makes useless. Lets and
    requirements have no side effects, so the first failing requirement is the same either way."""
    pending = [(s, fn) for s, fn in requirements if isinstance(s, A.Let)]
    ordered = []
    for s, fn in requirements:
        if isinstance(s, A.Let):
            continue
        needed = _names_in(s.condition)
        seen: set = set()
        changed = True
        while changed:
            changed = False
            for let in pending:
                if let[0].var in needed and let[0].var not in seen:
                    seen.add(let[0].var)
                    needed |= _names_in(let[0].value)
                    changed = True
        for let in [l for l in pending if l[0].var in needed]:
            pending.remove(let)
            ordered.append((True, let[0], let[1]))
        ordered.append((False, s, fn))
    return ordered


from .compiler import Compiler  # noqa: E402  (the compiler needs the classes above)
