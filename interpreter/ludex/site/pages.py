"""Pages: the collected games in, the site's Markdown pages out (one string per page).

Structure (headings, page titles) is Markdown; everything taken from a rules or scenario file goes
into raw HTML blocks built by ``markup``, escaped. Every rule is a heading with the id ``r<rule id>``.
"""

from __future__ import annotations

import datetime as _dt
import json
import re

from ..check.checks import walk
from ..check.spans import references_in
from ..compliance.mutation import score_line
from ..parse import ast as A
from ..parse.definition import is_numbered
from ..parse.errata import errata_on, text_as_corrected
from .collect import Run, ScenarioFile, SiteGame, pinned_by, rule_label, run_id
from .lexer import LudexLexer, ScenarioLexer
from .markup import Linker, esc, highlight, href, md_inline, paragraphs, source_lines
from .weave import weave

#: The trace of one run shows at most this many events.
TRACE_LIMIT = 400

#: How much higher the search ranks a rule page's sections, and how much lower a scenario page's, than
#: other pages' (Material's ``search: boost:`` front matter). A word ("first player", "initiative") is in
#: a rule and in every scenario that exercises it, and the rule is what a judge looks for: the rulings
#: come after the rules, even where a scenario's title says the words and a rule's only its text (a
#: title counts a thousand times the text: at 0.05, "initiative" and "stunned" gave scenario pages
#: first). A coverage page lists every rule's title: it comes after the rules too.
RULE_BOOST = 20
SCENARIO_BOOST = 0.001
COVERAGE_BOOST = 0.1

_RULES_LEXER = LudexLexer()
_SCENARIO_LEXER = ScenarioLexer()


def display_path(path: str) -> str:
    """``/…/rules/agot.ludex`` -> ``rules/agot.ludex``; a scenario keeps its game folder."""
    parts = re.split(r"[\\/]", str(path))
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] in ("rules", "scenarios"):
            return "/".join(parts[i:])
    return "/".join(parts[-2:])


#: A rules or scenario file's path in rendered diagnostics (``/…/scenarios/huntik/turns.scenario:3:1``).
_PATH_IN_TEXT = re.compile(r"(?:[A-Za-z]:)?[^\s'\"`:]*[\\/][^\s'\"`:]*\.(?:ludex|scenario)\b")


def display_paths(text: str) -> str:
    """Diagnostics as the site shows them: each file's path as ``display_path`` gives it, never the
    build machine's absolute path."""
    return _PATH_IN_TEXT.sub(lambda m: display_path(m.group(0)), text)


def _report(text: str, searched: bool = True) -> str:
    """A rendered diagnostic or failure report: preformatted, scrolling sideways inside its box (its lines
    are as long as the source's, wider than a phone)."""
    exclude = "" if searched else ' data-search-exclude="true"'
    return f'<pre class="ludex-report"{exclude}>{esc(display_paths(text))}</pre>'


def player_count(low: int, high: int) -> str:
    """``2 players``, ``2 to 8 players``."""
    return f"{low} player{'s' if low != 1 else ''}" if low == high else f"{low} to {high} players"


def not_checking(files: list) -> str:
    """``; 1 scenario file does not check`` (its scenarios are not counted), or nothing."""
    broken = sum(1 for f in files if f.error)
    if not broken:
        return ""
    return f"; {broken} scenario file{'s do' if broken != 1 else ' does'} not check"


def _status(status: str) -> str:
    return f'<span class="ludex-status ludex-status-{esc(status)}" data-search-exclude="true">{esc(status)}</span>'


def _block(*parts: str, cls: str = "ludex-block") -> str:
    """A raw HTML block: Markdown leaves its content alone."""
    return f'<div class="{cls}">\n' + "\n".join(p for p in parts if p) + "\n</div>\n"


def front(title: str, hide_toc: bool = False, boost: float = 1) -> str:
    """Front matter. The title is HTML-escaped: Material prints ``page.meta.title`` as it is in <title>.
    ``boost`` multiplies the page's score in the search."""
    lines = ["---", f"title: {json.dumps(esc(title))}"]
    if hide_toc:
        lines += ["hide:", "  - toc"]
    if boost != 1:
        lines += ["search:", f"  boost: {boost}"]
    return "\n".join(lines + ["---", ""]) + "\n"


def _heading(level: int, text: str, anchor: str = "", classes: str = "") -> str:
    attrs = " ".join(x for x in (f"#{anchor}" if anchor else "", classes) if x)
    return f"{'#' * max(1, min(level, 6))} {md_inline(text)}" + (f" {{ {attrs} }}" if attrs else "") + "\n"


# ------------------------------------------------------------------ rule pages


