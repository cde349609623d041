"""Engine speed: ``python -m benchmarks.engine [--games N]``.

Random 2-player base games played to the end through the public API (every
legal placement enumerated each turn, random follower choices, final scoring),
legal-placement enumeration, and replaying a full game's record.
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks.table import print_table
from engine import Game
from engine.ai import RandomPlayer
from engine.record import load


def play_random(seed: int) -> Game:
    game = Game(["Ann", "Bob"], ["base"], seed=seed)
    ai = RandomPlayer(seed)
    while not game.finished:
        game.apply(ai.choose(game))
    return game


def games_per_second(n: int, rounds: int = 5) -> tuple[float, float]:
    """(best, median) rate over several rounds: this machine's speed drifts a lot
    between runs (shared cores), so the best round is the figure for the code."""
    rates = []
    for r in range(rounds):
        start = time.perf_counter()
        for seed in range(r * n, (r + 1) * n):
            play_random(seed)
        rates.append(n / (time.perf_counter() - start))
    return max(rates), statistics.median(rates)


def enumeration_us(n: int) -> float:
    """Mean time to list every legal placement of the drawn tile, over real positions."""
    samples = []
    for seed in range(n):
        game = Game(["Ann", "Bob"], ["base"], seed=seed)
        ai = RandomPlayer(seed)
        while not game.finished:
            if game.step == "tile":
                tile = game.drawn
                start = time.perf_counter()
                game.board.fitting_placements(tile)
                samples.append(time.perf_counter() - start)
            game.apply(ai.choose(game))
    return statistics.mean(samples) * 1e6


def replay_ms(n: int) -> tuple[float, float]:
    records = [play_random(seed).to_json() for seed in range(n)]
    times = []
    for record in records:
        start = time.perf_counter()
        load(record)
        times.append(time.perf_counter() - start)
    return statistics.mean(times) * 1e3, max(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per timing round")
    args = parser.parse_args()
    play_random(0)  # warm the tile tables
    gps, median = games_per_second(args.games)
    enum = enumeration_us(max(10, args.games // 10))
    mean_replay, worst_replay = replay_ms(max(10, args.games // 5))
    rows = [
        ("random base games per second (2 players, best of 5)", f"{gps:.0f}", ">= 400"),
        ("random base games per second (median of 5)", f"{median:.0f}", ""),
        ("legal-placement enumeration, mean", f"{enum:.1f} us", ""),
        ("full-game replay, mean", f"{mean_replay:.2f} ms", "< 10 ms"),
        ("full-game replay, worst", f"{worst_replay:.2f} ms", ""),
    ]
    print_table(rows)
    print(f"random base games per second: {gps:.0f}")


if __name__ == "__main__":
    main()
