"""Operations: what compiled rules call at run time, beside what the generated code writes inline.

In: a frame (``f``: the game in play, the variables, the rule running) and the values a statement
works on. Out: the statement's effect on the game, or a positioned error naming the rule.
"""

from __future__ import annotations

from itertools import repeat as _each_time
from operator import is_

from ..parse import ast as A
from .records import Decision, Play, Violation
from .state import Card, Zone, words


def as_list(value) -> list:
    """A new list of a value's items: a zone's cards, a list's or tuple's items, nothing for none, or
    the value alone."""
    t = type(value)
    # (the kinds met most, a card and a list, told by their type before ``isinstance`` looks)
    if t is Card:
        return [value]
    if t is list:
        return list(value)
    if isinstance(value, Zone):
        return list(value.cards)
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


#: The most dice one roll may have. Every die is a face drawn and traced; games roll a handful, and a
#: count far beyond this is a mistake that would fill the machine's memory before anything stopped it.
DICE_LIMIT = 1000


def abilities_of_kind(definition, kind: str) -> tuple:
    """The abilities a card definition has that ``initiate "KIND" abilities`` initiates: those named
    so or of that kind (``kind`` in lower case), and not answering an event."""
    return tuple(ability for ability in definition.abilities
                 if ability.event is None and kind in (ability.kind.lower(), ability.name.lower()))


def initiated_words(ability) -> str:
    """What the trace says after an initiated ability's card: ``: Old Library (at the start of the
    round) initiates``."""
    return f": {ability.name}{f' ({ability.kind})' if ability.kind else ''} initiates"


def order_abilities(f, found: list, chooser, ability: str, span) -> list:
    """The ``(card, ability)`` pairs an ``initiate ... ordered by CHOOSER`` found, in the order the
    chooser gives them (a ``Decision`` of kind ``order``, traced); ``ability``: the kind initiated, as
    the rules name it."""
    game = f.game
    labels = [_Ability(card, ability) for card, ability in found]
    answer = game.decide(Decision(chooser, "order", labels, f.rule, f"order the {ability} abilities", False, span))
    found = [(a.card, a.ability) for a in answer]
    game.record(f.rule, "decision", f"{chooser} orders {words(list(answer))}", chooser)
    return found


class _Ability:
    def __init__(self, card, ability):
        self.card, self.ability = card, ability

    def __str__(self):
        return f"{self.card.title} ({self.ability.name})"


def forced_order(cards, titles):
    """The cards in the order the titles give, each title taking the next copy of its card; cards
    the titles do not name keep their order after them."""
    remaining = list(cards)
    ordered = []
    for title in titles:
        for card in remaining:
            if card.title == title:
                ordered.append(card)
                remaining.remove(card)
                break
    return ordered + remaining


