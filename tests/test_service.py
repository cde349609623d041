"""The game service: lobbies, turns, concurrency, restarts, deadlines, corruption."""

import asyncio
import itertools
import json
from datetime import timedelta

import pytest

from engine.ai import computer_moves
from engine.replay import summary
from service import AlreadyPlayed, GameCorrupted, GameService, LobbyOptions, ServiceError
from service import gamelog as games_module
from service.leagues.ratings import ranking_of
from storage import Store, open_database
from tests.helpers import SYSTEM, Clock, anyone, as_, draft_question  # noqa: F401


@pytest.fixture
async def env(db_url):
    db = await open_database(db_url)
    clock = Clock()
    yield GameService(Store(db), clock, new_seed=itertools.count(1).__next__), clock, db
    await db.close()


async def edit_the_log(db, sql, args):
    """A hand edit of the append-only log, below the service (its guard dropped first)."""
    sqlite = db.dialect == "sqlite"
    await db.execute("DROP TRIGGER moves_append_only_update" if sqlite else "DROP TRIGGER moves_append_only ON moves")
    await db.execute(sql, args)


async def two_humans(service, **options):
    opts = LobbyOptions(seed=options.pop("seed", 4), **options)
    lobby = await service.create_lobby(as_("u1"), "Ann", opts)
    await service.join(as_("u2"), lobby.id, "Bob")
    view = (await service.start(as_("u1"), lobby.id)).turn
    return lobby.id, view


def first_tile_move(view):
    (x, y), rots = sorted(view.placements.items())[0]
    return {"type": "tile", "x": x, "y": y, "rot": rots[0]}


async def play_turn(service, view, figure=True):
    draft = [first_tile_move(view)]
    after = await draft_question(service, as_(view.user_id), view.game_id, view.version, draft)
    if after.step == "figure" and after.player == view.player:
        draft.append(after.choices[0].move if figure else {"type": "pass"})
    return await service.play(as_(view.user_id), view.game_id, draft, view.version)


async def test_lobby_rules(env):
    service, _, _ = env
    lobby = await service.create_lobby(as_("u1"), "Ann", LobbyOptions(max_players=2, seed=1))
    with pytest.raises(ServiceError, match="at least 2 players"):
        await service.start(as_("u1"), lobby.id)
    with pytest.raises(ServiceError, match="already in this lobby"):
        await service.join(as_("u1"), lobby.id, "Ann")
    await service.join(as_("u2"), lobby.id, "Bob")
    with pytest.raises(ServiceError, match="full"):
        await service.join(as_("u3"), lobby.id, "Cy")
    with pytest.raises(ServiceError, match="only the player who opened"):
        await service.start(as_("u2"), lobby.id)
    with pytest.raises(ServiceError, match="only the player who opened"):
        await service.set_options(as_("u2"), lobby.id, sets=["base", "toll"])
    with pytest.raises(ServiceError, match="cannot be combined with a river"):
        await service.set_options(as_("u1"), lobby.id, sets=["base", "wheel", "river1"])
    row = await service.set_options(as_("u1"), lobby.id, sets=["base", "toll"])
    assert row.options["sets"] == ["base", "toll"]
    await service.leave(as_("u2"), lobby.id)
    assert [s.name for s in (await service.lobby(SYSTEM, lobby.id)).seats] == ["Ann"]
    with pytest.raises(ServiceError, match="no game #99"):
        await service.join(as_("u2"), 99, "Bob")
    with pytest.raises(ServiceError, match="at least a minute"):
        await service.create_lobby(as_("u1"), "Ann", LobbyOptions(turn_limit=5))


async def test_a_turn_checks_player_version_and_legality(env):
    service, _, _ = env
    gid, view = await two_humans(service)
    other = "u2" if view.user_id == "u1" else "u1"
    move = first_tile_move(view)
    with pytest.raises(ServiceError, match="turn, not yours"):
        await service.play(as_(other), gid, [move], view.version)
    with pytest.raises(ServiceError, match="not playing"):
        await service.play(as_("stranger"), gid, [move], view.version)
    with pytest.raises(ServiceError, match="does not touch"):
        await service.play(as_(view.user_id), gid, [dict(move, x=40)], view.version)
    with pytest.raises(AlreadyPlayed):
        await service.play(as_(view.user_id), gid, [move], view.version + 1)
    assert (await service.turn(SYSTEM, gid)).version == 0  # nothing changed
    result = await play_turn(service, view)
    assert result.turn.version == view.version + 2 and result.turn.user_id == other
    assert any("placed" in line for line in result.lines)