def rule_page(game: SiteGame, page, referred_by: dict) -> str:
    depth = {rid: game.depth(rid) for rid in page.rules}
    top = min(depth.values())
    out = [front(page.title, boost=RULE_BOOST)]
    if not page.single_root:
        out.append(_heading(1, page.title))
        out.append(_block(f'<p class="ludex-crumbs"><a href="{esc(href(page.page, game.index_page))}">'
                          f'{esc(game.title)}</a> · rules {esc(page.rules[0])} to {esc(page.rules[-1])}</p>'))
    base = 1 if page.single_root else 2
    for rid in page.rules:
        out.append(rule_section(game, page.page, rid, base + depth[rid] - top, referred_by))
    return "\n".join(out)


def rule_section(game: SiteGame, page: str, rid: str, level: int, referred_by: dict) -> str:
    """One rule, in the order a judge reads it: its words paragraph by paragraph (errata shown in them),
    each beside the statements that carry it out (long lines wrap: nothing scrolls sideways on a phone),
    the errata, what it is (badges), the rulings that cite it
    with their question and answer, those that merely pass through it under a count, the rules it
    refers to and is referred to by, then the rules around it (parent, previous, next, sub-rules)."""
    g = game.game
    rule = g.rules[rid]
    link = Linker(game, page)
    parts = []

    errata = errata_on(g, rid)
    parts.append(_words_and_transcription(link, g, rule, errata))
    for e in errata:
        parts.append(f'<div class="admonition warning ludex-erratum"><p class="admonition-title">Erratum · '
                     f'{esc(_erratum_source(g, e))}</p><p>“{esc(e.old)}” now reads “{esc(e.new)}”.</p></div>')

    badges = []
    if rule.outside:
        badges.append('<span class="ludex-badge ludex-badge-outside" title="The transcribed excerpt does not '
                      'contain this rule: it is referred to, or needed to run the game">outside the source</span>')
    if not is_numbered(rid):
        badges.append(f'<span class="ludex-badge">rule id <code>{esc(rid)}</code></span>')
    runs = game.runs_by_rule.get(rid, [])
    passed = sum(1 for r in runs if r.status == "passed")
    if runs:
        cls = "ludex-badge-ok" if passed == len(runs) else "ludex-badge-fail"
        badges.append(f'<span class="ludex-badge {cls}">{len(runs)} ruling{"s" if len(runs) != 1 else ""}, '
                      f'{passed} passed</span>')
    elif not rule.outside:
        badges.append('<span class="ludex-badge ludex-badge-none">no ruling exercises it</span>')
    if badges:
        parts.append('<p class="ludex-badges" data-search-exclude="true">' + " ".join(badges) + "</p>")

    if not rule.body and not rule.actions and not rule.values and not rule.triggers and not rule.checks:
        subs = game.children.get(rid, [])
        if len(subs) == 1:
            parts.append(f'<p class="ludex-hint">No procedure of its own: running it runs its sub-rule '
                         f'{link.rule_link(subs[0], say_outside=False)}.</p>')
        elif subs:
            parts.append(f'<p class="ludex-hint">No procedure of its own: running it runs its sub-rules in order '
                         f'({link.rule_link(subs[0], say_outside=False)} to {link.rule_link(subs[-1], say_outside=False)}).</p>')
        elif not rule.docs:
            parts.append('<p class="ludex-hint">A heading only: nothing to run.</p>')

    parts.append(_rulings(game, page, rid, runs, link))
    refs = [r for r in referred_to(rule) if r != rid]
    if refs:
        parts.append('<p class="ludex-refs">Refers to: ' + ", ".join(link.rule_link(r) for r in refs) + "</p>")
    back = [r for r in referred_by.get(rid, []) if r != rid]
    if back:
        parts.append('<p class="ludex-refs">Referred to by: ' + ", ".join(link.rule_link(r, say_outside=False)
                                                                          for r in back) + "</p>")
    parts.append(_around(game, rid, link))
    return _heading(level, rule_label(rule), f"r{rid}", ".ludex-rule") + "\n" + _block(*parts, cls="ludex-rule-body")


