"""Finding rules: a game and what a judge typed in, the rules meant out. Nothing here prints.

In: a ``GameDef`` (parse/definition.py) and words from the command line, or a game's name.
Out:
- ``games_named(name)``: the bundled games a name means: its key, in any case, or words of its title
  as its rules file's ``game`` header declares it ("thrones" -> agot);
- ``rule_named(game, word)``: the rule a typed id names, in any case (500.1C -> 500.1c), or None;
  ``nearest_rules`` the ids to suggest for one that names none;
- ``rule_tree(game, under)``: the rules (or a rule's sub-rules) as a tree, ``(depth, id)`` in order;
- ``search(game, words)``: the rules whose numbers, titles, text (as corrected, and as published),
  notes and examples hold the words, best first, each with the words around its first hit;
  ``nearest_words`` and ``nearest_titles`` what to suggest when none does.

The rule tree is the ids' (``GameDef.parent_of``: 500.1c is under 500.1, start-phase.place-new-locales
under start-phase); the text as corrected is parse/errata.py's.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Optional

from .diagnostics import SourceError
from .load import rule_files
from .parse import ast as A
from .parse.definition import is_numbered, parent_id
from .parse.errata import corrected, errata_on
from .parse.syntax import parse_rules_file
from .resources import bundled_games

# ---------------------------------------------------------------- games


def game_titles() -> dict:
    """Every bundled game's key and title (its ``game`` header's; "" if its files do not parse)."""
    titles = {}
    for key in bundled_games():
        titles[key] = ""
        for path in rule_files(key):
            try:
                module = parse_rules_file(path)
            except SourceError:
                continue
            header = next((i for i in module.items if isinstance(i, A.GameHeader)), None)
            if header is not None:
                titles[key] = header.title
                break
    return titles


def _words(text: str) -> list:
    return re.findall(r"\w+", text.casefold())


def games_named(name: str, titles: dict) -> list:
    """The keys of the games (of ``titles``: key -> title) that ``name`` means: the one whose key it is,
    in any case; else those whose title has each of its words, whole or begun (at least four
    letters: "throne" is in "Thrones")."""
    folded = name.strip().casefold()
    exact = [key for key in titles if key.casefold() == folded]
    if exact:
        return exact
    wanted = _words(name)
    if not wanted:
        return []
    found = []
    for key, title in titles.items():
        have = _words(title) + [key.casefold()]
        if all(any(h == w or (len(w) >= 4 and h.startswith(w)) for h in have) for w in wanted):
            found.append(key)
    return found


# ---------------------------------------------------------------- rule ids and the tree


def rule_named(game, word: str) -> Optional[str]:
    """The rule id ``word`` names: as typed, or in lower case (rule ids are written in lower case)."""
    word = word.strip()
    if word in game.rules:
        return word
    folded = word.casefold()
    return folded if folded in game.rules else None


def looks_like_a_number(word: str) -> bool:
    """A word typed as a rule number (3.2, 500.1C): one that is not a rule is an unknown rule, not
    words to search for."""
    return is_numbered(word.strip().casefold())


def nearest_rules(game, word: str, n: int = 6) -> list:
    """The ids to suggest for one that names no rule: its nearest enclosing rule and that rule's
    sub-rules (1.9 -> 1, 1.1 ... 1.5), then the ids spelled most like it; failing both, the first rules
    of the tree (numbered ones for a number)."""
    folded = word.strip().casefold()
    near = []
    parent = parent_id(folded, game.rules)
    if parent is not None:
        near = [parent] + [r for depth, r in rule_tree(game, parent) if depth == 0]
    near += difflib.get_close_matches(folded, list(game.rules), n=n, cutoff=0.3)
    if not near:                    # nothing like it: where the rules begin
        roots = [r for depth, r in rule_tree(game) if depth == 0]
        near = [r for r in roots if is_numbered(r) == is_numbered(folded)] or roots
    return list(dict.fromkeys(near))[:n]


def rule_tree(game, under: Optional[str] = None) -> list:
    """The rules as a tree, read in order: ``(depth, id)`` for each, a rule's sub-rules right after it,
    one deeper, in source order. ``under``: the sub-rules of that rule only (depth 0 its children)."""
    children: dict = {}
    for rid in game.rules:
        children.setdefault(game.parent_of(rid), []).append(rid)
    out = []
    pending = [(0, rid) for rid in reversed(children.get(under, []))]
    while pending:                  # a stack, not recursion: ids may nest deeper than Python recurses
        depth, rid = pending.pop()
        out.append((depth, rid))
        pending += [(depth + 1, c) for c in reversed(children.get(rid, []))]
    return out


# ---------------------------------------------------------------- search

#: Words too common to search for (unless they are all there is).
COMMON = frozenset("a an and are as at be by can for from has have he her his if in into is it its may "
                   "must not of on or she that the their then there this to was when which who with".split())

#: How much a word found in each part of a rule counts: its number, its title, its reference text, the
#: transcriber's notes and examples; one less where it only begins a word there ("move" in "Movement").
WEIGHTS = {"number": 16, "part of its number": 12, "title": 8, "text": 4, "text as published": 4, "note": 2,
           "example": 2}
STRONG = WEIGHTS["title"] - 1


def query_words(words) -> list:
    """The words to search for, in lower case: a rule number kept whole (500.1c), words of one letter
    and common words dropped, unless nothing else is left."""
    found = []
    for w in words:
        found += re.findall(r"\w(?:[\w.-]*\w)?", w.casefold())
    found = list(dict.fromkeys(found))
    kept = [w for w in found if w not in COMMON and (len(w) > 1 or w.isdigit())]
    return kept or found


def _patterns(word: str) -> tuple:
    """A word as a search finds it, in any case, its plural too ("modifiers" finds "modifier", "round"
    finds "rounds"): (the word whole, the word beginning a longer one)."""
    stem = word[:-1] if len(word) > 4 and word.endswith("s") and not word.endswith("ss") else word
    begun = r"(?<![\w.])" + re.escape(stem)
    return re.compile(begun + r"(?:e?s)?(?!\w)", re.IGNORECASE), re.compile(begun, re.IGNORECASE)


def _weight(patterns, text: str, weight: int) -> tuple:
    """(what the word counts in ``text``: ``weight`` found whole, one less only begun, 0 not there;
    how often it is there)."""
    whole, begun = patterns
    count = len(begun.findall(text))
    if not count:
        return 0, 0
    return (weight if whole.search(text) else weight - 1), count


def _number_weight(word: str, rid: str) -> int:
    if word == rid:
        return WEIGHTS["number"]
    if rid.startswith(word) and len(rid) > len(word):
        following = rid[len(word)]
        if following in ".-" or (word[-1].isdigit() and following.isalpha()):
            return WEIGHTS["part of its number"]
    if not is_numbered(rid) and word in re.split(r"[.-]", rid):
        return WEIGHTS["part of its number"]
    return 0


@dataclass(frozen=True)
class Match:
    """A rule the words found. ``found``: how many of the words it holds; ``weight``: the sum, over
    them, of the best part of the rule each is in (``WEIGHTS``); ``strong``: every word is in its
    number or title; ``where`` and ``snippet``: the part and the words around the first hit outside
    its number and title ("" if every word is there)."""
    rule: str
    found: int
    weight: int
    strong: bool
    where: str = ""
    snippet: str = ""


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _parts(game, rule) -> list:
    """A rule's searchable words: (part, words), its text as corrected, then as published where an
    erratum changed it, then its notes and examples."""
    errata = errata_on(game, rule.id)
    texts = [d.text for d in rule.docs if d.kind == "text"]
    parts = [("text", _flat(corrected(t, errata))) for t in texts]
    parts += [("text as published", _flat(t)) for t in texts if errata and corrected(t, errata) != t]
    parts += [(d.kind, _flat(d.text)) for d in rule.docs if d.kind != "text"]
    return parts


def snippet(text: str, start: int, end: int, width: int = 80) -> str:
    """The words around ``text[start:end]``, about ``width`` characters, cut between words."""
    lo = max(0, min(start - 30, len(text) - width))
    hi = min(len(text), max(end, lo + width))
    if lo > 0:
        space = text.find(" ", lo, start)
        lo = space + 1 if space >= 0 else lo
    if hi < len(text):
        space = text.rfind(" ", end, hi)
        hi = space if space >= 0 else hi
    return ("…" if lo > 0 else "") + text[lo:hi].strip() + ("…" if hi < len(text) else "")


def search(game, words) -> list:
    """The rules that hold any of the words, best first: those holding more of them first; then by
    where they are (a rule number above a title above the reference text above a note or example);
    then those holding the words together, as typed; then by how often; then in source order."""
    wanted = query_words(words)
    if not wanted:
        return []
    patterns = [_patterns(w) for w in wanted]
    together = re.compile(r"(?<![\w.])" + r"\W+".join(re.escape(w) for w in wanted), re.IGNORECASE) \
        if len(wanted) > 1 else None
    ranked = []
    for order, rule in enumerate(game.rules.values()):
        parts = _parts(game, rule)
        best, hits, hit_at = [], 0, None
        for word, pattern in zip(wanted, patterns):
            weight = max(_number_weight(word, rule.id), _weight(pattern, rule.title, WEIGHTS["title"])[0])
            for part, text in parts:
                found_here, count = _weight(pattern, text, WEIGHTS[part])
                hits += count
                weight = max(weight, found_here)
            best.append(weight)
        found = sum(1 for w in best if w)
        if not found:
            continue
        strong = all(w >= STRONG for w in best)
        if together is not None and together.search(rule.title):
            strong, close = True, 2
        else:
            close = 1 if together is not None and any(together.search(t) for _, t in parts) else 0
        if not strong:
            outside = [p[1] for p, w in zip(patterns, best) if w < STRONG]
            hit_at = _first_hit(parts, ([together] if close else []) + outside)
        where, text = hit_at if hit_at else ("", "")
        ranked.append(((-found, -sum(best), -close, -hits, order),
                       Match(rule.id, found, sum(best), strong, where, text)))
    ranked.sort(key=lambda r: r[0])
    return [m for _, m in ranked]


def _first_hit(parts, patterns) -> Optional[tuple]:
    for pattern in patterns:
        for part, text in parts:
            m = pattern.search(text)
            if m:
                end = re.compile(r"\w*").match(text, m.end()).end()     # the whole word it begins
                return part, snippet(text, m.start(), end)
    return None


def nearest_words(game, words, n: int = 3) -> list:
    """For words that match nothing, the words of the game's titles and texts spelled most like them."""
    vocabulary = set()
    for rule in game.rules.values():
        vocabulary.update(_words(rule.title))
        for _, text in _parts(game, rule):
            vocabulary.update(_words(text))
    near = []
    for w in query_words(words):
        for c in difflib.get_close_matches(w, sorted(vocabulary), n=n + 2, cutoff=0.75):
            if not any(_patterns(other)[0].fullmatch(c) or _patterns(c)[0].fullmatch(other) for other in near):
                near.append(c)          # one of "round" and "rounds"
    return near[:n]


def nearest_titles(game, words, n: int = 3) -> list:
    """The ids of the rules whose title is spelled most like the words, or has a word spelled most
    like one of them."""
    typed = " ".join(words).casefold()
    by_title, by_word = {}, {}
    for rid, rule in game.rules.items():
        by_title.setdefault(rule.title.casefold(), rid)
        for w in _words(rule.title):
            by_word.setdefault(w, []).append(rid)
    near = [by_title[c] for c in difflib.get_close_matches(typed, list(by_title), n=n, cutoff=0.5)]
    for w in query_words(words):
        for c in difflib.get_close_matches(w, list(by_word), n=n, cutoff=0.75):
            near += by_word[c]
    return list(dict.fromkeys(near))[:n]
