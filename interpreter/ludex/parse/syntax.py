"""Parse: source text in, an AST ``Module`` (or positioned syntax diagnostics) out.

The one facade over Lark. The grammars in ``grammar/*.lark`` are analysed by Lark (LALR with the
contextual lexer) once per grammar version and their tables kept in the user's cache folder; the
tables run without Lark (``lalr.py``), the builder's methods making AST nodes at each reduction,
without recursion, so deep nesting cannot overflow the Python stack. Lark itself is loaded only for
a malformed text: its exception is what the diagnostic is made from. Lark exceptions never escape.
"""

from __future__ import annotations

import gc
import re
import sys
import zlib
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import BOM, SOURCES, Diagnostic, Related, SourceError, read_source
from ..resources import cache_dir, grammar_dir, prune
from . import ast as A
from . import tables as lalr

if TYPE_CHECKING:
    from lark import Lark, Tree
    from lark.exceptions import UnexpectedInput

#: Deeper nesting of braces, brackets or parentheses than this is refused with a positioned error;
#: so is an expression nesting deeper than this without brackets (``1 + 1 + ...``, ``not not ...``,
#: ``a.b.c...``): every later pass (checks, compiler, the Python written from it, the formatter)
#: walks an expression as it nests, and Python refuses source nesting some 200 brackets deep.
MAX_NESTING = 64

#: The most digits a number may have. Numbers in rules, scenarios and logs are counts, ids and
#: seeds: 18 digits hold any of them and still fit a 64-bit integer, so whatever reads the JSON
#: output can hold them too. A longer one is a slip of the keyboard (and from 4300 digits on Python
#: will not even read it).
MAX_DIGITS = 18


@lru_cache(maxsize=None)
def parser(start: str = "rules") -> Lark:
    """The Lark LALR parser for ``rules.lark``, ``scenario.lark`` or ``log.lark``, built once and
    cached in the cache folder (where Lark keeps its caches if that cannot be made)."""
    from lark import Lark
    path = grammar_dir() / f"{start}.lark"
    folder = cache_dir()
    name = f"lark-{start}-{zlib.crc32(_grammar(start)):08x}-py{sys.version_info[0]}{sys.version_info[1]}.cache"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        cache = str(folder / name)
    except OSError:
        cache = True
    lark = Lark(
        path.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=cache,
        import_paths=[str(grammar_dir())],
        source_path=str(path),
    )
    prune(folder, f"lark-{start}-*.cache")
    return lark


@lru_cache(maxsize=None)
def tables(start: str = "rules") -> lalr.Tables | None:
    """The parse tables of a grammar, from the cache folder or else from Lark's analysis (then
    written there). None if the grammar uses something the tables cannot reproduce: then every text
    is parsed by Lark."""
    return lalr.cached(cache_dir(), start, _grammar(start), lambda: lalr.extract(parser(start), _RAW_TEXT))


@lru_cache(maxsize=None)
def _grammar(start: str) -> bytes:
    """What a grammar's parser is made from: the grammar files, and which children reach the
    builder as source text."""
    material = [f"{start} {_RAW_TEXT!r}".encode()]
    for path in sorted(grammar_dir().glob("*.lark")):
        material += [path.name.encode(), path.read_bytes()]
    return b"\0".join(material)


# ------------------------------------------------------------------ mistakes table

# Common mistakes, each a list of snippets that fail the same way (as Lark's ``match_examples``).
# A snippet is matched by the parser state it fails in, so the message fits every file failing there.
# (A missing closing bracket needs no entry: the diagnostic finds the bracket left open.)
ASSIGNMENT = "assignment is written 'set TARGET = VALUE'"

