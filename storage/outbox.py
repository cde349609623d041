"""The outbox: what players are to be told after a committed change, kept until it is posted.

A game's notice (a timeout, a reminder, an automatic move, a turn played, a game started) is
written in the transaction that changes the game (``enqueue``), held by the process that is to
post it, then marked posted; a row whose holder died or whose post failed is claimed, once, by
the next process that asks (``claim_notices``). A league's announcement (a round opened, a match
decided, the champion) is a row of its own (``add_league_notice``), written as the league's change
completes and claimed alike (``claim_league_notices``). Posts carry a nonce naming their row, so
Discord keeps one message when a post is repeated.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any, NamedTuple, TypeVar

from storage.backend import Tx
from storage.part import StorePart
from storage.times import iso, lenient_time

T = TypeVar("T")


class Outgoing(NamedTuple):
    """A notice for players, written to the outbox in the transaction of the change it tells of
    (see ``claim_notices``): held by ``holder`` for posting until ``until``."""

    kind: str  # "reminder" | "timeout" | "moved" | "played" ...
    body: dict[str, Any]  # what the front end needs: user_id, player, lines
    holder: str
    until: datetime


class Pending(NamedTuple):
    """An outbox row to post: the game's version after the change it tells of."""

    id: int
    game_id: int
    version: int
    kind: str
    body: dict[str, Any]
    created_at: datetime | None


# An outbox row at the game's version as the transaction leaves it.
_ENQUEUE = (
    "INSERT INTO outbox (game_id, version, kind, body, created_at, holder, until)"
    " SELECT id, version, ?, ?, ?, ?, ? FROM games WHERE id = ?"
)


async def enqueue(tx: Tx, game_id: int, notice: Outgoing | None, now: datetime) -> None:
    if notice is not None:
        await tx.execute(
            _ENQUEUE, (notice.kind, json.dumps(notice.body), iso(now), notice.holder, iso(notice.until), game_id)
        )


class PendingLeague(NamedTuple):
    """A league's announcement to post (``add_league_notice``'s body)."""

    id: int
    league_id: int
    body: dict[str, Any]


async def _hold(tx: Tx, ids: list[Any], holder: str, until: datetime) -> None:
    """Claimed rows: held by ``holder`` until ``until``, one more try counted."""
    await tx.executemany(
        "UPDATE outbox SET holder = ?, until = ?, tries = tries + 1 WHERE id = ?",
        [(holder, iso(until), i) for i in ids],
    )


def _body(text: Any) -> dict[str, Any]:
    """A row's body; a damaged one reads as empty (its post says less, the clock goes on)."""
    try:
        body = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return body if isinstance(body, dict) else {}


class OutboxStore(StorePart):
    """The outbox's reads and writes (a part of ``storage.store.Store``)."""

    async def claim_notices(
        self, holder: str, now: datetime, ttl: timedelta, limit: int = 500, max_tries: int = 5, also: str = ""
    ) -> list[Pending]:
        """The outbox rows ``holder`` is to post now, oldest first: those it holds already, and
        those nobody holds any more (written by a process that died before posting them, or
        whose post failed); each is held by exactly one of the processes asking at once until
        ``now + ttl`` (rows another process is reading are skipped, not waited for), and those of
        holders named ``also`` + anything (this process's earlier ticks). A row is offered
        ``max_tries`` times at most (a post that keeps failing is given up)."""
        skip = " FOR UPDATE SKIP LOCKED" if self.db.dialect == "postgresql" else ""

        async def body(tx: Tx) -> list[Pending]:
            mine, args = "", [max_tries, iso(now), holder]
            if also:
                mine, args = " OR substr(holder, 1, ?) = ?", [*args, len(also), also]
            rows = await tx.fetch(
                "SELECT id, game_id, version, kind, body, created_at FROM outbox WHERE posted_at IS NULL"
                " AND game_id IS NOT NULL AND tries < ?"
                f" AND (holder IS NULL OR until < ? OR holder = ?{mine}) ORDER BY id LIMIT ?" + skip,
                (*args, limit),
            )
            await _hold(tx, [r[0] for r in rows], holder, now + ttl)
            return [Pending(int(r[0]), int(r[1]), int(r[2]), str(r[3]), _body(r[4]), lenient_time(r[5])) for r in rows]

        return await self._write(body)

    async def notices_posted(self, ids: list[int], now: datetime) -> int:
        """Mark outbox rows posted (rows a week old are dropped, posted or given up); how many were not yet."""
        if not ids:
            return 0
        marks = ", ".join("?" for _ in ids)

        async def body(tx: Tx) -> int:
            changed = await tx.execute(
                f"UPDATE outbox SET posted_at = ? WHERE id IN ({marks}) AND posted_at IS NULL", (iso(now), *ids)
            )
            # Posted a week ago, or never (a post that kept failing, given up): nothing more to tell.
            week = iso(now - timedelta(days=7))
            await tx.execute("DELETE FROM outbox WHERE posted_at < ? OR (posted_at IS NULL AND created_at < ?)",
                             (week, week))  # fmt: skip
            return changed

        return await self._write(body)

    async def held_notices(self, holder: str) -> list[int]:
        """The outbox rows ``holder`` holds, not posted yet, oldest first."""
        rows = await self._read("SELECT id FROM outbox WHERE holder = ? AND posted_at IS NULL ORDER BY id", (holder,))
        return [int(r[0]) for r in rows]

    async def release_notices(self, ids: list[int]) -> None:
        """Outbox rows whose post failed: free for the next tick of any process."""
        if ids:
            sql = f"UPDATE outbox SET holder = NULL WHERE id IN ({', '.join('?' for _ in ids)}) AND posted_at IS NULL"
            await self._write(lambda tx: tx.execute(sql, ids))

    async def unposted(self) -> int:
        """Outbox rows not posted yet (``bot.py health``, the chaos benchmark)."""
        return int((await self._read("SELECT count(*) FROM outbox WHERE posted_at IS NULL"))[0][0])

    async def add_league_notice(self, league_id: int, body: dict[str, Any], holder: str, until: datetime,
                                now: datetime) -> int:  # fmt: skip
        """A league's announcement, held by ``holder`` (who posts it at once) until ``until``: its row id."""

        async def write(tx: Tx) -> int:
            return await tx.insert(
                "INSERT INTO outbox (league_id, version, kind, body, created_at, holder, until)"
                " VALUES (?, 0, 'league', ?, ?, ?, ?)",
                (league_id, json.dumps(body), iso(now), holder, iso(until)),
            )

        return int(await self._write(write))

    async def claim_league_notices(
        self, holder: str, now: datetime, ttl: timedelta, limit: int = 100, max_tries: int = 5
    ) -> list[PendingLeague]:
        """Leagues' announcements nobody holds any more (their process died before posting them,
        or the post failed), oldest first, each held by ``holder`` until ``now + ttl``."""
        skip = " FOR UPDATE SKIP LOCKED" if self.db.dialect == "postgresql" else ""

        async def claim(tx: Tx) -> list[PendingLeague]:
            rows = await tx.fetch(
                "SELECT id, league_id, body FROM outbox WHERE posted_at IS NULL AND league_id IS NOT NULL"
                " AND tries < ? AND (holder IS NULL OR until < ?) ORDER BY id LIMIT ?" + skip,
                (max_tries, iso(now), limit),
            )
            await _hold(tx, [r[0] for r in rows], holder, now + ttl)
            return [PendingLeague(int(r[0]), int(r[1]), _body(r[2])) for r in rows]

        return await self._write(claim)
