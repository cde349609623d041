"""Service latency with SQLite: ``python -m benchmarks.service``.

Per-turn latency of ``GameService.play`` (validation, the versioned transaction, the
in-memory game; no rendering; 4 players, an SQLite file, synchronous=FULL) over several
games, alternately with and without the cache's no-round-trip freshness check; interleaved
in one run, the game read before and after it became one round trip: the row, the seats,
the snapshot and the log read statement by statement (before) against one
read transaction run on the connection's thread (after); and throughput under load: many
active games (2,000 by default) played by concurrent clients (32), each client playing turns
of its own games in turn, flat out (turns/s, latency of ``play`` p50/p99), interleaved: the
cache's freshness check as it was (any commit made every cached game be re-read: a play read
its row three times), per game, and per game with the collector tuned as the bot tunes it
(service.memory).
Loading a game from its snapshot: ``python -m benchmarks.load``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.table import print_grid, print_table
from service import GameService, LobbyOptions, ServiceError, TurnView
from service.memory import tune_gc
from storage import Store, open_database
from storage.times import iso
from tests.helpers import SYSTEM, anyone, as_, draft_question  # noqa: F401


async def play_games(service: GameService, games: int) -> tuple[list[float], list[float], int]:
    """Play ``games`` games; every other one without the no-round-trip check of the cache
    (each read then goes to the database), to compare both in one run."""
    latencies: list[float] = []
    every_read: list[float] = []
    longest = (0, 0)
    token = service.store.change_token
    for seed in range(games):
        service.store.change_token = token if seed % 2 == 0 else (lambda game_id: None)  # type: ignore[method-assign]
        sink = latencies if seed % 2 == 0 else every_read
        lobby = await service.create_lobby(as_("a"), "Ann", LobbyOptions(sets=["base", "toll"], seed=seed))
        for uid, name in (("b", "Bob"), ("c", "Cy"), ("d", "Dee")):
            await service.join(as_(uid), lobby.id, name)
        view = (await service.start(as_("a"), lobby.id)).turn
        while not view.finished:
            (x, y), rots = sorted(view.placements.items())[0]
            draft = [{"type": "tile", "x": x, "y": y, "rot": rots[0]}]
            after = await draft_question(service, as_(view.user_id), lobby.id, view.version, draft)
            if after.step == "figure" and after.player == view.player:
                draft.append(after.choices[0].move)
            start = time.perf_counter()
            view = (await service.play(as_(view.user_id), lobby.id, draft, view.version)).turn
            sink.append(time.perf_counter() - start)
        longest = max(longest, (view.version, lobby.id))
    service.store.change_token = token  # type: ignore[method-assign]
    return latencies, every_read, longest[1]


async def many_games(service: GameService, games: int) -> list[TurnView]:
    """``games`` started 4-player base games (no turn limit), their first turn's views."""
    views = []
    for n in range(games):
        lobby = await service.create_lobby(as_("a"), "Ann", LobbyOptions(sets=["base"], seed=n, turn_limit=0))
        for uid, name in (("b", "Bob"), ("c", "Cy"), ("d", "Dee")):
            await service.join(as_(uid), lobby.id, name)
        views.append((await service.start(as_("a"), lobby.id)).turn)
    return views


async def client(service: GameService, views: list[TurnView], until: float, latencies: list[float]) -> int:
    """Play turns of ``views``' games in turn until ``until``: the first placement, no figure."""
    turns = 0
    while time.perf_counter() < until:
        for i, view in enumerate(views):
            if view.finished:
                continue
            (x, y), rots = next(iter(view.placements.items()))
            moves = [{"type": "tile", "x": x, "y": y, "rot": rots[0]}, {"type": "pass"}]
            start = time.perf_counter()
            try:
                views[i] = (await service.play(as_(view.user_id), view.game_id, moves, view.version)).turn
            except ServiceError:  # no figure was asked after that tile: the tile alone
                views[i] = (await service.play(as_(view.user_id), view.game_id, moves[:1], view.version)).turn
            latencies.append(time.perf_counter() - start)
            turns += 1
    return turns


async def throughput(
    service: GameService, views: list[TurnView], clients: int, seconds: float
) -> tuple[float, list[float]]:
    """(turns/s, play latencies) of ``clients`` concurrent clients over the games of ``views``."""
    latencies: list[float] = []
    until = time.perf_counter() + seconds
    start = time.perf_counter()
    shares = [views[c::clients] for c in range(clients)]
    turns = await asyncio.gather(*(client(service, share, until, latencies) for share in shares))
    for c, share in enumerate(shares):
        views[c::clients] = share  # the next run goes on from there
    return sum(turns) / (time.perf_counter() - start), latencies


