"""Kill a process running games at random points; nothing acknowledged is lost."""

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from service import GameService
from storage import Store, open_database

WORKER = Path(__file__).with_name("crash_worker.py")


def run_and_kill(db: Path, seed: int, after: float) -> list[tuple[int, int]]:
    proc = subprocess.Popen([sys.executable, str(WORKER), str(db), str(seed)], stdout=subprocess.PIPE, text=True)
    time.sleep(after)
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=30)
    acks = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "ACK":
            acks.append((int(parts[1]), int(parts[2])))
    return acks


async def check(db_path: Path, acks: list[tuple[int, int]]) -> int:
    db = await open_database(db_path)
    try:
        service = GameService(Store(db))
        for gid, version in acks:
            row = await service.lobby(gid)
            assert row.version >= version, (gid, row.version, version)
            assert len(await service.store.moves(gid)) == row.version
        resumed = 0
        for row in await service.games(status="active"):
            view = await service.turn(row.id)  # replays from the log: must not be corrupted
            assert view.version == row.version
            resumed += 1
        return resumed
    finally:
        await db.close()


def test_sigkill_never_loses_an_acknowledged_move(tmp_path):
    db = tmp_path / "crash.db"
    rng = random.Random(2026)
    total_acks = 0
    for round_ in range(12):
        acks = run_and_kill(db, round_, rng.uniform(0.8, 2.5))
        total_acks += len(acks)
        assert asyncio.run(check(db, acks)) > 0
    assert total_acks > 50  # the worker really played between the kills
