"""Operations: what compiled rules call at run time, beside what the generated code writes inline.

In: a frame (``f``: the game in play, the variables, the rule running), the values a statement works
on, worked out by the code written for it (``program/statements.py``), and what is known of it as the
rules are written (its span, names and texts). Out: the statement's effect on the game (its events
traced, its decisions asked, its random draws made), the value it binds, or a positioned error naming
the rule.
"""

from __future__ import annotations

from itertools import repeat as _each_time
from operator import is_

from ..diagnostics import ForcedPickRefused, LudexError
from ..parse import ast as A
from ..parse.builders import MAX_DIGITS
from .builtins import DICE_LIMIT, players_from, value_words
from .records import BareFrame, BarePlay, Decision, Frame, GameOver, Goto, Modifier, Play, SkipStep, Violation, kept
from .state import Card, Player, Zone, items_of, words


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
    each play belongs to (``in_any_order_parts``), made once as the turn is written (``TurnMenu``)."""
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
        game.tick(f.rule)
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
            # (one of the plays just offered is made without its requirements asked again)
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
        if game.checks:
            game.run_checks()


def in_any_order_parts(group: A.InAnyOrder) -> dict:
    """Which part (its index) of parts joined by 'and' each of their plays belongs to."""
    return {name: k for k, part in enumerate(group.parts) for name in part.actions}


def _needs_words(part: A.MenuPart, left: int) -> str:
    """``a play of perform-function``, ``2 plays of move or search``."""
    return f"{'a play' if left == 1 else f'{left} plays'} of {' or '.join(part.actions)}"


def menu_words(part: A.MenuPart) -> str:
    """A menu part as the rules write it: ``exactly one of perform-function``, ``up to 2 of move``."""
    count = {"one": "exactly one", "any": "any number"}.get(part.count) or (
        f"up to {part.n}" if part.count == "up-to" else str(part.n))
    return f"{count} of {', '.join(part.actions)}" + (" repeats allowed" if part.repeats else "")


#: The first whole number too long for a counter, supply or attribute: one of more than the
#: ``MAX_DIGITS`` digits a rules file may write (E003). The written code compares with it in place.
TOO_LONG = 10 ** MAX_DIGITS


def bounded(f, bound_name, value, what, span):
    """Refuse a whole number outside the bounds of the counter or supply so named, or of more than
    ``MAX_DIGITS`` digits (``too_long``)."""
    low, high = f.game.state.bounds.get(bound_name, (None, None))
    if isinstance(value, int) and not isinstance(value, bool):
        if low is not None and value < low:
            raise f.game.error(f"{what} would be {value}, below its minimum {low}", f.rule, span)
        if high is not None and value > high:
            raise f.game.error(f"{what} would be {value}, above its maximum {high}", f.rule, span)
        if not -TOO_LONG < value < TOO_LONG:
            too_long(f, what, value, span)


def too_long(f, what, value, span):
    """Refuse a number of more than ``MAX_DIGITS`` digits set into ``what`` (``TOO_LONG``)."""
    shown = value if -10 ** 40 < value < 10 ** 40 else "a number of more than 40 digits"
    raise f.game.error(f"{what} would be {shown}, more than the {MAX_DIGITS} digits a number may have",
                       f.rule, span)


def explain(exc) -> str:
    text = str(exc)
    if "NoneType" in text:
        return "a value is none"
    if "unsupported operand" in text or "not supported between" in text:
        return "these values cannot be compared or added"
    return text


# ---------------------------------------------------------------- statements written as calls
def decide(f, player, kind: str, options: list, prompt, hidden: bool, span):
    """The answer of ``player`` to a decision of ``kind`` among ``options``: an agent that answers from
    the options alone is asked so, with no ``Decision`` made (but not to order: the order is its
    answer); ``Game.decide`` refuses a choice with no option."""
    game = f.game
    answer_from = getattr(game.agent, "answer_from", None)
    if answer_from is not None and options and kind != "order":
        return answer_from(options)
    return game.decide(Decision(player, kind, options, f.rule, prompt, hidden, span))


def create(f, zone, cards):
    """``create CARDS in ZONE``: new cards of the titles ``cards`` names (a deck's entries, a title, a
    list of titles), owned by the zone's owner, traced by their count."""
    game = f.game
    titles = []
    if isinstance(cards, A.Deck):
        for count, title in cards.entries:
            titles += [title] * count
    else:
        titles = [cards] if isinstance(cards, str) else list(cards)
    game.create_cards(titles, zone.owner, zone, f.rule)
    game.record(f.rule, "create", f"{len(titles)} card{'s' if len(titles) != 1 else ''} into {zone}", f.actor)


