"""Engine speed, as ratios measured in one run (this machine is shared and noisy).

1. The same procedure -- a round loop with counters, player order, a pass window and conditionals --
   run by the engine from a rules file and as hand-written Python; prints ``ratio: X`` (engine time
   over Python time; target at most 5). The hand-written side does the work the engine's output
   needs: it offers each player the legal plays and a pass, asks an agent, and writes the same trace
   (checked event for event), so that the ratio compares like with like.
2. The same comparison for counters and conditionals alone (no window, no decisions):
   ``ratio (counters and conditionals): X``.
3. Whole random games per second for each bundled game, its rules compiled once beforehand (the compile
   time is printed beside it), with the engine steps (statements and decisions) a game takes and the
   steps per second: the target of 200 games/s was set on a card game of about 600 steps.
4. A whole game against the same game written by hand: Huntik's random games played by the engine and
   by ``huntik_by_hand.py`` (plain Python, the same games trace for trace, checked before timing):
   ``huntik, engine ÷ hand-written: X``.

Each timing is CPU time and starts after a full garbage collection, so that neither side pays for the
other's garbage. The machine is shared and noisy, so nothing is a best-of-N: the two sides of a ratio
are timed in ``--repeat`` interleaved rounds (which goes first alternating), the ratio taken within each
round, and the median of those paired ratios is printed with their spread (min-max); games/s is the
median over the rounds, with its spread. On both sides of every ratio the trace is put into words
inside the timed part (the engine's ``Game.trace``, the hand-written side's f-strings), and the output
says what each side does.

Run: python benchmarks/engine.py [--rounds N] [--games N] [--repeat N]

To compare two versions of Ludex instead (say, before and after a change), the same kinds of figures as
paired ratios in one run: python benchmarks/versions.py OLD_CHECKOUT [NEW_CHECKOUT].
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "interpreter"))
sys.path.insert(0, str(Path(__file__).resolve().parent))     # huntik_by_hand, also when imported

import huntik_by_hand  # noqa: E402  (beside this script)
from huntik_by_hand import spread  # noqa: E402
from ludex.engine.agents import RandomAgent  # noqa: E402
from ludex.check.checks import check  # noqa: E402
from ludex.engine.game import Game, Program  # noqa: E402
from ludex.parse.definition import assemble  # noqa: E402
from ludex.load import load_game  # noqa: E402
from ludex.resources import bundled_games  # noqa: E402
from ludex.parse.syntax import parse_rules  # noqa: E402

LOOP = '''
game bench "Benchmark" { players 4 to 4 }
state {
  game counter round = 0
  game counter pot = 0
  role first-player
  player counter coins = 0
  player counter plays = 0
}
rule 1 "Round" {
  text "A round of income, a pass window and a tally."
  increase round by 1
  for each p in players-from(first-player) {
    if p.coins < 5 { increase p.coins by 2 } else { increase p.coins by 1 }
  }
  window "Spending" starting with first-player { any number of spend }
  if odd(round) { increase pot by 1 } else { decrease pot by 1 }
  set first-player = next-player(first-player)
  action spend "spend a coin" by p {
    require p.coins >= 3 cite 1 "Too few coins."
    decrease p.coins by 3
    increase p.plays by 1
  }
}
flow { set first-player = first(players) repeat { run 1 } until round >= ROUNDS }
'''


def first_option(game, decision):
    """A deterministic agent: the first option (a play before a pass)."""
    return decision.options[0]


def engine_run(rounds: int) -> tuple:
    module = parse_rules(LOOP.replace("ROUNDS", str(rounds)), "bench.ludex")
    gamedef = assemble("bench", [module])
    assert check(gamedef) == []
    game = Game(gamedef, ["a", "b", "c", "d"], first_option)
    gc.collect()
    start = time.process_time()
    game.run()
    made = game.trace           # (its words: inside the timed part, as the hand-written side's are)
    elapsed = time.process_time() - start
    s = game.state
    trace = [(e.rule, e.kind, e.text, e.player) for e in made]
    return elapsed, (s.fields["pot"], [p.fields["coins"] for p in s.players],
                     [p.fields["plays"] for p in s.players]), trace


def python_run(rounds: int) -> tuple:
    """The same procedure written by hand, doing what the engine's output needs: each player in the
    window is offered the plays legal for them and a pass, an agent picks one, and every change is
    recorded as a trace event citing rule 1, with the same words as the engine's trace."""
    gc.collect()
    start = time.process_time()
    names = ["a", "b", "c", "d"]
    trace = []

    def record(kind, text, player=""):
        trace.append(("1", kind, text, player))

    def agent(options):
        return options[0]

    coins = [0, 0, 0, 0]
    plays = [0, 0, 0, 0]
    pot = 0
    first = 0
    rnd = 0
    trace.append(("", "set", "first-player: none -> a", ""))
    while True:
        record("change", f"round: {rnd} -> {rnd + 1}")
        rnd += 1
        for k in range(4):
            i = (first + k) % 4
            old = coins[i]
            coins[i] += 2 if old < 5 else 1
            record("change", f"{names[i]}'s coins: {old} -> {coins[i]}")
        record("window", f"Spending opens; {names[first]} acts first")
        passes, k = 0, 0
        while True:
            i = (first + k) % 4
            k += 1
            options = ([("spend", i)] if coins[i] >= 3 else []) + [("pass", i)]
            action, who = agent(options)
            if action == "spend":
                if coins[who] < 3:
                    raise AssertionError("Too few coins.")
                record("play", f"{names[who]} plays spend", names[who])
                coins[who] -= 3
                record("change", f"{names[who]}'s coins: {coins[who] + 3} -> {coins[who]}", names[who])
                plays[who] += 1
                record("change", f"{names[who]}'s plays: {plays[who] - 1} -> {plays[who]}", names[who])
                passes = 0
            else:
                record("pass", f"{names[who]} passes", names[who])
                passes += 1
                if passes >= 4:
                    break
        record("window", "Spending closes: every player passed in a row")
        record("change", f"pot: {pot} -> {pot + (1 if rnd % 2 == 1 else -1)}")
        pot += 1 if rnd % 2 == 1 else -1
        record("set", f"first-player: {names[first]} -> {names[(first + 1) % 4]}")
        first = (first + 1) % 4
        if rnd >= ROUNDS_:
            break
    return time.process_time() - start, (pot, coins, plays), trace