async def test_two_clicks_for_one_turn_exactly_one_wins(env):
    service, _, _ = env
    gid, view = await two_humans(service)
    move = [first_tile_move(view), {"type": "pass"}]
    results = await asyncio.gather(
        service.play(as_(view.user_id), gid, move, view.version),
        service.play(as_(view.user_id), gid, move, view.version),
        return_exceptions=True,
    )
    assert sum(1 for r in results if isinstance(r, AlreadyPlayed)) == 1
    assert sum(1 for r in results if not isinstance(r, Exception)) == 1
    assert (await service.turn(SYSTEM, gid)).version == 2


async def test_computer_players_move_by_themselves_and_the_game_ends(env):
    service, _, _ = env
    lobby = await service.create_lobby(as_("u1"), "Ann", LobbyOptions(sets=["base", "toll"], seed=9))
    await service.add_ai(as_("u1"), lobby.id)
    await service.add_ai(as_("u1"), lobby.id, "easy")
    view = (await service.start(as_("u1"), lobby.id)).turn
    assert view.user_id == "u1"
    while not view.finished:
        view = (await play_turn(service, view)).turn
        assert view.finished or view.user_id == "u1"
    row = await service.lobby(SYSTEM, lobby.id)
    assert row.status == "finished" and set(row.result["scores"]) == {"Ann", "Bot 1 (normal)", "Bot 2 (easy)"}
    record = await service.export(SYSTEM, lobby.id)
    out, code = summary(record)
    assert code == 0 and out["finished"] and out["scores"] == row.result["scores"]


async def test_games_survive_a_restart_and_ignore_foreign_snapshots(env):
    service, clock, db = env
    gid, view = await two_humans(service)
    for _ in range(12):
        view = (await play_turn(service, view)).turn
    before = await service.export(SYSTEM, gid)
    fresh = GameService(service.store, clock)  # a new process: nothing cached
    assert await fresh.export(SYSTEM, gid) == before
    await service.store.save_snapshot(gid, view.version, "0-old-engine", b'{"moves": "garbage"}')
    again = GameService(service.store, clock)
    assert await again.export(SYSTEM, gid) == before
    assert (await again.turn(SYSTEM, gid)).version == view.version


async def play_decision(service, game_id):
    """One whole decision of whoever must act, chosen by the greedy computer player."""
    row, game = await service.game(SYSTEM, game_id)
    moves = computer_moves(game.clone(), "ai:greedy:1")
    return (await service.play(as_(row.setup["users"][game.actor]), game_id, moves, row.version)).turn


async def test_a_restart_loads_from_the_state_snapshot_and_replays_only_the_rest(env, monkeypatch):
    service, clock, _path = env
    gid, view = await two_humans(service, sets=["base", "castles", "toll", "ferries"])
    while view.version < 47 or (await service.store.snapshot(gid))[0] == view.version:
        view = await play_decision(service, gid)
    seq, _, _ = await service.store.snapshot(gid)
    assert view.version - games_module.SNAPSHOT_EVERY - 1 <= seq < view.version  # the moves after it are replayed
    expected = (await service.export(SYSTEM, gid), await service.turn(SYSTEM, gid))
    replayed: list[int] = []
    from_log = games_module._from_log
    monkeypatch.setattr(games_module, "_from_log", lambda *args: replayed.append(1) or from_log(*args))
    fresh = GameService(service.store, clock)  # a new process: nothing cached
    assert (await fresh.export(SYSTEM, gid), await fresh.turn(SYSTEM, gid)) == expected
    assert replayed == []  # restored from the snapshot, not replayed from the log
    await service.store.save_snapshot(gid, seq, "1", b"{}", replace=True)  # an unusable one
    again = GameService(service.store, clock)
    assert (await again.export(SYSTEM, gid), await again.turn(SYSTEM, gid)) == expected
    assert replayed == [1]
    # The game restored from the snapshot goes on as the one replayed from the log.
    for _ in range(30):
        played = await play_decision(fresh, gid)
        replayed_now = GameService(service.store, clock)
        assert await replayed_now.turn(SYSTEM, gid) == played
        assert await replayed_now.export(SYSTEM, gid) == await fresh.export(SYSTEM, gid)


