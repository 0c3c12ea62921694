"""Write a block of statements as one Python function, compiled by Python: the only way a statement runs.

A block is one function in which each statement is a few lines in place: ``let`` stores into the
frame's variables, ``if``, ``for each``, ``repeat``, ``while`` and ``may`` are Python's own (their
blocks written inside them), and the expressions of every statement are Python expressions
(``expressions.py``). ``set``, ``increase``, ``decrease``, ``transfer``, ``move``, ``choose``,
``emit``, ``draw``, ``reveal``, ``initiate``, milestones (``begin phase plot``), action windows, jumps
and ``log`` do their work in place too; the others (``turn``, ``shuffle``, ``roll``, ``modify`` ...)
call the function of ``runtime/operations.py`` that does it, with the values written in place. In a
rule's procedure ``return to`` and ``proceed to`` are returned to ``Game.run_rule`` rather than raised.

In: a block (a tuple of statement nodes). Out: ``run(frame)``. Each statement is written so:

1. ``current_span`` is set to the statement's span and a step is counted against the budget;
2. the statement runs; a wrong kind of value (``TypeError``, ``KeyError`` ...) becomes a positioned
   error naming the rule, at the span of the innermost statement running: the function guards all of
   its statements at once and keeps that span in ``_S``;
3. the state checks are polled if the state changed (``Bookkeeping``, held in ``_B`` by a function
   whose lines read it). A wrong kind of value there belongs to the statement containing this one
   (whose guard is around it, not its poll); after a statement at the function's top, to the caller.

A block nested deeper than Python allows (it refuses more than 20 nested loops and ``try``) is
written as a function of its own and called; so is a window or an ``initiate`` (which open Python
blocks of their own) nested that deep. Only literal values (through ``repr``) and constants held by the
expression writer go into the source: no name or text from a rules file is written as code.
"""

from __future__ import annotations

from ..parse import ast as A
from ..runtime import operations as op
from ..runtime.operations import abilities_of_kind, initiated_words, order_abilities
from .expressions import acting_source, bound_names
from .reads import card_attribute_names, check_bits
from .reasons import Reasons, worth_a_reason

#: What every card has of its own (``checks.CARD_OWN``): never an attribute, never changed.
_CARD_OWN = ("title", "type", "owner", "zone", "face-up")

#: For ``clear`` of each kind of field, a test that the value it holds is of that kind, and the value
#: it is cleared to then (``BlockWriter.b_Set``): what the general rule (a flag false, a whole number 0,
#: anything else none) makes of such a value, without asking which kind it is.
_CLEARED = {"flag": ("_old is False or _old is True", "False"), "counter": ("type(_old) is int", "0"),
            "supply": ("type(_old) is int", "0"), "role": ("_old is None or type(_old) is _Player", "None")}


#: How many loops a written function may nest (in its ``try``) before a block inside them is written
#: as a function of its own (Python refuses more than 20 nested blocks).
_MAX_NESTING = 16


