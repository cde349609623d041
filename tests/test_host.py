"""The host's kit: invite, migrate, backup taken mid-play and restored, restore refused under a
running bot, health, JSON logs, and the service definitions checked by their own tools."""

from __future__ import annotations

import base64
import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from console import host
from engine.ai import computer_moves
from service import GameService, LobbyOptions
from storage import Store, open_database
from storage.database import LATEST, SchemaTooNew
from tests.helpers import as_

ROOT = Path(__file__).resolve().parent.parent


def test_the_invite_carries_the_exact_permissions(capsys):
    token = base64.b64encode(b"123456789012345678").decode().rstrip("=") + ".abc.def"
    status, text = host.invite(token, None)
    assert status == 0
    assert "client_id=123456789012345678" in text and "scope=bot+applications.commands" in text
    assert "permissions=309237762048" in text  # send, threads, send in threads, files, embeds, history
    assert host.invite(None, "42")[1].startswith("https://discord.com/oauth2/authorize?client_id=42")
    status, text = host.invite("not a token", None)
    assert status == 2 and "APPLICATION_ID" in text


async def play_some(db_path: Path, games: int = 3, turns: int = 6) -> dict[int, int]:
    """Games played part way through the service; returns each game's acknowledged version."""
    db = await open_database(db_path)
    try:
        service = GameService(Store(db))
        versions = {}
        for seed in range(games):
            lobby = await service.create_lobby(as_("u1", "g"), "Ann", LobbyOptions(seed=seed, turn_limit=0))
            await service.join(as_("u2", "g"), lobby.id, "Bob")
            view = (await service.start(as_("u1", "g"), lobby.id)).turn
            for _ in range(turns):
                _row, game = await service.game(as_(view.user_id, "g"), lobby.id)
                moves = computer_moves(game.clone(), None)
                view = (await service.play(as_(view.user_id, "g"), lobby.id, moves, view.version)).turn
            versions[lobby.id] = view.version
        await service.tick()  # the clock beats: a bot is running on this database
        return versions
    finally:
        await db.close()


async def test_a_backup_taken_while_the_bot_runs_restores_every_acknowledged_move(tmp_path, capsys):
    live = tmp_path / "live.db"
    versions = await play_some(live)
    open_conn = await open_database(live)  # the bot is still connected, in WAL mode
    try:
        assert host.backup(str(live), str(tmp_path / "copy.db")) == 0
        assert host.backup(str(live), str(tmp_path / "copy.db")) == 2  # never over an existing file
    finally:
        await open_conn.close()
    # Disaster: the live database is lost; the backup goes back in its place.
    live.unlink()
    for suffix in ("-wal", "-shm"):
        Path(f"{live}{suffix}").unlink(missing_ok=True)
    assert host.restore(str(tmp_path / "copy.db"), str(live)) == 0
    db = await open_database(live)
    try:
        service = GameService(Store(db))
        for game_id, version in versions.items():
            assert (await service.turn(as_("u1", "g"), game_id)).version == version
            assert len(await service.store.moves(game_id)) == version
    finally:
        await db.close()


async def test_a_restore_is_refused_while_a_bot_runs_on_the_database(tmp_path, capsys):
    live = tmp_path / "live.db"
    await play_some(live, games=1, turns=1)
    assert host.backup(str(live), str(tmp_path / "b.db")) == 0
    assert host.restore(str(tmp_path / "b.db"), str(live)) == 1
    assert "a bot is running" in capsys.readouterr().err
    later = datetime.now(UTC) + timedelta(minutes=5)  # the bot stopped: its clock went quiet
    assert host.restore(str(tmp_path / "b.db"), str(live), now=later) == 0
    assert host.restore(str(tmp_path / "b.db"), str(live), force=True) == 0
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    assert host.restore(str(tmp_path / "junk.db"), str(live), force=True) == 2


async def test_migrate_says_what_it_did_and_refuses_a_newer_database(tmp_path, capsys):
    path = tmp_path / "m.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 0")
    conn.close()
    assert await host.migrate(str(path)) == 0
    assert f"schema 0 -> {LATEST}" in capsys.readouterr().out
    assert await host.migrate(str(path)) == 0
    assert "already current" in capsys.readouterr().out
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    assert await host.migrate(str(path)) == 1
    assert "newer version of the bot" in capsys.readouterr().err
    with pytest.raises(SchemaTooNew):
        await open_database(path)  # the bot refuses it at start-up too


