"""Kill a process in the middle of its deadline tick, or of its posts, and count what players were told.

``python tests/outbox_worker.py DB CLOCK SINK COMMITS POSTS`` is one bot process's deadline clock:
its time stands still at CLOCK (ISO), it ticks once, and it "posts" every notice the tick hands it
by appending one line to the SINK file (as Discord would receive it: the notice's nonce, its game
and the outbox rows it covers) before marking it posted. It prints ``COMMIT game version`` after
each change it commits and ``POSTED ids`` after each post. When it has committed COMMITS changes,
or posted POSTS notices (before marking the last one posted: the window where a post is repeated),
it prints ``PAUSE`` and stops dead, and the harness SIGKILLs it: a kill at a chosen point, whatever
the machine's load. 0 means never.

``run`` plays one scenario (used by tests/test_crash.py on SQLite and PostgreSQL, and by
benchmarks/chaos.py): GAMES overdue games (half of them against a computer, whose reply follows
the timeout in a second commit), a process killed after some commits, the next one killed after
some posts, then a last one (or two at once) that runs to the end; ``count`` compares the changes
the database committed with what the sink received.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service import GameService, LobbyOptions  # noqa: E402
from service.clock import CLAIM_TTL, LEASE_TTL  # noqa: E402
from service.core import NOTICE_HOLD  # noqa: E402
from service.turns import AUTO_USER  # noqa: E402
from storage import Database, Store, open_database  # noqa: E402
from tests.helpers import as_  # noqa: E402

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)  # when every game's first turn began
LIMIT = 3600  # a turn's time: every game is overdue an hour later
# A later process's clock is past every hold a killed one had (claims, notices, the SQLite lease).
STEP = max(CLAIM_TTL, NOTICE_HOLD, LEASE_TTL) + timedelta(seconds=2)


def _stop_dead() -> None:
    print("PAUSE", flush=True)
    time.sleep(3600)  # blocks the event loop: nothing more happens until the harness kills us


async def worker(url: str, at: datetime, sink: str, commits: int, posts: int) -> None:
    db = await open_database(url)
    service = GameService(Store(db), clock=lambda: at)
    commit, count = service.log.commit, [0]

    async def reporting(row, before, after, entries, notice=None):  # type: ignore[no-untyped-def]
        await commit(row, before, after, entries, notice)
        print(f"COMMIT {row.id} {row.version + len(entries)}", flush=True)
        count[0] += 1
        if count[0] == commits:
            _stop_dead()

    service.log.commit = reporting  # type: ignore[method-assign]
    notices = await service.tick()
    fd = os.open(sink, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    for n, notice in enumerate(notices, start=1):
        ids = ",".join(str(i) for i in notice.outbox)
        version = notice.turn.version if notice.turn is not None else -1
        # What Discord receives: one message, its nonce naming the outbox rows it tells of.
        os.write(fd, f"carc-n{notice.outbox[0]} {notice.game_id} {version} {ids}\n".encode())
        print(f"POSTED {ids}", flush=True)
        if n == posts:
            _stop_dead()  # posted, not yet marked: the next process posts it again
        await service.posted([notice])
    os.close(fd)
    await service.release_clock()
    await db.close()
    print("DONE", flush=True)


@dataclass
class Run:
    pid: int
    lines: list[str]
    killed: bool


def _start(url: str, at: datetime, sink: Path, commits: int, posts: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), url, at.isoformat(), str(sink), str(commits), str(posts)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip


def run_process(url: str, at: datetime, sink: Path, commits: int = 0, posts: int = 0, timeout: float = 240) -> Run:
    """One process; SIGKILLed when it says PAUSE (read from its pipe)."""
    proc = _start(url, at, sink, commits, posts)
    lines: list[str] = []
    killed = False
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.strip())
        if line.strip() == "PAUSE":
            os.kill(proc.pid, signal.SIGKILL)
            killed = True
            break
        if time.monotonic() > deadline:
            raise TimeoutError("the worker did not finish")
    proc.wait(timeout=60)
    if not killed and proc.returncode != 0:
        raise RuntimeError(f"the worker failed ({proc.returncode})")
    return Run(proc.pid, lines, killed)


async def setup(url: str, games: int) -> set[tuple[int, int]]:
    """``games`` started games, all waiting on a human whose turn began at START."""
    db = await open_database(url)
    service = GameService(Store(db), clock=lambda: START)
    for i in range(games):
        owner = as_(f"a{i}", f"g{i % 7}")
        lobby = await service.create_lobby(owner, "Ann", LobbyOptions(seed=i, turn_limit=LIMIT))
        if i % 2:  # against a computer: its reply is a second change after the timeout
            await service.add_ai(owner, lobby.id, "easy")
        else:
            await service.join(as_(f"b{i}", f"g{i % 7}"), lobby.id, "Bob")
        await service.start(owner, lobby.id)
    try:
        return await _commits(db)
    finally:
        await db.close()


@dataclass
class Counts:
    committed: int  # changes the clock committed (a timeout, a computer's reply)
    announced: int  # of those, told in at least one post
    duplicates: int  # changes told in more than one message (after Discord's nonce check)
    lost: int  # committed, never told
    repeats: int  # messages sent again with a nonce already used (Discord keeps one)
    unposted: int  # outbox rows still waiting


async def _commits(db: Database) -> set[tuple[int, int]]:
    """(game, version after) of each automatic commit in the move log (each run of one author's moves)."""
    store = Store(db)
    committed: set[tuple[int, int]] = set()
    for (game_id,) in await db.fetch("SELECT id FROM games WHERE status != 'lobby'"):
        moves = await store.moves(game_id)
        for k, (seq, user, _move) in enumerate(moves):
            last = k + 1 == len(moves) or moves[k + 1][1] != user
            if last and (user == AUTO_USER or user.startswith("ai:")):
                committed.add((int(game_id), int(seq)))
    return committed


async def count(url: str, sink: Path, before: set[tuple[int, int]]) -> Counts:
    """The changes committed since ``before`` (the computers' opening turns at the start) against
    the messages the sink received."""
    db = await open_database(url)
    try:
        committed = await _commits(db) - before
        rows = {int(r[0]): (int(r[1]), int(r[2])) for r in await db.fetch("SELECT id, game_id, version FROM outbox")}
        unposted = await Store(db).unposted()
    finally:
        await db.close()
    messages = [line.split() for line in sink.read_text().splitlines()] if sink.exists() else []
    nonces = Counter(m[0] for m in messages)
    told: Counter[tuple[int, int]] = Counter()
    for nonce in nonces:  # Discord creates one message per nonce (enforce_nonce)
        message = next(m for m in messages if m[0] == nonce)
        for row_id in message[3].split(","):
            told[rows[int(row_id)]] += 1
    return Counts(
        committed=len(committed),
        announced=sum(1 for c in committed if told[c]),
        duplicates=sum(1 for c in committed if told[c] > 1),
        lost=sum(1 for c in committed if not told[c]),
        repeats=sum(n - 1 for n in nonces.values()),
        unposted=unposted,
    )


@dataclass
class Scenario:
    counts: Counts
    kills: int
    commits_before_kill: int  # what the first process committed before it was killed mid-tick
    posts_before_kill: int  # what the second process posted before it was killed mid-posting


def run(url: str, sink: Path, games: int = 120, kill_after_commits: int = 40, kill_after_posts: int = 25,
        last: int = 1) -> Scenario:  # fmt: skip
    """Kill one process mid-tick, the next mid-posting, then let ``last`` processes at once finish."""
    before = asyncio.run(setup(url, games))
    at = START + timedelta(seconds=LIMIT + 60)
    first = run_process(url, at, sink, commits=kill_after_commits)
    second = run_process(url, at + STEP, sink, posts=kill_after_posts)
    procs = [_start(url, at + 2 * STEP, sink, 0, 0) for _ in range(last)]
    for proc in procs:
        proc.communicate(timeout=240)
        if proc.returncode != 0:
            raise RuntimeError(f"the last worker failed ({proc.returncode})")
    counts = asyncio.run(count(url, sink, before))
    return Scenario(
        counts,
        kills=int(first.killed) + int(second.killed),
        commits_before_kill=sum(1 for line in first.lines if line.startswith("COMMIT")),
        posts_before_kill=sum(1 for line in second.lines if line.startswith("POSTED")),
    )


if __name__ == "__main__":
    url_, at_, sink_, commits_, posts_ = sys.argv[1:6]
    asyncio.run(worker(url_, datetime.fromisoformat(at_), sink_, int(commits_), int(posts_)))
