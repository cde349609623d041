"""Security and reliability of the service over storage: authorization by server, damaged
rows contained to their game, the deadline clock isolated per game and held by one
instance, versioned timeouts, consistent loads, the cache's bounds."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from datetime import timedelta

import pytest

import service.clock as clock_module
import service.gamelog as gamelog_module
from service import AlreadyPlayed, GameCorrupted, GameService, LobbyOptions, ServiceError
from storage import Store, open_database
from storage.migrations import MIGRATIONS
from storage.rows import Corrupted
from tests.helpers import SYSTEM, Clock, anyone, as_, draft_question  # noqa: F401

G1, G2 = "1001", "2002"  # two Discord servers


@pytest.fixture
async def env(tmp_path):
    db = await open_database(tmp_path / "games.db")
    clock = Clock()
    service = GameService(Store(db), clock, new_seed=itertools.count(1).__next__)
    yield service, clock, tmp_path / "games.db"
    await db.close()


async def open_game(service, guild=G1, users=("u1", "u2"), **options):
    opts = LobbyOptions(seed=options.pop("seed", 4), **options)
    lobby = await service.create_lobby(as_(users[0], guild), "Ann", opts)
    for n, uid in enumerate(users[1:]):
        await service.join(as_(uid, G1), lobby.id, f"P{n}")
    view = (await service.start(as_(users[0], G1), lobby.id)).turn
    return lobby.id, view


async def play_turn(service, view, guild=G1):
    (x, y), rots = sorted(view.placements.items())[0]
    draft = [{"type": "tile", "x": x, "y": y, "rot": rots[0]}]
    after = await draft_question(service, as_(view.user_id, guild), view.game_id, view.version, draft)
    if after.step == "figure" and after.player == view.player:
        draft.append(after.choices[0].move)
    return await service.play(as_(view.user_id, guild), view.game_id, draft, view.version)


async def sql(service, *statements, args=()):
    async def body(tx):
        for statement in statements:
            await tx.execute(statement, args if "?" in statement else ())

    await service.store.db.transaction(body)


async def table_state(service):
    """Everything a call could change, to compare before and after."""
    rows = []
    for table in ("games", "seats", "moves", "snapshots"):
        rows.append(await service.store._read(f"SELECT * FROM {table} ORDER BY rowid"))
    return [[tuple(r) for r in t] for t in rows]


# ---------------------------------------------------------------------- authorization
async def test_no_action_on_a_game_from_another_server(env):
    service, _, _ = env
    gid, view = await open_game(service, G1)
    foreign = f"there is no game #{gid} in this server"
    calls = {
        "lobby": service.lobby(anyone(G2), gid),
        "game": service.game(anyone(G2), gid),
        "turn (board, score)": service.turn(anyone(G2), gid),
        "bag (tiles)": service.bag(anyone(G2), gid),
        "export": service.export(anyone(G2), gid),
        "options_after": draft_question(service, as_(view.user_id, G2), gid, view.version, []),
        "play": service.play(as_(view.user_id, G2), gid, [{"type": "pass"}], view.version),
        "resign": service.resign(as_("u2", G2), gid),
        "kick": service.kick(as_("manager", G2, manager=True), gid, "u2"),
        "abort": service.abort(as_("x9", G2, manager=True), gid),
    }
    before = await table_state(service)
    for name, call in calls.items():
        with pytest.raises(ServiceError) as caught:
            await call
        assert str(caught.value) == foreign, name
    assert await table_state(service) == before
    # The same calls from the game's own server work.
    assert (await service.turn(anyone(G1), gid)).version == view.version
    assert (await service.export(anyone(G1), gid))["players"] == (await service.export(anyone(G1), gid))["players"]
    assert sum((await service.bag(anyone(G1), gid)).values()) == view.bag_left
    await play_turn(service, view)
    lines = await service.kick(as_("manager", G1, manager=True), gid, "u2")
    assert lines[0].endswith("was removed; their turns are played automatically.")
    # A game listing of one server never shows another's.
    assert [r.id for r in await service.games(anyone(G2))] == []
    assert [r.id for r in await service.games(anyone(G1))] == [gid]


async def test_only_managers_kick(env):
    service, _, _ = env
    gid, _ = await open_game(service)
    with pytest.raises(ServiceError, match="only server managers"):
        await service.kick(as_("manager", G1), gid, "u2")
    assert (await service.lobby(anyone(G1), gid)).seat_of("u2").status == "playing"


async def test_abort_rules(env):
    service, _, _ = env
    # A lobby: its creator may abort it before it starts; nobody else but managers.
    lobby = await service.create_lobby(as_("u1", G1), "Ann", LobbyOptions(seed=1))
    await service.join(as_("u2", G1), lobby.id, "Bob")
    with pytest.raises(ServiceError, match="only a server manager or the lobby's creator"):
        await service.abort(as_("u2", G1), lobby.id)
    assert (await service.abort(as_("u1", G1), lobby.id)).status == "aborted"
    # An unrated game with another human still playing: only managers.
    gid, _ = await open_game(service)
    with pytest.raises(ServiceError, match="other players are still in this game"):
        await service.abort(as_("u1", G1), gid)
    await service.resign(as_("u2", G1), gid)
    # ...the creator alone with computer players now: allowed.
    solo = await service.create_lobby(as_("u1", G1), "Ann", LobbyOptions(seed=2))
    await service.add_ai(as_("u1", G1), solo.id)
    await service.start(as_("u1", G1), solo.id)
    assert (await service.abort(as_("u1", G1), solo.id)).status == "aborted"
    # A league (rated) game mid-game: not even its creator alone; a manager may.
    await sql(
        service,
        "INSERT INTO leagues (id, guild_id, name, options, created_by, created_at)"
        " VALUES (7, '1001', 'L', '{}', 'u1', '2026-11-21T12:00:00+00:00')",
    )
    lobby = await service.create_lobby(as_("u1", G1), "Ann", LobbyOptions(seed=3), league_id=7)
    await service.join(as_("u2", G1), lobby.id, "Bob")
    await service.start(as_("u1", G1), lobby.id)
    with pytest.raises(ServiceError, match="league game in progress can only be aborted by a server manager"):
        await service.abort(as_("u1", G1), lobby.id)
    assert (await service.lobby(anyone(G1), lobby.id)).status == "active"
    with pytest.raises(ServiceError, match="in this server"):
        await service.abort(as_("boss", G2, manager=True), lobby.id)  # a manager elsewhere
    assert (await service.abort(as_("boss", G1, manager=True), lobby.id)).status == "aborted"
    with pytest.raises(ServiceError, match="already over"):
        await service.abort(as_("boss", G1, manager=True), lobby.id)


# ---------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "bad",
    [
        {"x": "3"}, {"x": 3.4}, {"x": True}, {"rot": 90.5}, {"x": -2.6}, {"rot": 45}, {"x": 10**5000},
        {"y": None}, {"type": "teleport"}, {"type": None}, {"tile": {"a": 1}}, {"tile": "x" * 5000},
        {"at": ["road"]}, {"Evil Key": 1},
    ],
)  # fmt: skip
async def test_coerced_or_malformed_moves_are_refused_and_nothing_changes(env, bad):
    service, _, _ = env
    gid, view = await open_game(service)
    (x, y), rots = sorted(view.placements.items())[0]
    move = {"type": "tile", "x": x, "y": y, "rot": rots[0], **bad}
    before = await table_state(service)
    with pytest.raises(ServiceError) as caught:
        await service.play(as_(view.user_id, G1), gid, [move], view.version)
    assert len(str(caught.value)) < 160  # echoed input is clipped
    assert await table_state(service) == before


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s, g, v: s.play(as_(v.user_id, G1), g, None, v.version), "list of move objects"),
        (lambda s, g, v: s.play(as_(v.user_id, G1), g, [[]], v.version), "not a move object"),
        (lambda s, g, v: s.play(as_(v.user_id, G1), g, [], v.version), "no move given"),
        (lambda s, g, v: s.play(as_(v.user_id, G1), 2**63, [{"type": "pass"}]), "there is no game 9223372036854775808"),
        (lambda s, g, v: s.play(as_(v.user_id, G1), str(g), [{"type": "pass"}]), "there is no game '1'"),
        (lambda s, g, v: s.turn(anyone(G1), True), "there is no game True"),
        (lambda s, g, v: s.turn(anyone(G1), 0), "there is no game 0"),
        (lambda s, g, v: s.play(as_(5, G1), g, [{"type": "pass"}]), "not a valid user id"),
        (lambda s, g, v: s.play(as_(v.user_id, G1), g, [{"type": "pass"}], "3"), "not a game version"),
        (lambda s, g, v: s.resign(as_("x" * 1000, G1), g), "not a valid user id"),
        (lambda s, g, v: s.games(anyone(G1), status="zombie"), "unknown game status"),
    ],
)
async def test_malformed_calls_raise_a_clear_service_error(env, call, message):
    service, _, _ = env
    gid, view = await open_game(service)
    before = await table_state(service)
    with pytest.raises(ServiceError, match=message.replace("(", r"\(")):
        await call(service, gid, view)
    assert await table_state(service) == before
    assert list(service.log._locks) in ([], [gid])  # a string id got no lock of its own


# ---------------------------------------------------------------------- corruption
LOG_WINS = "loads"


def _corruptions(gid: int, version: int, other_gid: int) -> dict[str, tuple[list[str], str]]:
    """name -> (SQL that damages game ``gid``, the GameCorrupted message, or LOG_WINS)."""
    g = f"WHERE id = {gid}"
    last = version  # above the snapshot at 20
    return {
        "options: bad JSON": ([f"UPDATE games SET options = '{{bad' {g}"], "its options is not valid JSON"),
        "options: a list": ([f"UPDATE games SET options = '[1]' {g}"], "its options is not a JSON object"),
        "setup: bad JSON": ([f"UPDATE games SET setup = '{{\"players\"' {g}"], "its setup is not valid JSON"),
        "setup: a string": ([f"UPDATE games SET setup = '\"abc\"' {g}"], "its setup is not a JSON object"),
        "result: bad JSON": ([f"UPDATE games SET result = 'nope' {g}"], "its result is not valid JSON"),
        "setup.users: short": (
            [f"UPDATE games SET setup = json_remove(setup, '$.users[1]') {g}"],
            "1 user ids for 2 players",
        ),
        "setup.users: missing": ([f"UPDATE games SET setup = json_remove(setup, '$.users') {g}"], "no players"),
        "setup.players: a string": (
            [f"UPDATE games SET setup = json_set(setup, '$.players', 'Ann') {g}"],
            "no players",
        ),
        "setup.seed: a string": ([f"UPDATE games SET setup = json_set(setup, '$.seed', 'x') {g}"], "seed"),
        "setup.sets: unknown set": (
            [f"UPDATE games SET setup = json_set(setup, '$.sets', json('[\"unicorns\"]')) {g}"],
            "unknown set",
        ),
        "setup.pool: unknown tile": (
            [f"UPDATE games SET setup = json_set(setup, '$.pool[3]', 'base.NOPE') {g}"],
            "base.NOPE",
        ),
        "options.turn_limit: a string": (
            [f"UPDATE games SET options = json_set(options, '$.turn_limit', '3600') {g}"],
            "its turn limit",
        ),
        "options.timeout_policy: unknown": (
            [f"UPDATE games SET options = json_set(options, '$.timeout_policy', 'explode') {g}"],
            "timeout policy",
        ),
        "turn_started_at: garbage": ([f"UPDATE games SET turn_started_at = 'yesterday' {g}"], "its turn start"),
        "created_at: garbage": ([f"UPDATE games SET created_at = '2026-13-45' {g}"], "its creation time"),
        "version: text": ([f"UPDATE games SET version = 'abc' {g}"], "its version"),
        "version: negative": ([f"UPDATE games SET version = -1 {g}"], "its version"),
        "version: beyond the log": ([f"UPDATE games SET version = version + 5 {g}"], f"holds {version} of its"),
        "reminded: text": ([f"UPDATE games SET reminded = 'x' {g}"], "reminder flag"),
        "status: unknown": ([f"UPDATE games SET status = 'zombie' {g}"], "its status is unknown"),
        "seats: missing": ([f"DELETE FROM seats WHERE game_id = {gid}"], "2 of its seats are missing"),
        "seat: unknown status": (
            [f"UPDATE seats SET status = 'ghost' WHERE game_id = {gid} AND user_id = 'u2'"],
            "seats is damaged",
        ),
        "move: bad JSON": (
            [
                "DROP TRIGGER moves_append_only_update",
                f"UPDATE moves SET move = '{{\"type\"' WHERE game_id = {gid} AND seq = {last}",
            ],
            f"move {last} is not valid JSON",
        ),  # fmt: skip
        "move: not an object": (
            [
                "DROP TRIGGER moves_append_only_update",
                f"UPDATE moves SET move = '[1, 2]' WHERE game_id = {gid} AND seq = {last}",
            ],
            f"move {last} is not a move object",
        ),  # fmt: skip
        "move: unknown tile id (numbered by its seq)": (
            [
                "DROP TRIGGER moves_append_only_update",
                f"UPDATE moves SET move = json_set(move, '$.tile', 'base.NOPE') WHERE game_id = {gid}"
                f" AND seq = {last - 1} AND json_extract(move, '$.type') = 'tile'",
                f"UPDATE moves SET move = json_set(move, '$.tile', 'base.NOPE') WHERE game_id = {gid} AND seq = {last}"
                " AND json_extract(move, '$.type') = 'tile'",
            ],
            ": unknown tile id 'base.NOPE'",
        ),  # fmt: skip
        "move: parseable but illegal": (
            [
                "DROP TRIGGER moves_append_only_update",
                f'UPDATE moves SET move = \'{{"type": "tile", "x": 50, "y": 50, "rot": 0}}\''
                f" WHERE game_id = {gid} AND seq = 1",
            ],
            "move 1: ",
        ),  # fmt: skip
        "log: a move missing": (
            ["DROP TRIGGER moves_append_only_delete", f"DELETE FROM moves WHERE game_id = {gid} AND seq = 5"],
            "move 5 is missing from its log",
        ),
        "log: damaged below the snapshot": (
            [
                "DROP TRIGGER moves_append_only_update",
                f"UPDATE moves SET move = 'garbage' WHERE game_id = {gid} AND seq = 3",
            ],
            "move 3 is not valid JSON",
        ),  # fmt: skip
        "snapshot: bad JSON": ([f"UPDATE snapshots SET state = X'7B' WHERE game_id = {gid}"], LOG_WINS),
        "snapshot: moves null": ([_snapshot_head(gid, "'$.moves', json('null')")], LOG_WINS),
        "snapshot: wrong but parseable": (
            [
                f"UPDATE snapshots SET state = (SELECT state FROM snapshots WHERE game_id = {other_gid})"
                f" WHERE game_id = {gid}"
            ],
            LOG_WINS,
        ),  # fmt: skip
        "snapshot: beyond the log": ([f"UPDATE snapshots SET seq = 999 WHERE game_id = {gid}"], LOG_WINS),
        "snapshot: a byte of the state changed": (
            [
                f"UPDATE snapshots SET state = substr(state, 1, length(state) - 40) || X'4B'"
                f" || substr(state, length(state) - 38) WHERE game_id = {gid}"
            ],
            LOG_WINS,
        ),  # fmt: skip
        "snapshot: a part cut short": (
            [f"UPDATE snapshots SET state = substr(state, 1, length(state) - 9) WHERE game_id = {gid}"],
            LOG_WINS,
        ),
        "snapshot: another state format": ([_snapshot_head(gid, "'$.state', 999")], LOG_WINS),
        "snapshot: another engine version": (
            [f"UPDATE snapshots SET engine_version = 'old' WHERE game_id = {gid}"],
            LOG_WINS,
        ),
        "snapshot: the old kind (the record)": (
            [f"UPDATE snapshots SET state = '{{\"moves\": []}}' WHERE game_id = {gid}"],
            LOG_WINS,
        ),
    }


def _snapshot_head(gid: int, change: str) -> str:
    """SQL that edits the JSON head of a game's snapshot (the line before its bytes) with json_set."""
    head = "CAST(substr(state, 1, instr(state, X'0A') - 1) AS TEXT)"
    return (
        f"UPDATE snapshots SET state = CAST(json_set({head}, {change}) AS BLOB)"
        f" || substr(state, instr(state, X'0A')) WHERE game_id = {gid}"
    )


