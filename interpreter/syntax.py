"""Parse: source text in, an AST ``Module`` (or positioned syntax diagnostics) out.

The one facade over Lark. The grammars in ``grammar/*.lark`` are loaded once per process (LALR with
the contextual lexer, cached on disk by Lark); parse trees are turned into AST nodes bottom-up
without recursion, so deep nesting cannot overflow the Python stack; Lark exceptions never escape.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast as A
from .diagnostics import SOURCES, Diagnostic, SourceError
from .resources import grammar_dir

#: Deeper nesting of braces, brackets or parentheses than this is refused with a positioned error.
MAX_NESTING = 64


@lru_cache(maxsize=None)
def parser(start: str = "rules") -> Lark:
    """The LALR parser for ``rules.lark`` or ``scenario.lark``, built once and cached."""
    path = grammar_dir() / f"{start}.lark"
    return Lark(
        path.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,
        import_paths=[str(grammar_dir())],
        source_path=str(path),
    )


# ------------------------------------------------------------------ mistakes table

# Common mistakes, each a list of snippets that fail the same way (Lark's ``match_examples``).
# A snippet is matched by the parser state it fails in, so the message fits every file failing there.
MISTAKES = {
    "a rule needs a title in quotes after its number, e.g. rule 3.2 \"Active player collects income\"": [
        'rule 3.2 {',
        'rule 3.2 Active',
    ],
    "a rule id is a number such as 3.2 or 500.1c, or a heading id such as start-phase.remove-day-counter": [
        'rule "Active player" {',
        'rule {',
    ],
    "a block needs its closing '}'": [
        'rule 1 "x" {',
        'rule 1 "x" { set a = 1',
        'flow { if a { set a = 1 }',
    ],
    "'cite' needs a rule id, e.g. cite 3.2": [
        'action a "a" by p { require x cite "3.2" "m" }',
        'action a "a" by p { require x cite }',
    ],
    "a requirement reads: require CONDITION cite RULE \"message\"": [
        'action a "a" by p { require x "m" }',
        'action a "a" by p { require x }',
        'action a "a" by p { require x cite 3.2 }',
    ],
    "a choice reads: PLAYER chooses NAME from OPTIONS [hidden] [\"prompt\"]": [
        'flow { p chooses from xs }',
        'flow { p chooses x xs }',
    ],
    "assignment is written 'set TARGET = VALUE'": [
        'flow { x = 1 }',
        'flow { p.gold = 1 }',
    ],
    "'==' compares; '=' only appears in 'let', 'set' and declarations": [
        'flow { if a = 1 { } }',
        'flow { let x = a = 1 }',
    ],
    "text is written in double quotes": [
        "rule 1 'x' {",
        "flow { log 'x' }",
    ],
    "a window reads: window \"name\" starting with PLAYER { MENU }": [
        'flow { window starting with p { one of a } }',
        'flow { window "w" { one of a } }',
        'flow { window "w" starting p { one of a } }',
    ],
    "a menu reads like 'exactly one of marshal, pass' or '2 of move, search repeats allowed'": [
        'flow { window "w" starting with p { marshal } }',
        'flow { turn of p { } }',
        'flow { turn of p { two of a } }',
    ],
    "a state entry reads: [player|game] counter|supply|zone|row|role|flag NAME [= VALUE] [min N] [max N]": [
        'state { gold }',
        'state { player gold }',
        'state { player counter }',
    ],
    "an erratum reads: erratum SOURCE \"version\" replaces \"old words\" with \"new words\"": [
        'rule 1 "x" { erratum "1.0" replaces "a" with "b" }',
        'rule 1 "x" { erratum faq "1.0" "a" with "b" }',
        'rule 1 "x" { erratum faq "1.0" replaces "a" "b" }',
    ],
    "go to another rule with 'return to 3.2', 'proceed to 3.4' or 'go to 3.2'": [
        'flow { return 3.2 }',
        'flow { goto 3.2 }',
        'flow { proceed 3.4 }',
    ],
    "an action reads: action NAME \"label\" by PLAYER (PARAM: TYPE from DOMAIN) { ... }": [
        'action marshal by p { }',
        'action marshal "m" (c: card) { }',
        'action "m" by p { }',
    ],
    "a modifier needs a duration: until end of round, for next round, for this phase": [
        'flow { modify x by 1 }',
        'flow { modify x by 1 until round }',
    ],
    "an 'else' needs a block or 'else if'": [
        'flow { if a { } else set a = 1 }',
    ],
    "a duration's milestone is round, turn, game or phase NAME": [
        'flow { modify x by 1 until end of phase }',
    ],
}


@lru_cache(maxsize=None)
def _examples(start: str):
    return {label: examples for label, examples in MISTAKES.items()}


# ------------------------------------------------------------------ entry points


def parse_rules(text: str, path: str = "<string>") -> A.Module:
    """Parse a rules file; raise ``SourceError`` with positioned diagnostics if it is malformed."""
    SOURCES.add(path, text)
    _check_nesting(text, path)
    try:
        tree = parser("rules").parse(text)
    except UnexpectedInput as exc:
        raise SourceError([_syntax_diagnostic(exc, text, path, "rules")]) from None
    return Builder(path).build(tree, A.Module)


def parse_rules_file(path: Path | str) -> A.Module:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        span = A.Span(str(path), 1, 1, 1, 2)
        raise SourceError([Diagnostic("syntax", "E001", f"the file is not UTF-8 text ({exc.reason})", span)])
    return parse_rules(text, str(path))


def _check_nesting(text: str, path: str) -> None:
    """Refuse nesting deeper than MAX_NESTING before Lark and the compiler ever see it."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token[0] in "{[(":
            depth += 1
            if depth > MAX_NESTING:
                line = text.count("\n", 0, match.start()) + 1
                column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
                span = A.Span(path, line, column, line, column + 1)
                raise SourceError([Diagnostic(
                    "syntax", "E010", f"nesting is deeper than {MAX_NESTING} levels", span,
                    hint="split the procedure into rules and use 'run' or named values")])
        elif token[0] in "}])":
            depth = max(0, depth - 1)


_BRACKETS = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|[{}\[\]()]')


# ------------------------------------------------------------------ syntax errors

_TOKEN_WORDS = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "DOT": "'.'", "EQUAL": "'='", "NAME": "a name",
    "INT": "a number", "STRING": "text in quotes", "LONG_STRING": "text in quotes",
    "RULE_ID": "a rule id", "COMPARE": "a comparison", "ADD": "'+' or '-'", "MUL": "'*', '/' or '%'",
    "MINUS": "'-'", "$END": "the end of the file", "REPEATS": "'repeats allowed'",
}


def _describe(token_type: str) -> str:
    if token_type in _TOKEN_WORDS:
        return _TOKEN_WORDS[token_type]
    name = token_type.split("__")[-1]
    if name.startswith("__ANON"):
        return name
    return f"'{name.lower().replace('_', ' ')}'"


def _expected_words(expected) -> str:
    words = sorted({_describe(t) for t in expected if not t.startswith("__")})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str, start: str) -> Diagnostic:
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        found = "the end of the file"
        width = 1
    elif isinstance(exc, UnexpectedCharacters):
        found = repr(text[exc.pos_in_stream]) if exc.pos_in_stream < len(text) else "the end of the file"
        width = 1
    else:
        token = exc.token
        found = f"'{token}'" if token.type not in ("STRING", "LONG_STRING") else "text in quotes"
        if token.type == "NAME":
            found = f"the name '{token}'"
        width = max(1, len(str(token))) if "\n" not in str(token) else 1
    span = A.Span(path, line, column, line, column + width)
    expected = _expected_words(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    label = None
    try:
        label = exc.match_examples(parser(start).parse, _examples(start), use_accepts=True)
    except Exception:  # match_examples re-parses snippets; a snippet's own failure is not the user's
        label = None
    if isinstance(exc, UnexpectedCharacters):
        message = f"unexpected character {found}"
        if text[exc.pos_in_stream:exc.pos_in_stream + 1] == "'":
            label = "text is written in double quotes"
    else:
        message = f"unexpected {found}"
    return Diagnostic("syntax", "E002", message, span, rule=_enclosing_rule(text, line),
                      expected=expected, hint=label or "")


_RULE_HEAD = re.compile(r'^\s*rule\s+([0-9A-Za-z.\-]+)', re.M)


def _enclosing_rule(text: str, line: int) -> str:
    """The id of the rule block a line sits in, read from the text (the tree may not exist)."""
    offset = 0
    for _ in range(line - 1):
        nl = text.find("\n", offset)
        if nl < 0:
            break
        offset = nl + 1
    found = ""
    for match in _RULE_HEAD.finditer(text, 0, offset + len(text[offset:].split("\n", 1)[0])):
        found = match.group(1)
    return found


# ------------------------------------------------------------------ tree -> AST


def _span(path: str, meta_or_token) -> A.Span:
    m = meta_or_token
    if isinstance(m, Token):
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


def _dedent(body: str) -> str:
    """Long text: lines are joined into paragraphs; blank lines separate paragraphs."""
    paragraphs = re.split(r"\n\s*\n", body.strip())
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines() if line.strip()) for p in paragraphs)


