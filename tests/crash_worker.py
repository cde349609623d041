"""A process that plays concurrent games until it is killed, and the harness that kills it.

``python tests/crash_worker.py DB SEED`` plays ``GAMES`` games at once over the database and
prints ``ACK game version`` once a turn is stored. ``kill_round`` starts workers, SIGKILLs them
at a random moment, and ``check`` verifies that every acknowledged move survived and every
game loads. Used by tests/test_crash.py (a few rounds) and benchmarks/chaos.py (100 kills).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service import GameService, LobbyOptions  # noqa: E402
from storage import Store, open_database  # noqa: E402
from tests.helpers import SYSTEM, as_, draft_question  # noqa: E402

GAMES = 4  # games each worker plays at once


async def _player(service: GameService, rng: random.Random, prefix: str) -> None:
    """Play game after game: open, join, start, then turns until the end."""
    while True:
        n = rng.randrange(10**9)
        lobby = await service.create_lobby(as_(f"a{prefix}{n}"), "Ann", LobbyOptions(seed=n, turn_limit=0))
        if n % 2:  # half the games face a computer: a kill may fall between a move and its reply
            await service.add_ai(as_(f"a{prefix}{n}"), lobby.id, "normal")
        else:
            await service.join(as_(f"b{prefix}{n}"), lobby.id, "Bob")
        view = (await service.start(as_(f"a{prefix}{n}"), lobby.id)).turn
        while not view.finished:
            (x, y), rots = sorted(view.placements.items())[rng.randrange(len(view.placements))]
            draft = [{"type": "tile", "x": x, "y": y, "rot": rots[0]}]
            after = await draft_question(service, as_(view.user_id), lobby.id, view.version, draft)
            if after.step == "figure" and after.player == view.player:
                draft.append(rng.choice(after.choices).move)
            view = (await service.play(as_(view.user_id), lobby.id, draft, view.version)).turn
            print(f"ACK {lobby.id} {view.version}", flush=True)


async def _ticker(service: GameService, every: float) -> None:
    """The deadline clock, as the bot runs it (faster): prints ``TICK time`` after each tick."""
    while True:
        await service.tick()
        print(f"TICK {time.time():.3f}", flush=True)
        await asyncio.sleep(every)


async def main(db_path: str, seed: int, tick_every: float = 0.0) -> None:
    db = await open_database(db_path)
    service = GameService(Store(db))
    rng = random.Random(seed)
    players = [_player(service, random.Random(rng.random()), f"{seed}.{i}.") for i in range(GAMES)]
    await asyncio.gather(*players, *([_ticker(service, tick_every)] if tick_every else []))


@dataclass
class Round:
    acks: list[tuple[int, int]]  # (game id, version) acknowledged before the kill
    killed: int  # processes killed in this round


def kill_round(
    db: Path, seed: int, after: float | None = None, workers: int = 2, acks_each: int | None = None
) -> Round:
    """Start ``workers`` processes over ``db`` and SIGKILL them all: once each has acknowledged
    ``acks_each`` moves in at least two games (the tests: a moment set by what the workers did,
    not by a clock racing the machine's load), or after ``after`` seconds (the benchmark)."""
    import threading

    procs = [
        subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), str(db), str(seed * 10 + i)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(workers)
    ]
    if acks_each is None:
        time.sleep(after or 1.0)
        for proc in procs:
            os.kill(proc.pid, signal.SIGKILL)
        acks: list[tuple[int, int]] = []
        for proc in procs:
            out, _ = proc.communicate(timeout=60)
            acks += _acks(out)
        return Round(acks, workers)
    outputs: list[list[str]] = [[] for _ in procs]
    progressed = [threading.Event() for _ in procs]

    def follow(proc: subprocess.Popen[str], lines: list[str], ready: threading.Event) -> None:
        assert proc.stdout is not None
        games: set[int] = set()
        acked = 0  # counted line by line: the output of a long run is never parsed again
        for line in proc.stdout:
            lines.append(line)
            for game, _version in _acks(line):
                games.add(game)
                acked += 1
            if acked >= acks_each and len(games) >= 2:
                ready.set()  # this worker has played enough: it may be killed now

    jobs = zip(procs, outputs, progressed, strict=True)
    readers = [threading.Thread(target=follow, args=job, daemon=True) for job in jobs]
    for reader in readers:
        reader.start()
    try:
        for proc, ready in zip(procs, progressed, strict=True):
            while not ready.wait(1.0):  # never a deadline: only a worker that died early stops the wait
                if proc.poll() is not None:
                    raise RuntimeError(f"a crash worker ended by itself (exit {proc.returncode}): see its stderr")
    finally:  # a failure must not leave a worker playing (and its reader parsing) for the rest of the run
        for proc in procs:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
        for proc, reader in zip(procs, readers, strict=True):
            proc.wait()
            reader.join()  # the pipe closed with the process: every line it wrote has been read
    return Round([ack for lines in outputs for ack in _acks("".join(lines))], workers)


def _acks(out: str) -> list[tuple[int, int]]:
    parts = (line.split() for line in out.splitlines())
    return [(int(p[1]), int(p[2])) for p in parts if len(p) == 3 and p[0] == "ACK"]


@dataclass
class Rolling:
    acks: list[tuple[int, int]]
    killed: int
    ticks: list[float]  # when any process's clock ticked (wall time)
    kill_times: list[float]