MISTAKES = {
    "a rule needs a title in quotes after its number, e.g. rule 3.2 \"Active player collects income\"": [
        'rule 3.2 {',
        'rule 3.2 Active',
    ],
    "a rule id is a number such as 3.2 or 500.1c, or a heading id such as start-phase.remove-day-counter": [
        'rule "Active player" {',
        'rule {',
    ],
    "'cite' needs a rule id, e.g. cite 3.2": [
        'action a "a" by p { require x cite "3.2" "m" }',
        'action a "a" by p { require x cite }',
    ],
    "a requirement reads: require CONDITION cite RULE \"message\"": [
        'action a "a" by p { require x "m" }',
        'action a "a" by p { require x == y "m" }',
        'action a "a" by p { require x }',
        'action a "a" by p { require x cite 3.2 }',
    ],
    "a choice reads: PLAYER chooses NAME from OPTIONS [hidden] [\"prompt\"]": [
        'flow { p chooses from xs }',
        'flow { p chooses x xs }',
    ],
    ASSIGNMENT: [
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
        'rule 1 "x" { modify x by 1 }',
        'flow { modify x by 1 until round }',
    ],
    "an 'else' needs a block or 'else if'": [
        'flow { if a { } else set a = 1 }',
    ],
    "new cards are written 'create CARDS into ZONE' ('x in y' asks whether x is in y)": [
        'flow { create x in y }',
        'flow { create x in y log "a" }',
        'flow { create x y }',
    ],
    "a value without parameters has no parentheses: value NAME = EXPRESSION, read as NAME": [
        'value v() = 1',
    ],
    "a duration's milestone is round, turn, game or phase NAME": [
        'flow { modify x by 1 until end of phase }',
    ],
}


#: A scenario's line that begins with a word no keyword is: a player's line (with a misspelt keyword
#: instead, ``expct winner ann``, the keyword is suggested: ``_misspelled_step``).
PLAYERS_LINE = ("a line starting with a name is a player's: ann plays ..., ann passes, ann chooses ...; the "
                "words a refusal expects are in quotes: expect refused 3.2 \"Only the active player ...\"")
#: The words that begin a scenario's lines (but a player's).
SCENARIO_WORDS = ("question", "answer", "cite", "tags", "players", "format", "setup", "board", "force",
                  "run", "play", "expect")

#: The same for scenario files: the mistakes a judge makes writing a scenario's lines.
SCENARIO_MISTAKES = {
    "'==' compares: write expect ann.gold == 5 ('=' only appears in a set-up's 'set' and 'let')": [
        'scenario "s" { expect a = 1 }',
        'scenario "s" { expect a.b = 1 }',
    ],
    "expect winner names the winners: expect winner ann, expect winner [ann, bob]": [
        'scenario "s" { expect winner = a }',
    ],
    ASSIGNMENT: [
        'scenario "s" { setup { x = 1 } }',
        'scenario "s" { setup { p.gold = 1 } }',
    ],
    "a play reads: PLAYER plays ACTION(ARGUMENTS), e.g. ann plays marshal(\"Hedge Knight\")": [
        'scenario "s" { ann plays marshal "x" }',
    ],
    "'passes' takes no brackets: ann passes": [
        'scenario "s" { ann passes() }',
    ],
    "a run of several rules reads: run 3.1 to 3.4": [
        'scenario "s" { run 3.1 3.4 }',
    ],
    PLAYERS_LINE: [
        'scenario "s" { expect refused 1 Only }',
        'scenario "s" { expect refused 1 Only the active player }',
    ],
}

_MISTAKES_OF = {"rules": MISTAKES, "scenario": SCENARIO_MISTAKES}


@lru_cache(maxsize=None)
def _mistake_states(start: str) -> tuple:
    """How each MISTAKES snippet fails: (label, LR state, accepted terminals, token), computed once.

    Lark's own ``match_examples`` compares whole parser stacks, so a snippet written at the top level
    never matched the same mistake made one block deeper; here only the LR state and what it accepts
    are compared. Rules files and scenario files each have their table; a log gets no labels."""
    from lark.exceptions import UnexpectedInput
    failures = []
    for label, snippets in _MISTAKES_OF.get(start, {}).items():
        for snippet in snippets:
            try:
                parser(start).parse(snippet)
            except UnexpectedInput as exc:
                failures.append((label, _lr_state(exc), _accepts(exc), _token_of(exc)))
    return tuple(failures)


def _lr_state(exc: UnexpectedInput):
    return getattr(exc.state, "position", exc.state)


def _accepts(exc: UnexpectedInput) -> frozenset:
    """The terminals the parser would have taken where it failed (after any reductions)."""
    interactive = getattr(exc, "interactive_parser", None)
    if interactive is not None:
        try:
            return frozenset(interactive.accepts())
        except Exception:  # accepts() replays the parser; if it cannot, fall back to the table
            pass
    return frozenset(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())


