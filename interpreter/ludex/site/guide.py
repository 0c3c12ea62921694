"""The language guide: ``docs/language.md`` and ``docs/scenarios.md``, with every construct shown by a real
example taken from the bundled games' rules and scenarios.

Examples are picked programmatically: every AST node of every bundled game is visited, and for each
construct the shortest occurrence is shown, linked to the rule it sits in. A construct that no bundled
game uses yet says so (the guide's own example above stands for it).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Callable, Optional

from ..parse import ast as A
from ..runtime.builtins import BUILTINS, CONSTANTS
from .collect import SiteGame
from .lexer import LudexLexer, ScenarioLexer
from .markup import Linker, esc, highlight, href, source_lines
from .pages import display_path

MAX_LINES = 10

_RULES_LEXER = LudexLexer()
_SCENARIO_LEXER = ScenarioLexer()


@dataclasses.dataclass
class Found:
    game: SiteGame
    rule: str                    # the rule it sits in ("" outside rules)
    path: str
    first: int
    last: int


def _nodes(value, rule: str):
    """Every AST node under ``value`` (spans skipped), with the id of the rule it sits in."""
    stack = [(value, rule)]
    while stack:
        item, rid = stack.pop()
        if isinstance(item, A.Span) or item is None:
            continue
        if isinstance(item, (tuple, list)):
            stack.extend((x, rid) for x in reversed(item))
            continue
        if not dataclasses.is_dataclass(item):
            continue
        if isinstance(item, A.Rule):
            rid = item.id
        yield item, rid
        for f in reversed(dataclasses.fields(item)):
            child = getattr(item, f.name)
            if isinstance(child, (tuple, list)) or (dataclasses.is_dataclass(child) and not isinstance(child, A.Span)):
                stack.append((child, rid))


def _menus(node):
    return node.menu if isinstance(node, (A.Window, A.Turn)) else ()


def _is(cls, test: Optional[Callable] = None):
    def check(n):
        return isinstance(n, cls) and (test is None or test(n))
    check.cls = cls
    return check


# (group, construct, predicate). The order is the guide's.
RULE_CONSTRUCTS = [
    ("Parts of a game file", "game header: sources, players, formats, excerpt", _is(A.GameHeader)),
    ("Parts of a game file", "source", _is(A.Source)),
    ("Parts of a game file", "state schema", _is(A.State)),
    ("Parts of a game file", "counter (with bounds)", _is(A.StateField, lambda n: n.kind == "counter")),
    ("Parts of a game file", "supply", _is(A.StateField, lambda n: n.kind == "supply")),
    ("Parts of a game file", "zone", _is(A.StateField, lambda n: n.kind == "zone")),
    ("Parts of a game file", "hidden / ordered zone", _is(A.StateField, lambda n: n.hidden and n.ordered)),
    ("Parts of a game file", "zone marked in-play", _is(A.StateField, lambda n: n.in_play)),
    ("Parts of a game file", "row", _is(A.StateField, lambda n: n.kind == "row")),
    ("Parts of a game file", "role", _is(A.StateField, lambda n: n.kind == "role")),
    ("Parts of a game file", "flag", _is(A.StateField, lambda n: n.kind == "flag")),
    ("Parts of a game file", "card type", _is(A.CardType)),
    ("Parts of a game file", "card", _is(A.CardDefinition)),
    ("Parts of a game file", "card with copies", _is(A.CardDefinition, lambda n: n.copies != 1)),
    ("Parts of a game file", "ability run by initiate", _is(A.Ability, lambda n: n.event is None)),
    ("Parts of a game file", "ability with a timing (when ...)", _is(A.Ability, lambda n: n.event is not None)),
    ("Parts of a game file", "deck list", _is(A.Deck)),
    ("Parts of a game file", "dice", _is(A.Dice)),
    ("Parts of a game file", "board", _is(A.BoardDrawing)),
    ("Parts of a game file", "rule", _is(A.Rule, lambda n: not n.outside and n.body and n.docs)),
    ("Parts of a game file", "rule outside source", _is(A.Rule, lambda n: n.outside)),
    ("Parts of a game file", "text", _is(A.Doc, lambda n: n.kind == "text")),
    ("Parts of a game file", "note", _is(A.Doc, lambda n: n.kind == "note")),
    ("Parts of a game file", "example", _is(A.Doc, lambda n: n.kind == "example")),
    ("Parts of a game file", "erratum", _is(A.Erratum, lambda n: not n.rule)),
    ("Parts of a game file", "erratum ... on R (apart from its rule)", _is(A.Erratum, lambda n: bool(n.rule))),
    ("Parts of a game file", "flow", _is(A.Flow)),
    ("Definitions", "action", _is(A.Action)),
    ("Definitions", "value", _is(A.Value)),
    ("Definitions", "trigger (when)", _is(A.Trigger, lambda n: not n.var)),
    ("Definitions", "trigger for each (when ... for p in ...)", _is(A.Trigger, lambda n: bool(n.var))),
    ("Definitions", "state check (whenever)", _is(A.Check)),
    ("Statements", "let", _is(A.Let)),
    ("Statements", "set", _is(A.Set, lambda n: n.value is not None)),
    ("Statements", "clear", _is(A.Set, lambda n: n.value is None)),
    ("Statements", "increase", _is(A.Change, lambda n: n.sign > 0)),
    ("Statements", "decrease", _is(A.Change, lambda n: n.sign < 0)),
    ("Statements", "transfer", _is(A.Transfer)),
    ("Statements", "create", _is(A.Create)),
    ("Statements", "move", _is(A.Move)),
    ("Statements", "draw", _is(A.Draw)),
    ("Statements", "shuffle", _is(A.Shuffle)),
    ("Statements", "reveal", _is(A.Reveal)),
    ("Statements", "conceal", _is(getattr(A, "Conceal", A.Reveal), lambda n: type(n).__name__ == "Conceal")),
    ("Statements", "emit", _is(A.Emit)),
    ("Statements", "begin (a milestone)", _is(A.Milestone, lambda n: n.edge == "begin")),
    ("Statements", "end (a milestone)", _is(A.Milestone, lambda n: n.edge == "end")),
    ("Statements", "if", _is(A.If, lambda n: not n.otherwise)),
    ("Statements", "if ... else", _is(A.If, lambda n: bool(n.otherwise))),
    ("Statements", "for each", _is(A.ForEach, lambda n: not n.simultaneous)),
    ("Statements", "simultaneously for each", _is(A.ForEach, lambda n: n.simultaneous)),
    ("Statements", "repeat", _is(A.Repeat, lambda n: n.until is None)),
    ("Statements", "repeat ... until", _is(A.Repeat, lambda n: n.until is not None)),
    ("Statements", "while", _is(A.While)),
    ("Statements", "return to", _is(A.Goto, lambda n: n.word == "return")),
    ("Statements", "proceed to", _is(A.Goto, lambda n: n.word == "proceed")),
    ("Statements", "go to", _is(A.Goto, lambda n: n.word == "go")),
    ("Statements", "skip this step", _is(A.Skip)),
    ("Statements", "run", _is(A.Run)),
    ("Statements", "chooses", _is(A.Choose, lambda n: not n.hidden)),
    ("Statements", "chooses ... hidden", _is(A.Choose, lambda n: n.hidden)),
    ("Statements", "chooses number", _is(A.ChooseNumber)),
    ("Statements", "orders", _is(A.Order)),
    ("Statements", "may", _is(A.May)),
    ("Statements", "pick at random", _is(A.Pick)),
    ("Statements", "roll", _is(A.Roll)),
    ("Statements", "window", _is(A.Window)),
    ("Statements", "turn of", _is(A.Turn)),
    ("Statements", "perform", _is(A.Perform)),
    ("Statements", "initiate", _is(A.Initiate, lambda n: n.ordered_by is None)),
    ("Statements", "initiate ... ordered by", _is(A.Initiate, lambda n: n.ordered_by is not None)),
    ("Statements", "require ... cite", _is(A.Require)),
    ("Statements", "modify ... by", _is(A.Modify, lambda n: n.op == "by")),
    ("Statements", "modify ... to", _is(A.Modify, lambda n: n.op == "to")),
    ("Statements", "win", _is(A.Win)),
    ("Statements", "eliminate", _is(A.Eliminate)),
    ("Statements", "log", _is(A.Log)),
    ("Durations", "until end of ...", _is(A.Modify, lambda n: n.duration and n.duration.kind == "until_end")),
    ("Durations", "for this ...", _is(A.Modify, lambda n: n.duration and n.duration.kind == "for_this")),
    ("Durations", "for next ...", _is(A.Modify, lambda n: n.duration and n.duration.kind == "for_next")),
    ("Menus", "exactly one of / one of", lambda n: any(p.count == "one" for p in _menus(n))),
    ("Menus", "any number of", lambda n: any(p.count == "any" for p in _menus(n))),
    ("Menus", "n of", lambda n: any(p.count == "n" for p in _menus(n))),
    ("Menus", "up to n of", lambda n: any(p.count == "up-to" for p in _menus(n))),
    ("Menus", "repeats allowed", lambda n: any(p.repeats for p in _menus(n))),
    ("Menus", "then (a menu in parts)", lambda n: len(_menus(n)) > 1),
    ("Expressions", "every / any", _is(A.Quantified, lambda n: n.kind in ("every", "any"))),
    ("Expressions", "those", _is(A.Quantified, lambda n: n.kind == "those")),
    ("Expressions", "count", _is(A.Quantified, lambda n: n.kind == "count")),
    ("Expressions", "total", _is(A.Quantified, lambda n: n.kind == "total")),
    ("Expressions", "highest / lowest", _is(A.Ranked)),
    ("Expressions", "if ... then ... else", _is(A.IfExpr)),
    ("Expressions", "is none / is not none", _is(A.IsNone)),
    ("Expressions", "in / not in", _is(A.Binary, lambda n: n.op in ("in", "not in"))),
    ("Expressions", "and / or", _is(A.Binary, lambda n: n.op in ("and", "or"))),
    ("Expressions", "not", _is(A.Unary, lambda n: n.op == "not")),
    ("Expressions", "arithmetic", _is(A.Binary, lambda n: n.op in ("+", "-", "*", "/", "%"))),
    ("Expressions", "comparison", _is(A.Binary, lambda n: n.op in ("==", "!=", "<", "<=", ">", ">="))),
    ("Expressions", "a list", _is(A.ListExpr)),
    ("Expressions", "an element of a list", _is(A.Index)),
    ("Expressions", "an attribute (p.gold, c.cost)", _is(A.Attr)),
    ("Expressions", "a call", _is(A.Call)),
    ("Expressions", "whose turn it is: to-act(window), turn-player",
     lambda n: isinstance(n, A.Call) and n.name == "to-act" or isinstance(n, A.Name) and n.name == "turn-player"),
    ("Expressions", "this", _is(A.This)),
]

#: AST classes that are parts of other constructs, not constructs of their own.
_PARTS = {"Span", "Number", "Text", "Constant", "Name", "MenuPart", "Duration", "FieldDecl", "Event", "CardField",
          "Param", "Module", "Step", "Scenario", "ScenarioFile"}


def _more_constructs() -> list:
    """Constructs the list above does not name yet (the language grows): one per AST class, named from
    the first example in its docstring."""
    covered = {getattr(test, "cls", None) for _, _, test in RULE_CONSTRUCTS}
    more = []
    for name, cls in vars(A).items():
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)) or cls in covered or name in _PARTS:
            continue
        m = re.search(r"``([^`]+)``", cls.__doc__ or "")
        more.append(("More constructs", m.group(1) if m else name, _is(cls)))
    return more


RULE_CONSTRUCTS = RULE_CONSTRUCTS + _more_constructs()

SCENARIO_STEPS = [
    ("Script", "plays", "plays"), ("Script", "tries", "tries"), ("Script", "passes", "passes"), ("Script", "chooses", "chooses"),
    ("Script", "answers", "answers"), ("Script", "orders", "orders"), ("Script", "force dice", "force-dice"),
    ("Script", "force order", "force-order"), ("Script", "force pick", "force-pick"), ("Script", "run", "run"),
    ("Script", "run ... to", "run-to"), ("Script", "play the game", "play-game"),
    ("Expectations", "expect (an expression)", "expect-true"), ("Expectations", "expect winner", "expect-winner"),
    ("Expectations", "expect no winner", "expect-no-winner"), ("Expectations", "expect eliminated", "expect-eliminated"),
    ("Expectations", "expect refused", "expect-refused"), ("Expectations", "expect trace", "expect-trace"),
    ("Expectations", "expect offered", "expect-offered"),
]
SCENARIO_PARTS = ["question", "answer", "cite", "tags", "players", "format", "setup"]


def _better(a: Optional[Found], b: Found) -> Found:
    if a is None:
        return b
    return b if (b.last - b.first) < (a.last - a.first) else a


def _tests_by_class() -> dict:
    """Which constructs' tests can match a node of each AST class (most match one class only)."""
    table: dict = {}
    probes = {cls: cls.__new__(cls) for cls in vars(A).values()
              if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls is not A.Span}
    for cls in probes:
        table[cls] = []
    for group, name, test in RULE_CONSTRUCTS:
        owner = getattr(test, "cls", None)
        for cls in probes:
            if owner is None or issubclass(cls, owner):
                table[cls].append((name, test))
    return table


