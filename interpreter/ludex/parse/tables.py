"""Parse tables: a grammar's LALR tables and contextual lexer taken from Lark, kept in a cache file,
and the loop that runs them, building the AST at each reduction.

In: Lark's analysis of a grammar (once per grammar version), then source text and a builder whose
``t_<rule>(span, children)`` methods make the nodes. Out: the builder's value for the whole text,
or ``Unparsed`` where the text is malformed (``syntax.py`` then asks Lark itself what is wrong, so
messages come from one place).

Why not Lark's own parse: it lexes each token through layers of objects, builds a tree with a
``Meta`` per node and then a second walk turns the tree into nodes; its contextual lexer compiles a
large regular expression per parser state in every new process. Here the same tables run in one
loop: at each character a state's lexer tries only the terminals that can begin with it (small
expressions, compiled when first needed), keywords are found in a dict, and each reduction calls
the builder with the span Lark's ``propagate_positions`` gives (a node spans its first to its last
token, keywords included; an inlined rule lends its brackets to its parent). No recursion, so
nesting cannot overflow the stack. What Lark's lexer and parser do is reproduced exactly or not at
all: ``extract`` refuses a grammar using anything the loop does not reproduce, and the caller then
parses with Lark.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
import tempfile
import zlib
from itertools import chain
from operator import itemgetter
from pathlib import Path

from ..resources import prune

# What a reduction does with the values it pops.
UNIT, LIST, NODE = 0, 1, 2   # keep the one child (an inlined ?rule); splice into the parent (_rule); build


class Unparsed(Exception):
    """The text is not in the language; where and why is for Lark to say."""


class Token(str):
    """A terminal as cut from the text: its text, the terminal's name and where it is. It has the
    attributes of Lark's ``Token`` (which this stands in for, so that parsing needs no Lark), read
    from ``where``: (line, column, end line, end column, offset, end offset)."""

    __slots__ = ("type", "where")

    @classmethod
    def make(cls, type: str, value: str, where: tuple) -> "Token":
        token = str.__new__(cls, value)
        token.type, token.where = type, where
        return token

    value = property(str.__str__)
    line = property(lambda self: self.where[0])
    column = property(lambda self: self.where[1])
    end_line = property(lambda self: self.where[2])
    end_column = property(lambda self: self.where[3])
    start_pos = property(lambda self: self.where[4])
    end_pos = property(lambda self: self.where[5])

    def __reduce__(self):
        return (Token.make, (self.type, str(self), self.where))

    def __repr__(self):
        return f"Token({self.type!r}, {str(self)!r})"


# ------------------------------------------------------------------ the cache


#: The first item of every cache file: files of another layout are made again, never read further.
FORMAT = "ludex-cache-2"
_PLAIN = frozenset({str, int, bool, type(None), bytes, float})


def cached(folder: Path | None, name: str, material: bytes, make) -> "Tables | None":
    """Tables from ``folder``, if a file there was made from the same ``material`` (the grammar's
    text and whatever else decides the tables), by this code and the same Lark, and has the shape of
    tables; else ``make()``'s, written there for the next process (not if ``folder`` is None or
    cannot be written)."""
    material = b"\0".join([material, Path(__file__).read_bytes(), lark_version()])
    path = None if folder is None else folder / (
        f"{name}-{digest(material)}-py{sys.version_info[0]}{sys.version_info[1]}.tables")
    data = read(path, material)
    if data is not None and _tables_shape(data):
        try:
            return Tables(data)
        except Exception:            # not as written by this code: made again
            pass
    data = make()
    if data is None:
        return None
    write(path, material, data)
    return Tables(data)


def digest(material: bytes) -> str:
    return f"{zlib.crc32(material):08x}{zlib.adler32(material):08x}"


def lark_version() -> bytes:
    """Lark's ``__init__.py``, which names its version: read, not imported (a parse needs no Lark)."""
    from importlib.util import find_spec
    spec = find_spec("lark")
    try:
        return Path(spec.origin).read_bytes()
    except (AttributeError, TypeError, OSError):
        return b""