def _token_of(exc: UnexpectedInput):
    token = getattr(exc, "token", None)
    return (token.type, str(token)) if token is not None else None


def _match_mistake(exc: UnexpectedInput, accepts: frozenset, start: str) -> str:
    """The MISTAKES label of a snippet failing in the same state: one failing on the same token
    first, else the first failing in that state."""
    state, token = _lr_state(exc), _token_of(exc)
    candidate = ""
    for label, s, a, t in _mistake_states(start):
        if s != state or a != accepts:
            continue
        if token is not None and t == token:
            return label
        candidate = candidate or label
    return candidate


# ------------------------------------------------------------------ entry points


def parse_with(start: str, builder, text: str, path: str):
    """Parse ``text`` with grammar ``start`` (rules, scenario, log) and build it with ``builder``;
    raise ``SourceError`` with positioned diagnostics if it is malformed. A byte-order mark before the
    text is skipped (Windows editors write one), so columns on line 1 count as an editor shows them."""
    if text.startswith(BOM):
        text = text[1:]
    SOURCES.add(path, text)
    _check_nesting(text, path)
    fast = tables(start)
    if fast is not None:
        # A parse makes a great many objects and frees few: the collector would only walk them.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return fast.parse(text, builder(path), partial(A.Span, path))
        except lalr.Unparsed:
            pass                        # malformed: Lark says where and what it expected
        finally:
            if collecting:
                gc.enable()
    from lark.exceptions import UnexpectedInput
    try:
        tree = parser(start).parse(text)
    except UnexpectedInput as exc:
        raise SourceError([_syntax_diagnostic(exc, text, path, start)]) from None
    return builder(path).build(tree)


def parse_rules(text: str, path: str = "<string>") -> A.Module:
    """Parse a rules file; raise ``SourceError`` with positioned diagnostics if it is malformed."""
    return parse_with("rules", Builder, text, path)


def parse_rules_file(path: Path | str) -> A.Module:
    return parse_rules(read_source(path), str(path))


def _check_nesting(text: str, path: str) -> None:
    """Refuse nesting deeper than MAX_NESTING before Lark and the compiler ever see it."""
    for offset, open_brackets in _bracket_depths(text):
        if len(open_brackets) > MAX_NESTING:
            line, column = _line_column(text, offset)
            span = A.Span(path, line, column, line, column + 1)
            raise SourceError([Diagnostic(
                "syntax", "E010", f"nesting is deeper than {MAX_NESTING} levels", span,
                hint="split the procedure into rules and use 'run' or named values")])


def _bracket_depths(text: str, end: int | None = None):
    """Each bracket outside text and comments, up to ``end``: its offset and the offsets of the
    brackets open after it (the list is shared and changes as the scan goes on)."""
    open_brackets: list[int] = []
    for match in _BRACKETS.finditer(text, 0, len(text) if end is None else end):
        token = match.group()
        if token[0] in "{[(":
            open_brackets.append(match.start())
            yield match.start(), open_brackets
        elif token[0] in "}])":
            if open_brackets:
                open_brackets.pop()
            yield match.start(), open_brackets


def _innermost_open(text: str, end: int):
    """The offset of the innermost bracket still open at ``end``, or None."""
    still_open: list[int] = []
    for _, open_brackets in _bracket_depths(text, end):
        still_open = open_brackets
    return still_open[-1] if still_open else None


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_BRACKETS = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|[{}\[\]()]')


# ------------------------------------------------------------------ syntax errors

_TOKEN_WORDS = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "DOT": "'.'", "EQUAL": "'='", "NAME": "a name",
    "INT": "a number", "STRING": "text in quotes", "LONG_STRING": "text in quotes",
    "RULE_ID": "a rule id", "COMPARE": "a comparison", "ADD": "'+' or '-'", "MUL": "'*', '/' or '%'",
    "MINUS": "'-'", "$END": "end of file", "REPEATS": "'repeats allowed'", "YESNO": "'yes' or 'no'",
    "COMMENT": "a comment", "WS": "a space",
}