class Builder:
    """Builds AST nodes from a Lark tree, bottom-up and without recursion."""

    def __init__(self, path: str):
        self.path = path

    def build(self, tree: Tree, expect=None):
        built: dict[int, object] = {}
        for subtree in tree.iter_subtrees():
            children = [built[id(c)] if isinstance(c, Tree) else c for c in subtree.children]
            name = subtree.data.split("__")[-1] if isinstance(subtree.data, str) else subtree.data.value
            handler = getattr(self, "t_" + name.rstrip("_"), None)
            span = _span(self.path, subtree.meta)
            if handler is None:
                raise AssertionError(f"no builder for grammar rule {name}")
            built[id(subtree)] = handler(span, children)
        return built[id(tree)]

    # -- helpers
    def sp(self, token) -> A.Span:
        return _span(self.path, token)

    # -- module
    def t_start(self, span, ch):
        items = []
        for item in ch:
            items.append(item)
        return A.Module(span, self.path, tuple(items))

    # -- expressions
    def t_number(self, span, ch):
        return A.Number(span, int(ch[0]))

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
        return A.Attr(span, ch[0], str(ch[1]))

    def t_index(self, span, ch):
        return A.Index(span, ch[0], ch[1])

    def t_call(self, span, ch):
        return A.Call(span, str(ch[0]), tuple(c for c in ch[1:] if c is not None))

    def t_listexpr(self, span, ch):
        return A.ListExpr(span, tuple(c for c in ch if c is not None))

    def t_neg(self, span, ch):
        return A.Unary(span, "-", ch[0])

    def t_not(self, span, ch):
        return A.Unary(span, "not", ch[0])

    def t_binary(self, span, ch):
        return A.Binary(span, str(ch[1]), ch[0], ch[2])

    t_compare = t_binary

    def t_member(self, span, ch):
        return A.Binary(span, "in", ch[0], ch[1])

    def t_not_member(self, span, ch):
        return A.Binary(span, "not in", ch[0], ch[1])

    def t_and(self, span, ch):
        return A.Binary(span, "and", ch[0], ch[1])

    def t_or(self, span, ch):
        return A.Binary(span, "or", ch[0], ch[1])

    def t_is_none(self, span, ch):
        return A.IsNone(span, ch[0], False)

    def t_is_not_none(self, span, ch):
        return A.IsNone(span, ch[0], True)

    def t_ifexpr(self, span, ch):
        return A.IfExpr(span, ch[0], ch[1], ch[2])

    def t_quant(self, span, ch):
        return str(ch[0])

    t_rank = t_quant

    def t_quantified(self, span, ch):
        return A.Quantified(span, ch[0], str(ch[1]), ch[2], ch[3])

    def t_ranked(self, span, ch):
        return A.Ranked(span, ch[0], str(ch[1]), ch[2], ch[3])

    # -- game header
    def t_game(self, span, ch):
        key, title, *fields = ch
        sources, formats = [], ()
        low = high = 2
        excerpt = ("", "", None)
        for f in fields:
            if isinstance(f, A.Source):
                sources.append(f)
            elif f[0] == "players":
                low, high = f[1], f[2]
            elif f[0] == "formats":
                formats = f[1]
            elif f[0] == "excerpt":
                excerpt = f[1:]
        return A.Game(span, str(key), title, tuple(sources), low, high, formats, excerpt[0], excerpt[1],
                      excerpt[2])

    def t_source_decl(self, span, ch):
        return A.Source(span, str(ch[0]), ch[1], ch[2], ch[3] or "")

    def t_players_decl(self, span, ch):
        return ("players", int(ch[0]), int(ch[1]))

    def t_formats_decl(self, span, ch):
        return ("formats", tuple(str(c) for c in ch))

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
        hidden = ordered = False
        for r in rest:
            if r is None:
                continue
            if r[0] == "visibility":
                hidden = hidden or r[1] == "hidden"
                ordered = ordered or r[1] == "ordered"
            else:
                values[r[0]] = r[1]
        return A.StateField(span, scope or "game", kind, str(name), values["initial"], values["min"],
                            values["max"], hidden, ordered)

    # -- cards
    def t_card_type(self, span, ch):
        return A.CardType(span, str(ch[0]), tuple(ch[1:]))

    def t_field_decl(self, span, ch):
        return A.FieldDecl(span, str(ch[0]), ch[1], ch[2])

    def t_card(self, span, ch):
        title, type_, copies, *items = ch
        fields = tuple(i for i in items if isinstance(i, A.CardField))
        abilities = tuple(i for i in items if isinstance(i, A.Ability))
        return A.Card(span, title, str(type_), int(copies) if copies is not None else 1, fields, abilities)

    def t_card_field(self, span, ch):
        return A.CardField(span, str(ch[0]), ch[1])

    def t_ability(self, span, ch):
        name, kind, timing, block = ch
        return A.Ability(span, name, unquote(str(kind)) if kind else "", timing, block)

    def t_timing(self, span, ch):
        return ch[0]

    def t_dice(self, span, ch):
        return A.Dice(span, str(ch[0]), tuple(str(c) for c in ch[1:]))

    def t_deck(self, span, ch):
        return A.Deck(span, str(ch[0]), tuple(ch[1:]))

    def t_deck_entry(self, span, ch):
        return (int(ch[0]), ch[1])

    def t_board(self, span, ch):
        return A.Board(span, str(ch[0]), ch[1])

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

    def t_menu_part(self, span, ch):
        (count, n), *names = ch
        repeats = False
        if names and (names[-1] is None or getattr(names[-1], "type", "") == "REPEATS"):
            repeats = names[-1] is not None
            names = names[:-1]
        return A.MenuPart(span, count, n, tuple(str(x) for x in names), repeats)

    def t_count_n(self, span, ch):
        return ("n", int(ch[0]))

    def t_count_one(self, span, ch):
        return ("one", 1)

    def t_count_any(self, span, ch):
        return ("any", 0)

    def t_count_up_to(self, span, ch):
        return ("up-to", int(ch[0]))

    def t_perform(self, span, ch):
        name, *rest = ch
        actor = rest[-1]
        return A.Perform(span, str(name), tuple(c for c in rest[:-1] if c is not None), actor)

    def t_initiate(self, span, ch):
        return A.Initiate(span, ch[0], ch[1], ch[2])

    def t_require(self, span, ch):
        return A.Require(span, ch[0], str(ch[1]), ch[2], self.sp(ch[1]))

    def t_modify(self, span, ch):
        return A.Modify(span, ch[0], ch[1], ch[2], ch[3])

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