def _words_and_transcription(link: Linker, g, rule: A.Rule, errata) -> str:
    """The rule's words paragraph by paragraph (``weave``), each beside the statements that carry it out:
    side by side where the content is wide enough, the words above their statements on a phone
    (ludex.css, a container query: no script). Notes and examples go under the paragraph they follow;
    the statements' comments stay in the code, and long lines wrap."""
    rows = weave(rule)
    path = display_path(rule.span.path)
    coded = any(row.chunks for row in rows)
    out = []
    for row in rows:
        words = f"<p>{_corrected_prose(link, g, row.text, errata)}</p>" if row.text is not None else ""
        for doc in row.docs:
            paras = "".join(f"<p>{link.prose(p)}</p>" for p in paragraphs(doc.text))
            label = {"note": "Note", "example": "Example"}.get(doc.kind, doc.kind.title())
            kind = "note" if doc.kind == "note" else "example"
            words += (f'<div class="admonition {kind} ludex-{kind}"><p class="admonition-title">{label}</p>'
                      f"{paras}</div>")
        code = "".join(highlight(c.code, _RULES_LEXER, link.rule_href, "ludex",
                                 caption=f"{path} · {_line_range(c.first, c.last)}") for c in row.chunks)
        cls = "ludex-para" + ("" if code or not coded else " ludex-para-words")
        out.append(f'<div class="{cls}"><div class="ludex-text">{words}</div>'
                   + (f'<div class="ludex-para-code">{code}</div>' if code else "") + "</div>")
    head = ""
    if coded:
        head = ('<div class="ludex-weave-head" data-search-exclude="true"><span>The source\'s words</span>'
                f"<span>Transcription · {esc(path)} · {_line_range(rule.span.line, rule.span.end_line)}</span></div>")
    return f'<div class="ludex-weave{"" if coded else " ludex-weave-words"}">{head}{"".join(out)}</div>'


def _line_range(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}–{last}"


def _around(game: SiteGame, rid: str, link: Linker) -> str:
    """The rules around one: its parent, the previous and next rules in the source's order (whatever
    page they are on), and its sub-rules."""
    order = list(game.game.rules)
    at = order.index(rid)
    cells = []
    parent = game.parent.get(rid)
    if parent is not None:
        cells.append(f'<span class="ludex-nav-up" title="the rule this one is part of">↑ '
                     f'{link.rule_link(parent, say_outside=False)}</span>')
    if at > 0:
        cells.append(f'<span class="ludex-nav-prev">← {link.rule_link(order[at - 1], say_outside=False)}</span>')
    if at + 1 < len(order):
        cells.append(f'<span class="ludex-nav-next">{link.rule_link(order[at + 1], say_outside=False)} →</span>')
    subs = game.children.get(rid, [])
    if subs:
        cells.append('<span class="ludex-nav-down">↓ ' + ", ".join(link.rule_link(r, say_outside=False) for r in subs)
                     + "</span>")
    return f'<nav class="ludex-rule-nav" aria-label="rules around {esc(rid)}" data-search-exclude="true">' + \
        "".join(cells) + "</nav>" if cells else ""


def _corrected_prose(link: Linker, g, text: str, errata) -> str:
    """A paragraph of a rule's text as corrected (``parse.errata``), each corrected phrase shown as the
    words published, struck out, and the erratum's, its source on hover."""
    pieces = text_as_corrected(text, errata)
    marks, at = [], 0
    for piece in pieces:
        if piece.erratum is not None:
            marks.append((at, at + len(piece.text),
                          f'<del class="ludex-erratum-old" title="{esc(_erratum_source(g, piece.erratum))}">'
                          f'{esc(piece.published)}</del> <ins class="ludex-erratum-new">', "</ins>"))
        at += len(piece.text)
    return link.prose("".join(piece.text for piece in pieces), marks)


def _erratum_source(g, e: A.Erratum) -> str:
    src = g.source(e.source)
    name = src.title if src else e.source
    return f"{name}, version {e.version}"


def referred_to(rule: A.Rule) -> list:
    """The rules a rule refers to: in its words, its gotos and runs, and its requirements' cites."""
    found = []
    for d in rule.docs:
        found += [r for r, _ in references_in(d.text)]
    bodies = [rule.body] + [a.body for a in rule.actions] + [t.body for t in rule.triggers] + \
             [c.body for c in rule.checks]
    for body in bodies:
        for s in walk(body):
            if isinstance(s, (A.Goto, A.Run)):
                found.append(s.target)
            elif isinstance(s, A.Require):
                found.append(s.cite)
    seen, out = set(), []
    for r in found:
        if r not in seen:
            seen.add(r)
            out.append(r)
    return out


def referred_by_map(game: SiteGame) -> dict:
    back: dict = {}
    if game.game:
        for rid, rule in game.game.rules.items():
            for target in referred_to(rule):
                back.setdefault(target, []).append(rid)
    return back


