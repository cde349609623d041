"""Pictures for a phone: ``python -m benchmarks.pictures``.

Interleaved, old way against new in the same run (the machine is shared and noisy):
encoding a turn picture (per-picture FASTOCTREE quantize vs the fixed palette),
the replay GIF of a full game (every tile re-rendered, each frame quantized and
handed to Pillow's writer, vs frames streamed as the boxes that changed, drawn and
palettised box by box; time and peak memory in a fresh process, and in a worker
that made another GIF before).
Also: turn picture size and measured sizes at 400 px, full board PNG at 150 tiles.
"""

from __future__ import annotations

import io
import multiprocessing
import resource
import statistics
import time
from typing import Any

from PIL import Image

from benchmarks.table import print_table
from engine import Game
from engine.ai import GreedyPlayer
from engine.record import new_game
from renderer.board import (
    PHONE_WIDTH,
    frame_for,
    label_cells,
    png_bytes,
    png_bytes_adaptive,
    render_board,
    render_turn,
    turn_frame,
)
from renderer.summary import REPLAY_FRAME_MS, REPLAY_SIDE, replay_gif

EVERY_SET = ["base", "river1", "river2", "castles", "ferries", "toll"]


def played(sets: list[str], players: int, seed: int, turns: int | None = None) -> Game:
    game = Game([f"Player{i}" for i in range(players)], sets, seed=seed)
    ais = [GreedyPlayer(seed + i) for i in range(players)]
    while not game.finished and (turns is None or game.turn < turns or game.step != "tile"):
        game.apply(ais[game.actor].choose(game))
    return game


def old_replay_gif(record: dict[str, Any]) -> bytes:
    """The former animation: the whole board re-rendered per tile, each frame quantized alone."""
    final = new_game(record)
    for move in record["moves"]:
        final.apply(move)
    cells = [c for p in final.board.placements for c in p.cells]
    span = max(max(x for x, _ in cells) - min(x for x, _ in cells), max(y for _, y in cells) - min(y for _, y in cells))
    frame = frame_for(cells, cell=max(12, REPLAY_SIDE // (span + 3)))
    game = new_game(record)
    frames = [render_board(game, frame=frame, legend=False)]
    for move in record["moves"]:
        game.apply(move)
        if move.get("type") in ("tile", "castle"):
            frames.append(render_board(game, frame=frame, legend=False))
    quantized = [f.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE) for f in frames]
    out = io.BytesIO()
    durations = [REPLAY_FRAME_MS] * (len(frames) - 1) + [3000]
    quantized[0].save(out, format="GIF", save_all=True, append_images=quantized[1:], duration=durations, loop=0)
    return out.getvalue()


def _gif_in_fresh_process(args: tuple[str, dict]) -> tuple[float, float, int, float]:
    """(ms, peak MB above the start, bytes, the process's peak MB) of one GIF, in this fresh process.

    "new, warm worker": the pool's case, a worker that has made another game's GIF before.
    """
    which, record = args
    fn = old_replay_gif if which == "old" else replay_gif
    if which == "new, warm worker":
        fn(played(EVERY_SET, 5, 3).to_json())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    data = fn(record)
    ms = (time.perf_counter() - start) * 1000
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return ms, (peak - before) / 1024, len(data), peak / 1024


def main() -> None:
    # Turn pictures of three kinds of game, encoded both ways, interleaved.
    turn_rows = []
    new_times: list[float] = []
    old_times: list[float] = []
    for name, sets in (("base", ["base"]), ("rivers+castles+ferries+toll", EVERY_SET), ("wheel", ["base", "wheel"])):
        game = played(sets, 4, 5, turns=40)
        legal = label_cells(list(game.legal_placements()))
        img = render_turn(game, legal)
        frame, left_out = turn_frame(game, legal)
        render = []
        for _ in range(15):
            t0 = time.perf_counter()
            render_turn(game, legal)
            t1 = time.perf_counter()
            png_bytes_adaptive(img)
            t2 = time.perf_counter()
            new = png_bytes(img)
            t3 = time.perf_counter()
            render.append((t1 - t0) * 1000)
            old_times.append((t2 - t1) * 1000)
            new_times.append((t3 - t2) * 1000)
        scale = PHONE_WIDTH / img.width
        turn_rows.append(
            (
                f"turn picture, {name}",
                f"{img.width}x{img.height}, {len(new) / 1024:.0f} KiB, render {statistics.median(render):.1f} ms",
                "<= 300 KiB",
            )
        )
        turn_rows.append(
            (
                "  at 400 px: tile / text / follower",
                f"{frame.cell * scale:.0f} / {frame.text * scale * 0.72:.0f} / "
                f"{frame.cell * frame.follower * scale:.0f} px ({left_out} cells off-picture)",
                ">= 40 / 11 / 14 px",
            )
        )
    old_ms, new_ms = statistics.median(old_times), statistics.median(new_times)
    rows = turn_rows + [
        ("encode turn picture, old (FASTOCTREE)", f"{old_ms:.1f} ms", ""),
        ("encode turn picture, new (fixed palette)", f"{new_ms:.1f} ms ({old_ms / new_ms:.1f}x faster)", "<= 8 ms"),
    ]

    from benchmarks.renderer import long_game

    big = long_game(150)
    board = render_board(big)
    rows.append(
        (f"full board, {len(big.board.placements)} tiles", f"{len(png_bytes(board)) / 1024:.0f} KiB", "<= 1 MiB")
    )

    record = played(EVERY_SET, 6, 9).to_json()
    ctx = multiprocessing.get_context("spawn")
    kinds = ("old", "new", "new, warm worker")
    results: dict[str, list[tuple[float, float, int, float]]] = {which: [] for which in kinds}
    with ctx.Pool(1, maxtasksperchild=1) as pool:
        for _ in range(3):
            for which in kinds:
                results[which].append(pool.apply(_gif_in_fresh_process, ((which, record),)))
    for which in kinds:
        ms = statistics.median(r[0] for r in results[which])
        peak = max(r[1] for r in results[which])
        size = results[which][0][2]
        rows.append(
            (
                f"replay GIF, 6 players, every set, {which}",
                f"{ms:.0f} ms, peak +{peak:.0f} MB (process {max(r[3] for r in results[which]):.0f} MB), "
                f"{size / 1024 / 1024:.2f} MiB",
                "<= 1 s, <= 100 MB, < 8 MiB" if which != "old" else "",  # early turns drawn larger: more pixels
            )
        )
    print_table(rows)


if __name__ == "__main__":
    main()
