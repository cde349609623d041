"""The clock's rows: its lease (one process over SQLite), the processes' heartbeats, the claims that
share due games and named jobs among processes (PostgreSQL), and the reminders sent (a part of
``storage.store.Store``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.backend import Tx
from storage.outbox import Outgoing, enqueue
from storage.part import StorePart
from storage.times import iso


class ClockStore(StorePart):
    """The clock's reads and writes (see the module)."""

    async def take_clock_lease(self, holder: str, now: datetime, ttl: timedelta) -> str | None:
        """Take or renew the deadline clock's lease for ``holder`` (a single-process database:
        see ``service.clock``). Returns None when it is ours now, or the other holder's id when
        their heartbeat is younger than ``ttl``."""

        async def body(tx: Tx) -> str | None:
            row = await tx.fetchrow("SELECT holder, heartbeat FROM clock_lease WHERE id = 1")
            if row is not None and row[0] != holder:
                try:
                    beat = datetime.fromisoformat(row[1])
                except (TypeError, ValueError):
                    beat = None  # an unreadable heartbeat is a dead one
                if beat is not None and beat.tzinfo is not None and now - beat < ttl:
                    return str(row[0])
            await tx.execute(
                "INSERT INTO clock_lease (id, holder, heartbeat) VALUES (1, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, heartbeat = excluded.heartbeat",
                (holder, iso(now)),
            )
            return None

        return await self._write(body)

    async def beat(self, holder: str, now: datetime) -> None:
        """Note that ``holder``'s clock ticked (a shared database has no lease: every process
        ticks; the last beat tells ``bot.py health`` that some process does)."""
        await self._write(
            lambda tx: tx.execute(
                "INSERT INTO clock_lease (id, holder, heartbeat) VALUES (1, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, heartbeat = excluded.heartbeat",
                (holder, iso(now)),
            )
        )

    async def report_instance(self, instance: str, now: datetime, info: dict[str, Any]) -> None:
        """Note that the bot process ``instance`` ticked, and what it says of itself; rows of
        processes silent for a day are dropped."""

        async def body(tx: Tx) -> None:
            await tx.execute(
                "INSERT INTO instances (id, heartbeat, info) VALUES (?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET heartbeat = excluded.heartbeat, info = excluded.info",
                (instance, iso(now), json.dumps(info)),
            )
            await tx.execute("DELETE FROM instances WHERE heartbeat < ?", (iso(now - timedelta(days=1)),))

        await self._write(body)

    async def instances(self) -> list[tuple[str, datetime | None, dict[str, Any]]]:
        """(id, last tick, what it said) of every bot process heard from in the last day."""
        out: list[tuple[str, datetime | None, dict[str, Any]]] = []
        for instance, beat, info in await self._read("SELECT id, heartbeat, info FROM instances ORDER BY id"):
            try:
                said = json.loads(info)
                when = datetime.fromisoformat(beat)
            except (TypeError, ValueError):
                continue  # a damaged row tells nothing
            out.append((str(instance), when, said if isinstance(said, dict) else {}))
        return out

    async def release_clock_lease(self, holder: str) -> None:
        await self._write(lambda tx: tx.execute("DELETE FROM clock_lease WHERE id = 1 AND holder = ?", (holder,)))

    async def claim_games(self, game_ids: list[int], holder: str, now: datetime, ttl: timedelta) -> list[int]:
        """Of ``game_ids``, those ``holder`` may handle the deadline of now: each is claimed until
        ``now + ttl`` by exactly one of the processes asking at once (rows another process holds
        are skipped, not waited for), and a claim that expired (its process died) is free."""
        skip = " FOR UPDATE SKIP LOCKED" if self.db.dialect == "postgresql" else ""
        claimed: list[int] = []
        for start in range(0, len(game_ids), 500):  # a restart's catch-up may find thousands due
            chunk = game_ids[start : start + 500]
            marks = ", ".join("?" for _ in chunk)

            async def body(tx: Tx, chunk: list[int] = chunk, marks: str = marks) -> list[int]:
                free = await tx.fetch(
                    f"SELECT id FROM games WHERE id IN ({marks}) AND status = 'active'"
                    f" AND (clock_until IS NULL OR clock_until < ? OR clock_holder = ?){skip}",
                    (*chunk, iso(now), holder),
                )
                ids = [r[0] for r in free]
                await tx.executemany(
                    "UPDATE games SET clock_holder = ?, clock_until = ? WHERE id = ?",
                    [(holder, iso(now + ttl), game_id) for game_id in ids],
                )
                return ids

            claimed += await self._write(body)
        return claimed

    async def claim(self, names: list[str], holder: str, now: datetime, ttl: timedelta) -> list[str]:
        """Of the named jobs (a competition's deadlines, say), those ``holder`` may run now: each
        is claimed until ``now + ttl`` by exactly one of the processes asking at once (a claim is
        taken where it is free, expired, or already the holder's)."""

        async def body(tx: Tx) -> list[str]:
            taken = []
            for name in names:
                row = await tx.fetchrow(
                    "INSERT INTO claims (name, holder, until) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE"
                    " SET holder = excluded.holder, until = excluded.until"
                    " WHERE claims.until < ? OR claims.holder = excluded.holder RETURNING name",
                    (name, holder, iso(now + ttl), iso(now)),
                )
                if row is not None:
                    taken.append(name)
            return taken

        return await self._write(body) if names else []

    async def mark_reminded(
        self, game_id: int, version: int, stage: int = 1, notice: Outgoing | None = None, now: datetime | None = None
    ) -> bool:
        """Note that this turn's reminder ``stage`` (1, 2...) is due, with its ``notice`` in the
        outbox; False if the turn moved on meanwhile or that reminder went out already (another
        process sent it)."""

        async def body(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE games SET reminded = ?, revision = revision + 1, due_at = NULL"
                " WHERE id = ? AND version = ? AND reminded < ?",
                (stage, game_id, version, stage),
            )
            if changed == 1:
                await enqueue(tx, game_id, notice, now or datetime.now(UTC))
            return changed == 1

        return await self._write(body, game_id)
