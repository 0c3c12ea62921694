"""The tree builders: a parse's reductions (or a Lark tree) in, AST nodes out.

``Builder`` has one ``t_<rule>`` method per rule of ``rules.lark``, called at each reduction of the
parse tables or bottom-up over Lark's tree, without recursion, so deep nesting cannot overflow the
Python stack; it refuses numbers longer than ``MAX_DIGITS`` digits (E003) and expressions nesting
deeper than ``MAX_NESTING`` (E010). ``ScenarioBuilder`` adds the scenario language's steps (a log's
builder, ``compliance/log.py``, adds the log's set-up); ``QuestionBuilder`` makes a question put to
``ludex ask`` written as a bare script one scenario. ``unquote`` and ``unquote_lines`` give a string
literal's value.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..diagnostics import SOURCES, Diagnostic, Related, SourceError
from . import ast as A
from .grammars import RAW_TEXT
from .mistakes import MAX_NESTING, line_column

if TYPE_CHECKING:
    from lark import Tree

#: The most digits a number may have. Numbers in rules, scenarios and logs are counts, ids and
#: seeds: 18 digits hold any of them and still fit a 64-bit integer, so whatever reads the JSON
#: output can hold them too. A longer one is a slip of the keyboard (and from 4300 digits on Python
#: will not even read it).
MAX_DIGITS = 18


# ------------------------------------------------------------------ tree -> AST


def _span(path: str, meta_or_token) -> A.Span:
    m = meta_or_token
    if isinstance(m, str):                  # a token: Lark's or the tables' (lalr.Token)
        return A.Span(path, m.line, m.column, m.end_line, m.end_column)
    if getattr(m, "empty", True):
        return A.Span(path, 0, 0, 0, 0)
    return A.Span(path, m.line, m.column, m.end_line, m.end_column)


def unquote(token: str) -> str:
    """The value of a string literal: quotes removed, escapes resolved, long strings dedented."""
    if token.startswith('"""'):
        body = token[3:-3]
        body = _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)
        return _dedent(body)
    body = token[1:-1]
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


_ESCAPE = re.compile(r"\\(.)", re.S)
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unquote_lines(token: str) -> str:
    """The value of a string literal whose lines matter (a board's drawing): quotes removed, escapes
    resolved, the common indentation and the blank lines around it removed, each line kept."""
    import textwrap
    body = token[3:-3] if token.startswith('"""') else token[1:-1]
    body = _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)
    lines = textwrap.dedent(body).splitlines()   # tabs stay: the board refuses them
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() for line in lines)


def _operator_at(path: str, line: int, column: int) -> A.Span | None:
    """The operator (a word or a sign) at or after ``line:column``, over spaces, comments and
    closing brackets: where an operand ends, the operator after it. None if the text is gone."""
    text = SOURCES.text(path)
    if text is None or line < 1:
        return None
    offset = 0
    for _ in range(line - 1):
        offset = text.find("\n", offset) + 1
        if offset == 0:
            return None
    match = _OPERATOR.match(text, offset + column - 1)
    if match is None:
        return None
    line, column = line_column(text, match.start(1))
    return A.Span(path, line, column, line, column + len(match.group(1)))


#: Spaces, comments and closing brackets, then an operator: a word (``and``, ``every``) or a sign.
_OPERATOR = re.compile(r"(?:\s|#[^\n]*|\))*([a-z]+|[^\s#)])")


def _dedent(body: str) -> str:
    """Long text: lines are joined into paragraphs; blank lines separate paragraphs."""
    paragraphs = re.split(r"\n\s*\n", body.strip())
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines() if line.strip()) for p in paragraphs)


