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
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

Record = dict[str, Any]


# ---------------------------------------------------------------------- jobs (run in a worker)
# The picture jobs are renderer.jobs's (turn_png, board_png, preview_png, final_png, replay_gif).
def computer_turn(record: Record, user_id: str) -> list[dict[str, Any]]:
    """The moves a computer seat makes for the decision the record stops at."""
    from engine.ai import computer_moves
    from renderer.jobs import game_of  # the same per-process cache of replayed games

    return computer_moves(game_of(record).clone(), user_id)


def hint_moves(record: Record, seed: int) -> tuple[list[dict[str, Any]], float]:
    """What the hard computer would play for the decision the record stops at (engine.ai.hint)."""
    from engine.ai import hint
    from renderer.jobs import game_of

    return hint(game_of(record).clone(), seed)


def _warm_up() -> None:
    """Each worker loads the renderer (tile art, the fixed palette) and compiles the language
    catalogs before its first job, so the first picture of a game is not the slow one."""
    import renderer.jobs  # noqa: F401
    from locales import warm_up

    warm_up()


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
            self._executor = ProcessPoolExecutor(
                count, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_up
            )

    async def run(self, job: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, job, *args)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
