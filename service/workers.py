"""CPU work off the event loop: pictures and computer players' thinking run in a worker pool.

Rendering a board and encoding it as PNG costs tens of milliseconds, a replay
GIF hundreds, a greedy computer player's turn as much: run on the event loop,
that stalls every other game's buttons. Each job is a pure function of the
game's record (``engine.replay``'s input), so it runs in a worker process: the
record is sent, bytes (or moves) come back. With ``processes=0`` the jobs run in
one thread instead (tests, the console), which keeps the loop responsive but
shares the GIL.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from engine import Game
from engine.record import load

Record = dict[str, Any]


# ---------------------------------------------------------------------- jobs (run in a worker)
@functools.lru_cache(maxsize=8)
def _game_of(record_json: str) -> Game:
    import json

    game, _events, error = load(json.loads(record_json))
    if error is not None:
        raise ValueError(f"the record does not replay: move {error[0]}: {error[1]}")
    return game


def _game(record: Record) -> Game:
    import json

    return _game_of(json.dumps(record, sort_keys=True))


def turn_png(record: Record, legal: dict[str, str] | None) -> bytes:
    """The picture of a turn: the board around what matters, legal cells labelled."""
    from renderer import board

    game = _game(record)
    cells: dict[tuple[int, int], str] = {}
    for key, label in (legal or {}).items():
        x, y = key.split(",")
        cells[(int(x), int(y))] = label
    render = getattr(board, "render_turn", None) or board.render_board
    return board.png_bytes(render(game, legal=cells or None))


def board_png(record: Record, region: Any = None) -> bytes:
    """The whole board (or one region of it)."""
    from renderer import board

    game = _game(record)
    options: dict[str, Any] = {"region": region} if region is not None else {}
    return board.png_bytes(board.render_board(game, **options))


def preview_png(record: Record, x: int, y: int, castle: str | None = None) -> bytes:
    """The drawn tile (or a castle) at one cell in each legal rotation, spots numbered."""
    from renderer.board import png_bytes
    from renderer.preview import render_preview

    return png_bytes(render_preview(_game(record), x, y, castle=castle))


def final_png(record: Record) -> bytes:
    from renderer.board import png_bytes
    from renderer.summary import render_final

    return png_bytes(render_final(_game(record)))


def replay_gif(record: Record) -> bytes:
    from renderer.summary import replay_gif as gif

    return gif(record)


def computer_turn(record: Record, user_id: str) -> list[dict[str, Any]]:
    """The moves a computer seat makes for the decision the record stops at."""
    from service.games import computer_moves

    return computer_moves(_game(record).clone(), user_id)


# ---------------------------------------------------------------------- the pool
class Workers:
    """Runs the jobs above in a pool; ``await workers.run(turn_png, record, legal)``."""

    def __init__(self, processes: int | None = None) -> None:
        self._executor: Executor
        if processes == 0:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="workers")
        else:
            count = processes or max(1, min(2, (os.cpu_count() or 2)))
            # "spawn": the bot's process has threads (aiosqlite); forking it is unsafe.
            self._executor = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn"))

    async def run(self, job: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, job, *args)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