class Builder:
    """Builds AST nodes, one ``t_<rule>`` method per grammar rule: at each reduction of the parse
    tables (``lalr.Tables.parse``), or bottom-up from a Lark tree (``build``), without recursion."""

    def __init__(self, path: str):
        self.path = path
        #: id of each expression node that has parts -> (how deep it nests, the node): a leaf is one
        #: level, a node one more than its deepest part (the node is kept so that its id stays its own)
        self.depths: dict[int, tuple] = {}

    def build(self, tree: Tree, expect=None):
        from lark import Tree
        built: dict[int, object] = {}
        for subtree in tree.iter_subtrees():
            children = [built[id(c)] if isinstance(c, Tree) else c for c in subtree.children]
            name = subtree.data.split("__")[-1] if isinstance(subtree.data, str) else subtree.data.value
            for index in RAW_TEXT.get(name, ()):
                children[index] = str(subtree.children[index].children[0])
            handler = getattr(self, "t_" + name.rstrip("_"), None)
            span = _span(self.path, subtree.meta)
            if subtree is tree and span.line == 0:
                span = A.Span(self.path, 1, 1, 1, 1)     # a file without a token: at 1:1, as the tables do
            if handler is None:
                raise AssertionError(f"no builder for grammar rule {name}")
            built[id(subtree)] = handler(span, children)
        return built[id(tree)]

    # -- helpers
    def sp(self, token) -> A.Span:
        return _span(self.path, token)

    def number(self, token) -> int:
        """The value of a number (``INT``); E003 at it when it has more than MAX_DIGITS digits."""
        if len(token) > MAX_DIGITS:
            span = self.sp(token)
            raise SourceError([Diagnostic(
                "syntax", "E003", f"this number is too long: {len(token)} digits, at most {MAX_DIGITS}",
                A.Span(span.path, span.line, span.column, span.line, span.column + 1),
                hint="numbers here are counts, ids and seeds; check for digits typed twice or pasted")])
        return int(token)

    def nested(self, node, parts, operator=None):
        """``node``, its depth noted: one level more than its deepest part. E010 when that is more
        than MAX_NESTING, at its operator: the first thing after the part ``operator`` (an infix or
        postfix operator, which the tree does not keep), a token (``+``), or where the node begins
        (a prefix operator: ``not``, ``-``, ``if``, ``every``...). Each chain is refused at the
        operator of its smallest part that is too deep: in ``1 + 1 + ...``, the 64th ``+``."""
        depths = self.depths
        depth = 1
        for part in parts:
            found = depths.get(id(part))
            if found is not None and found[0] > depth:
                depth = found[0]
        depth += 1
        depths[id(node)] = (depth, node)
        if depth > MAX_NESTING:
            if isinstance(operator, str):
                span = self.sp(operator)
            elif operator is not None:
                span = _operator_at(self.path, operator.span.end_line, operator.span.end_column) or node.span
            else:
                span = _operator_at(self.path, node.span.line, node.span.column) or node.span
            width = span.end_column - span.column if span.end_line == span.line else 1
            raise SourceError([Diagnostic(
                "syntax", "E010", f"this expression nests deeper than {MAX_NESTING} levels",
                A.Span(span.path, span.line, span.column, span.line, span.column + max(1, width)),
                hint="each operator takes the expression one level deeper; name parts of it with "
                     "'let' or a named value (a sum over a list: 'total x in xs: ...')")])
        return node

    # -- module
    def t_start(self, span, ch):
        items = []
        for item in ch:
            items.append(item)
        return A.Module(span, self.path, tuple(items))

    # -- expressions
    def t_number(self, span, ch):
        return A.Number(span, self.number(ch[0]))

    def t_text(self, span, ch):
        return A.Text(span, ch[0])

    def t_string(self, span, ch):
        return unquote(str(ch[0]))

    def t_true(self, span, ch):
        return A.Constant(span, True)

    def t_false(self, span, ch):
        return A.Constant(span, False)

    def t_none(self, span, ch):
        return A.Constant(span, None)

    def t_this(self, span, ch):
        return A.This(span)

    def t_name(self, span, ch):
        return A.Name(span, str(ch[0]))

    def t_attr(self, span, ch):
        return self.nested(A.Attr(span, ch[0], str(ch[1])), ch[:1], ch[0])

    def t_index(self, span, ch):
        return self.nested(A.Index(span, ch[0], ch[1]), ch, ch[0])

    def t_call(self, span, ch):
        args = tuple(c for c in ch[1:] if c is not None)
        return self.nested(A.Call(span, str(ch[0]), args), args)

    def t_listexpr(self, span, ch):
        items = tuple(c for c in ch if c is not None)
        return self.nested(A.ListExpr(span, items), items)

    def t_neg(self, span, ch):
        return self.nested(A.Unary(span, "-", ch[0]), ch)

    def t_not(self, span, ch):
        return self.nested(A.Unary(span, "not", ch[0]), ch)

    def t_binary(self, span, ch):
        return self.nested(A.Binary(span, str(ch[1]), ch[0], ch[2]), (ch[0], ch[2]), ch[1])

    t_compare = t_binary

    def t_member(self, span, ch):
        return self.nested(A.Binary(span, "in", ch[0], ch[1]), ch, ch[0])

    def t_not_member(self, span, ch):
        return self.nested(A.Binary(span, "not in", ch[0], ch[1]), ch, ch[0])

    def t_and(self, span, ch):
        return self.nested(A.Binary(span, "and", ch[0], ch[1]), ch, ch[0])

    def t_or(self, span, ch):
        return self.nested(A.Binary(span, "or", ch[0], ch[1]), ch, ch[0])

    def t_is_none(self, span, ch):
        return self.nested(A.IsNone(span, ch[0], False), ch, ch[0])

    def t_is_not_none(self, span, ch):
        return self.nested(A.IsNone(span, ch[0], True), ch, ch[0])

    def t_ifexpr(self, span, ch):
        return self.nested(A.IfExpr(span, ch[0], ch[1], ch[2]), ch)

    def t_quant(self, span, ch):
        return str(ch[0])

    t_rank = t_quant

    def t_quantified(self, span, ch):
        return self.nested(A.Quantified(span, ch[0], str(ch[1]), ch[2], ch[3]), ch[2:])

    def t_ranked(self, span, ch):
        return self.nested(A.Ranked(span, ch[0], str(ch[1]), ch[2], ch[3]), ch[2:])

    # -- game header
    def t_game(self, span, ch):
        key, title, *fields = ch
        sources, formats, format_players = [], (), ()
        low = high = 2
        excerpt = ("", "", None)
        given, twice = {}, []
        for f in fields:
            if isinstance(f, A.Source):
                sources.append(f)
                continue
            if f[0] in given:
                twice.append((f[0], f[-1], given[f[0]]))      # the last would silently win
            else:
                given[f[0]] = f[-1]
            if f[0] == "players":
                low, high = f[1], f[2]
            elif f[0] == "formats":
                formats = tuple(name for name, _, _ in f[1])
                format_players = tuple(item for item in f[1] if item[1] is not None)
            elif f[0] == "excerpt":
                excerpt = f[1:4]
        return A.GameHeader(span, str(key), title, tuple(sources), low, high, formats, format_players, excerpt[0],
                      excerpt[1], excerpt[2], tuple(twice))

    def t_source_decl(self, span, ch):
        return A.Source(span, str(ch[0]), ch[1], ch[2], ch[3] or "")

    def t_players_decl(self, span, ch):
        return ("players", self.number(ch[0]), self.number(ch[1]), span)

    def t_formats_decl(self, span, ch):
        return ("formats", tuple(ch), span)

    def t_format_decl(self, span, ch):
        name, fewest, most = ch
        if fewest is None:
            return (str(name), None, None)
        return (str(name), self.number(fewest), self.number(most if most is not None else fewest))

    def t_excerpt_decl(self, span, ch):
        return ("excerpt", str(ch[0]), ch[1], self.sp(ch[0]))

    # -- state
    def t_state(self, span, ch):
        return A.State(span, tuple(ch))

    def t_scope(self, span, ch):
        return str(ch[0])

    t_kind = t_type = t_place = t_goto_word = t_modify_op = t_scope

    def t_initial(self, span, ch):
        return ("initial", ch[0])

    def t_min_bound(self, span, ch):
        return ("min", ch[0])

    def t_max_bound(self, span, ch):
        return ("max", ch[0])

    def t_visibility(self, span, ch):
        return ("visibility", str(ch[0]))

    def t_state_field(self, span, ch):
        scope, kind, name, *rest = ch
        values = {"initial": None, "min": None, "max": None}
        hidden = ordered = in_play = bookkeeping = False
        for r in rest:
            if r is None:
                continue
            if r[0] == "visibility":
                hidden = hidden or r[1] == "hidden"
                ordered = ordered or r[1] == "ordered"
                in_play = in_play or r[1] == "in-play"
                bookkeeping = bookkeeping or r[1] == "bookkeeping"
            else:
                values[r[0]] = r[1]
        return A.StateField(span, scope or "game", kind, str(name), values["initial"], values["min"],
                            values["max"], hidden, ordered, in_play, bookkeeping)

    # -- cards
    def t_card_type(self, span, ch):
        return A.CardType(span, str(ch[0]), tuple(ch[1:]))

    def t_field_decl(self, span, ch):
        return A.FieldDecl(span, str(ch[0]), ch[1], ch[2], ch[3] is not None)

    def t_card(self, span, ch):
        title, type_, copies, *items = ch
        fields = tuple(i for i in items if isinstance(i, A.CardField))
        abilities = tuple(i for i in items if isinstance(i, A.Ability))
        return A.CardDefinition(span, title, str(type_), self.number(copies) if copies is not None else 1, fields, abilities)

    def t_card_field(self, span, ch):
        return A.CardField(span, str(ch[0]), ch[1])

    def t_ability(self, span, ch):
        name, kind, timing, block = ch
        if kind is not None and not unquote(str(kind)).strip():
            raise SourceError([Diagnostic(
                "syntax", "E004", "this ability's kind is empty", self.sp(kind),
                hint="name its kind (\"action\", \"reaction\", \"When Revealed\"...) or leave the "
                     "quotes out: an ability without a kind is initiated by its name")])
        return A.Ability(span, name, unquote(str(kind)) if kind else "", timing, block)

    def t_timing(self, span, ch):
        return ch[0]

    def t_dice(self, span, ch):
        return A.Dice(span, str(ch[0]), tuple(str(c) for c in ch[1:]))

    def t_deck(self, span, ch):
        return A.Deck(span, str(ch[0]), tuple(ch[1:]))

    def t_deck_entry(self, span, ch):
        return (self.number(ch[0]), ch[1])

    def t_board(self, span, ch):
        return A.BoardDrawing(span, str(ch[0]), unquote_lines(ch[1]))

    # -- rules
    def t_outside(self, span, ch):
        return True

    def t_rule(self, span, ch):
        rule_id, title, outside, *items = ch
        rid = str(rule_id)
        docs, errata, actions, values, triggers, checks, body = [], [], [], [], [], [], []
        for item in items:
            if isinstance(item, A.Doc):
                docs.append(item)
            elif isinstance(item, A.Erratum):
                errata.append(item)
            elif isinstance(item, A.Action):
                actions.append(_with_rule(item, rid))
            elif isinstance(item, A.Value):
                values.append(_with_rule(item, rid))
            elif isinstance(item, A.Trigger):
                triggers.append(_with_rule(item, rid))
            elif isinstance(item, A.Check):
                checks.append(_with_rule(item, rid))
            else:
                body.append(item)
        return A.Rule(span, rid, title, bool(outside), tuple(docs), tuple(errata), tuple(actions),
                      tuple(values), tuple(triggers), tuple(checks), tuple(body), self.sp(rule_id))

    def t_text_doc(self, span, ch):
        return A.Doc(span, "text", ch[0])

    def t_note_doc(self, span, ch):
        return A.Doc(span, "note", ch[0])

    def t_example_doc(self, span, ch):
        return A.Doc(span, "example", ch[0])

    def t_erratum(self, span, ch):
        return A.Erratum(span, str(ch[0]), ch[1], ch[2], ch[3])

    def t_erratum_on(self, span, ch):
        return A.Erratum(span, str(ch[0]), ch[1], ch[3], ch[4], str(ch[2]), self.sp(ch[2]))

    # -- definitions
    def t_action(self, span, ch):
        name, label, actor, *rest = ch
        block = rest[-1]
        cite = rest[-2]
        params = tuple(p for p in rest[:-2] if p is not None)
        return A.Action(span, str(name), label, str(actor), params, str(cite) if cite else "", block)

    def t_param(self, span, ch):
        return A.Param(span, str(ch[0]), ch[1], ch[2])

    def t_value(self, span, ch):
        name, *rest = ch
        body = rest[-1]
        params = tuple(str(p) for p in rest[:-1] if p is not None)
        return A.Value(span, str(name), params, body)

    def t_trigger(self, span, ch):
        event, var, iterable, block = ch
        return A.Trigger(span, event, str(var) if var else "", iterable, block)

    def t_check(self, span, ch):
        condition, var, iterable, block = ch
        return A.Check(span, condition, str(var) if var else "", iterable, block)

    def t_begin_event(self, span, ch):
        kind, name = ch[0]
        return A.Event(span, "begin", kind, name)

    def t_end_event(self, span, ch):
        kind, name = ch[0]
        return A.Event(span, "end", kind, name)

    def t_named_event(self, span, ch):
        return A.Event(span, "named", "", str(ch[0]), tuple(str(c) for c in ch[1:] if c is not None))

    def t_phase_milestone(self, span, ch):
        return ("phase", str(ch[0]))

    def t_round_milestone(self, span, ch):
        return ("round", "")

    def t_turn_milestone(self, span, ch):
        return ("turn", "")

    def t_game_milestone(self, span, ch):
        return ("game", "")

    def t_flow(self, span, ch):
        return A.Flow(span, ch[0])

    # -- statements
    def t_block(self, span, ch):
        return tuple(ch)

    def t_let(self, span, ch):
        return A.Let(span, str(ch[0]), ch[1])

    def t_set(self, span, ch):
        return A.Set(span, ch[0], ch[1])

    def t_clear(self, span, ch):
        return A.Set(span, ch[0], None)

    def t_increase(self, span, ch):
        return A.Change(span, ch[0], ch[1], 1)

    def t_decrease(self, span, ch):
        return A.Change(span, ch[0], ch[1], -1)

    def t_transfer(self, span, ch):
        return A.Transfer(span, ch[0], ch[1], ch[2])

    def t_move(self, span, ch):
        return A.Move(span, ch[0], ch[1], ch[2] or "top")

    def t_at_place(self, span, ch):
        return ch[0]

    def t_draw(self, span, ch):
        return A.Draw(span, ch[0], ch[1], ch[2])

    def t_create(self, span, ch):
        return A.Create(span, ch[0], ch[1])

    def t_shuffle(self, span, ch):
        return A.Shuffle(span, ch[0])

    def t_reveal(self, span, ch):
        return A.Reveal(span, ch[0])

    def t_conceal(self, span, ch):
        return A.Conceal(span, ch[0])

    def t_emit(self, span, ch):
        return A.Emit(span, str(ch[0]), tuple(c for c in ch[1:] if c is not None))

    def t_begin(self, span, ch):
        return A.Milestone(span, "begin", ch[0][0], ch[0][1])

    def t_end(self, span, ch):
        return A.Milestone(span, "end", ch[0][0], ch[0][1])

    def t_if(self, span, ch):
        condition, body, *rest = ch
        otherwise = rest[-1] if rest and rest[-1] is not None and rest[-1][0] == "else" else None
        elifs = [r for r in rest if r is not None and r[0] == "elif"]
        branches = ((condition, body),) + tuple((e[1], e[2]) for e in elifs)
        return A.If(span, branches, otherwise[1] if otherwise else ())

    def t_elif(self, span, ch):
        return ("elif", ch[0], ch[1])

    def t_else(self, span, ch):
        return ("else", ch[0])

    def t_for_each(self, span, ch):
        return A.ForEach(span, str(ch[0]), ch[1], ch[2], False)

    def t_simultaneously(self, span, ch):
        return A.ForEach(span, str(ch[0]), ch[1], ch[2], True)

    def t_repeat(self, span, ch):
        return A.Repeat(span, ch[0], ch[1])

    def t_while(self, span, ch):
        return A.While(span, ch[0], ch[1])

    def t_goto(self, span, ch):
        return A.Goto(span, ch[0], str(ch[1]))

    def t_skip(self, span, ch):
        return A.Skip(span)

    def t_run(self, span, ch):
        return A.Run(span, str(ch[0]))

    def t_choose(self, span, ch):
        chooser, var, options, hidden, prompt = ch
        return A.Choose(span, chooser, str(var), options, hidden is not None, prompt or "")

    def t_choose_number(self, span, ch):
        chooser, var, low, high, prompt = ch
        return A.ChooseNumber(span, chooser, str(var), low, high, prompt or "")

    def t_order(self, span, ch):
        chooser, var, options, prompt = ch
        return A.Order(span, chooser, str(var), options, prompt or "")

    def t_may(self, span, ch):
        chooser, prompt, body, otherwise = ch
        return A.May(span, chooser, prompt, body, otherwise[1] if otherwise else ())

    def t_pick(self, span, ch):
        return A.Pick(span, str(ch[0]), ch[1])

    def t_roll(self, span, ch):
        return A.Roll(span, ch[0], str(ch[1]), str(ch[2]))

    def t_window(self, span, ch):
        return A.Window(span, ch[0], ch[1], ch[2])

    def t_turn(self, span, ch):
        return A.Turn(span, ch[0], ch[1])

    def t_menu(self, span, ch):
        return tuple(ch)

    def t_menu_step(self, span, ch):
        return A.InAnyOrder(span, tuple(ch))

    def t_menu_part(self, span, ch):
        (count, n), *names = ch
        repeats = False
        if names and (names[-1] is None or getattr(names[-1], "type", "") == "REPEATS"):
            repeats = names[-1] is not None
            names = names[:-1]
        return A.MenuPart(span, count, n, tuple(str(x) for x in names), repeats)

    def t_count_n(self, span, ch):
        return ("n", self.number(ch[0]))

    def t_count_one(self, span, ch):
        return ("one", 1)

    def t_count_any(self, span, ch):
        return ("any", 0)

    def t_count_up_to(self, span, ch):
        return ("up-to", self.number(ch[0]))

    def t_perform(self, span, ch):
        name, *rest = ch
        actor = rest[-1]
        return A.Perform(span, str(name), tuple(c for c in rest[:-1] if c is not None), actor)

    def t_initiate(self, span, ch):
        return A.Initiate(span, ch[0], ch[1], ch[2])

    def t_require(self, span, ch):
        return A.Require(span, ch[0], str(ch[1]), ch[2], self.sp(ch[1]))

    def t_modify(self, span, ch):
        cite = ch[4] if len(ch) > 4 else None
        return A.Modify(span, ch[0], ch[1], ch[2], ch[3], str(cite) if cite is not None else "",
                        self.sp(cite) if cite is not None else None)

    def t_until_end(self, span, ch):
        return A.Duration(span, "until_end", ch[0][0], ch[0][1])

    def t_for_next(self, span, ch):
        return A.Duration(span, "for_next", ch[0][0], ch[0][1])

    def t_for_this(self, span, ch):
        return A.Duration(span, "for_this", ch[0][0], ch[0][1])

    def t_win(self, span, ch):
        return A.Win(span, ch[0])

    def t_eliminate(self, span, ch):
        return A.Eliminate(span, ch[0])

    def t_log(self, span, ch):
        return A.Log(span, ch[0])