CORRUPTION_KINDS = list(_corruptions(1, 22, 2))


async def _two_long_games(service):
    """Two running games of server G1, each past its first snapshot."""
    a, va = await open_game(service, seed=4, turn_limit=3600)
    b, vb = await open_game(service, seed=9, turn_limit=3600)
    while va.version < 22:
        va = (await play_turn(service, va)).turn
    while vb.version < 22:
        vb = (await play_turn(service, vb)).turn
    return a, va, b, vb


@pytest.mark.parametrize("kind", CORRUPTION_KINDS)
async def test_a_damaged_game_fails_alone(env, kind, caplog):
    service, clock, _ = env
    a, va, b, vb = await _two_long_games(service)
    assert 20 <= (await service.store.snapshot(a))[0] <= va.version
    statements, expected = _corruptions(a, va.version, b)[kind]
    if "status = 'ghost'" in statements[0] or "'zombie'" in statements[0]:
        await sql(service, "PRAGMA ignore_check_constraints = ON")
    await sql(service, *statements)
    await sql(service, "PRAGMA ignore_check_constraints = OFF")
    fresh = GameService(service.store, clock)  # as after a restart: nothing cached
    if expected == LOG_WINS:
        view = await fresh.turn(anyone(G1), a)
        assert view.version == va.version and view.scores == va.scores and view.tile == va.tile
        seq, _, state = await fresh.store.snapshot(a)
        assert seq == va.version and json.loads(state.partition(b"\n")[0])["seq"] == va.version  # rewritten
        assert "snapshot is not used" in caplog.text
        restarted = GameService(service.store, clock)  # and the new snapshot serves the next restart
        assert await restarted.export(anyone(G1), a) == await fresh.export(anyone(G1), a)
    else:
        with pytest.raises(GameCorrupted) as caught:
            await fresh.turn(anyone(G1), a)
        message = str(caught.value)
        assert message.startswith(f"game #{a} cannot be loaded: ") and expected in message, message
        if "numbered by its seq" in kind:  # the message counts moves as the log does
            rows = await service.store._read("SELECT seq FROM moves WHERE move LIKE '%base.NOPE%'")
            assert f"move {rows[0][0]}: " in message
    # The other game, the listings and the clock keep working.
    assert (await fresh.turn(anyone(G1), b)).version == vb.version
    listed = [r.id for r in await fresh.games(anyone(G1))]
    assert b in listed and set(listed) <= {a, b}
    assert b in [r.id for r in await fresh.games(anyone(G1), user_id="u1")]
    clock.now += timedelta(hours=2)
    caplog.set_level(logging.WARNING, logger="service.games")
    notices = await fresh.tick()
    assert ("timeout", b) in [(n.kind, n.game_id) for n in notices]
    if expected != LOG_WINS:
        assert a not in [n.game_id for n in notices]
        clock.now += timedelta(minutes=1)
        await fresh.tick()  # the same failure again: not logged again
        about_a = [r for r in caplog.records if f"game #{a} " in r.getMessage() and "clock" in r.getMessage()]
        assert len(about_a) == (0 if kind == "status: unknown" else 1)  # not active: the clock skips it


