"""Engine speed, as ratios measured in one run (this machine is shared and noisy).

1. The same procedure -- a round loop with counters, player order, a pass window and conditionals --
   run by the engine from a rules file and as hand-written Python; prints ``ratio: X`` (engine time
   over Python time; target at most 5).
2. Whole random games per second for each bundled game.

Run: python benchmarks/engine.py [--rounds N] [--games N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.agents import RandomAgent  # noqa: E402
from interpreter.checks import check  # noqa: E402
from interpreter.engine import Game  # noqa: E402
from interpreter.model import assemble  # noqa: E402
from interpreter.project import load_game  # noqa: E402
from interpreter.resources import bundled_games  # noqa: E402
from interpreter.syntax import parse_rules  # noqa: E402

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
    start = time.perf_counter()
    game.run()
    elapsed = time.perf_counter() - start
    s = game.state
    return elapsed, (s.fields["pot"], [p.fields["coins"] for p in s.players], [p.fields["plays"] for p in s.players])


def python_run(rounds: int) -> tuple:
    """The same procedure, hand-written, with a trace of the same events kept as tuples."""
    start = time.perf_counter()
    trace = []
    coins = [0, 0, 0, 0]
    plays = [0, 0, 0, 0]
    pot = 0
    first = 0
    rnd = 0
    while True:
        rnd += 1
        trace.append(("1", "change", "round", rnd))
        for k in range(4):
            i = (first + k) % 4
            coins[i] += 2 if coins[i] < 5 else 1
            trace.append(("1", "change", i, coins[i]))
        trace.append(("1", "window", "opens"))
        passes, k = 0, 0
        while True:
            i = (first + k) % 4
            k += 1
            if coins[i] >= 3:
                coins[i] -= 3
                plays[i] += 1
                trace.append(("1", "play", i))
                passes = 0
            else:
                trace.append(("1", "pass", i))
                passes += 1
                if passes >= 4:
                    break
        trace.append(("1", "window", "closes"))
        pot += 1 if rnd % 2 == 1 else -1
        first = (first + 1) % 4
        if rnd >= ROUNDS_:
            break
    return time.perf_counter() - start, (pot, coins, plays)


ROUNDS_ = 0


def games_per_second(key: str, games: int) -> float:
    loaded = load_game(key)
    if not loaded.ok:
        return float("nan")
    gamedef = loaded.game
    count = gamedef.header.min_players if gamedef.header else 2
    start = time.perf_counter()
    for seed in range(1, games + 1):
        Game(gamedef, [f"p{i + 1}" for i in range(count)], RandomAgent(seed), seed=seed).run()
    return games / (time.perf_counter() - start)


def main():
    global ROUNDS_
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    ROUNDS_ = args.rounds
    engine_time, engine_result = engine_run(args.rounds)
    python_time, python_result = python_run(args.rounds)
    assert engine_result == python_result, (engine_result, python_result)
    print(f"procedure: {args.rounds} rounds, 4 players; same final state from both")
    print(f"engine: {engine_time * 1000:.1f} ms   hand-written Python: {python_time * 1000:.1f} ms")
    print(f"ratio: {engine_time / python_time:.1f}  (target: at most 5)")
    for key in bundled_games():
        print(f"{key}: {games_per_second(key, args.games):.1f} random games/s (one core)")


if __name__ == "__main__":
    main()