def read(path: Path | None, material: bytes):
    """The data of a cache file written by ``write`` from the same ``material``, or None: missing,
    unreadable, damaged, of another layout or made from something else. ``marshal`` makes only
    plain values, never runs anything; the caller still checks the shape of what it gets."""
    if path is None:
        return None
    try:
        whole = marshal.loads(path.read_bytes())
    except Exception:
        return None
    if (type(whole) is not tuple or len(whole) != 3 or whole[0] != FORMAT or whole[1] != material):
        return None
    return whole[2]


def write_whole(path: Path, blob: bytes) -> bool:
    """Write a cache file whole or not at all: into a file of its own in the same folder, then put in
    place in one step (another process may be reading or writing it). False if it could not be."""
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(blob)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False
    return True


def write(path: Path | None, material: bytes, data) -> None:
    """Write a cache file whole or not at all: into a file of its own in the same folder, then put
    in place in one step (another process may be reading or writing it); only the newest few of its
    grammar's stay. Nothing is written if ``path`` is None or the folder cannot be written."""
    if path is None:
        return
    try:
        blob = marshal.dumps((FORMAT, material, data))
    except ValueError:
        return
    if not write_whole(path, blob):
        return
    prune(path.parent, f"{path.name.split('-')[0]}-*{path.suffix}")


def plain(value, limit: int = 10_000_000) -> bool:
    """Whether ``value`` is made of plain values alone (no code object, nothing ``marshal`` can make
    that could be called), nested dicts, lists, tuples and frozensets of them."""
    stack = [value]
    while stack:
        limit -= 1
        if limit < 0:
            return False
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            stack.extend(item)
            stack.extend(item.values())
        elif kind is list or kind is tuple or kind is frozenset:
            stack.extend(item)
        elif kind not in _PLAIN:
            return False
    return True


def _tables_shape(data) -> bool:
    """Whether ``data`` has the shape ``extract`` gives: checked whole, since the loop trusts it
    (a rule's handler names a builder method that is called)."""
    try:
        if type(data) is not dict or set(data) != _KEYS:
            return False
        states, rules, lexers = data["states"], data["rules"], data["lexers"]
        if not (type(data["start"]) is int and type(data["end"]) is int and type(states) is dict
                and type(rules) is list and type(lexers) is list and type(data["buckets"]) is list
                and type(data["state_lexer"]) is dict and type(data["ignore"]) is frozenset
                and type(data["kept"]) is frozenset):
            return False
        rows = list(states.values())
        if (not _only(states, int) or not _only(rows, dict)
                or not _only(chain.from_iterable(rows), str)
                or not _only(chain.from_iterable(map(dict.values, rows)), int)
                or not _only(data["buckets"], str) or not _only(data["state_lexer"], int)
                or not _only(data["state_lexer"].values(), int)
                or not _only(data["ignore"], str) or not _only(data["kept"], str)):
            return False
        for rule in rules:
            origin, size, kind, recipe, trailing, expand1, handler, raw = rule
            if not (type(rule) is tuple and type(origin) is str and type(size) is int
                    and kind in (UNIT, LIST, NODE) and type(trailing) is int and type(expand1) is bool
                    and type(handler) is str and handler.startswith("t_") and handler.isidentifier()
                    and type(raw) is tuple and (recipe is None or type(recipe) is tuple)):
                return False
            for step in (recipe or ()) + raw:
                if type(step) is not tuple or not all(type(x) in (int, bool) for x in step):
                    return False
        for lexer in lexers:
            dispatch, anything_else, keywords = lexer
            if not (type(lexer) is tuple and type(dispatch) is dict and type(anything_else) is int
                    and type(keywords) is dict and _only(dispatch, str) and _only(dispatch.values(), int)
                    and _only(keywords, str) and _only(keywords.values(), dict)):
                return False
            for words in keywords.values():
                if not (_only(words, str) and _only(words.values(), str)):
                    return False
        return True
    except (TypeError, ValueError):     # a tuple of another length, a value that is not iterable
        return False


