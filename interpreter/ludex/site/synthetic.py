"""A synthetic game of any size, for the site's benchmark and tests: a checked rules file and scenarios.

Sections ``1``, ``2`` ... each hold sub-rules ``s.1`` to ``s.M``; every fourth sub-rule has two lettered
sub-rules (``s.4a``, ``s.4b``) instead of a procedure. Reference text is made of ordinary rules words
(so that "duplicate" or "initiative" find something), refers to other steps ("see step 3.3", "see
section 4"), and carries errata. So a game of 2,000 rules has rule 3.2 and rule 3.20 side by side.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

WORDS = ("player active first gold income treasury plot card reveal initiative marshal duplicate "
         "character location attachment challenge phase round step window action pass order draw "
         "deck hand power reserve claim title melee joust winner tie random choose opponent control "
         "ready stand kneel cost strength unique resolve ability reaction interrupt effect").split()
SUBS = 40                     # sub-rules per section


def rules_per_section(subs: int = SUBS) -> int:
    return 1 + subs + 2 * (subs // 4)


def _sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def game_source(rules: int = 2000, key: str = "synth", seed: int = 7) -> tuple[str, list]:
    """The rules file's text, and the ids of the rules that have a procedure (leaves)."""
    rng = random.Random(seed)
    sections = max(1, math.ceil(rules / rules_per_section()))
    out = [f'game {key} "Synthetic Game" {{',
           '  source main "Synthetic Rules Reference" version "1.0" "generated for the benchmark"',
           '  source faq "Synthetic FAQ" version "1.1"',
           "  players 2 to 4",
           f'  excerpt ends after {sections}.{SUBS} "The whole generated reference."',
           "}", "", "state {", "  game counter tally = 0 min 0", "}", ""]
    leaves = []
    for s in range(1, sections + 1):
        more = f" See section {s + 1}." if s < sections else ""
        out += [f'rule {s} "Section {s}: {rng.choice(WORDS)} {rng.choice(WORDS)}" {{',
                f'  text "{_sentence(rng, 12)}{more}"', "}", ""]
        for j in range(1, SUBS + 1):
            rid = f"{s}.{j}"
            text = " ".join(_sentence(rng, rng.randint(8, 16)) for _ in range(3))
            if j < SUBS:
                text += f" Then proceed to step {s}.{j + 1}."
            erratum = j % 10 == 3
            if erratum:
                text += " Compare the reserve value of each revealed plot."
            out.append(f'rule {rid} "{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} {rng.choice(WORDS)}" {{')
            out.append(f'  text """{text}"""')
            if erratum:
                out.append('  erratum faq "1.1" replaces "reserve value" with "initiative value"')
            if j % 4 == 0:
                out += ["}", ""]
                for letter in "ab":
                    sub = f"{rid}{letter}"
                    out += [f'rule {sub} "{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)}" {{',
                            f'  text "{_sentence(rng, 10)}"', "  increase tally by 1", "}", ""]
                    leaves.append(sub)
            else:
                out += ["  increase tally by 1", f'  log "Step {rid} is done."', "}", ""]
                leaves.append(rid)
    out += ["flow {", "  begin game"] + [f"  run {s}" for s in range(1, sections + 1)] + ["  end game", "}", ""]
    return "\n".join(out), leaves


def scenario_source(leaves: list, count: int = 12, seed: int = 7) -> str:
    rng = random.Random(seed)
    chosen = sorted(set(["3.2"] + rng.sample(leaves, min(count, len(leaves)) - 1)),
                    key=lambda r: [int("".join(c for c in p if c.isdigit())) for p in r.split(".")])
    out = []
    for rid in chosen:
        out += [f'scenario "Step {rid} adds one to the tally" {{',
                f'  question "What does step {rid} do to the tally? Does a duplicate change it?"',
                f'  answer "It adds one to the tally ({rid}); the initiative does not matter."',
                f"  cite {rid}", "  tags tally", "  players ann, bob", f"  run {rid}",
                "  expect tally == 1", f"  expect trace {rid}", "}", ""]
    out += ['scenario "Steps 3.1 to 3.3 add one each" {',
            '  question "Running steps 3.1 to 3.3 in order, what is the tally?"',
            '  answer "Three: each of 3.1, 3.2 and 3.3 adds one."',
            "  cite 3.1, 3.2, 3.3", "  players ann, bob", "  run 3.1 to 3.3", "  expect tally == 3",
            "  expect trace 3.1, 3.2, 3.3", "}", ""]
    return "\n".join(out)


def write(folder: Path, rules: int = 2000, key: str = "synth", scenarios: int = 12) -> Path:
    """``folder/rules/<key>.ludex`` and ``folder/scenarios/<key>/basic.scenario``; returns ``folder/rules``."""
    folder = Path(folder)
    (folder / "rules").mkdir(parents=True, exist_ok=True)
    (folder / "scenarios" / key).mkdir(parents=True, exist_ok=True)
    text, leaves = game_source(rules, key)
    (folder / "rules" / f"{key}.ludex").write_text(text, encoding="utf-8")
    (folder / "scenarios" / key / "basic.scenario").write_text(scenario_source(leaves, scenarios), encoding="utf-8")
    return folder / "rules"