#: The words a statement starts with (``go`` stands for ``go to``): a misspelling is suggested from these.
STATEMENT_WORDS = {
    "let": "let", "set": "set", "increase": "increase", "decrease": "decrease", "clear": "clear",
    "transfer": "transfer", "move": "move", "draw": "draw", "create": "create", "shuffle": "shuffle",
    "reveal": "reveal", "conceal": "conceal", "emit": "emit", "begin": "begin", "end": "end", "if": "if", "for": "for each",
    "simultaneously": "simultaneously for each", "repeat": "repeat", "while": "while",
    "return": "return to", "proceed": "proceed to", "go": "go to", "skip": "skip this step",
    "run": "run", "pick": "pick", "roll": "roll", "window": "window", "turn": "turn of",
    "perform": "perform", "initiate": "initiate", "require": "require", "modify": "modify", "win": "win",
    "eliminate": "eliminate", "log": "log",
}
# Terminals that start an expression; listed as one phrase when all of them would do.
_EXPRESSION_START = {"INT", "NAME", "STRING", "LONG_STRING", "LPAR", "LSQB", "TRUE", "FALSE", "NONE",
                     "THIS", "HIGHEST", "LOWEST", "MINUS", "NOT", "EVERY", "ANY", "THOSE", "COUNT", "TOTAL", "IF"}
_STATEMENT_START = {word.upper() for word in STATEMENT_WORDS}
_CLOSERS = {"{": "}", "[": "]", "(": ")"}
_TOKEN_OF_CLOSER = {"}": "RBRACE", "]": "RSQB", ")": "RPAR"}
# Items that only stand at the top of a file: meeting one inside a block means a '}' is missing.
_TOP_LEVEL_WORDS = {"rule", "game", "state", "card", "flow", "deck", "dice", "board"}
# Characters that are never part of the language, with what the writer most likely meant.
_CHARACTER_HINTS = {
    "'": "text is written in double quotes",
    '"': 'text in quotes ends on the line it starts on; use """...""" for text over several lines',
    ";": "statements need no separator: remove the ';'",
}


def _bare(token_type: str) -> str:
    """A terminal's name without the grammar it was imported from ('rules__INT' is 'INT')."""
    return token_type if token_type.startswith("__") else token_type.split("__")[-1]


def _describe(token_type: str, start: str = "rules") -> str:
    """A terminal in words: its phrase, or a keyword's spelling; never the grammar's own name for it
    (tests/test_cli.py holds every terminal of every grammar to this)."""
    name = _bare(token_type)
    if name in _TOKEN_WORDS:
        return _TOKEN_WORDS[name]
    word = _keywords(start).get(token_type)
    if word:
        return f"'{word}'"
    if token_type.startswith("__"):          # an anonymous terminal that is not a keyword
        return ""
    return f"'{name.lower().replace('_', ' ')}'"


@lru_cache(maxsize=None)
def _keywords(start: str) -> dict:
    """The spelling of each keyword terminal, by terminal name."""
    return {t.name: t.pattern.value for t in parser(start).terminals if t.pattern.type == "str"}