async def test_a_corrupted_game_fails_alone_with_a_clear_message(env):
    service, clock, db = env
    gid, view = await two_humans(service)
    await play_turn(service, view)
    other_gid, other_view = await two_humans(service, seed=5)
    await edit_the_log(db, "UPDATE moves SET move = '{broken' WHERE game_id = ? AND seq = 1", (gid,))
    fresh = GameService(service.store, clock)
    with pytest.raises(GameCorrupted, match=f"game #{gid} cannot be loaded: move 1 is not valid JSON"):
        await fresh.turn(SYSTEM, gid)
    assert (await fresh.turn(SYSTEM, other_gid)).version == other_view.version


async def test_hand_edited_illegal_move_is_reported(env):
    service, clock, db = env
    gid, view = await two_humans(service)
    await play_turn(service, view)
    await edit_the_log(
        db, "UPDATE moves SET move = ? WHERE game_id = ? AND seq = 1",
        (json.dumps({"type": "tile", "x": 9, "y": 9, "rot": 0}), gid),
    )  # fmt: skip
    with pytest.raises(GameCorrupted, match="move 1: .*does not touch"):
        await GameService(service.store, clock).turn(SYSTEM, gid)


async def test_reminder_then_skip_on_timeout(env):
    service, clock, _ = env
    gid, view = await two_humans(service, turn_limit=3600)
    clock.now += timedelta(minutes=30)
    assert await service.tick() == []
    clock.now += timedelta(minutes=20)  # 50 of 60 minutes
    notices = await service.tick()
    assert [(n.kind, n.user_id) for n in notices] == [("reminder", view.user_id)]
    assert await service.tick() == []  # one reminder per turn
    clock.now += timedelta(minutes=15)
    notices = await service.tick()
    assert notices[0].kind == "timeout" and "ran out of time" in notices[0].lines[0]
    after = await service.turn(SYSTEM, gid)
    assert after.user_id != view.user_id and after.version > view.version
    record = await service.export(SYSTEM, gid)
    assert record["moves"][-1]["type"] in ("pass", "tile")


async def test_the_clock_loads_only_the_games_with_something_due(env):
    service, clock, _ = env
    late, _ = await two_humans(service, turn_limit=3600, seed=1)
    clock.now += timedelta(minutes=20)
    remind, _ = await two_humans(service, turn_limit=3600, seed=2)
    reminded, _ = await two_humans(service, turn_limit=3600, seed=3)
    clock.now += timedelta(minutes=46)  # late: 66 minutes; the others: 46 of 60
    assert sorted(n.kind for n in await service.tick()) == ["reminder", "reminder", "timeout"]
    clock.now += timedelta(minutes=2)
    quiet, _ = await two_humans(service, turn_limit=1200, seed=4)
    unlimited, _ = await two_humans(service, turn_limit=0, seed=5)
    await service.release_clock()
    loaded: list[int] = []
    fresh = GameService(service.store, clock)  # after a restart
    load = fresh.log.load
    fresh.log.load = lambda game_id: loaded.append(game_id) or load(game_id)  # type: ignore[method-assign]
    clock.now += timedelta(minutes=1)
    assert await fresh.tick() == []  # all reminded already, none past its deadline
    assert loaded == []
    clock.now += timedelta(minutes=15)  # remind and reminded time out; quiet gets its reminder
    notices = await fresh.tick()
    expected = [(remind, "timeout"), (reminded, "timeout"), (quiet, "reminder")]
    assert sorted((n.game_id, n.kind) for n in notices) == expected
    assert set(loaded) == {remind, reminded, quiet}  # not late (its new turn is young), nor unlimited