async def test_health_checks_the_database_the_schema_and_the_clock(tmp_path):
    path = tmp_path / "h.db"
    assert (await host.health(str(path)))[0] == 1
    await play_some(path, games=1, turns=1)
    status, lines = await host.health(str(path))
    assert status == 0 and lines[0].startswith("database: ok (1 active games)")
    status, lines = await host.health(str(path), now=datetime.now(UTC) + timedelta(minutes=3))
    assert status == 1 and "clock: not ticking" in lines[-1]


def test_json_logs_are_one_object_per_line_with_the_game():
    formatter = host.JsonLines()
    record = logging.LogRecord(
        "service.clock", logging.WARNING, __file__, 1, "deadline clock: game #%s skipped", (12,), None
    )
    line = formatter.format(record)
    assert "\n" not in line
    data = json.loads(line)
    assert data["game"] == 12 and data["level"] == "WARNING" and data["logger"] == "service.clock"
    tagged = logging.LogRecord("x", logging.INFO, __file__, 1, "posted", (), None)
    tagged.game = 7
    assert json.loads(formatter.format(tagged))["game"] == 7


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_systemd_unit_verifies(tmp_path):
    unit = (ROOT / "deploy" / "carcassonne.service").read_text()
    unit = unit.replace("/opt/carcassonne/.venv/bin/python", sys.executable).replace("/opt/carcassonne", str(tmp_path))
    unit = unit.replace("User=carcassonne", "User=root")
    (tmp_path / ".env").write_text("")
    path = tmp_path / "carcassonne.service"
    path.write_text(unit)
    proc = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _compose_available() -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _compose_available(), reason="the docker compose plugin is not installed")
def test_the_compose_file_is_valid(tmp_path):
    env = {**os.environ, "DISCORD_TOKEN": "x"}
    if not (ROOT / ".env").exists():
        pytest.skip("compose reads .env, which this checkout does not have")
    proc = subprocess.run(["docker", "compose", "--profile", "sqlite", "config"], cwd=ROOT, capture_output=True,
                          text=True, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def test_the_dockerfile_runs_the_pinned_requirements_as_a_user_with_a_health_check():
    text = (ROOT / "Dockerfile").read_text()
    assert "pip install --no-cache-dir -r requirements.txt" in text
    assert "USER carcassonne" in text and "HEALTHCHECK" in text and '"bot.py", "health"' in text


async def test_migrate_db_copies_sqlite_into_postgresql_verifies_it_and_is_safe_twice(tmp_path, postgres):
    from service.leagues import LeagueService
    from storage.leagues import LeagueStore

    live = tmp_path / "live.db"
    versions = await play_some(live, games=3, turns=8)
    db = await open_database(live)  # a league, and a player who resigned
    try:
        games = GameService(Store(db))
        leagues = LeagueService(games, LeagueStore(games.store))
        league = await leagues.create(as_("boss", "g", manager=True), "Friday")
        await leagues.join(as_("u1", "g"), league.id, "Ann")
        await games.resign(as_("u1", "g"), 1)  # a seat's status changes
    finally:
        await db.close()
    target = postgres.new_database()
    said: list[str] = []
    assert await host.migrate_db(str(live), target, said.append) == 0, said
    assert "verified: 3 games replay the same on both sides" in said[-1]
    # The bot moved on before the switch: a second run catches up, and changes nothing else.
    await play_some(live, games=1, turns=4)
    said.clear()
    assert await host.migrate_db(str(live), target, said.append) == 0, said
    assert "verified: 4 games" in said[-1]
    source, moved = await open_database(live), await open_database(target)
    try:
        service, before = GameService(Store(moved)), Store(source)
        for game_id in [*versions, 4]:
            assert await service.store.moves(game_id) == await before.moves(game_id)
            assert len(await before.moves(game_id)) >= versions.get(game_id, 4)
        resigned = await service.lobby(as_("u1", "g"), 1)
        assert resigned.seat_of("u1").status == "resigned" and resigned == await before.get_game(1)
        new = await service.create_lobby(as_("u3", "g"), "Cy", LobbyOptions())
        assert new.id == 5  # the counters moved past the copied ids
        assert [lg.name for lg in await LeagueStore(service.store).leagues("g")] == ["Friday"]
    finally:
        await moved.close()
        await source.close()
    assert await host.migrate_db(str(tmp_path / "none.db"), target, said.append) == 2
    status, lines = await host.health(target)  # the copied heartbeat is old: no bot runs on it yet
    # game 1 was a duel its resignation ended (the other player won): 3 of the 4 still run
    assert lines[:2] == ["database: ok (3 active games)", f"schema: current ({LATEST})"]
    assert status == 1 and "clock: not ticking" in lines[2]


def test_the_shard_options(tmp_path):
    from bot import main, shard_ids

    assert shard_ids("0-1") == [0, 1] and shard_ids("0,2-3") == [0, 2, 3]
    env = {**os.environ, "DATABASE_URL": str(tmp_path / "one.db"), "DISCORD_TOKEN": ""}
    run = [sys.executable, "bot.py"]
    root = Path(__file__).resolve().parent.parent
    half = subprocess.run([*run, "--shards", "0-1", "--shard-count", "4"], cwd=root, env=env, capture_output=True,
                          text=True)  # fmt: skip
    assert half.returncode == 2 and "several bot processes need a shared database" in half.stderr
    wrong = subprocess.run([*run, "--shards", "4", "--shard-count", "4"], cwd=root, env=env, capture_output=True,
                           text=True)  # fmt: skip
    assert wrong.returncode == 2 and "shard 4 does not exist" in wrong.stderr
    with pytest.raises(SystemExit):
        main(["--shards", "x"])


async def test_health_names_each_process_and_fails_when_one_lost_a_worker(tmp_path):
    path = tmp_path / "h.db"
    await play_some(path, games=1, turns=1)  # a process ticked (no worker pool)
    db = await open_database(path)
    try:
        now = datetime.now(UTC)
        await Store(db).report_instance("shard-a", now, {"workers": 2, "workers_alive": 2})
        await Store(db).report_instance("shard-b", now, {"workers": 2, "workers_alive": 1, "worker_restarts": 1})
        await Store(db).report_instance("gone", now - timedelta(hours=2), {"workers": 2, "workers_alive": 0})
    finally:
        await db.close()
    status, lines = await host.health(str(path))
    assert "process shard-a: ticking, workers 2/2 alive" in lines
    assert "process shard-b: ticking, workers 1/2 alive, the pool restarted 1 times" in lines
    assert not any("gone" in line for line in lines)  # stopped long ago: not a live process
    assert status == 1  # shard-b lost a worker


async def test_a_dead_worker_process_is_replaced_and_the_job_runs(tmp_path):
    import asyncio
    import os
    import signal

    from service.workers import Workers, _alive

    workers = Workers(1)
    try:
        await workers.warm()
        first = await workers.run(_alive)
        assert workers.alive() == 1
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.5)
        second = await workers.run(_alive)  # the broken pool starts anew; the job still runs
        assert second != first and workers.restarts == 1
    finally:
        workers.close()


