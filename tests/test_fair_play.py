"""Fair play: the bag stays hidden, every call names its caller, no game waits on a computer,
the clock survives a crashed instance, and a public bot's limits hold."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from engine import Game
from engine.ai import GreedyPlayer, RandomPlayer, computer_moves
from engine.record import BadRecord, check, drawn_prefix, load, public_record
from engine.replay import summary
from service import Caller, GameService, Limits, LobbyOptions, ServiceError
from service.clock import LEASE_TTL, TICK_EVERY
from service.validate import InvalidInput
from storage import Store, open_database
from tests.families import FAMILIES as ALL_FAMILIES
from tests.helpers import Clock, as_

FAMILIES = [*ALL_FAMILIES, ["wheel", "castles", "ferries", "toll"]]


def played(sets: list[str], seed: int, turns: int) -> Game:
    game = Game(["Ann", "Bob", "Cy"], sets, seed=seed)
    players = [GreedyPlayer(seed), RandomPlayer(seed + 1), GreedyPlayer(seed + 2)]
    while not game.finished and game.turn < turns:
        game.apply(players[game.actor].choose(game))
    return game


# ---------------------------------------------------------------------- the record a player may see
@pytest.mark.parametrize("sets", FAMILIES, ids=lambda s: "+".join(s))
@pytest.mark.parametrize("turns", [1, 5, 30])
def test_a_public_record_replays_to_the_position_and_hides_the_bag(sets, turns):
    game = played(sets, seed=11, turns=turns)
    record = json.loads(json.dumps(public_record(game)))
    assert "seed" not in record
    assert record["hidden"] == len(game.initial_bag) - len(record["pool"])
    drawn = game.bag[: game.bag_pos]
    assert sorted(record["pool"]) == sorted(drawn)  # the drawn tiles and nothing else
    assert record["hidden"] == game.bag_left
    out, status = summary(record)
    assert status == 0 and out["finished"] is False
    assert out["scores"] == game.score_table() and out["turn"] == game.turn
    assert out["supply"] == dict(zip(game.players, game.supply, strict=True))
    assert out["next"] == game.next_info()  # the tile to place now was drawn: it is shown
    replayed, _events, error = load(record)
    assert error is None and replayed.question() == game.question()


def test_a_public_record_says_nothing_of_the_bags_order():
    """Two games identical but for the order of their undrawn tiles give the same public record."""
    game = played(["base", "castles", "toll"], seed=4, turns=12)
    record = game.to_json()
    rest = record["pool"][game.bag_pos :]
    reordered = {**record, "pool": record["pool"][: game.bag_pos] + rest[::-1]}
    assert rest != rest[::-1]
    twin, _events, error = load(reordered)
    assert error is None
    assert public_record(twin) == public_record(game)


def test_a_castle_holders_undrawn_tile_is_not_shown():
    game = Game(["Ann", "Bob"], ["base", "castles"], seed=3)
    assert game.question().kind == "draw"  # Ann holds castles: the tile is not drawn yet
    record = public_record(game)
    assert record["pool"] == [] and record["hidden"] == game.bag_left
    out, status = summary(record)
    assert status == 0 and "tile" not in out["next"]


def test_a_finished_game_keeps_its_seed_and_whole_bag():
    game = played(["base"], seed=2, turns=10_000)
    assert game.finished
    assert public_record(game) == game.to_json() and "seed" in game.to_json()


def test_records_with_hidden_tiles_are_checked():
    game = played(["base"], seed=5, turns=6)
    record = public_record(game)
    with pytest.raises(BadRecord, match='no "seed"'):
        check({**record, "seed": 1})
    with pytest.raises(BadRecord, match="number of tiles"):
        check({**record, "hidden": -1})
    _game, _events, _error = load(record)
    with pytest.raises(BadRecord, match='"hidden" says'):
        load({**record, "hidden": record["hidden"] + 1})


def test_a_river_tile_put_back_is_within_the_drawn_prefix():
    # Over many seeds of both rivers, the prefix holds the tiles drawn so far, and beyond them only
    # river tiles that were drawn and put back under the river stack (seen by everyone).
    for seed in range(40):
        game = played(["base", "river1", "river2"], seed=seed, turns=8)
        prefix, drawn = Counter(drawn_prefix(game)), Counter(game.bag[: game.bag_pos])
        assert not drawn - prefix, seed
        assert all(tile.startswith("river") for tile in prefix - drawn), seed
        assert summary(public_record(game))[0]["scores"] == game.score_table()


# ---------------------------------------------------------------------- the service
@pytest.fixture
async def env(db_url):
    db = await open_database(db_url)
    clock = Clock()
    service = GameService(Store(db), clock)
    yield service, clock, db_url
    await db.close()


async def two_players(service, guild="g1", seed=None, **options):
    ann, bob = as_("u1", guild), as_("u2", guild)
    lobby = await service.create_lobby(ann, "Ann", LobbyOptions(seed=seed, **options))
    await service.join(bob, lobby.id, "Bob")
    view = (await service.start(ann, lobby.id)).turn
    return lobby.id, view


async def test_new_games_draw_seeds_of_128_bits_and_an_export_in_progress_hides_them(env):
    service, _clock, _path = env
    seeds = set()
    for _ in range(3):
        gid, view = await two_players(service)
        row = await service.lobby(as_("u1", "g1"), gid)
        seeds.add(row.setup["seed"])
        exported = await service.export(as_("u2", "g1"), gid)
        assert "seed" not in exported and exported["hidden"] == view.bag_left
        assert summary(exported)[0]["turn"] == view.turn
    assert len(seeds) == 3 and min(s.bit_length() for s in seeds) > 100  # 2**-28 to fail by chance


async def test_every_call_names_its_caller_and_reaches_only_its_server(env):
    service, _clock, _path = env
    gid, view = await two_players(service)
    player = as_(view.user_id, "g1")
    for junk in (None, "u1", {"user_id": "u1"}, 7):
        for call in (service.turn(junk, gid), service.export(junk, gid), service.lobby(junk, gid),
                     service.play(junk, gid, [{"type": "pass"}]), service.games(junk),
                     service.abort(junk, gid)):  # fmt: skip
            with pytest.raises(InvalidInput, match="who makes it"):
                await call
    elsewhere, offline = as_(view.user_id, "g2", manager=True), Caller.offline(view.user_id)
    for who in (elsewhere, offline):
        for call in (service.turn(who, gid), service.export(who, gid), service.bag(who, gid),
                     service.ask(who, gid, []), service.resign(who, gid), service.abort(who, gid),
                     service.join(who, gid, "Eve"), service.kick(who, gid, "u1")):  # fmt: skip
            with pytest.raises(ServiceError, match=f"no game #{gid}"):
                await call
        assert await service.games(who) == []
    assert [r.id for r in await service.games(player)] == [gid]
    assert (await service.turn(player, gid)).version == view.version  # nothing changed
    with pytest.raises(InvalidInput, match="direct messages"):
        Caller.member("u1", None)  # type: ignore[arg-type]


async def test_a_public_bots_limits_on_lobbies_and_names(env):
    service, _clock, _path = env
    service.limits = Limits(lobbies_per_user=2, lobbies_per_server=3)
    ann, bob = as_("u1", "g1"), as_("u2", "g1")
    first = await service.create_lobby(ann, "A" * 6000, LobbyOptions())
    assert first.seats[0].name == "A" * 32  # clipped to Discord's length
    await service.create_lobby(ann, "Ann", LobbyOptions())
    with pytest.raises(ServiceError, match="you already have 2 open lobbies"):
        await service.create_lobby(ann, "Ann", LobbyOptions())
    await service.create_lobby(bob, "Bob", LobbyOptions())
    with pytest.raises(ServiceError, match="this server already has 3 open lobbies"):
        await service.create_lobby(as_("u3", "g1"), "Cy", LobbyOptions())
    await service.create_lobby(as_("u3", "g2"), "Cy", LobbyOptions())  # another server has its own count
    # ...but a user's count is the same everywhere: Ann's two lobbies in g1 count in g2.
    with pytest.raises(ServiceError, match="you already have 2 open lobbies"):
        await service.create_lobby(as_("u1", "g2"), "Ann", LobbyOptions())
    await service.abort(ann, first.id)
    await service.create_lobby(ann, "Ann", LobbyOptions())  # an aborted lobby frees its place
    assert Limits.from_env() == Limits()  # defaults: 3 per user, 25 per server


async def test_league_lobbies_count_against_the_members_limit_and_cannot_fill_a_server(env):
    """/league play opens lobbies as /carc new does: one member of a league cannot open more than
    their share, and the server's other members can still open lobbies."""
    from service.leagues import LeagueService
    from storage.leagues import LeagueStore

    service, _clock, _path = env
    service.limits = Limits(lobbies_per_user=3, lobbies_per_server=5)
    leagues = LeagueService(service, LeagueStore(service.store))
    league = await leagues.create(as_("boss", "g1", manager=True), "Friday")
    await leagues.join(as_("u1", "g1"), league.id, "Ann")
    for _ in range(3):
        await leagues.open_lobby(as_("u1", "g1"), league.id, "Ann")
    with pytest.raises(ServiceError, match="you already have 3 open lobbies"):
        await leagues.open_lobby(as_("u1", "g1"), league.id, "Ann")
    with pytest.raises(ServiceError, match="you already have 3 open lobbies"):
        await service.create_lobby(as_("u1", "g1"), "Ann", LobbyOptions())
    await service.create_lobby(as_("u2", "g1"), "Bob", LobbyOptions())  # the server is not blocked


