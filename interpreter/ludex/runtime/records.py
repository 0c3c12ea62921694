"""The records the engine and its compiled rules share: signals that end or redirect a procedure
(``GameOver``, ``Goto``, ``SkipStep``), a trace event (with the words it is made of, and what a view of
the trace shows of a hidden fact: ``JUDGE``, ``PUBLIC``, a player's), a play, a decision asked of a
player, a refused play (``Violation``), a modifier in force, and the frame a procedure runs in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..parse import ast as A
from .state import Player, words


class GameOver(Exception):
    def __init__(self, winners):
        self.winners = winners


class Goto(Exception):
    """``return to`` / ``proceed to`` a step (``word``), made by ``rule`` at ``span``: the sequence of
    steps that holds the target goes on there (``Game.run_sequence``)."""

    def __init__(self, target: str, span: A.Span, rule: str = "", word: str = "return"):
        self.target = target
        self.span = span
        self.rule = rule
        self.word = word

    def __str__(self) -> str:
        where = f"rule {self.rule}" if self.rule else "the flow"
        return f"'{self.word} to {self.target}' in {where}: step {self.target} is not a step of " \
               "a sequence running here (a step returns or proceeds to a step beside it)"


class SkipStep(Exception):
    """``skip this step``, made by ``rule`` at ``span``: the step running (``Game.run_rule``) ends."""

    def __init__(self, rule: str = "", span: A.Span = A.NOWHERE):
        self.rule = rule
        self.span = span

    def __str__(self) -> str:
        where = f"rule {self.rule}" if self.rule else "the flow"
        return f"'skip this step' in {where}: no step of the procedure is running here to skip"


#: The views of the trace a reader asks for (``TraceEvent.view``) besides a player's own (the player's
#: name): the judge's, which says every hidden fact and marks it hidden, and the public one, which
#: says of a hidden fact only what every player sees. (Neither is a name a player can have: a name
#: has no brackets.)
JUDGE = "(judge)"
PUBLIC = "(public)"


@dataclass(slots=True)
class TraceEvent:
    """One line of the trace: what happened, which rule made it happen, who acted. ``text`` and
    ``data`` are what every player sees; an event with a hidden fact is a ``HiddenEvent``, which
    says the rest to those who may see it (``view``)."""

    seq: int
    rule: str
    kind: str
    text: str
    player: str = ""
    data: dict = field(default_factory=dict)

    #: (a plain event hides nothing: ``HiddenEvent`` holds what it hides)
    hidden = None

    def view(self, viewer: str = JUDGE) -> tuple:
        """``(text, data)`` as ``viewer`` sees the event: ``JUDGE`` everything, a hidden fact marked
        hidden from those who may not see it (``mike chooses B4 (hidden from the others)``);
        ``PUBLIC`` what every player sees; a player's name what that player sees. (A plain event is
        the same in every view.)"""
        return self.text, self.data

    def as_json(self, viewer: str = JUDGE) -> dict:
        """The event for tools, as ``viewer`` sees it: a hidden fact, where it is seen, is in its data
        with ``"hidden": true`` and the players who may see it (``"seen_by"``)."""
        return {"seq": self.seq, "rule": self.rule, "kind": self.kind, "player": self.player,
                "text": self.text, "data": seen_data(self.data, viewer)}


def seen_data(data: dict, viewer: str) -> dict:
    """An event's data as ``viewer`` sees it: its reasons (``because``) without those reading a hidden
    zone, which are the judge's alone (``program/reasons.py`` marks them ``"hidden": true``)."""
    facts = data.get("because") if data and viewer != JUDGE else None
    if not facts or not any(fact.get("hidden") for fact in facts):
        return data
    kept = [fact for fact in facts if not fact.get("hidden")]
    seen = {k: v for k, v in data.items() if k != "because"}
    if kept:
        seen["because"] = kept
    return seen


class HiddenEvent(TraceEvent):
    """A trace event with a hidden fact (a hidden choice, a card moved between hidden zones, a hidden
    attribute set ...): ``text`` and ``data`` what every player sees, ``hidden`` the fact as it was
    recorded, ``(how, *values)``, from which ``SEEN[how]`` makes, when a view that may see it asks,
    who may see it and the words and data saying it."""

    __slots__ = ("hidden",)

    def __init__(self, seq: int, rule: str, kind: str, text: str, player: str, data: dict, hidden: tuple):
        # (``TraceEvent``'s fields set in place: a call fewer for each such event read)
        self.seq, self.rule, self.kind, self.text, self.player, self.data = seq, rule, kind, text, player, data
        self.hidden = hidden

    def view(self, viewer: str = JUDGE) -> tuple:
        if viewer == PUBLIC:
            return self.text, self.data
        hidden = self.hidden
        seen_by, text, data = SEEN[hidden[0]](self.data, *hidden[1:])
        if viewer != JUDGE and viewer not in seen_by:
            return self.text, self.data
        return text + hidden_note(seen_by, text), data

    def as_json(self, viewer: str = JUDGE) -> dict:
        text, data = self.view(viewer)
        return {"seq": self.seq, "rule": self.rule, "kind": self.kind, "player": self.player,
                "text": text, "data": data}