_KEYS = frozenset({"start", "end", "states", "rules", "lexers", "buckets", "state_lexer", "ignore", "kept"})


def _only(values, kind) -> bool:
    return set(map(type, values)) <= {kind}


# ------------------------------------------------------------------ tables from Lark


def extract(lark, raw_text: dict) -> dict | None:
    """The tables of a Lark LALR parser with the contextual lexer, as plain data (for ``marshal``);
    None if the grammar uses something the loop does not reproduce, or Lark's objects are not as
    this reads them (another version of Lark). ``raw_text`` names the rules whose children at some
    indices are given as their source text: ``{"board": (1,)}``."""
    try:
        return _extract(lark, raw_text)
    except Exception:                   # parse with Lark, slower but the same
        return None


def _extract(lark, raw_text: dict) -> dict | None:
    from lark.lexer import PatternStr, UnlessCallback
    from lark.parsers.lalr_analysis import Shift

    options, frontend = lark.options, lark.parser
    conf = lark.lexer_conf
    if (options.parser != "lalr" or options.lexer != "contextual" or options.postlex is not None
            or options.transformer is not None or options.lexer_callbacks or options.regex
            or options.use_bytes or conf.g_regex_flags or options.tree_class is not None
            or options.propagate_positions is not True or options.maybe_placeholders is not True
            or len(options.start) != 1):
        return None
    start = options.start[0]
    table = frontend.parser.parser.parse_table

    rules, rule_index = [], {}
    kept = set()        # terminals some rule keeps as a child; the others only lend their position
    for rule in lark.rules:
        spec = _rule_spec(rule, raw_text)
        if spec is None:
            return None
        rule_index[rule] = len(rules)
        rules.append(spec)
        recipe = spec[3]
        for i in (i for i, _, _ in recipe) if recipe is not None else range(len(rule.expansion)):
            if rule.expansion[i].is_term:
                kept.add(_name(rule.expansion[i].name))

    # Lexers: one per distinct set of terminals; each state names its own. A lexer tries, at each
    # character, only the terminals that can begin with it (in Lark's order): a few small
    # expressions, quick to compile in every new process, rather than one per lexer.
    lexers, lexer_index, state_lexer = [], {}, {}
    buckets, bucket_index, first = [], {}, {}

    def bucket(terminals) -> int:
        pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
        if pattern not in bucket_index:
            bucket_index[pattern] = len(buckets)
            buckets.append(pattern)
        return bucket_index[pattern] if terminals else -1

    for state, lexer in frontend.lexer.lexers.items():
        if id(lexer) not in lexer_index:
            terminals = lexer.scanner.terminals           # the alternation Lark would try, in its order
            keywords = {}
            for name, callback in lexer.callback.items():
                if type(callback) is not UnlessCallback:
                    return None
                words = callback.scanner.terminals
                if any(type(w.pattern) is not PatternStr or w.pattern.flags for w in words):
                    return None
                keywords[_name(name)] = {_name(w.pattern.value): _name(w.name) for w in words}
            for t in terminals:
                if t.name not in first:
                    first[t.name] = first_characters(t.pattern.to_regexp())
            starts = set().union(*(first[t.name] or () for t in terminals))
            dispatch = {c: bucket([t for t in terminals if first[t.name] is None or c in first[t.name]])
                        for c in sorted(starts)}
            anything_else = bucket([t for t in terminals if first[t.name] is None])
            lexer_index[id(lexer)] = len(lexers)
            lexers.append((dispatch, anything_else, keywords))
        state_lexer[state] = lexer_index[id(lexer)]

    states = {}
    for state, actions in table.states.items():
        row = {}
        for symbol, (action, arg) in actions.items():
            row[_name(symbol)] = arg if action is Shift else -1 - rule_index[arg]
        states[state] = row
    return {"start": table.start_states[start], "end": table.end_states[start],
            "states": states, "rules": rules, "lexers": lexers, "buckets": buckets, "state_lexer": state_lexer,
            "ignore": frozenset(_name(name) for name in conf.ignore), "kept": frozenset(kept)}