ROUNDS_ = 0

COUNTERS = '''
game tally "Counters" { players 4 to 4 }
state {
  game counter round = 0
  game counter pot = 0
  player counter coins = 0
}
rule 1 "Round" {
  text "Income and a tally."
  increase round by 1
  for each p in players {
    if p.coins < 5 { increase p.coins by 2 } else { decrease p.coins by 3 }
  }
  if odd(round) { increase pot by 1 } else { decrease pot by 1 }
}
flow { repeat { run 1 } until round >= ROUNDS }
'''


def counters_ratio(rounds: int, repeat: int) -> dict:
    """Engine over hand-written Python for counters and conditionals, both writing the same trace in
    words: the paired ratios of ``repeat`` rounds, which side goes first alternating (``spread``)."""
    return spread([e / p for e, p in (counters_times(rounds, r % 2 == 1) for r in range(repeat))])


def counters_times(rounds: int, hand_first: bool = False) -> tuple:
    gamedef = assemble("counters", [parse_rules(COUNTERS.replace("ROUNDS", str(rounds)), "counters.ludex")])
    assert check(gamedef) == []
    game = Game(gamedef, ["a", "b", "c", "d"], first_option)
    if hand_first:
        python_time, trace = counters_by_hand(rounds)
    gc.collect()
    start = time.process_time()
    game.run()
    made = game.trace
    engine_time = time.process_time() - start
    if not hand_first:
        python_time, trace = counters_by_hand(rounds)
    assert [(e.rule, e.kind, e.text, e.player) for e in made] == trace
    return engine_time, python_time