def hidden_note(seen_by: tuple, text: str) -> str:
    """How the judge's view marks a hidden fact said by ``text``: `` (hidden from the others)`` when
    only the player the words begin with may see it (``mike chooses B4``), else `` (hidden from all
    but ann and bob)``, or `` (hidden from every player)``."""
    if not seen_by:
        return " (hidden from every player)"
    if len(seen_by) == 1 and text.startswith(seen_by[0] + " "):
        return " (hidden from the others)"
    return f" (hidden from all but {' and '.join(seen_by)})"


class Play:
    """A play a player may make: an action with its arguments (or a pass)."""

    __slots__ = ("action", "player", "args")

    def __init__(self, action: str, player: Player, args: tuple = ()):
        self.action = action
        self.player = player
        self.args = args

    def describe(self) -> str:
        if self.action == "pass":
            return "pass"
        if not self.args:
            return self.action
        args = ", ".join(_words(a) for a in self.args)
        return f"{self.action}({args})" if args else self.action

    def __eq__(self, other):
        return (isinstance(other, Play) and self.action == other.action and self.player is other.player
                and self.args == other.args)

    def __hash__(self):
        return hash((self.action, id(self.player), tuple(id(a) for a in self.args)))

    def __repr__(self):
        return f"Play({self.action!r}, {self.player!r}, {self.args!r})"


class BarePlay(Play):
    """A ``Play`` made with nothing set, its ``action``, ``player`` and ``args`` then set in place by the
    maker: a legal search offers its plays so, without calling a Python ``__init__``. Everything else treats it as the ``Play`` it is."""

    __slots__ = ()
    __init__ = object.__init__


@dataclass(slots=True)
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
    """A play the rules refuse: the rule it breaks, the rules' own words, the play, and the state it was
    tried in (``State.snapshot()``, taken when the engine refuses it: nothing of the play applied).
    ``tried``: what was tried in words, for a refusal of something other than a play (a choice)."""

    rule: str
    message: str
    play: Optional[Play] = None
    span: Optional[A.Span] = None
    state: Optional[dict] = field(default=None, compare=False, repr=False)
    tried: str = field(default="", compare=False)
    #: the facts the failing requirement read (``program/reasons.py``), when the game keeps reasons
    because: Optional[list] = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"refused by rule {self.rule}: {self.message}"

    def data(self) -> dict:
        """The refusal's event data: its reasons, if it has any."""
        return {"because": self.because} if self.because else {}

    def words(self, operands: bool = True) -> str:
        """The refusal as the trace and a scenario's report say it, who tried what first: ``ann tries
        marshal(Hedge Knight): refused by 3.2, You do not have enough gold.``, then (``operands``) the
        comparisons that failed it; a trace event leaves them to its reasons, on the line below."""
        tried = self.tried
        if not tried and self.play is not None:
            tried = f"{_name(self.play.player)} tries {self.play.describe()}"
        refused = f"refused by {self.rule}, {self.message}" if self.rule else f"refused: {self.message}"
        # the comparisons that failed it, with their operands: ``(c.cost <= p.gold: 3 <= 2, false)``
        failed = [fact["text"] for fact in self.because or () if fact["kind"] == "comparison" and not fact["holds"]]
        if failed and operands:
            refused += f" ({'; '.join(failed)})"
        return f"{tried}: {refused}" if tried else refused


_words = words


def _name(who):
    """``who`` as an f-string writes it: a player's name read in place (``str`` of a player)."""
    return who.name if type(who) is Player else who


def acting(who) -> str:
    """The acting player as the trace names it: a player's (or a card owner's) name, or "" for nobody."""
    return who.name if type(who) is Player else (who or "")