def find_rule_examples(games: list) -> dict:
    found: dict = {}
    table = _tests_by_class()
    for game in games:
        g = game.game
        if g is None or game.errors:
            continue
        for module in g.modules:
            for node, rid in _nodes(module.items, ""):
                span = getattr(node, "span", None)
                if span is None or span.line <= 0:
                    continue
                for name, test in table.get(type(node), ()):
                    try:
                        ok = test(node)
                    except Exception:
                        ok = False
                    if ok:
                        item = Found(game, rid, span.path, span.line, span.end_line)
                        found[name] = _better(found.get(name), item)
    return found


def find_scenario_examples(games: list) -> dict:
    found: dict = {}
    for game in games:
        for sf in game.files:
            lines = sf.text.splitlines()
            for r in sf.runs:
                sc = r.scenario
                path = sc.span.path
                found.setdefault("a scenario", Found(game, "", path, sc.span.line, sc.span.end_line))
                found["a scenario"] = _better(found["a scenario"], Found(game, "", path, sc.span.line, sc.span.end_line))
                for n in range(sc.span.line, min(sc.span.end_line, len(lines)) + 1):
                    m = re.match(r"\s*(question|answer|cite|tags|players|format|setup)\b", lines[n - 1])
                    if m and m.group(1) not in found:
                        last = n
                        if m.group(1) == "setup":
                            last = _block_end(lines, n)
                        found[m.group(1)] = Found(game, "", path, n, last)
                for step in sc.steps:
                    kind = step.kind
                    if kind == "run" and step.args[1]:
                        kind = "run-to"
                    item = Found(game, "", path, step.span.line, step.span.end_line)
                    found[kind] = _better(found.get(kind), item)
    return found


