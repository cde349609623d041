"""Copying one database into another (``python bot.py migrate-db``: SQLite to PostgreSQL).

Every table is copied in the order its foreign keys need, in batches, each row under its own key:
a row already there is brought up to date (or left alone, in the append-only tables), so a copy
run twice — or again after the bot played on — gives the same database as one run. Identity
counters are moved past the copied ids, so the next game gets a new number.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from storage.backend import Database, Tx

BATCH = 1000


@dataclass(frozen=True)
class Table:
    name: str
    key: tuple[str, ...]
    columns: tuple[str, ...]
    append_only: bool = False
    identity: bool = False  # its ``id`` comes from a counter
    order: str = ""  # the source's order (default: the key)


TABLES = [
    Table("players", ("user_id",),
          ("user_id", "name", "dm_turns", "created_at", "language", "vacation_until", "vacation_days")),  # fmt: skip
    Table("leagues", ("id",), ("id", "guild_id", "name", "options", "created_by", "created_at"), identity=True),
    Table(
        "games",
        ("id",),
        ("id", "guild_id", "channel_id", "thread_id", "lobby_message", "status", "creator_id", "options", "setup",
         "version", "turn_started_at", "reminded", "result", "created_at", "updated_at", "league_id", "revision",
         "clocks", "due_at"),
        identity=True,
    ),  # fmt: skip
    # The join order is the source's row order: the target numbers the rows as they come.
    Table("seats", ("game_id", "user_id"), ("game_id", "user_id", "name", "seat", "is_ai", "status", "joined_at"),
          order="game_id, rowid"),  # fmt: skip
    Table("moves", ("game_id", "seq"), ("game_id", "seq", "user_id", "move", "created_at"), append_only=True),
    Table("snapshots", ("game_id",), ("game_id", "seq", "engine_version", "state")),
    Table("league_members", ("league_id", "user_id"), ("league_id", "user_id", "name", "active", "joined_at")),
    Table("seasons", ("id",), ("id", "league_id", "number", "started_at", "ended_at", "standings"), identity=True),
    Table("results", ("id",), ("id", "league_id", "season", "game_id", "ranking", "recorded_at"), append_only=True,
          identity=True),  # fmt: skip
    Table("ratings", ("league_id", "season", "user_id"), ("league_id", "season", "user_id", "mu", "sigma", "games")),
    Table("competitions", ("league_id", "season"),
          ("league_id", "season", "rules", "guild_id", "channel_id", "created_at")),  # fmt: skip
    Table("entrants", ("league_id", "season", "user_id"),
          ("league_id", "season", "user_id", "name", "division", "seed")),  # fmt: skip
    Table("fixtures", ("id",),
          ("id", "league_id", "season", "round", "division", "home", "away", "sets", "opens_at", "deadline"),
          append_only=True, identity=True),  # fmt: skip
    Table("fixture_games", ("fixture_id", "number"), ("fixture_id", "number", "game_id")),
    Table("match_log", ("id",), ("id", "fixture_id", "kind", "game_id", "body", "by_user", "recorded_at"),
          append_only=True, identity=True),  # fmt: skip
    Table("playoffs", ("league_id", "season"), ("league_id", "season", "rules", "seeds", "created_at")),
    # What players are still to be told: the target's first tick posts what the source left unposted.
    Table("outbox", ("id",), ("id", "game_id", "league_id", "version", "kind", "body", "created_at", "holder",
                              "until", "tries", "posted_at"), identity=True),  # fmt: skip
]


def _upsert(table: Table) -> str:
    names = ", ".join(table.columns)
    marks = ", ".join("?" for _ in table.columns)
    sql = f"INSERT INTO {table.name} ({names}) VALUES ({marks}) ON CONFLICT ({', '.join(table.key)}) DO "
    rest = [c for c in table.columns if c not in table.key]
    if table.append_only or not rest:
        return sql + "NOTHING"
    return sql + "UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in rest)


async def copy_database(
    source: Database, target: Database, progress: Callable[[str, int], None] | None = None
) -> dict[str, int]:
    """Copy every table of ``source`` into ``target`` (both at the same schema version); returns the
    rows read per table. ``progress(table, rows so far)`` after each batch."""
    if await source.schema_version() != await target.schema_version():
        raise ValueError("migrate both databases to the same schema version first (python bot.py migrate)")
    counts: dict[str, int] = {}
    for table in TABLES:
        select = (
            f"SELECT {', '.join(table.columns)} FROM {table.name} ORDER BY {table.order or ', '.join(table.key)}"
            " LIMIT ? OFFSET ?"
        )
        upsert = _upsert(table)
        done = 0
        while True:
            rows = await source.fetch(select, (BATCH, done))
            if not rows:
                break
            await target.transaction(_writer(upsert, [_value_row(table, row) for row in rows]))
            done += len(rows)
            if progress is not None:
                progress(table.name, done)
        counts[table.name] = done
    if target.dialect == "postgresql":  # the next id after the copied ones
        for table in TABLES:
            if table.identity:
                await target.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'),"
                    f" (SELECT coalesce(max(id), 0) + 1 FROM {table.name}), false)"
                )
    return counts


def _writer(upsert: str, rows: list[tuple[Any, ...]]) -> Callable[[Tx], Awaitable[None]]:
    async def write(tx: Tx) -> None:
        await tx.executemany(upsert, rows)

    return write


def _value_row(table: Table, row: Any) -> tuple[Any, ...]:
    values = tuple(row)
    if table.name == "snapshots":  # SQLite may hold the state as text (before migration 6: none left)
        values = (*values[:3], values[3].encode() if isinstance(values[3], str) else bytes(values[3]))
    return values


async def count_rows(db: Database) -> dict[str, int]:
    """Rows per table (what a copy is checked against)."""
    return {t.name: (await db.fetch(f"SELECT count(*) FROM {t.name}"))[0][0] for t in TABLES}