async def test_a_move_in_one_game_does_not_make_the_others_be_read_again(env):
    """SQLite (one process): a game untouched since it was cached is not read at all. PostgreSQL
    (shared): every use reads the game's stored revision, one value. Either way the cached game is
    used as long as it is current: its log is not read again, its row only after a write."""
    service, _clock, db = env
    a, view_a = await two_humans(service, seed=1)
    b, view_b = await two_humans(service, seed=2)
    await service.turn(SYSTEM, a), await service.turn(SYSTEM, b)
    reads: list[int] = []  # games whose log was read
    checks: list[int] = []  # games whose row only was read, to check the cache
    load = service.store.load_game

    async def counted(game_id, *args):
        loaded = await load(game_id, *args)
        (checks if loaded.moves is None else reads).append(game_id)
        return loaded

    service.store.load_game = counted  # type: ignore[method-assign]
    asked: list[int] = []  # games whose revision was read (a shared database)
    revision = service.store.revision

    async def revision_read(game_id):
        asked.append(game_id)
        return await revision(game_id)

    service.store.revision = revision_read  # type: ignore[method-assign]
    view_b = (await play_turn(service, view_b)).turn  # writes game b only
    assert reads == []  # the play, the automatic turns and the new view: all from memory
    assert (await service.turn(SYSTEM, a)).version == view_a.version and reads == []
    await service.attach(SYSTEM, a, thread_id="t-a")  # a write to game a: its row is read again
    assert (await service.lobby(SYSTEM, a)).thread_id == "t-a"
    await service.turn(SYSTEM, a)
    assert reads == []  # never replayed
    assert checks == [a]  # only the game written to had its row read again
    if db.shared:  # every use checked the game's stored revision first, one value read
        assert a in asked and b in asked
    else:
        assert asked == []


async def test_forfeit_policy_and_catching_up_after_downtime(env):
    service, clock, _ = env
    gid, view = await two_humans(service, turn_limit=600, timeout_policy="forfeit")
    clock.now += timedelta(days=3)  # the bot was down for days
    fresh = GameService(service.store, clock)
    notices = await fresh.tick()
    assert notices[0].kind == "timeout" and "forfeits" in notices[0].lines[0]
    row = await fresh.lobby(SYSTEM, gid)
    assert row.seat_of(view.user_id).status == "forfeited"


async def test_under_the_computer_policy_a_normal_computer_plays_the_timed_out_turn(env):
    from service.clock import STAND_IN
    from service.turns import AUTO_USER

    service, clock, _ = env
    gid, view = await two_humans(service, turn_limit=600, timeout_policy="computer", sets=["base", "toll"])
    _row, game = await service.game(SYSTEM, gid)
    expected = computer_moves(game.clone(), STAND_IN)  # what a normal computer plays in Ann's place
    clock.now += timedelta(minutes=11)
    notices = await service.tick()
    assert [n.kind for n in notices] == ["timeout"]
    assert notices[0].lines[0] == f"{view.player} ran out of time: a computer (normal level) played the turn for them."
    log = await service.store.moves(gid)
    stored = [{k: v for k, v in json.loads(move).items() if k != "player"} for _seq, _user, move in log]
    assert stored == expected and {user for _seq, user, _move in log} == {AUTO_USER}
    row = await service.lobby(SYSTEM, gid)
    assert row.seat_of(view.user_id).status == "playing"  # still in the game: their next turn is theirs
    nxt = await service.turn(SYSTEM, gid)
    assert nxt.user_id != view.user_id and nxt.version == len(expected)


async def test_resigning_a_duel_ends_it_at_once_the_other_player_winning(env):
    service, _, _ = env
    gid, view = await two_humans(service)
    for _ in range(4):
        view = (await play_turn(service, view)).turn
    row = await service.lobby(SYSTEM, gid)
    names = dict(zip(row.setup["users"], row.setup["players"], strict=True))
    lines = await service.resign(as_("u1"), gid)
    assert lines == [f"{names['u1']} resigned: game #{gid} ends, and {names['u2']} wins."]
    row = await service.lobby(SYSTEM, gid)
    assert row.status == "finished" and row.seat_of("u1").status == "resigned"
    assert row.result["forfeited"] == [names["u1"]]
    ranking = ranking_of(row.result)
    assert [r["user_id"] for r in ranking] == ["u2", "u1"] and ranking[0]["rank"] == 1  # whatever the scores
    view = await service.turn(SYSTEM, gid)
    assert view.finished and view.version == row.version  # no move was played for anyone
    with pytest.raises(ServiceError, match="not running"):
        await service.resign(as_("u2"), gid)
    # Against a computer too: the computer wins.
    lobby = await service.create_lobby(as_("u3"), "Cy", LobbyOptions(seed=5))
    await service.add_ai(as_("u3"), lobby.id, "easy")
    await service.start(as_("u3"), lobby.id)
    await service.resign(as_("u3"), lobby.id)
    assert (await service.lobby(SYSTEM, lobby.id)).status == "finished"


