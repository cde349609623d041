"""The host's kit: invite, migrate, backup taken mid-play and restored, restore refused under a
running bot, health, JSON logs, and the service definitions checked by their own tools."""

from __future__ import annotations

import base64
import json
import logging
import os
import shutil
import socket
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
    assert await host.migrate(str(path)) == 2
    assert "newer version of the bot" in capsys.readouterr().err
    with pytest.raises(SchemaTooNew):
        await open_database(path)  # the bot refuses it at start-up too


async def test_health_checks_the_database_the_schema_and_the_clock(tmp_path):
    path = tmp_path / "h.db"
    assert (await host.health(str(path)))[0] == 1
    await play_some(path, games=1, turns=1)
    status, lines = await host.health(str(path))
    assert status == 0 and lines[0].startswith("database: ok (1 active game)")
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


def _unit(name: str) -> dict[str, list[str]]:
    """A unit file's settings, each name with its values in order."""
    settings: dict[str, list[str]] = {}
    for line in (ROOT / "deploy" / name).read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def test_the_systemd_units_start_after_postgresql_and_run_one_process_or_shards():
    from bot import main

    one, shards = _unit("carcassonne.service"), _unit("carcassonne@.service")
    for unit in (one, shards):
        assert "postgresql.service" in unit["After"][0].split()
        assert unit["ExecStartPre"] == ["/opt/carcassonne/.venv/bin/python bot.py migrate"]
        assert unit["RestartPreventExitStatus"] == ["2"]  # a host's error is not retried every 10 s
    assert one["ExecStart"] == ["/opt/carcassonne/.venv/bin/python bot.py"]
    assert shards["ExecStart"] == ["/opt/carcassonne/.venv/bin/python bot.py --shards %i --shard-count ${SHARD_COUNT}"]
    with pytest.raises(SystemExit) as help_shown:  # the options the template passes exist
        main(["--shards", "0-1", "--shard-count", "4", "--help"])
    assert help_shown.value.code == 0


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
@pytest.mark.parametrize("unit, instance", [("carcassonne.service", "carcassonne.service"),
                                            ("carcassonne@.service", "carcassonne@0-1.service")])  # fmt: skip