def shuffle(f, zone):
    """``shuffle ZONE``: its cards in a random order, or in the order a scenario fixed for it."""
    game = f.game
    forced, was_forced = game._forced(f"order {zone}")
    if was_forced:
        zone.cards[:] = forced_order(zone.cards, forced)
    else:
        game.rng.shuffle(zone.cards)
    game.zone_reordered(zone)
    game.record(f.rule, "random", f"{zone} is shuffled" + (" (order fixed by the scenario)" if was_forced else ""),
                f.actor, random="shuffle")


def conceal(f, cards, reading: int, span):
    """``turn CARDS face down``: each card face up turned face down and traced, in a hidden zone with
    its owner, who alone sees its face there; ``reading``: the state checks that read faces
    (``reads.CheckBits``)."""
    game = f.game
    for card in as_list(cards):
        if type(card) is not Card:
            raise game.error(f"only a card is turned face down, not {value_words(card)}", f.rule, span)
        if card.face_up:
            card.face_up = False
            game.books.stale |= reading
            zone = card.zone
            if zone is not None and zone.hidden:    # seen by its owner alone (``records.hidden_conceal_words``)
                game.record(f.rule, "conceal", ("hidden conceal", card.title, zone.label, zone.owner and zone.owner.name),
                            f.actor, card=card.id)
            else:
                game.record(f.rule, "conceal", f"{card.title} is turned face down", f.actor, card=card.id)


def pick(f, options, span):
    """``pick VAR at random from OPTIONS``: one of the options drawn at random, or the one a scenario
    fixed (refused when it is none of them), traced; returned for the variable."""
    game = f.game
    opts = as_list(options)
    if not opts:
        raise game.error("nothing to pick from at random", f.rule, span)
    forced, was_forced = game._forced("pick")
    if was_forced:
        matches = [o for o in opts if words(o) == forced or o == forced]
        if not matches:
            error = game.error(f"the random pick is fixed to {forced}, which is not one of {words(opts)}", f.rule,
                               span)
            raise ForcedPickRefused(error.diagnostics, forced, words(opts))
        answer = matches[0]
    else:
        answer = opts[game.rng.randrange(len(opts))]
    game.record(f.rule, "random", f"{words(answer)} is picked at random from {words(opts)}", f.actor,
                random="pick", choice=words(answer))
    return answer


def roll(f, count, dice_name: str, span) -> list:
    """``roll N DICE dice as VAR``: each die's face drawn at random, or fixed by a scenario, traced;
    the faces returned for the variable."""
    game = f.game
    dice = game.gamedef.dice[dice_name]
    if count < 0:
        raise game.error(f"cannot roll a negative number of dice ({count})", f.rule, span)
    if count > DICE_LIMIT:
        raise game.error(f"cannot roll {count} dice: a roll has at most {DICE_LIMIT}", f.rule, span)
    faces = []
    for _ in range(count):
        forced, was_forced = game._forced(f"dice {dice_name}")
        faces.append(forced if was_forced else dice.faces[game.rng.randrange(len(dice.faces))])
    game.record(f.rule, "random", f"{count} {dice_name} dice roll {', '.join(faces)}", f.actor, random="dice",
                faces=faces)
    return faces


def perform(f, action: str, actor, args: tuple, span):
    """``perform ACTION(ARGS) by PLAYER``: the play tried against its requirements and made; one that
    they refuse is an error of the rule making it, which no player can take back."""
    game = f.game
    try:
        game.attempt(Play(action, actor, args), f.rule)
    except Violation as v:
        raise game.error(f"rule {f.rule} makes a play that rule {v.rule} refuses: {v.message}", f.rule,
                         span) from None


def value_modified(name: str, values: tuple) -> tuple:
    """What a modifier on the named value of these arguments modifies: its key, and its words
    (``income(ann)``)."""
    return ("value", name, values), f"{name}({', '.join(words(v) for v in values)})" if values else name


def attribute_modified(obj, name: str) -> tuple:
    """What a modifier on a player's or card's attribute modifies: its key, and its words (``Eddard
    Stark's strength``)."""
    return ("attr", obj.name if isinstance(obj, Player) else obj.id, name), f"{obj}'s {name}"


#: How the trace words each kind of a modifier's duration (``until the end of the round``).
_LASTING = {"until_end": "until the end of the {}", "for_this": "for this {}", "for_next": "for the next {}"}