async def test_resign_then_the_last_human_leaving_abandons_the_game(env):
    """With more than two players the game goes on: the resigned player's turns are played for them."""
    service, _, _ = env
    opts = LobbyOptions(seed=4)
    lobby = await service.create_lobby(as_("u1"), "Ann", opts)
    await service.join(as_("u2"), lobby.id, "Bob")
    await service.add_ai(as_("u1"), lobby.id, "easy")
    await service.start(as_("u1"), lobby.id)
    gid = lobby.id
    lines = await service.resign(as_("u2"), gid)
    assert "resigned" in lines[0]
    turn = await service.turn(SYSTEM, gid)
    assert turn.user_id == "u1"  # Bob's turns are played for him
    with pytest.raises(ServiceError, match="already left"):
        await service.resign(as_("u2"), gid)
    with pytest.raises(ServiceError, match="only server managers"):
        await service.kick(as_("manager"), gid, "u1")
    lines = await service.kick(as_("manager", manager=True), gid, "u1")
    assert "abandoned" in lines[-1]
    assert (await service.lobby(SYSTEM, gid)).status == "aborted"


async def test_a_thousand_concurrent_games_in_one_process(env):
    service, _, _ = env
    gids = []
    for i in range(1000):
        lobby = await service.create_lobby(as_(f"h{i}"), f"P{i}", LobbyOptions(seed=i))
        await service.join(as_(f"g{i}"), lobby.id, f"Q{i}")
        gids.append(lobby.id)
    views = [r.turn for r in await asyncio.gather(*(service.start(as_(f"h{i}"), g) for i, g in enumerate(gids)))]
    for _ in range(3):
        results = await asyncio.gather(*(play_turn(service, v, figure=False) for v in views))
        views = [r.turn for r in results]
    assert all(v.version == 6 for v in views)
    assert len(await service.games(SYSTEM, status="active")) == 1000


async def test_castles_chosen_in_the_lobby(env):
    service, _, _ = env
    lobby = await service.create_lobby(
        as_("u1"), "Ann", LobbyOptions(sets=["base", "castles"], choices={"castles": "chosen"}, seed=2)
    )
    await service.join(as_("u2"), lobby.id, "Bob")
    await service.add_ai(as_("u1"), lobby.id)
    await service.choose(as_("u1"), lobby.id, "castles", ["castles.eltz", "castles.rieneck"])
    with pytest.raises(ServiceError, match="already chosen by another player"):
        await service.choose(as_("u2"), lobby.id, "castles", ["castles.eltz", "castles.wartburg"])
    with pytest.raises(ServiceError, match="join the lobby first"):
        await service.choose(as_("u9"), lobby.id, "castles", ["castles.wartburg"])
    with pytest.raises(ServiceError, match="choose 1 to 2 different ones"):
        await service.choose(as_("u2"), lobby.id, "castles", ["castles.wartburg", "castles.wartburg"])
    await service.choose(as_("u2"), lobby.id, "castles", ["castles.wartburg"])
    with pytest.raises(ServiceError, match="waiting for Bob to choose 2 castles"):
        await service.start(as_("u1"), lobby.id)
    await service.set_options(as_("u1"), lobby.id, turn_limit=7200)  # the choices survive an option change
    await service.choose(as_("u2"), lobby.id, "castles", ["castles.wartburg", "castles.bentheim"])
    await service.start(as_("u1"), lobby.id, autoplay=False)
    _row, game = await service.game(SYSTEM, lobby.id)
    hands = game.to_json()["castles"]
    assert hands["Ann"] == ["castles.eltz", "castles.rieneck"] and hands["Bob"] == [
        "castles.wartburg",
        "castles.bentheim",
    ]
    assert sorted(hands["Bot 1 (normal)"]) == ["castles.konigstein", "castles.konradsheim"]  # what was left