# -- the words of the frequent trace events, made when the trace is read
#
# A move, set, change (increase, decrease), transfer, named event or card revealed records as its event's
# text not its words but a tuple ``(how, *values)`` (``Game.events``): the values its words are made of,
# taken when the event is recorded, and the name of the function in ``WORDS`` that makes the words of
# them, the words the event would have been recorded with, when the trace is read (``Game.trace``).
#
# Each value taken does not change afterwards: text, a number, a truth value, none, a player (its name),
# a card (its title), a zone (its name); a list, which may be a zone's own cards, is put in words when
# taken (``words`` gives those words back unchanged: ``kept``). A hidden fact is recorded as it is, with
# whose it is (below): what each reader is shown of it is decided when the trace is read. Python's
# cyclic garbage collector stops looking at a tuple of text, numbers and none (as at the words it
# stands for), but looks through one holding a function, a player or a card at each of its collections
# for as long as the game lasts: so the function is named, and a zone is taken by its name and an owner
# by the player's.

def kept(values: tuple) -> tuple:
    """Values to put in words later, each list among them in words now (a zone's cards change)."""
    return tuple(words(v) if type(v) is list else v for v in values)


def held(who: str, name: str) -> str:
    """How the trace names a counter, supply, role, flag or attribute of the holder named ``who``:
    ``treasury`` for the game's (whose ``who`` is its name), ``ann's gold`` for a player's or a card's."""
    return name if who == name else f"{who}'s {name}"


def move_words(shown: str, source: Optional[str], zone: str) -> str:
    """``Arya Stark moves from ann.hand to ann.play``: the zones by name (``Zone.label``); ``shown`` is
    ``a card`` between hidden zones; ``source`` is none for a card that was in no zone."""
    return f"{shown} moves from {source} to {zone}"


def set_words(who: str, name: str, old, new) -> str:
    """``ann's role: none -> leader``: a set (or clear) that changed a value."""
    return f"{held(who, name)}: {words(old)} -> {words(new)}"


def change_words(who: str, name: str, old, new) -> str:
    """``ann's gold: 2 -> 5``: an increase or decrease."""
    return f"{held(who, name)}: {old} -> {new}"


def transfer_words(n, source_who: str, source: str, dest_who: str, dest: str, after) -> str:
    """``2 from treasury to ann's gold (ann's gold now 5)``."""
    to = held(dest_who, dest)
    return f"{n} from {held(source_who, source)} to {to} ({to} now {after})"


def named_words(name: str, values: tuple) -> str:
    """``challenge-initiated(ann, military)``: a named event and its values."""
    return f"{name}({', '.join(words(v) for v in values)})"


def revealed_words(owner: Optional[str], title: str) -> str:
    """``ann's Arya Stark is revealed``, or ``Arya Stark is revealed`` for a card no player owns."""
    return f"{owner}'s {title} is revealed" if owner is not None else f"{title} is revealed"


# -- hidden facts: recorded as they are, with who may see them
#
# An event with a hidden fact records what really happened, and whose it is, as ``(how, *values)``
# too, its data what every player sees. ``WORDS[how]`` makes the words every player sees (the public
# view) as ``Hidden``, and the trace keeps the fact in a ``HiddenEvent``; ``SEEN[how]``, given the
# event's data and the values, makes the players who may see it and the words and data saying it,
# only when a view that may see it is asked for (``TraceEvent.view``): a game whose trace is read in
# the public view, as random games' are, makes no more than the public words.

#: What ``WORDS`` gives for an event with a hidden fact: ``(words,)``, the words every player sees, in
#: a tuple of one (for any other event, text)
Hidden = tuple


def seers(*names) -> tuple:
    """The players who may see a hidden fact, from the names given (none, "" or repeated left out)."""
    return tuple(dict.fromkeys(n for n in names if n))


def hidden_choice_words(who: str, choice: str, card: bool) -> Hidden:
    """``mike makes a hidden choice``, or ``ann chooses a card (hidden)``: what the others see."""
    return (f"{who} chooses a card (hidden)" if card else f"{who} makes a hidden choice",)


def hidden_choice_seen(data: dict, who: str, choice, card: bool) -> tuple:
    """``mike chooses B4`` (a choice other than text in words when taken), seen by the chooser."""
    seen, choice = seers(who), words(choice)
    return seen, f"{who} chooses {choice}", dict(data, choice=choice, seen_by=list(seen))


def hidden_move_words(title: str, source: str, zone: str, source_owner, zone_owner) -> Hidden:
    """``a card moves from ann.draw-deck to ann.hand``, between hidden zones: what the others see."""
    return (move_words("a card", source, zone),)


def hidden_move_seen(data: dict, title: str, source: str, zone: str, source_owner, zone_owner) -> tuple:
    """``Arya Stark moves from ann.draw-deck to ann.hand``, seen by the zones' owners."""
    seen = seers(source_owner, zone_owner)
    return seen, move_words(title, source, zone), dict(data, title=title, hidden=True, seen_by=list(seen))