def _rulings(game: SiteGame, page: str, rid: str, runs: list, link: Linker) -> str:
    """The rulings of a rule: first those that pin it (they kill a mutant of its transcription, in the
    cached ``ludex mutate`` results), then those that cite it, each with its question and answer; then,
    under a count, those whose run merely passes through it; with cached results, the rule's score
    line first. Left out of the search (the scenario pages hold the same words)."""
    rule = game.game.rules[rid]
    exercising = {id(r) for r in runs}
    pinning = pinned_by(game, rid)
    pinned = sorted((r for r in runs if run_id(r) in pinning), key=lambda r: pinning.index(run_id(r)))
    chosen = {id(r) for r in pinned}
    citing = [r for r in game.runs if rid in r.cites and id(r) not in chosen]
    through = [r for r in runs if rid not in r.cites and id(r) not in chosen]
    row = game.mutation["rules"].get(rid) if game.mutation else None
    if not pinned and not citing and not through:
        if rule.outside:
            return '<p class="ludex-muted ludex-rulings-none">Outside the source: not counted in the coverage.</p>'
        return '<p class="ludex-unexercised-note">No scenario exercises this rule yet.</p>'
    # an <aside>: Material's search ends an exclusion at the first closing tag of the same name, and the
    # rulings hold <div>s
    out = ['<aside class="ludex-rulings" data-search-exclude="true">']
    if row is not None:
        out.append(f'<p class="ludex-mutation-score">{esc(score_line(row))}</p>')

    def card(r) -> str:
        note = "" if id(r) in exercising else " · cites this rule, but its run does not exercise it"
        parts = [f'<p class="ludex-ruling-head">{_status(r.status)} {_run_link(page, r)} '
                 f'<span class="ludex-muted">{esc(r.file.name)}{note}</span></p>']
        q, a = r.scenario.question, r.scenario.answer
        if q:
            parts.append('<p class="ludex-q"><strong>Q.</strong> ' + " ".join(link.prose(p) for p in paragraphs(q))
                         + "</p>")
        if a:
            parts.append('<p class="ludex-a"><strong>A.</strong> ' + " ".join(link.prose(p) for p in paragraphs(a))
                         + "</p>")
        return '<div class="ludex-ruling-card">' + "".join(parts) + "</div>"

    if pinned:
        out.append(f'<p class="ludex-rulings-title">Rulings that pin {esc(rid)}: each fails with a small change to '
                   "its transcription</p>")
        out += [card(r) for r in pinned]
    if citing:
        out.append(f'<p class="ludex-rulings-title">Rulings on {esc(rid)}: the scenarios that cite it, with their '
                   "result in the last run</p>")
        out += [card(r) for r in citing]
    if through:
        items = "".join(f"<li>{_status(r.status)} {_run_link(page, r)} "
                        f'<span class="ludex-muted">{esc(r.file.name)}</span></li>' for r in through)
        n = len(through)
        said = (f"and {n} more ruling{'s' if n != 1 else ''} that pass{'es' if n == 1 else ''} through {rid}"
                if citing or pinned else f"{n} ruling{'s' if n != 1 else ''} pass{'es' if n == 1 else ''} through "
                f"{rid} (none cites it)")
        out.append(f'<details class="ludex-through"><summary>{esc(said)}</summary><ul>{items}</ul></details>')
    out.append("</aside>")
    return "".join(out)


def _run_link(page: str, run: Run) -> str:
    return f'<a class="ludex-ruling" href="{esc(href(page, run.file.page, run.anchor))}">{esc(run.title)}</a>'


# ------------------------------------------------------------------ scenario pages


def play_block(game: SiteGame, text: str, opened: bool = False) -> str:
    """An editor of a question with a Run button (``assets/ludex-playground.js`` makes it): the text
    as an escaped attribute, never as markup; ``opened``: shown at once, not behind "Edit and run"."""
    return (f'<div class="ludex-play" data-search-exclude="true" data-game="{esc(game.key)}" data-path="question" '
            f'data-text="{esc(text)}"{" data-open" if opened else ""}></div>')


#: A scenario's line that says what it is about, not what happens.
_ABOUT = re.compile(r"\s*(question|answer|cite|tags)\b")


def question_template(game: SiteGame) -> str:
    """A bare script to start a question from: the lines of the game's shortest passing scenario,
    without ``scenario "..." { }`` around them, nor its question, answer, cites and tags on a line
    each: the judge's question is a new one (the whole scenario if it is written on one line)."""
    runs = [r for r in game.runs if r.status == "passed"] or game.runs
    if not runs:
        return "players a, b\n"
    sc = min(runs, key=lambda r: (r.scenario.span.end_line - r.scenario.span.line, r.number)).scenario
    body = source_lines(sc.span.path, sc.span.line + 1, sc.span.end_line - 1).split("\n")
    if not any(line.strip() for line in body):
        return source_lines(sc.span.path, sc.span.line, sc.span.end_line) + "\n"
    if '"""' not in "\n".join(body):
        body = [line for line in body if not _ABOUT.match(line)]
    indent = min((len(line) - len(line.lstrip()) for line in body if line.strip()), default=0)
    return "\n".join(line[indent:] for line in body).strip("\n") + "\n"