async def test_castles_are_dealt_when_not_chosen(env):
    service, _, _ = env
    lobby = await service.create_lobby(as_("u1"), "Ann", LobbyOptions(sets=["base", "castles"], seed=2))
    with pytest.raises(ServiceError, match="nothing is chosen that way in this lobby"):
        await service.choose(as_("u1"), lobby.id, "castles", ["castles.eltz"])
    await service.join(as_("u2"), lobby.id, "Bob")
    await service.start(as_("u1"), lobby.id)
    _row, game = await service.game(SYSTEM, lobby.id)
    assert all(len(h) == 2 for h in game.to_json()["castles"].values())


async def test_a_rematch_seats_the_same_players_with_the_same_options_once(env):
    service, _clock, _ = env
    lobby = await service.create_lobby(as_("u1"), "Ann", LobbyOptions(sets=["base", "toll"], seed=4, turn_limit=600))
    await service.join(as_("u2"), lobby.id, "Bob")
    await service.add_ai(as_("u1"), lobby.id, "easy")
    view = (await service.start(as_("u1"), lobby.id)).turn
    with pytest.raises(ServiceError, match="is not over yet"):
        await service.rematch(as_("u2"), lobby.id)
    while not view.finished:
        view = await play_decision(service, lobby.id)
    with pytest.raises(ServiceError, match="only the players of game"):
        await service.rematch(as_("u9"), lobby.id)
    again = await service.rematch(as_("u2"), lobby.id)
    assert again.status == "lobby" and again.creator_id == "u2" and again.id != lobby.id
    assert (again.seats[0].user_id, again.seats[0].name) == ("u2", "Bob")  # who asked opens it
    assert sorted((s.user_id, s.name, s.is_ai) for s in again.seats) == [
        ("ai:easy:1", "Bot 1 (easy)", True), ("u1", "Ann", False), ("u2", "Bob", False)
    ]
    old = await service.lobby(SYSTEM, lobby.id)
    kept = ("sets", "turn_limit", "timeout_policy", "language", "hints", "time_control")
    assert {k: again.options[k] for k in kept} == {k: old.options[k] for k in kept}
    assert again.options["seed"] != old.options["seed"]  # a new game, not the same bag
    with pytest.raises(ServiceError, match="has already been opened"):
        await service.rematch(as_("u1"), lobby.id)
    started = await service.start(as_("u2"), again.id)
    assert not started.turn.finished


async def test_stats_count_a_players_finished_games_in_this_server_with_points_by_kind(env):
    service, _clock, _ = env
    finished = []
    for seed, guild in ((4, None), (5, None), (6, "g2")):  # the third is another server's
        opts = LobbyOptions(sets=["base", "toll"], seed=seed, turn_limit=0)
        lobby = await service.create_lobby(as_("u1", guild), "Ann", opts)
        await service.join(as_("u2", guild), lobby.id, "Bob")
        view = (await service.start(as_("u1", guild), lobby.id)).turn
        while not view.finished:
            row, game = await service.game(anyone(guild), lobby.id)
            moves = computer_moves(game.clone(), "ai:greedy:1")
            view = (await service.play(as_(row.setup["users"][game.actor], guild), lobby.id, moves, row.version)).turn
        finished.append(view.scores)
    here = finished[:2]
    stats = await service.stats(as_("u2"), "u1")
    assert (stats.games, stats.name, stats.recent) == (2, "Ann", 2)
    assert stats.wins == sum(1 for s in here if s["Ann"] == max(s.values()))
    assert stats.average == sum(s["Ann"] for s in here) / 2
    assert stats.best is not None and stats.best[0] == max(s["Ann"] for s in here)
    assert sum(n for _word, n in stats.categories) == sum(s["Ann"] for s in here)  # every point, by kind
    assert {word for word, _n in stats.categories} <= {"Cities", "Roads", "Cloisters", "Farms", "Tolls"}
    elsewhere = await service.stats(as_("u2", "g2"), "u1")
    assert elsewhere.games == 1 and elsewhere.average == finished[2]["Ann"]
    assert (await service.stats(as_("u1"), "u9")).games == 0