async def test_store_names_the_damaged_field(env):
    service, _, _ = env
    gid, _ = await open_game(service)
    await sql(service, f"UPDATE games SET turn_started_at = 'soon' WHERE id = {gid}")
    with pytest.raises(Corrupted, match=f"game #{gid} cannot be loaded: its turn start is not a time"):
        await service.store.get_game(gid)
    with pytest.raises(GameCorrupted):
        await service.lobby(anyone(G1), gid)


# ---------------------------------------------------------------------- the clock
async def test_one_failing_game_never_stops_the_clock(env, monkeypatch, caplog):
    service, clock, _ = env
    a, _ = await open_game(service, turn_limit=3600, seed=4)
    b, _ = await open_game(service, turn_limit=3600, seed=5)
    real = service._time_out

    async def broken_for_a(row, game, holder):
        if row.id == a:
            raise RuntimeError("channel deleted")  # any bug in one game's timeout
        return await real(row, game, holder)

    monkeypatch.setattr(service, "_time_out", broken_for_a)
    clock.now += timedelta(hours=2)
    caplog.set_level(logging.ERROR, logger="service.games")
    assert [(n.kind, n.game_id) for n in await service.tick()] == [("timeout", b)]
    assert [r.getMessage() for r in caplog.records] == [f"deadline clock: game #{a} failed"]
    await service.tick()
    assert len(caplog.records) == 1  # reported once, not every minute
    monkeypatch.setattr(service, "_time_out", real)
    assert [(n.kind, n.game_id) for n in await service.tick()] == [("timeout", a)]