# ---------------------------------------------------------------------- no game waits on a computer
async def human_and_computer(service, **options):
    ann = as_("u1", "g1")
    lobby = await service.create_lobby(ann, "Ann", LobbyOptions(seed=7, **options))
    await service.add_ai(ann, lobby.id, "normal")
    view = (await service.start(ann, lobby.id)).turn
    return lobby.id, view


async def test_a_computer_to_move_is_played_by_the_next_tick(env):
    service, _clock, _path = env
    gid, view = await human_and_computer(service, turn_limit=0)
    system = Caller.system("g1")
    row, game = await service.game(system, gid)
    if not view.user_id.startswith("ai:"):  # the human moves; the process "dies" before the computer's reply
        moves = computer_moves(game.clone(), None)
        trial = game.clone()
        for move in moves:
            trial.apply(move)
        await service.log.commit(row, game, trial, [("u1", m) for m in moves])
    fresh = GameService(service.store, service.clock)  # the restart
    assert (await fresh.turn(system, gid)).user_id.startswith("ai:")
    notices = await fresh.tick()
    assert [n.kind for n in notices] == ["moved"]
    assert (await fresh.turn(system, gid)).user_id == "u1"
    assert notices[0].turn.user_id == "u1" and notices[0].lines  # what the thread is told