def _block_end(lines: list, start: int) -> int:
    depth = 0
    for n in range(start, len(lines) + 1):
        depth += lines[n - 1].count("{") - lines[n - 1].count("}")
        if depth <= 0:
            return n
    return start


def _example(page: str, found: Found, lexer, language: str) -> str:
    code = source_lines(found.path, found.first, found.last)
    lines = code.split("\n")
    if len(lines) > MAX_LINES:
        indent = re.match(r"\s*", lines[MAX_LINES - 1]).group(0)
        code = "\n".join(lines[: MAX_LINES - 2] + [indent + "..."] + lines[-1:])
    game = found.game
    link = Linker(game, page)
    where = f"{esc(game.key)} "
    if found.rule and found.rule in game.page_of:
        where += link.rule_link(found.rule, f"rule {found.rule}", say_outside=False)
    else:
        target = next((f for f in game.files if str(f.path) == found.path), None)
        if target is not None:
            where += f'<a href="{esc(href(page, target.page))}">{esc(target.name)}</a>'
        else:
            where += f'<a href="{esc(href(page, game.index_page))}">{esc(display_path(found.path))}</a>'
    where += f' <span class="ludex-muted">line {found.first}</span>'
    return highlight(code, lexer, link.rule_href, language), where


def examples_section(page: str, found: dict, constructs: list, lexer, language: str, intro: str) -> str:
    out = ["## Every construct, from the bundled games { #examples }\n",
           f'<div class="ludex-block">\n<p>{esc(intro)}</p>\n</div>\n']
    group = None
    for entry in constructs:
        g, name, key = entry
        if g != group:
            group = g
            out.append(f"### {esc(g)}\n")
        item = found.get(key)
        if item is None:
            out.append(f'<div class="ludex-example"><p class="ludex-example-caption"><strong>{esc(name)}</strong> · '
                       '<span class="ludex-muted">no bundled game uses it yet: the example in the guide above '
                       "stands for it</span></p></div>\n")
            continue
        code, where = _example(page, item, lexer, language)
        out.append(f'<div class="ludex-example"><p class="ludex-example-caption"><strong>{esc(name)}</strong> · {where}</p>'
                   f"{code}</div>\n")
    return "\n".join(out)