def ask_page(game: SiteGame, template: str) -> str:
    """A game's "Ask a question" page: the playground's editor, opened, on a template."""
    out = [front(f"Ask a question: {game.title}", hide_toc=True), _heading(1, "Ask a question")]
    intro = (f"<p>Write the question as a scenario of {esc(game.title)}: the players, the set-up, the plays, "
             "then <code>run</code> a rule and say what you <code>expect</code>. Run answers it with the "
             "rules engine, in this browser, as <code>ludex ask "
             f"{esc(game.key)}</code> does: each expectation met or not, and the judge's trace with its "
             "reasons. The first answer takes a few seconds (the engine loads once); the language is in "
             f'<a href="{esc(href(game.ask_page, "guide/scenarios.md"))}">the scenario guide</a>.</p>')
    out.append(_block(intro, play_block(game, template, opened=True)))
    return "\n".join(out)


def scenario_page(game: SiteGame, sf: ScenarioFile, playground: bool = False) -> str:
    link = Linker(game, sf.page)
    out = [front(f"Scenarios: {sf.name}", boost=SCENARIO_BOOST), _heading(1, f"Scenarios: {sf.name}")]
    passed = sum(1 for r in sf.runs if r.status == "passed")
    head = [f'<p class="ludex-crumbs"><a href="{esc(href(sf.page, game.index_page))}">{esc(game.title)}</a> · '
            f"<code>{esc(display_path(str(sf.path)))}</code> · {len(sf.runs)} scenario{'s' if len(sf.runs) != 1 else ''}, "
            f"{passed} passed, {len(sf.runs) - passed} not passed (results from the run when this site was built)</p>"]
    if sf.error:
        head.append('<div class="admonition failure"><p class="admonition-title">This file does not check</p>'
                    f"{_report(sf.error)}</div>")
        head.append(highlight(sf.text, _SCENARIO_LEXER, None, "ludex-scenario", caption=display_path(str(sf.path))))
    if sf.runs:
        rows = "".join(
            f"<tr><td>S{r.number}</td><td><a href=\"#{esc(r.anchor)}\">{esc(r.title)}</a></td><td>{_status(r.status)}</td>"
            f"<td>{', '.join(link.rule_link(c, say_outside=False) for c in r.cites)}</td></tr>" for r in sf.runs)
        head.append('<table class="ludex-table" data-search-exclude="true"><thead><tr><th>#</th><th>Scenario</th>'
                    f"<th>Status</th><th>Cites</th></tr></thead><tbody>{rows}</tbody></table>")
    out.append(_block(*head))
    for r in sf.runs:
        out.append(_heading(2, r.title, r.anchor, ".ludex-scenario"))
        out.append(_block(*_scenario_parts(game, sf, r, link, playground), cls="ludex-scenario-body"))
    return "\n".join(out)


def _scenario_parts(game: SiteGame, sf: ScenarioFile, r: Run, link: Linker, playground: bool = False) -> list:
    sc = r.scenario
    parts = []
    meta = [_status(r.status), f'<span class="ludex-badge">S{r.number}</span>']
    if sc.tags:
        meta.append('<span class="ludex-muted">tags: ' + ", ".join(f"<code>{esc(t)}</code>" for t in sc.tags) + "</span>")
    if sc.players:
        meta.append(f'<span class="ludex-muted">players: {esc(", ".join(sc.players))}</span>')
    if sc.format:
        meta.append(f'<span class="ludex-muted">format: {esc(sc.format)}</span>')
    parts.append('<p class="ludex-badges" data-search-exclude="true">' + " ".join(meta) + "</p>")
    if sc.question:
        parts.append('<div class="ludex-question"><p><strong>Question.</strong> '
                     + "</p><p>".join(link.prose(p) for p in paragraphs(sc.question)) + "</p></div>")
    if sc.cards:
        parts.append(_own_cards(sc, link))
    if sc.answer:
        parts.append('<div class="ludex-answer"><p><strong>Answer.</strong> '
                     + "</p><p>".join(link.prose(p) for p in paragraphs(sc.answer)) + "</p></div>")
    if sc.cites:
        parts.append('<p class="ludex-refs">Cites: ' + ", ".join(link.rule_link(c) for c in r.cites) + "</p>")
    if r.report:
        parts.append(f'<div class="admonition failure"><p class="admonition-title">{esc(r.status.title())}</p>'
                     f"{_report(r.report, searched=False)}</div>")
    code = source_lines(sc.span.path, sc.span.line, sc.span.end_line)
    parts.append('<p class="ludex-caption" data-search-exclude="true">Source</p>')
    parts.append(highlight(code, _SCENARIO_LEXER, link.rule_href, "ludex-scenario",
                           caption=f"{display_path(sc.span.path)} · lines {sc.span.line}–{sc.span.end_line}"))
    if playground:
        parts.append(play_block(game, code + "\n"))
    if r.exercised:
        order = {rid: i for i, rid in enumerate(game.game.rules)}
        ids = sorted(r.exercised, key=lambda x: order.get(x, len(order)))
        parts.append('<p class="ludex-refs">Rules exercised: ' + ", ".join(link.rule_link(x, say_outside=False)
                                                                         for x in ids) + "</p>")
    if r.trace:
        parts.append(_trace(r, link))
    return parts


