"""The /league commands, offline, through stand-ins of discord.py's objects.

``invoke`` runs a command the way discord.py's tree does: an exception from the
callback reaches the cog's ``cog_app_command_error`` wrapped in CommandInvokeError.
"""

import itertools
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands

from cogs.leagues import Leagues
from service import GameService
from service.leagues import LeagueService
from storage import Store, open_database
from storage.leagues import LeagueStore
from tests.discord_fakes import FakeChannel, FakeClient, FakeInteraction, FakeUser
from tests.helpers import Clock
from tests.test_leagues import play_out

ROOT = Path(__file__).resolve().parent.parent


class RecordingChannel(FakeChannel):
    """A channel that also keeps the keywords of every send (allowed_mentions)."""

    def __init__(self, client):
        super().__init__(client)
        self.sent_kwargs = []

    async def send(self, content=None, **kwargs):
        self.sent_kwargs.append(kwargs)
        return await super().send(content, **kwargs)


class CarcWithThreads:
    def __init__(self):
        self.opened = []

    async def open_game_thread(self, channel, game_id, user_ids, title):
        self.opened.append((channel, game_id, user_ids, title))


@pytest.fixture
async def world(tmp_path):
    db = await open_database(tmp_path / "bot.db")
    clock = Clock(1)
    games = GameService(Store(db), clock, new_seed=itertools.count(1).__next__)
    client = FakeClient(games)
    client.leagues = LeagueService(games, LeagueStore(games.store), clock)
    cogs = {}
    client.get_cog = cogs.get
    channel = RecordingChannel(client)
    users = {
        i: FakeUser(i, n)
        for i, n in zip(range(101, 108), ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"], strict=True)
    }
    cog = Leagues(client)  # registers its notice listener
    yield SimpleNamespace(
        games=games, client=client, channel=channel, cog=cog, users=users, path=tmp_path / "bot.db", cogs=cogs,
        clock=clock,
    )  # fmt: skip
    await db.close()


def act(world, user_id, **kwargs):
    return FakeInteraction(world.client, world.users[user_id], kwargs.pop("channel", world.channel), **kwargs)


async def invoke(world, command, interaction, **options):
    try:
        await command.callback(world.cog, interaction, **options)
    except Exception as exc:
        await world.cog.cog_app_command_error(interaction, app_commands.CommandInvokeError(command, exc))
    # What Discord would refuse: over 2000 characters, or an error after a public defer.
    for sent in interaction.log:
        assert sent.content is None or len(sent.content) <= 2000
    deferred = [s for s in interaction.log if s.kind == "defer"]
    if deferred and not deferred[0].ephemeral:
        assert not [s for s in interaction.log if s.kind == "followup" and s.ephemeral]
    return interaction


async def test_a_ladder_league_from_creation_to_standings(world):
    i = await invoke(world, Leagues.create, act(world, 101), name="Friday", sets="base", players=2, turn_hours=24)
    assert "only server managers" in i.ephemeral_texts[0]
    i = act(world, 101, manager=True)
    await invoke(world, Leagues.create, i, name="Friday", sets="base", players=2, turn_hours=24)
    assert "League **Friday** is open" in i.log[-1].content
    for uid in (101, 102):
        i = await invoke(world, Leagues.join, act(world, uid), name="friday")
        assert "You are in **Friday**" in i.ephemeral_texts[0]
    i = await invoke(world, Leagues.play, act(world, 101), name="Friday")
    sent = i.log[-1]
    assert sent.embed.title.startswith("Friday — rated game #")
    gid = int(sent.embed.title.split("#")[1])
    # No button that always refuses in a league lobby: no computer players, no sets menu.
    assert [c.custom_id for c in sent.view.children] == [f"carc:lobby:{gid}:{a}" for a in ("join", "leave", "start")]
    await world.games.join(gid, "102", "Bob")
    await world.games.start(gid, "101")
    await play_out(world.games, gid)
    i = await invoke(world, Leagues.standings, act(world, 103), name="Friday")
    assert i.log[0].kind == "defer" and i.log[-1].filenames == ["standings.png"]
    assert "Friday · season 1" in i.log[-1].content and "(provisional)" in i.log[-1].content
    assert "-" not in i.log[-1].content.split("\n")[1]  # the friendly scale has no negative numbers
    i = await invoke(world, Leagues.player, act(world, 103), name="Friday", member=world.users[102])
    assert f"game #{gid} (season 1)" in i.log[-1].content and "mu" not in i.log[-1].content
    i = await invoke(world, Leagues.games, act(world, 103), name="Friday")
    assert f"#{gid} finished" in i.log[-1].content
    i = await invoke(world, Leagues.season, act(world, 102), name="Friday", action="end")
    assert "only server managers or the league's organisers" in i.ephemeral_texts[0]
    i = await invoke(world, Leagues.season, act(world, 102, manager=True), name="Friday", action="end")
    assert "is over" in world.channel.messages[-1].content
    i = await invoke(world, Leagues.join, act(world, 101), name="N" * 6000)
    assert len(i.ephemeral_texts[0]) < 100 and "no league called" in i.ephemeral_texts[0]
    choices = await world.cog._names(act(world, 101), "fri")
    assert [c.value for c in choices] == ["Friday"]


async def test_a_divisional_season_through_the_commands(world):
    manager = 101
    i = act(world, manager, manager=True)
    await invoke(world, Leagues.create, i, name="Central_*League*", organiser_role=None)
    world.users[106].display_name = "**@everyone** " + "x" * 100
    for uid in list(world.users)[:6]:
        await invoke(world, Leagues.join, act(world, uid), name="Central_*League*")
    await invoke(world, Leagues.season, act(world, manager, manager=True), name="Central_*League*", action="end")
    i = await invoke(
        world, Leagues.season, act(world, 102), name="Central_*League*", action="start", format="divisions",
        division_size=3,
    )  # fmt: skip
    assert "organisers" in i.ephemeral_texts[0]
    i = act(world, manager, manager=True)
    await invoke(world, Leagues.season, i, name="Central_*League*", action="start", format="divisions",
                 division_size=3, best_of=1, sets="base;base,river1", points="3/1/0")  # fmt: skip
    assert i.ephemeral_texts == ["Done."], i.ephemeral_texts
    announcement = world.channel.messages[-1].content
    assert "Season 2 of **Central\\_\\*League\\*** is a divisions competition" in announcement
    i = await invoke(world, Leagues.play, act(world, 102), name="Central_*League*")
    assert "the bot opens its matches" in i.ephemeral_texts[0]
    i = await invoke(world, Leagues.divisions, act(world, manager, manager=True), name="Central_*League*")
    assert "**Division 1**" in i.ephemeral_texts[0] and "**Division 2**" in i.ephemeral_texts[0]
    i = act(world, manager, manager=True)
    await invoke(world, Leagues.kickoff, i, name="Central_*League*")
    assert i.log[0].kind == "defer" and i.log[0].ephemeral and "Round 1 is open: 2 matches" in i.ephemeral_texts[0]
    opened = [m for m in world.channel.messages if m.view is not None and "game #" in (m.content or "")]
    assert len(opened) == 2  # no Carc cog here: each match is posted with its Take turn button
    assert [c.custom_id.split(":")[1] for m in opened for c in m.view.children] == ["turn", "turn"]
    round_post = next(m for m in world.channel.messages if "round 1 of 3" in (m.content or ""))
    kwargs = world.channel.sent_kwargs[world.channel.messages.index(round_post)]
    pinged = {o.id for o in kwargs["allowed_mentions"].users}
    assert kwargs["allowed_mentions"].everyone is False and len(pinged) == 4
    assert all(f"<@{u}>" in round_post.content for u in pinged)
    game_posts = " ".join(m.content for m in opened)
    assert "Central\\_\\*League\\* S2 R1" in game_posts  # names in messages are escaped
    # Players see their fixtures; organisers see the round.
    me = next(iter(pinged))
    i = await invoke(world, Leagues.fixtures, act(world, me), name="Central_*League*")
    assert "round 1: v " in i.ephemeral_texts[0] and "— later" in i.ephemeral_texts[0]
    i = await invoke(world, Leagues.progress, act(world, manager), name="Central_*League*")
    assert "round 1: 0/2 decided" in i.ephemeral_texts[0]
    leagues = world.client.leagues
    league = await leagues.find("1", "Central_*League*")
    for number in (1, 2, 3):
        for f in await leagues.progress(league.id):
            await play_out(world.games, f.games[-1])
        if number < 3:
            assert any(f"round {number + 1} of 3" in (m.content or "") for m in world.channel.messages)
    assert "every match is decided" in world.channel.messages[-1].content
    first = (await leagues.store.fixtures(league.id, 2))[0]
    i = act(world, manager, manager=True)
    await invoke(world, Leagues.override, i, name="Central_*League*", match=first.id, reason="x" * 6000, winner=None)
    assert "reason of 3 to 200 characters" in i.ephemeral_texts[0]
    i = act(world, manager, manager=True)
    await invoke(world, Leagues.override, i, name="Central_*League*", match=first.id, reason="wrong tiles played")
    assert "Result set by an organiser" in world.channel.messages[-1].content
    i = await invoke(world, Leagues.standings, act(world, 107), name="Central_*League*")
    text = i.log[-1].content
    assert i.log[-1].filenames == ["standings.png"] and "Central\\_\\*League\\* · season 2" in text
    assert "__Division 1__" in text and "__Division 2__" in text and " ↓" in text and " ↑" in text
    assert "Division 1" not in text.split("__Division 2__")[1]
    assert "**\\*\\*@everyone\\*\\* xxxxxxxxx…**" in text  # escaped, clipped with an ellipsis
    await invoke(world, Leagues.season, act(world, manager, manager=True), name="Central_*League*", action="end")
    i = await invoke(world, Leagues.history, act(world, 107), name="Central_*League*")
    assert "Season 2 (divisions, ended" in i.ephemeral_texts[0] and "up: " in i.ephemeral_texts[0]
    entries = len(await leagues.store.match_log(league.id, 2))
    assert entries == 7  # six games and the override
    proc = subprocess.run(
        [sys.executable, "bot.py", "league-rebuild", "--db", str(world.path)], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert f"league #{league.id}: 6 results replayed, 7 match log entries, unchanged" in proc.stdout


async def test_match_games_open_in_threads_through_the_carc_cog(world):
    carc = CarcWithThreads()
    world.cogs["Carc"] = carc
    leagues = world.client.leagues
    league = await leagues.create("1", "Swiss", "boss", True)
    for uid in (101, 102, 103):
        await leagues.join(league.id, str(uid), world.users[uid].display_name)
    await leagues.end_season(league.id, True)
    i = act(world, 101, manager=True)
    await invoke(world, Leagues.season, i, name="Swiss", action="start", format="swiss", rounds=2)
    await invoke(world, Leagues.kickoff, act(world, 101, manager=True), name="Swiss")
    assert len(carc.opened) == 1
    channel, game_id, user_ids, title = carc.opened[0]
    assert channel is world.channel and title.startswith("Swiss S2 R1: ") and len(user_ids) == 2
    assert "has a bye this round" in next(m.content for m in world.channel.messages if "round 1 of 2" in m.content)
    await play_out(world.games, game_id)
    assert len(carc.opened) == 2 and carc.opened[1][3].startswith("Swiss S2 R2: ")
    i = await invoke(world, Leagues.standings, act(world, 103), name="Swiss")
    lines = i.log[-1].content.split("\n")
    assert lines[0] == "**Swiss · season 2**" and len(lines) == 4 and all("Buchholz" in line for line in lines[1:])
    assert "__Division" not in i.log[-1].content


async def test_a_deadline_ruling_is_announced_by_the_loop(world):
    leagues = world.client.leagues
    league = await leagues.create("1", "Timed", "boss", True)
    for uid in (101, 102):
        await leagues.join(league.id, str(uid), world.users[uid].display_name)
    await leagues.end_season(league.id, True)
    i = act(world, 101, manager=True)
    await invoke(world, Leagues.season, i, name="Timed", action="start", format="swiss", rounds=1, window_days=1)
    await invoke(world, Leagues.kickoff, act(world, 101, manager=True), name="Timed")
    from datetime import timedelta

    world.clock.now += timedelta(days=2)
    await Leagues.deadlines.coro(world.cog)
    posted = world.channel.messages[-2].content
    assert "is awarded the match" in posted
    assert "every match is decided" in world.channel.messages[-1].content


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
    assert f"league #{league.id}: 1 results replayed, 0 match log entries, unchanged" in proc.stdout


def test_allowed_mentions_are_built_for_the_intended_users_only():
    from cogs.leagues import only_users

    mentions = only_users(["101", "101", "ai:greedy:1", "102"])
    assert [o.id for o in mentions.users] == [101, 102]
    assert mentions.everyone is False and mentions.roles is False
    assert isinstance(mentions, discord.AllowedMentions)


async def test_an_unexpected_failure_is_answered_privately_without_details(world, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("database is on fire: /secret/path")

    monkeypatch.setattr(world.client.leagues, "find", broken)
    i = act(world, 101)
    await i.response.defer(ephemeral=True)
    await invoke(world, Leagues.history, i, name="x")
    assert i.ephemeral_texts == ["Something went wrong on my side; the error is logged."]


async def test_members_of_the_organiser_role_run_seasons(world):
    await invoke(world, Leagues.create, act(world, 101, manager=True), name="Club")
    role = SimpleNamespace(id=77, mention="<@&77>")
    i = await invoke(world, Leagues.organisers, act(world, 102), name="Club", role=role)
    assert "only server managers" in i.ephemeral_texts[0]
    i = await invoke(world, Leagues.organisers, act(world, 101, manager=True), name="Club", role=role)
    assert i.ephemeral_texts == ["**Club** is run by members of <@&77>."]
    world.users[102].roles = [SimpleNamespace(id=77)]
    i = await invoke(world, Leagues.season, act(world, 102), name="Club", action="end")
    assert i.ephemeral_texts == ["The season is closed."]
    world.users[103].roles = [SimpleNamespace(id=78)]
    i = await invoke(world, Leagues.season, act(world, 103), name="Club", action="start")
    assert "only server managers or the league's organisers" in i.ephemeral_texts[0]