class BlockWriter:
    """Writes blocks for one game's compiler, sharing its expression writer's constants."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.writer = compiler.writer
        self.polls = bool(compiler.gamedef.checks)   # no state checks: nothing to poll
        #: which state checks read what (``reads.CheckBits``): a change marks those reading what it changed
        self.bits = check_bits(compiler)
        g = compiler.gamedef
        #: the names a bound may be set on at set-up: supplies, counters declared with a minimum or maximum
        self.bounded = {f.name for f in g.fields.values() if f.kind == "supply"
                        or (f.kind == "counter" and (f.minimum is not None or f.maximum is not None))}
        #: the names a statement may set past a bound it does not refuse itself (``unrefused``): the
        #: game's supplies, whose capacity (what each held at set-up) no statement checks; and counters
        #: declared with a minimum, which a transfer may take below it
        self.capped = {f.name for f in g.fields.values() if f.kind == "supply" and f.scope == "game"}
        self.floored = {f.name for f in g.fields.values() if f.kind == "counter" and f.minimum is not None}
        #: the bounds (low, high; None for no bound) of each supply or bounded counter whose bounds are
        #: whole numbers written in its declaration: the same in every game, as set-up makes them
        #: (``Game._build_state``), so that a value within them is let through without a call (``bound``)
        self.literal_bounds = {}
        for f in g.fields.values():
            if f.name in self.bounded and all(x is None or isinstance(x, A.Number) for x in (f.minimum, f.maximum)):
                low = 0 if f.kind == "supply" else f.minimum.value if f.minimum is not None else None
                self.literal_bounds[f.name] = (low, f.maximum.value if f.maximum is not None else None)
        #: the kind (counter, supply, role, flag) of each of the game's and of every player's fields
        self.field_kinds = {f.name: f.kind for f in g.fields.values() if f.kind not in ("zone", "row")}
        #: the fields the transcription keeps for itself (``bookkeeping``): their events are marked so
        #: that a brief trace leaves them out
        self.bookkeeping = {f.name for f in g.fields.values() if f.bookkeeping} - \
            {f.name for t in g.card_types.values() for f in t.fields}     # (a card's attribute so named is not)
        #: (card type, attribute) pairs declared hidden (``Program.hidden_attributes``)
        self.hidden = {(t.name, f.name) for t in g.card_types.values() for f in t.fields if f.hidden}
        self.writer.env["_HIDDEN"] = self.hidden
        self.blocks = 0       # how many functions written (their names)
        self.nesting = 0      # Python blocks (loops) open around the statement being written
        #: the span (a constant's name) of the statement whose lines are being written: where a wrong
        #: kind of value is reported; "None" between the statements of a block written as a function
        self.enclosing = "None"
        #: variables of the frame also held in Python locals where the statement is written (name -> local)
        self.scope: dict = {}
        #: whether the function being written is a rule's procedure, which returns its jumps (``b_Goto``)
        self.jumps = False
        #: the variables a hidden choice sets, anywhere in the rules: no reason tells what they hold
        self.hidden_vars = frozenset(x.var for x in A.descendants(tuple(g.modules))
                                     if isinstance(x, A.Choose) and x.hidden)
        self.reasons = Reasons(compiler, self.hidden_vars)
        #: where the statement being written sits: the ``let`` statements of its block before it (name ->
        #: expression) and the conditions of the ``if`` branches around it, each with whether it held
        self.lets: dict = {}
        self.conditions: list = []

    # ------------------------------------------------------------------ functions
    def block(self, body, held=None, jumps=False):
        """``run(frame)`` for a block of statements. ``held``: variables the frame is sure to hold when
        the block starts (a play's player, arguments and lets; the item a trigger runs for), each
        with what it is sure to be (``"card"``, ``"player"``) or None: read once into Python locals
        where no statement of the block sets them, and from there by the statements. ``jumps``: the
        block is a rule's procedure, whose ``return to`` and ``proceed to`` written in the function
        itself return the jump instead of raising it (``b_Goto``)."""
        self.blocks += 1
        name = f"block{self.blocks}"
        self.writer.bound |= bound_names(body)      # a scenario's set-up binds its own
        saved = self.nesting, self.scope, self.enclosing, self.jumps, self.lets, self.conditions
        self.nesting, self.scope, self.enclosing, self.jumps, self.lets, self.conditions = 0, {}, "None", jumps, {}, []
        try:
            lines = self.held(body, held or {}) + self.statements(body, "        ")
        finally:
            self.nesting, self.scope, self.enclosing, self.jumps, self.lets, self.conditions = saved
        where = body[0].span if body else A.NOWHERE
        last = body[-1].span if body else A.NOWHERE
        kinds = ", ".join(type(s).__name__.lower() for s in body) or "nothing"
        source = "\n".join([
            f"def {name}(f):",
            # (no path in the source: it is the rules' text, not ours; the file name tells it)
            f'    """The statements of lines {where.line}-{last.end_line} ({kinds}), each counted',
            '    and followed by a poll of the state checks; a wrong kind of value is an error at the',
            '    statement running (``_S``), or, in a poll after a statement of this block, is left to',
            '    the caller."""',
            "    _G = f.game",
            *_books(lines),
            "    _M = _G.modified",
            "    _V = f.vars",
            "    _S = None",
            "    try:",
            *lines,
            "    except _LudexError:",
            "        raise",
            "    except _CAUGHT as _e:",
            "        if _S is None:",
            "            raise",
            "        raise _G.error(_cannot(_e), f.rule, _S) from None",
            "",
        ])
        return self.writer.define(source, name, where)

    def held(self, body, held: dict) -> list:
        """The lines reading the variables ``held`` into locals, put in ``scope`` (``block``)."""
        lines, assigned = [], _assigned(body)
        for var, kind in held.items():
            if var in assigned:
                continue
            local = self.writer.local("_held")
            lines.append(f"        {local} = {self.writer.inline(A.Name(A.NOWHERE, var))}")
            self.scope[var] = local
            if kind is not None:
                self.writer.kinds[local] = kind
        return lines

    def statements(self, body, ind: str) -> list:
        """The lines running a block's statements in order, at indentation ``ind``."""
        if not body:
            return [f"{ind}pass"]
        lines = []
        for s in body:
            lines += self.statement(s, ind)
        return lines

    def nested(self, body, ind: str, blocks: int) -> list:
        """The lines of a block inside a statement that opens ``blocks`` Python blocks itself; a
        function of its own when Python would refuse to nest it."""
        if self.nesting + blocks > _MAX_NESTING:
            return [f"{ind}{self.writer.constant(self.block(body))}(f)"]
        self.nesting += blocks
        try:
            return self.statements(body, ind)
        finally:
            self.nesting -= blocks

    def apart(self, s, ind: str, write) -> list:
        """A statement that opens more Python blocks than may still be nested here, written by
        ``write`` as a function of its own and called: at its own span throughout, its variables read
        from the frame. (Its step is counted where it is called.)"""
        self.blocks += 1
        name = f"statement{self.blocks}"
        span = self.enclosing
        saved = self.nesting, self.scope, self.jumps
        self.nesting, self.scope, self.jumps = 0, {}, False
        try:
            lines = write(s, "        ")
        finally:
            self.nesting, self.scope, self.jumps = saved
        source = "\n".join([
            f"def {name}(f):",
            f'    """A {type(s).__name__.lower()} written apart; a wrong kind of value is an error at it."""',
            "    _G = f.game",
            *_books(lines),
            "    _M = _G.modified",
            "    _V = f.vars",
            f"    _S = {span}",
            "    try:",
            *lines,
            "    except _LudexError:",
            "        raise",
            "    except _CAUGHT as _e:",
            "        raise _G.error(_cannot(_e), f.rule, _S) from None",
            "",
        ])
        return [f"{ind}{self.writer.constant(self.writer.define(source, name, s.span))}(f)"]

    def statement(self, s, ind: str) -> list:
        """A statement's lines: ``_S`` (and ``current_span``) set to its span, a step counted, the
        statement, then the poll of the state checks, whose errors belong to the statement around
        this one (``enclosing``: None at a block's top, the caller's)."""
        span = self.writer.constant(s.span)
        write = getattr(self, "b_" + type(s).__name__)      # (every statement has one: ``test_written``)
        enclosing, self.enclosing = self.enclosing, span
        try:
            body = write(s, ind)
        finally:
            self.enclosing = enclosing
        lines = [f"{ind}_S = _G.current_span = {span}",
                 f"{ind}_G.steps += 1",
                 f"{ind}if _G.steps > _G.step_limit: _G.over_limit(f.rule)",
                 *body]
        if self.polls:
            lines += [f"{ind}_S = {enclosing}", f"{ind}if {self.checks_due()} and not _G.simultaneous: _G.run_checks()"]
        return lines

    def checks_due(self) -> str:
        """The test that some state check may find something new (``Game.run_checks``): one marked since
        it last looked (``Bookkeeping.stale``), or, where some check's reads cannot be told, any change."""
        if self.bits.unknown:
            return "(_B.stale or _B.checked_at != _B.version)"
        return "_B.stale"

    def expr(self, x) -> str:
        """An expression as Python source reading ``f``, ``_V``, ``_G`` and the locals in ``scope``."""
        return self.writer.inline(x, self.scope)

    def test(self, x) -> str:
        """``expr`` for a condition: only whether it holds is asked."""
        return self.writer.inline(x, self.scope, test=True)

    # ------------------------------------------------------------------ statements written in place
    def because(self, *deciding) -> str:
        """The source of an event's data carrying its reasons (``reasons.Because``): the facts that
        ``deciding`` (the statement's expressions) and the conditions around the statement read, worked
        out as the event is recorded when the game keeps reasons; ``None`` when there is nothing to tell."""
        hidden = self.hidden_vars
        lets = {n: x for n, x in self.lets.items() if not (A.names_in(x) & hidden)}
        held = [(c, h) for c, h in self.conditions if worth_a_reason(c, hidden)]
        deciding = [x for x in deciding if x is not None and worth_a_reason(x, hidden)]
        if not held and not deciding:
            return "None"
        because = self.writer.constant(self.reasons.because(deciding, held, lets))
        read = set().union(*(A.names_in(x) for x in [*deciding, *(c for c, _ in held), *lets.values()]))
        local = ", ".join(f"{n!r}: {self.scope[n]}" for n in sorted(read) if n in self.scope)
        # (no reasons to tell: no data, as for an event of a game that keeps none)
        return f"({{'because': _bc}} if _G.reasons and (_bc := {because}(f, {{{local}}})) else None)"

    def b_Let(self, s, ind):
        self.lets[s.var] = s.value
        return [f"{ind}_V[{s.var!r}] = {self.expr(s.value)}"]

    def b_Goto(self, s, ind):
        """``return to`` / ``proceed to`` in a rule's procedure, written in its own function (not in a
        block or statement written apart, whose caller would not see it returned): the
        function returns ``(target, span, word)``, and ``Game.run_rule`` takes it as the ``Goto`` raised
        elsewhere, which the rule's own ``f.rule`` completes: raising it costs more, the exception
        unwinding through the procedure, ``run_rule`` and its handlers. Elsewhere it is raised."""
        if not self.jumps:
            return [f"{ind}raise _Goto({s.target!r}, {self.writer.constant(s.span)}, f.rule, {s.word!r})"]
        return [f"{ind}return {self.writer.constant((s.target, s.span, s.word))}"]

    def b_Skip(self, s, ind):
        """``skip this step``: raised to the sequence of steps running (``Game.run_rule``)."""
        return [f"{ind}raise _SkipStep(f.rule, {self.writer.constant(s.span)})"]

    def b_Milestone(self, s, ind):
        """``begin phase plot``, ``end round`` (``Game.emit``, written in place): traced, its triggers
        run (their list held: ``Program`` fills it before any procedure is written, but a trigger's own
        body is written while the later triggers are still being added, so it is asked whether it holds
        any as it runs), then, at an end, the modifiers lasting until it expire. The game's beginning
        and end, and a round's beginning, call ``Game.emit``: the state checks start, waiting modifiers
        start to apply, or the game ends."""
        edge, kind, name = s.edge, s.kind, s.name
        text = f"{name} phase {'begins' if edge == 'begin' else 'ends'}" if kind == "phase" else \
            f"the {kind} {'begins' if edge == 'begin' else 'ends'}"
        label = f"{edge} {kind} {name}".strip()
        if kind == "game" or (edge, kind) == ("begin", "round"):
            return [f"{ind}_G.emit({edge!r}, {kind!r}, {name!r}, (), f.rule, {text!r}, {label!r})"]
        said = f"_G.round_words({edge!r})" if kind == "round" else repr(text)
        lines = [f"{ind}_G.events.append((f.rule, 'event', {said}, '', {{'event': {label!r}}}))"]
        handlers = self.compiler.triggers.get((edge, kind, name))
        if handlers is not None:
            held = self.writer.constant(handlers)
            lines.append(f"{ind}if {held}: _G.run_triggers({held}, {edge!r}, f.rule, ())")
        if edge == "end":
            lines.append(f"{ind}if _G.modifiers: _G.expire({kind!r}, {name!r}, f.rule)")
        return lines

    def b_Run(self, s, ind):
        return [f"{ind}_G.run_rule({s.target!r}, f)"]

    def b_Emit(self, s, ind):
        """``emit EVENT(ARGS)``: traced, each argument worked out once,
        its words made when the trace is read (a list's now, as a zone's cards change); then the
        triggers listening to it run. Their list is held (made before any trigger is compiled, filled
        as they are) and looked at as the statement runs; none is held when no trigger listens."""
        label = f"named  {s.event}".strip()        # (as ``Game.emit`` would make it)
        values = "(" + "".join(f"{self.expr(a)}, " for a in s.args) + ")"
        # an argument sure to be a card, a player, a number or a text is no list: not looked at
        maybe_lists = [f"type(_ev[{i}]) is not list" for i, a in enumerate(s.args)
                       if not isinstance(a, (A.Number, A.Text)) and self.writer.value_kind(a, self.scope) is None]
        shown = f"_ev if {' and '.join(maybe_lists)} else _kept(_ev)" if maybe_lists else "_ev"
        lines = [f"{ind}_ev = {values}",
                 f"{ind}_G.events.append((f.rule, 'event', ('named', {s.event!r}, {shown}), '', {{'event': {label!r}}}))"]
        handlers = self.compiler.triggers.get(("named", "", s.event))
        if handlers is not None:
            held = self.writer.constant(handlers)
            lines += [f"{ind}if {held}:", f"{ind}    _G.run_triggers({held}, 'named', f.rule, _ev)"]
        return lines

    def b_Choose(self, s, ind):
        """``PLAYER chooses VAR from OPTIONS``: the options listed,
        an agent that answers from the options alone asked so (no ``Decision`` made), otherwise
        ``Game.decide``; the choice traced, a hidden one with who may see it. The chooser
        is worked out once, and again after the choice only if it reads the variable chosen."""
        span, prompt = self.writer.constant(s.span), s.prompt or f"choose {s.var}"
        lines = [f"{ind}_opts = _as_list_copy({self.expr(s.options)})",
                 f"{ind}_who = {self.expr(s.chooser)}",
                 f"{ind}_af = getattr(_G.agent, 'answer_from', None)",
                 f"{ind}_ans = _af(_opts) if _af is not None and _opts else _G.decide(_Decision(_who, 'choose',"
                 f" _opts, f.rule, {prompt!r}, {s.hidden!r}, {span}))",
                 f"{ind}_V[{s.var!r}] = _ans"]
        if s.var in A.names_in(s.chooser):
            lines.append(f"{ind}_who = {self.expr(s.chooser)}")
        # (``Game.record`` in place: a decision changes nothing; ``acting`` names the player)
        acting = acting_source("_who")
        if s.hidden:        # what was chosen, seen by the chooser alone (``records.hidden_choice_words``)
            # (text as it is, made into words when read; anything else in words now)
            return lines + [f"{ind}_by = {acting}",
                            f"{ind}_G.events.append((f.rule, 'decision', ('hidden choice', _by, _ans if type(_ans) is str"
                            " else _words(_ans), isinstance(_ans, _Card)), _by, {'hidden': True}))"]
        # (what was asked follows, when the rules wrote it: ``bob chooses ann: Choose the first player``)
        return lines + [f"{ind}_w = _words(_ans)",
                        f"{ind}_G.events.append((f.rule, 'decision', {_fstring('', '_who', ' chooses ', '_w', _asked(s.prompt))}, "
                        f"{acting}, {{'choice': _w, 'hidden': False}}))"]

    def b_Window(self, s, ind):
        """``window NAME starting with PLAYER { MENU }``: the players still in the game take turns,
        from the one starting, each making a play or passing, until every player still in it has
        passed in a row. What is known as the rules are written is
        written in: the plays it allows (each one's legal search read once as the window opens, a
        window of one play searching it alone), the names a choice is checked against, the trace's
        words; whether the agent answers from the options alone (``answer_from``) is asked once as the
        window opens. Each turn is then: a step counted, the options searched, the
        choice traced as a pass or made (one of the options just offered without checking it again,
        any other tried against its requirements: ``make``), a refused play taken back and chosen
        again (``Game.may_choose_again``), the state checks polled, the players still in it counted
        again after an elimination. While it is open, ``Game.acting`` holds its name and the player
        whose opportunity it is (``to-act``). A window nested deeper than Python nests blocks is written
        as a function of its own (``apart``)."""
        if self.nesting + 3 > _MAX_NESTING:         # (its ``try`` round the loop, the loop and its ``try``)
            return self.apart(s, ind, self.b_Window)
        names = [a for part in A.menu_parts(s.menu) for a in part.actions]
        plays = [n for n in names if n != "pass"]
        span = self.writer.constant(s.span)
        c = self.writer.constant
        refused = _fstring("", "_ch.action", f" is not a play this window allows ({', '.join(names)} or pass)")
        lines = [f"{ind}_wst = {self.expr(s.starting)}",
                 f"{ind}_word = _players_from(_G, _wst)",
                 f"{ind}_G.events.append((f.rule, 'window', {_fstring(s.name + ' opens; ', '_wst', ' acts first')},"
                 f" '', {self.because(s.starting)}))",
                 f"{ind}_wpass = _G.passes",        # each player's pass, made once a game
                 f"{ind}_wn = _wi = 0",
                 # (``players_from`` lists only the players still in the game: each of them may act)
                 f"{ind}_wact = _wseats = len(_word)",
                 f"{ind}_wseen = _B.eliminations",
                 f"{ind}_wacts = _G.actions"]
        searches = [f"_wl{k}" for k in range(len(plays))]
        lines += [f"{ind}{search} = _wacts[{name!r}].legal" for search, name in zip(searches, plays)]
        lines += [f"{ind}_wag = _G.agent",
                  f"{ind}_waf = getattr(_wag, 'answer_from', None)",
                  # (the window open, and whose opportunity it is, as the rules read them: ``to-act``)
                  f"{ind}_wat = [{s.name!r}, None]",
                  f"{ind}_G.acting.append(_wat)",
                  f"{ind}while _wact:",
                  f"{ind}    _wp = _word[_wi % _wseats]",
                  f"{ind}    _wi += 1",
                  f"{ind}    if _wp.eliminated:",
                  f"{ind}        continue",
                  f"{ind}    _wat[1] = _wp",
                  f"{ind}    _B.remembered_at = -1      # (a value remembered may read whose opportunity it is)",
                  f"{ind}    _G.steps += 1",
                  f"{ind}    if _G.steps > _G.step_limit: _G.over_limit(f.rule)"]
        if not searches:
            lines.append(f"{ind}    _opts = []")
        else:
            # (each search gives a list of its own, which the options may extend)
            lines.append(f"{ind}    _opts = {searches[0]}(_G, _wp)")
            lines += [f"{ind}    _opts += {search}(_G, _wp)" for search in searches[1:]]
        lines += [f"{ind}    _opts.append(_wpass[_wp.seat])",
                  f"{ind}    _ch = _waf(_opts) if _waf is not None else _wag(_G, _Decision(_wp, 'play', _opts, f.rule,"
                  f" {s.name!r}, False, {span}))",
                  f"{ind}    if _ch.action == 'pass':",
                  f"{ind}        _who = _ch.player",
                  f"{ind}        _name = {acting_source('_who')}",
                  f"{ind}        _G.events.append((f.rule, 'pass', f'{{_name or _who}} passes', _name, None))",
                  f"{ind}        _wn += 1",
                  f"{ind}    else:",
                  f"{ind}        try:",
                  f"{ind}            if _ch.action not in {c(tuple(names))}:",
                  f"{ind}                raise _Violation(f.rule, {refused}, _ch, {span})",
                  # (``make`` in place)
                  f"{ind}            if any(map(_is, _opts, _each_time(_ch))):",
                  f"{ind}                _wacts[_ch.action].play(_G, _ch)",
                  f"{ind}            else:",
                  f"{ind}                _G.attempt(_ch, f.rule)",
                  f"{ind}        except _Violation as _refused:",
                  f"{ind}            if not _G.may_choose_again(_refused, _wp):",
                  f"{ind}                raise",
                  f"{ind}            _wi -= 1       # refused and taken back: the same player chooses again",
                  f"{ind}            continue",
                  f"{ind}        _wn = 0",
                  f"{ind}    if {self.checks_due()} and _G.checks:",
                  f"{ind}        _G.run_checks()",
                  f"{ind}    if _B.eliminations != _wseen:      # a play or a check eliminated a player",
                  f"{ind}        _wseen = _B.eliminations",
                  f"{ind}        _wact = sum(1 for _p in _word if not _p.eliminated)",
                  f"{ind}    if _wn >= _wact:",
                  f"{ind}        break"]
        # (the window is closed however its loop is left: a refusal, the game's end, a jump)
        opened = lines.index(f"{ind}_G.acting.append(_wat)") + 1
        lines[opened:] = [f"{ind}try:"] + ["    " + line for line in lines[opened:]] + [
            f"{ind}finally:",
            f"{ind}    _G.acting.pop()",
            f"{ind}    _B.remembered_at = -1"]
        lines.append(f"{ind}_G.events.append((f.rule, 'window', {c(s.name + ' closes: every player passed in a row')}"
                     f" if _wact else {c(s.name + ' closes: no player is left in the game to act')}, '', None))")
        return lines

    def cards_each(self, x, card: str, ind: str) -> list:
        """The line opening a loop over the cards ``x`` stands for (``as_list``), each in ``card``:
        one card, the most met, as itself, without ``as_list``'s look at every kind of value."""
        if self.writer.value_kind(x, self.scope) == "card":
            return [f"{ind}for {card} in ({self.expr(x)},):"]
        moved = self.writer.local("_items")
        return [f"{ind}{moved} = {self.expr(x)}",
                f"{ind}for {card} in (({moved},) if type({moved}) is _Card else _as_list_copy({moved})):"]

    def b_Draw(self, s, ind):
        """``draw N from ZONE to ZONE``: up to N cards moved from the
        top of the one to the bottom of the other, one by one (``Game.move_card``), and traced once,
        saying how many were drawn and, when fewer, that the source ran out; between hidden zones,
        which, seen by their owners."""
        span = self.writer.constant(s.span)
        n, src, dst = self.writer.local("_n"), self.writer.local("_from"), self.writer.local("_to")
        drawn = self.writer.local("_drawn")
        who, short = "_who", "_short"
        text = _fstring("", who, "draws ", drawn, " card", f"'s' if {drawn} != 1 else ''", " from ",
                        f"{src}.label", " to ", f"{dst}.label", "", short)
        return [f"{ind}{n} = {self.expr(s.amount)}",
                f"{ind}{src} = {self.expr(s.source)}",
                f"{ind}{dst} = {self.expr(s.destination)}",
                f"{ind}if {n} < 0:",
                f"{ind}    raise _G.error(f'cannot draw a negative number of cards ({{{n}}})', f.rule, {span})",
                f"{ind}{drawn} = 0",
                f"{ind}for _ in range({n}):",
                f"{ind}    if not {src}.cards:",
                f"{ind}        break",
                f"{ind}    _G.move_card({src}.cards[0], {dst}, 'bottom')",
                f"{ind}    {drawn} += 1",
                f"{ind}_owner = {src}.owner",
                f"{ind}{who} = _owner.name + ' ' if _owner else ''",
                f"{ind}{short} = f' ({{{src}.label}} was empty after {{{drawn}}})' if {drawn} < {n} else ''",
                # (``Game.record`` in place: a draw changes the state; ``acting`` names the owner. Between
                # hidden zones, the titles drawn, the last placed, with who may see them:
                # ``records.hidden_draw_words``)
                f"{ind}_B.version += 1",
                f"{ind}_G.events.append((f.rule, 'draw', {text} if not ({src}.hidden and {dst}.hidden) else"
                f" ('hidden draw', {text}, tuple([_c.title for _c in {dst}.cards[len({dst}.cards) - {drawn}:]]),"
                f" _owner and _owner.name, {dst}.owner and {dst}.owner.name), {acting_source('_owner')},"
                f" {{'count': {drawn}}}))"]

    def b_Reveal(self, s, ind):
        """``reveal CARDS``: each card turned face up (a change only if
        it was face down), the event ``revealed`` traced for it and its triggers run, card by card."""
        span, card = self.writer.constant(s.span), self.writer.local("_card")
        refused = _fstring("only a card is revealed, not ", f"_value_words({card})", "")
        lines = self.cards_each(s.cards, card, ind) + [
            f"{ind}    if type({card}) is not _Card:",
            f"{ind}        raise _G.error({refused}, f.rule, {span})",
            f"{ind}    if not {card}.face_up:",
            f"{ind}        {card}.face_up = True"]
        lines += self.changed(["face-up"], ind + "        ")
        lines += [f"{ind}        _B.version += 1",
                  # (``Game.emit``, written in place)
                  f"{ind}    _G.events.append((f.rule, 'event', ('revealed', {card}.owner.name if {card}.owner"
                  f" else None, {card}.title), '', {{'event': 'named  revealed'}}))"]
        handlers = self.compiler.triggers.get(("named", "", "revealed"))
        if handlers is not None:
            held = self.writer.constant(handlers)
            lines += [f"{ind}    if {held}:", f"{ind}        _G.run_triggers({held}, 'named', f.rule, ({card},))"]
        return lines

    def b_Initiate(self, s, ind):
        """``initiate "KIND" abilities of CARDS [ordered by PLAYER]``:
        the abilities of that kind (by kind or name) of each card, found by its title, collected card by
        card (a value not a card refused as it is met); when more than one is found and the statement
        names who orders them, that player orders them (``order_abilities``); then each is traced as
        initiated and its body run in a frame of its own, ``this`` its card, acting its card's owner (a
        card no one owns: whoever acts). Which abilities each title has is known as the rules are
        written: only the titles with some are held (``_Initiated``, each ability's words and body). A
        statement nested deeper than Python nests blocks (its two loops) is written as a function of its
        own (``apart``)."""
        if self.nesting + 2 > _MAX_NESTING:
            return self.apart(s, ind, self.b_Initiate)
        compiler, kind = self.compiler, s.ability.lower()
        of_title, made = {}, {}
        for title, definition in compiler.gamedef.cards.items():
            found = tuple(made.setdefault(id(ability), _Initiated(compiler, ability))
                          for ability in abilities_of_kind(definition, kind))
            if found:
                of_title[title] = found
        span, card, c = self.writer.constant(s.span), self.writer.local("_card"), self.writer.constant
        refused = _fstring("only a card's abilities initiate, not ", f"_value_words({card})", "'s")
        lines = [f"{ind}_ifound = []"] + self.cards_each(s.cards, card, ind) + [
            f"{ind}    if type({card}) is not _Card:",
            f"{ind}        raise _G.error({refused}, f.rule, {span})"]
        if not of_title:        # no card has such abilities: each card is only looked at
            return lines
        lines += [f"{ind}    _iab = {c(of_title)}.get({card}.title)",
                  f"{ind}    if _iab is not None:",
                  f"{ind}        for _ia in _iab:",
                  f"{ind}            _ifound.append(({card}, _ia))"]
        if s.ordered_by is not None:
            lines += [f"{ind}if len(_ifound) > 1:",
                      f"{ind}    _ifound = {c(_order_initiated)}(f, _ifound, {self.expr(s.ordered_by)},"
                      f" {s.ability!r}, {span}, {c(made)})"]
        # (``Game.record`` in place: an ability initiated changes nothing; ``Frame(...)`` made in place)
        return lines + [
            f"{ind}for _icard, _ia in _ifound:",
            f"{ind}    _owner = _icard.owner",
            f"{ind}    _iact = {acting_source('_owner')} or f.actor",
            f"{ind}    _G.events.append((f.rule, 'ability', (_icard.title if _owner is None else"
            f" f\"{{_owner}}'s {{_icard.title}}\") + _ia.words, _iact or '', None))",
            f"{ind}    _ib = _ia.body",
            f"{ind}    if _ib is None:",
            f"{ind}        _ib = _ia.compile()",
            f"{ind}    _ifr = _BareFrame()",
            f"{ind}    _ifr.game = _G",
            f"{ind}    _ifr.vars = {{}}",
            f"{ind}    _ifr.rule = f.rule",
            f"{ind}    _ifr.this = _icard",
            f"{ind}    _ifr.actor = _iact",
            f"{ind}    _ib(_ifr)"]

    def b_Log(self, s, ind):
        return [f"{ind}_G.events.append((f.rule, 'log', {s.message!r}, f.actor, {self.because()}))"]

    def b_If(self, s, ind):
        lines, outer = [], self.conditions
        try:
            for i, (condition, body) in enumerate(s.branches):
                lines.append(f"{ind}{'if' if i == 0 else 'elif'} {self.test(condition)}:")
                self.conditions = outer + [(condition, True)]
                lines += self.nested(body, ind + "    ", 0)
            if s.otherwise:
                lines.append(f"{ind}else:")
                self.conditions = outer + [(condition, False) for condition, _ in s.branches]
                lines += self.nested(s.otherwise, ind + "    ", 0)
        finally:
            self.conditions = outer
        return lines

    def b_ForEach(self, s, ind):
        item = self.writer.local("_each")
        items = f"{item}s"
        kind = self.writer.items_kind(s.iterable, self.scope)
        if kind is not None:
            self.writer.kinds[item] = kind
        lines = [f"{ind}{items} = _as_list_copy({self.expr(s.iterable)})"]
        loop = [f"for {item} in {items}:", f"    _V[{s.var!r}] = {item}"]
        # The body reads the variable from the loop's local, unless some statement in it sets the
        # variable (the frame's then differs from the local).
        scope = self.scope
        if s.var not in _assigned(s.body):
            self.scope = {**scope, s.var: item}
        try:
            if not s.simultaneous:
                lines += [ind + line for line in loop]
                lines += self.nested(s.body, ind + "    ", 1)
                return lines
            # the state checks wait until every player has done it
            lines += [f"{ind}_G.simultaneous += 1", f"{ind}try:"]
            lines += [ind + "    " + line for line in loop]
            lines += self.nested(s.body, ind + "        ", 2)
            lines += [f"{ind}finally:", f"{ind}    _G.simultaneous -= 1",
                      f"{ind}_S = {self.enclosing}", f"{ind}_G.run_checks()"]
            return lines
        finally:
            self.scope = scope

    def b_Repeat(self, s, ind):
        lines = [f"{ind}while True:"] + self.nested(s.body, ind + "    ", 1) + self.empty_turn(s, ind + "    ")
        if s.until is not None:
            lines += [f"{ind}    _S = {self.enclosing}", f"{ind}    if {self.test(s.until)}:", f"{ind}        break"]
        return lines

    def b_While(self, s, ind):
        return ([f"{ind}while {self.test(s.condition)}:"] + self.nested(s.body, ind + "    ", 1)
                + self.empty_turn(s, ind + "    ") + [f"{ind}    _S = {self.enclosing}"])

    def empty_turn(self, s, ind) -> list:
        """A loop with nothing in it counts each of its turns as a step (its statements count
        otherwise), so that one that never ends meets the step budget instead of hanging."""
        if s.body:
            return []
        return [f"{ind}_G.steps += 1", f"{ind}if _G.steps > _G.step_limit: _G.over_limit(f.rule)"]

    def b_Move(self, s, ind):
        """``move CARDS to ZONE``: each card moved (``Game.move_card``) and traced, a move from a hidden
        zone to a hidden zone with their owners, who alone may see the title; the words, of the title and
        the zones' names, are made when the trace is read (``records.move_words``,
        ``hidden_move_words``)."""
        span = self.writer.constant(s.span)
        zone, card = self.writer.local("_zone"), self.writer.local("_card")
        text = (f"(('move', {card}.title, _src.label if _src is not None else None, {zone}.label)"
                f" if not ({zone}.hidden and _src is not None and _src.hidden) else ('hidden move', {card}.title,"
                f" _src.label, {zone}.label, _src.owner and _src.owner.name, {zone}.owner and {zone}.owner.name))")
        not_zone = _fstring("", f"_words({zone})", " is not a zone")
        not_card = _fstring("", f"_words({card})", " is not a card")
        lines = [f"{ind}{zone} = {self.expr(s.destination)}"]
        if not self.writer.is_zone(s.destination, self.scope):
            lines += [f"{ind}if not isinstance({zone}, _Zone):", f"{ind}    raise _G.error({not_zone}, f.rule, {span})"]
        each = ind + "    "
        if self.writer.value_kind(s.cards, self.scope) == "card":      # one card, sure to be one: no loop
            lines.append(f"{ind}{card} = {self.expr(s.cards)}")
            each = ind
        else:
            # one card (the most moved at once, a loop's item or a choice) goes as itself, not through
            # ``as_list``'s look at every kind of value a list may be made from
            moved = self.writer.local("_moved")
            lines += [f"{ind}{moved} = {self.expr(s.cards)}",
                      f"{ind}for {card} in (({moved},) if type({moved}) is _Card else _as_list_copy({moved})):",
                      f"{ind}    if not isinstance({card}, _Card):",
                      f"{ind}        raise _G.error({not_card}, f.rule, {span})"]
        # (``Game.record`` in place, without its bump of the version: the move's stands for it)
        return lines + [
                f"{each}_src = {card}.zone",
                f"{each}_G.move_card({card}, {zone}, {s.place!r})",
                f"{each}_G.events.append((f.rule, 'move', {text}, f.actor, {{'card': {card}.id}}))"]

    # -- counters, supplies, roles, flags and attributes
    def target(self, x, ind: str, table: str, who: str) -> tuple[list, bool]:
        """Lines finding what a statement changes (``Compiler.target``): the dict holding it in
        ``table``, how the trace names its holder in ``who``; and whether it may be a card's (then
        in ``_o``)."""
        if isinstance(x, A.Name):
            n = x.name
            if self.compiler.global_kind(n) != "field":
                span = self.writer.constant(x.span)
                message = f"'{n}' is not part of the game state"
                return [f"{ind}raise _G.error({message!r}, f.rule, {span})"], False
            return [f"{ind}{table}, {who} = _G.state.fields, {n!r}"], False
        kind = self.writer.value_kind(x.subject, self.scope)
        if kind == "player" and x.name not in self.writer.player_zones:
            subject = self.expr(x.subject)      # (a local: sure to be a player)
            if self.player_of(x) is not None:       # (its name read where the trace needs it: ``holder``)
                return [f"{ind}{table} = {subject}.fields"], False
            return [f"{ind}{table}, {who} = {subject}.fields, {subject}.name"], False
        if kind == "card" and x.name not in _CARD_OWN and not (
                x.name in self.writer.player_zones and x.name not in card_attribute_names(self.compiler)):
            subject = self.expr(x.subject)      # (a local: sure to be a card)
            return [f"{ind}_o = {subject}", f"{ind}{table}, {who} = _o.attrs, _o.title"], True
        span = self.writer.constant(x.span)
        message = _fstring("", "_words(_o)", f" has no '{x.name}' to change")
        zone = []
        if x.name in self.writer.player_zones:      # a player's zone is not a counter, flag or role
            words_ = _fstring("", "_o.name", f"'s {x.name} is a zone: it holds cards and cannot be set")
            zone = [f"{ind}    raise _G.error({words_}, f.rule, {span})"]
        own = []
        if x.name in _CARD_OWN:                     # a card's title, type, owner, zone, face are its own
            words_ = _fstring("", "_o.title", f"'s {x.name} is its own and cannot be changed")
            own = [f"{ind}    raise _G.error({words_}, f.rule, {span})"]
        elif x.name in self.writer.player_zones and x.name not in card_attribute_names(self.compiler):
            # a name the rules give a player's zone, and no card type an attribute
            words_ = _fstring("", "_o.title", f" has no attribute '{x.name}' ('{x.name}' is a player's zone)")
            own = [f"{ind}    raise _G.error({words_}, f.rule, {span})"]
        return [f"{ind}_o = {self.expr(x.subject)}",
                f"{ind}if type(_o) is _Player:",
                *zone,
                f"{ind}    {table}, {who} = _o.fields, _o.name",
                f"{ind}elif type(_o) is _Card:",
                *own,
                f"{ind}    {table}, {who} = _o.attrs, _o.title",
                f"{ind}else:",
                f"{ind}    raise _G.error({message}, f.rule, {span})"], True

    def player_of(self, x) -> str | None:
        """The Python local holding the player whose counter, supply, role or flag ``x`` names, when
        ``x`` is sure to name one (a player's field, of a variable sure to be a player): then the
        field is in the player's ``fields`` from set-up (``Game._build_state``), none of the rules'
        statements ever removes it, and its holder is named by the local, read at no cost."""
        if isinstance(x, A.Attr) and x.name in self.writer.player_fields \
                and self.writer.value_kind(x.subject, self.scope) == "player":
            return self.expr(x.subject)
        return None

    def holds(self, x) -> bool:
        """Whether the dict holding what ``x`` names (``target``) is sure to hold it already: a game's
        field (all made at set-up) or a player's sure to be a player's (``player_of``)."""
        return isinstance(x, A.Name) or self.player_of(x) is not None

    def holder(self, x, who: str) -> str:
        """How the trace names the holder of what ``x`` names: the local ``who`` set by ``target``, or
        the name of the player ``player_of`` found."""
        player = self.player_of(x)
        return who if player is None else f"{player}.name"

    def bound(self, name: str, value: str, what: str, span: str, ind: str, always: bool = True) -> list:
        """Lines refusing a value outside the bounds of the counter or supply ``name`` (none if it has
        no bounds: then the state has none for it). Bounds written in the declaration are compared in
        place, and ``bounded`` called (for its refusal) only for a value it may refuse: not a plain
        whole number within them. ``what`` is worked out only then."""
        if name not in self.bounded:
            return []
        check = f"_bounded(f, {name!r}, {value}, {what}, {span})"
        if name in self.literal_bounds:     # (then the state has them: one of them is a number)
            # (a side with no bound is the digits' one: ``digits`` then writes nothing more)
            low, high = self.literal_bounds[name]
            limit = repr(op.TOO_LONG)
            within = (f"{repr(low) + ' <=' if low is not None else '-' + limit + ' <'} {value} "
                      f"{'<= ' + repr(high) if high is not None else '< ' + limit}")
            return [f"{ind}if type({value}) is not int or not {within}:", f"{ind}    {check}"]
        return [f"{ind}{check}"] if always else [f"{ind}if {name!r} in _G.state.bounds:", f"{ind}    {check}"]

    @staticmethod
    def what(n: str, target, who: str = "_who") -> str:
        """How the trace names the counter ``n`` of the holder in ``who`` (``records.held``): the game's
        by its name alone."""
        if isinstance(target, A.Name):
            return repr(n)
        held = _fstring("", who, "'s " + n)
        return f"({n!r} if {who} == {n!r} else {held})"

    def reshape(self, table: str, n: str, ind: str, target) -> list:
        """Lines marking every state check (``Bookkeeping.stale``) as a name is added to a player's or
        card's dict; none for a dict sure to hold it (``holds``): a game's counters, supplies, roles and
        flags, and a player's, are all there from set-up."""
        if self.holds(target) or not self.polls:
            return []
        return [f"{ind}if {n!r} not in {table}:", f"{ind}    _B.stale = {self.bits.every}"]

    def changed(self, names, ind: str) -> list:
        """The line marking the state checks that read one of these names, which change now
        (``Bookkeeping.stale``); none when no check reads any of them."""
        bits = self.bits.of(names)
        return [f"{ind}_B.stale |= {bits}"] if bits else []

    def unrefused(self, changed, taken_from: str = "") -> bool:
        """Whether a statement changing these names may leave a supply or counter out of its bounds
        though it refuses every value it sets out of them (``bounded``): when it changes a game's
        supply (above its capacity), or transfers from a counter with a minimum (what it takes is only
        checked against what the counter holds). Every other change of a supply or bounded counter is
        in bounds once made, so the invariants need not look at the bounds after it."""
        return any(n in self.capped for n in changed) or taken_from in self.floored

    def bounds_changed(self, unrefused: bool, ind: str) -> list:
        """A line counting a change that may leave a bound broken (``Bookkeeping.bounds_changed``,
        ``unrefused``): the invariants look at the bounds only after such a change."""
        return [f"{ind}_B.bounds_changed += 1"] if unrefused else []

    def digits(self, name: str, value: str, what: str, span: str, ind: str, number: bool = True) -> list:
        """Lines refusing a number of more than ``MAX_DIGITS`` digits in ``value`` (``op.too_long``)
        written to the counter, supply or attribute ``name`` (``what``: how the error names it);
        ``number``: sure to be a number (otherwise only a whole number is looked at). A literal is never
        too long: the parser refuses it (E003). None for a counter or supply whose bounds are compared
        in place (``bound``, which refuses it then)."""
        if name in self.literal_bounds:
            return []
        limit = repr(op.TOO_LONG)
        test = f"not -{limit} < {value} < {limit}"
        if not number:
            test = f"type({value}) is int and {test}"
        return [f"{ind}if {test}:", f"{ind}    _too_long(f, {what}, {value}, {span})"]

    def b_Set(self, s, ind):
        n, span = s.target.name, self.writer.constant(s.span)
        lines, maybe_card = self.target(s.target, ind, "_tab", "_who")
        who = self.holder(s.target, "_who")
        secret = maybe_card and any(name == n for _, name in self.hidden)
        # (a field sure to be there read as it is, not asked for)
        lines.append(f"{ind}_old = _tab[{n!r}]" if self.holds(s.target) else f"{ind}_old = _tab.get({n!r})")
        if secret:
            lines.append(f"{ind}_secret = type(_o) is _Card and (_o.type, {n!r}) in _HIDDEN")
        if s.value is not None:
            lines.append(f"{ind}_new = {self.expr(s.value)}")
        else:       # clear: a flag becomes false, a counter 0, a role or attribute none
            cleared = "False if isinstance(_old, bool) else 0 if isinstance(_old, int) else None"
            fast = _CLEARED.get(self.field_kinds.get(n)) if self.holds(s.target) else None
            if fast is not None:
                # a field of a declared kind most often holds a value of that kind, whose cleared value
                # is known without asking what kind of value it is (a flag's false, a counter's 0 ...)
                test, value = fast
                cleared = f"{value} if {test} else {cleared}"
            lines.append(f"{ind}_new = {cleared}")
        # (its reasons worked out as its value is, before anything changes)
        why = "None" if secret else _BOOKKEEPING if n in self.bookkeeping else \
            self.because(s.value)
        if why not in ("None", _BOOKKEEPING):
            lines.append(f"{ind}_why = {why}")
            why = "_why"
        # (a number may be too long: not a literal, a card or player, nor what a role or flag holds)
        if s.value is not None and not isinstance(s.value, (A.Number, A.Text, A.Constant)) and \
                self.writer.value_kind(s.value, self.scope) is None and \
                not (self.field_kinds.get(n) in ("role", "flag") and self.holds(s.target)):
            lines += self.digits(n, "_new", self.what(n, s.target, who), span, ind, number=False)
        # (worked out before the bounds are checked, whose refusal names it; else only for a hidden change)
        what = [f"{ind}_what = {self.what(n, s.target, who)}"]
        bound = self.bound(n, "_new", "_what", span, ind)
        if bound and n in self.literal_bounds:      # (worked out only when the value may be refused)
            bound = [bound[0], *["    " + line for line in what], bound[1]]
            lines += bound
            bound = []
        else:
            lines += what + bound if bound else []
        lines += self.reshape("_tab", n, ind, s.target) + self.changed([n], ind)
        lines += self.bounds_changed(self.unrefused([n]), ind)
        lines += [f"{ind}_tab[{n!r}] = _new",
                  f"{ind}if _old is not _new and not (type(_old) is type(_new) and _old == _new):   # a change",
                  f"{ind}    _B.version += 1"]
        # (its words made when the trace is read, a list's now: ``records.set_words``; a value sure not
        # to be a list, as a cleared one or a literal, is taken as it is)
        new = "_new" if s.value is None or isinstance(s.value, (A.Number, A.Text, A.Constant)) \
            or self.writer.value_kind(s.value, self.scope) is not None else "_words(_new) if type(_new) is list else _new"
        record = (f"_G.events.append((f.rule, 'set', ('set', {who}, {n!r}, _words(_old) if type(_old) is list"
                  f" else _old, {new}), f.actor, {why}))")
        if secret:
            lines += [f"{ind}    if _secret:",
                      *([] if bound else ["        " + line for line in what]),
                      # (as it is, with who may see it: ``records.hidden_set_words``)
                      # (text as it is, made into words when read; anything else in words now: a list
                      # changes, and a card or player held would keep the tuple in the collector's sight)
                      f"{ind}        _G.events.append((f.rule, 'set', ('hidden set', _what, _old if type(_old) is str"
                      " else _words(_old), _new if type(_new) is str else _words(_new), _o.owner and _o.owner.name,"
                      " f.actor), f.actor, {'hidden': True}))",
                      f"{ind}    else:",
                      f"{ind}        {record}"]
        else:
            lines.append(f"{ind}    {record}")
        return lines

    def b_Change(self, s, ind):
        n, span = s.target.name, self.writer.constant(s.span)
        lines, maybe_card = self.target(s.target, ind, "_tab", "_who")
        data = _BOOKKEEPING if n in self.bookkeeping else "None"
        who = self.holder(s.target, "_who")
        lines += [f"{ind}_old = {self.read('_tab', n, s.target)} or 0",
                  f"{ind}_new = _old + {s.sign} * {self.expr(s.amount)}"]
        lines += self.digits(n, "_new", self.what(n, s.target, who), span, ind)
        lines += self.bound(n, "_new", self.what(n, s.target, who), span, ind, always=False)
        lines += self.reshape("_tab", n, ind, s.target) + self.changed([n], ind)
        lines += self.bounds_changed(self.unrefused([n]), ind)
        # (its words made when the trace is read: ``records.change_words``)
        lines += [f"{ind}_tab[{n!r}] = _new",
                  f"{ind}_B.version += 1",
                  f"{ind}_G.events.append((f.rule, 'change', ('change', {who}, {n!r}, _old, _new), f.actor,"
                  f" {data}))"]
        return lines

    def read(self, table: str, n: str, target) -> str:
        """The value of ``n`` in the dict ``table`` found for ``target``: read as it is when the dict
        is sure to hold it (``holds``), else asked for (None when not there)."""
        return f"{table}[{n!r}]" if self.holds(target) else f"{table}.get({n!r})"

    def b_Transfer(self, s, ind):
        span = self.writer.constant(s.span)
        src, dst = s.source.name, s.destination.name
        from_who, to_who = self.holder(s.source, "_from_who"), self.holder(s.destination, "_to_who")
        lines = [f"{ind}_n = {self.expr(s.amount)}"]
        lines += self.target(s.source, ind, "_src", "_from_who")[0]
        lines += self.target(s.destination, ind, "_dst", "_to_who")[0]
        lines += [f"{ind}_have = {self.read('_src', src, s.source)} or 0",
                  f"{ind}if _n < 0:",
                  f"{ind}    raise _G.error(f'cannot transfer a negative amount ({{_n}})', f.rule, {span})",
                  f"{ind}if _have < _n:",
                  f"{ind}    _from = {self.what(src, s.source, from_who)}",
                  f"{ind}    raise _G.error(f'{{_from}} holds {{_have}}, not the {{_n}} to transfer', f.rule,"
                  f" {span})",
                  f"{ind}_after = ({self.read('_dst', dst, s.destination)} or 0) + _n"]
        lines += self.digits(dst, "_after", self.what(dst, s.destination, to_who), span, ind)
        lines += self.bound(dst, "_after", self.what(dst, s.destination, to_who), span, ind)
        # (a name added to a dict not sure to hold it: ``reshape``)
        fresh = [f"{name!r} not in {table}" for name, table, x in ((src, "_src", s.source), (dst, "_dst", s.destination))
                 if not self.holds(x)]
        if fresh and self.polls:
            lines += [f"{ind}if {' or '.join(fresh)}:", f"{ind}    _B.stale = {self.bits.every}"]
        lines += self.changed([src, dst], ind) + self.bounds_changed(self.unrefused([dst], src), ind)
        lines += [f"{ind}_src[{src!r}] = _have - _n",
                  f"{ind}_dst[{dst!r}] = _after",
                  f"{ind}_B.version += 1",
                  f"{ind}_G.events.append((f.rule, 'transfer', ('transfer', _n, {from_who}, {src!r},"
                  f" {to_who}, {dst!r}, _after), f.actor, {{'amount': _n}}))"]
        return lines

    # ------------------------------------------------------------------ statements written as calls
    # (the values in place, the work in ``runtime/operations.py``)
    def b_Create(self, s, ind):
        return [f"{ind}_create(f, {self.expr(s.destination)}, {self.expr(s.cards)})"]

    def b_Shuffle(self, s, ind):
        return [f"{ind}_shuffle(f, {self.expr(s.zone)})"]

    def b_Conceal(self, s, ind):
        bits = self.bits.of(["face-up"])
        return [f"{ind}_conceal(f, {self.expr(s.cards)}, {bits}, {self.writer.constant(s.span)})"]

    def chooser_again(self, s, ind) -> list:
        """The line working the chooser out again after the choice, when it reads the variable chosen
        (as the trace names the chooser then)."""
        return [f"{ind}_who = {self.expr(s.chooser)}"] if s.var in A.names_in(s.chooser) else []

    def b_ChooseNumber(self, s, ind):
        """``PLAYER chooses VAR from LOW to HIGH``: the numbers listed, then the chooser asked."""
        span, prompt = self.writer.constant(s.span), s.prompt or f"choose {s.var}"
        return [f"{ind}_opts = list(range({self.expr(s.low)}, {self.expr(s.high)} + 1))",
                f"{ind}_who = {self.expr(s.chooser)}",
                f"{ind}_ans = _decide(f, _who, 'number', _opts, {prompt!r}, False, {span})",
                f"{ind}_V[{s.var!r}] = _ans",
                *self.chooser_again(s, ind),
                f"{ind}_G.record(f.rule, 'decision', {_fstring('', '_who', ' chooses ', '_ans', _asked(s.prompt))}, _who,"
                " choice=_ans)"]

    def b_Order(self, s, ind):
        """``PLAYER orders VAR from OPTIONS``: fewer than two options are their own order, unasked and
        untraced."""
        span, prompt = self.writer.constant(s.span), s.prompt or "order"
        return [f"{ind}_opts = _as_list_copy({self.expr(s.options)})",
                f"{ind}if len(_opts) < 2:",
                f"{ind}    _V[{s.var!r}] = list(_opts)",
                f"{ind}else:",
                f"{ind}    _who = {self.expr(s.chooser)}",
                f"{ind}    _ans = _decide(f, _who, 'order', _opts, {prompt!r}, False, {span})",
                f"{ind}    _V[{s.var!r}] = list(_ans)",
                *self.chooser_again(s, ind + "    "),
                f"{ind}    _G.record(f.rule, 'decision', {_fstring('', '_who', ' orders ', '_words(list(_ans))', _asked(s.prompt))},"
                " _who)"]

    def b_May(self, s, ind):
        """``PLAYER may PROMPT { ... } otherwise { ... }``: asked yes or no, the answer traced, then the
        block it chooses run in place (as ``if``'s are)."""
        span = self.writer.constant(s.span)
        answered = _fstring("", "_who", " answers ", "_words(bool(_ans))", f": {s.prompt}")
        lines = [f"{ind}_who = {self.expr(s.chooser)}",
                 f"{ind}_ans = _decide(f, _who, 'may', [True, False], {s.prompt!r}, False, {span})",
                 f"{ind}_G.record(f.rule, 'decision', {answered}, _who)",
                 f"{ind}if _ans:",
                 *self.nested(s.body, ind + "    ", 0)]
        if s.otherwise:
            lines += [f"{ind}else:", *self.nested(s.otherwise, ind + "    ", 0)]
        return lines

    def b_Pick(self, s, ind):
        return [f"{ind}_V[{s.var!r}] = _pick(f, {self.expr(s.options)}, {self.writer.constant(s.span)})"]

    def b_Roll(self, s, ind):
        span = self.writer.constant(s.span)
        return [f"{ind}_V[{s.var!r}] = _roll(f, {self.expr(s.count)}, {s.dice!r}, {span})"]

    def b_Turn(self, s, ind):
        """``turn PLAYER { MENU }`` (``operations.turn``): what its menu is, and the triggers listening
        to a turn's beginning and end, held as the rules are written."""
        triggers = self.compiler.triggers
        menu = op.TurnMenu(s.menu, triggers.get(("begin", "turn", "")), triggers.get(("end", "turn", "")))
        c = self.writer.constant
        return [f"{ind}_turn(f, {self.expr(s.player)}, {c(menu)}, {c(s.span)})"]

    def b_Perform(self, s, ind):
        args = "(" + "".join(f"{self.expr(a)}, " for a in s.args) + ")"
        span = self.writer.constant(s.span)
        return [f"{ind}_perform(f, {s.action!r}, {self.expr(s.actor)}, {args}, {span})"]

    def b_Require(self, s, ind):
        """``require CONDITION, citing RULE: MESSAGE``: the rule cited counts as exercised; a condition
        that does not hold refuses the play."""
        c = self.writer.constant
        return [f"{ind}_G.exercised.add({s.cite!r})",
                f"{ind}if not ({self.test(s.condition)}):",
                f"{ind}    raise _Violation({s.cite!r}, {c(s.message)}, None, {c(s.span)})"]

    def b_Modify(self, s, ind):
        """``modify TARGET by VALUE DURATION``: what it modifies worked out (its key and words), then
        its value (``operations.modify``). 'for next' lasts only a round, refused as it runs."""
        x, d, c = s.target, s.duration, self.writer.constant
        if isinstance(x, A.Call):
            args = "(" + "".join(f"{self.expr(a)}, " for a in x.args) + ")"
            lines = [f"{ind}_mk, _ma = _value_modified({x.name!r}, {args})"]
        elif isinstance(x, A.Name):
            key = ("value", x.name, ()) if x.name in self.compiler.gamedef.values else ("field", x.name)
            lines = [f"{ind}_mk, _ma = {c((key, x.name))}"]
        else:
            lines = [f"{ind}_mk, _ma = _attribute_modified({self.expr(x.subject)}, {x.name!r})"]
        if d.kind == "for_next" and d.milestone != "round":
            message = "'for next' lasts a round: write 'for next round'"
            return lines + [f"{ind}raise _G.error({message!r}, f.rule, {c(s.span)})"]
        return lines + [f"{ind}_modify(f, _mk, _ma, {s.op!r}, {self.expr(s.value)}, {c(d)}, {s.cite!r})"]

    def b_Win(self, s, ind):
        return [f"{ind}_win(f, {self.expr(s.players)}, {self.because(s.players)})"]

    def b_Eliminate(self, s, ind):
        return [f"{ind}_eliminate(f, {self.expr(s.players)}, {self.because(s.players)})"]


