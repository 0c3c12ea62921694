"""Syntax errors: a malformed text and Lark's exception in, one positioned ``Diagnostic`` out, in words.

- nesting deeper than ``MAX_NESTING`` is refused before any parse (``check_nesting``), E010;
- Lark's exception becomes E002 (``syntax_diagnostic``): what was found, "expected ..." in the
  language's words (``_describe``: never a grammar's own terminal names), the rule it is in, the
  bracket left open, and a hint: the common mistake the text matches (``MISTAKES``,
  ``SCENARIO_MISTAKES``: snippets that fail in the same parser state) or the keyword a misspelt
  word resembles.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Related, SourceError
from . import ast as A
from .grammars import parser

if TYPE_CHECKING:
    from lark.exceptions import UnexpectedInput

#: Deeper nesting of braces, brackets or parentheses than this is refused with a positioned error;
#: so is an expression nesting deeper than this without brackets (``1 + 1 + ...``, ``not not ...``,
#: ``a.b.c...``): every later pass (checks, compiler, the Python written from it, the formatter)
#: walks an expression as it nests, and Python refuses source nesting some 200 brackets deep.
MAX_NESTING = 64


def check_nesting(text: str, path: str) -> None:
    """Refuse nesting deeper than MAX_NESTING before Lark and the compiler ever see it."""
    for offset, open_brackets in _bracket_depths(text):
        if len(open_brackets) > MAX_NESTING:
            line, column = line_column(text, offset)
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


def line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_BRACKETS = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|[{}\[\]()]')


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

#: The same for a question put to ``ludex ask``: a scenario file's mistakes, and each made in a bare
#: script (the scenario's lines without ``scenario "..." { }`` around them).
QUESTION_MISTAKES = {label: snippets + [s.removeprefix('scenario "s" { ').removesuffix(" }") for s in snippets]
                     for label, snippets in SCENARIO_MISTAKES.items()}
QUESTION_MISTAKES["a question is whole scenarios (scenario \"...\" { ... }) or one scenario's lines written bare, "
                  "not both"] = ['scenario "s" { } run 1', 'scenario "s" { players a } run 1']

_MISTAKES_OF = {"rules": MISTAKES, "scenario": SCENARIO_MISTAKES, "question": QUESTION_MISTAKES}


@lru_cache(maxsize=None)
def _mistake_states(start: str) -> tuple:
    """How each MISTAKES snippet fails: (label, LR state, accepted terminals, token), computed once.

    Lark's own ``match_examples`` compares whole parser stacks, so a snippet written at the top level
    never matched the same mistake made one block deeper; here only the LR state and what it accepts
    are compared. Rules files, scenario files and questions each have their table; a log gets no labels."""
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


def syntax_diagnostic(exc: UnexpectedInput, text: str, path: str, start: str) -> Diagnostic:
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
            line, column = line_column(text, offset)
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
            opened_line, opened_column = line_column(text, opened)
            related = (Related(A.Span(path, opened_line, opened_column, opened_line, opened_column + 1),
                               f"this '{bracket}' is never closed"),)
            label = f"every '{bracket}' needs its closing '{closer}'"
            if closing in _TOP_LEVEL_WORDS:
                label += f" before the next {closing} begins"
    span = A.Span(path, line, column, line, column + width)
    return Diagnostic("syntax", "E002", message, span, rule=_enclosing_rule(text, offset),
                      expected=_expected_words(accepts, start), related=related, hint=label or "")


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
        if close and close[0] != match.group(1):   # (a keyword, misplaced: not a misspelling of itself)
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