def modify(f, key: tuple, about: str, op: str, value, duration, cite: str = ""):
    """``modify ... until the end of the round``: the modifier added and traced (``for next round``
    waits for the round to begin), under the rule it cites or else the rule running, with the card and
    player that made it and the round it was made in (what a reason tells of it)."""
    game = f.game
    this = f.this
    modifier = Modifier(key, op, value, cite or f.rule, (duration.milestone, duration.name),
                        duration.kind == "for_next", about, this.title if type(this) is Card else "",
                        f.actor or "", game.round_number())
    game.add_modifier(modifier)
    lasting = _LASTING[duration.kind].format(duration.milestone)
    game.record(modifier.rule, "modifier", f"modifier: {modifier.describe()} {lasting}", f.actor)


def win(f, players, data=None):
    """``PLAYERS win``: the game ends, won by them (none: a draw); ``data``: the event's (its reasons)."""
    game = f.game
    winners = as_list(players)
    game.winners = winners
    if not winners:         # 'win' of an empty list or none: the game ends with no winner
        text = "the game ends with no winner (a draw)"
    else:
        text = f"{words(winners) if len(winners) != 1 else winners[0]} win{'s' if len(winners) == 1 else ''} the game"
    game.record(f.rule, "win", text, f.actor, **(data or {}))
    raise GameOver(winners)


def eliminate(f, players, data=None):
    """``eliminate PLAYERS``: each still in the game is out of it, traced (``data``: its reasons)."""
    game = f.game
    for p in as_list(players):
        if not p.eliminated:
            p.eliminated = True
            game.books.eliminations += 1
            game.books.stale = game.books.every
            game.record(f.rule, "eliminate", f"{p} is eliminated from the game", p, **(data or {}))


class TurnMenu:
    """What a ``turn`` statement's menu is, known as the rules are written (``turn``): each part with
    whether it ends after ``n`` plays and whether the player may pass, and how the trace words a pass
    that ends it; the triggers listening to the turn's beginning and end (None: none listens); and,
    for each part made of parts joined by 'and', which of them each play belongs to."""

    __slots__ = ("parts", "begun", "ended", "part_of")

    def __init__(self, menu, begun, ended):
        parts = [(part, getattr(part, "count", "") in ("one", "n", "up-to"),
                  getattr(part, "count", "") in ("any", "up-to")) for part in menu]
        # "ann passes, on to perform-function" (a pass in the last part ends the turn: "ann passes")
        on_to = [", on to " + " or ".join(a for p in A.menu_parts([later]) for a in p.actions)
                 if later is not None else "" for later in [part for part, _, _ in parts[1:]] + [None]]
        self.parts = list(zip(parts, on_to))
        self.begun, self.ended = begun, ended
        self.part_of = {id(part): in_any_order_parts(part) for part, _, _ in parts if type(part) is A.InAnyOrder}


def turn(f, player, menu: TurnMenu, span):
    """``turn PLAYER { MENU }``: the player's turn begins (traced, its triggers run), the player makes
    the plays of each part of the menu in order, then it ends (traced, its triggers run, the modifiers
    lasting for a turn expire). A player out of the game has no turn. While it goes on, ``Game.acting``
    holds it (``turn-player``)."""
    game = f.game
    if type(player) is Player and player.eliminated:
        # out of the game: no turn (a 'for each' over the players listed before the elimination still
        # names them)
        game.record(f.rule, "log", f"{player} is out of the game: no turn", player)
        return
    going_on = [None, player]
    game.acting.append(going_on)
    game.books.remembered_at = -1       # (a value remembered may read whose turn it is)
    try:
        _turn_of(f, game, player, menu, span)
    finally:
        game.acting.pop()
        game.books.remembered_at = -1