class _Initiated:
    """An ability an ``initiate`` written in place may initiate (``BlockWriter.b_Initiate``): the words
    the trace gives after its card's (``: Old Library (at the start of the round) initiates``), and
    its body, compiled when it is first initiated, not as the statement is written (an ability may
    initiate abilities itself), one for every ``initiate`` (``Compiler.ability_body``)."""

    __slots__ = ("compiler", "ability", "words", "body")

    def __init__(self, compiler, ability):
        self.compiler, self.ability, self.body = compiler, ability, None
        self.words = initiated_words(ability)

    def compile(self):
        """The ability's body as a block (``Compiler.ability_body``), held from now on."""
        self.body = self.compiler.ability_body(self.ability)
        return self.body


def _order_initiated(f, found: list, chooser, ability: str, span, made: dict) -> list:
    """The ``(card, _Initiated)`` pairs ``found`` in the order ``chooser`` gives them
    (``operations.order_abilities``, which is asked about the abilities themselves)."""
    ordered = order_abilities(f, [(card, entry.ability) for card, entry in found], chooser, ability, span)
    return [(card, made[id(ability_)]) for card, ability_ in ordered]


def _books(lines) -> list:
    """The line holding the game's bookkeeping in ``_B``, for a function whose ``lines`` read it: once
    at its start rather than at every use; none for one that does not."""
    return ["    _B = _G.books"] if any("_B." in line for line in lines) else []


def _asked(prompt: str) -> str:
    """What a choice asked, after its answer in the trace (``: Choose the first player``), or nothing
    when the rules wrote no question (a text for ``_fstring``, which escapes it)."""
    return f": {prompt}" if prompt else ""


def _fstring(*parts) -> str:
    """The source of an f-string: ``parts`` alternate text and the Python expressions written in it."""
    text = "".join("{" + p + "}" if i % 2 else p.replace("{", "{{").replace("}", "}}")
                   for i, p in enumerate(parts))
    return "f" + repr(text)


#: The data of an event that sets or changes a field the transcription keeps for itself.
_BOOKKEEPING = "{'bookkeeping': True}"

#: The statements that set a variable of the frame (their ``var``).
_SETTING = (A.Let, A.ForEach, A.Choose, A.ChooseNumber, A.Order, A.Pick, A.Roll)


def _assigned(body) -> set:
    """Every variable a statement of ``body``, or of a block inside one, sets."""
    return {x.var for x in A.descendants(tuple(body)) if isinstance(x, _SETTING)}
