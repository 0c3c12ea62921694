"""The AST of the rules language: frozen dataclasses (made cheaply, see ``node``), one per construct, each with a span.

In: nothing (the parser's tree builders, ``builders.py``, construct these). Out: the nodes every later
pass reads. Passes never mutate nodes; what they learn goes into side tables keyed by node.
"""

from __future__ import annotations

from dataclasses import _FIELD, MISSING, Field, FrozenInstanceError, field
from functools import lru_cache
from types import FunctionType
from typing import Optional, Union

from ..diagnostics import Span  # noqa: F401  (every node has one: ``A.Span``)

NOWHERE = Span("<builtin>", 0, 0, 0, 0)


def node(cls):
    """Declare an AST node: frozen, slotted, compared by value but not by span. To every reader it is
    the class ``dataclass(frozen=True, slots=True)`` makes (``dataclasses.fields``, ``replace`` and
    ``is_dataclass`` work on it; ``__init__``, ``__eq__`` and ``__hash__`` do what the dataclass's
    do), made for a fraction of the cost: the dataclass machinery writes and compiles seven methods
    for each class, which for the 78 nodes was most of the time spent importing the parser. Here the
    three methods that depend on the fields are copies of one compiled template per number of fields
    (``_methods``), renamed to the class's fields; the others are shared."""
    names = tuple(cls.__dict__.get("__annotations__", {}))
    fields, defaults = {}, []
    for name in names:
        given = cls.__dict__.get(name, MISSING)
        made = given if isinstance(given, Field) else field() if given is MISSING else field(default=given)
        made.name, made.type, made._field_type = name, cls.__annotations__[name], _FIELD
        fields[name] = made
        if made.default is not MISSING:
            defaults.append(made.default)
        elif defaults:
            raise TypeError(f"{cls.__name__}: non-default field {name!r} follows a default one")
    compared = tuple(n for n in names if fields[n].compare)
    body = {k: v for k, v in cls.__dict__.items() if k not in names and k not in ("__dict__", "__weakref__")}
    body.update(__slots__=names, __dataclass_fields__=fields, __match_args__=names,
                _shown=tuple(n for n in names if fields[n].repr), __repr__=_node_repr,
                __setattr__=_node_setattr, __delattr__=_node_delattr,
                __getstate__=_node_getstate, __setstate__=_node_setstate)
    for method, template in zip(("__init__", "__eq__", "__hash__"), _methods(len(names), len(compared))):
        fills = names if method == "__init__" else compared
        renamed = {f"_f{i}": name for i, name in enumerate(fills)}
        code = template.__code__
        code = code.replace(co_name=method, co_qualname=f"{cls.__qualname__}.{method}",
                            co_varnames=tuple(renamed.get(v, v) for v in code.co_varnames),
                            co_names=tuple(renamed.get(v, v) for v in code.co_names),
                            co_consts=tuple(renamed.get(v, v) if isinstance(v, str) else v for v in code.co_consts))
        body[method] = FunctionType(code, template.__globals__, method,
                                    tuple(defaults) if method == "__init__" and defaults else None)
    return type(cls)(cls.__name__, cls.__bases__, body)


@lru_cache(maxsize=None)
def _methods(fields: int, compared: int) -> tuple:
    """``__init__`` for a node of ``fields`` fields named ``_f0``, ``_f1``..., and ``__eq__`` and
    ``__hash__`` over ``compared`` of them, as the dataclass writes them (compiled once per count)."""
    init = [f"_f{i}" for i in range(fields)]
    key = "".join(f"self._f{i}," for i in range(compared))
    other = "".join(f"other._f{i}," for i in range(compared))
    source = (f"def __init__(self, {', '.join(init)}):\n"
              + "".join(f"    _set(self, {n!r}, {n})\n" for n in init) + "    return None\n"
              "def __eq__(self, other):\n"
              f"    if other.__class__ is self.__class__:\n        return ({key}) == ({other})\n"
              "    return NotImplemented\n"
              f"def __hash__(self):\n    return hash(({key}))\n")
    made = {"_set": object.__setattr__}
    exec(source, made)     # noqa: S102 (numbered names only: no text from outside this module)
    return made["__init__"], made["__eq__"], made["__hash__"]