def _expected_words(expected, start: str = "rules") -> str:
    spelled = {_bare(str(t)): str(t) for t in expected}
    expected = set(spelled)
    words = []
    if len(expected & _STATEMENT_START) > len(_STATEMENT_START) // 2:
        expected -= _STATEMENT_START | _EXPRESSION_START
        words.append("a statement")
    elif {"INT", "NAME", "STRING", "LPAR"} <= expected:
        expected -= _EXPRESSION_START
        words.append("an expression")
    words += sorted({_describe(spelled[t], start) for t in expected} - {""})
    if len(words) > 20:
        words = words[:20] + ["..."]
    return ", ".join(words)


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str, start: str) -> Diagnostic:
    from lark import Token
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    token = getattr(exc, "token", None)
    at_end = isinstance(exc, UnexpectedEOF) or (token is not None and token.type == "$END")
    accepts = _accepts(exc)
    label = _match_mistake(exc, accepts, start)
    related = ()
    if at_end:
        # (lines end at "\n" alone, as the parser counts them; a "\r" before it is not on the line)
        lines = text.split("\n")
        if len(lines) > 1 and lines[-1] == "":
            lines.pop()
        last = lines[-1][:-1] if lines[-1].endswith("\r") else lines[-1]
        line, column = len(lines), len(last) + 1
        message = "unexpected end of file"
        width = 1
        offset = len(text)
    elif isinstance(exc, UnexpectedCharacters):
        offset = exc.pos_in_stream
        character = text[offset:offset + 1]
        message = f"unexpected character {character!r}"
        width = 1
        label = _CHARACTER_HINTS.get(character, label)
    else:
        offset = token.start_pos if token.start_pos is not None else len(text)
        word = _word_before(text, offset) if label == ASSIGNMENT else None
        if word and word.group(1) in _TOP_LEVEL_WORDS:
            # 'rule 2 ...' inside a block reads as a statement beginning with the name 'rule':
            # the mistake is the '}' missing before it, so report the word itself.
            token = Token("NAME", word.group(1), start_pos=word.start(1))
            offset = word.start(1)
            line, column = _line_column(text, offset)
            accepts = accepts | {"RBRACE"}
        if token.type in ("STRING", "LONG_STRING"):
            found = "text in quotes"
        elif token.type == "NAME" and str(token) not in _TOP_LEVEL_WORDS:
            found = f"the name '{token}'"
        else:
            found = f"'{token}'"
        message = f"unexpected {found}"
        width = max(1, len(str(token))) if "\n" not in str(token) else 1
        if label == ASSIGNMENT and str(token) != "=":
            label = _misspelled_statement(text, offset)
        elif label == PLAYERS_LINE:
            label = _misspelled_step(text, offset) or label
    # A bracket that was never closed: say where it opened, at the end of the file, at the next
    # top-level item, or at a closing bracket of another kind.
    closing = str(token) if token is not None and not at_end else ""
    if at_end or closing in _TOP_LEVEL_WORDS or closing in _CLOSERS.values():
        opened = _innermost_open(text, offset)
        bracket = text[opened] if opened is not None else ""
        closer = _CLOSERS.get(bracket, "")
        # ('game' also begins a state entry and ends 'end game': only where the closer would do)
        if closer and closer != closing and (closing not in _TOP_LEVEL_WORDS or
                                             _TOKEN_OF_CLOSER[closer] in accepts):
            opened_line, opened_column = _line_column(text, opened)
            related = (Related(A.Span(path, opened_line, opened_column, opened_line, opened_column + 1),
                               f"this '{bracket}' is never closed"),)
            label = f"every '{bracket}' needs its closing '{closer}'"
            if closing in _TOP_LEVEL_WORDS:
                label += f" before the next {closing} begins"
    span = A.Span(path, line, column, line, column + width)
    return Diagnostic("syntax", "E002", message, span, rule=_enclosing_rule(text, offset),
                      expected=_expected_words(accepts, start), related=related, hint=label or "")


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
    line, column = _line_column(text, match.start(1))
    return A.Span(path, line, column, line, column + len(match.group(1)))


#: Spaces, comments and closing brackets, then an operator: a word (``and``, ``every``) or a sign.
_OPERATOR = re.compile(r"(?:\s|#[^\n]*|\))*([a-z]+|[^\s#)])")


_WORD_BEFORE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*)\s*$")
_NAME_STARTS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_CHARS = _NAME_STARTS | frozenset("0123456789-")


def _word_before(text: str, offset: int):
    """The name (``draw``, ``first-player``) that ends the text before ``offset``, but for white space
    after it, as a match of ``_WORD_BEFORE`` (group 1 the name), or None: what
    ``_WORD_BEFORE.search(text, 0, offset)`` finds, in time linear in the name's length. (That search
    tries every start from the beginning of the text, each one reading on to the end of its run of
    letters: a file with a long run of letters anywhere before the error, in a comment say, took
    minutes to report it.)"""
    end = offset
    while end > 0 and text[end - 1].isspace():         # (\s, as str.isspace: Unicode white space)
        end -= 1
    start = end
    while start > 0 and text[start - 1] in _NAME_CHARS:
        start -= 1
    # The name begins after the last hyphen that cannot be inside one (one followed by no letter or
    # '_', or ending the run), at the first letter or '_' from there: the leftmost start the search
    # would have found.
    begin = start
    for at in range(start, end):
        if text[at] == "-" and (at + 1 == end or text[at + 1] not in _NAME_STARTS):
            begin = at + 1
    while begin < end and text[begin] not in _NAME_STARTS:
        begin += 1
    return _WORD_BEFORE.match(text, begin, offset) if begin < end else None