def kill_rolling(
    url: str, kills: int, workers: int, rng: random.Random, tick_every: float = 0.5, by_progress: bool = False
) -> Rolling:
    """``workers`` processes over one shared database (PostgreSQL), each playing and ticking the
    clock; one of them, at random, is SIGKILLed and replaced, ``kills`` times; then all are
    stopped. What they acknowledged and when their clocks ticked.

    A victim dies every 0.5-2 s (the benchmark), or, ``by_progress`` (the tests), once the
    processes alive have acknowledged 3-10 more moves and ticked twice more since the last kill:
    the moment follows what they did, never a clock racing the machine's load, and a clock that
    stopped ticking after a kill shows as a wait that ends only with ``STALLED`` (60 s)."""
    import threading

    lines: list[str] = []  # every process's output, in the order read
    arrived = threading.Condition()

    def start(n: int) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), url, str(n), str(tick_every)],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip

        def read() -> None:
            for line in proc.stdout:  # type: ignore[union-attr]
                with arrived:
                    lines.append(line)
                    tally[0] += len(_acks(line))
                    tally[1] += line.startswith("TICK ")
                    arrived.notify_all()

        threading.Thread(target=read, daemon=True).start()
        return proc

    tally = [0, 0]  # acks and ticks read so far, counted line by line

    def counted() -> tuple[int, int]:
        return tally[0], tally[1]

    seeds = iter(range(10**6))
    running = [start(next(seeds)) for _ in range(workers)]
    kill_times: list[float] = []
    try:
        for _ in range(kills):
            if by_progress:
                acks, ticks = counted()
                if not _wait(arrived, counted, (acks + rng.randrange(3, 11), ticks + 2)):
                    raise RuntimeError(f"no progress for {STALLED} s after {len(kill_times)} kills: {counted()}")
            else:
                time.sleep(rng.uniform(0.5, 2.0))
            victim = running.pop(rng.randrange(len(running)))
            os.kill(victim.pid, signal.SIGKILL)
            victim.wait()
            kill_times.append(time.time())
            running.append(start(next(seeds)))
        if by_progress:  # the last replacement joins in: the clock ticks on after the last kill
            _wait(arrived, counted, (0, counted()[1] + 2))
        else:
            time.sleep(1.0)
    finally:  # whatever happened, no worker outlives the run
        for proc in running:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    if not by_progress:
        time.sleep(0.2)  # the readers drain the pipes
    with arrived:
        text = "".join(lines)
    ticks = sorted(float(p[1]) for p in (line.split() for line in text.splitlines()) if len(p) == 2 and p[0] == "TICK")
    return Rolling(_acks(text), kills, ticks, kill_times)


STALLED = 60.0  # seconds without the progress a test waits for: the processes stopped playing or ticking


def _wait(arrived: Any, counted: Callable[[], tuple[int, int]], wanted: tuple[int, int]) -> bool:
    """Wait until ``counted()`` reaches ``wanted`` (acks, ticks), woken by each line read; False
    after ``STALLED`` seconds without it."""
    with arrived:
        return bool(arrived.wait_for(lambda: all(have >= want for have, want in zip(counted(), wanted, strict=True)),
                                     timeout=STALLED))  # fmt: skip


@dataclass
class Check:
    lost: int  # acknowledged moves missing after the kill
    games: int  # games loaded
    unloadable: list[str]  # games that failed to load, with why
    waiting: int = 0  # games whose computer was to move after the restart (the clock's first tick plays them)
    stuck: int = 0  # games still waiting on a computer after that tick


async def check(db_path: Path | str, acks: list[tuple[int, int]]) -> Check:
    """Every acknowledged move is stored, and every started game loads from a fresh service."""
    from datetime import UTC, datetime, timedelta

    from service.clock import CLAIM_TTL

    db = await open_database(db_path)
    try:
        # Its clock runs CLAIM_TTL ahead (and a second more: times are stored to the second), so the
        # games a killed process had claimed are free to it.
        service = GameService(Store(db), clock=lambda: datetime.now(UTC) + CLAIM_TTL + timedelta(seconds=1))
        lost = 0
        newest: dict[int, int] = {}
        for gid, version in acks:
            newest[gid] = max(newest.get(gid, 0), version)
        for gid, version in newest.items():
            row = await service.lobby(SYSTEM, gid)
            stored = len(await service.store.moves(gid))
            lost += max(0, version - min(row.version, stored))
        games, unloadable = 0, []
        for row in await service.games(SYSTEM):
            if row.status == "lobby":
                continue
            try:
                view = await service.turn(SYSTEM, row.id)
                assert view.version == row.version == len(await service.store.moves(row.id))
                games += 1
            except Exception as exc:
                unloadable.append(f"#{row.id}: {exc}")
        waiting = await _on_a_computer(service)
        await service.tick()  # the restarted bot's first tick
        stuck = await _on_a_computer(service)
        await service.release_clock()  # this check stops cleanly: the next one takes the clock at once
        return Check(lost, games, unloadable, len(waiting), len(stuck))
    finally:
        await db.close()


async def _on_a_computer(service: GameService) -> list[int]:
    """Running games whose player to move is a computer seat."""
    out = []
    for row in await service.games(SYSTEM, status="active"):
        with contextlib.suppress(Exception):  # an unloadable game is counted above
            view = await service.turn(SYSTEM, row.id)
            if not view.finished and (view.user_id or "").startswith("ai:"):
                out.append(row.id)
    return out


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 0.0))
