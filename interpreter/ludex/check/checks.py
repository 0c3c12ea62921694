"""Static checks: a ``GameDef`` in, every diagnostic it deserves out, before anything runs.

Checked: duplicate and out-of-order rule ids; references to rules that do not exist (goto, run,
cite, an erratum's rule, "see 3.3" and "step 1.2" in reference text); unknown counters, zones, roles,
card attributes, card types, actions, dice, built-ins and names; values of a kind that cannot be
meant where the kind is known: a player, a card or true/false where a number is needed, a condition
that is not true or false, ``==`` between kinds that are never equal (a zone and a list among them),
``for each`` over a number, cards to reveal that are not cards, a list where only a zone will do;
counters whose written bounds cannot hold; statements that can never run and rules whose procedure
nothing runs; a goto or a skip with no step to go on at or to skip; errata whose words are not in their
rule's text or whose source is not declared; player ranges, deck counts, dice counts and ranges that
cannot be. Every error is collected.
``Checker.check_script`` checks a scenario's or a log's set-up and expressions the same way.

This module checks the declarations and the statements; an expression's kind is worked out and
checked by ``values.Scope``, with the tables of ``kinds.py``, and diagnostics point at the words
``spans.py`` finds.
"""

from __future__ import annotations

import re

from ..diagnostics import SOURCES, Diagnostic, LudexError, Related
from ..parse import ast as A
from ..parse.definition import GameDef, is_numbered, number_key
from ..runtime.board import Board

# DICE_LIMIT: the most dice a roll may have (a count of 2**64 ran until memory ran out): a count written
# beyond it is refused here, before anything runs; one worked out beyond it, when the roll is made
from ..runtime.builtins import BUILTINS, CONSTANTS, DICE_LIMIT
from .kinds import CARD_OWN, NOT_NUMBERS, article, element_type, literal_number
from .spans import count_span, reference_span, references_in, source_words, word_span
from .values import Scope

#: The most copies of one card a deck list may name. Every copy is a card object made when the deck is
#: created (a count of 2**31 took 20 GB before it failed); real decks hold a few copies of a card and
#: the largest piles of tokens a few hundred, so a thousand is generous and still cheap to make.
MAX_COPIES = 1000


