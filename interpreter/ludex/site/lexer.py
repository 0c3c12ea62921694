"""Pygments lexers for the rules language (``*.ludex``) and the scenario language (``*.scenario``).

Registered through the ``pygments.lexers`` entry point in ``pyproject.toml``, so that any tool using
Pygments finds them by name (``ludex``, ``ludex-scenario``) or by file name. The site generator uses
them to highlight transcriptions and scenarios; its formatter turns every ``Name.Label`` token (a rule
id after ``rule``, ``run``, ``cite``, ``return to`` ...) into a link to that rule.

The lexers never emit ``Error`` tokens: the language guide shows fragments with ``...`` in them.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include, inherit, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from ..resources import grammar_dir

__all__ = ["LudexLexer", "ScenarioLexer"]

# A name: lowercase words joined by hyphens (``draw-deck``). Keywords must stand alone: ``end`` is not
# a keyword inside ``end-of-round``, nor ``has`` inside ``has-been-active``.
_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*"
_PRE, _POST = r"(?<![\w-])", r"(?![\w-])"
# A rule id: the source's number (3.2, 500.1c) or a dotted heading id (start-phase.remove-day-counter).
_RULE_ID = r"(?:[0-9]+[a-z]?(?:\.[0-9]+[a-z]?)*|[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*)*)"
_NUMBERED_ID = r"[0-9]+[a-z]?(?:\.[0-9]+[a-z]?)+|[0-9]+[a-z]"

_DECLARATIONS = (
    "game", "source", "version", "players", "formats", "excerpt", "ends", "after", "state", "card",
    "type", "copies", "ability", "dice", "faces", "deck", "board", "rule", "outside", "text", "note",
    "example", "erratum", "replaces", "on", "action", "value", "when", "whenever", "flow",
)
_SCHEMA = ("player", "counter", "supply", "zone", "row", "role", "flag", "hidden", "public", "ordered",
           "in-play", "min", "max", "number", "list")
_STATEMENTS = (
    "let", "set", "clear", "increase", "decrease", "by", "transfer", "from", "to", "move", "at", "top",
    "bottom", "left-end", "right-end", "draw", "create", "into", "shuffle", "reveal", "emit", "begin",
    "end", "phase", "round", "turn", "if", "then", "else", "for", "each", "simultaneously", "repeat",
    "until", "while", "return", "proceed", "go", "skip", "step", "run", "chooses", "orders", "may",
    "pick", "random", "roll", "as", "window", "starting", "with", "of", "exactly", "one", "any", "up",
    "repeats", "allowed", "perform", "initiate", "abilities", "ordered", "require", "cite", "modify",
    "next", "win", "eliminate", "log", "every", "those", "count", "highest", "lowest",
)
_WORD_OPERATORS = ("and", "or", "not", "in", "is")
_CONSTANTS = ("true", "false", "none")


def _grammar_words() -> tuple:
    """Every keyword the grammars spell out (``"conceal"``, ``"total"``) that the lists above miss: the
    language grows, and its highlighting follows the grammar."""
    import re
    try:
        text = "".join((grammar_dir() / name).read_text(encoding="utf-8") for name in ("common.lark", "rules.lark"))
    except Exception:  # pragma: no cover - the grammar ships with the package
        return ()
    words = set(re.findall(r'"([a-z][a-z]*(?:-[a-z]+)*)"', text))
    words |= {w for pair in re.findall(r'"([a-z]+(?: [a-z]+)+)"', text) for w in pair.split()}
    known = set(_DECLARATIONS) | set(_SCHEMA) | set(_STATEMENTS) | set(_WORD_OPERATORS) | set(_CONSTANTS)
    return tuple(sorted(words - known - {"this"}))


_STATEMENTS = _STATEMENTS + _grammar_words()
try:  # the built-ins the engine documents; a static list if the interpreter cannot be imported
    from ..runtime.builtins import BUILTINS as _B
    from ..runtime.builtins import CONSTANTS as _C
    _BUILTINS = tuple(sorted(set(_B) | set(_C), key=len, reverse=True))
except Exception:  # pragma: no cover - only without the interpreter
    _BUILTINS = ("players", "all-players", "player-count", "format", "nobody", "cards-in-play", "size",
                 "top", "bottom", "cards", "first", "last", "next-player", "players-from", "join")


def _words(items):
    return words(sorted(items, key=len, reverse=True), prefix=_PRE, suffix=_POST)


class LudexLexer(RegexLexer):
    """The Ludex rules language: a game's reference transcribed rule by rule."""

    name = "Ludex"
    aliases = ["ludex", "ludex-rules"]
    filenames = ["*.ludex"]
    mimetypes = ["text/x-ludex"]
    url = "https://github.com/ludex/ludex"

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            include("strings"),
            # rule ids where the grammar expects one
            (r"(rule)(\s+)(" + _RULE_ID + r")" + _POST, bygroups(Keyword.Declaration, Whitespace, Name.Label)),
            (r"(run)(\s+)(" + _RULE_ID + r")" + _POST, bygroups(Keyword, Whitespace, Name.Label)),
            (r"(return|proceed|go)(\s+)(to)(\s+)(" + _RULE_ID + r")" + _POST,
             bygroups(Keyword, Whitespace, Keyword, Whitespace, Name.Label)),
            (r"(cite)(\s+)(" + _RULE_ID + r")" + _POST, bygroups(Keyword, Whitespace, Name.Label)),
            (r"(on)(\s+)(" + _RULE_ID + r")(\s+)(replaces)" + _POST,
             bygroups(Keyword.Declaration, Whitespace, Name.Label, Whitespace, Keyword.Declaration)),
            (r"(after)(\s+)(" + _RULE_ID + r")" + _POST, bygroups(Keyword.Declaration, Whitespace, Name.Label)),
            (r"(\.)(" + _NAME + r")", bygroups(Punctuation, Name.Attribute)),
            (r"(?<![\w.-])(?:" + _NUMBERED_ID + r")(?![\w-])", Name.Label),
            include("words"),
        ],
        "strings": [
            (r'"""(?:[^"\\]|\\.|"(?!""))*"""', String.Doc),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
        ],
        "words": [
            (_words(_CONSTANTS), Keyword.Constant),
            (_words(_WORD_OPERATORS), Operator.Word),
            (_PRE + r"this" + _POST, Name.Builtin.Pseudo),
            (_words(_DECLARATIONS), Keyword.Declaration),
            (_words(_SCHEMA), Keyword.Type),
            (_words(_STATEMENTS), Keyword),
            (_words(_BUILTINS), Name.Builtin),
            (r"(" + _NAME + r")(\s*)(\()", bygroups(Name.Function, Whitespace, Punctuation)),
            (_NAME, Name),
            (r"[0-9]+", Number.Integer),
            (r"==|!=|<=|>=|<|>|=|\+|-|\*|/|%", Operator),
            (r"[{}()\[\],:.]", Punctuation),
            (r".", Text),
        ],
    }