def _own_cards(sc: A.Scenario, link: Linker) -> str:
    """The cards and deck lists the scenario declares for itself, beside its question: each as its
    source writes it, in the rules' highlighting (the game's own cards are on the rules pages)."""
    n = sum(1 for item in sc.cards if isinstance(item, A.CardDefinition))
    said = f"This ruling's own card{'s' if n != 1 else ''}" + (" and decks" if n < len(sc.cards) else "")
    code = "\n".join(source_lines(item.span.path, item.span.line, item.span.end_line) for item in sc.cards)
    return (f'<div class="ludex-own-cards"><p class="ludex-caption">{esc(said)}, for this scenario alone</p>'
            + highlight(code, _RULES_LEXER, link.rule_href, "ludex") + "</div>")


def _trace(r: Run, link: Linker) -> str:
    events = r.trace[:TRACE_LIMIT]
    rows = []
    for e in events:
        rule = link.rule_link(e.rule, f"[{e.rule}]", say_outside=False) if e.rule else '<span class="ludex-muted">[flow]</span>'
        # (the judge's view: a hidden choice or card says what it was, marked hidden from the others)
        rows.append(f'<tr class="ludex-ev-{esc(e.kind)}"><td>{e.seq}</td><td>{rule}</td><td>{esc(e.view()[0])}</td></tr>')
    more = len(r.trace) - len(events)
    tail = (f'<p class="ludex-muted">… and {more} more events, not shown.</p>' if more > 0 else "")
    opened = " open" if len(r.trace) <= 60 else ""
    return (f'<details class="ludex-trace"{opened}><summary>Cited trace: {len(r.trace)} events, each with the rule '
            f'behind it</summary><div class="ludex-scroll"><table class="ludex-table ludex-trace-table" '
            f'data-search-exclude="true"><thead><tr><th>#</th><th>Rule</th><th>Event</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>{tail}</details>")


# ------------------------------------------------------------------ coverage


def coverage_page(game: SiteGame) -> str:
    g = game.game
    page = game.coverage_page
    link = Linker(game, page)
    out = [front(f"Coverage: {game.title}", hide_toc=True, boost=COVERAGE_BOOST),
           _heading(1, f"Coverage: {game.title}")]
    runs = game.runs
    transcribed = game.transcribed
    exercised = game.exercised()
    verified = game.exercised(passing_only=True)
    unexercised = [rid for rid in transcribed if rid not in exercised]
    summary = [
        f'<p class="ludex-crumbs"><a href="{esc(href(page, game.index_page))}">{esc(game.title)}</a></p>',
        f"<p>{len(transcribed)} rules from the source; {len(runs)} scenario{'s' if len(runs) != 1 else ''}. "
        f"Exercised by a scenario: <strong>{len(exercised)} ({game.percent(exercised)}%)</strong>; by a passing "
        f"scenario: <strong>{len(verified)} ({game.percent(verified)}%)</strong>. Rules outside the source are listed "
        "but not counted.</p>",
    ]
    broken = [f for f in game.files if f.error]
    if broken:
        summary.append('<p class="ludex-unexercised-note">Not counted: the scenarios of ' + ", ".join(
            f'<a href="{esc(href(page, f.page))}">{esc(f.name)}</a>' for f in broken)
            + (", which does" if len(broken) == 1 else ", which do") + " not check.</p>")
    if unexercised:
        summary.append('<p class="ludex-unexercised-note">Not exercised by any scenario: '
                       + ", ".join(link.rule_link(r) for r in unexercised) + "</p>")
    else:
        summary.append("<p>Every rule from the source is exercised by a scenario.</p>")
    out.append(_block(*summary))
    if g is None:
        return "\n".join(out)
    out.append(_heading(2, "Rules by scenarios", "matrix"))
    head = "".join(f'<th class="ludex-col"><a href="{esc(href(page, r.file.page, r.anchor))}" title="{esc(r.title)}">'
                   f"S{r.number}</a></th>" for r in runs)
    rows = []
    for rid, rule in g.rules.items():
        by = {id(r) for r in game.runs_by_rule.get(rid, [])}
        cells = []
        for r in runs:
            if id(r) in by:
                cells.append(f'<td class="ludex-hit ludex-hit-{esc(r.status)}" title="S{r.number} exercises {esc(rid)}">●</td>')
            elif rid in r.cites:
                cells.append(f'<td class="ludex-cite" title="S{r.number} cites {esc(rid)} without exercising it">○</td>')
            else:
                cells.append("<td></td>")
        count = len(by)
        cls = "ludex-row-outside" if rule.outside else ("ludex-row-unexercised" if not count else "ludex-row-ok")
        rows.append(f'<tr class="{cls}"><th class="ludex-rowhead">{link.rule_link(rid, say_outside=False)} '
                    f'<span class="ludex-muted">{esc(rule.title)}</span></th><td class="ludex-count">{count}</td>'
                    + "".join(cells) + "</tr>")
    out.append(_block(
        '<p class="ludex-muted">● the scenario\'s run exercises the rule (green: the scenario passed; red: it did '
        'not) · ○ the scenario cites the rule but its run does not exercise it · highlighted rows: rules from '
        'the source that no scenario exercises · grey rows: rules outside the source.</p>',
        '<div class="ludex-scroll"><table class="ludex-table ludex-matrix" data-search-exclude="true"><thead><tr>'
        f'<th>Rule</th><th title="scenarios that exercise it">#</th>{head}</tr></thead><tbody>{"".join(rows)}'
        "</tbody></table></div>"))
    if runs:
        out.append(_heading(2, "Scenarios", "scenarios"))
        items = "".join(f'<li>S{r.number} {_status(r.status)} <a href="{esc(href(page, r.file.page, r.anchor))}">'
                        f'{esc(r.title)}</a> <span class="ludex-muted">{esc(r.file.name)}</span></li>' for r in runs)
        out.append(_block(f'<ul class="ludex-legend">{items}</ul>'))
    return "\n".join(out)


# ------------------------------------------------------------------ game overview and home


def game_index(game: SiteGame, playground: bool = False) -> str:
    g = game.game
    page = game.index_page
    link = Linker(game, page)
    out = [front(game.title), _heading(1, game.title)]
    parts = []
    if game.errors:
        parts.append('<div class="admonition failure"><p class="admonition-title">The rules do not check</p>'
                     f"{_report(game.errors)}</div>")
    if g is None:
        out.append(_block(*parts))
        return "\n".join(out)
    h = g.header
    if h:
        facts = [f"game <code>{esc(game.key)}</code>", player_count(h.min_players, h.max_players)]
        if h.formats:
            counts = {name: player_count(low, high) for name, low, high in h.format_players}
            facts.append("formats " + ", ".join(
                f"<code>{esc(f)}</code>" + (f" ({counts[f]})" if f in counts else "") for f in h.formats))
        parts.append("<p>" + " · ".join(facts) + "</p>")
        rows = "".join(f"<tr><td><code>{esc(s.key)}</code></td><td>{esc(s.title)}</td><td>{esc(s.version)}</td>"
                       f"<td>{esc(s.detail)}</td></tr>" for s in h.sources)
        parts.append('<table class="ludex-table"><thead><tr><th>Source</th><th>Document</th><th>Version</th>'
                     f"<th>What is transcribed</th></tr></thead><tbody>{rows}</tbody></table>")
        if h.excerpt_end:
            parts.append(f"<p>The excerpt ends after {link.rule_link(h.excerpt_end)}: {link.prose(h.excerpt_note)}</p>")
    runs = game.runs
    passed = sum(1 for r in runs if r.status == "passed")
    exercised, verified = game.exercised(), game.exercised(passing_only=True)
    outside = len(g.rules) - len(game.transcribed)
    parts.append(
        f"<p>{len(game.transcribed)} rules from the source, {len(game.executable)} of them with a transcription that "
        f"runs (statements or definitions); {outside} rule{'s' if outside != 1 else ''} outside the source. "
        f"{len(runs)} scenario{'s' if len(runs) != 1 else ''}: {passed} passed, {len(runs) - passed} not"
        f"{esc(not_checking(game.files))}. "
        f'Coverage: <a href="{esc(href(page, game.coverage_page))}">{game.percent(exercised)}% of the rules exercised, '
        f"{game.percent(verified)}% by passing scenarios</a>.</p>")
    out.append(_block(*parts))

    out.append(_heading(2, "Rules", "rules"))
    items = []
    for p in game.pages:
        tops = [rid for rid in p.rules if game.parent.get(rid) is None or rid == p.rules[0]]
        rule_links = ", ".join(link.rule_link(rid, rule_label(g.rules[rid]), say_outside=False) for rid in tops[:12])
        if len(tops) > 12:
            rule_links += ", …"
        items.append(f'<li><a href="{esc(href(page, p.page))}">{esc(p.title)}</a> '
                     f'<span class="ludex-muted">({len(p.rules)} rule{"s" if len(p.rules) != 1 else ""})</span>'
                     + (f"<br>{rule_links}" if len(tops) > 1 else "") + "</li>")
    out.append(_block(f"<ul>{''.join(items)}</ul>"))

    out.append(_heading(2, "Scenarios", "scenarios"))
    if playground:
        out.append(_block(f'<p><a class="md-button" href="{esc(href(page, game.ask_page))}">Ask a question</a> '
                          "as a scenario: the rules engine answers it in this browser, with its reasons.</p>"))
    if game.files:
        rows = []
        for f in game.files:
            ok = sum(1 for r in f.runs if r.status == "passed")
            state = "does not check" if f.error else f"{ok} passed, {len(f.runs) - ok} not"
            rows.append(f'<tr><td><a href="{esc(href(page, f.page))}">{esc(f.name)}</a></td><td>{len(f.runs)}</td>'
                        f"<td>{esc(state)}</td></tr>")
        out.append(_block('<table class="ludex-table"><thead><tr><th>File</th><th>Scenarios</th><th>Result</th></tr>'
                          f"</thead><tbody>{''.join(rows)}</tbody></table>"))
    else:
        out.append(_block("<p>No scenarios yet.</p>"))

    decls = [item for m in g.modules for item in m.items
             if isinstance(item, (A.GameHeader, A.State, A.Flow))]
    if decls:
        out.append(_heading(2, "Header, state and flow", "declarations"))
        blocks = []
        for item in decls:
            code = source_lines(item.span.path, item.span.line, item.span.end_line)
            blocks.append(highlight(code, _RULES_LEXER, link.rule_href, "ludex",
                                    caption=f"{display_path(item.span.path)} · lines {item.span.line}–{item.span.end_line}"))
        out.append(_block(*blocks))
    return "\n".join(out)


def home_page(games: list, built: _dt.datetime, version: str) -> str:
    out = [front("Ludex rules", hide_toc=True), _heading(1, "Ludex rules")]
    intro = ("<p>Official rules references transcribed rule by rule into a language a machine can run. Each rule "
             "below keeps the source's number, its words and errata, shows its transcription, and lists the "
             "rulings (scenarios) that exercise it, with their result. Search takes a rule number "
             "(<code>3.2</code>, <code>500.1c</code>) straight to the rule, or any word.</p>")
    rows = []
    for game in games:
        g = game.game
        if g is None:
            rows.append(f'<tr><td class="ludex-game"><a href="{esc(href("index.md", game.index_page))}">'
                        f'{esc(game.title)}</a> <span class="ludex-status ludex-status-error">does not check</span>'
                        '</td><td colspan="4">The rules do not load: the game\'s page shows the errors.</td></tr>')
            continue
        sources = "<br>".join(f"{esc(s.title)} <span class=\"ludex-version\">version: {esc(s.version)}</span>"
                              + (f' <span class="ludex-muted">({esc(s.detail)})</span>' if s.detail else "")
                              for s in (g.header.sources if g.header else ()))
        runs = game.runs
        passed = sum(1 for r in runs if r.status == "passed")
        exercised, verified = game.exercised(), game.exercised(passing_only=True)
        broken = ' <span class="ludex-status ludex-status-error">does not check</span>' if game.errors else ""
        outside = len(g.rules) - len(game.transcribed)
        detail = [f"{len(game.executable)} with a transcription that runs"]
        if outside:
            detail.append(f"{outside} outside the source")
        if g.header and g.header.excerpt_end:
            detail.append(f"excerpt ends after {esc(g.header.excerpt_end)}")
        # on a phone each game's row is a card and each cell says what it is (data-label, ludex.css)
        rows.append(
            f'<tr><td class="ludex-game"><a href="{esc(href("index.md", game.index_page))}">{esc(game.title)}</a>'
            f'{broken}</td><td data-label="Source">{sources}</td>'
            f'<td data-label="Transcribed"><strong>{len(game.transcribed)}</strong> rules from the source<br>'
            f'<span class="ludex-muted">{" · ".join(detail)}</span></td>'
            f'<td data-label="Scenarios"><strong>{passed}</strong> of {len(runs)} passed{esc(not_checking(game.files))}</td>'
            f'<td data-label="Verified"><a href="{esc(href("index.md", game.coverage_page))}">'
            f"<strong>{game.percent(exercised)}%</strong></a> of the rules exercised<br>"
            f'<span class="ludex-muted">{game.percent(verified)}% by passing scenarios</span></td></tr>')
    table = ('<table class="ludex-table ludex-games"><thead><tr><th>Game</th><th>Source document and version</th>'
             "<th>Transcribed</th><th>Scenarios</th><th>Verified</th></tr></thead>"
             f"<tbody>{''.join(rows)}</tbody></table>")
    foot = (f'<p class="ludex-muted">Built {esc(built.strftime("%Y-%m-%d %H:%M UTC"))} with ludex {esc(version)}; '
            "scenario results are from the run made for this build. The "
            f'<a href="{esc(href("index.md", "guide/language.md"))}">language guide</a> explains how to read a '
            f'transcription and the <a href="{esc(href("index.md", "guide/scenarios.md"))}">scenario guide</a> a ruling.</p>')
    out.append(_block(intro, table, foot))
    return "\n".join(out)
