"""The benchmark's reference for a whole game: Huntik (rules/huntik.ludex) written by hand in plain Python,
playing the same random games as the engine, trace for trace.

``benchmarks/engine.py`` prints how many random games a second the engine plays. Alone that says little:
this module says what the same games cost when a Python programmer writes them by hand, so that the
engine's rate can be read as a ratio, engine time over hand-written time, for a whole game.

"The same games" is meant exactly. ``play(seed)`` plays the game ``Game(gamedef, ["p1", "p2"],
RandomAgent(seed), seed=seed)`` plays: it draws its random numbers as the engine and the agent do (the
game's ``random.Random(seed)`` for the set-up's pick and the shuffles, the agent's
``random.Random(seed * 7919 + 17)`` picking ``options[randrange(len(options))]``), from options listed
in the engine's order (a window offers each legal play-card, then move, then use-power, each over the
player's cards in zone order, then the pass), and it writes the engine's trace: the same events, the same
words, the same players (a play's events, and those of the abilities it initiates, name its player).
``compare`` (and ``main``) check that for every seed before timing anything, and
``tests/test_huntik_by_hand.py`` keeps the two from drifting apart.

It is written the way one would write this game by hand for speed: a card is a small object with
``__slots__``, a zone a list, a player an index; the trace is a list of tuples whose words are made with
f-strings as they happen (the cost any game with a log pays). It knows no rules language and imports
nothing from ``interpreter``, except in ``main``/``compare``, which run the engine to compare with.

Only what the deck lists bring into play is written. Locked Gate, Old Library, Misty Marsh, Forgotten
Archive and Foundation Scout are in no deck list, so in these games no card is ever stunned, no triggered
power ever resolves at the start or end of a round, and no card has a free action power; no mission sets
a winner before the end of round seven, when the defending player wins (501.1).

Run: python benchmarks/huntik_by_hand.py [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

HERO, AMULET, FREE_ACTION, EXHAUST_ACTION = "hero", "amulet", "free-action", "exhaust-action"

#: Each card in the deck lists: its type, and its ability's name, kind and what it logs (None: no ability,
#: or no log). A hero's ability is its exhaust action power.
CARDS = {
    "Foundation Seeker": (HERO, "Seeker's Search", "exhaust action power",
                          "Foundation Seeker uses its exhaust action power."),
    "Organization Suit": (HERO, None, None, None),
    "Organization Agent": (HERO, "Agent's Ambush", "exhaust action power",
                           "Organization Agent uses its exhaust action power."),
    "Seeker Amulet": (AMULET, "Seeker Amulet", "amulet", "Seeker Amulet is played."),
    "Take the Initiative": (FREE_ACTION, "Take the Initiative", "free action", None),
    "Quick Search": (EXHAUST_ACTION, "Quick Search", "exhaust action", "Quick Search is played."),
}

#: The deck lists, in the order the cards are created (then shuffled): the first seat's, the second's.
FOUNDATION = (["Foundation Seeker"] * 18 + ["Seeker Amulet"] * 4 + ["Take the Initiative"] * 4
              + ["Quick Search"] * 4)
ORGANIZATION = (["Organization Suit"] * 10 + ["Organization Agent"] * 8 + ["Seeker Amulet"] * 4
                + ["Take the Initiative"] * 4 + ["Quick Search"] * 4)

MOVES = ("The hero or obstacle moves. Where it moves, and whether a combat starts, is in section 600, outside "
         "the transcribed excerpt.")
PLAY_CARD, MOVE, USE_POWER = 0, 1, 2


class Card:
    """A card: its title, type and ability (``CARDS``), and whether it is ready (a hero in play)."""

    __slots__ = ("title", "type", "ability", "kind", "log", "ready")

    def __init__(self, title: str):
        self.title = title
        self.type, self.ability, self.kind, self.log = CARDS[title]
        self.ready = True


def play(seed: int, players=("p1", "p2")) -> tuple:
    """One whole random game, as the engine plays it with ``RandomAgent(seed)`` and ``seed=seed``:
    ``(winners, trace)``, the winners' names and the trace as ``(rule, kind, text, player)`` tuples."""
    rng = random.Random(seed)                       # the game's: the set-up's pick, the shuffles
    randrange = random.Random(seed * 7919 + 17).randrange      # the agent's: every decision
    trace = []
    log = trace.append
    names = list(players)
    decks = [[Card(t) for t in FOUNDATION], [Card(t) for t in ORGANIZATION]]
    hands = [[], []]
    areas = [[], []]            # the play areas, top (the card put in last) first
    discards = [[], []]

    # set-up
    defending = rng.randrange(2)
    lead = 1 - defending
    log(("setup", "random", f"{names[defending]} is picked at random from [{names[0]}, {names[1]}]", ""))
    log(("setup", "set", f"defending-player: none -> {names[defending]}", ""))
    log(("setup", "set", f"lead-player: none -> {names[lead]}", ""))
    for p in (0, 1):
        log(("setup", "create", f"{len(decks[p])} cards into {names[p]}.draw-deck", ""))
    for p in (0, 1):
        deck, name = decks[p], names[p]
        rng.shuffle(deck)
        log(("setup", "random", f"{name}.draw-deck is shuffled", ""))
        hands[p].extend(deck[:5])
        del deck[:5]
        log(("setup", "draw", f"{name} draws 5 cards from {name}.draw-deck to {name}.hand", name))
    log(("", "event", "the game begins", ""))

    # rounds 1 to 7: the start of the round (502.1), its turns (500.2), its end (501.1)
    made = []           # who played Take the Initiative this round, in order: they go first next round
    going_first = []    # last round's: the last of them goes first this round
    for rnd in range(1, 8):
        if rnd >= 2:
            for area in areas:
                for card in area:
                    if not card.ready:
                        card.ready = True
                        log(("502.1", "set", f"{card.title}'s ready: no -> yes", ""))
            for p in (0, 1):
                deck, name = decks[p], names[p]
                hands[p].extend(deck[:2])
                del deck[:2]
                log(("502.1", "draw", f"{name} draws 2 cards from {name}.draw-deck to {name}.hand", name))
            log(("502.1", "event", f"round {rnd} begins", ""))
            going_first, made = made, []
        first = going_first[-1] if going_first else defending if rnd % 2 else lead

        log(("500.2", "window", f"Turns of the round opens; {names[first]} acts first", ""))
        passes, turn = 0, first
        while True:
            p, name, hand, area = turn, names[turn], hands[turn], areas[turn]
            turn = 1 - turn
            ready = [c for c in area if c.ready]            # every card in play is a hero
            if ready:
                options = [(PLAY_CARD, c) for c in hand]
                options += [(MOVE, c) for c in ready]
                options += [(USE_POWER, c) for c in ready if c.ability]
            else:       # an exhaust action card needs a ready hero to exhaust
                options = [(PLAY_CARD, c) for c in hand if c.type != EXHAUST_ACTION]
            k = randrange(len(options) + 1)
            if k == len(options):
                log(("500.2", "pass", f"{name} passes", name))
                passes += 1
                if passes == 2:
                    break
                continue
            passes = 0
            action, card = options[k]
            title = card.title
            if action == PLAY_CARD:
                log(("500.2", "play", f"{name} plays play-card({title})", name))
                hand.remove(card)
                kind = card.type
                if kind == HERO:
                    area.insert(0, card)
                    log(("500.2", "move", f"{title} moves from {name}.hand to {name}.play-area", name))
                    continue
                if kind == EXHAUST_ACTION:
                    hero = ready[randrange(len(ready))]
                    log(("500.2", "decision", f"{name} chooses {hero.title}: exhaust a ready hero you control (302.3)", name))
                    hero.ready = False
                    log(("500.2", "set", f"{hero.title}'s ready: yes -> no", name))
                log(("500.2", "ability", f"{name}'s {title}: {card.ability} ({card.kind}) initiates", name))
                if kind == FREE_ACTION:         # Take the Initiative: you go first next round
                    made.append(p)
                    log(("500.1d", "modifier", f"modifier: first-turn-player to {name} for the next round", name))
                else:
                    log(("500.2", "log", card.log, name))
                discards[p].insert(0, card)
                log(("500.2", "move", f"{title} moves from {name}.hand to {name}.discard-pile", name))
            elif action == MOVE:
                log(("500.2", "play", f"{name} plays move({title})", name))
                log(("500.2", "log", MOVES, name))
                card.ready = False
                log(("500.2", "set", f"{title}'s ready: yes -> no", name))
            else:
                log(("500.2", "play", f"{name} plays use-power({title})", name))
                card.ready = False
                log(("500.2", "set", f"{title}'s ready: yes -> no", name))
                log(("500.2", "ability", f"{name}'s {title}: {card.ability} ({card.kind}) initiates", name))
                log(("500.2", "log", card.log, name))
        log(("500.2", "window", "Turns of the round closes: every player passed in a row", ""))

        log(("501.1", "event", f"round {rnd} ends", ""))
        for p in going_first:
            log(("501.1", "expire", f"modifier expires: first-turn-player to {names[p]} (made by rule 500.1d)", ""))
        going_first = []
        if rnd == 7:
            winner = names[defending]
            log(("501.1", "win", f"{winner} wins the game", ""))
            return [winner], trace
        log(("501.1", "change", f"mission-timer: {rnd} -> {rnd + 1}", ""))
    raise AssertionError("the defending player wins at the end of round seven at the latest")


