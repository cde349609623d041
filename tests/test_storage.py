"""Storage: migrations, the append-only log, optimistic versions — on SQLite and on a real
PostgreSQL server (the ``db_url`` fixture runs each test on both)."""

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from storage import Conflict, IntegrityError, NotFound, Store, open_database
from storage.database import LATEST
from storage.migrations import MIGRATIONS, POSTGRES_MIGRATIONS

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


@pytest.fixture
async def store(db_url):
    db = await open_database(db_url)
    yield Store(db)
    await db.close()


def test_both_backends_know_the_same_schema_versions():
    assert max(v for v, _ in MIGRATIONS) == max(v for v, _ in POSTGRES_MIGRATIONS) == LATEST


async def test_a_new_database_has_the_latest_schema(db_url):
    db = await open_database(db_url)
    assert await db.schema_version() == LATEST
    assert await db.migrate() == []  # nothing left to apply
    await db.close()
    again = await open_database(db_url)  # a restart finds it current
    assert await again.schema_version() == LATEST
    await again.close()


async def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path):
    db = await open_database(tmp_path / "new.db")
    assert (await db.fetch("PRAGMA journal_mode"))[0][0] == "wal"
    assert (await db.fetch("PRAGMA foreign_keys"))[0][0] == 1
    await db.close()


async def test_a_database_url_names_the_backend(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/by-url.db")
    db = await open_database()
    assert db.dialect == "sqlite" and not db.shared and (tmp_path / "by-url.db").exists()
    await db.close()


async def test_an_older_database_upgrades_in_place(tmp_path):
    path = tmp_path / "old.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE leftover (x INTEGER)")
    raw.execute("INSERT INTO leftover VALUES (42)")
    raw.commit()
    raw.close()
    db = await open_database(path)
    assert await db.schema_version() == LATEST
    assert (await db.fetch("SELECT x FROM leftover"))[0][0] == 42  # existing data survives
    await db.close()


async def test_moves_need_the_current_version(store):
    gid = await store.create_game("u1", {"max_players": 2}, NOW)
    await store.add_seat(gid, "u1", "Ann", False, NOW, 2)
    await store.add_seat(gid, "u2", "Bob", False, NOW, 2)
    await store.start_game(gid, {"players": ["Ann", "Bob"]}, ["u1", "u2"], NOW)
    revision = (await store.get_game(gid)).revision
    appended = await store.append_moves(gid, 0, [("u1", {"type": "tile"}), ("u1", {"type": "pass"})], NOW, True)
    assert appended == (2, revision + 1) and await store.revision(gid) == revision + 1
    with pytest.raises(Conflict, match="already been played"):
        await store.append_moves(gid, 0, [("u2", {"type": "tile"})], NOW, True)
    assert [(s, u) for s, u, _ in await store.moves(gid)] == [(1, "u1"), (2, "u1")]
    assert [s for s, _, _ in await store.moves(gid, after=1)] == [2]


async def test_the_log_is_append_only(store):
    gid = await store.create_game("u1", {}, NOW)
    await store.start_game(gid, {}, [], NOW)
    await store.append_moves(gid, 0, [("u1", {"type": "tile"})], NOW, True)
    with pytest.raises(IntegrityError, match="append-only"):
        await store.db.execute("UPDATE moves SET move = '{}' WHERE game_id = ?", (gid,))
    with pytest.raises(IntegrityError, match="append-only"):
        await store.db.execute("DELETE FROM moves WHERE game_id = ?", (gid,))
    assert len(await store.moves(gid)) == 1


async def test_seats_and_lobby_rules(store):
    gid = await store.create_game("u1", {}, NOW)
    await store.add_seat(gid, "u1", "Ann", False, NOW, 2)
    with pytest.raises(Conflict, match="already in this lobby"):
        await store.add_seat(gid, "u1", "Ann", False, NOW, 2)
    await store.add_seat(gid, "u2", "Bob", False, NOW, 2)
    with pytest.raises(Conflict, match="full"):
        await store.add_seat(gid, "u3", "Cy", False, NOW, 2)
    await store.remove_seat(gid, "u2")
    with pytest.raises(Conflict):
        await store.remove_seat(gid, "u2")
    with pytest.raises(NotFound):
        await store.get_game(999)


async def test_snapshots_never_go_backwards(store):
    gid = await store.create_game("u1", {}, NOW)
    await store.save_snapshot(gid, 20, "1", b"twenty")
    await store.save_snapshot(gid, 10, "1", b"ten")
    assert await store.snapshot(gid) == (20, "1", b"twenty")