def _turn_of(f, game, player, menu: TurnMenu, span):
    """The turn itself (``turn``): its beginning, its plays, its end."""
    actions = game.actions
    prompt = f"{player}'s turn"
    # (an agent that answers from the options alone is asked so, with no Decision made; ``decide``
    # refuses a play with no option)
    answer_from = getattr(game.agent, "answer_from", None)
    # (``Game.emit``, written in place, here and where the turn ends)
    game.events.append((f.rule, "event", f"{player}'s turn begins", "", {"event": "begin turn"}))
    if menu.begun:
        game.run_triggers(menu.begun, "begin", f.rule, (player,))
    for (part, limited, optional), then in menu.parts:
        if type(part) is A.InAnyOrder:
            in_any_order(f, game, player, part, then, span, menu.part_of[id(part)])
            continue
        used, made = set(), 0
        names = part.actions
        while True:
            if getattr(player, "eliminated", False):
                break               # eliminated during the turn: it ends here
            if limited and made >= part.n:
                break
            if used and not part.repeats:
                names = [a for a in part.actions if a not in used]
            options = game.legal_plays(player, names)
            may_pass = optional or "pass" in names
            if may_pass:
                options.append(game.passes[player.seat])
            game.tick(f.rule)
            choice = answer_from(options) if answer_from is not None and options else \
                game.decide(Decision(player, "play", options, f.rule, prompt, False, span))
            if choice.player is not player:
                raise Violation(f.rule, f"it is {player}'s turn, not {choice.player}'s", choice, span)
            try:
                if not (choice.action == "pass" and may_pass) and choice.action not in names:
                    allowed = ", ".join(list(names) + (["pass"] if may_pass else []))
                    raise Violation(f.rule, f"{choice.action} is not a play of this part of the turn "
                                    f"(now: {allowed})", choice, span)
                if choice.action != "pass" and any(map(is_, options, _each_time(choice))):
                    actions[choice.action].play(game, choice)     # one of those offered: legal
                elif choice.action == "pass" and then and (optional or made + 1 >= part.n):
                    # (a pass that ends its part: one that counts as a play of a part of '2 of flip,
                    # pass' leaves the player in it)
                    game.record(f.rule, "pass", f"{player} passes{then}", player)
                else:
                    game.attempt(choice, f.rule)
            except Violation as refused:
                if not game.may_choose_again(refused, player):
                    raise
                continue                # refused and taken back: the player chooses again
            if choice.action == "pass":
                if optional:
                    break
            used.add(choice.action)
            made += 1
            if game.checks:
                game.run_checks()
    game.events.append((f.rule, "event", f"{player}'s turn ends", "", {"event": "end turn"}))
    if menu.ended:
        game.run_triggers(menu.ended, "end", f.rule, (player,))
    if game.modifiers:
        game.expire("turn", "", f.rule)


#: The exceptions a statement's guard turns into a positioned error: a wrong kind of value.
CAUGHT = (TypeError, AttributeError, ValueError, KeyError, IndexError)


def cannot(exc) -> str:
    """The words of the error for a statement that a wrong kind of value stopped."""
    return f"this cannot be done with these values ({explain(exc)})"


def as_list_read(value) -> list:
    """A value's items as a list to read: a list itself (not copied), a zone's cards, nothing for none,
    a tuple's items, or the value alone."""
    if type(value) is list:
        return value
    if isinstance(value, Zone):
        return list(value.cards)
    if value is None:
        return []
    if isinstance(value, tuple):
        return list(value)
    return [value]


def member(item, pool) -> bool:
    """``ITEM in POOL``: a card in a zone, an item of a list, or of a single value's list."""
    if type(pool) is Zone:
        return item.zone is pool if type(item) is Card else False
    if isinstance(pool, (list, tuple)):
        return item in pool
    return item in as_list_read(pool)


def best(kind: str, scored: list) -> list:
    """The items of ``(score, item)`` pairs with the highest (``kind`` "highest") or lowest score."""
    if not scored:
        return []
    top = max(s for s, _ in scored) if kind == "highest" else min(s for s, _ in scored)
    return [i for s, i in scored if s == top]


#: A value not yet worked out (a requirement, a remembered value).
UNSET = object()


#: Every name the written functions read that is not written for one game (its constants ``_k...``,
#: ``_VALUES``, ``_HIDDEN`` and the functions written beside them): the whole contract between the
#: code writers of ``program/`` and the code they write, which runs in a copy of this namespace.
NAMESPACE = {
    # the state and the records
    "_Card": Card, "_Player": Player, "_Zone": Zone, "_Frame": Frame, "_BareFrame": BareFrame, "_Play": Play,
    "_BarePlay": BarePlay, "_Decision": Decision, "_Violation": Violation, "_Goto": Goto, "_SkipStep": SkipStep,
    "_LudexError": LudexError, "_kept": kept, "_words": words, "_value_words": value_words,
    "_players_from": players_from, "_over": items_of, "_UNSET": UNSET,
    # Python's own, under names no rules file can bind
    "_is": is_, "_each_time": _each_time,
    # values
    "_as_list": as_list_read, "_as_list_copy": as_list, "_member": member, "_best": best, "_bounded": bounded, "_too_long": too_long,
    # a statement stopped by a wrong kind of value
    "_CAUGHT": CAUGHT, "_cannot": cannot,
    # the statements not written in place
    "_decide": decide, "_create": create, "_shuffle": shuffle, "_conceal": conceal, "_pick": pick, "_roll": roll,
    "_perform": perform, "_turn": turn, "_value_modified": value_modified, "_attribute_modified": attribute_modified,
    "_modify": modify, "_win": win, "_eliminate": eliminate,
}
