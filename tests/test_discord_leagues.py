"""The /league commands, offline, through fakes of discord.py's objects."""

import itertools
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from cogs.leagues import Leagues
from service import GameService
from service.leagues import LeagueService
from storage import Store, open_database
from storage.leagues import LeagueStore
from tests.discord_fakes import FakeChannel, FakeClient, FakeInteraction, FakeUser
from tests.test_leagues import play_out

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
async def world(tmp_path):
    db = await open_database(tmp_path / "bot.db")
    games = GameService(Store(db), new_seed=itertools.count(1).__next__)
    client = FakeClient(games)
    client.leagues = LeagueService(games, LeagueStore(games.store))
    channel = FakeChannel(client)
    users = {111: FakeUser(111, "Ann"), 222: FakeUser(222, "Bob"), 333: FakeUser(333, "Cy")}
    yield SimpleNamespace(
        games=games, client=client, channel=channel, cog=Leagues(client), users=users, path=tmp_path / "bot.db"
    )
    await db.close()


def act(world, user_id, **kwargs):
    return FakeInteraction(world.client, world.users[user_id], kwargs.pop("channel", world.channel), **kwargs)


async def test_a_league_from_creation_to_standings(world):
    i = act(world, 111)
    await Leagues.create.callback(world.cog, i, name="Friday", sets="base", players=2, turn_hours=24)
    assert "only server managers" in i.ephemeral_texts[0]
    i = act(world, 111, manager=True)
    await Leagues.create.callback(world.cog, i, name="Friday", sets="base", players=2, turn_hours=24)
    assert "League **Friday** is open" in i.log[-1].content
    for uid in (111, 222):
        i = act(world, uid)
        await Leagues.join.callback(world.cog, i, name="friday")
        assert "You are in **Friday**" in i.ephemeral_texts[0]
    i = act(world, 111)
    await Leagues.play.callback(world.cog, i, name="Friday")
    lobby = world.channel.messages[-1]
    assert lobby.embed.title.startswith("Friday — rated game #")
    gid = int(lobby.embed.title.split("#")[1])
    assert [c.custom_id for c in lobby.view.children][:2] == [f"carc:lobby:{gid}:join", f"carc:lobby:{gid}:leave"]
    i = act(world, 333, message=lobby)
    await lobby.view.children[0].callback(i)
    assert "only members of this game's league" in i.ephemeral_texts[0]
    await world.games.join(gid, "222", "Bob")
    await world.games.start(gid, "111")
    await play_out(world.games, gid)
    i = act(world, 333)
    await Leagues.standings.callback(world.cog, i, name="Friday")
    assert i.log[-1].filenames == ["standings.png"]
    assert "1. **" in i.log[-1].content and "(provisional)" in i.log[-1].content
    i = act(world, 333)
    await Leagues.player.callback(world.cog, i, name="Friday", member=world.users[222])
    assert f"game #{gid} (season 1)" in i.log[-1].content
    i = act(world, 333)
    await Leagues.games.callback(world.cog, i, name="Friday")
    assert f"#{gid} finished" in i.log[-1].content
    i = act(world, 222)
    await Leagues.season.callback(world.cog, i, name="Friday", action="end")
    assert "only server managers" in i.ephemeral_texts[0]
    i = act(world, 222, manager=True)
    await Leagues.season.callback(world.cog, i, name="Friday", action="end")
    assert "is over" in i.log[-1].content
    i = act(world, 222, manager=True)
    await Leagues.season.callback(world.cog, i, name="Friday", action="start")
    assert "Season 2" in i.log[-1].content
    i = act(world, 111)
    await Leagues.join.callback(world.cog, i, name="Nope")
    assert "no league called 'Nope'" in i.ephemeral_texts[0]
    choices = await world.cog._names(act(world, 111), "fri")
    assert [c.value for c in choices] == ["Friday"]


async def test_league_rebuild_command(world):
    league = await world.client.leagues.create("1", "Sunday", "boss", True, max_players=2)
    await world.client.leagues.join(league.id, "111", "Ann")
    await world.client.leagues.join(league.id, "222", "Bob")
    lobby = await world.client.leagues.open_lobby(league.id, "111", "Ann")
    await world.games.join(lobby.id, "222", "Bob")
    await world.games.start(lobby.id, "111")
    await play_out(world.games, lobby.id)
    proc = subprocess.run(
        [sys.executable, "bot.py", "league-rebuild", "--db", str(world.path)], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert f"league #{league.id}: 1 results replayed, unchanged" in proc.stdout