async def test_a_second_instance_does_not_tick_while_the_first_is_alive(env, caplog):
    service, clock, path = env
    gid, _ = await open_game(service, turn_limit=60)
    other_db = await open_database(path)
    minute = timedelta(seconds=61)
    try:
        second = GameService(Store(other_db), clock)
        clock.now += minute
        assert [n.game_id for n in await service.tick()] == [gid]  # takes the lease, ticks
        clock.now += timedelta(seconds=10)  # within the lease: the first one is alive
        caplog.set_level(logging.WARNING, logger="service.clock")
        assert await second.tick() == []  # this one does not tick
        assert await second.tick() == []
        warnings = [r.getMessage() for r in caplog.records]
        assert len(warnings) == 1 and f"another bot process ({service.instance_id})" in warnings[0]
        clock.now += minute
        assert [n.game_id for n in await service.tick()] == [gid]  # the holder does
        clock.now += clock_module.LEASE_TTL + timedelta(seconds=1)  # the first one died
        gid2, _ = await open_game(service, turn_limit=60, seed=7)
        clock.now += minute
        assert gid2 in [n.game_id for n in await second.tick()]
        assert await service.tick() == []  # and now the first one is the second
        await second.release_clock()  # a clean shutdown hands the clock over at once
        clock.now += minute
        assert gid2 in [n.game_id for n in await service.tick()]
    finally:
        await other_db.close()