def _with_rule(node, rule_id: str):
    from dataclasses import replace
    return replace(node, rule=rule_id)


class ScenarioBuilder(Builder):
    """The rules builder, plus the scenario language's own steps. A scenario that names a player twice,
    or gives its question, answer, players, format or set-up twice (the last would silently win), is
    refused with both places."""

    #: what a scenario gives once
    ONCE = ("question", "answer", "players", "format", "setup")

    def __init__(self, path: str):
        super().__init__(path)
        self.twice: list[Diagnostic] = []       # each thing given twice, reported when the file is built

    def named_once(self, ch, code: str, kind: str = "scenario") -> tuple:
        """The names of a ``players`` line (or of a log's ``winner`` line), each once; a name given again
        is noted (``twice``): a player cannot sit at two seats, nor win twice."""
        seen: dict = {}
        for token in ch:
            name = str(token)
            if name in seen:
                self.twice.append(Diagnostic(kind, code, f"player '{name}' is named twice", self.sp(token),
                                             related=(Related(seen[name], "first named here"),)))
            else:
                seen[name] = self.sp(token)
        return tuple(seen)

    def t_start(self, span, ch):
        if self.twice:
            raise SourceError(self.twice)
        return A.ScenarioFile(span, self.path, tuple(ch))

    def t_scenario(self, span, ch):
        title, *steps = ch
        fields = {"question": "", "answer": "", "cites": (), "tags": (), "players": (), "format": "",
                  "setup": ()}
        given: dict = {}
        script, boards, cards = [], [], []
        for step in steps:
            if isinstance(step, A.BoardDrawing):
                boards.append(step)
            elif isinstance(step, (A.CardDefinition, A.Deck)):
                cards.append(step)
            elif isinstance(step, tuple) and step and step[0] in fields:
                name, value, *where = step
                if name in given:
                    self.twice.append(Diagnostic("scenario", "C017", f"the scenario gives its {name} twice",
                                                 where[0], related=(Related(given[name], "first given here"),)))
                elif where:
                    given[name] = where[0]
                fields[name] = value
            else:
                script.append(step)
        return A.Scenario(span, title, fields["question"], fields["answer"], fields["cites"], fields["tags"],
                          fields["players"], fields["format"], fields["setup"], tuple(script), tuple(boards),
                          tuple(cards))

    def t_question(self, span, ch):
        return ("question", ch[0], span)

    def t_answer(self, span, ch):
        return ("answer", ch[0], span)

    def t_cites(self, span, ch):
        return ("cites", tuple((str(c), self.sp(c)) for c in ch))

    def t_tags(self, span, ch):
        return ("tags", tuple(str(c) for c in ch))

    def t_players(self, span, ch):
        return ("players", self.named_once(ch, "C016"), span)

    def t_format(self, span, ch):
        return ("format", str(ch[0]), span)

    def t_setup(self, span, ch):
        return ("setup", ch[0], span)

    def t_force_dice(self, span, ch):
        return A.Step(span, "force-dice", (str(ch[0]), tuple(str(c) for c in ch[1:])))

    def t_force_order(self, span, ch):
        return A.Step(span, "force-order", (ch[0], tuple(ch[1:])))

    def t_force_pick(self, span, ch):
        return A.Step(span, "force-pick", (ch[0],))

    def t_plays(self, span, ch):
        player, action, *args = ch
        return A.Step(span, "plays", (str(player), str(action), tuple(a for a in args if a is not None)))

    def t_tries(self, span, ch):
        player, action, *args = ch
        return A.Step(span, "tries", (str(player), str(action), tuple(a for a in args if a is not None)))

    def t_passes(self, span, ch):
        return A.Step(span, "passes", (str(ch[0]),))

    def t_chooses(self, span, ch):
        return A.Step(span, "chooses", (str(ch[0]), ch[1]))

    def t_answers(self, span, ch):
        return A.Step(span, "answers", (str(ch[0]), str(ch[1]) == "yes"))

    def t_orders(self, span, ch):
        return A.Step(span, "orders", (str(ch[0]), ch[1]))

    def t_run_step(self, span, ch):
        return A.Step(span, "run", (str(ch[0]), str(ch[1]) if ch[1] else ""))

    def t_play_game(self, span, ch):
        return A.Step(span, "play-game", ())

    def t_expect_true(self, span, ch):
        return A.Step(span, "expect-true", (ch[0],))

    def t_expect_winner(self, span, ch):
        return A.Step(span, "expect-winner", (ch[0],))

    def t_expect_no_winner(self, span, ch):
        return A.Step(span, "expect-no-winner", ())

    def t_expect_eliminated(self, span, ch):
        return A.Step(span, "expect-eliminated", (ch[0],))

    def t_expect_refused(self, span, ch):
        return A.Step(span, "expect-refused", (str(ch[0]), ch[1] or "", self.sp(ch[0])))

    def t_expect_trace(self, span, ch):
        return A.Step(span, "expect-trace", tuple(ch))

    def t_trace_item(self, span, ch):
        return (str(ch[0]), ch[1] or "", self.sp(ch[0]))

    def t_expect_offered(self, span, ch):
        return A.Step(span, "expect-offered", (str(ch[0]), tuple(ch[1:])))


class QuestionBuilder(ScenarioBuilder):
    """The scenario builder, for a question put to ``ludex ask`` (``question.lark``): whole scenarios
    as a scenario file holds them, or one scenario's parts and script written bare, which make one
    scenario without a title spanning the text (its nodes placed in the text as written)."""

    def t_start(self, span, ch):
        if ch and all(isinstance(c, A.Scenario) for c in ch):
            return super().t_start(span, ch)
        return super().t_start(span, [self.t_scenario(span, ["", *ch])])