class Checker:
    def __init__(self, game: GameDef):
        self.game = game
        self.errors: list[Diagnostic] = []
        self.rule = ""
        #: what the block being checked is, when it is not a rule's own procedure ("the flow", "a
        #: trigger" ...): there, no sequence of steps runs, so a goto or a skip has nowhere to go
        self.place = ""
        #: (rule id, goto statement) for each goto in a rule's own procedure, judged once every
        #: 'run' is known (``check_gotos``)
        self.gotos: list = []
        self._happenings = None        # what makes each event happen (``happenings``), worked out once
        self._windows = None           # the names of the game's windows (``window_names``), once

    def window_names(self) -> set:
        """The name of every action window the game's files open (``window "NAME" ...``)."""
        if self._windows is None:
            self._windows = {x.name for x in A.descendants(tuple(self.game.modules)) if isinstance(x, A.Window)}
        return self._windows

    # -- reporting
    def error(self, code: str, message: str, span: A.Span, *, hint: str = "", related=()):
        self.errors.append(Diagnostic("static", code, message, span, rule=self.rule, hint=hint,
                                      related=tuple(related)))

    def suggest(self, name: str, candidates) -> str:
        import difflib  # only when there is a mistake to suggest a name for
        close = difflib.get_close_matches(name, list(candidates), n=3, cutoff=0.6)
        return f"did you mean {', '.join(repr(c) for c in close)}?" if close else ""

    def in_any_order(self, step: A.InAnyOrder, window: bool):
        """Parts joined by ``and``: a turn's, each naming its own plays, none a pass (a pass ends them all)."""
        if window:
            self.error("S084", "a window gives one play (or a pass) at each opportunity: parts joined by 'and' "
                       "belong to a turn", step.span,
                       hint="join the plays into one part, or make it a turn: turn of p { ... }")
            return
        seen: dict = {}
        for part in step.parts:
            for name in part.actions:
                if name == "pass":
                    self.error("S084", "a pass ends every part joined by 'and', once those that need plays "
                               "have them: it is no play of one of them", word_span(part.span, name),
                               hint="leave 'pass' out of the part")
                elif name in seen:
                    self.error("S084", f"'{name}' is in two parts joined by 'and': which one a play of it counts "
                               "for would be unclear", word_span(part.span, name),
                               related=[Related(seen[name], "the other part naming it")])
                else:
                    seen[name] = part.span

    # -- entry
    def run(self) -> list[Diagnostic]:
        g = self.game
        if g.header is None:
            span = g.modules[0].span if g.modules else A.NOWHERE
            self.error("S001", f"game '{g.key}' has no 'game' header", A.Span(span.path, 1, 1, 1, 2))
        else:
            self.check_header(g.header)
            if g.flow is None:
                self.error("S088", f"game '{g.key}' has no flow: nothing says how a game of it is played",
                           g.header.span, hint="add 'flow { ... }' with the rounds, phases and steps in order "
                           "(see docs/language.md): 'ludex run' and a scenario's 'play the game' start from it")
        self.check_duplicates()
        self.check_order()
        self.check_errata()
        self.check_card_types()
        self.check_ability_kinds()
        self.check_decks()
        self.check_boards()
        self.check_fields()
        for rule in g.rules.values():
            self.rule = rule.id
            self.check_rule(rule)
        self.rule = ""
        for action in g.actions.values():
            if action.rule == "":
                self.check_action(action)
        for value in g.values.values():
            if value.rule == "":            # a value outside any rule (a rule's own are checked with it)
                self.check_value(value)
        for title, card in g.cards.items():
            self.rule = ""
            for ability in card.abilities:
                names = {p: "any" for p in (ability.event.params if ability.event is not None else ())}
                self.check_block(ability.body, Scope(self, {**names, "this": "card"}), "a card's ability")
        if g.flow is not None:
            self.check_block(g.flow.body, Scope(self, {}), "the flow")
        self.check_requires()
        self.check_value_cycles()
        self.check_reachability()
        self.check_gotos()
        self.check_events()
        return self.errors

    def check_script(self, players, setup=(), expressions=(), zones=(), winners=(),
                     set_up="a set-up", conditions=()) -> list[Diagnostic]:
        """A scenario's or a log's own rules-language parts, checked as the rules are, with its
        players as names of players: its ``setup`` block (``set_up`` names it in messages), the
        expressions it states or names players and cards by, those that must be zones (``force order
        ann.draw-deck: ...``), those that must be players (``expect winner ann``) and those that must
        be true or false (``expect ann.gold == 3``). Nothing in a set-up is a step, and nobody is there
        to answer a decision: a goto, a skip or a decision there is an error."""
        scope = Scope(self, {name: "player" for name in players})
        for x in winners:
            scope.players(x)
        self.check_block(setup, scope, set_up)
        for s in walk(setup):
            if isinstance(s, (A.Choose, A.ChooseNumber, A.Order, A.May, A.Window, A.Turn)):
                self.error("S080", f"{set_up} asks no decisions: nobody is there to answer this one yet", s.span,
                           hint="write the state the decision leads to (set, move, create ...); "
                                "the script's lines answer the decisions of the rules it runs")
            elif isinstance(s, A.Require):
                self.error("S081", f"{set_up} refuses nothing: 'require' belongs to an action", s.span)
            elif isinstance(s, A.Win) or (isinstance(s, A.Milestone) and (s.edge, s.kind) == ("end", "game")):
                self.error("S081", f"{set_up} builds the state the game starts from, and cannot end the game",
                           s.span, hint="let the rules end it: run them, or play the game")
        self.check_made_to_happen(setup)
        for x in expressions:
            scope.expr(x)
        for x in conditions:
            scope.condition(x)
        for x in zones:
            scope.zone(x)
        return self.errors

    # -- structure
    def check_duplicates(self):
        for kind, name, item, first in self.game.duplicates:
            span = getattr(item, "id_span", None) or item.span
            self.rule = name if kind == "rule" else ""
            self.error("S002", f"{kind} '{name}' is defined twice", span,
                       related=[Related(getattr(first, "id_span", None) or first.span, "first defined here")])
        self.rule = ""

    def check_order(self):
        previous = None
        for rule in self.game.rules.values():
            if rule.outside or not is_numbered(rule.id):
                continue
            if previous is not None and number_key(rule.id) < number_key(previous.id):
                self.rule = rule.id
                self.error("S003", f"rule {rule.id} comes after rule {previous.id}; rules follow the "
                           "source's order", rule.id_span,
                           related=[Related(previous.id_span, f"rule {previous.id} is here")])
            previous = rule
        self.rule = ""

    def check_errata(self):
        for rule_id, erratum, id_span in self.game.errata:
            self.rule = rule_id
            rule = self.game.rules.get(rule_id)
            if rule is None:
                self.rule = ""
                self.error("S004", f"erratum on rule {rule_id}, which does not exist", id_span or erratum.span,
                           hint=self.suggest(rule_id, self.game.rules))
                continue
            if self.game.header and self.game.source(erratum.source) is None:
                self.error("S005", f"erratum cites source '{erratum.source}', which the game header does "
                           "not declare", word_span(erratum.span, erratum.source, before=r"erratum\s+"),
                           hint="declare it: source KEY \"title\" version \"x\"")
            text = " ".join(d.text for d in rule.docs if d.kind == "text")
            if erratum.old not in text:
                self.error("S006", f"erratum replaces \"{erratum.old}\", but rule {rule_id}'s text does not "
                           "contain those words", word_span(erratum.span, f'"{erratum.old}"', before=r"replaces\s+"))
        self.rule = ""

    def check_header(self, header: A.GameHeader):
        for part, span, first in header.given_twice:
            self.error("S083", f"the game gives its {part} twice", span, related=[Related(first, "first given here")],
                       hint="give it once: the last would silently win")
        low, high = header.min_players, header.max_players
        span = word_span(header.span, str(low), before=r"players\s+")
        line = SOURCES.line(span.path, span.line) if span.line > 0 else None
        match = re.compile(rf"{low}\s+to\s+{high}(?![\w-])").match(line, span.column - 1) if line else None
        if match is not None:
            span = A.Span(span.path, span.line, span.column, span.line, match.end() + 1)
        if low < 1:
            self.error("S075", f"a game is for at least 1 player, not {low}", span,
                       hint="write the source's numbers: players 2 to 4")
        elif high < low:
            self.error("S075", f"'players {low} to {high}': the most players ({high}) is fewer than the fewest "
                       f"({low})", span, hint=f"write the fewest first: players {high} to {low}")
        for name, fewest, most in header.format_players:
            where = word_span(header.span, name, before=r"\s")
            if most < fewest:
                self.error("S075", f"format {name} is for {fewest} to {most} players: the most is fewer than the "
                           "fewest", where, hint=f"write the fewest first: {name} for {most} to {fewest} players")
            elif fewest < low or most > high:
                self.error("S075", f"format {name} is for {fewest} to {most} players, but the game is for {low} "
                           f"to {high}", where, hint="a format's players are some of the game's")
        counted = {name for name, _, _ in header.format_players}
        if header.formats and all(name in counted for name in header.formats) and low <= high:
            covered = {n for _, fewest, most in header.format_players for n in range(fewest, most + 1)}
            missing = [n for n in range(low, high + 1) if n not in covered]
            if missing:
                self.error("S075", f"no format of the game is for {', '.join(map(str, missing))} "
                           f"player{'s' if missing != [1] else ''}, though the game is for {low} to {high}",
                           word_span(header.span, "formats"),
                           hint="give every number of players a format, or leave one format open to any number")

    def check_ability_kinds(self):
        """A card's ability without an event runs only when some statement initiates abilities of its
        kind (or, without a kind, of its name): ``initiate "When revealed" abilities of ...``; or it is
        read, by ``has-ability(c, "When revealed")``. One of a kind the game neither initiates nor
        reads would never matter (a misspelt kind, or one of another game). A ``has-ability`` whose
        kind is worked out as the game runs may read any: then none is refused."""
        kinds = set()
        for module in self.game.modules:
            for y in A.descendants(module):
                if isinstance(y, A.Initiate):
                    kinds.add(y.ability.lower())
                elif isinstance(y, A.Call) and y.name == "has-ability" and len(y.args) == 2:
                    if not isinstance(y.args[1], A.Text):
                        return
                    kinds.add(y.args[1].value.lower())
        for card in self.game.cards.values():
            for ability in card.abilities:
                if ability.event is not None or ability.kind.lower() in kinds or ability.name.lower() in kinds:
                    continue
                what = f"of kind \"{ability.kind}\"" if ability.kind else f"\"{ability.name}\", which has no kind,"
                known = ", ".join(f'"{k}"' for k in sorted(kinds))
                where = word_span(ability.span, ability.kind or ability.name, after=ability.name)
                self.error("S092", f"card \"{card.title}\"'s ability {what} is never initiated: no rule of the "
                           "game initiates (or reads) abilities of that kind", where,
                           hint=(f"the game initiates or reads abilities of the kinds {known}" if kinds else
                                 "the game initiates no abilities") + "; an ability with 'when EVENT' runs when the "
                           "event happens")

    def check_card_types(self):
        for ctype in self.game.card_types.values():
            for f in ctype.fields:
                if f.name in CARD_OWN:
                    self.error("S072", f"'{f.name}' is every card's own (its {CARD_OWN[f.name]}); an attribute "
                               "needs another name", f.span)
        for card in self.game.cards.values():
            ctype = self.game.card_types.get(card.type)
            if ctype is None:
                self.error("S010", f"card \"{card.title}\" has unknown card type '{card.type}'",
                           word_span(card.span, card.type, after=card.title),
                           hint=self.suggest(card.type, self.game.card_types))
                continue
            declared = {f.name: f for f in ctype.fields}
            for f in card.fields:
                if f.name not in declared:
                    self.error("S011", f"card type '{ctype.name}' has no attribute '{f.name}'", f.span,
                               hint=self.suggest(f.name, declared))
                else:
                    kind = Scope(self, {}).type_of(f.value)
                    if declared[f.name].type == "number" and kind in NOT_NUMBERS:
                        self.error("S020", f"'{f.name}' is a number, but this is {article(kind)}", f.value.span)
            given = {f.name for f in card.fields}
            for name, decl in declared.items():
                if name not in given and decl.default is None:
                    self.error("S012", f"card \"{card.title}\" does not give '{name}', which its type "
                               f"'{ctype.name}' requires", card.span)

    def check_fields(self):
        scope = Scope(self, {})
        for f in self.game.fields.values():
            for expr in (f.initial, f.minimum, f.maximum):
                if expr is not None and f.kind in ("counter", "supply"):
                    scope.number(expr)
                elif expr is not None:
                    scope.expr(expr)
            if f.kind == "counter":
                self.check_bounds(f)
            if f.bookkeeping and f.kind in ("zone", "row"):
                # (only a set or change of a counter, supply, role or flag is marked in the trace)
                self.error("S091", f"'bookkeeping' marks a counter, supply, role or flag, not a {f.kind} "
                           f"('{f.name}')", word_span(f.span, "bookkeeping"))

    def check_bounds(self, f: A.StateField):
        """A counter's written bounds, checked after every step from the set-up on: a minimum above the
        maximum, or a starting value (0 when none is written) outside them, fails the first check, at
        run time; it is a mistake in the schema, reported at the declaration."""
        low, high = (literal_number(x) if x is not None else None for x in (f.minimum, f.maximum))
        if low is not None and high is not None and low > high:
            self.error("S079", f"counter '{f.name}' has a min of {low}, above its max of {high}: no value is "
                       "within its bounds", f.minimum.span, related=[Related(f.maximum.span, "its max is here")])
            return
        start = literal_number(f.initial) if f.initial is not None else 0
        if start is None:
            return
        where = f.initial.span if f.initial is not None else word_span(f.span, f.name)
        given = "" if f.initial is not None else " (it gives no starting value)"
        for bound, expr, side in ((low, f.minimum, "below its min"), (high, f.maximum, "above its max")):
            if bound is not None and (start < bound if side.startswith("below") else start > bound):
                self.error("S079", f"counter '{f.name}' starts at {start}{given}, {side} of {bound}", where,
                           related=[Related(expr.span, f"its {side[-3:]} is here")],
                           hint=f"start it within its bounds: {f.name} = {bound}" if not given else
                           f"give it a starting value within its bounds: = {bound}")

    # -- rules
    def check_rule(self, rule: A.Rule):
        for doc in rule.docs:
            for ref, offset in references_in(doc.text):
                if ref not in self.game.rules:
                    self.error("S030", f"the text refers to rule {ref}, which is not transcribed",
                               reference_span(doc, ref, offset),
                               hint="add it, or mark it: rule " + ref + " \"...\" outside source { note \"...\" }")
        for value in rule.values:
            self.check_value(value)
        for action in rule.actions:
            self.check_action(action)
        for trigger in rule.triggers:
            names = {p: "any" for p in trigger.event.params}
            scope = Scope(self, names)
            if trigger.iterable is not None:
                scope.items(trigger.iterable)
                scope = scope.child({trigger.var: element_type(scope.type_of(trigger.iterable))})
            self.check_block(trigger.body, scope, "a trigger")
        for check in rule.checks:
            scope = Scope(self, {})
            if check.iterable is not None:
                scope.items(check.iterable)
                scope = scope.child({check.var: element_type(scope.type_of(check.iterable))})
            scope.condition(check.condition)
            self.check_block(check.body, scope, "a state check")
        self.check_block(rule.body, Scope(self, {}), "")

    def check_requires(self):
        """A ``require`` refuses a play before any of it is made: it stands among the lets and
        requires that open an action's body (S089). Anywhere else nothing would be refused: a rule's
        procedure, a trigger, a state check, a card's ability or the flow makes no play, and after an
        action's first effect the play would be refused half made."""
        plays = {id(a.body): a.name for a in self.game.actions.values()}
        for rule_id, place, body in self.bodies():
            self.rule = rule_id
            first = None
            if place == "an action":
                opening = 0
                while opening < len(body) and isinstance(body[opening], (A.Let, A.Require)):
                    opening += 1
                if opening == len(body):
                    continue
                first, play, body = body[opening], plays.get(id(body), "the play"), body[opening:]
            for s in walk(body):
                if not isinstance(s, A.Require):
                    continue
                if first is not None:
                    self.error("S089", f"'require' after the play's first effect: {play} would be refused "
                               "half made", s.span, related=[Related(first.span, "the play's first effect")],
                               hint="move it up, among the lets and requires that open the action: a refused "
                                    "play changes nothing")
                else:
                    where = place or "a rule's procedure"
                    self.error("S089", f"'require' refuses a play, and {where} makes "
                               "none: it belongs at the top of an action's body", s.span,
                               hint="a condition the procedure tests is written 'if ... { ... }'; a play's "
                                    "requirement goes in its action")
        self.rule = ""

    def check_value_cycles(self):
        """A value defined in terms of itself, directly or through other values, outside any
        ``if ... then ... else`` branch (which may end the recursion, as in a sum over a list) would
        never be worked out: each such value is an error, with the chain of values leading back to it."""
        values = self.game.values
        reads = {}
        for name, v in values.items():
            found, stack = set(), [v.body]
            while stack:
                x = stack.pop()
                if isinstance(x, A.IfExpr):
                    stack.append(x.condition)   # a branch may stop the recursion: only the condition counts
                    continue
                if isinstance(x, A.Name) and x.name in values and x.name not in v.params \
                        and x.name not in self.game.fields:
                    found.add(x.name)
                elif isinstance(x, A.Call) and x.name in values:
                    found.add(x.name)
                stack.extend(A.children(x))
            reads[name] = found
        for name, v in values.items():
            chain = _path_back(name, reads)
            if chain:
                self.rule = v.rule
                self.error("S070", f"value '{name}' is defined in terms of itself ({' -> '.join(chain)}): "
                           "it could never be worked out", v.span,
                           hint="write it without reading itself, or as steps in the rule's procedure")
        self.rule = ""

    def check_value(self, value: A.Value):
        if value.name in CONSTANTS or value.name in BUILTINS:
            self.error("S069", f"value '{value.name}' has the name of a built-in, which it would hide",
                       value.span, hint="give the value another name")
        Scope(self, {p: "any" for p in value.params}).expr(value.body)

    def check_action(self, action: A.Action):
        self.rule = action.rule or self.rule
        names = {action.actor: "player"}
        scope = Scope(self, names)
        for p in action.params:
            if p.domain is not None:
                scope.expr(p.domain)
            names[p.name] = p.type
            scope = Scope(self, dict(names))
        self.check_block(action.body, scope, "an action")
        if action.cite:
            self.check_rule_ref(action.cite, word_span(action.span, action.cite, before=r"cite\s+"), "cite")

    def check_created(self, x, scope):
        """``create`` takes a deck list's name, a card title, or a list of titles."""
        items = x.items if isinstance(x, A.ListExpr) else (x,)
        for item in items:
            if isinstance(item, A.Text):
                if item.value not in self.game.cards:
                    self.error("S013", f"unknown card \"{item.value}\"", item.span,
                               hint=self.suggest(item.value, self.game.cards))
            elif isinstance(item, A.Name) and item.name in self.game.decks:
                continue
            else:
                scope.expr(item)

    def check_boards(self):
        """A board's drawing is checked here, so that a broken one is reported before anything runs."""
        for board in self.game.boards.values():
            try:
                Board.parse(board.drawing, board.span)
            except LudexError as exc:
                self.errors.extend(exc.diagnostics)

    def check_decks(self):
        for deck in self.game.decks.values():
            for count, title in deck.entries:
                if title not in self.game.cards:
                    self.error("S013", f"deck '{deck.name}' lists unknown card \"{title}\"",
                               word_span(deck.span, f'"{title}"'),
                               hint=self.suggest(title, self.game.cards))
                if count > MAX_COPIES:
                    self.error("S076", f"deck '{deck.name}' lists {count} copies of \"{title}\", more than "
                               f"{MAX_COPIES}", count_span(deck.span, count, title),
                               hint="each copy is a card the engine makes and keeps: a count this large is a "
                                    "mistake in the deck list")

    def check_rule_ref(self, rule_id: str, span: A.Span, how: str):
        if rule_id not in self.game.rules:
            self.error("S031", f"'{how} {rule_id}' refers to a rule that does not exist", span,
                       hint=self.suggest(rule_id, self.game.rules))

    # -- statements
    def check_block(self, body, scope: "Scope", place: str = None):
        """A block of statements; ``place``: what it is, when it is not a rule's own procedure ("the
        flow", "a trigger" ...); "" for a rule's procedure; None: where the block stands."""
        if place is not None:
            outer, self.place = self.place, place
            try:
                return self.check_block(body, scope)
            finally:
                self.place = outer
        ended = None
        for stmt in body:
            if ended is not None:
                self.error("S040", "this statement can never run", stmt.span,
                           related=[Related(ended.span, "the procedure leaves the block here")])
                ended = None           # report once per block
                break
            scope = self.check_stmt(stmt, scope)
            if isinstance(stmt, (A.Goto, A.Skip, A.Win)):
                ended = stmt

    def check_stmt(self, s, scope: "Scope") -> "Scope":
        """A statement checked by its kind's method (``s_<class>``), like the formatter's ``p_`` and the
        compiler's ``s_``; returns the scope the statements after it see (with a name it binds)."""
        return getattr(self, "s_" + type(s).__name__)(s, scope)

    def s_Let(self, s: A.Let, scope: "Scope") -> "Scope":
        scope.expr(s.value)
        return scope.child({s.var: scope.type_of(s.value)})

    def s_Set(self, s: A.Set, scope: "Scope") -> "Scope":
        scope.target(s.target)
        if s.value is not None:
            scope.expr(s.value)
            want = scope.type_of(s.target)
            got = scope.type_of(s.value)
            if want == "number" and got in NOT_NUMBERS:
                self.error("S020", f"a number is needed here, but this is {article(got)}", s.value.span)
            if want == "player" and got in {"number", "card", "zone", "cards", "text"}:
                self.error("S021", f"a player is needed here, but this is {article(got)}", s.value.span)
        return scope

    def s_Change(self, s: A.Change, scope: "Scope") -> "Scope":
        scope.target(s.target)
        kind = scope.type_of(s.target)
        if kind in NOT_NUMBERS or kind in ("bool", "players"):
            self.error("S020", f"'{'increase' if s.sign > 0 else 'decrease'}' changes a number, but "
                       f"{source_words(s.target)} is {article(kind)}", s.target.span)
        scope.number(s.amount)
        return scope

    def s_Transfer(self, s: A.Transfer, scope: "Scope") -> "Scope":
        scope.number(s.amount)
        scope.target(s.source)
        scope.target(s.destination)
        return scope

    def s_Move(self, s: A.Move, scope: "Scope") -> "Scope":
        scope.expr(s.cards)
        kind = scope.type_of(s.cards)
        if kind in {"number", "player", "text"}:
            self.error("S022", f"only cards move between zones, but this is {article(kind)}", s.cards.span)
        scope.zone(s.destination)
        return scope

    def s_Draw(self, s: A.Draw, scope: "Scope") -> "Scope":
        scope.number(s.amount)
        if literal_number(s.amount) is not None and literal_number(s.amount) < 0:
            self.error("S078", f"cannot draw {literal_number(s.amount)} cards: a draw takes 0 or more",
                       s.amount.span)
        scope.zone(s.source)
        scope.zone(s.destination)
        return scope

    def s_Create(self, s: A.Create, scope: "Scope") -> "Scope":
        self.check_created(s.cards, scope)
        scope.zone(s.destination)
        return scope

    def s_Shuffle(self, s: A.Shuffle, scope: "Scope") -> "Scope":
        scope.zone(s.zone)
        return scope

    def s_Reveal(self, s: A.Reveal | A.Conceal, scope: "Scope") -> "Scope":
        scope.cards(s.cards, "reveal" if isinstance(s, A.Reveal) else "conceal")
        return scope

    s_Conceal = s_Reveal

    def s_Emit(self, s: A.Emit, scope: "Scope") -> "Scope":
        for a in s.args:
            scope.expr(a)
        return scope

    def s_If(self, s: A.If, scope: "Scope") -> "Scope":
        for condition, body in s.branches:
            scope.condition(condition)
            self.check_block(body, scope)
        self.check_block(s.otherwise, scope)
        return scope

    def s_ForEach(self, s: A.ForEach, scope: "Scope") -> "Scope":
        scope.items(s.iterable)
        self.check_block(s.body, scope.child({s.var: element_type(scope.type_of(s.iterable))}))
        return scope

    def s_Repeat(self, s: A.Repeat, scope: "Scope") -> "Scope":
        self.check_block(s.body, scope)
        if s.until is not None:
            scope.condition(s.until)
        return scope

    def s_While(self, s: A.While, scope: "Scope") -> "Scope":
        scope.condition(s.condition)
        self.check_block(s.body, scope)
        return scope

    def s_Goto(self, s: A.Goto | A.Run, scope: "Scope") -> "Scope":
        how = f"{s.word} to" if isinstance(s, A.Goto) else "run"
        self.check_rule_ref(s.target, word_span(s.span, s.target, before=rf"{how.split()[-1]}\s+"), how)
        if isinstance(s, A.Goto) and self.place:
            self.error("S074", f"'{how} {s.target}': {self.place} is not one of a sequence of steps, so "
                       "there is no step to go on at", s.span,
                       hint=f"go on at a step from a rule's own procedure; to run rule {s.target} from "
                            f"here, write 'run {s.target}'")
        elif isinstance(s, A.Goto) and s.target in self.game.rules:
            self.gotos.append((self.rule, s))
        return scope

    s_Run = s_Goto

    def s_Skip(self, s: A.Skip, scope: "Scope") -> "Scope":
        if self.place:
            self.error("S073", f"'skip this step': {self.place} is not a step, so there is no step to skip",
                       s.span, hint="to stop here, put the rest of the block in an 'if'")
        return scope

    def s_Choose(self, s: A.Choose, scope: "Scope") -> "Scope":
        scope.player(s.chooser)
        scope.expr(s.options)
        return scope.child({s.var: element_type(scope.type_of(s.options))})

    def s_ChooseNumber(self, s: A.ChooseNumber, scope: "Scope") -> "Scope":
        scope.player(s.chooser)
        scope.number(s.low)
        scope.number(s.high)
        return scope.child({s.var: "number"})

    def s_Order(self, s: A.Order, scope: "Scope") -> "Scope":
        scope.player(s.chooser)
        scope.expr(s.options)
        return scope.child({s.var: "list"})

    def s_May(self, s: A.May, scope: "Scope") -> "Scope":
        scope.player(s.chooser)
        self.check_block(s.body, scope)
        self.check_block(s.otherwise, scope)
        return scope

    def s_Pick(self, s: A.Pick, scope: "Scope") -> "Scope":
        scope.expr(s.options)
        return scope.child({s.var: element_type(scope.type_of(s.options))})

    def s_Roll(self, s: A.Roll, scope: "Scope") -> "Scope":
        scope.number(s.count)
        if literal_number(s.count) is not None and literal_number(s.count) > DICE_LIMIT:
            self.error("S082", f"cannot roll {literal_number(s.count)} dice: a roll has at most {DICE_LIMIT}",
                       s.count.span, hint="each die rolled is a face drawn and kept: a count this large is a "
                                          "mistake")
        if s.dice not in self.game.dice:
            self.error("S050", f"unknown dice '{s.dice}'", word_span(s.span, s.dice, after=s.count), hint=self.suggest(s.dice, self.game.dice))
        return scope.child({s.var: "list"})

    def s_Window(self, s: A.Window | A.Turn, scope: "Scope") -> "Scope":
        scope.player(s.starting if isinstance(s, A.Window) else s.player)
        window = isinstance(s, A.Window)
        if window and len(s.menu) > 1:
            self.error("S084", "a window's menu has one part: each opportunity is one play from it or a pass "
                       "('then' orders the parts of a turn)", s.menu[1].span,
                       hint="join the plays into one part, or make it a turn: turn of p { ... }")
        for step in s.menu:
            if isinstance(step, A.InAnyOrder):
                self.in_any_order(step, window)
        for part in A.menu_parts(s.menu):
            if window and part.count not in ("one", "any") and not (part.count == "n" and part.n == 1):
                self.error("S084", "a window gives one play (or a pass) at each opportunity, until every player "
                           "passes in a row: a count of plays is for a turn", part.span,
                           hint="write 'exactly one of' or 'any number of', or make it a turn: turn of p { ... }")
            elif part.count in ("n", "up-to") and part.n < 1:
                self.error("S084", f"this part of the turn lets no play ({part.n} of)", part.span,
                           hint="leave the part out")
            for name in part.actions:
                if name not in self.game.actions and name != "pass":
                    self.error("S051", f"unknown action '{name}' in the menu", word_span(part.span, name),
                               hint=self.suggest(name, list(self.game.actions) + ["pass"]))
        return scope

    s_Turn = s_Window

    def s_Perform(self, s: A.Perform, scope: "Scope") -> "Scope":
        scope.player(s.actor)
        action = self.game.actions.get(s.action)
        if action is None:
            self.error("S051", f"unknown action '{s.action}'", word_span(s.span, s.action),
                       hint=self.suggest(s.action, self.game.actions))
        elif len(s.args) != len(action.params):
            self.error("S052", f"action '{s.action}' takes {len(action.params)} argument(s), "
                       f"not {len(s.args)}", s.span, related=[Related(action.span, "the action is here")])
        for a in s.args:
            scope.expr(a)
        return scope

    def s_Initiate(self, s: A.Initiate, scope: "Scope") -> "Scope":
        scope.cards(s.cards, "initiate")
        if s.ordered_by is not None:
            scope.player(s.ordered_by)
        return scope

    def s_Require(self, s: A.Require, scope: "Scope") -> "Scope":
        scope.condition(s.condition)
        self.cited(s)
        return scope

    def cited(self, s: A.Require | A.Modify):
        """A statement's ``cite RULE`` names a rule of the game."""
        if s.cite and s.cite not in self.game.rules:
            self.error("S031", f"'cite {s.cite}' refers to a rule that does not exist", s.cite_span or s.span,
                       hint=self.suggest(s.cite, self.game.rules))

    def s_Modify(self, s: A.Modify, scope: "Scope") -> "Scope":
        scope.modifiable(s.target)
        scope.expr(s.value)
        self.cited(s)
        return scope

    def s_Win(self, s: A.Win | A.Eliminate, scope: "Scope") -> "Scope":
        scope.players(s.players)
        return scope

    s_Eliminate = s_Win

    def s_Milestone(self, s: A.Milestone, scope: "Scope") -> "Scope":
        return scope            # begin and end name a milestone: nothing to look up

    def s_Log(self, s: A.Log, scope: "Scope") -> "Scope":
        return scope            # words for the trace, nothing else

    # -- reachability of rules
    def check_reachability(self):
        """A rule with a procedure that nothing runs (no 'run', no goto, no enclosing rule that runs
        its sub-rules) can never happen: that is an error, not a silent no-op."""
        g = self.game
        if g.flow is None:
            return
        reached: set = set()
        pending = []

        def visit_block(body):
            for s in walk(body):
                if isinstance(s, (A.Run, A.Goto)) and s.target in g.rules:
                    pending.append(s.target)

        for _, place, body in self.bodies():
            if place:           # the flow, triggers, state checks, actions and cards' abilities
                visit_block(body)
        while pending:
            rid = pending.pop()
            if rid in reached:
                continue
            reached.add(rid)
            rule = g.rules[rid]
            visit_block(rule.body)
            if not rule.body:
                pending.extend(g.children_of(rid))
        for rule in g.rules.values():
            if rule.body and rule.id not in reached:
                self.rule = rule.id
                self.error("S041", f"rule {rule.id} has a procedure, but nothing runs it", rule.id_span,
                           hint="run it from the flow or from the rule above it, or go to it")
        self.rule = ""

    # -- where a goto goes on
    def check_gotos(self):
        """A goto ('return to 3.2') ends its rule, and the engine goes on at that step of the sequence
        of sibling rules running it (``Game.run_sequence``: the sub-rules of a rule without a procedure
        of its own, in order). Where the rule is run otherwise (by the flow, or by a 'run' in a
        procedure), the goto leaves that procedure too, up to a sequence that holds its step; where
        none does, nothing would go on at the step, and the goto is an error, reported with the way
        of running the rule that lets it escape."""
        g = self.game
        children: dict = {rid: [] for rid in g.rules}
        runs: dict = {rid: [] for rid in g.rules}    # rule -> (kind, by, span): how it is run
        for rid in g.rules:
            parent = g.parent_of(rid)
            if parent is not None:
                children[parent].append(rid)
                if not g.rules[parent].body:
                    runs[rid].append(("sequence", parent, None))

        def note(body, kind, by):
            for s in walk(body):
                if isinstance(s, A.Run) and s.target in runs:
                    runs[s.target].append((kind, by, s.span))

        for rule, place, body in self.bodies():
            if place:
                note(body, "place", place)
            else:
                note(body, "rule", rule)

        def escape(target, rid, seen, path):
            """How a goto to ``target`` leaving rule ``rid`` escapes every sequence: the notes of the
            'run' statements it leaves through, the last one running a rule on its own; or None."""
            if rid in seen:
                return None
            seen.add(rid)
            for kind, by, span in runs[rid]:
                if kind == "sequence":
                    found = None if target in children[by] else escape(target, by, seen, path)
                elif kind == "rule":
                    found = escape(target, by, seen, path + [Related(span, f"rule {by} runs rule {rid} here")])
                else:
                    found = path + [Related(span, f"{by} runs rule {rid} here, on its own")]
                if found:
                    return found
            return None

        for rid, s in self.gotos:
            path = escape(s.target, rid, set(), [])
            if not path:
                continue
            self.rule = rid
            what = f"'{s.word} to {s.target}'"
            parent = g.parent_of(rid)
            if g.parent_of(s.target) != parent:
                steps = children[parent] if parent is not None else []
                self.error("S074", f"{what}: {s.target} is not a step beside {rid}", s.span, related=path,
                           hint=f"a goto goes on at a step beside its rule: {', '.join(steps)}" if steps
                           else "a goto goes on at a step beside its rule (a sub-rule of the same rule)")
            else:
                self.error("S074", f"{what}: rule {rid} is run on its own, not as one of the steps beside "
                           f"{s.target}, so nothing would go on at {s.target}", s.span, related=path,
                           hint=(f"a goto works among the steps of {parent} when they are run in order, by "
                                 f"running {parent} (which has no procedure of its own)" if parent else
                                 "a goto works among the sub-rules of a rule, run in order by running it")
                           + f"; to run rule {s.target} from here, write 'run {s.target}'")
        self.rule = ""


    # -- what the triggers listen for
    def bodies(self):
        """Every block of statements the game holds, as ``(rule, place, block)``: the rule it is in (""
        for the flow and cards' abilities) and, but for a rule's own procedure (place ""), what it is
        ("the flow", "a trigger", "a state check", "an action", "a card's ability"). Those of a second
        definition of a name (refused, S002) are included."""
        g = self.game
        if g.flow is not None:
            yield "", "the flow", g.flow.body
        for rule in g.rules.values():
            yield rule.id, "", rule.body
        for trigger in g.triggers:
            if trigger.rule.startswith("card:"):        # a card's ability with an event
                yield "", "a card's ability", trigger.body
            else:
                yield trigger.rule, "a trigger", trigger.body
        for check in g.checks:
            yield check.rule, "a state check", check.body
        for action in g.actions.values():
            yield action.rule, "an action", action.body
        for card in g.cards.values():
            for ability in card.abilities:
                if ability.event is None:       # (one with an event is among the triggers)
                    yield "", "a card's ability", ability.body
        for _, _, item, _ in g.duplicates:
            if isinstance(item, A.Rule):
                yield item.id, "", item.body
                for action in item.actions:
                    yield item.id, "an action", action.body
            elif isinstance(item, A.Action):
                yield item.rule, "an action", item.body
            elif isinstance(item, A.Flow):
                yield "", "the flow", item.body
            elif isinstance(item, A.CardDefinition):
                for ability in item.abilities:
                    yield "", "a card's ability", ability.body

    def happenings(self) -> dict:
        """What makes each event happen: ``(kind, milestone, name)`` -> ``[(number of values it gives,
        span, the statement, the block it is in)]``. A named event happens at an ``emit`` (or a
        ``reveal``, which emits ``revealed(c)``), a milestone at the statement that reaches it (``begin
        phase plot``, ``end round``); a ``turn of`` begins and ends a turn."""
        if self._happenings is not None:
            return self._happenings
        happens: dict = {}
        for _, _, body in self.bodies():
            for s in walk(body):
                for key, count in made_to_happen(s):
                    happens.setdefault(key, []).append((count, s.span, s, body))
        self._happenings = happens
        return happens

    def check_events(self):
        """A trigger (a rule's ``when``, or a card's ability ``when ...``) runs only when its event
        happens (``happenings``). A trigger for an event nothing but itself makes happen would silently
        never run (a misspelt name, a phase that is never begun): an error (S085). A named event gives
        its trigger's names its values in order: an event given fewer values than a trigger of it names
        leaves a name without one (S086; more are allowed: a trigger may name only the first, and a
        card's ability is the first's, ``this``). An event no trigger listens for is allowed: it marks
        the trace (``challenge-initiated``). A modifier's duration must end (``check_duration``)."""
        happens = self.happenings()
        most = self.most_named()
        for trigger in self.game.triggers:
            event = trigger.event
            self.rule = trigger.rule if not trigger.rule.startswith("card:") else ""
            made = [m for m in happens.get((event.kind, event.milestone, event.name), ())
                    if m[3] is not trigger.body]
            if not made:
                alone = (event.kind, event.milestone, event.name) in happens     # (in its own body)
                self.error("S085", f"nothing {'but this trigger ' if alone else ''}makes {event_words(event)} "
                           "happen, so this never runs", event.span, hint=self.event_hint(event, happens))
                continue
            if event.kind == "named" and most[event.name] is trigger:      # (one error at an emit)
                for count, span, s, _ in made:
                    if not isinstance(s, A.Reveal):
                        self.check_values_given(event, count, span, s)
            revealed = next((m for m in made if isinstance(m[2], A.Reveal)), None)
            if revealed is not None:                                    # (one error at each trigger)
                self.check_values_given(event, *revealed[:3])
        for rule, _, body in self.bodies():
            self.rule = rule
            for s in walk(body):
                if isinstance(s, A.Modify) and s.duration is not None:
                    self.check_duration(s.duration)
        self.rule = ""

    def most_named(self) -> dict:
        """For each named event, the trigger of it that names the most values (an emit must give them)."""
        most: dict = {}
        for trigger in self.game.triggers:
            event = trigger.event
            if event.kind == "named" and (event.name not in most or
                                          len(event.params) > len(most[event.name].event.params)):
                most[event.name] = trigger
        return most

    def check_made_to_happen(self, body):
        """The events a scenario's or a log's set-up makes happen, and the modifiers it starts, checked
        against the rules' triggers as the rules' own are (S086, S087)."""
        most = self.most_named()
        for s in walk(body):
            if isinstance(s, A.Emit) and s.event in most:
                self.check_values_given(most[s.event].event, len(s.args), s.span, s)
            if isinstance(s, A.Modify) and s.duration is not None:
                self.check_duration(s.duration)

    def check_values_given(self, event: A.Event, count: int, span: A.Span, s):
        """An event made to happen with ``count`` values, for a trigger naming ``event.params``."""
        if event.kind != "named" or count >= len(event.params):
            return
        names = plural(len(event.params), "value")
        if isinstance(s, A.Reveal):
            self.error("S086", f"a reveal gives its trigger one value, the card, but the trigger names {names}",
                       event.span, related=[Related(span, "a card is revealed here")],
                       hint=f"name the card alone: when revealed({event.params[0]})")
        else:
            self.error("S086", f"event '{event.name}' is emitted with {plural(count, 'value')}, but a trigger "
                       f"of it names {names}", span, related=[Related(event.span, "the trigger is here")],
                       hint="emit it with a value for each name the trigger gives, in order")

    def event_hint(self, event: A.Event, happens: dict) -> str:
        """What might have been meant by an event that nothing makes happen."""
        if event.kind == "named":
            named = [name for kind, _, name in happens if kind == "named" and name != event.name]
            close = self.suggest(event.name, named)
            values = f"({', '.join(event.params)})" if event.params else ""
            how = "reveal a card" if event.name == "revealed" else f"emit {event.name}{values} where it happens"
            return close or how
        if event.milestone == "phase":
            phases = {name for kind, milestone, name in happens if kind == event.kind and milestone == "phase"}
            close = self.suggest(event.name, phases)
            return close or f"write '{event.kind} phase {event.name}' where the phase {event.kind}s"
        if event.milestone == "turn":
            return f"a 'turn of' statement {event.kind}s each turn, or write '{event.kind} turn'"
        return f"write '{event.kind} {event.milestone}' where the {event.milestone} {event.kind}s"

    def check_duration(self, d: A.Duration):
        """A modifier lasts until a milestone: one that nothing reaches would never end it (S087). A
        round is what 'for next' waits for: ``for next round`` starts at the next ``begin round``."""
        if d.kind == "for_next" and d.milestone != "round":
            self.error("S087", f"'for next {d.milestone}': a modifier waits for the next round only", d.span,
                       hint="write 'for next round', or 'until end of ...' to start it now")
            return
        if d.milestone == "game":
            return          # the game ends, whether or not a statement says so
        happens = self.happenings()
        ends = [key for key in happens if key[0] == "end" and key[1] == d.milestone
                and (key[2] == d.name or not d.name)]
        named = f"the {d.name} phase" if d.milestone == "phase" else f"the {d.milestone}"
        if not ends:
            self.error("S087", f"nothing ends {named}, so this modifier would never expire", d.span,
                       hint=f"write 'end {d.milestone}{' ' + d.name if d.name else ''}' where it ends"
                       if d.milestone != "turn" else "a 'turn of' statement ends each turn")
        elif d.kind == "for_next" and ("begin", "round", "") not in happens:
            self.error("S087", "nothing begins a round, so this modifier would never start", d.span,
                       hint="write 'begin round' where each round begins")