# ---------------------------------------------------------------- the comparison with the engine


def _engine():
    """The engine's pieces and Huntik's rules, compiled once (as ``benchmarks/engine.py`` does)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "interpreter"))
    from ludex.engine.agents import RandomAgent
    from ludex.engine.game import Game, Program
    from ludex.load import load_game
    loaded = load_game("huntik")
    assert loaded.ok, loaded.diagnostics
    Program.of(loaded.game)
    return loaded.game, Game, RandomAgent


def engine_game(gamedef, Game, RandomAgent, seed: int) -> tuple:
    """The engine's game for ``seed``: ``(winners' names, trace as tuples)``."""
    game = Game(gamedef, ["p1", "p2"], RandomAgent(seed), seed=seed)
    game.run()
    return [p.name for p in game.winners], [(e.rule, e.kind, e.text, e.player) for e in game.trace]


def check_same(gamedef, Game, RandomAgent, seeds) -> int:
    """Assert that the engine and ``play`` play the same game for every seed; the events they traced."""
    events = 0
    for seed in seeds:
        winners, trace = engine_game(gamedef, Game, RandomAgent, seed)
        mine, my_trace = play(seed)
        if my_trace != trace:
            at = next((i for i, (a, b) in enumerate(zip(trace, my_trace)) if a != b), min(len(trace), len(my_trace)))
            raise AssertionError(f"seed {seed}: the traces differ at event {at + 1}: engine "
                                 f"{trace[at] if at < len(trace) else 'ends'}, by hand "
                                 f"{my_trace[at] if at < len(my_trace) else 'ends'}")
        assert mine == winners, (seed, winners, mine)
        events += len(trace)
    return events


def by_engine(gamedef, Game, RandomAgent, seed: int) -> int:
    """The engine's side of the timed work: the game for ``seed`` played, then its whole trace put into
    words (``Game.trace``: each event's ``TraceEvent``, its text the words the hand-written side makes
    with f-strings as it plays); the events traced."""
    game = Game(gamedef, ["p1", "p2"], RandomAgent(seed), seed=seed)
    game.run()
    return len(game.trace)


def by_hand(seed: int) -> int:
    """The hand-written side of the timed work: ``play(seed)``, its trace's words made as it plays; the
    events traced."""
    return len(play(seed)[1])


#: What each side does inside the timed part, for the report.
WORK = ("engine: Game(huntik, [p1, p2], RandomAgent(seed), seed=seed).run(), then game.trace (every event "
        "a TraceEvent with its words); by hand: play(seed), its trace a list of (rule, kind, words, player) "
        "tuples made as it plays")


def spread(values: list) -> dict:
    """The median of ``values``, their interquartile range and extremes."""
    ordered = sorted(values)
    q1, q3 = (statistics.quantiles(ordered, n=4, method="inclusive")[::2] if len(ordered) > 1
              else (ordered[0], ordered[0]))
    return {"median": statistics.median(ordered), "q1": q1, "q3": q3, "min": ordered[0], "max": ordered[-1]}


def paired(gamedef, Game, RandomAgent, seeds, rounds: int) -> dict:
    """Both sides timed on the same games in ``rounds`` interleaved rounds: in each, every seed played by
    the engine and by hand one after the other (each in CPU time after a full garbage collection), which
    goes first alternating, so that a noisy spell of the shared machine falls on both; a round's ratio is
    its engine time over its hand-written time. Out: the paired ratios' spread (``spread``), and each
    side's games/s (the median over the rounds)."""
    sides = (lambda seed: by_engine(gamedef, Game, RandomAgent, seed), by_hand)
    ratios, rates = [], ([], [])
    for r in range(rounds):
        spent = [0.0, 0.0]
        for j, seed in enumerate(seeds):
            for i in ((0, 1) if (r + j) % 2 == 0 else (1, 0)):
                gc.collect()
                start = time.process_time()
                sides[i](seed)
                spent[i] += time.process_time() - start
        ratios.append(spent[0] / spent[1])
        for i in (0, 1):
            rates[i].append(len(seeds) / spent[i])
    return {"ratio": spread(ratios), "engine_games_per_s": statistics.median(rates[0]),
            "hand_games_per_s": statistics.median(rates[1]), "games": len(seeds), "rounds": rounds}


def compare(games: int, rounds: int) -> dict:
    """``paired`` for seeds 1 to ``games``, after asserting that both sides play the same games (winners
    and traces); ``events``: the events the games traced."""
    gamedef, Game, RandomAgent = _engine()
    seeds = range(1, games + 1)
    events = check_same(gamedef, Game, RandomAgent, seeds)
    return dict(paired(gamedef, Game, RandomAgent, seeds, rounds), events=events)


def report(figures: dict) -> str:
    """``compare``'s figures in words."""
    r = figures["ratio"]
    return (f"huntik, engine ÷ hand-written: median {r['median']:.2f} (interquartile {r['q1']:.2f}-{r['q3']:.2f}, "
            f"min-max {r['min']:.2f}-{r['max']:.2f}; {figures['rounds']} paired rounds of the same "
            f"{figures['games']} games, {figures['events']} events, trace for trace; CPU time)\n"
            f"  engine {figures['engine_games_per_s']:.1f} games/s, by hand {figures['hand_games_per_s']:.1f} "
            f"games/s (medians)\n  timed on both sides, words included: {WORK}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    print(report(compare(args.games, args.rounds)))


if __name__ == "__main__":
    main()