async def test_a_vacation_pauses_a_players_turn_and_it_starts_over_when_they_are_back(env):
    service, clock, _ = env
    gid, view = await two_humans(service, turn_limit=3600, timeout_policy="forfeit")
    away = await service.vacation(as_(view.user_id), view.player, 2)
    assert away == clock.now + timedelta(days=2)
    clock.now += timedelta(hours=5)  # long past the hour the turn had
    assert await service.tick() == []  # no reminder, no timeout: the turn waits
    waiting = await service.turn(SYSTEM, gid)
    assert waiting.started_at == away and waiting.deadline == away + timedelta(hours=1)
    clock.now = away + timedelta(minutes=50)  # back, and three quarters of the hour gone: a reminder
    assert [n.kind for n in await service.tick()] == ["reminder"]
    clock.now = away + timedelta(minutes=61)
    assert [n.kind for n in await service.tick()] == ["timeout"]
    with pytest.raises(ServiceError, match="vacation days left this year"):
        await service.vacation(as_(view.user_id), view.player, 29)  # 2 of 30 taken
    assert await service.vacation(as_(view.user_id), view.player, 28) is not None
    with pytest.raises(ServiceError, match="already on vacation"):
        await service.vacation(as_(view.user_id), view.player, 1)
    assert await service.vacation(as_(view.user_id), view.player, 0) is None  # back early: days given back
    assert await service.vacation(as_(view.user_id), view.player, 27) is not None


async def test_a_forged_snapshot_with_recomputed_digests_is_not_served(env, monkeypatch):
    """Someone with write access to the database edits a snapshot's scores and recomputes every
    digest it carries (they have the code): without the seal's key (SNAPSHOT_KEY, which the
    database does not hold) the snapshot loses to the log. Sealed with the key, it would be served:
    the key is what protects it."""
    import secrets

    service, clock, _path = env
    gid, view = await two_humans(service)
    while view.version < 12:
        view = (await play_turn(service, view)).turn
    row, game = await service.game(SYSTEM, gid)
    expected = await service.turn(SYSTEM, gid)
    forged = game.clone()
    forged.scores = [s + 100 for s in forged.scores]
    setup = {k: v for k, v in row.setup.items() if k != "users"}
    texts = [text for _seq, _user, text in await service.store.moves(gid)]
    digest = games_module._log_hash(texts).hexdigest()

    def forge(key: bytes) -> bytes:
        monkeypatch.setattr(games_module, "SEAL_KEY", key)
        blob = games_module._snapshot_blob(forged, setup, digest)
        monkeypatch.undo()
        return blob

    await service.store.save_snapshot(gid, view.version, games_module.ENGINE_VERSION,
                                      forge(secrets.token_bytes(32)), replace=True)  # fmt: skip
    fresh = GameService(service.store, clock)  # nothing cached: it reads the snapshot
    assert (await fresh.turn(SYSTEM, gid)).scores == expected.scores  # the log's, not the forged ones
    await service.store.save_snapshot(gid, view.version, games_module.ENGINE_VERSION,
                                      forge(games_module.SEAL_KEY), replace=True)  # fmt: skip
    served = GameService(service.store, clock)
    assert (await served.turn(SYSTEM, gid)).scores == {p: s + 100 for p, s in expected.scores.items()}


async def test_a_steady_tick_reads_only_the_games_whose_time_has_come(env):
    """After a tick has looked at every game, the next reads only the clocks of games changed
    since (a move clears its due time) or whose reminder or deadline has come (games.due_at)."""
    service, clock, _ = env
    ids = [(await two_humans(service, turn_limit=3600, seed=s))[0] for s in range(4)]
    await service.tick()
    assert await service.store.turn_clocks(clock.now) == []  # nothing due for 45 minutes
    clock.now += timedelta(minutes=10)
    view = await service.turn(SYSTEM, ids[0])
    await play_turn(service, view)  # its next turn begins 10 minutes after the others
    assert [c[0] for c in await service.store.turn_clocks(clock.now)] == [ids[0]]  # changed: looked at
    await service.tick()
    assert await service.store.turn_clocks(clock.now) == []
    clock.now += timedelta(minutes=36)  # the reminders of the three others are due
    assert sorted(c[0] for c in await service.store.turn_clocks(clock.now)) == ids[1:]
    assert sorted(n.game_id for n in await service.tick() if n.kind == "reminder") == ids[1:]
    assert len(await service.store.turn_clocks()) == 4  # all of them, without a time