def made_to_happen(s) -> list:
    """The events statement ``s`` makes happen (see ``Checker.happenings``), each with the number of
    values it gives."""
    if isinstance(s, A.Emit):
        return [(("named", "", s.event), len(s.args))]
    if isinstance(s, A.Reveal):
        return [(("named", "", "revealed"), 1)]
    if isinstance(s, A.Milestone):
        return [((s.edge, s.kind, s.name), 0)]
    if isinstance(s, A.Turn):
        return [(("begin", "turn", ""), 1), (("end", "turn", ""), 1)]
    return []


def event_words(event: A.Event) -> str:
    """An event as the rules write it: ``revealed(c)``, ``begin phase plot``, ``end round``."""
    if event.kind == "named":
        return f"event '{event.name}'"
    return f"'{event.kind} {event.milestone}{' ' + event.name if event.name else ''}'"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def walk(body):
    """Every statement in a block, nested ones included, without recursion."""
    stack = list(reversed(body))
    while stack:
        s = stack.pop()
        yield s
        children = []
        if isinstance(s, A.If):
            for _, b in s.branches:
                children.extend(b)
            children.extend(s.otherwise)
        elif isinstance(s, (A.ForEach, A.Repeat, A.While)):
            children.extend(s.body)
        elif isinstance(s, A.May):
            children.extend(s.body)
            children.extend(s.otherwise)
        stack.extend(reversed(children))


def _path_back(start: str, reads: dict) -> list:
    """The shortest chain of values from ``start`` back to itself (``[a, b, a]``), or [] if none."""
    seen, queue = {start}, [[start]]
    while queue:
        path = queue.pop(0)
        for nxt in sorted(reads.get(path[-1], ())):
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                queue.append(path + [nxt])
    return []


def check(game: GameDef) -> list[Diagnostic]:
    return Checker(game).run()