_FENCE = re.compile(r"^```[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def tag_fences(markdown: str) -> str:
    """The guide's code blocks, highlighted with the Ludex lexers (a scenario's with the scenario one)."""
    def lang(m):
        body = m.group(1)
        kind = "ludex-scenario" if re.match(r"\s*scenario\b", body) else "ludex"
        return f"```{kind}\n{body}```"
    return _FENCE.sub(lang, markdown)


#: How much lower the search ranks the guide's sections than other pages' (pages.RULE_BOOST is the rules').
GUIDE_BOOST = 0.1


def guide_pages(games: list, docs_src: Optional[Path]) -> dict:
    """``guide/language.md`` and ``guide/scenarios.md``."""
    pages = {}
    rule_found = find_rule_examples(games)
    scen_found = find_scenario_examples(games)
    for name, constructs, found, lexer, language, intro in (
        ("language", [(g, n, n) for g, n, _ in RULE_CONSTRUCTS], rule_found, _RULES_LEXER, "ludex",
         "Each construct of the rules language as a bundled game writes it (the shortest occurrence), "
         "linked to the rule it sits in."),
        ("scenarios", [("A scenario", "a whole scenario", "a scenario")]
         + [("Parts", p, p) for p in SCENARIO_PARTS] + list(SCENARIO_STEPS),
         scen_found, _SCENARIO_LEXER, "ludex-scenario",
         "Each line of the scenario language as a bundled scenario writes it, linked to its scenario file."),
    ):
        page = f"guide/{name}.md"
        src = docs_src / f"{name}.md" if docs_src else None
        if src is not None and src.is_file():
            text = tag_fences(src.read_text(encoding="utf-8"))
        else:
            text = f"# The Ludex {'rules' if name == 'language' else 'scenario'} language\n"
        pages[page] = text.rstrip() + "\n\n" + examples_section(page, found, constructs, lexer, language, intro)
    boards = docs_src / "boards.md" if docs_src else None
    if boards is not None and boards.is_file():
        pages["guide/boards.md"] = tag_fences(boards.read_text(encoding="utf-8"))
    pages["guide/builtins.md"] = builtins_page()
    # the guide is for writing rules: in the search, a judge's words find the rules first
    return {page: f"---\nsearch:\n  boost: {GUIDE_BOOST}\n---\n\n{text}" for page, text in pages.items()}


#: The sections of the built-ins page, each with the test that puts a built-in in it.
_BUILTIN_SECTIONS = (
    ("Players, zones, cards and lists", lambda b: b.fn.__module__.endswith(".builtins")),
    ("Rows", lambda b: b.name in ("left-end", "right-end") or b.name.startswith("row-")),
    ("Boards", lambda b: True),
)


def builtin_signature(b) -> str:
    """``line-of-sight(board, s, facing[, beside])``: the parameters the rules give (the game is the
    engine's), optional ones in brackets, any number of them with an ellipsis."""
    import inspect
    params = [p for p in inspect.signature(b.fn).parameters.values()][1:]
    names = [p.name.replace("_", "-") for p in params]
    if b.max_args is None:
        return f"{b.name}({names[0]}, ...)"
    required, optional = names[:b.min_args], names[b.min_args:b.max_args]
    return f"{b.name}({', '.join(required)}" + "".join(f"[, {n}]" for n in optional) + ")"


#: The game the built-ins' examples are worked out in (``tests/test_builtin_examples.py``), shown on the
#: built-ins page when it is at hand (a checkout of the repository; a wheel holds no tests).
EXAMPLES_GAME = Path(__file__).resolve().parents[3] / "tests" / "games" / "builtins.ludex"


def _builtin_example(e) -> str:
    """``Example: next-player(ann) gives cat  # bob ...`` as the page shows it: ``next-player(ann)``
    gives ``cat`` (bob ...)."""
    note = " ".join(e.note.split()).replace("``", "`")
    return f"`{e.expression}` gives `{e.result}`" + (f" ({note})" if note else "")


def builtins_page(examples_game: Optional[Path] = None) -> str:
    """``guide/builtins.md``: every built-in name and function the rules may call, with its arguments,
    what it gives, its own documentation and its examples, made from the built-ins themselves; then
    the game the examples are worked out in (``examples_game``, by default ``EXAMPLES_GAME``), if it is
    at hand."""
    game = examples_game or EXAMPLES_GAME
    shown = game.is_file()

    def entry(heading: str, b) -> list:
        doc = " ".join(b.description.split()).replace("``", "`")
        gives = f" Gives: {b.returns}." if b.returns != "any" else ""
        lines = [f"### `{heading}`", "", doc + gives, ""]
        if len(b.examples) == 1:
            lines += [f"Example: {_builtin_example(b.examples[0])}.", ""]
        elif b.examples:
            lines += ["Examples:", ""] + [f"- {_builtin_example(e)}" for e in b.examples] + [""]
        return lines

    where = ("shown [at the end of this page](#examples-game)" if shown else
             "`tests/games/builtins.ludex` in Ludex's repository")
    lines = ["# Built-ins", "",
             "The names and functions every game's rules may use. They are generic (player order, zones, "
             "lists, arithmetic, grid geometry, rows of cards): a game's rules say what they mean for it. "
             "The board drawings they read are described in [Boards and rows](boards.md).", "",
             "Each example is worked out by Ludex's tests, as a scenario's expectation is, in one small game "
             f"({where}): ann, bob and cat sit in that order, bob out of the game; ann holds a Lantern (on "
             "top), a Rope and a Bell and shows a Rope, a Lantern and a Bell in her street, left to right; "
             "`yard` is a board of 4 columns and 3 rows with walls, a door, windows and a hedge. A result "
             "writes a card by its title and a space by its name, in quotes, as a scenario names them.", "",
             "## Names", ""]
    for b in CONSTANTS.values():
        lines += entry(b.name, b)
    placed: set = set()
    for title, belongs in _BUILTIN_SECTIONS:
        members = [b for b in BUILTINS.values() if b.name not in placed and belongs(b)]
        placed.update(b.name for b in members)
        lines += [f"## {title}", ""]
        for b in members:
            lines += entry(builtin_signature(b), b)
    if shown:
        lines += ["## The examples' game { #examples-game }", "",
                  "`tests/games/builtins.ludex`: the examples above are worked out once its set-up has run.",
                  "", "```ludex", game.read_text(encoding="utf-8").rstrip(), "```", ""]
    return "\n".join(lines).rstrip() + "\n"
