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
from dataclasses import dataclass
from pathlib import Path

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


def kill_round(db: Path, seed: int, after: float, workers: int = 2) -> Round:
    """Start ``workers`` processes over ``db``, SIGKILL them all ``after`` seconds after each has
    stored its first move (not after a start that a loaded machine may slow down)."""
    import threading

    procs = [
        subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), str(db), str(seed * 10 + i)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(workers)
    ]
    outputs: list[list[str]] = [[] for _ in procs]
    for proc, lines in zip(procs, outputs, strict=True):
        threading.Thread(target=lambda p=proc, o=lines: o.extend(iter(p.stdout.readline, "")), daemon=True).start()  # type: ignore[misc, union-attr]
    deadline = time.monotonic() + 120
    while not all(any(line.startswith("ACK") for line in lines) for lines in outputs):
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            break
        time.sleep(0.05)
    time.sleep(after)
    for proc in procs:
        os.kill(proc.pid, signal.SIGKILL)
    for proc in procs:
        proc.wait(timeout=60)
    time.sleep(0.2)  # the readers drain the pipes
    acks: list[tuple[int, int]] = []
    for lines in outputs:
        acks += _acks("".join(lines))
    return Round(acks, workers)


def _acks(out: str) -> list[tuple[int, int]]:
    parts = (line.split() for line in out.splitlines())
    return [(int(p[1]), int(p[2])) for p in parts if len(p) == 3 and p[0] == "ACK"]


@dataclass
class Rolling:
    acks: list[tuple[int, int]]
    killed: int
    ticks: list[float]  # when any process's clock ticked (wall time)
    kill_times: list[float]


def kill_rolling(url: str, kills: int, workers: int, rng: random.Random, tick_every: float = 0.5) -> Rolling:
    """``workers`` processes over one shared database (PostgreSQL), each playing and ticking the
    clock; one of them, at random, is SIGKILLed every 0.5-2 s and replaced, ``kills`` times; then
    all are stopped. What they acknowledged and when their clocks ticked."""
    import threading

    outputs: list[list[str]] = []

    def start(n: int) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), url, str(n), str(tick_every)],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        lines: list[str] = []
        outputs.append(lines)
        threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True).start()  # type: ignore[union-attr]
        return proc

    seeds = iter(range(10**6))
    running = [start(next(seeds)) for _ in range(workers)]
    kill_times: list[float] = []
    for _ in range(kills):
        time.sleep(rng.uniform(0.5, 2.0))
        victim = running.pop(rng.randrange(len(running)))
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait()
        kill_times.append(time.time())
        running.append(start(next(seeds)))
    time.sleep(1.0)
    for proc in running:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    time.sleep(0.2)  # the readers drain the pipes
    text = "".join("".join(lines) for lines in outputs)
    ticks = sorted(float(p[1]) for p in (line.split() for line in text.splitlines()) if len(p) == 2 and p[0] == "TICK")
    return Rolling(_acks(text), kills, ticks, kill_times)


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