def test_the_systemd_units_verify(tmp_path, unit, instance):
    text = (ROOT / "deploy" / unit).read_text()
    text = text.replace("/opt/carcassonne/.venv/bin/python", sys.executable).replace("/opt/carcassonne", str(tmp_path))
    text = text.replace("User=carcassonne", "User=root")
    (tmp_path / ".env").write_text("SHARD_COUNT=2\n")
    (tmp_path / unit).write_text(text)
    proc = subprocess.run(["systemd-analyze", "verify", str(tmp_path / instance)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert unit not in proc.stderr, proc.stderr  # systemd ignores a bad line with a warning only


def _compose_available() -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _compose_available(), reason="the docker compose plugin is not installed")
def test_the_compose_file_is_valid(tmp_path):
    env = {**os.environ, "DISCORD_TOKEN": "x", "POSTGRES_PASSWORD": "x"}
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")  # what a host starts from
    for profile in ("sqlite", "postgres"):
        proc = subprocess.run(["docker", "compose", "-f", str(ROOT / "compose.yaml"), "--project-directory",
                               str(tmp_path), "--profile", profile, "config", "--quiet"], capture_output=True,
                              text=True, env=env)  # fmt: skip
        assert proc.returncode == 0, proc.stderr
    unset = {k: v for k, v in env.items() if k != "POSTGRES_PASSWORD"}
    proc = subprocess.run(["docker", "compose", "-f", str(ROOT / "compose.yaml"), "--project-directory",
                           str(tmp_path), "--profile", "postgres", "config", "--quiet"], capture_output=True,
                          text=True, env=unset)  # fmt: skip
    assert proc.returncode != 0 and "POSTGRES_PASSWORD" in proc.stderr  # no silent default password


def test_the_compose_services_share_the_image_data_volume_and_publish_metrics():
    yaml = pytest.importorskip("yaml")
    from bot import main

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert "change-me" not in (ROOT / "compose.yaml").read_text()  # no silent default password
    assert services["db"]["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    bots = {name: service for name, service in services.items() if service.get("image") == "carcassonne"}
    assert sorted(bots) == ["bot", "shard-0", "shard-1"]
    for name, service in bots.items():
        settings = service["environment"]
        assert service["build"] == "." and service["volumes"] == ["bot-data:/data"]
        assert settings["METRICS_HOST"] == "0.0.0.0" and settings["STATE_DIR"] == "/data"
        command = service.get("command", ["python", "bot.py"])
        shard = int(command[command.index("--shards") + 1]) if "--shards" in command else 0
        assert service["ports"] == [f"127.0.0.1:{9100 + shard}:{9100 + shard}"]  # METRICS_PORT + first shard
        if name == "bot":
            assert settings["DATABASE_URL"] == "sqlite:////data/carcassonne.db"
        else:
            assert settings["DATABASE_URL"].startswith("postgresql://carcassonne:${POSTGRES_PASSWORD:?")
            assert command[-2:] == ["--shard-count", "${SHARD_COUNT:-2}"]
            assert service["depends_on"]["db"]["condition"] == "service_healthy"
            with pytest.raises(SystemExit) as shown:  # bot.py takes the command as written (the count set)
                main([*[part.replace("${SHARD_COUNT:-2}", "2") for part in command[2:]], "--help"])
            assert shown.value.code == 0


def test_the_image_keeps_its_database_in_the_volume_and_can_back_up_postgresql():
    import re

    text = (ROOT / "Dockerfile").read_text()
    assert "pip install --no-cache-dir -r requirements.txt" in text
    assert "USER carcassonne" in text and "HEALTHCHECK" in text and '"bot.py", "health", "--here"' in text
    assert "DATABASE_URL=sqlite:////data/carcassonne.db" in text and 'VOLUME ["/data"]' in text
    assert "chown carcassonne /data" in text and "DATABASE_PATH" not in text
    assert "postgresql-client" in text and "METRICS_HOST=0.0.0.0" in text and "EXPOSE 9100" in text
    from bot import main

    for entry in re.findall(r'(?:^CMD|CMD) (\[.*\])$', text, re.M):  # the image's entry points, as bot.py reads them
        command = json.loads(entry)
        assert command[:2] == ["python", "bot.py"]
        with pytest.raises(SystemExit) as shown:
            main([*command[2:], "--help"])
        assert shown.value.code == 0, command
    assert len(re.findall(r"CMD \[", text)) == 2  # the health check's and the bot's
    ignored = (ROOT / ".dockerignore").read_text().split()
    for kept_out in ("backups", ".hypothesis", "tests", "benchmarks", "docs", "data", ".env", "*.db"):
        assert kept_out in ignored, kept_out
    assert {"backups/", ".hypothesis/", "*.db"} <= set((ROOT / ".gitignore").read_text().split())


def test_the_env_example_lists_every_setting_with_a_comment():
    import re

    example = (ROOT / ".env.example").read_text().splitlines()
    listed = {}
    for number, line in enumerate(example):
        found = re.match(r"#? ?([A-Z][A-Z_]+)=", line)
        if found:
            listed[found[1]] = number
    read = set()
    for path in [ROOT / "bot.py", *ROOT.glob("[a-z]*/**/*.py")]:
        if path.parts[len(ROOT.parts)] not in ("tests", "benchmarks"):
            read |= set(re.findall(r"""environ\.get\(\s*["']([A-Z_]+)["']""", path.read_text()))
            read |= set(re.findall(r"""setting_number\(\s*["']([A-Z_]+)["']""", path.read_text()))
    read -= {"DATABASE_PATH"}  # the older name, still read, no longer offered
    readme = set(re.findall(r"`([A-Z][A-Z_]{3,})[=`]", (ROOT / "README.md").read_text()))
    assert read and read <= set(listed), read - set(listed)
    assert readme - {"REQUIRE_POSTGRES", "TEST_DATABASE_URL", "OFF_TILE"} <= set(listed), readme - set(listed)
    for name, number in listed.items():  # each setting (or its group) says what it is, just above it
        above = number - 1
        while above >= 0 and re.match(r"# ?[A-Z][A-Z_]+=", example[above]):
            above -= 1  # a setting of the same group
        assert above >= 0 and example[above].startswith("# "), name


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
    assert said[0].startswith("copied: ") and "4 games (1 new)" in said[0], said  # what this run added
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
        here = socket.gethostname()[:40]
        await Store(db).report_instance(f"{here}-a", now, {"workers": 2, "workers_alive": 2, "worker_restarts": 2})
        await Store(db).report_instance("shard-b", now, {"workers": 2, "workers_alive": 1, "worker_restarts": 1})
        await Store(db).report_instance("gone", now - timedelta(hours=2), {"workers": 2, "workers_alive": 0})
    finally:
        await db.close()
    status, lines = await host.health(str(path))
    assert f"process {here}-a: ticking, workers 2/2 alive, the pool restarted 2 times" in lines
    assert "process shard-b: ticking, workers 1/2 alive, the pool restarted once" in lines
    assert not any("gone" in line for line in lines)  # stopped long ago: not a live process
    assert status == 1  # shard-b lost a worker
    # A container's check judges its own process: another machine's lost worker is not its failure.
    status, lines = await host.health(str(path), here=True)
    assert status == 0 and not any("shard-b" in line for line in lines), lines


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


# ---------------------------------------------------------------------- one-line failures, as a host meets them
TOKEN = base64.b64encode(b"123456789012345678").decode().rstrip("=") + ".GhIjKl.abcdefghijklmnopqrstuvwxyz0123456"
HOLD_LOCK = """
import sys
from storage.database import hold_sqlite_lock
lock = hold_sqlite_lock(sys.argv[1])
print("held", flush=True)
sys.stdin.read()  # held until the test closes our stdin
"""


def bot_py(*args: str, cwd: Path = ROOT, **settings: str) -> subprocess.CompletedProcess:
    """``python bot.py ARGS`` as a host runs it, with only ``settings`` of the bot's own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_", "METRICS_", "LOG_"))}
    env.update(settings, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(ROOT))
    command = [sys.executable, str(ROOT / "bot.py"), *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)


def one_line(run: subprocess.CompletedProcess, *words: str) -> str:
    """The run failed with exit 2 and said one line holding ``words``; returns it."""
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    for word in words:
        assert word in run.stderr, run.stderr
    assert "secret" not in run.stdout + run.stderr  # the password, masked everywhere
    return run.stderr


@pytest.mark.parametrize("url", ["mysql://x:secret@y/z", "postgressql://u:secret@h/d"])
def test_an_unknown_database_scheme_is_refused_by_every_entry_point_not_made_a_file(tmp_path, url):
    for args in [(), ("migrate",), ("health",), ("backup", str(tmp_path / "b.db")), ("league-rebuild",),
                 ("demo", "--db", url, "--out", str(tmp_path / "out"))]:  # fmt: skip
        one_line(bot_py(*args, cwd=tmp_path, DATABASE_URL=url, DISCORD_TOKEN=TOKEN), "unknown scheme")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no file named after the URL
    assert not list((tmp_path / "out").iterdir())


def test_a_refused_postgresql_connection_is_one_line_before_discord(tmp_path):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    url = f"postgresql://carc:secret@127.0.0.1:{port}/carcassonne"
    for args in [(), ("migrate",)]:
        line = one_line(bot_py(*args, cwd=tmp_path, DATABASE_URL=url, DISCORD_TOKEN=TOKEN), "cannot reach PostgreSQL")
        assert f"127.0.0.1:{port} (connection refused)" in line
    health = bot_py("health", cwd=tmp_path, DATABASE_URL=url)
    assert health.returncode == 1 and health.stdout.count("\n") == 1 and "secret" not in health.stdout


def test_a_missing_postgresql_role_or_database_is_one_line(tmp_path, postgres):
    base = postgres.new_database().rsplit("/", 1)[0]
    missing_db = base + "/nowhere"
    line = one_line(bot_py("migrate", cwd=tmp_path, DATABASE_URL=missing_db), "no database 'nowhere'", "createdb")
    assert line.startswith("PostgreSQL")
    nobody = base.replace("//postgres@", "//ghost:secret@") + "/postgres"
    one_line(bot_py("migrate", cwd=tmp_path, DATABASE_URL=nobody), "'ghost'")
    one_line(bot_py(cwd=tmp_path, DATABASE_URL=nobody, DISCORD_TOKEN=TOKEN), "'ghost'")


async def test_an_empty_postgresql_database_is_healthy_no_and_migrate_creates_it(tmp_path, postgres):
    url = postgres.new_database()
    status, lines = await host.health(url)
    assert status == 1 and lines == [f"database: empty, no schema yet at {url} (python bot.py migrate creates it)"]
    assert await host.migrate(url) == 0
    assert (await host.health(url))[1][1] == f"schema: current ({LATEST})"


async def test_migrate_on_a_fresh_sqlite_host_creates_the_schema(tmp_path, capsys):
    path = tmp_path / "data" / "fresh.db"
    assert await host.migrate(str(path)) == 0
    assert f"schema 0 -> {LATEST}" in capsys.readouterr().out
    status, lines = await host.health(str(path))
    assert lines[:2] == ["database: ok (0 active games)", f"schema: current ({LATEST})"]


READ_ONLY = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"'


def _can_mount_read_only(folder: Path) -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = ["unshare", "-m", "sh", "-c", READ_ONLY, str(folder), "true"]
    return subprocess.run(probe, capture_output=True).returncode == 0


def test_a_read_only_data_folder_is_one_line_for_every_command(tmp_path):
    if not _can_mount_read_only(tmp_path):
        pytest.skip("no private read-only mount here (unshare -m needs CAP_SYS_ADMIN)")
    db = tmp_path / "data" / "carcassonne.db"
    url = f"sqlite:///{db}"

    def read_only(*args: str) -> subprocess.CompletedProcess:
        """``bot.py ARGS`` with ``tmp_path`` mounted read-only for it alone."""
        wrap = ["unshare", "-m", "sh", "-c", READ_ONLY, str(tmp_path), sys.executable, str(ROOT / "bot.py")]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_", "LOG_"))}
        env.update(DATABASE_URL=url, DISCORD_TOKEN=TOKEN, PYTHONDONTWRITEBYTECODE="1")
        return subprocess.run([*wrap, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)  # fmt: skip

    demo = ("demo", "--out", str(tmp_path / "out"), "--no-pictures")
    for args in [(), ("migrate",), demo, ("play", "--db", str(db))]:
        one_line(read_only(*args), "writable")
    one_line(read_only("backup", str(tmp_path / "b.db")), "no database at")
    assert list(tmp_path.iterdir()) == []
    asyncio_run_play(db)  # now there is a database: its backup into the read-only folder fails in one line
    one_line(read_only("backup", str(tmp_path / "b.db")), "writable")
    one_line(read_only(), "writable")  # the bot cannot write its database: it stops before Discord


def asyncio_run_play(db: Path) -> None:
    import asyncio

    asyncio.run(play_some(db, games=1, turns=1))


def test_a_malformed_token_newer_schema_and_bad_settings_are_one_line_before_discord(tmp_path):
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    one_line(bot_py(DATABASE_URL=url, DISCORD_TOKEN="not-a-token"), "does not look like a bot token")
    one_line(bot_py(DATABASE_URL=url, DISCORD_TOKEN=TOKEN, METRICS_PORT="nine"), "METRICS_PORT='nine'")
    one_line(bot_py(DATABASE_URL=url, DISCORD_TOKEN=TOKEN, WORKER_PROCESSES="many"), "WORKER_PROCESSES")
    one_line(bot_py(DATABASE_URL=url, DISCORD_TOKEN=TOKEN, SYNC_COMMANDS="sometimes"), "SYNC_COMMANDS")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        one_line(bot_py(DATABASE_URL=url, DISCORD_TOKEN=TOKEN, METRICS_PORT=str(port)), f"127.0.0.1:{port}")
    conn = sqlite3.connect(tmp_path / "bot.db")
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    one_line(bot_py(DATABASE_URL=url, DISCORD_TOKEN=TOKEN), "refused:", "newer version of the bot")
    one_line(bot_py("migrate", DATABASE_URL=url), "refused:", "newer version of the bot")
    status = bot_py("health", DATABASE_URL=url)
    assert status.returncode == 1 and "newer than this code's" in status.stdout and "migrate)" not in status.stdout


def test_with_json_logs_the_fatal_error_is_json_too(tmp_path):
    run = bot_py(DATABASE_URL="mysql://x:secret@y/z", DISCORD_TOKEN=TOKEN, LOG_FORMAT="json")
    one_line(run)
    said = json.loads(run.stderr)
    assert said["level"] == "CRITICAL" and "unknown scheme 'mysql'" in said["message"]


def test_one_process_per_sqlite_file_two_real_processes(tmp_path):
    db = tmp_path / "bot.db"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(db)], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        second = bot_py(DATABASE_URL=f"sqlite:///{db}", DISCORD_TOKEN=TOKEN)
        one_line(second, f"another bot process is running on {db}", "PostgreSQL")
        backup = tmp_path / "b.db"
        asyncio_run_play(tmp_path / "other.db")
        assert host.backup(str(tmp_path / "other.db"), str(backup)) == 0
        one_line(bot_py("restore", str(backup), "--force", DATABASE_URL=str(db)), "a bot process is running")
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait()
    assert host.restore(str(backup), str(db)) == 0  # the first process ended: its lock went with it
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("b.db")) == ["b.db"]  # no -wal, -shm


def test_commands_sync_when_the_tree_changed_not_at_every_start(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIR", str(tmp_path))
    monkeypatch.delenv("SYNC_COMMANDS", raising=False)
    first = host.CommandSync(str(tmp_path / "bot.db"))
    assert first.wanted and len(first.digest) == 64  # never synced from here: sync
    first.done()
    assert (tmp_path / "commands.sha256").read_text().strip() == first.digest
    assert not host.CommandSync(str(tmp_path / "bot.db")).wanted  # the same tree: no sync
    assert host.CommandSync(str(tmp_path / "bot.db"), forced=True).wanted  # --sync
    (tmp_path / "commands.sha256").write_text("an older tree\n")
    assert host.CommandSync(str(tmp_path / "bot.db")).wanted  # an upgrade changed the commands
    first.done()
    (tmp_path / "commands.sha256").write_text("an older tree\n")
    assert not host.CommandSync(str(tmp_path / "bot.db"), leader=False).wanted  # shard 0's process syncs
    first.done()
    monkeypatch.setenv("SYNC_COMMANDS", "always")
    assert host.CommandSync(str(tmp_path / "bot.db")).wanted
    monkeypatch.setenv("SYNC_COMMANDS", "never")
    (tmp_path / "commands.sha256").unlink()
    assert not host.CommandSync(str(tmp_path / "bot.db")).wanted
    monkeypatch.setenv("SYNC_COMMANDS", "sometimes")
    with pytest.raises(host.HostError, match="SYNC_COMMANDS"):
        host.CommandSync(str(tmp_path / "bot.db"))


def test_the_logs_leave_out_discords_voice_warnings_the_bot_has_no_voice():
    host.setup_logging()
    handler = logging.getLogger().handlers[0]
    for library in ("PyNaCl", "davey"):
        said = logging.LogRecord("discord.client", logging.WARNING, __file__, 1, f"{library} is not installed, "
                                 "voice will NOT be supported", (), None)  # fmt: skip
        assert not handler.filter(said)
    kept = logging.LogRecord("discord.gateway", logging.WARNING, __file__, 1, "Shard ID 0 heartbeat blocked", (), None)
    assert handler.filter(kept)