async def test_a_computer_seat_is_never_forfeited(env):
    service, clock, _path = env
    gid, view = await human_and_computer(service, turn_limit=60, timeout_policy="forfeit")
    system = Caller.system("g1")
    row, game = await service.game(system, gid)
    if not view.user_id.startswith("ai:"):
        moves = computer_moves(game.clone(), None)
        trial = game.clone()
        for move in moves:
            trial.apply(move)
        await service.log.commit(row, game, trial, [("u1", m) for m in moves])
    clock.now += timedelta(days=2)  # far past the computer's deadline
    fresh = GameService(service.store, clock)
    await fresh.tick()
    row = await fresh.lobby(system, gid)
    assert all(s.status == "playing" for s in row.seats)
    assert (await fresh.turn(system, gid)).user_id == "u1"


async def test_a_forfeited_human_never_blocks_the_others(env):
    service, clock, _path = env
    ann, bob = as_("u1", "g1"), as_("u2", "g1")
    lobby = await service.create_lobby(ann, "Ann", LobbyOptions(seed=9, turn_limit=60, timeout_policy="forfeit"))
    await service.join(bob, lobby.id, "Bob")
    await service.add_ai(ann, lobby.id, "easy")
    view = (await service.start(ann, lobby.id)).turn
    late = view.user_id
    clock.now += timedelta(minutes=2)
    await service.tick()
    system = Caller.system("g1")
    for _ in range(30):  # the others play on; the forfeited seat and the computer are played for them
        view = await service.turn(system, lobby.id)
        if view.finished:
            break
        assert view.user_id != late and not view.user_id.startswith("ai:")
        draft = computer_moves((await service.game(system, lobby.id))[1].clone(), None)
        await service.play(as_(view.user_id, "g1"), lobby.id, draft, view.version)


def test_the_clock_is_taken_over_within_30_seconds_of_a_crash():
    assert timedelta(seconds=30) >= LEASE_TTL + TICK_EVERY


async def test_another_instance_takes_the_clock_when_the_first_stops_ticking(env):
    service, clock, path = env
    gid, _view = await two_players(service, turn_limit=60)
    other_db = await open_database(path)
    try:
        second = GameService(Store(other_db), clock)
        await service.tick()  # the first instance holds the clock...
        clock.now += TICK_EVERY
        assert await second.tick() == []  # ... while it ticks
        clock.now += LEASE_TTL  # and then it crashed: no release, no heartbeat
        clock.now += timedelta(seconds=40)  # the turn ran out meanwhile
        assert [n.game_id for n in await second.tick()] == [gid]
    finally:
        await other_db.close()


