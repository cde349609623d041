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
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

Record = dict[str, Any]


# ---------------------------------------------------------------------- jobs (run in a worker)
# The picture jobs are renderer.jobs's (turn_pngs, board_png, preview_png, final_png, replay_gif).
def computer_turn(record: Record, user_id: str) -> list[dict[str, Any]]:
    """The moves a computer seat makes for the decision the record stops at."""
    from engine.ai import computer_moves
    from renderer.jobs import game_of  # the same per-process cache of replayed games

    return computer_moves(game_of(record).clone(), user_id)


def category_totals(games: list[tuple[Record, str]], language: str) -> list[tuple[str, int]]:
    """A player's points by category over finished games (record, their name), worded, most first."""
    from engine.language import speaking
    from locales import translations
    from renderer.story import category_word, points_by_category

    with speaking(translations(language)):
        totals = points_by_category(games)
        return [(category_word(k), n) for k, n in sorted(totals.items(), key=lambda kv: -kv[1])]


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
    """Runs the jobs above in a pool; ``await workers.run(turn_pngs, record, legal)``.

    A worker process that dies (killed, out of memory) breaks a ``ProcessPoolExecutor`` for good:
    the pool is then started anew and the job tried once more, so pictures and computer players
    never stop for the rest of the process's life; ``restarts`` counts it."""

    def __init__(self, processes: int | None = None) -> None:
        self.threads = processes == 0  # tests and tools: one thread, no processes
        self.size = 1 if self.threads else processes or max(1, min(2, (os.cpu_count() or 2)))
        self.restarts = 0
        self._executor = self._start()

    def _start(self) -> Executor:
        if self.threads:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="workers")
        # "spawn": the bot's process has threads (the database's); forking it is unsafe.
        return ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_up)

    async def run(self, job: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, job, *args)
        except BrokenProcessPool:
            log.error("a worker process died: the pool starts anew")
            self.restarts += 1
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._start()
            return await loop.run_in_executor(self._executor, job, *args)

    async def warm(self) -> None:
        """Start every worker now (the pool starts them at its first jobs otherwise)."""
        await asyncio.gather(*(self.run(_alive) for _ in range(self.size)))
        from engine import IMPLEMENTATION  # (each worker imports the same build: engine/_compiled.py)

        where = "one thread" if self.threads else f"{self.size} worker processes"
        log.info("%s ready; the %s engine runs (python compile_engine.py --check says why)", where, IMPLEMENTATION)

    def alive(self) -> int:
        """Worker processes running now (the thread counts as one)."""
        if self.threads:
            return 1
        return min(self.size, len(multiprocessing.active_children()))

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _alive() -> int:
    return os.getpid()