async def test_a_move_at_the_deadline_is_either_accepted_or_forfeited(env):
    """Two instances over one database: one's clock forfeits while the other's player moves."""
    service, clock, path = env
    other_db = await open_database(path)
    both = 0
    outcomes = {"accepted": 0, "forfeited": 0}
    try:
        player_side = GameService(Store(other_db), clock)
        for round_ in range(200):
            gid, view = await open_game(service, turn_limit=60, timeout_policy="forfeit", seed=round_)
            await service.tick()  # renew the lease
            clock.now += timedelta(seconds=61)
            (x, y), rots = sorted(view.placements.items())[0]
            turn = [{"type": "tile", "x": x, "y": y, "rot": rots[0]}]
            after = await draft_question(service, as_(view.user_id, G1), gid, view.version, turn)
            if after.player == view.player:
                turn.append({"type": "pass"})  # a whole turn, made at the deadline
            played, _ = await asyncio.gather(
                player_side.play(as_(view.user_id, G1), gid, turn, view.version), service.tick(), return_exceptions=True
            )
            accepted = not isinstance(played, BaseException)
            if not accepted:
                assert isinstance(played, AlreadyPlayed), played
            row = await service.lobby(anyone(G1), gid)
            forfeited = row.seat_of(view.user_id).status == "forfeited"
            moves = await service.store.moves(gid)
            mine = [m for m in moves if m[1] == view.user_id]
            assert accepted == bool(mine)
            both += accepted and forfeited
            outcomes["accepted"] += accepted
            outcomes["forfeited"] += forfeited
            await service.abort(as_("x", G1, manager=True), gid)
    finally:
        await other_db.close()
    assert both == 0
    assert outcomes["accepted"] + outcomes["forfeited"] == 200  # every round went one way or the other