async def test_a_postgresql_backup_restores_every_acknowledged_move(postgres, tmp_path, capsys):
    import asyncio

    live = postgres.new_database()
    versions = await play_some(live, games=2, turns=5)  # play_some's tick: a bot's clock just beat
    dump = tmp_path / "carc.dump"
    assert await asyncio.to_thread(host.backup, live, str(dump)) == 0 and dump.stat().st_size > 0
    assert await asyncio.to_thread(host.backup, live, str(dump)) == 2  # never over an existing file
    assert await asyncio.to_thread(host.restore, str(dump), live) == 1  # a bot runs on it
    assert "a bot is running" in capsys.readouterr().err
    fresh = postgres.new_database()  # the server was lost: a new database, the backup back in
    assert await asyncio.to_thread(host.restore, str(dump), fresh) == 0
    db = await open_database(fresh)
    try:
        service = GameService(Store(db))
        for game_id, version in versions.items():
            assert (await service.turn(as_("u1", "g"), game_id)).version == version
            assert len(await service.store.moves(game_id)) == version
        new = await service.create_lobby(as_("u3", "g"), "Cy", LobbyOptions())
        assert new.id == max(versions) + 1  # the identity counters came back too
    finally:
        await db.close()


async def test_migrate_db_copies_every_column_of_every_kept_table(tmp_path):
    """A new column or table is copied too (vacations and time banks were once left behind):
    the copy's list is the schema, less the tables of one process's own running state."""
    from storage.copy import TABLES

    db = await open_database(tmp_path / "schema.db")
    try:
        names = [r[0] for r in await db.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")]
        schema = {
            name: {r[1] for r in await db.fetch(f"PRAGMA table_info({name})")}
            for name in names
            if not name.startswith("sqlite_")
        }
    finally:
        await db.close()
    running_state = {"schema_version", "clock_lease", "claims", "instances"}  # leases, claims, heartbeats: not data
    assert {t.name for t in TABLES} == set(schema) - running_state
    claimed = {"games": {"clock_holder", "clock_until"}}  # which process handles a due game: not data
    for table in TABLES:
        assert set(table.columns) == schema[table.name] - claimed.get(table.name, set()), table.name