def _name(symbol) -> str:
    """A terminal's or rule's name as a plain string (Lark's are ``Token``s), interned: ``marshal``
    writes it once, and lookups compare it by identity."""
    return sys.intern(str(symbol))


def first_characters(regexp: str) -> frozenset | None:
    """The characters a match of ``regexp`` can begin with, or None if that is not plain (a class
    such as ``\\d``, a negated set, ignored case, a wide range). Never fewer than the true ones: a
    lexer that tries a terminal only where one of them stands misses nothing."""
    try:
        from re import _parser as sre_parse  # Python 3.11 and later
    except ImportError:                             # pragma: no cover - Python 3.10
        import sre_parse
    try:
        parsed = sre_parse.parse(regexp)
        if parsed.state.flags & sre_parse.SRE_FLAG_IGNORECASE:
            return None
        chars, nullable = _first_of(list(parsed), sre_parse)
    except Exception:
        return None
    return None if chars is None or nullable else frozenset(chars)


def _first_of(items: list, sre) -> tuple:
    """(first characters or None, whether the sequence can match nothing) of a parsed sequence."""
    chars: set = set()
    for op, av in items:
        if op is sre.LITERAL:
            return chars | {chr(av)}, False
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            continue                                # zero-width: what follows begins the match
        if op is sre.IN:
            if any(o is sre.NEGATE or o is sre.CATEGORY for o, _ in av):
                return None, False
            for o, a in av:
                if o is sre.LITERAL:
                    chars.add(chr(a))
                elif o is sre.RANGE and a[1] - a[0] < 512:
                    chars.update(chr(c) for c in range(a[0], a[1] + 1))
                else:
                    return None, False
            return chars, False
        if op is sre.SUBPATTERN:
            if av[1] & sre.SRE_FLAG_IGNORECASE:
                return None, False
            more, nullable = _first_of(list(av[3]), sre)
        elif op is sre.BRANCH:
            more, nullable = set(), False
            for branch in av[1]:
                found, empty = _first_of(list(branch), sre)
                if found is None:
                    return None, False
                more |= found
                nullable = nullable or empty
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT) or op is getattr(sre, "POSSESSIVE_REPEAT", None):
            more, nullable = _first_of(list(av[2]), sre)
            nullable = nullable or av[0] == 0
        else:
            return None, False                      # any character, a back-reference...
        if more is None:
            return None, False
        chars |= more
        if not nullable:
            return chars, False
    return chars, True


def _rule_spec(rule, raw_text: dict):
    """What reducing by ``rule`` does, as Lark's ParseTreeBuilder would with maybe_placeholders
    (ChildFilter), ?-inlining (ExpandSingleChild) and _-rules spliced into their parent."""
    expansion, options = rule.expansion, rule.options
    origin = _name(rule.origin.name)
    empty = options.empty_indices
    if empty:
        counts = [len(ones) for ones in "".join(str(int(b)) for b in empty).split("0")]
    else:
        counts = [0] * (len(expansion) + 1)
    recipe, nones = [], 0
    for i, symbol in enumerate(expansion):
        nones += counts[i]
        if options.keep_all_tokens or not (symbol.is_term and symbol.filter_out):
            recipe.append((i, not symbol.is_term and symbol.name.startswith("_"), nones))
            nones = 0
    trailing = nones + counts[len(expansion)]
    identity = (not trailing and len(recipe) == len(expansion)
                and all(not expand and not before for _, expand, before in recipe))
    expand1 = bool(options.expand1 and not rule.alias)
    name = _name(rule.alias or options.template_source or origin)     # as Lark names the tree
    if origin.startswith("_"):
        if expand1 or rule.alias:
            return None                 # Lark itself would splice something that is not a list
        kind = LIST
    elif expand1 and identity and len(expansion) == 1:
        kind = UNIT
    else:
        kind = NODE
    short = name.split("__")[-1]
    raw = []
    for index in raw_text.get(short, ()):
        # The index counts the children the builder gets; find the symbol it comes from.
        if index >= len(recipe) or any(expand or before for _, expand, before in recipe[:index + 1]):
            return None
        raw.append((index, recipe[index][0]))
    return (origin, len(expansion), kind, None if identity else tuple(recipe), trailing, expand1,
            _name("t_" + short.rstrip("_")), tuple(raw))


