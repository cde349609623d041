"""Several bot processes over one PostgreSQL database: real processes (tests/shared_worker.py)
race on the same turns and the same league operations; each is done exactly once."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from service import GameService, LobbyOptions
from service.leagues import LeagueService
from storage import Store, open_database
from storage.leagues import LeagueStore
from tests.helpers import Clock, anyone, as_

WORKER = Path(__file__).with_name("shared_worker.py")


def run_processes(count: int, *args: str) -> list[list[dict]]:
    """Start ``count`` worker processes at once; what each printed, once all have ended."""
    procs = [
        subprocess.Popen([sys.executable, str(WORKER), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)  # fmt: skip
        for _ in range(count)
    ]
    out = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=240)
        assert proc.returncode == 0, stderr[-2000:]
        out.append([json.loads(line) for line in stdout.splitlines() if line.strip()])
    return out


@pytest.fixture
def pg_url(postgres):
    return postgres.new_database()


@pytest.mark.parametrize("processes", [2, 4])
def test_processes_racing_on_the_same_turns_each_turn_is_accepted_once(pg_url, processes):
    async def setup() -> int:
        db = await open_database(pg_url)
        try:
            service = GameService(Store(db), Clock(), new_seed=itertools.count(7).__next__)
            lobby = await service.create_lobby(as_("u1", "g1"), "Ann", LobbyOptions(sets=["base", "toll"]))
            await service.join(as_("u2", "g1"), lobby.id, "Bob")
            await service.start(as_("u1", "g1"), lobby.id)
            return lobby.id
        finally:
            await db.close()

    game_id = asyncio.run(setup())
    decisions = 12
    reports = run_processes(processes, pg_url, "turns", str(game_id), str(decisions))
    accepted = Counter(r["version"] for report in reports for r in report if r["accepted"])
    refused = [r for report in reports for r in report if not r["accepted"]]
    assert accepted and max(accepted.values()) == 1  # no turn accepted twice
    assert refused, "the processes never raced"
    assert all("already" in r["why"] for r in refused), refused[:3]

    async def check() -> None:
        db = await open_database(pg_url)
        try:
            fresh = GameService(Store(db), Clock())  # a new process: nothing cached
            row, game = await fresh.game(anyone("g1"), game_id)
            seqs = [seq for seq, _user, _move in await fresh.store.moves(game_id)]
            assert seqs == list(range(1, row.version + 1))  # the log has no gap and no double
            assert len(game.moves) == row.version  # and it replays whole
            assert set(accepted) <= set(range(row.version))  # every acceptance is in the log
        finally:
            await db.close()

    asyncio.run(check())


@pytest.mark.parametrize("processes", [2, 4])
def test_processes_racing_on_a_season_start_and_kickoff_do_each_once(pg_url, processes):
    async def setup() -> int:
        db = await open_database(pg_url)
        try:
            games = GameService(Store(db), Clock())
            leagues = LeagueService(games, LeagueStore(games.store), Clock())
            boss = as_("boss", "g1", manager=True)
            league = await leagues.create(boss, "Central")
            await leagues.end_season(boss, league.id)  # the ladder season made at creation
            for i, name in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"]):
                await leagues.join(as_(f"u{i}", "g1"), league.id, name)
            return league.id
        finally:
            await db.close()

    league_id = asyncio.run(setup())
    reports = run_processes(processes, pg_url, "league", str(league_id))
    calls = Counter((r["call"], r["accepted"]) for report in reports for r in report)
    assert calls[("start_season", True)] == 1 and calls[("start_season", False)] == processes - 1
    assert calls[("kickoff", True)] == 1 and calls[("kickoff", False)] == processes - 1

    async def check() -> None:
        db = await open_database(pg_url)
        try:
            store = LeagueStore(Store(db))
            seasons = await store.seasons(league_id)
            assert [s.number for s in seasons] == [1, 2]  # the ladder, and one competition season
            fixtures = await store.fixtures(league_id, 2)
            assert len(fixtures) == 3  # five players, one Swiss round: two matches and a bye
            assert sorted(len(f.games) for f in fixtures) == [0, 1, 1]  # each match's game opened once
            assert len(await store.game_ids(league_id)) == 2
        finally:
            await db.close()

    asyncio.run(check())