async def test_a_snapshot_saved_with_moves_commits_with_them_or_not_at_all(store):
    gid = await store.create_game("u1", {}, NOW)
    await store.add_seat(gid, "u1", "Ann", False, NOW, 2)
    await store.start_game(gid, {"players": ["Ann"]}, ["u1"], NOW)
    moves = [("u1", {"type": "tile"}), ("u1", {"type": "pass"})]
    assert (await store.append_moves(gid, 0, moves, NOW, True, snapshot=("1", b"two"))).version == 2
    assert await store.snapshot(gid) == (2, "1", b"two")
    with pytest.raises(Conflict):  # a stale version: neither the moves nor the snapshot
        await store.append_moves(gid, 0, moves, NOW, True, snapshot=("1", b"stale"))
    assert await store.snapshot(gid) == (2, "1", b"two") and len(await store.moves(gid)) == 2
    assert (await store.append_moves(gid, 2, moves[:1], NOW, True)).version == 3
    assert await store.snapshot(gid) == (2, "1", b"two")  # none given: the last one stays


async def test_two_processes_opening_a_new_database_together_migrate_it_once(db_url):
    dbs = await asyncio.gather(*(open_database(db_url) for _ in range(4)))
    try:
        for db in dbs:
            assert await db.schema_version() == LATEST
    finally:
        for db in dbs:
            await db.close()


async def test_durable_sqlite_commits(tmp_path):
    db = await open_database(tmp_path / "t.db")
    assert (await db.fetch("PRAGMA synchronous"))[0][0] == 2  # FULL: a commit survives power loss in WAL mode
    await db.close()


async def test_the_clock_lease(store):
    ttl = timedelta(minutes=5)
    assert await store.take_clock_lease("a", NOW, ttl) is None
    assert await store.take_clock_lease("b", NOW + timedelta(minutes=4), ttl) == "a"
    assert await store.take_clock_lease("a", NOW + timedelta(minutes=4), ttl) is None  # renewed
    assert await store.take_clock_lease("b", NOW + timedelta(minutes=8), ttl) == "a"
    assert await store.take_clock_lease("b", NOW + timedelta(minutes=10), ttl) is None  # a died
    await store.release_clock_lease("b")
    assert await store.take_clock_lease("a", NOW + timedelta(minutes=10), ttl) is None


async def test_one_consistent_read_bounded_by_the_version(store):
    gid = await store.create_game("u1", {}, NOW)
    await store.add_seat(gid, "u1", "Ann", False, NOW, 2)
    await store.start_game(gid, {"players": ["Ann"]}, ["u1"], NOW)
    await store.append_moves(gid, 0, [("u1", {"type": "tile"}), ("u1", {"type": "pass"})], NOW, True)
    loaded = await store.load_game(gid)
    assert loaded.row.version == 2 and [m[0] for m in loaded.moves] == [1, 2] and loaded.snapshot is None
    assert (await store.load_game(gid, cached_version=2)).moves is None  # the cache is current
    # A forfeited player's late move is refused, even at the right version.
    assert await store.set_seat_status(gid, "u1", "forfeited", expected_version=2)
    with pytest.raises(Conflict):
        await store.append_moves(gid, 2, [("u1", {"type": "tile"})], NOW, True)
    assert not await store.set_seat_status(gid, "u1", "resigned", expected_version=1)


async def test_every_change_to_a_game_counts_a_revision(store):
    """What a process sharing the database reads to know its cached game is current."""
    gid = await store.create_game("u1", {}, NOW)
    seen = [await store.revision(gid)]

    async def changed() -> None:
        seen.append(await store.revision(gid))
        assert seen[-1] == seen[-2] + 1 == (await store.get_game(gid)).revision

    await store.add_seat(gid, "u1", "Ann", False, NOW, 2)
    await changed()
    await store.add_seat(gid, "u2", "Bob", False, NOW, 2)
    await changed()
    await store.update_lobby_options(gid, lambda options: options.update(sets=["base"]), NOW)
    await changed()
    await store.set_discord_ids(gid, thread_id="t1")
    await changed()
    await store.start_game(gid, {"players": ["Ann", "Bob"]}, ["u1", "u2"], NOW)
    await changed()
    await store.append_moves(gid, 0, [("u1", {"type": "tile"})], NOW, True)
    await changed()
    assert await store.mark_reminded(gid, 1)
    await changed()
    assert await store.set_seat_status(gid, "u2", "resigned")
    await changed()
    await store.save_snapshot(gid, 1, "1", b"state")  # a cache of the log, not a change
    await store.claim_games([gid], "me", NOW, timedelta(seconds=20))  # the clock's, not the game's
    assert await store.revision(gid) == seen[-1]
    await store.finish(gid, "finished", {"scores": {}}, NOW)
    await changed()
    assert await store.revision(999) is None