# ------------------------------------------------------------------ the loop


class Tables:
    """One grammar's tables, ready to run (lexers are compiled when a state first needs them)."""

    def __init__(self, data: dict):
        self.start, self.end = data["start"], data["end"]
        self.states = data["states"]
        self.ignore, self.kept = data["ignore"], data["kept"]
        self.rules = [self._prepared(rule) for rule in data["rules"]]
        self._lexers = data["lexers"]
        self._buckets = data["buckets"]
        self._state_lexer = data["state_lexer"]
        self._compiled = [None] * len(self._buckets)
        self._made = [None] * len(self._lexers)
        self._by_state: dict = {}        # state -> its lexer, as states are first reached
        self._units: dict = {}           # (state below, state, terminal) -> state after the ?rules

    @staticmethod
    def _prepared(rule: tuple) -> tuple:
        """A rule with its recipe made quick: None (children as popped), a getter of the children
        it keeps (no placeholders, nothing spliced), or the recipe itself."""
        origin, size, kind, recipe, trailing, expand1, handler, raw = rule
        if recipe is not None and not trailing and all(not e and not b for _, e, b in recipe) and recipe:
            picks = [i for i, _, _ in recipe]
            getter = itemgetter(*picks)
            recipe = (lambda values: [getter(values)]) if len(picks) == 1 else (lambda values: list(getter(values)))
        return (origin, size, kind, recipe, trailing, expand1, handler, raw)

    def lexer(self, state):
        """A state's lexer: (the match function for each first character met so far, the keywords
        by the terminal they are spelled like, the lexer's index)."""
        index = self._state_lexer[state]
        made = self._made[index]
        if made is None:
            made = self._made[index] = ({}, self._lexers[index][2], index)
        self._by_state[state] = made
        return made

    def _learn(self, made: tuple, char: str):
        """The match function of a lexer for a first character, compiled when first met."""
        dispatch, anything_else, _ = self._lexers[made[2]]
        match = made[0][char] = self._match(dispatch.get(char, anything_else))
        return match

    def _match(self, bucket: int):
        if bucket < 0:
            return _nothing
        compiled = self._compiled[bucket]
        if compiled is None:
            compiled = self._compiled[bucket] = re.compile(self._buckets[bucket]).match
        return compiled

    def _unit_chain(self, below, state, type_):
        """The state reached from ``state`` (over ``below``) by the ?rules reduced one after the other
        while ``type_`` is next: they only ever replace the top of the stack."""
        states, rules = self.states, self.rules
        while state != self.end:
            action = states[state].get(type_)
            if action is None or action >= 0 or rules[-1 - action][2] != UNIT:
                break
            state = states[below][rules[-1 - action][0]]
        return state

    def parse(self, text: str, builder, span_of):
        """Run the tables over ``text``; each node is ``builder.t_<rule>(span_of(line, column,
        end_line, end_column), children)``. Raises ``Unparsed`` where the text is malformed."""
        states, rules, units, kept = self.states, self.rules, self._units, self.kept
        lexers, ignore, end_state = self._by_state, self.ignore, self.end
        new, make = str.__new__, Token
        handlers = {}
        state = self.start
        state_stack, value_stack, where_stack = [state], [], []
        pos, length, line, line_start = 0, len(text), 1, 0
        count, rindex = text.count, text.rindex
        while True:
            # ---- the next token, cut by the lexer of the state the parser is in
            lexer = lexers.get(state) or self.lexer(state)
            matches, keywords = lexer[0], lexer[1]
            while True:
                if pos >= length:
                    type_, token, where = "$END", None, None
                    break
                match = matches.get(text[pos])
                if match is None:
                    match = self._learn(lexer, text[pos])
                m = match(text, pos)
                if m is None:
                    raise Unparsed(pos)
                type_ = m.lastgroup
                end = m.end()
                if type_ in ignore:
                    lines = count("\n", pos, end)
                    if lines:
                        line += lines
                        line_start = rindex("\n", pos, end) + 1
                    pos = end
                    continue
                value = m.group()
                words = keywords.get(type_)
                if words is not None:
                    type_ = words.get(value, type_)
                column = pos - line_start + 1
                if "\n" in value:
                    first_line = line
                    line += count("\n", pos, end)
                    line_start = rindex("\n", pos, end) + 1
                    where = (first_line, column, line, end - line_start + 1, pos, end)
                else:
                    where = (line, column, line, column + end - pos, pos, end)
                if type_ in kept:
                    token = new(make, value)
                    token.type = type_
                    token.where = where
                else:
                    token = None            # a keyword or bracket: no rule keeps it as a child
                pos = end
                break
            # ---- reduce as the tables say, then shift the token (or accept at the end)
            while True:
                action = states[state].get(type_)
                if action is None:
                    raise Unparsed(pos)
                if action >= 0:
                    state = action
                    state_stack.append(state)
                    value_stack.append(token)
                    where_stack.append(where)
                    break
                origin, size, kind, recipe, trailing, expand1, handler, raw = rules[-1 - action]
                if kind == UNIT:
                    below = state_stack[-2]
                    top = units.get((below, state, type_))
                    if top is None:
                        top = units[below, state, type_] = self._unit_chain(below, state, type_)
                    state_stack[-1] = state = top
                else:
                    if size:
                        values = value_stack[-size:]
                        wheres = where_stack[-size:]
                        del value_stack[-size:], where_stack[-size:], state_stack[-size:]
                        first, last = wheres[0], wheres[-1]
                        if first is None or last is None:
                            first, last = _ends(wheres)
                        if size == 1 or first is None:
                            span_where = first
                        else:
                            span_where = (first[0], first[1], last[2], last[3], first[4], last[5])
                    else:
                        values, wheres, span_where = [], [], None
                    if recipe is None:
                        children = values
                    elif trailing or type(recipe) is tuple:
                        children = []
                        for i, expand, before in recipe:
                            if before:
                                children += [None] * before
                            if expand:
                                if children:
                                    children += values[i]
                                else:
                                    children = values[i]
                            else:
                                children.append(values[i])
                        if trailing:
                            children += [None] * trailing
                    else:
                        children = recipe(values)
                    if kind == LIST:
                        value = children
                    elif expand1 and len(children) == 1:
                        value = children[0]
                    else:
                        for index, i in raw:
                            w = wheres[i]
                            children[index] = text[w[4]:w[5]]
                        method = handlers.get(handler)
                        if method is None:
                            method = handlers[handler] = getattr(builder, handler, None)
                            if method is None:
                                raise AssertionError(f"no builder for grammar rule {handler[2:]}")
                        if span_where is None and not value_stack and type_ == "$END":
                            # the whole of a file without a token (empty, or only comments): at 1:1
                            value = method(span_of(1, 1, 1, 1), children)
                        elif span_where is None:
                            value = method(span_of(0, 0, 0, 0), children)
                        else:
                            value = method(span_of(span_where[0], span_where[1], span_where[2], span_where[3]),
                                           children)
                    state = states[state_stack[-1]][origin]
                    state_stack.append(state)
                    value_stack.append(value)
                    where_stack.append(span_where)
                if state == end_state and type_ == "$END":
                    return value_stack[-1]


def _nothing(text: str, pos: int):
    return None


def _ends(wheres: list) -> tuple:
    """The first and the last position among a reduction's children (None for those that have
    none: a rule that matched nothing)."""
    present = [w for w in wheres if w is not None]
    return (present[0], present[-1]) if present else (None, None)
