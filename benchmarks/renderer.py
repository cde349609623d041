"""Renderer speed and size: ``python -m benchmarks.renderer``.

Full board of a finished game (tile art cache warm, as in a running bot),
the board after one more move, a tile preview, PNG encoding and size, the
replay animation.
"""

from __future__ import annotations

import random
import statistics
import time

from benchmarks.table import print_table
from engine import Game
from engine.ai import GreedyPlayer, RandomPlayer
from engine.catalog import SET_TILES
from engine.record import game_from_record
from renderer.board import label_cells, png_bytes, render_board
from renderer.preview import render_preview
from renderer.summary import replay_gif


def timed(fn, repeat: int = 7) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, result


def long_game(tiles: int) -> Game:
    """A finished random game on a bag of ``tiles`` base tiles (the record's pool allows repeats)."""
    rng = random.Random(tiles)
    kinds = [t for t in SET_TILES["base"] for _ in range(t.count)]
    pool = [rng.choice(kinds).id for _ in range(tiles)]
    game = Game(["Ann", "Bob", "Cy", "Dee"], ["base"], pool=pool)
    ai = RandomPlayer(tiles)
    while not game.finished:
        game.apply(ai.choose(game))
    return game


def main() -> None:
    game = Game(["Ann", "Bob", "Cy"], ["base"], seed=11)
    ais = [GreedyPlayer(i) for i in range(3)]
    moves = 0
    while not game.finished:
        game.apply(ais[game.actor].choose(game))
        moves += 1
    render_board(game)  # warm the tile art cache
    full_ms, img = timed(lambda: render_board(game))
    png_ms, data = timed(lambda: png_bytes(img))

    # One move before the end: the picture after a move, with the legal cells marked.
    record = game.to_json()
    before = game_from_record(dict(record, moves=record["moves"][:-4]))
    while before.step != "tile":
        before.apply(ais[before.actor].choose(before))
    render_board(before)
    before.apply(ais[before.actor].choose(before))
    while before.step != "tile" and not before.finished:
        before.apply(ais[before.actor].choose(before))
    legal = label_cells(list(before.legal_placements()))
    move_ms, _ = timed(lambda: render_board(before, legal=legal))
    cell = max(before.legal_placements().items(), key=lambda kv: len(kv[1]))[0] if legal else None
    preview_ms = timed(lambda: render_preview(before, *cell))[0] if cell else float("nan")
    gif_ms, gif = timed(lambda: replay_gif(record), repeat=1)
    big = long_game(150)
    big_ms, big_img = timed(lambda: render_board(big), repeat=3)
    big_png = png_bytes(big_img)

    rows = [
        ("full board, finished 72-tile game", f"{full_ms:.1f} ms", "<= 80 ms"),
        ("board after one move (legal cells marked)", f"{move_ms:.1f} ms", "<= 30 ms"),
        ("tile preview", f"{preview_ms:.1f} ms", "<= 20 ms"),
        ("PNG encoding of the full board", f"{png_ms:.1f} ms", ""),
        ("PNG size of the full board", f"{len(data) / 1024:.0f} KiB ({img.width}x{img.height})", "<= 1 MiB"),
        ("replay GIF", f"{gif_ms:.0f} ms, {len(gif) / 1024:.0f} KiB", "< 8 MiB"),
        (f"board of {len(big.board.placements)} tiles", f"{big_ms:.1f} ms", ""),
        (
            f"PNG of {len(big.board.placements)} tiles",
            f"{len(big_png) / 1024:.0f} KiB ({big_img.width}x{big_img.height})",
            "<= 1 MiB, <= 4096 px",
        ),
    ]
    print_table(rows)


if __name__ == "__main__":
    main()