def in_any_order(f, game, player, group: A.InAnyOrder, then: str, span, part_of: dict | None = None):
    """A part of a turn made of parts joined by 'and' (``exactly one of perform-function and any number
    of play-card``): the player makes plays of every part not yet full, in any order, and may pass,
    which ends it, once each part that needs plays ('exactly one of', '2 of') has them. ``then``: how
    the trace words that pass (``, on to ...`` when more of the turn follows); ``part_of``: which part
    each play belongs to (``in_any_order_parts``), made once by the turn's closure."""
    parts = group.parts
    made = [0] * len(parts)
    #: each part's plays it still offers: all of them, or those not made yet where repeats are not allowed
    offered = [list(part.actions) for part in parts]
    if part_of is None:
        part_of = in_any_order_parts(group)
    # (an agent that answers from the options alone is asked so, with no Decision made, nor its prompt;
    # ``decide`` refuses a play with no option)
    answer_from = getattr(game.agent, "answer_from", None)
    actions = game.actions
    # The parts still open, the plays they offer (and their legal searches) and what they still need
    # change only when a play is made of a part that fills up or offers a play once: worked out again
    # then (``names`` None), not at every choice (a play of 'any number of X repeats allowed' changes none).
    names = None
    while not getattr(player, "eliminated", False):      # eliminated during the turn: it ends here
        if names is None:
            open_parts, names, needed = [], [], []
            for k, part in enumerate(parts):
                if part.count == "any" or made[k] < part.n:
                    open_parts.append(k)
                    names += offered[k]
                    if part.count in ("one", "n"):
                        needed.append((part, part.n - made[k]))
            if not open_parts:
                return                      # every part has all the plays it allows
            searches = [actions[name].legal for name in names if name != "pass"]
        # (``Game.legal_plays``, in place: each search gives a list of its own, which the options extend)
        options = []
        for legal in searches:
            options += legal(game, player)
        if not needed:
            options.append(game.passes[player.seat])
        game.steps += 1
        if game.steps > game.step_budget:
            raise game.over_budget(f.rule)
        choice = answer_from(options) if answer_from is not None and options else \
            game.decide(Decision(player, "play", options, f.rule, f"{player}'s turn", False, span))
        if choice.player is not player:
            raise Violation(f.rule, f"it is {player}'s turn, not {choice.player}'s", choice, span)
        try:
            if choice.action == "pass":
                if needed:
                    raise Violation(f.rule, f"{player} may not pass yet: this part of the turn still needs "
                                    + " and ".join(_needs_words(part, left) for part, left in needed), choice, span)
                game.record(f.rule, "pass", f"{player} passes{then}", player)
                return
            if choice.action not in names:
                k = part_of.get(choice.action)
                if k is None:
                    raise Violation(f.rule, f"{choice.action} is not a play of this part of the turn (now: "
                                    f"{', '.join(names + ([] if needed else ['pass']))})", choice, span)
                # a play of a part that is full, or made once where repeats are not allowed: the rule
                # that refuses it, if one does, says why
                refused = game.refusal(choice) if choice.action in game.actions else None
                if k in open_parts:
                    why = f"{choice.action} was made already, and {menu_words(parts[k])} has each play at most once"
                else:
                    why = f"this part of the turn allows {menu_words(parts[k])}, and {'it was' if made[k] == 1 else 'they were'} made"
                raise refused or Violation(f.rule, why, choice, span)
            # (``make``, in place)
            if any(map(is_, options, _each_time(choice))):
                actions[choice.action].play(game, choice)
            else:
                game.attempt(choice, f.rule)
        except Violation as refused:
            if not game.may_choose_again(refused, player):
                raise
            continue                        # refused and taken back: the same choices again
        k = part_of[choice.action]
        made[k] += 1
        part = parts[k]
        if not part.repeats:
            offered[k].remove(choice.action)
            names = None
        elif part.count != "any":
            names = None
        if game.checked_at != game.version and game.checks:
            game.run_checks()


def in_any_order_parts(group: A.InAnyOrder) -> dict:
    """Which part (its index) of parts joined by 'and' each of their plays belongs to."""
    return {name: k for k, part in enumerate(group.parts) for name in part.actions}


def make(game, choice: Play, options: list, rule: str):
    """Make a play chosen in a window or a turn: one of the options just offered is legal, and is made
    without checking it again; any other is tried against its requirements (refused, or made)."""
    if any(map(is_, options, _each_time(choice))):
        game.actions[choice.action].play(game, choice)
    else:
        game.attempt(choice, rule)


def _needs_words(part: A.MenuPart, left: int) -> str:
    """``a play of perform-function``, ``2 plays of move or search``."""
    return f"{'a play' if left == 1 else f'{left} plays'} of {' or '.join(part.actions)}"


def menu_words(part: A.MenuPart) -> str:
    """A menu part as the rules write it: ``exactly one of perform-function``, ``up to 2 of move``."""
    count = {"one": "exactly one", "any": "any number"}.get(part.count) or (
        f"up to {part.n}" if part.count == "up-to" else str(part.n))
    return f"{count} of {', '.join(part.actions)}" + (" repeats allowed" if part.repeats else "")


def empty_turn(f):
    """A turn of a loop with nothing in it: a step (``BlockWriter.empty_turn``), so that a loop that
    never ends meets the step budget instead of hanging."""
    game = f.game
    game.steps += 1
    if game.steps > game.step_budget:
        raise game.over_budget(f.rule)


def bounded(f, bound_name, value, what, span):
    """Refuse a whole number outside the bounds of the counter or supply so named."""
    low, high = f.game.state.bounds.get(bound_name, (None, None))
    if isinstance(value, int) and not isinstance(value, bool):
        if low is not None and value < low:
            raise f.game.error(f"{what} would be {value}, below its minimum {low}", f.rule, span)
        if high is not None and value > high:
            raise f.game.error(f"{what} would be {value}, above its maximum {high}", f.rule, span)


def is_hidden(game, table, name) -> bool:
    """Whether ``table`` is the attributes of a card whose type declares ``name`` hidden."""
    for card in game.state.cards:
        if card.attrs is table:
            return (card.type, name) in game.hidden_attributes
    return False


def explain(exc) -> str:
    text = str(exc)
    if "NoneType" in text:
        return "a value is none"
    if "unsupported operand" in text or "not supported between" in text:
        return "these values cannot be compared or added"
    return text
