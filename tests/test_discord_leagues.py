"""The /league commands on Discord, through the fake Discord API (tests/discord_api.py): the bot
answers privately what may fail, escapes and clips names, pings only the players concerned, and
opens each fixture in its own thread through the /carc cog."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import discord
import pytest

from tests.discord_api import User, components_of, running
from tests.helpers import SYSTEM, anyone, as_  # noqa: F401
from tests.test_discord_play import clean
from tests.test_leagues import play_out

ROOT = Path(__file__).resolve().parent.parent
BOSS = User(101, "Ann", manager=True)
MEMBERS = [BOSS] + [User(102 + i, n) for i, n in enumerate(["Bob", "Cy", "Dee", "Eve", "Fay", "Gus"])]


def reply_of(h, answer) -> str:
    message = h.fake.messages[answer.interaction.original]
    assert message["flags"] & 64, message["content"]  # answered privately
    return message["content"]


async def test_a_ladder_league_from_creation_to_standings(tmp_path):
    async with running(tmp_path, MEMBERS) as (h, channel, _):
        bob = MEMBERS[1]
        answer = await h.slash(bob, channel, "league create", name="Friday", sets="base", players=2, turn_hours=24)
        assert "only server managers" in reply_of(h, answer)
        answer = await h.slash(BOSS, channel, "league create", name="Friday", sets="base", players=2, turn_hours=24)
        assert "League **Friday** is open" in answer.text
        for user in MEMBERS[:2]:
            assert "You are in **Friday**" in reply_of(h, await h.slash(user, channel, "league join", name="friday"))
        answer = await h.slash(BOSS, channel, "league play", name="Friday")
        lobby = answer.public[-1]
        game_id = int(lobby["embeds"][0]["title"].split("#")[1])
        # No button that always refuses in a league lobby: no computer players, no sets menu.
        assert [c["custom_id"] for c in components_of(lobby)] == [
            f"carc:lobby:{game_id}:{a}" for a in ("join", "leave", "start")
        ]
        await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
        lobby = h.fake.messages[int(lobby["id"])]
        assert [c["label"] for c in components_of(lobby)] == ["Join", "Leave", "Start"]  # still none after a join
        await h.click(BOSS, lobby, "Start")
        await play_out(h.bot.service, game_id)
        answer = await h.slash(MEMBERS[2], channel, "league standings", name="Friday")
        text = answer.text
        assert "Friday · season 1" in text and ("(provisional)" in text or "?" in text)
        assert "-" not in text.split("\n")[1]  # the friendly scale has no negative numbers
        assert any(a["filename"] == "standings.png" for m in answer.messages for a in m["attachments"])
        answer = await h.slash(MEMBERS[2], channel, "league player", name="Friday", member=bob)
        assert f"game #{game_id} (season 1)" in answer.text and "mu" not in answer.text
        assert f"#{game_id} finished" in (await h.slash(MEMBERS[2], channel, "league games", name="Friday")).text
        answer = await h.slash(bob, channel, "league season", name="Friday", action="end")
        assert "only server managers or the league's organisers" in reply_of(h, answer)
        await h.slash(BOSS, channel, "league season", name="Friday", action="end")
        assert "is over" in h.messages_in(channel)[-1]["content"]
        answer = await h.slash(BOSS, channel, "league join", name="N" * 6000)
        assert len(reply_of(h, answer)) < 150 and "no league called" in reply_of(h, answer)
        choices = await h.autocomplete(BOSS, channel, "league join", "name", name="fri")
        assert [c["value"] for c in choices] == ["Friday"]
        clean(h)


async def test_a_divisional_season_through_the_commands(tmp_path):
    members = list(MEMBERS)
    members[5] = User(106, "**@everyone** " + "x" * 100)
    async with running(tmp_path, members) as (h, channel, _):
        name = "Central_*League*"
        await h.slash(BOSS, channel, "league create", name=name)
        for user in members[:6]:
            await h.slash(user, channel, "league join", name=name)
        await h.slash(BOSS, channel, "league season", name=name, action="end")
        answer = await h.slash(members[1], channel, "league season", name=name, action="start", format="divisions",
                               division_size=3)  # fmt: skip
        assert "organisers" in reply_of(h, answer)
        answer = await h.slash(BOSS, channel, "league season", name=name, action="start", format="divisions",
                               division_size=3, best_of=1, sets="base;base,river1", points="3/1/0")  # fmt: skip
        assert reply_of(h, answer) == "Done."
        assert "Season 2 of **Central\\_\\*League\\*** is a competition (divisions)" in h.messages_in(channel)[-1][
            "content"]  # fmt: skip
        assert "the bot opens its matches" in reply_of(h, await h.slash(members[1], channel, "league play", name=name))
        text = reply_of(h, await h.slash(BOSS, channel, "league divisions", name=name))
        assert "**Division 1**" in text and "**Division 2**" in text
        answer = await h.slash(BOSS, channel, "league kickoff", name=name)
        assert "Round 1 is open: 2 matches" in reply_of(h, answer)
        threads = [t for t in h.fake.channels.values() if t["type"] == 11]
        assert len(threads) == 2 and all("Central\\_\\*League\\* S2 R1" in t["name"] or "S2 R1" in t["name"]
                                          for t in threads)  # fmt: skip
        round_post = next(m for m in h.messages_in(channel) if "round 1 of 3" in m["content"])
        assert round_post["content"].count("<@") == 4
        assert await h.bot.service.store.unposted() == 0  # each match's opening post went out and is marked
        leagues = h.bot.leagues
        league = await leagues.find(anyone(str(next(iter(h.fake.guilds)))), name)
        fixtures = reply_of(h, await h.slash(members[1], channel, "league fixtures", name=name))
        assert "round 1" in fixtures
        assert "round 1: 0/2 decided" in reply_of(h, await h.slash(BOSS, channel, "league progress", name=name))
        for number in (1, 2, 3):
            for f in await leagues.progress(anyone(league.guild_id), league.id):
                await play_out(h.bot.service, f.games[-1])
            if number < 3:
                assert any(f"round {number + 1} of 3" in m["content"] for m in h.messages_in(channel))
        assert "every match is decided" in h.messages_in(channel)[-1]["content"]
        first = (await leagues.store.fixtures(league.id, 2))[0]
        answer = await h.slash(BOSS, channel, "league override", name=name, match=first.id, reason="x" * 6000)
        assert "reason of 3 to 200 characters" in reply_of(h, answer)
        await h.slash(BOSS, channel, "league override", name=name, match=first.id, reason="wrong tiles played")
        assert "Result set by an organiser" in h.messages_in(channel)[-1]["content"]
        text = (await h.slash(members[6], channel, "league standings", name=name)).text
        assert "__Division 1__" in text and "__Division 2__" in text and " ↓" in text and " ↑" in text
        assert "\\*\\*@everyone\\*\\* xxxxxxxxx…" in text  # escaped, clipped with an ellipsis
        await h.slash(BOSS, channel, "league season", name=name, action="end")
        history = reply_of(h, await h.slash(members[6], channel, "league history", name=name))
        assert "Season 2 (divisions, ended" in history and "up: " in history
        assert len(await leagues.store.match_log(league.id, 2)) == 7  # six games and the override
        clean(h)


async def test_a_deadline_ruling_is_announced_by_the_loop(tmp_path):
    async with running(tmp_path, MEMBERS[:2]) as (h, channel, _):
        await h.slash(BOSS, channel, "league create", name="Timed")
        for user in MEMBERS[:2]:
            await h.slash(user, channel, "league join", name="Timed")
        await h.slash(BOSS, channel, "league season", name="Timed", action="end")
        await h.slash(BOSS, channel, "league season", name="Timed", action="start", format="swiss", rounds=1,
                      window_days=1)  # fmt: skip
        await h.slash(BOSS, channel, "league kickoff", name="Timed")
        leagues = h.bot.leagues
        real = leagues.clock
        leagues.clock = lambda: real() + timedelta(days=2)
        await h.bot.get_cog("Leagues").deadlines()
        posted = [m["content"] for m in h.messages_in(channel)]
        assert any("is awarded the match" in p for p in posted) and "every match is decided" in posted[-1]
        clean(h)


async def test_a_round_opened_by_a_process_that_died_before_announcing_it_is_announced_once(tmp_path):
    """/league kickoff run by a process that died before posting: the round's announcement (in the
    outbox with its games' openings) is posted by the league clock once its hold is over, once,
    and each match gets its thread, the seats and the first turn from the game clock, once."""
    from service import GameService
    from service.core import PLAYED_HOLD
    from service.leagues import LeagueService
    from storage.leagues import LeagueStore

    async with running(tmp_path, MEMBERS[:4]) as (h, channel, _):
        await h.slash(BOSS, channel, "league create", name="Crash")
        for user in MEMBERS[:4]:
            await h.slash(user, channel, "league join", name="Crash")
        await h.slash(BOSS, channel, "league season", name="Crash", action="end")
        await h.slash(BOSS, channel, "league season", name="Crash", action="start", format="swiss", rounds=2)
        service, leagues = h.bot.service, h.bot.leagues
        dead_games = GameService(service.store, clock=service.clock)  # another process, about to die
        dead_games.outbox_turns = True
        dead = LeagueService(dead_games, LeagueStore(service.store), clock=leagues.clock)
        dead.outbox_posts = True
        guild = str(next(iter(h.fake.guilds)))
        league = await leagues.find(anyone(guild), "Crash")
        notice = await dead.kickoff(as_(str(BOSS.id), guild, manager=True), league.id)
        assert len(notice.games) == 2 and notice.outbox and await service.store.unposted() == 3
        before = len(h.messages_in(channel))
        real_games, real_leagues = service.clock, leagues.clock
        service.clock = service.log.clock = lambda: real_games() + PLAYED_HOLD + timedelta(seconds=5)
        leagues.clock = lambda: real_leagues() + PLAYED_HOLD + timedelta(seconds=5)
        for _round in range(2):  # the second round of ticks finds nothing more to post
            await h.bot.get_cog("Leagues").deadlines()
            await h.bot.get_cog("Play").deadlines()
        posted = h.messages_in(channel)[before:]
        assert len(posted) == 1 and "round 1 of 2 is open" in posted[0]["content"]
        assert posted[0]["content"].count("<@") == 4  # the four players pinged
        threads = [t for t in h.fake.channels.values() if t["type"] == 11]
        assert len(threads) == 2 and all("Crash S2 R1" in t["name"] for t in threads)
        for thread in threads:
            posts = h.messages_in(int(thread["id"]))
            assert len(posts) == 2 and "starts. Seats and colours" in posts[0]["content"]
        assert await service.store.unposted() == 0
        clean(h)


async def test_members_of_the_organiser_role_run_seasons_and_failures_stay_private(tmp_path, monkeypatch):
    bob, cy = User(102, "Bob", roles=[77]), User(103, "Cy", roles=[78])
    async with running(tmp_path, [BOSS, bob, cy]) as (h, channel, _):
        await h.slash(BOSS, channel, "league create", name="Club")
        assert "only server managers" in reply_of(h, await h.slash(bob, channel, "league organisers", name="Club",
                                                                    role=77))  # fmt: skip
        answer = await h.slash(BOSS, channel, "league organisers", name="Club", role=77)
        assert reply_of(h, answer) == "**Club** is run by the members of <@&77>."
        assert reply_of(h, await h.slash(bob, channel, "league season", name="Club", action="end")) == (
            "The season is closed.")  # fmt: skip
        answer = await h.slash(cy, channel, "league season", name="Club", action="start")
        assert "only server managers or the league's organisers" in reply_of(h, answer)

        async def broken(*args, **kwargs):
            raise RuntimeError("database is on fire: /secret/path")

        monkeypatch.setattr(h.bot.leagues, "find", broken)
        answer = await h.slash(cy, channel, "league history", name="x")
        assert reply_of(h, answer) == "Something went wrong on my side; the error is logged."
        assert h.fake.violations == [] and h.errors.records  # logged, answered privately


async def test_league_rebuild_command(tmp_path):
    from service import GameService
    from service.leagues import LeagueService
    from storage import Store, open_database
    from storage.leagues import LeagueStore

    db = await open_database(tmp_path / "bot.db")
    games = GameService(Store(db))
    leagues = LeagueService(games, LeagueStore(games.store))
    league = await leagues.create(as_("boss", "1", manager=True), "Sunday", max_players=2)
    await leagues.join(as_("111", "1"), league.id, "Ann")
    await leagues.join(as_("222", "1"), league.id, "Bob")
    lobby = await leagues.open_lobby(as_("111", league.guild_id), league.id, "Ann")
    await games.join(as_("222", "1"), lobby.id, "Bob")
    await games.start(as_("111", "1"), lobby.id)
    await play_out(games, lobby.id)
    await db.close()
    proc = subprocess.run(
        [sys.executable, "bot.py", "league-rebuild", "--db", str(tmp_path / "bot.db")],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert f"league #{league.id}: 1 results replayed, 0 match log entries, unchanged" in proc.stdout


def test_allowed_mentions_are_built_for_the_intended_users_only():
    from cogs.leagues import only_users

    mentions = only_users(["101", "101", "ai:greedy:1", "102"])
    assert [o.id for o in mentions.users] == [101, 102]
    assert mentions.everyone is False and mentions.roles is False
    assert isinstance(mentions, discord.AllowedMentions)


@pytest.mark.slow  # a soak run: 21 whole games through the panel (~60 s); tests/test_playoffs.py plays the bracket
async def test_an_eight_player_playoff_best_of_3_played_through_the_panel_to_the_champion(tmp_path):
    """After a Swiss season, /league playoffs seeds the top 8 into a bracket posted as a picture;
    every playoff game opens in its own thread and is played through Take turn and the panel;
    the bot opens each next match, announces the champion once, and /league history keeps it."""
    from tests.test_discord_play import play_by_panel

    eight = MEMBERS + [User(108, "Hal")]
    async with running(tmp_path, eight) as (h, channel, _):
        await h.slash(BOSS, channel, "league create", name="Cup")
        for user in eight:
            await h.slash(user, channel, "league join", name="Cup")
        await h.slash(BOSS, channel, "league season", name="Cup", action="end")
        await h.slash(BOSS, channel, "league season", name="Cup", action="start", format="swiss", rounds=3)
        await h.slash(BOSS, channel, "league kickoff", name="Cup")
        leagues = h.bot.leagues
        league = await leagues.find(anyone(str(next(iter(h.fake.guilds)))), "Cup")
        answer = await h.slash(BOSS, channel, "league playoffs", name="Cup", top=8, best_of=3)
        assert "the groups are not over" in reply_of(h, answer)
        for _round in range(3):
            for f in await leagues.progress(anyone(league.guild_id), league.id):
                await play_out(h.bot.service, f.games[-1])
        assert "/league playoffs" in h.messages_in(channel)[-1]["content"]
        answer = await h.slash(eight[1], channel, "league playoffs", name="Cup", top=8, best_of=3)
        assert "organisers" in reply_of(h, answer)
        answer = await h.slash(BOSS, channel, "league playoffs", name="Cup", top=8, best_of=3)
        assert reply_of(h, answer) == "The playoffs are open: 4 matches."
        posted = h.messages_in(channel)
        assert any(a["filename"] == "bracket.png" for m in posted for a in m["attachments"])
        assert "the playoffs begin (single elimination, best of 3)" in posted[-1]["content"]
        threads = [t for t in h.fake.channels.values() if t["type"] == 11 and "Quarter-finals" in t["name"]]
        assert len(threads) == 4
        games_played = 0
        for _step in range(40):  # every open playoff game, through the panel, until the final is won
            open_games = [
                f.games[-1] for f in await leagues.progress(anyone(league.guild_id), league.id)
                if not f.outcome.decided and f.games
            ]  # fmt: skip
            if not open_games:
                break
            for game_id in open_games:
                row = await h.bot.service.lobby(anyone(league.guild_id), game_id)
                await play_by_panel(h, game_id, int(row.thread_id), eight, seed=game_id)
                games_played += 1
        assert 14 <= games_played <= 24  # seven matches of two or three games (a level match: one more)
        champion_posts = [m["content"] for m in h.messages_in(channel) if "is the champion of Cup" in m["content"]]
        assert len(champion_posts) == 1
        answer = await h.slash(eight[3], channel, "league bracket", name="Cup")
        assert "Champion: **" in answer.text and "Final:" in answer.text
        assert any(a["filename"] == "bracket.png" for m in answer.messages for a in m["attachments"])
        champion = answer.text.split("Champion: **")[1].split("**")[0]
        await h.slash(BOSS, channel, "league season", name="Cup", action="end")
        history = reply_of(h, await h.slash(eight[3], channel, "league history", name="Cup"))
        assert f"playoffs won by {champion}" in history
        clean(h)