def counters_by_hand(rounds: int) -> tuple:
    """The counters procedure written by hand: its CPU time and its trace."""
    gc.collect()
    start = time.process_time()
    trace, coins, names, rnd, pot = [], [0, 0, 0, 0], "abcd", 0, 0
    while True:
        trace.append(("1", "change", f"round: {rnd} -> {rnd + 1}", ""))
        rnd += 1
        for i in range(4):
            old = coins[i]
            coins[i] += 2 if old < 5 else -3
            trace.append(("1", "change", f"{names[i]}'s coins: {old} -> {coins[i]}", ""))
        old = pot
        pot += 1 if rnd % 2 else -1
        trace.append(("1", "change", f"pot: {old} -> {pot}", ""))
        if rnd >= rounds:
            break
    return time.process_time() - start, trace


def games_per_second(key: str, games: int, repeat: int) -> tuple:
    """Random games per second (``Game.run``, the same ``games`` seeds in each of ``repeat`` rounds: the
    median rate over the rounds with its spread, ``spread``), the engine steps a game takes on average,
    and the time compiling the game's rules took (once per game definition, before the games: a
    simulation of many games pays it once)."""
    loaded = load_game(key)
    if not loaded.ok:
        return spread([float("nan")]), float("nan"), float("nan")
    gamedef = loaded.game
    count = gamedef.header.min_players if gamedef.header else 2
    start = time.perf_counter()
    Program.of(gamedef)
    compiled = time.perf_counter() - start
    rates, steps = [], 0
    for _ in range(repeat):
        gc.collect()
        steps = 0
        start = time.process_time()
        for seed in range(1, games + 1):
            game = Game(gamedef, [f"p{i + 1}" for i in range(count)], RandomAgent(seed), seed=seed)
            game.run()
            steps += game.steps
        rates.append(games / (time.process_time() - start))
    return spread(rates), steps / games, compiled


def procedure_ratio(rounds: int, repeat: int) -> tuple:
    """The procedure (``LOOP``) by the engine and by hand in ``repeat`` paired rounds, which goes first
    alternating, both checked to reach the same state and trace: the paired ratios (``spread``), each
    side's median CPU seconds, and the trace's length."""
    global ROUNDS_
    ROUNDS_ = rounds
    ratios, engine_times, python_times, events = [], [], [], 0
    for r in range(repeat):
        if r % 2 == 0:
            engine_time, engine_result, engine_trace = engine_run(rounds)
            python_time, python_result, python_trace = python_run(rounds)
        else:
            python_time, python_result, python_trace = python_run(rounds)
            engine_time, engine_result, engine_trace = engine_run(rounds)
        assert engine_result == python_result, (engine_result, python_result)
        assert engine_trace == python_trace, next((e, p) for e, p in zip(engine_trace, python_trace) if e != p)
        ratios.append(engine_time / python_time)
        engine_times.append(engine_time)
        python_times.append(python_time)
        events = len(python_trace)
    return spread(ratios), statistics.median(engine_times), statistics.median(python_times), events


def _spread_words(s: dict, digits: int = 2) -> str:
    return f"median {s['median']:.{digits}f} (min-max {s['min']:.{digits}f}-{s['max']:.{digits}f})"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    ratio, engine_time, python_time, events = procedure_ratio(args.rounds, args.repeat)
    print(f"procedure: {args.rounds} rounds, 4 players; the same final state and the same {events}-event trace "
          f"from both, put into words on both sides inside the timed part (the engine's Game.trace, the "
          f"hand-written f-strings)")
    print(f"engine: {engine_time * 1000:.1f} ms   hand-written Python: {python_time * 1000:.1f} ms   "
          f"(CPU time, medians of {args.repeat} interleaved rounds)")
    print(f"ratio: {_spread_words(ratio, 1)}  (target: at most 5)")
    print(f"ratio (counters and conditionals): {_spread_words(counters_ratio(args.rounds * 2, args.repeat), 1)}")
    for key in bundled_games():
        rates, steps, compiled = games_per_second(key, args.games, args.repeat)
        print(f"{key}: random games/s {_spread_words(rates, 1)}, {steps:.0f} steps a game, "
              f"{rates['median'] * steps / 1000:.0f}k steps/s (one core, {args.repeat} rounds of {args.games} games; "
              f"its rules compiled once before, in {compiled * 1000:.0f} ms)")
    print(huntik_by_hand.report(huntik_by_hand.compare(args.games, args.repeat)))


if __name__ == "__main__":
    main()
