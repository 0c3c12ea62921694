"""Weave: one rule (its AST node and its source lines) in, its words paragraph by paragraph out, each with
the stretches of the transcription that carry it out (``Row``), for the rule page to show side by side.

A rules file says a rule's words first (``text``, ``note``, ``example``) and its statements after them,
so the source's order alone does not say which statement carries out which paragraph. The
transcription says so itself where it can: a comment over a statement that quotes a paragraph's
opening words (``# I. Compare initiative.``) or a phrase of it in quotes (``# "this phase": ...``), and
the words a requirement cites. A statement with no such mark goes with the paragraph its names speak
of (``used-pile`` is the paragraph that says "used pile"), or else with the paragraph of the statement
before it; the first such goes with the first paragraph. Every statement is shown once, in the
source's order within its paragraph; the comments marking equivalent mutants (``ludex mutate``)
are left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..compliance.mutants import without_equivalences
from ..parse import ast as A
from .markup import dedent, file_lines, paragraphs


@dataclass
class Chunk:
    """Lines ``first`` to ``last`` of the rules file: statements and the comments over them."""
    first: int
    last: int
    code: str


@dataclass
class Row:
    """A paragraph of the rule's words (``text`` is None for a rule without words of the source), the
    notes and examples that follow it, and the transcription that carries it out."""
    text: object = None
    docs: list = field(default_factory=list)
    chunks: list = field(default_factory=list)


_NAME = re.compile(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b")
_QUOTED = re.compile(r"[\"“]([^\"”]{3,})[\"”]")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[“”’‘\"]", lambda m: "'" if m.group(0) in "’‘" else "", text)).strip().lower()


def items(rule: A.Rule) -> list:
    """The rule's statements and definitions, in the source's order."""
    found = [*rule.values, *rule.actions, *rule.triggers, *rule.checks, *rule.body]
    return sorted((x for x in found if getattr(x, "span", None) is not None),
                  key=lambda x: (x.span.line, x.span.column))


def weave(rule: A.Rule) -> list:
    """The rule's rows: one per paragraph of its words, each with the notes and examples written after
    it and the transcription's chunks that carry it out."""
    rows, texts = [], []
    for doc in rule.docs:
        if doc.kind == "text":
            for p in paragraphs(doc.text):
                rows.append(Row(p))
                texts.append(_norm(p))
        elif rows:
            rows[-1].docs.append(doc)
        else:
            rows.append(Row(None, [doc]))
            texts.append("")
    if not rows:
        rows, texts = [Row()], [""]
    lines = file_lines(rule.span.path)
    stmts = items(rule) if lines else []            # a file that cannot be read again: the words alone
    floor = max([rule.span.line] + [d.span.end_line for d in rule.docs if d.span] +
                [e.span.end_line for e in rule.errata if getattr(e, "span", None)])
    current, previous_end = _first_row(texts), floor
    placed: list = []                  # (row, first line, last line)
    for item in stmts:
        first = item.span.line
        while first - 1 > previous_end and lines[first - 2].strip().startswith("#"):
            first -= 1
        leading = [_comment(ln) for ln in lines[first - 1: item.span.line - 1]]
        own = lines[item.span.line - 1: item.span.end_line]
        inner = [_comment(ln) for ln in own if ln.strip().startswith("#")]
        row = _said(texts, leading)
        if row is None:
            rows_inner = [r for r in (_said(texts, [c]) for c in inner) if r is not None]
            row = min(rows_inner) if rows_inner else _quoted(texts, "\n".join(leading + own))
        if row is None:
            row = _defines(texts, item.name) if isinstance(item, A.Value) else _named(texts, "\n".join(own))
        if row is None:
            row = current
        elif not isinstance(item, A.Value):
            current = row
        placed.append((row, first, item.span.end_line))
        previous_end = item.span.end_line
    for row, first, last in placed:
        chunks = rows[row].chunks
        if chunks and _only_blank_or_comments(lines, chunks[-1].last, first):
            chunks[-1].last = last
        else:
            chunks.append(Chunk(first, last, ""))
    for row in rows:
        for chunk in row.chunks:
            # a mark of an equivalent mutant speaks to the rules' writers, not to a judge
            chunk.code = dedent(without_equivalences("\n".join(lines[chunk.first - 1: chunk.last])))
    return rows


def _first_row(texts: list) -> int:
    return next((i for i, t in enumerate(texts) if t), 0)


def _only_blank_or_comments(lines: list, after: int, before: int) -> bool:
    return all(not ln.strip() or ln.strip().startswith("#") for ln in lines[after: before - 1])


_STOP = set("the and for that with this are its his her their from than then when each any all not but has have "
             "was were been being into onto upon who whom which what there here they them she him one two".split())


def _comment(line: str) -> str:
    return line.strip().lstrip("#").strip()


def _words(text: str) -> set:
    return {w.rstrip("s") for w in re.findall(r"[a-z]{3,}", text) if w not in _STOP}


def _said(texts: list, comments: list):
    """The paragraph comments say: one that opens with a comment's words (``# I. Compare initiative.``),
    holds it as a sentence, or holds most of its words (``# • The mission timer is increased by 1.``)."""
    found = []
    for comment in comments:
        said = _norm(comment)
        head = said.split(":")[0].strip()
        words = _words(said)
        quoted = [q for q in (_norm(x).rstrip(".") for x in _QUOTED.findall(comment)) if len(q.split()) >= 2]
        best, at = 0.0, None
        for i, t in enumerate(texts):
            if not t:
                continue
            if any(q in t for q in quoted):
                score = 2.5
            elif len(head.split()) >= 2 and (t.startswith(said) or t.startswith(head)):
                score = 3.0
            elif len(said) > 12 and said in t:
                score = 2.0
            elif len(words) >= 3:
                score = len(words & _words(t)) / len(words)
            else:
                continue
            if score > best:
                best, at = score, i
        if best >= 0.5:
            found.append(at)
    # a comment over several paragraphs' statements ("• ..., then • ...") goes with the first of them
    return min(found) if found else None


def _quoted(texts: list, code: str):
    """The paragraph that holds the most of the phrases a statement quotes (a requirement's cited words,
    ``# "this phase": ...``), or None."""
    scores = [0] * len(texts)
    for phrase in _QUOTED.findall(code):
        said = _norm(phrase).rstrip(".")
        if len(said.split()) < 2 or "..." in said or "…" in said:
            continue
        for i, t in enumerate(texts):
            if t and said in t:
                scores[i] += 1
    best = max(scores)
    return scores.index(best) if best else None


def _defines(texts: list, name: str):
    """The first paragraph that speaks of what a value names (``used-pile``: "used pile"), or None."""
    words = re.escape(name.replace("-", " "))
    for i, t in enumerate(texts):
        if t and re.search(r"\b" + words + r"s?\b", t):
            return i
    return None


def _named(texts: list, code: str):
    """The one paragraph that speaks of two or more of a statement's hyphenated names (``plot-deck`` and
    ``used-pile``: "plot deck", "used pile"), or None: one name alone is too often the transcriber's."""
    names = {n.replace("-", " ") for n in _NAME.findall(code)}
    scores = [sum(1 for n in names if re.search(r"\b" + re.escape(n) + r"s?\b", t)) if t else 0 for t in texts]
    best = max(scores)
    if best < 2 or scores.count(best) > 1:
        return None
    return scores.index(best)
