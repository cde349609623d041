"""Service latency with SQLite: ``python -m benchmarks.service``.

Per-turn latency of ``GameService.play`` (validation, the versioned
transaction, the in-memory game; no rendering) over several games, and loading
a long game after a restart, from its snapshot and from the log alone.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.table import print_table
from service import GameService, LobbyOptions
from storage import Store, open_database


async def play_games(service: GameService, games: int) -> tuple[list[float], int]:
    latencies = []
    longest = (0, 0)
    for seed in range(games):
        lobby = await service.create_lobby("a", "Ann", LobbyOptions(sets=["base", "toll"], seed=seed))
        for uid, name in (("b", "Bob"), ("c", "Cy"), ("d", "Dee")):
            await service.join(lobby.id, uid, name)
        view = await service.start(lobby.id, "a")
        while not view.finished:
            (x, y), rots = sorted(view.placements.items())[0]
            draft = [{"type": "tile", "x": x, "y": y, "rot": rots[0]}]
            after = await service.options_after(lobby.id, view.user_id, view.version, draft)
            if after.step == "figure" and after.player == view.player:
                draft.append(after.choices[0].move)
            start = time.perf_counter()
            view = (await service.play(lobby.id, view.user_id, draft, view.version)).turn
            latencies.append(time.perf_counter() - start)
        longest = max(longest, (view.version, lobby.id))
    return latencies, longest[1]


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        service = GameService(Store(db))
        latencies, gid = await play_games(service, 8)
        row = await service.lobby(gid)
        with_snapshot, from_log = [], []
        for _ in range(10):
            fresh = GameService(service.store)
            start = time.perf_counter()
            await fresh.game(gid)
            with_snapshot.append(time.perf_counter() - start)
        async with service.store._tx() as conn:
            await conn.execute("DELETE FROM snapshots WHERE game_id = ?", (gid,))
        for _ in range(10):
            fresh = GameService(service.store)
            start = time.perf_counter()
            await fresh.game(gid)
            from_log.append(time.perf_counter() - start)
        await db.close()
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    rows = [
        (f"turn latency p50 ({len(ms)} turns, 4 players, SQLite file)", f"{statistics.median(ms):.1f} ms", ""),
        ("turn latency p99", f"{p99:.1f} ms", "<= 30 ms"),
        (f"load a {row.version}-move game from its snapshot", f"{statistics.median(with_snapshot) * 1000:.1f} ms", ""),
        (f"load a {row.version}-move game from the log only", f"{statistics.median(from_log) * 1000:.1f} ms", ""),
    ]
    print_table(rows)


if __name__ == "__main__":
    asyncio.run(main())