async def test_loads_during_play_are_consistent(env):
    """Another instance reading while this one plays never sees a half-written game."""
    service, clock, path = env
    other_db = await open_database(path)
    gid, view = await open_game(service, seed=3)
    failures, reads = 0, 0
    stop = False

    async def reader():
        nonlocal failures, reads
        while not stop or reads < 325:
            fresh = GameService(Store(other_db), clock)  # nothing cached: a full load every time
            try:
                await fresh.turn(anyone(G1), gid)
            except GameCorrupted:
                failures += 1
            reads += 1
            await asyncio.sleep(0)

    async def writer():
        nonlocal view, stop
        while not view.finished and view.version < 60:
            view = (await play_turn(service, view)).turn
            await asyncio.sleep(0)
        stop = True

    try:
        await asyncio.gather(reader(), writer())
    finally:
        await other_db.close()
    assert reads >= 325 and failures == 0


# ---------------------------------------------------------------------- memory
async def test_finished_and_aborted_games_leave_the_cache_and_it_is_bounded(env, monkeypatch):
    service, _, _ = env
    a, _ = await open_game(service, seed=1)
    b, _ = await open_game(service, seed=2)
    assert set(service.log._games) == {a, b}
    await service.abort(as_("boss", G1, manager=True), a)
    assert set(service.log._games) == {b}
    await service.turn(anyone(G1), a)  # reading an aborted game does not cache it again
    assert set(service.log._games) == {b}
    monkeypatch.setattr(gamelog_module, "CACHE_SIZE", 2)
    c, _ = await open_game(service, seed=3)
    await service.turn(anyone(G1), b)  # b is now the most recently used
    d, _ = await open_game(service, seed=5)
    assert list(service.log._games) == [b, d]
    assert (await service.turn(anyone(G1), c)).version == 0  # evicted games load again from the log
    # A game played to its end leaves the cache.
    solo = await service.create_lobby(as_("u1", G1), "Ann", LobbyOptions(seed=6))
    await service.add_ai(as_("u1", G1), solo.id)
    await service.add_ai(as_("u1", G1), solo.id)
    view = (await service.start(as_("u1", G1), solo.id)).turn
    while not view.finished:
        view = (await play_turn(service, view)).turn
    assert solo.id not in service.log._games


