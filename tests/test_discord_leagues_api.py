"""A league season on Discord through the fake API: created, joined, kicked off; the bot opens
each match in its own thread (through the /carc cog), players play it in the panel, and the
standings come out; zero rule violations."""

from __future__ import annotations

import random

from tests.discord_api import User, running
from tests.test_discord_play import actor, clean, finish_in_panel, turn_message


async def test_a_swiss_season_played_on_discord(tmp_path):
    boss = User(1200, "Boss", manager=True)
    players = [User(1201 + i, name) for i, name in enumerate(["Ann", "Bob", "Cy"])]
    async with running(tmp_path, [boss, *players]) as (h, channel, _):
        answer = await h.slash(boss, channel, "league create", name="Friday", sets="base", players=2, turn_hours=24)
        assert "is open" in answer.text
        for user in players:
            answer = await h.slash(user, channel, "league join", name="Friday")
            assert "You are in" in answer.text
        await h.slash(boss, channel, "league season", name="Friday", action="end")
        await h.slash(boss, channel, "league season", name="Friday", action="start", format="swiss", rounds=1)
        answer = await h.slash(boss, channel, "league kickoff", name="Friday")
        assert "Round 1 is open" in answer.text
        matches = [t for t in h.fake.channels.values() if t["type"] == 11 and t["name"].startswith("Friday")]
        assert len(matches) == 1  # three players: one match and a bye
        thread = int(matches[0]["id"])
        game_id = await h.bot.service.store.game_id_by_thread(str(thread))
        opening = h.messages_in(thread)[0]["content"]
        assert "Seats and colours" in opening and opening.count("<@") == 2
        rng = random.Random(5)
        while (user := await actor(h, game_id, players)) is not None:
            panel = (await h.click(user, turn_message(h, thread), "Take turn")).private[-1]
            await finish_in_panel(h, user, panel, rng)
        answer = await h.slash(players[0], channel, "league standings", name="Friday")
        assert "Friday" in answer.text and any(a["filename"] == "standings.png" for m in answer.messages
                                               for a in m["attachments"])  # fmt: skip
        clean(h)


async def test_league_names_never_ping(tmp_path):
    boss = User(1300, "Boss", manager=True)
    async with running(tmp_path, [boss, User(1301, "Ann")]) as (h, channel, _):
        await h.slash(boss, channel, "league create", name="@everyone <@&123> **party**", sets="base", players=2)
        await h.slash(boss, channel, "league standings", name="@everyone <@&123> **party**")
        clean(h)  # the fake flags any message that could ping @everyone, @here or a role
