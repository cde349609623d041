"""Reading and writing games, seats, the move log, snapshots and player settings.

Each method is one transaction of the backend (``storage.backend``): SQLite or PostgreSQL, the
same SQL. A move is accepted only by ``append_moves``, in one transaction that checks the game's
version (optimistic concurrency, under the game's row lock where several processes share the
database): of two submissions for the same turn exactly one commits; the other gets Conflict.
The rows it hands back and their field-by-field reading are in ``storage.rows``; the outbox's and
the clock's reads and writes are parts of ``Store`` of their own (``storage.outbox``,
``storage.claims``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from engine.language import _
from storage.backend import Database, Tx
from storage.claims import ClockStore
from storage.outbox import OutboxStore, Outgoing, enqueue
from storage.rows import (
    Appended,
    Conflict,
    Corrupted,
    GameRow,
    Loaded,
    NotFound,
    move_text,
    parse_game,
    read_game_row,
)
from storage.times import iso, parse_time

T = TypeVar("T")


NEVER = "9999-12-31T23:59:59+00:00"  # the due time of a clock that never runs out (no limit)


_SAVE_SNAPSHOT = (
    "INSERT INTO snapshots (game_id, seq, engine_version, state) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, engine_version = excluded.engine_version,"
    " state = excluded.state"
)
_NEWER_SNAPSHOT = " WHERE excluded.seq >= snapshots.seq"
# As bytes whatever was stored: a damaged value that is text but not UTF-8 must reach the
# service's checks (and lose to the log), not fail the read.
_READ_SNAPSHOT = {
    "sqlite": "SELECT seq, engine_version, CAST(state AS BLOB) FROM snapshots WHERE game_id = ?",
    "postgresql": "SELECT seq, engine_version, state FROM snapshots WHERE game_id = ?",
}


# A player's row, created on first use; their name kept current.
_SAVE_PLAYER = (
    "INSERT INTO players (user_id, name, created_at) VALUES (?, ?, ?)"
    " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name"
)

# Every change to a game's row or seats counts one more revision: what a process sharing the
# database reads to tell whether its cached game is still current (GameLog.load).
_BUMP = "UPDATE games SET revision = revision + 1, due_at = NULL WHERE id = ?"


class Store(OutboxStore, ClockStore):
    """Games, seats, the move log, snapshots, player settings and the clock's claims, over one
    ``Database`` (SQLite or PostgreSQL: the SQL below is what both speak)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.writes = 0  # transactions this store committed that may change any game: see change_token
        self.game_writes: dict[int, int] = {}  # game id -> this store's transactions that changed only it

    @property
    def shared(self) -> bool:
        """Other processes may write to this database (PostgreSQL)."""
        return self.db.shared

    def change_token(self, game_id: int) -> tuple[int, int, int] | None:
        """Changes to a game's rows so far, without a round trip: the database's data version
        (SQLite's, bumped when another connection commits), this store's commits that may touch
        any game, and those that touched only this one. Equal tokens mean none of the game's
        rows changed in between (other games' moves do not count); None when it cannot be told
        without asking the database (PostgreSQL: the game's version is read instead)."""
        version = self.db.data_version()
        if version is None:
            return None
        return (version, self.writes, self.game_writes.get(game_id, 0))

    def _wrote(self, game_id: int | None) -> None:
        """Count a commit (before it lands: a token read meanwhile is already stale); None: it
        may have changed any game."""
        if game_id is None:
            self.writes += 1
        else:
            self.game_writes[game_id] = self.game_writes.get(game_id, 0) + 1

    async def _write(self, body: Callable[[Tx], Awaitable[T]], game_id: int | None = None) -> T:
        """A write transaction; ``game_id``: the one game whose rows it may change, if only one."""
        self._wrote(game_id)
        return await self.db.transaction(body)

    async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return await self.db.fetch(sql, args)

    # ------------------------------------------------------------------ games
    async def create_game(
        self, creator_id: str, options: dict[str, Any], now: datetime, guild_id: str | None = None,
        channel_id: str | None = None, league_id: int | None = None,
    ) -> int:  # fmt: skip
        async def body(tx: Tx) -> int:
            return await tx.insert(
                "INSERT INTO games (guild_id, channel_id, status, creator_id, options, created_at, updated_at,"
                " league_id) VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?)",
                (guild_id, channel_id, creator_id, json.dumps(options), iso(now), iso(now), league_id),
            )

        return await self._write(body)

    async def get_game(self, game_id: int) -> GameRow:
        """The game's row and seats (one consistent read). Raises NotFound or Corrupted."""
        rows = await self.get_games([game_id])
        found = rows[0]
        if isinstance(found, Corrupted):
            raise found
        return found

    async def get_games(self, game_ids: list[int]) -> list[GameRow | Corrupted]:
        """Several games in one read; a damaged row comes back as its Corrupted error."""

        async def body(tx: Tx) -> list[GameRow | Corrupted]:
            out: list[GameRow | Corrupted] = []
            for game_id in game_ids:
                row, seats = await read_game_row(tx, game_id)
                try:
                    out.append(parse_game(row, seats))
                except Corrupted as exc:
                    out.append(exc)
            return out

        return await self.db.transaction(body, write=False)

    async def load_game(self, game_id: int, cached_version: int | None = None) -> Loaded:
        """Row, seats, snapshot and the log bounded by the version read, in one read
        transaction (one round trip on SQLite). When the row's version equals ``cached_version``
        the log is not read (``moves`` is None). Raises NotFound or Corrupted."""

        async def body(tx: Tx) -> Loaded:
            raw, seats = await read_game_row(tx, game_id)
            row = parse_game(raw, seats)
            if row.version == cached_version:
                return Loaded(row, None, None)
            snap = await tx.fetchrow(_READ_SNAPSHOT[tx.dialect], (game_id,))
            moves = await tx.fetch(
                "SELECT seq, user_id, move FROM moves WHERE game_id = ? AND seq <= ? ORDER BY seq",
                (game_id, row.version),
            )
            return Loaded(row, (snap[0], snap[1], bytes(snap[2])) if snap else None, moves)

        return await self.db.transaction(body, write=False)

    async def revision(self, game_id: int) -> int | None:
        """The game's revision (None: no such game), in one statement: what tells a process
        sharing the database that its cached game and row are still current."""
        rows = await self._read("SELECT revision FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def game_ids(
        self, status: str | None = None, guild_id: str | None = None, user_id: str | None = None
    ) -> list[int]:
        sql = "SELECT DISTINCT g.id FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE 1 = 1"
        args: list[Any] = []
        if status:
            sql += " AND g.status = ?"
            args.append(status)
        if guild_id:
            sql += " AND g.guild_id = ?"
            args.append(guild_id)
        if user_id:
            sql += " AND s.user_id = ?"
            args.append(user_id)
        rows = await self._read(sql + " ORDER BY g.id", tuple(args))
        return [r[0] for r in rows]

    async def turn_clocks(self, now: datetime | None = None) -> list[tuple[Any, ...]]:
        """(id, turn start, options JSON, reminded, banks JSON, revision) of the active games, as
        stored (unparsed): what the deadline clock needs to tell which games are due, in one read.
        With ``now``, only those whose next look is due (``due_at``, through its index): the ones
        changed since the clock last looked (every change to a game's row clears it) and those
        whose reminder or deadline has come."""
        columns = "SELECT id, turn_started_at, options, reminded, clocks, revision FROM games WHERE status = 'active'"
        if now is None:
            rows = await self._read(columns + " ORDER BY id")
        else:
            rows = await self._read(f"{columns} AND due_at IS NULL UNION ALL {columns} AND due_at <= ?", (iso(now),))
        return [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def set_due(self, dues: list[tuple[int, int, datetime | None]]) -> None:
        """Note when each game's clock is next due, (id, revision read, when; None: never), unless
        the game changed since that read (its revision moved on, and its due time was cleared)."""
        if not dues:
            return
        rows = [(iso(when) if when is not None else NEVER, game_id, revision) for game_id, revision, when in dues]
        await self._write(lambda tx: tx.executemany(
            "UPDATE games SET due_at = ? WHERE id = ? AND revision = ? AND due_at IS NULL", rows))  # fmt: skip

    async def active_count(self) -> int:
        return int((await self._read("SELECT count(*) FROM games WHERE status = 'active'"))[0][0])

    async def automatic_game_ids(self) -> list[int]:
        """Active games with a seat nobody clicks for (a computer, or a player who left): the games
        the clock checks for a move it must make itself."""
        rows = await self._read(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE g.status = 'active' AND (s.is_ai = 1 OR s.status != 'playing') ORDER BY g.id"
        )
        return [r[0] for r in rows]

    async def guild_of(self, game_id: int) -> tuple[bool, str | None]:
        """Whether the game exists, and its server (read alone: a damaged row still tells it)."""
        rows = await self._read("SELECT guild_id FROM games WHERE id = ?", (game_id,))
        if not rows:
            return False, None
        guild = rows[0][0]
        return True, guild if isinstance(guild, str) else None

    async def open_lobbies_by(self, user_id: str) -> list[int]:
        """The lobbies ``user_id`` opened that are still open, in every server."""
        sql = "SELECT id FROM games WHERE status = 'lobby' AND creator_id = ? ORDER BY id"
        rows = await self._read(sql, (user_id,))
        return [int(r[0]) for r in rows]

    async def game_id_by_thread(self, thread_id: str) -> int | None:
        rows = await self._read("SELECT id FROM games WHERE thread_id = ?", (thread_id,))
        return rows[0][0] if rows else None

    @staticmethod
    async def _lobby(tx: Tx, game_id: int) -> Any:
        """The game's row, locked for the transaction, if it is still a lobby."""
        await tx.lock("games", game_id)
        row = await tx.fetchrow("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise NotFound(_("there is no game #{id}").format(id=game_id))
        if row["status"] != "lobby":
            raise Conflict(_("the game has already started"))
        return row

    async def update_lobby_options(
        self, game_id: int, change: Callable[[dict[str, Any]], None], now: datetime
    ) -> dict[str, Any]:
        """Read-modify-write a lobby's options in one transaction (``change`` may raise Conflict)."""

        async def body(tx: Tx) -> dict[str, Any]:
            options = json.loads((await self._lobby(tx, game_id))["options"])
            change(options)
            await tx.execute(
                "UPDATE games SET options = ?, updated_at = ?, revision = revision + 1, due_at = NULL WHERE id = ?",
                (json.dumps(options), iso(now), game_id),
            )
            return options  # type: ignore[no-any-return]

        return await self._write(body, game_id)

    async def set_discord_ids(
        self, game_id: int, thread_id: str | None = None, lobby_message: str | None = None
    ) -> None:
        async def body(tx: Tx) -> None:
            if thread_id is not None:
                await tx.execute(
                    "UPDATE games SET thread_id = ?, revision = revision + 1 WHERE id = ?", (thread_id, game_id)
                )
            if lobby_message is not None:
                await tx.execute(
                    "UPDATE games SET lobby_message = ?, revision = revision + 1 WHERE id = ?", (lobby_message, game_id)
                )

        await self._write(body, game_id)

    # ------------------------------------------------------------------ seats
    async def add_seat(self, game_id: int, user_id: str, name: str, is_ai: bool, now: datetime, capacity: int) -> None:
        async def body(tx: Tx) -> None:
            await self._lobby(tx, game_id)
            count = (await tx.fetch("SELECT count(*) FROM seats WHERE game_id = ?", (game_id,)))[0][0]
            if count >= capacity:
                raise Conflict(_("the lobby is full ({n} players)").format(n=capacity))
            if await tx.fetchrow("SELECT 1 FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)):
                raise Conflict(_("you are already in this lobby"))
            await tx.execute(
                "INSERT INTO seats (game_id, user_id, name, is_ai, joined_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, user_id, name, int(is_ai), iso(now)),
            )
            await tx.execute(_BUMP, (game_id,))

        await self._write(body, game_id)

    async def remove_seat(self, game_id: int, user_id: str) -> None:
        async def body(tx: Tx) -> None:
            await tx.lock("games", game_id)
            changed = await tx.execute(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ?"
                " AND (SELECT status FROM games WHERE id = ?) = 'lobby'",
                (game_id, user_id, game_id),
            )
            if changed == 0:
                raise Conflict(_("you are not in this lobby (or the game has started)"))
            await tx.execute(_BUMP, (game_id,))

        await self._write(body, game_id)

    async def set_seat_status(
        self, game_id: int, user_id: str, status: str, expected_version: int | None = None,
        notice: Outgoing | None = None, now: datetime | None = None,
    ) -> bool:  # fmt: skip
        """Change a seat's status; with ``expected_version``, only if the game is still at that
        version and running (False otherwise: a move got in first). ``notice`` goes to the
        outbox with the change (``now``: when it was written)."""
        sql = "UPDATE seats SET status = ? WHERE game_id = ? AND user_id = ? AND status = 'playing'"
        args: list[Any] = [status, game_id, user_id]
        if expected_version is not None:
            sql += " AND (SELECT version FROM games WHERE id = ? AND status = 'active') = ?"
            args += [game_id, expected_version]

        async def body(tx: Tx) -> bool:
            # The game's row lock orders this against a move's append (which locks it too): the
            # version read below is the committed one, so a move and a forfeit never both count.
            await tx.lock("games", game_id)
            if await tx.execute(sql, args) != 1:
                return False
            await tx.execute(_BUMP, (game_id,))
            await enqueue(tx, game_id, notice, now or datetime.now(UTC))
            return True

        return await self._write(body, game_id)

    async def concede(
        self, game_id: int, user_id: str, version: int, result: dict[str, Any], now: datetime,
        notice: Outgoing | None = None,
    ) -> bool:  # fmt: skip
        """A player resigns a game at ``version`` and the game ends with ``result``, in one
        transaction with its ``notice``; False if the game moved on or ended meanwhile, or they
        had left already."""

        async def body(tx: Tx) -> bool:
            await tx.lock("games", game_id)
            ended = await tx.execute(
                "UPDATE games SET status = 'finished', result = ?, updated_at = ?, revision = revision + 1,"
                " due_at = NULL WHERE id = ? AND status = 'active' AND version = ?",
                (json.dumps(result), iso(now), game_id, version),
            )
            if ended != 1:
                return False
            left = await tx.execute(
                "UPDATE seats SET status = 'resigned' WHERE game_id = ? AND user_id = ? AND status = 'playing'",
                (game_id, user_id),
            )
            if left != 1:
                raise Conflict(_("that player has already left"))  # the whole transaction is undone
            await enqueue(tx, game_id, notice, now)
            return True

        try:
            return await self._write(body, game_id)
        except Conflict:
            return False

    async def start_game(
        self, game_id: int, setup: dict[str, Any], order: list[str], now: datetime,
        clocks: dict[str, Any] | None = None, notice: Outgoing | None = None,
    ) -> None:  # fmt: skip
        """Lobby -> active: the engine setup and the seat order (user ids) are fixed; ``clocks``:
        the players' starting time banks (None: a per-turn game); ``notice``: the game's opening
        post, to the outbox in the same transaction."""

        async def body(tx: Tx) -> None:
            changed = await tx.execute(
                "UPDATE games SET status = 'active', setup = ?, version = 0, turn_started_at = ?, updated_at = ?,"
                " revision = revision + 1, due_at = NULL, clocks = ?"
                " WHERE id = ? AND status = 'lobby'",
                (json.dumps(setup), iso(now), iso(now), None if clocks is None else json.dumps(clocks), game_id),
            )
            if changed == 0:
                raise Conflict(_("the game has already started"))
            await tx.executemany(
                "UPDATE seats SET seat = ? WHERE game_id = ? AND user_id = ?",
                [(seat, game_id, user_id) for seat, user_id in enumerate(order)],
            )
            await enqueue(tx, game_id, notice, now)

        await self._write(body, game_id)

    async def finish(self, game_id: int, status: str, result: dict[str, Any] | None, now: datetime) -> None:
        async def body(tx: Tx) -> None:
            changed = await tx.execute(
                "UPDATE games SET status = ?, result = ?, updated_at = ?, revision = revision + 1, due_at = NULL"
                " WHERE id = ? AND status IN ('lobby', 'active')",
                (status, json.dumps(result) if result is not None else None, iso(now), game_id),
            )
            if changed == 0:
                raise Conflict(_("the game is already over"))

        await self._write(body, game_id)

    # ------------------------------------------------------------------ moves
    async def append_moves(
        self,
        game_id: int,
        expected_version: int,
        entries: list[tuple[str, dict[str, Any]]],
        now: datetime,
        new_turn: bool,
        result: dict[str, Any] | None = None,
        snapshot: tuple[str, bytes] | None = None,
        clocks: dict[str, Any] | None = None,
        notice: Outgoing | None = None,
    ) -> Appended:
        """Append moves if the game is still at ``expected_version``; returns the new version and
        revision.
        ``snapshot``: (engine version, state) of the game after these moves, saved in the
        same transaction (as ``save_snapshot`` does).

        ``new_turn`` restarts the turn clock (and its reminder); ``clocks``, the time banks after
        these moves, are written with them (a bank is charged once: by the write that commits);
        ``result`` ends the game; ``notice`` goes to the outbox in the same transaction. The
        moves are refused (Conflict) when their author's seat has left the game meanwhile (a
        forfeit at the deadline), so a move and a forfeit never both count. Of two processes
        appending to the same version, exactly one commits (the version check, under the game's
        row lock on PostgreSQL).
        """
        version = expected_version + len(entries)
        sql = "UPDATE games SET version = ?, updated_at = ?, revision = revision + 1, due_at = NULL"
        args: list[Any] = [version, iso(now)]
        if new_turn:
            sql += ", turn_started_at = ?, reminded = 0"
            args.append(iso(now))
        if clocks is not None:
            sql += ", clocks = ?"
            args.append(json.dumps(clocks))
        if result is not None:
            sql += ", status = 'finished', result = ?"
            args.append(json.dumps(result))
        sql += (
            " WHERE id = ? AND version = ? AND status = 'active' AND NOT EXISTS"
            " (SELECT 1 FROM seats WHERE game_id = ? AND user_id = ? AND status != 'playing')"
        )
        mover = entries[0][0] if entries else ""
        args += [game_id, expected_version, game_id, mover]
        rows = [
            (game_id, expected_version + i + 1, user_id, move_text(move), iso(now))
            for i, (user_id, move) in enumerate(entries)
        ]

        async def body(tx: Tx) -> int | None:
            await tx.lock("games", game_id)
            changed = await tx.fetchrow(sql + " RETURNING revision", args)
            if changed is None:
                return None
            await tx.executemany(
                "INSERT INTO moves (game_id, seq, user_id, move, created_at) VALUES (?, ?, ?, ?, ?)", rows
            )
            if snapshot is not None:
                await tx.execute(_SAVE_SNAPSHOT + _NEWER_SNAPSHOT, (game_id, version, *snapshot))
            await enqueue(tx, game_id, notice, now)  # what players are told, committed with the moves
            return int(changed[0])

        revision = await self._write(body, game_id)
        if revision is None:
            raise Conflict(_("that turn has already been played"))
        return Appended(version, revision)

    async def moves(self, game_id: int, after: int = 0) -> list[tuple[int, str, str]]:
        """(seq, user id, move JSON text) of the log after ``after``, in order."""
        rows = await self._read(
            "SELECT seq, user_id, move FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after)
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def snapshot(self, game_id: int) -> tuple[int, str, bytes] | None:
        rows = await self._read(_READ_SNAPSHOT[self.db.dialect], (game_id,))
        return (rows[0][0], rows[0][1], bytes(rows[0][2])) if rows else None

    async def save_snapshot(
        self, game_id: int, seq: int, engine_version: str, state: bytes, replace: bool = False
    ) -> None:
        """Keep the newest snapshot; ``replace`` overwrites it whatever its seq (one that
        was found to disagree with the log)."""
        newer = "" if replace else _NEWER_SNAPSHOT

        async def body(tx: Tx) -> None:
            await tx.execute(_SAVE_SNAPSHOT + newer, (game_id, seq, engine_version, state))

        await self._write(body, game_id)

    # ------------------------------------------------------------------ players
    async def player_settings(self, user_id: str) -> dict[str, Any]:
        rows = await self._read("SELECT name, dm_turns, language FROM players WHERE user_id = ?", (user_id,))
        if not rows:
            return {"dm_turns": False, "language": "en"}
        return {"name": rows[0][0], "dm_turns": bool(rows[0][1]), "language": rows[0][2]}

    async def vacation(self, user_id: str) -> tuple[datetime | None, dict[str, int]]:
        """(until when the player is away, or None; the vacation days they took, by year)."""
        rows = await self._read("SELECT vacation_until, vacation_days FROM players WHERE user_id = ?", (user_id,))
        if not rows:
            return None, {}
        try:
            days = json.loads(rows[0][1])
        except (TypeError, ValueError):
            days = {}
        return parse_time(rows[0][0]), days if isinstance(days, dict) else {}

    async def set_vacation(
        self, user_id: str, name: str, until: datetime | None, days: dict[str, int], now: datetime
    ) -> None:
        async def body(tx: Tx) -> None:
            await tx.execute(_SAVE_PLAYER, (user_id, name, iso(now)))
            await tx.execute(
                "UPDATE players SET vacation_until = ?, vacation_days = ? WHERE user_id = ?",
                (iso(until) if until else None, json.dumps(days), user_id),
            )

        await self._write(body)

    async def restart_turn(self, game_id: int, version: int, at: datetime) -> bool:
        """Start the turn at ``version`` over at ``at`` (a player back from vacation gets their whole
        time from then); False if the turn moved on meanwhile."""

        async def body(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE games SET turn_started_at = ?, reminded = 0, revision = revision + 1, due_at = NULL"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (iso(at), game_id, version),
            )
            return changed == 1

        return await self._write(body, game_id)

    async def forget_player(self, user_id: str, name_in: Callable[[GameRow, int], str]) -> list[int]:
        """Remove what names ``user_id``: their settings row, and their name wherever it is kept:
        seats, each game's setup, result and move log (the log opened for this one rewrite, in
        the same transaction), league memberships, entrants and results. ``name_in(row, seat)``
        gives the name that replaces theirs in a game (unique in it); in leagues they become that
        of their first game, or "Player". Their Discord id stays (the games stay whole). The games'
        snapshots are dropped: they hold the old name (the log rebuilds them). Returns the games
        changed."""

        async def body(tx: Tx) -> list[int]:
            await tx.execute("DELETE FROM players WHERE user_id = ?", (user_id,))
            seated = await tx.fetch("SELECT game_id FROM seats WHERE user_id = ? ORDER BY game_id", (user_id,))
            ids = [r[0] for r in seated]
            opened, closed = _APPEND_ONLY[tx.dialect]
            for statement in opened:
                await tx.execute(statement)
            league_name = "Player"
            for game_id in ids:
                await tx.lock("games", game_id)
                raw, seats = await read_game_row(tx, game_id)
                try:
                    row = parse_game(raw, seats)
                except Corrupted:
                    continue  # a damaged game keeps what it has
                seat = next(i for i, s in enumerate(row.seats) if s.user_id == user_id)
                new = name_in(row, seat)
                league_name = new if league_name == "Player" else league_name
                old = row.seats[seat].name
                await tx.execute("UPDATE seats SET name = ? WHERE game_id = ? AND user_id = ?", (new, game_id, user_id))
                setup, result = row.setup, row.result
                if setup is not None:
                    setup["players"] = [new if p == old else p for p in setup.get("players", [])]
                if result is not None:
                    for key in ("scores", "users"):
                        if isinstance(result.get(key), dict) and old in result[key]:
                            result[key][new] = result[key].pop(old)
                    result["forfeited"] = [new if p == old else p for p in result.get("forfeited", [])]
                await tx.execute(
                    "UPDATE games SET setup = ?, result = ?, revision = revision + 1, due_at = NULL WHERE id = ?",
                    (json.dumps(setup) if setup is not None else None, json.dumps(result) if result else None,
                     game_id),
                )  # fmt: skip
                for seq, text in await tx.fetch(
                    "SELECT seq, move FROM moves WHERE game_id = ? AND user_id = ?", (game_id, user_id)
                ):
                    move = json.loads(text)
                    if isinstance(move, dict) and move.get("player") == old:
                        move["player"] = new
                        await tx.execute(
                            "UPDATE moves SET move = ? WHERE game_id = ? AND seq = ?", (move_text(move), game_id, seq)
                        )
                await tx.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
            for table, key in (("results", "ranking"), ("seasons", "standings")):
                held = await tx.fetch(f"SELECT id, {key} FROM {table} WHERE {key} LIKE ?", (f"%{user_id}%",))
                for row_id, text in held:
                    value = json.loads(text)
                    await tx.execute(
                        f"UPDATE {table} SET {key} = ? WHERE id = ?",
                        (json.dumps(_renamed(value, user_id, league_name)), row_id),
                    )
            for statement in closed:
                await tx.execute(statement)
            await tx.execute("UPDATE league_members SET name = ? WHERE user_id = ?", (league_name, user_id))
            await tx.execute("UPDATE entrants SET name = ? WHERE user_id = ?", (league_name, user_id))
            return ids

        return await self._write(body)

    async def save_player(
        self, user_id: str, name: str, now: datetime, dm_turns: bool | None = None, language: str | None = None
    ) -> None:
        async def body(tx: Tx) -> None:
            await tx.execute(_SAVE_PLAYER, (user_id, name, iso(now)))
            if dm_turns is not None:
                await tx.execute("UPDATE players SET dm_turns = ? WHERE user_id = ?", (int(dm_turns), user_id))
            if language is not None:
                await tx.execute("UPDATE players SET language = ? WHERE user_id = ?", (language, user_id))

        await self._write(body)


# The append-only logs whose entries carry a player's name: opened for one rewrite by forget_player.
_APPEND_ONLY = {
    "sqlite": (
        ["DROP TRIGGER moves_append_only_update", "DROP TRIGGER results_append_only_update"],
        [
            "CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves"
            " BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END",
            "CREATE TRIGGER results_append_only_update BEFORE UPDATE ON results"
            " BEGIN SELECT RAISE(ABORT, 'the results log is append-only'); END",
        ],
    ),
    "postgresql": (
        [
            "ALTER TABLE moves DISABLE TRIGGER moves_append_only",
            "ALTER TABLE results DISABLE TRIGGER results_append_only",
        ],
        [
            "ALTER TABLE moves ENABLE TRIGGER moves_append_only",
            "ALTER TABLE results ENABLE TRIGGER results_append_only",
        ],
    ),
}


def _renamed(value: Any, user_id: str, name: str) -> Any:
    """``value`` (parsed JSON) with ``name`` wherever an entry of ``user_id`` holds a name."""
    if isinstance(value, list):
        return [_renamed(v, user_id, name) for v in value]
    if isinstance(value, dict):
        out = {k: _renamed(v, user_id, name) for k, v in value.items()}
        if out.get("user_id") == user_id and "name" in out:
            out["name"] = name
        return out
    return value