async def test_a_database_with_text_snapshots_upgrades_and_its_games_load(tmp_path, monkeypatch):
    """Before migration 6 a snapshot was base64 in JSON text: the migration drops them (a
    cache), and each game's next load replays its log and writes a snapshot of bytes."""
    import sqlite3

    import storage.sqlite

    path, current = tmp_path / "old.db", tmp_path / "current.db"
    monkeypatch.setattr(storage.sqlite, "MIGRATIONS", [m for m in MIGRATIONS if m[0] <= 5])
    await (await open_database(path)).close()  # a database as schema 5 left it
    monkeypatch.undo()
    db = await open_database(current)  # a game played by this code...
    service = GameService(Store(db), Clock(), new_seed=itertools.count(1).__next__)
    gid, view = await open_game(service, seed=4)
    while view.version < 12:
        view = (await play_turn(service, view)).turn
    await db.close()
    raw = sqlite3.connect(path)  # ... its rows as schema 5 held them, with a snapshot as text
    raw.execute("ATTACH DATABASE ? AS current", (str(current),))
    for table in ("games", "seats", "moves"):
        columns = ", ".join(row[1] for row in raw.execute(f"PRAGMA main.table_info({table})"))
        raw.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM current.{table}")
    raw.execute("INSERT INTO snapshots VALUES (?, 10, '1', ?)", (gid, '{"state": 1, "seq": 10, "data": "gAU="}'))
    raw.commit()
    raw.close()

    db = await open_database(path)
    try:
        assert await db.schema_version() == MIGRATIONS[-1][0]
        fresh = GameService(Store(db), Clock())
        assert await fresh.store.snapshot(gid) is None  # the text ones are gone
        again = await fresh.turn(anyone(G1), gid)
        assert (again.version, again.scores, again.tile) == (view.version, view.scores, view.tile)
        seq, _engine, state = await fresh.store.snapshot(gid)
        assert seq == view.version and isinstance(state, bytes)
        assert await GameService(Store(db), Clock()).export(anyone(G1), gid) == await fresh.export(anyone(G1), gid)
    finally:
        await db.close()


async def test_a_tick_takes_the_longest_overdue_first_and_stops_within_its_budget(env, monkeypatch):
    """After a long downtime: the due games are handled oldest deadline first, in batches, and a
    tick that has run its budget leaves the rest (counted) to the next one, which goes on."""
    from service import clock as clock_module

    service, clock, _ = env
    games = []
    for n in range(6):
        gid, _view = await open_game(service, turn_limit=3600 * (6 - n), seed=10 + n)  # the last one: 1 h
        games.append(gid)
    clock.now += timedelta(hours=7)  # all overdue, the last opened the longest (1 h limit)
    handled: list[int] = []
    real = service._tick_game

    async def slow(game_id, now, holder):
        handled.append(game_id)
        clock_module_time[0] += 1.0  # each game takes a "second"
        return await real(game_id, now, holder)

    clock_module_time = [0.0]
    monkeypatch.setattr(clock_module.time, "monotonic", lambda: clock_module_time[0])
    monkeypatch.setattr(clock_module, "TICK_BATCH", 2)
    monkeypatch.setattr(clock_module, "TICK_BUDGET", timedelta(seconds=3))
    monkeypatch.setattr(service, "_tick_game", slow)
    await service.tick()
    assert handled == list(reversed(games))[:4]  # oldest deadline first; stopped after two batches
    assert service.tick_left == 2
    handled.clear()
    await service.tick()
    assert handled == list(reversed(games))[4:] and service.tick_left == 0
