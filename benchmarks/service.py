"""Service latency with SQLite: ``python -m benchmarks.service``.

Per-turn latency of ``GameService.play`` (validation, the versioned transaction, the
in-memory game; no rendering; 4 players, an SQLite file, synchronous=FULL) over several
games, alternately with and without the cache's no-round-trip freshness check; loading a long game after a restart; and,
interleaved in one run, the game read before and after it became one round trip: the row,
the seats, the snapshot and the log read statement by statement through aiosqlite (before)
against one read transaction run on the connection's thread (after).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.table import print_table
from service import GameService, LobbyOptions
from storage import Store, open_database
from storage.store import iso


async def play_games(service: GameService, games: int) -> tuple[list[float], list[float], int]:
    """Play ``games`` games; every other one without the no-round-trip check of the cache
    (each read then goes to the database), to compare both in one run."""
    latencies: list[float] = []
    every_read: list[float] = []
    longest = (0, 0)
    token = service.store.change_token
    for seed in range(games):
        service.store.change_token = token if seed % 2 == 0 else (lambda: None)  # type: ignore[method-assign]
        sink = latencies if seed % 2 == 0 else every_read
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
            sink.append(time.perf_counter() - start)
        longest = max(longest, (view.version, lobby.id))
    service.store.change_token = token  # type: ignore[method-assign]
    return latencies, every_read, longest[1]


async def read_statement_by_statement(store: Store, game_id: int) -> None:
    """The read as it was: one awaited statement (and fetch) per table."""
    row = await store._read("SELECT * FROM games WHERE id = ?", (game_id,))
    await store._read("SELECT user_id, name, seat, is_ai, status FROM seats WHERE game_id = ?", (game_id,))
    await store._read("SELECT seq, engine_version, state FROM snapshots WHERE game_id = ?", (game_id,))
    await store._read("SELECT seq, user_id, move FROM moves WHERE game_id = ? AND seq > 0", (game_id,))
    assert row


async def append_statement_by_statement(store: Store, game_id: int, version: int) -> int:
    """The versioned append as it was: BEGIN, UPDATE, INSERT, COMMIT as four awaits."""
    async with store._tx() as conn:
        await conn.execute("UPDATE games SET version = ? WHERE id = ? AND version = ?", (version + 1, game_id, version))
        await conn.execute(
            "INSERT INTO moves (game_id, seq, user_id, move, created_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, version + 1, "x", json.dumps({"type": "pass"}), iso(time_now())),
        )
    return version + 1


def time_now() -> datetime:
    return datetime.now(UTC)


def ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.3f} ms"


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        service = GameService(Store(db))
        latencies, every_read, gid = await play_games(service, 16)
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
        # Before/after, interleaved: the same game read both ways, in turn.
        before, after, current = [], [], []
        for _ in range(300):
            start = time.perf_counter()
            await read_statement_by_statement(service.store, gid)
            before.append(time.perf_counter() - start)
            start = time.perf_counter()
            await service.store.load_game(gid)
            after.append(time.perf_counter() - start)
            start = time.perf_counter()
            await service.store.load_game(gid, cached_version=row.version)
            current.append(time.perf_counter() - start)
        # A scratch game to append to, both ways in turn (not through the service: raw moves).
        scratch = await service.store.create_game("z", {}, time_now())
        await service.store.start_game(scratch, {}, [], time_now())
        version, old_append, new_append = 0, [], []
        for _ in range(200):
            start = time.perf_counter()
            version = await append_statement_by_statement(service.store, scratch, version)
            old_append.append(time.perf_counter() - start)
            start = time.perf_counter()
            version = await service.store.append_moves(scratch, version, [("x", {"type": "pass"})], time_now(), True)
            new_append.append(time.perf_counter() - start)
        await db.close()
    turns = sorted(x * 1000 for x in latencies)
    p99 = turns[min(len(turns) - 1, int(len(turns) * 0.99))]
    slow = sorted(x * 1000 for x in every_read)
    rows = [
        (f"play p50, every read a round trip ({len(slow)} turns)", f"{statistics.median(slow):.2f} ms", ""),
        (f"play p50, cache checked with no round trip ({len(turns)})", f"{statistics.median(turns):.2f} ms", "<= 0.8"),
        ("play p99", f"{p99:.2f} ms", "<= 30 ms"),
        (f"load a {row.version}-move game from its snapshot (checked against the log)", ms(with_snapshot), ""),
        (f"load a {row.version}-move game from the log only", ms(from_log), ""),
        ("read row+seats+snapshot+log, before: statement by statement", ms(before), ""),
        ("read row+seats+snapshot+log, after: one transaction, one round trip", ms(after), ""),
        ("read row+seats when the cached game is current (every play)", ms(current), ""),
        ("versioned append of a move, before: statement by statement", ms(old_append), ""),
        ("versioned append of a move, after: one round trip", ms(new_append), ""),
    ]
    print_table(rows)


if __name__ == "__main__":
    asyncio.run(main())