def _misspelled_statement(text: str, offset: int) -> str:
    """A statement began with a name that no keyword is: suggest the keyword it resembles."""
    match = _word_before(text, offset)
    if match:
        import difflib
        close = difflib.get_close_matches(match.group(1), STATEMENT_WORDS, n=1, cutoff=0.6)
        if close:
            return f"'{match.group(1)}' is not a keyword; did you mean '{STATEMENT_WORDS[close[0]]}'?"
    return ("a statement starts with a keyword such as set, let, if, for each, run or return to; "
            "assignment is written 'set TARGET = VALUE'")


_PLAYER_VERBS = ("plays", "passes", "tries", "chooses", "answers", "orders")
_PLAYERS_LINE = re.compile(r"^[ \t]*players[ \t]+([^\n#]*)", re.M)


def _misspelled_step(text: str, offset: int) -> str:
    """A scenario's line that does not parse: a misspelt player's verb (``ann plyas``) or a first word
    resembling a keyword (``expct``), not a declared player's name, suggested; or nothing."""
    line_start = text.rfind("\n", 0, offset) + 1
    match = re.match(r"[ \t]*([A-Za-z_][A-Za-z0-9_-]*)", text[line_start:offset])
    import difflib
    verb = re.match(r"[A-Za-z]+", text[offset:offset + 40])
    close = difflib.get_close_matches(verb.group(0), _PLAYER_VERBS, n=1, cutoff=0.6) if verb else []
    if close:                   # 'ann plyas marshal(...)': the player's verb misspelt
        return f"'{verb.group(0)}' is not a keyword; did you mean '{close[0]}'?"
    declared = [m.group(1) for m in _PLAYERS_LINE.finditer(text, 0, line_start)]
    if match and declared and match.group(1) in re.split(r"[\s,]+", declared[-1]):
        return ""               # a player of the scenario ('cate plyas ...'), not a misspelt 'cite'
    if match:
        close = difflib.get_close_matches(match.group(1), SCENARIO_WORDS, n=1, cutoff=0.6)
        if close:
            return f"'{match.group(1)}' is not a keyword; did you mean '{close[0]}'?"
    return ""


_RULE_HEAD = re.compile(r'^[ \t]*rule\s+([0-9A-Za-z.\-]+)', re.M)


def _enclosing_rule(text: str, offset: int) -> str:
    """The id of the last rule block begun before ``offset``, read from the text (the tree may not
    exist). An error on a rule's own first word belongs to the rule before it."""
    found = ""
    for match in _RULE_HEAD.finditer(text, 0, offset):
        found = match.group(1)
    return found


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


#: Grammar rules whose string child (by index) reaches the builder as its source text, quotes and
#: all: a board's drawing keeps its lines instead of becoming paragraphs.
_RAW_TEXT = {"board": (1,)}


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
            for index in _RAW_TEXT.get(name, ()):
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
        hidden = ordered = in_play = False
        for r in rest:
            if r is None:
                continue
            if r[0] == "visibility":
                hidden = hidden or r[1] == "hidden"
                ordered = ordered or r[1] == "ordered"
                in_play = in_play or r[1] == "in-play"
            else:
                values[r[0]] = r[1]
        return A.StateField(span, scope or "game", kind, str(name), values["initial"], values["min"],
                            values["max"], hidden, ordered, in_play)

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


# ------------------------------------------------------------------ scenarios


def parse_scenarios(text: str, path: str = "<string>") -> A.ScenarioFile:
    """Parse a scenario file; raise ``SourceError`` with positioned diagnostics if it is malformed."""
    return parse_with("scenario", ScenarioBuilder, text, path)


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
        script, boards = [], []
        for step in steps:
            if isinstance(step, A.BoardDrawing):
                boards.append(step)
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
                          fields["players"], fields["format"], fields["setup"], tuple(script), tuple(boards))

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