class ScenarioLexer(LudexLexer):
    """The Ludex scenario language: rulings that run (set-ups use the rules language's statements)."""

    name = "Ludex scenario"
    aliases = ["ludex-scenario", "ludex-scenarios"]
    filenames = ["*.scenario"]
    mimetypes = ["text/x-ludex-scenario"]

    tokens = {
        "root": [
            (r"(scenario|question|answer)" + _POST, Keyword.Declaration),
            (r"(cite)(\s+)", bygroups(Keyword.Declaration, Whitespace), "rule-list"),
            (r"(expect)(\s+)(trace)(\s+)", bygroups(Keyword, Whitespace, Keyword, Whitespace), "rule-list"),
            (r"(expect)(\s+)(refused)(\s+)(" + _RULE_ID + r")" + _POST,
             bygroups(Keyword, Whitespace, Keyword, Whitespace, Name.Label)),
            (r"(run)(\s+)(" + _RULE_ID + r")(\s+)(to)(\s+)(" + _RULE_ID + r")" + _POST,
             bygroups(Keyword, Whitespace, Name.Label, Whitespace, Keyword, Whitespace, Name.Label)),
            (r"(tags)(\s+)", bygroups(Keyword.Declaration, Whitespace), "tag-list"),
            (r"(play)(\s+)(the)(\s+)(game)" + _POST, bygroups(Keyword, Whitespace, Keyword, Whitespace, Keyword)),
            (r"(force)(\s+)(dice|order|pick)" + _POST, bygroups(Keyword, Whitespace, Keyword)),
            (r"(expect)(\s+)(winner|no\s+winner|eliminated|offered)" + _POST, bygroups(Keyword, Whitespace, Keyword)),
            (_words(("expect", "setup", "plays", "tries", "passes", "answers", "players", "format")), Keyword),
            (_words(("yes", "no")), Keyword.Constant),
            inherit,
        ],
        "rule-list": [
            (r"[ \t]+", Whitespace),
            (r",", Punctuation),
            (_RULE_ID + _POST, Name.Label),
            (r"", Text, "#pop"),
        ],
        "tag-list": [
            (r"[ \t]+", Whitespace),
            (r",", Punctuation),
            (_NAME, Name.Tag),
            (r"", Text, "#pop"),
        ],
    }