def _node_repr(self) -> str:
    return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._shown)})"


def _node_setattr(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _node_delattr(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _node_getstate(self) -> list:
    return [getattr(self, n) for n in self.__slots__]


def _node_setstate(self, state) -> None:
    for name, value in zip(self.__slots__, state):
        object.__setattr__(self, name, value)


def children(x) -> list:
    """What a node holds (its fields but its span; a tuple's items); nothing for a leaf value."""
    if isinstance(x, tuple):
        return list(x)
    if hasattr(x, "__dataclass_fields__") and not isinstance(x, Span):
        return [getattr(x, f) for f in x.__dataclass_fields__ if f != "span"]
    return []


def descendants(x):
    """``x`` and everything inside it, nodes and values, walked without recursion."""
    stack = [x]
    while stack:
        y = stack.pop()
        yield y
        stack.extend(children(y))


def names_in(x) -> set:
    """Every name an expression (or any node) reads."""
    return {y.name for y in descendants(x) if isinstance(y, Name)}


# ----------------------------------------------------------------- expressions


@node
class Number:
    """An integer literal: ``2``."""
    span: Span = field(compare=False, repr=False)
    value: int = 0


@node
class Text:
    """A string literal: ``"Choose a plot"``."""
    span: Span = field(compare=False, repr=False)
    value: str = ""


@node
class Constant:
    """``true``, ``false`` or ``none``."""
    span: Span = field(compare=False, repr=False)
    value: object = None


@node
class This:
    """``this``: the card whose ability is running."""
    span: Span = field(compare=False, repr=False)


@node
class Name:
    """A name: a bound variable, a role, a game counter or zone, a built-in constant."""
    span: Span = field(compare=False, repr=False)
    name: str = ""


@node
class Attr:
    """``p.gold``, ``c.cost``: a player's counter, zone or flag, or a card's attribute."""
    span: Span = field(compare=False, repr=False)
    subject: "Expr" = None
    name: str = ""


@node
class Index:
    """``xs[0]``: an element of a list, counting from 0."""
    span: Span = field(compare=False, repr=False)
    subject: "Expr" = None
    index: "Expr" = None


@node
class Call:
    """``size(p.hand)``: a built-in or a value defined by a rule."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    args: tuple = ()


@node
class ListExpr:
    """``[a, b]``."""
    span: Span = field(compare=False, repr=False)
    items: tuple = ()


@node
class Unary:
    """``-x`` and ``not x``."""
    span: Span = field(compare=False, repr=False)
    op: str = ""
    operand: "Expr" = None


@node
class Binary:
    """Arithmetic, comparison, membership and logic: ``a + b``, ``a <= b``, ``a in b``, ``a and b``."""
    span: Span = field(compare=False, repr=False)
    op: str = ""
    left: "Expr" = None
    right: "Expr" = None


@node
class IsNone:
    """``x is none`` / ``x is not none``."""
    span: Span = field(compare=False, repr=False)
    subject: "Expr" = None
    negated: bool = False


@node
class IfExpr:
    """``if a then b else c``."""
    span: Span = field(compare=False, repr=False)
    condition: "Expr" = None
    then: "Expr" = None
    otherwise: "Expr" = None


@node
class Quantified:
    """``every p in players: ...``, ``any``, ``those`` (a filtered list) and ``count``."""
    span: Span = field(compare=False, repr=False)
    kind: str = ""
    var: str = ""
    iterable: "Expr" = None
    body: "Expr" = None


@node
class Ranked:
    """``highest p in players by initiative(p)``: every element tied for the highest (or lowest)."""
    span: Span = field(compare=False, repr=False)
    kind: str = ""
    var: str = ""
    iterable: "Expr" = None
    key: "Expr" = None


Expr = Union[Number, Text, Constant, This, Name, Attr, Index, Call, ListExpr, Unary, Binary, IsNone,
             IfExpr, Quantified, Ranked]


# ------------------------------------------------------------------ statements


@node
class Let:
    """``let income = ...``: names a value for the rest of the block."""
    span: Span = field(compare=False, repr=False)
    var: str = ""
    value: Expr = None


@node
class Set:
    """``set first-player = p`` / ``clear active-player`` (value none)."""
    span: Span = field(compare=False, repr=False)
    target: Expr = None
    value: Optional[Expr] = None


@node
class Change:
    """``increase mission-timer by 1`` / ``decrease p.health by 1``."""
    span: Span = field(compare=False, repr=False)
    target: Expr = None
    amount: Expr = None
    sign: int = 1


@node
class Transfer:
    """``transfer 3 from treasury to p.gold``: tokens move, never appear or vanish."""
    span: Span = field(compare=False, repr=False)
    amount: Expr = None
    source: Expr = None
    destination: Expr = None


@node
class Move:
    """``move c to p.front-row at top``: a card (or list of cards) changes zone."""
    span: Span = field(compare=False, repr=False)
    cards: Expr = None
    destination: Expr = None
    place: str = "top"


@node
class Draw:
    """``draw 2 from p.draw-deck to p.hand``: the top cards of one zone into another."""
    span: Span = field(compare=False, repr=False)
    amount: Expr = None
    source: Expr = None
    destination: Expr = None


@node
class Create:
    """``create starter-deck into p.draw-deck``: new cards (a deck list, a title or a list of titles)."""
    span: Span = field(compare=False, repr=False)
    cards: Expr = None
    destination: Expr = None


@node
class Shuffle:
    """``shuffle p.draw-deck``: a random order, from the game's one seeded generator."""
    span: Span = field(compare=False, repr=False)
    zone: Expr = None


@node
class Reveal:
    """``reveal c``: a card turns face up; emits the event ``revealed(c)``."""
    span: Span = field(compare=False, repr=False)
    cards: Expr = None


@node
class Conceal:
    """``conceal c``: a card (or cards) turns face down."""
    span: Span = field(compare=False, repr=False)
    cards: Expr = None


@node
class Emit:
    """``emit revealed(c)``: an event that triggers listen to."""
    span: Span = field(compare=False, repr=False)
    event: str = ""
    args: tuple = ()


@node
class Milestone:
    """``begin phase plot`` / ``end round``: a game milestone, an event triggers and durations use."""
    span: Span = field(compare=False, repr=False)
    edge: str = "begin"
    kind: str = "round"
    name: str = ""


@node
class If:
    """``if c { } else if d { } else { }``."""
    span: Span = field(compare=False, repr=False)
    branches: tuple = ()          # ((condition, body), ...)
    otherwise: tuple = ()


@node
class ForEach:
    """``for each p in players-from(first-player) { }``; ``simultaneously for each ...``."""
    span: Span = field(compare=False, repr=False)
    var: str = ""
    iterable: Expr = None
    body: tuple = ()
    simultaneous: bool = False


@node
class Repeat:
    """``repeat { } until c`` (no condition: until a goto, game end or a step budget stops it)."""
    span: Span = field(compare=False, repr=False)
    body: tuple = ()
    until: Optional[Expr] = None


@node
class While:
    """``while c { }``."""
    span: Span = field(compare=False, repr=False)
    condition: Expr = None
    body: tuple = ()


@node
class Goto:
    """``return to 3.2`` / ``proceed to 3.4``: continue the enclosing procedure at that rule."""
    span: Span = field(compare=False, repr=False)
    word: str = "go"
    target: str = ""


@node
class Skip:
    """``skip this step``: the rest of this rule's procedure does not happen."""
    span: Span = field(compare=False, repr=False)


@node
class Run:
    """``run 3``: perform a rule (its procedure, or its sub-rules in order)."""
    span: Span = field(compare=False, repr=False)
    target: str = ""


@node
class Choose:
    """``first-player chooses p from players "prompt"``; ``hidden`` for a facedown choice."""
    span: Span = field(compare=False, repr=False)
    chooser: Expr = None
    var: str = ""
    options: Expr = None
    hidden: bool = False
    prompt: str = ""


@node
class ChooseNumber:
    """``p chooses number n from 0 to 3``."""
    span: Span = field(compare=False, repr=False)
    chooser: Expr = None
    var: str = ""
    low: Expr = None
    high: Expr = None
    prompt: str = ""


@node
class Order:
    """``first-player orders a from abilities``: the chooser puts the options in an order."""
    span: Span = field(compare=False, repr=False)
    chooser: Expr = None
    var: str = ""
    options: Expr = None
    prompt: str = ""


@node
class May:
    """``p may "Draw a card?" { } else { }``: a yes/no decision."""
    span: Span = field(compare=False, repr=False)
    chooser: Expr = None
    prompt: str = ""
    body: tuple = ()
    otherwise: tuple = ()


@node
class Pick:
    """``pick w at random from tied``."""
    span: Span = field(compare=False, repr=False)
    var: str = ""
    options: Expr = None


@node
class Roll:
    """``roll 3 attack dice as faces``: the faces rolled, a list of face names."""
    span: Span = field(compare=False, repr=False)
    count: Expr = None
    dice: str = ""
    var: str = ""


@node
class MenuPart:
    """One part of a menu: ``2 of move, search repeats allowed``; count ``one``/``any``/``n``/``up-to``."""
    span: Span = field(compare=False, repr=False)
    count: str = "one"
    n: int = 1
    actions: tuple = ()
    repeats: bool = False


@node
class InAnyOrder:
    """``exactly one of perform-function and any number of play-card``: one part of a turn made of
    parts joined by ``and``, whose plays come in any order; the player may pass (ending it) once every
    part that needs plays has them."""
    span: Span = field(compare=False, repr=False)
    parts: tuple = ()


def menu_parts(menu) -> list:
    """A menu's parts, those joined by ``and`` (``InAnyOrder``) each in its place."""
    return [part for step in menu for part in (step.parts if isinstance(step, InAnyOrder) else (step,))]


@node
class Window:
    """``window "..." starting with first-player { any number of marshal }``.

    Players act in player order from the starting player; each opportunity is one play from the
    menu or a pass; the window closes when every player has passed consecutively.
    """
    span: Span = field(compare=False, repr=False)
    name: str = ""
    starting: Expr = None
    menu: tuple = ()


@node
class Turn:
    """``turn of p { 2 of move, search repeats allowed }``: one player's turn, its menu in order."""
    span: Span = field(compare=False, repr=False)
    player: Expr = None
    menu: tuple = ()


@node
class Perform:
    """``perform marshal(c) by p``: a play the rules make, checked like any other."""
    span: Span = field(compare=False, repr=False)
    action: str = ""
    args: tuple = ()
    actor: Expr = None


@node
class Initiate:
    """``initiate "when revealed" abilities of plots ordered by first-player``."""
    span: Span = field(compare=False, repr=False)
    ability: str = ""
    cards: Expr = None
    ordered_by: Optional[Expr] = None


@node
class Require:
    """``require c.cost <= p.gold cite 3.2 "..."``: a play that fails it is refused, citing the rule."""
    span: Span = field(compare=False, repr=False)
    condition: Expr = None
    cite: str = ""
    message: str = ""
    cite_span: Span = field(compare=False, repr=False, default=None)


@node
class Duration:
    """``until end of round``, ``for next round``, ``for this phase``."""
    span: Span = field(compare=False, repr=False)
    kind: str = "until_end"
    milestone: str = "round"
    name: str = ""


@node
class Modify:
    """``modify first-turn-player() to p for next round``; ``modify initiative(p) by 2 until end of phase``."""
    span: Span = field(compare=False, repr=False)
    target: Expr = None
    op: str = "by"
    value: Expr = None
    duration: Duration = None
    cite: str = ""              # the rule that gives the modifier its effect, when not the rule running
    cite_span: Span = field(compare=False, repr=False, default=None)


@node
class Win:
    """``win p``: the game ends at once with these winners (a player or a list)."""
    span: Span = field(compare=False, repr=False)
    players: Expr = None


@node
class Eliminate:
    """``eliminate p``: a player (or a list) leaves the game."""
    span: Span = field(compare=False, repr=False)
    players: Expr = None


@node
class Log:
    """``log "..."``: words for the trace."""
    span: Span = field(compare=False, repr=False)
    message: str = ""


Stmt = Union[Let, Set, Change, Transfer, Move, Draw, Create, Shuffle, Reveal, Conceal, Emit, Milestone, If, ForEach,
             Repeat, While, Goto, Skip, Run, Choose, ChooseNumber, Order, May, Pick, Roll, Window,
             Turn, Perform, Initiate, Require, Modify, Win, Eliminate, Log]


# ---------------------------------------------------------------- declarations


@node
class Source:
    """``source main "Rules Reference" version "1.0" "pp. 26-27"``."""
    span: Span = field(compare=False, repr=False)
    key: str = ""
    title: str = ""
    version: str = ""
    detail: str = ""


@node
class GameHeader:
    """``game agot "A Game of Thrones ..." { ... }``: the header."""
    span: Span = field(compare=False, repr=False)
    key: str = ""
    title: str = ""
    sources: tuple = ()
    min_players: int = 2
    max_players: int = 2
    formats: tuple = ()
    #: ``(format, fewest, most)`` for each format the header gives a number of players
    #: (``formats joust for 2 players melee for 3 to 8 players``)
    format_players: tuple = ()
    excerpt_end: str = ""
    excerpt_note: str = ""
    excerpt_span: Span = field(compare=False, repr=False, default=None)
    #: ``(part, span, first span)`` for each part given twice (``players``, ``formats``, ``excerpt``)
    given_twice: tuple = field(compare=False, repr=False, default=())


@node
class StateField:
    """One entry of the state schema: ``player counter gold = 0 min 0``."""
    span: Span = field(compare=False, repr=False)
    scope: str = "game"
    kind: str = "counter"
    name: str = ""
    initial: Optional[Expr] = None
    minimum: Optional[Expr] = None
    maximum: Optional[Expr] = None
    hidden: bool = False
    ordered: bool = False
    in_play: bool = False         # its cards are in play: their triggered abilities listen to milestones
    bookkeeping: bool = False     # kept by the transcription for itself, named by no rule's text


@node
class State:
    """``state { ... }``."""
    span: Span = field(compare=False, repr=False)
    fields: tuple = ()


@node
class FieldDecl:
    """A card type's attribute: ``gold: number = 0``."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    type: str = "number"
    default: Optional[Expr] = None
    hidden: bool = False          # known to the card's owner alone: the trace and displays keep it secret


@node
class CardType:
    """``card type plot { gold: number ... }``."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    fields: tuple = ()


@node
class Event:
    """What a trigger listens for: ``begin phase plot``, ``end round``, ``revealed(c)``."""
    span: Span = field(compare=False, repr=False)
    kind: str = "named"          # begin | end | named
    milestone: str = ""          # round | phase | turn | game (begin/end)
    name: str = ""               # phase name, or event name
    params: tuple = ()


@node
class Ability:
    """A card's ability: ``ability "Take the Initiative" "free action" when played { ... }``."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    kind: str = ""
    event: Optional[Event] = None
    body: tuple = ()


@node
class CardField:
    """A card's printed value: ``gold 5``."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    value: Expr = None


@node
class CardDefinition:
    """``card "A Noble Cause" plot x 2 { gold 5 ... }``."""
    span: Span = field(compare=False, repr=False)
    title: str = ""
    type: str = ""
    copies: int = 1
    fields: tuple = ()
    abilities: tuple = ()


@node
class Dice:
    """``dice attack { faces success, blank, blank }``."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    faces: tuple = ()


@node
class Deck:
    """``deck starter { 3 "Eddard Stark" }``: a deck list, each title with its count."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    entries: tuple = ()       # ((count, title), ...)


@node
class BoardDrawing:
    """``board haddonfield "..."``: a grid drawn in text (the drawing format: ``interpreter/ludex/runtime/board.py``)."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    drawing: str = ""


@node
class Param:
    """An action's parameter: ``c: card from p.hand``."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    type: str = "card"
    domain: Optional[Expr] = None


@node
class Action:
    """``action marshal "marshal a card" by p (c: card from p.hand) { require ...; ... }``."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    label: str = ""
    actor: str = "p"
    params: tuple = ()
    cite: str = ""
    body: tuple = ()
    rule: str = ""


@node
class Value:
    """``value income(p) = top(p.revealed-plots).gold``: a named value, open to modifiers."""
    span: Span = field(compare=False, repr=False)
    name: str = ""
    params: tuple = ()
    body: Expr = None
    rule: str = ""


@node
class Trigger:
    """``when end round { }``: runs when the event happens, citing its rule."""
    span: Span = field(compare=False, repr=False)
    event: Event = None
    var: str = ""
    iterable: Optional[Expr] = None
    body: tuple = ()
    rule: str = ""


@node
class Check:
    """``whenever size(p.draw-deck) == 0 for p in players { eliminate p }``: a state check."""
    span: Span = field(compare=False, repr=False)
    condition: Expr = None
    var: str = ""
    iterable: Optional[Expr] = None
    body: tuple = ()
    rule: str = ""


@node
class Erratum:
    """``erratum faq "1.0" replaces "reserve modifiers" with "initiative modifiers"``."""
    span: Span = field(compare=False, repr=False)
    source: str = ""
    version: str = ""
    old: str = ""
    new: str = ""
    rule: str = ""                # set when written apart from its rule: erratum faq "1.0" on 1.3
    rule_span: Span = field(compare=False, repr=False, default=None)


@node
class Doc:
    """A rule's words: ``text`` (the reference, verbatim and repaired), ``note`` or ``example``."""
    span: Span = field(compare=False, repr=False)
    kind: str = "text"
    text: str = ""


@node
class Rule:
    """``rule 3.2 "Active player collects income" { text ...; statements }``."""
    span: Span = field(compare=False, repr=False)
    id: str = ""
    title: str = ""
    outside: bool = False
    docs: tuple = ()
    errata: tuple = ()
    actions: tuple = ()
    values: tuple = ()
    triggers: tuple = ()
    checks: tuple = ()
    body: tuple = ()
    id_span: Span = field(compare=False, repr=False, default=None)


@node
class Flow:
    """``flow { ... }``: how a game runs, from set-up to its end, in terms of its rules."""
    span: Span = field(compare=False, repr=False)
    body: tuple = ()


@node
class Module:
    """One parsed rules file."""
    span: Span = field(compare=False, repr=False)
    path: str = ""
    items: tuple = ()


# ------------------------------------------------------------------ scenarios


@node
class Step:
    """One line of a scenario: a script step or an expectation. ``kind`` names it (plays, passes,
    chooses, answers, orders, run, play-game, force-dice, force-order, force-pick, expect-true,
    expect-winner, expect-no-winner, expect-eliminated, expect-refused, expect-trace, expect-offered);
    ``args`` holds its parts (names, expressions, rule ids, text)."""
    span: Span = field(compare=False, repr=False)
    kind: str = ""
    args: tuple = ()


@node
class Scenario:
    """``scenario "title" { question ... answer ... cite ... setup { } steps... }``: a ruling that runs."""
    span: Span = field(compare=False, repr=False)
    title: str = ""
    question: str = ""
    answer: str = ""
    cites: tuple = ()
    tags: tuple = ()
    players: tuple = ()
    format: str = ""
    setup: tuple = ()
    steps: tuple = ()
    boards: tuple = ()            # BoardDrawing: small boards drawn for this scenario, replacing the game's
    cards: tuple = ()             # CardDefinition and Deck: cards and deck lists of this scenario alone


@node
class ScenarioFile:
    """One parsed scenario file."""
    span: Span = field(compare=False, repr=False)
    path: str = ""
    scenarios: tuple = ()