def hidden_set_words(what: str, old, new, owner, actor) -> Hidden:
    """``Michael Myers's space changes (hidden)``: a hidden attribute set, as the others see it."""
    return (f"{what} changes (hidden)",)


def hidden_set_seen(data: dict, what: str, old, new, owner, actor) -> tuple:
    """``Michael Myers's space: E7 -> E8`` (values other than text in words when taken), seen by the
    card's owner and by the player whose play or ability set it."""
    seen, old, new = seers(owner, actor), words(old), words(new)
    return seen, f"{what}: {old} -> {new}", dict(data, old=old, new=new, seen_by=list(seen))


def hidden_draw_words(public: str, titles: tuple, source_owner, zone_owner) -> Hidden:
    """``ann draws 2 cards from ann.draw-deck to ann.hand``, between hidden zones: how many."""
    return (public,)


def hidden_draw_seen(data: dict, public: str, titles: tuple, source_owner, zone_owner) -> tuple:
    """``ann draws 2 cards from ann.draw-deck to ann.hand: Arya Stark, Hedge Knight``, seen by the zones'
    owners."""
    seen = seers(source_owner, zone_owner)
    return (seen, f"{public}: {', '.join(titles)}" if titles else public,
            dict(data, cards=list(titles), hidden=True, seen_by=list(seen)))


def hidden_conceal_words(title: str, zone: str, owner) -> Hidden:
    """``a card in ann.hand is turned face down``: what the others see."""
    return (f"a card in {zone} is turned face down",)


def hidden_conceal_seen(data: dict, title: str, zone: str, owner) -> tuple:
    """``Arya Stark in ann.hand is turned face down``, seen by the zone's owner."""
    seen = seers(owner)
    return seen, f"{title} in {zone} is turned face down", dict(data, title=title, hidden=True, seen_by=list(seen))


#: The functions making the words of an event recorded as ``(how, *values)``, by ``how``: text, or
#: ``Hidden`` for an event with a hidden fact.
WORDS = {"move": move_words, "set": set_words, "change": change_words, "transfer": transfer_words,
         "named": named_words, "revealed": revealed_words, "hidden choice": hidden_choice_words,
         "hidden move": hidden_move_words, "hidden set": hidden_set_words, "hidden draw": hidden_draw_words,
         "hidden conceal": hidden_conceal_words}

#: For each event with a hidden fact, by ``how``: the function making, of its data and values, the
#: players who may see it and the words and data saying it.
SEEN = {"hidden choice": hidden_choice_seen, "hidden move": hidden_move_seen, "hidden set": hidden_set_seen,
        "hidden draw": hidden_draw_seen, "hidden conceal": hidden_conceal_seen}


@dataclass
class Modifier:
    key: tuple
    op: str
    value: Any
    rule: str
    ends: tuple                 # (milestone kind, phase name or "")
    pending_until_begin: bool = False
    about: str = ""             # what it modifies, in the trace's words (``Eddard Stark's strength``)
    card: str = ""              # the title of the card whose ability made it, if one did
    by: str = ""                # the player whose play or card made it ("" for the game's procedure)
    round: Optional[int] = None  # the round it was made in (``Game.round_number``)

    @property
    def target(self) -> str:
        """The name modified: an attribute's (``("attr", who, name)``), a counter's or a value's."""
        return self.key[2] if self.key[0] == "attr" else self.key[1]

    def describe(self) -> str:
        """What it does, as the trace words it: ``first-turn-player to bob``, ``income(ann) by 2``."""
        return f"{self.about or self.target} {self.op} {_words(self.value)}"


class Frame:
    """The names visible while a procedure runs, the rule it runs for, ``this`` card, and the ``actor``:
    the name of the player whose play or card ability is being carried out ("" while the game's own
    procedure runs), whom the trace names as acting in each event recorded meanwhile."""

    __slots__ = ("game", "vars", "rule", "this", "actor")

    def __init__(self, game, vars: dict, rule: str, this=None, actor: str = ""):
        self.game = game
        self.vars = vars
        self.rule = rule
        self.this = this
        self.actor = actor


class BareFrame(Frame):
    """A ``Frame`` made with nothing set, its five fields then set in place by the maker: the engine's
    busiest frames are made so (a rule run, a legal search, a play made, a trigger, a state check),
    without calling a Python ``__init__``. Everything else treats it as the ``Frame`` it is."""

    __slots__ = ()
    __init__ = object.__init__