async def test_each_due_game_is_claimed_by_one_process_until_its_claim_expires(store):
    ids = [await store.create_game("u1", {}, NOW) for _ in range(3)]
    for gid in ids:
        await store.start_game(gid, {}, [], NOW)
    ttl = timedelta(seconds=20)
    assert await store.claim_games(ids[:2], "a", NOW, ttl) == ids[:2]
    assert await store.claim_games(ids, "b", NOW, ttl) == ids[2:]  # a holds the first two
    assert await store.claim_games(ids, "a", NOW + timedelta(seconds=5), ttl) == ids[:2]  # a renews its own
    assert await store.claim_games(ids, "b", NOW + timedelta(seconds=26), ttl) == ids  # a stopped: they expire
    await store.finish(ids[0], "finished", None, NOW)
    assert await store.claim_games(ids, "c", NOW + timedelta(minutes=5), ttl) == ids[1:]  # only running games



async def test_a_job_is_claimed_by_one_process_until_its_claim_expires(store):
    ttl = timedelta(seconds=20)
    assert await store.claim(["league:1:2", "league:3:1"], "a", NOW, ttl) == ["league:1:2", "league:3:1"]
    assert await store.claim(["league:1:2", "league:5:1"], "b", NOW, ttl) == ["league:5:1"]
    assert await store.claim(["league:1:2"], "a", NOW + timedelta(seconds=10), ttl) == ["league:1:2"]  # renewed
    assert await store.claim(["league:1:2"], "b", NOW + timedelta(seconds=25), ttl) == []  # renewed at 10 s
    assert await store.claim(["league:1:2"], "b", NOW + timedelta(seconds=31), ttl) == ["league:1:2"]  # a stopped


async def test_the_outbox_hands_each_row_to_one_holder_and_forgets_it_once_posted(store):
    """A notice written with its game's change is held by its writer; once the hold expires any
    process may claim it, one at a time; a row offered five times is given up; a week after, the
    rows are gone, posted or not."""
    from datetime import timedelta

    from storage.outbox import Outgoing

    gid = await store.create_game("u1", {"max_players": 2}, NOW)
    await store.add_seat(gid, "u1", "Ann", False, NOW, 2)
    await store.add_seat(gid, "u2", "Bob", False, NOW, 2)
    await store.start_game(gid, {"players": ["Ann", "Bob"], "users": ["u1", "u2"]}, ["u1", "u2"], NOW)
    hold = timedelta(seconds=20)
    notice = Outgoing("reminder", {"user_id": "u1", "lines": ["hi"]}, "writer", NOW + hold)
    assert await store.mark_reminded(gid, 0, 1, notice, NOW)
    assert not await store.mark_reminded(gid, 0, 1, notice, NOW)  # already reminded: no second row
    assert await store.unposted() == 1
    assert await store.claim_notices("other", NOW, hold) == []  # the writer holds it
    (row,) = await store.claim_notices("writer", NOW, hold)
    assert (row.game_id, row.version, row.kind, row.body["lines"]) == (gid, 0, "reminder", ["hi"])
    later = NOW + hold + timedelta(seconds=1)  # the writer died: its hold expired
    assert [r.id for r in await store.claim_notices("other", later, hold)] == [row.id]
    assert await store.claim_notices("third", later, hold) == []  # held by "other" now
    for n in range(3):  # offered five times in all, then given up
        assert await store.claim_notices(f"p{n}", later + (n + 1) * 2 * hold, hold)
    assert await store.claim_notices("p9", later + 20 * hold, hold) == []
    assert await store.unposted() == 1
    assert await store.notices_posted([row.id], later) == 1
    assert await store.notices_posted([row.id], later) == 0  # once
    assert await store.unposted() == 0
    await store.notices_posted([], later + timedelta(days=8))
    await store.notices_posted([0], later + timedelta(days=8))  # the week-old rows are dropped
    assert (await store.db.fetch("SELECT count(*) FROM outbox"))[0][0] == 0


def test_the_outbox_rebuilt_for_league_rows_keeps_its_ids_increasing():
    """Migration 15 rebuilds SQLite's outbox (game_id may be NULL for a league's row): the ids go
    on after the highest ever given, even one deleted (posts' nonces are made from them), and a
    row is a game's or a league's, never both or neither."""
    import sqlite3

    from storage.sqlite import _statements

    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    add = "INSERT INTO outbox (game_id, version, kind, body, created_at) VALUES (?, 0, 'moved', '{}', 'now')"
    for version, sql in MIGRATIONS:
        if version == 15:
            conn.execute("INSERT INTO games (id, status, creator_id, options, created_at, updated_at)"
                         " VALUES (1, 'lobby', 'a', '{}', 'now', 'now')")  # fmt: skip
            for _ in range(3):
                conn.execute(add, (1,))
            conn.execute("DELETE FROM outbox WHERE id = 3")
        for statement in _statements(sql):
            conn.execute(statement)
    conn.execute(add, (1,))
    assert [r[0] for r in conn.execute("SELECT id FROM outbox ORDER BY id")] == [1, 2, 4]
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(add, (None,))  # neither a game's nor a league's