# name -> (the cache's freshness per game, the collector tuned as the bot tunes it)
LOAD_CASES = {
    "before: any write makes every cached game re-read": (False, False),
    "after: per-game freshness, default collector": (True, False),
    "after: per-game freshness, collector tuned (bot)": (True, True),
}
DEFAULT_GC = gc.get_threshold()


def _global_token(store: Store):  # type: ignore[no-untyped-def]
    """The cache's freshness check as it was: one count of this store's commits for all games."""

    def token(game_id: int) -> tuple[int, int, int] | None:
        current = Store.change_token(store, game_id)
        return None if current is None else (current[0], 0, store.writes + sum(store.game_writes.values()))

    return token


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


async def read_statement_by_statement(store: Store, game_id: int) -> None:
    """The read as it was: one round trip per table."""
    row = await store.db.fetch("SELECT * FROM games WHERE id = ?", (game_id,))
    await store.db.fetch("SELECT user_id, name, seat, is_ai, status FROM seats WHERE game_id = ?", (game_id,))
    await store.db.fetch("SELECT seq, engine_version, state FROM snapshots WHERE game_id = ?", (game_id,))
    await store.db.fetch("SELECT seq, user_id, move FROM moves WHERE game_id = ? AND seq > 0", (game_id,))
    assert row


async def append_statement_by_statement(store: Store, game_id: int, version: int) -> int:
    """The versioned append as it was, one round trip per statement (the cost, not the atomicity)."""
    await store.db.execute("UPDATE games SET version = ? WHERE id = ? AND version = ?", (version + 1, game_id, version))
    await store.db.execute(
        "INSERT INTO moves (game_id, seq, user_id, move, created_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, version + 1, "x", json.dumps({"type": "pass"}), iso(time_now())),
    )
    return version + 1


def time_now() -> datetime:
    return datetime.now(UTC)


def ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.3f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="active games for the throughput run")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=24.0, help="of play under load, all cases")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        service = GameService(Store(db))
        latencies, every_read, gid = await play_games(service, 16)
        row = await service.lobby(SYSTEM, gid)
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
            appended = await service.store.append_moves(scratch, version, [("x", {"type": "pass"})], time_now(), True)
            version = appended.version
            new_append.append(time.perf_counter() - start)
        await db.close()
        db = await open_database(Path(folder) / "load.db")
        loaded = GameService(Store(db))
        views = await many_games(loaded, args.games)
        store, token = loaded.store, loaded.store.change_token
        loads: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in LOAD_CASES}
        for _ in range(args.rounds):
            for name, (per_game, tuned) in LOAD_CASES.items():
                store.change_token = token if per_game else _global_token(store)  # type: ignore[method-assign]
                if tuned:
                    tune_gc()
                rate, samples = await throughput(loaded, views, args.clients, args.seconds / args.rounds)
                gc.unfreeze()
                gc.set_threshold(*DEFAULT_GC)
                loads[name][0].append(rate)
                loads[name][1].extend(samples)
        await db.close()
    turns = sorted(x * 1000 for x in latencies)
    p99 = turns[min(len(turns) - 1, int(len(turns) * 0.99))]
    slow = sorted(x * 1000 for x in every_read)
    rows = [
        (f"play p50, every read a round trip ({len(slow)} turns)", f"{statistics.median(slow):.2f} ms", ""),
        (f"play p50, cache checked with no round trip ({len(turns)})", f"{statistics.median(turns):.2f} ms", "<= 0.8"),
        ("play p99", f"{p99:.2f} ms", "<= 30 ms"),
        ("read row+seats+snapshot+log, before: statement by statement", ms(before), ""),
        ("read row+seats+snapshot+log, after: one transaction, one round trip", ms(after), ""),
        ("read row+seats when the cached game is current (every play)", ms(current), ""),
        ("versioned append of a move, before: statement by statement", ms(old_append), ""),
        ("versioned append of a move, after: one round trip", ms(new_append), ""),
    ]
    print_table(rows)
    print(f"\n{args.games} active games, {args.clients} clients, {args.rounds} rounds of each, interleaved")
    grid = []
    for name, (rates, samples) in loads.items():
        grid.append([
            name, f"{statistics.median(rates):.0f} ({min(rates):.0f}-{max(rates):.0f})",
            f"{percentile(samples, 0.5):.1f}", f"{percentile(samples, 0.99):.1f}", f"{max(samples) * 1000:.0f}",
        ])  # fmt: skip
    print_grid(["play under load", "turns/s (range)", "p50 ms", "p99 ms", "max ms"], grid)
    print("goal: >= 1,500 turns/s, p99 <= 30 ms")


if __name__ == "__main__":
    asyncio.run(main())