def test_a_process_killed_between_a_move_and_the_computers_reply_leaves_no_game_waiting(tmp_path):
    """A real process commits a human's move and dies before the computer's reply; after the
    restart the next tick plays the computer."""
    db = tmp_path / "crash.db"
    script = textwrap.dedent(
        f"""
        import asyncio, os, sys
        sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r})
        from engine.ai import computer_moves
        from service import Caller, GameService, LobbyOptions
        from storage import Store, open_database

        async def main():
            db = await open_database({str(db)!r})
            service = GameService(Store(db))
            ann = Caller.member("u1", "g1")
            for seed in range(20):
                lobby = await service.create_lobby(ann, "Ann", LobbyOptions(seed=seed, turn_limit=0))
                await service.add_ai(ann, lobby.id, "normal")
                view = (await service.start(ann, lobby.id)).turn
                if view.user_id == "u1":
                    break
                await service.abort(Caller.member("u1", "g1", True), lobby.id)
            async def die(*args, **kwargs):
                print("COMMITTED", lobby.id, flush=True)
                os._exit(9)  # killed after the human's move is stored, before the computer thinks
            service.run_automatic = die
            _row, game = await service.game(ann, lobby.id)
            await service.play(ann, lobby.id, computer_moves(game.clone(), None), view.version)

        asyncio.run(main())
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 9, proc.stderr
    gid = int(proc.stdout.split()[1])

    async def restart() -> tuple[str, str]:
        database = await open_database(db)
        try:
            service = GameService(Store(database))
            system = Caller.system("g1")
            before = (await service.turn(system, gid)).user_id
            await service.tick()
            return before, (await service.turn(system, gid)).user_id
        finally:
            await database.close()

    import asyncio

    before, after = asyncio.run(restart())
    assert before.startswith("ai:") and after == "u1"
    assert os.path.exists(db)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
async def test_computer_levels_in_the_lobby(env, level):
    service, _clock, _path = env
    ann = as_("u1", "g1")
    lobby = await service.create_lobby(ann, "Ann", LobbyOptions(seed=1))
    row = await service.add_ai(ann, lobby.id, level)
    assert row.seats[-1].user_id == f"ai:{level}:1"
    with pytest.raises(InvalidInput, match="levels are"):
        await service.add_ai(ann, lobby.id, "godlike")


async def test_only_the_bot_reads_another_players_turn_dm_settings(env):
    service, _clock, _path = env
    await service.save_player(as_("u1", "g1"), "Ann", dm_turns=True, language="fr")
    assert (await service.dm_settings(Caller.system("g1"), "u1"))["dm_turns"]
    with pytest.raises(ServiceError, match="only the bot"):
        await service.dm_settings(as_("u2", "g1"), "u1")


async def test_a_computer_reply_played_by_another_process_first_does_not_fail_the_humans_move(env):
    """Two processes over one database: the human plays on one; between that move and the
    computer's reply, the other process's clock plays the reply. The human's call still succeeds
    (their move is stored) and the reply is played once, by the clock, which posts it."""
    service, clock, url = env
    ann = as_("u1", "g1")
    lobby = await service.create_lobby(ann, "Ann", LobbyOptions(seed=3, turn_limit=0))
    await service.add_ai(ann, lobby.id, "easy")
    view = (await service.start(ann, lobby.id)).turn
    while view.user_id != "u1":  # the computer may open
        view = await service.turn(ann, lobby.id)
    other_db = await open_database(url)
    try:
        other = GameService(Store(other_db), clock)
        commit, notices = service.log.commit, []

        async def the_other_process_first(row, before, after, entries, notice=None):
            if entries[0][0].startswith("ai:"):  # the reply: the other process's clock gets there first
                notices.extend(await other.tick())
            return await commit(row, before, after, entries, notice)

        service.log.commit = the_other_process_first
        _row, game = await service.game(ann, lobby.id)
        played = await service.play(ann, lobby.id, computer_moves(game.clone(), None), view.version)
        assert [n.kind for n in notices] == ["moved"] and notices[0].game_id == lobby.id
        assert played.turn.user_id == "u1" and played.turn.version == notices[0].turn.version
        seqs = [seq for seq, _user, _move in await service.store.moves(lobby.id)]
        assert seqs == list(range(1, played.turn.version + 1))
    finally:
        await other_db.close()
