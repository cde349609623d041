"""Hostile and unlucky input on Discord: every bad input gets a clear private answer within
Discord's limits and changes nothing; panels survive restarts and old tokens; another
server's managers have no power over a game."""

from __future__ import annotations

import random

from service import Limits
from tests.discord_api import User, components_of, running
from tests.helpers import SYSTEM, any_of, anyone, as_  # noqa: F401
from tests.test_discord_play import actor, clean, finish_in_panel, open_game, turn_message

ANN, BOB = User(800, "Ann", manager=True), User(801, "Bob")
EVE = User(900, "Eve", manager=True)  # manages another server
LONG = "x" * 6000


def private_reply(h, answer) -> dict:
    message = h.fake.messages[answer.interaction.original]
    assert message["flags"] & 64, message
    assert len(message["content"]) <= 2000
    return message


async def test_bad_commands_are_answered_privately_and_change_nothing(tmp_path):
    async with running(tmp_path, [ANN, BOB]) as (h, channel, _):
        for sets in ("base,nonsense", LONG, "²"):
            answer = await h.slash(ANN, channel, "carc new", sets=sets)
            assert answer.public == [] and "unknown set" in private_reply(h, answer)["content"]
        assert await h.bot.service.store.game_ids() == []
        game_id, thread = await open_game(h, channel, [ANN, BOB], "base")
        player = await actor(h, game_id, [ANN, BOB])
        other = BOB if player is ANN else ANN
        before = (await h.bot.service.turn(await any_of(h.bot.service, game_id), game_id)).version
        for options in ({"cell": LONG, "rot": 0}, {"cell": "A", "rot": 45}, {"cell": "A", "spot": "²"},
                        {"cell": "A", "spot": "9" * 5000}, {"cell": "999,999", "rot": 0}):  # fmt: skip
            answer = await h.slash(player, thread, "carc place", **options)
            assert answer.public == [], options
            private_reply(h, answer)
        answer = await h.slash(other, thread, "carc place", cell="A", rot=0)
        assert "not yours" in private_reply(h, answer)["content"]
        answer = await h.click(other, turn_message(h, thread), "Take turn")
        assert "not yours" in private_reply(h, answer)["content"]
        for command in ("carc score", "carc tiles", "carc board", "carc export"):
            answer = await h.slash(ANN, channel, command, game=2**62)
            assert "no game" in private_reply(h, answer)["content"], command
        assert (await h.bot.service.turn(await any_of(h.bot.service, game_id), game_id)).version == before
        await h.slash(ANN, thread, "carc resign")
        answer = await h.slash(ANN, thread, "carc resign")
        assert answer.public == [] and private_reply(h, answer)
        clean(h)


async def test_another_servers_managers_have_no_power_and_read_nothing(tmp_path):
    async with running(tmp_path, [ANN, BOB], second_guild=[EVE]) as (h, channel, elsewhere):
        game_id, _thread = await open_game(h, channel, [ANN, BOB], "base")
        version = (await h.bot.service.turn(await any_of(h.bot.service, game_id), game_id)).version
        for command, options in [
            ("carc abort", {}), ("carc kick", {"player": ANN}), ("carc board", {}), ("carc score", {}),
            ("carc tiles", {}), ("carc export", {}), ("carc resign", {}),
        ]:  # fmt: skip
            answer = await h.slash(EVE, elsewhere, command, game=game_id, **options)
            assert answer.public == [], command
            assert answer.interaction.original is None or private_reply(h, answer)
        row = await h.bot.service.lobby(await any_of(h.bot.service, game_id), game_id)
        assert row.status == "active" and all(s.status == "playing" for s in row.seats)
        assert (await h.bot.service.turn(await any_of(h.bot.service, game_id), game_id)).version == version
        clean(h)


async def test_a_panel_survives_a_restart_and_old_tokens(tmp_path):
    async with running(tmp_path, [ANN, BOB]) as (h, channel, _):
        game_id, thread = await open_game(h, channel, [ANN, BOB], "base")
        player = await actor(h, game_id, [ANN, BOB])
        answer = await h.click(player, turn_message(h, thread), "Take turn")
        panel = answer.private[-1]
        await h.restart()
        h.fake.advance(20 * 60)  # the panel's own token is long dead; each click brings a new one
        assert await finish_in_panel(h, player, panel, random.Random(1)) >= 1
        assert (await h.bot.service.turn(await any_of(h.bot.service, game_id), game_id)).turn == 2
        # The old turn message's button still opens the current turn for whoever must act now.
        nxt = await actor(h, game_id, [ANN, BOB])
        first_turn_message = next(m for m in h.messages_in(thread) if components_of(m))
        answer = await h.click(nxt, first_turn_message, "Take turn")  # type: ignore[arg-type]
        assert answer.private and answer.private[-1]["components"]
        clean(h)


async def test_a_stale_panel_says_what_to_press(tmp_path):
    async with running(tmp_path, [ANN, BOB]) as (h, channel, _):
        game_id, thread = await open_game(h, channel, [ANN, BOB], "base")
        player = await actor(h, game_id, [ANN, BOB])
        first = (await h.click(player, turn_message(h, thread), "Take turn")).private[-1]
        second = (await h.click(player, turn_message(h, thread), "Take turn")).private[-1]
        await finish_in_panel(h, player, second, random.Random(2))
        select = next(c for c in components_of(first) if c["type"] == 3)
        await h.select(player, first, select["custom_id"], [select["options"][0]["value"]])
        assert "Take turn" in h.fake.messages[int(first["id"])]["content"]
        clean(h)


async def test_kicking_the_player_to_move_posts_the_next_turn_and_pings_the_next_player(tmp_path):
    cy = User(802, "Cy")
    async with running(tmp_path, [ANN, BOB, cy]) as (h, channel, _):
        game_id, thread = await open_game(h, channel, [ANN, BOB, cy], "base")
        player = await actor(h, game_id, [ANN, BOB, cy])
        answer = await h.slash(ANN, thread, "carc kick", player=player)
        nxt = await actor(h, game_id, [ANN, BOB, cy])
        assert nxt is not None and nxt is not player
        post = answer.public[-1]
        assert f"<@{nxt.id}>" in post["content"] and any("carc:turn:" in c["custom_id"] for c in components_of(post))
        assert post["allowed_mentions"]["users"] == [str(nxt.id)] if "allowed_mentions" in post else True
        clean(h)


async def test_names_never_ping_and_long_lists_stay_within_limits(tmp_path):
    loud = User(803, "@everyone **bold** ||x||")
    async with running(tmp_path, [ANN, loud]) as (h, channel, _):
        h.bot.service.limits = Limits(lobbies_per_user=40, lobbies_per_server=40)  # a long list to show
        for _ in range(30):
            await h.slash(ANN, channel, "carc new", sets="base")
        game_id, thread = await open_game(h, channel, [ANN, loud], "base")
        answer = await h.slash(ANN, channel, "carc games")
        assert len(private_reply(h, answer)["content"]) <= 2000
        assert all("@everyone" not in m["content"] for m in h.fake.log)  # escaped: shown, never a ping
        clean(h)


# ---------------------------------------------------------------------- the fake refuses what Discord refuses
def _interaction(fake, user=ANN):
    from tests.discord_api import Interaction

    _gid, channel = fake.add_guild("g", [user])
    record = Interaction(fake.new_id(), f"t{fake.new_id()}", 2, fake.now(), user, channel)
    fake.interactions[record.token] = record
    return record, channel


async def test_the_fake_enforces_the_interaction_rules():
    import discord
    import pytest

    from tests.discord_api import FakeDiscord

    fake = FakeDiscord()
    record, _channel = _interaction(fake)
    with pytest.raises(discord.NotFound):  # a followup before any response
        fake._webhook("POST", ["webhooks", str(fake.app_id), record.token], {"content": "hi"}, [], {})
    fake._callback(record.token, {"type": 5, "data": {}}, [])  # a public "thinking"
    with pytest.raises(discord.HTTPException) as second:
        fake._callback(record.token, {"type": 4, "data": {"content": "again"}}, [])
    assert second.value.code == 40060
    message = fake._webhook(
        "POST", ["webhooks", str(fake.app_id), record.token], {"content": "oops", "flags": 64}, [], {}
    )
    assert not message["flags"] & 64  # Discord ignores the flag: everybody sees the "private" error
    assert ("ephemeral after a public defer", "oops") in fake.violations
    late, _ = _interaction(fake)
    fake.advance(3.5)
    with pytest.raises(discord.NotFound):
        fake._callback(late.token, {"type": 4, "data": {"content": "late"}}, [])
    expired, _ = _interaction(fake)
    fake._callback(expired.token, {"type": 5, "data": {"flags": 64}}, [])
    fake.advance(16 * 60)
    with pytest.raises(discord.HTTPException):
        fake._webhook("PATCH", ["webhooks", str(fake.app_id), expired.token, "messages", "@original"], {}, [], {})


async def test_the_fake_enforces_message_and_component_limits():
    import discord
    import pytest

    from tests.discord_api import FakeDiscord

    fake = FakeDiscord()
    _gid, channel = fake.add_guild("g", [ANN])
    post = ["channels", str(channel), "messages"]
    fake._channel("POST", post, {"content": "x" * 2000}, [])
    too_long = {"content": "x" * 2001}
    button = {"type": 2, "style": 1, "label": "ok", "custom_id": "same"}
    bad = [
        too_long, {}, {"embeds": [{"title": "t" * 257}]}, {"embeds": [{"description": "d"}] * 11},
        {"components": [{"type": 1, "components": [button] * 6}]},
        {"components": [{"type": 1, "components": [button, dict(button, label="two")]}]},
        {"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": []}]}]},
        {"components": [{"type": 1, "components": [dict(button, label="l" * 81, custom_id="u")]}]},
        {"components": [{"type": 1, "components": [dict(button, custom_id="c" * 101)]}]},
    ]  # fmt: skip
    for payload in bad:
        with pytest.raises(discord.HTTPException):
            fake._channel("POST", post, payload, [])
    with pytest.raises(discord.HTTPException):
        fake._channel("POST", post, {"content": "big"}, [("a.png", 11 * 1024 * 1024)])
    fake._channel("POST", post, {"content": "@everyone look", "allowed_mentions": {"parse": []}}, [])
    assert not any(rule == "mentions" for rule, _ in fake.violations)
    fake._channel("POST", post, {"content": "@everyone look"}, [])
    assert any(rule == "mentions" for rule, _ in fake.violations)


async def test_a_turn_that_times_out_posts_the_next_turn_with_its_button(tmp_path):
    from datetime import timedelta

    async with running(tmp_path, [ANN, BOB]) as (h, channel, _):
        answer = await h.slash(ANN, channel, "carc new", sets="base", players=2, turn_hours=1)
        lobby = answer.public[-1]
        await h.click(BOB, h.fake.messages[int(lobby["id"])], "Join")
        await h.click(ANN, h.fake.messages[int(lobby["id"])], "Start")
        thread = h.fake.threads_from[int(lobby["id"])]
        game_id = await h.bot.service.store.game_id_by_thread(str(thread))
        late = await actor(h, game_id, [ANN, BOB])
        service = h.bot.service
        real = service.clock
        service.clock = lambda: real() + timedelta(hours=2)
        await h.bot.get_cog("Play").deadlines()  # one tick of the clock
        post = h.messages_in(thread)[-1]
        nxt = await actor(h, game_id, [ANN, BOB])
        assert nxt is not late and "ran out of time" in post["content"]
        assert f"<@{nxt.id}>" in post["content"] and any("carc:turn:" in c["custom_id"] for c in components_of(post))
        clean(h)


async def test_an_unexpected_failure_is_answered_privately_without_details(tmp_path, monkeypatch):
    async with running(tmp_path, [ANN, BOB]) as (h, channel, _):
        game_id, thread = await open_game(h, channel, [ANN, BOB], "base")
        player = await actor(h, game_id, [ANN, BOB])

        async def broken(*args, **kwargs):
            raise RuntimeError("secret internals")

        monkeypatch.setattr(h.bot.service, "ask", broken)
        answer = await h.click(player, turn_message(h, thread), "Take turn")
        reply = private_reply(h, answer)
        assert "went wrong" in reply["content"] and "secret" not in reply["content"]
        assert [r.getMessage() for r in h.errors.records] and h.fake.violations == []


async def test_the_board_whole_or_in_part_is_shown_privately(tmp_path):
    async with running(tmp_path, [ANN, BOB]) as (h, channel, _):
        _game_id, thread = await open_game(h, channel, [ANN, BOB], "base")
        sizes = []
        for around in (None, "nw", "0,0", "zz"):
            answer = await h.slash(BOB, thread, "carc board", **({"around": around} if around else {}))
            reply = private_reply(h, answer)
            sizes.append([a["size"] for a in reply["attachments"]])
        assert all(s and s[0] > 1000 for s in sizes[:3]) and sizes[3] == []  # "zz" is no cell: a clear refusal
        clean(h)


async def test_from_a_dm_no_game_or_league_command_is_offered_or_answered(tmp_path):
    async with running(tmp_path, [ANN, BOB]) as (h, channel, _):
        game_id, thread = await open_game(h, channel, [ANN, BOB], "base")
        await h.slash(ANN, channel, "league create", name="Friday")
        dm = h.dm_channel(BOB)
        calls = {
            "carc new": {}, "carc place": {"cell": "A", "game": game_id}, "carc board": {"game": game_id},
            "carc score": {"game": game_id}, "carc tiles": {"game": game_id}, "carc rules": {},
            "carc export": {"game": game_id}, "carc games": {}, "carc resign": {"game": game_id},
            "carc settings": {"dm": True}, "carc abort": {"game": game_id},
            "carc kick": {"player": ANN, "game": game_id}, "league create": {"name": "Mine"},
            "league join": {"name": "Friday"}, "league standings": {"name": "Friday"},
            "league play": {"name": "Friday"}, "league history": {"name": "Friday"},
        }  # fmt: skip
        before = (await h.bot.service.turn(await any_of(h.bot.service, game_id), game_id)).version
        for path, options in calls.items():
            answer = await h.slash(BOB, dm, path, **options)
            reply = h.fake.messages[answer.interaction.original]
            assert "not in direct messages" in reply["content"], (path, reply["content"])
            assert reply["flags"] & 64 and not reply.get("attachments"), path
            assert answer.public == [], path
        assert h.fake.offered_in_dms == set()  # Discord lists neither /carc nor /league in a DM
        assert (await h.bot.service.turn(await any_of(h.bot.service, game_id), game_id)).version == before
        store = h.bot.service.store
        rows = await store.get_games(await store.game_ids())
        assert [r.id for r in rows] == [game_id]  # nothing was opened from the DM
        clean(h)


async def test_another_servers_lobby_and_turn_buttons_reach_nothing(tmp_path):
    async with running(tmp_path, [ANN, BOB], second_guild=[EVE]) as (h, channel, other):
        answer = await h.slash(ANN, channel, "carc new", sets="base,castles", castles="chosen")
        lobby = answer.public[-1]
        game_id = int(lobby["components"][0]["components"][0]["custom_id"].split(":")[2])
        forged = {**lobby, "channel_id": str(other)}  # the same custom ids, clicked in another server
        for label in ("Join", "Leave", "Start"):
            answer = await h.click(EVE, forged, label)
            assert f"no game #{game_id} in this server" in answer.text, label
        for part, values in (("carc:sets:", ["base"]), ("carc:pick:", ["castles.eltz"]), ("carc:opts:", ["lang:fr"]),
                             ("carc:addai:", ["hard"]), ("carc:opts:", ["opt:castles:dealt"])):  # fmt: skip
            answer = await h.select(EVE, forged, part, values)
            assert f"no game #{game_id} in this server" in answer.text, part
        row = await h.bot.service.lobby(await any_of(h.bot.service, game_id), game_id)
        assert [s.user_id for s in row.seats] == [str(ANN.id)] and row.options["sets"] == ["base", "castles"]
        plain = (await h.slash(ANN, channel, "carc new", sets="base")).public[-1]  # room for the clock menu
        plain_id = int(plain["components"][0]["components"][0]["custom_id"].split(":")[2])
        answer = await h.select(EVE, {**plain, "channel_id": str(other)}, "carc:clock:", ["15m+30s"])
        assert f"no game #{plain_id} in this server" in answer.text
        answer = await h.select(BOB, plain, "carc:clock:", ["15m+30s"])  # not the lobby's creator
        assert "only the player who opened the lobby" in answer.text
        row = await h.bot.service.lobby(await any_of(h.bot.service, plain_id), plain_id)
        assert row.options["time_control"] == "per-turn"
        game_id, thread = await open_game(h, channel, [ANN, BOB], "base")
        post = turn_message(h, thread)
        answer = await h.click(EVE, {**post, "channel_id": str(other)}, "Take turn")
        assert f"no game #{game_id} in this server" in answer.text
        assert answer.public == []
        clean(h)


async def test_every_carc_component_id_gets_a_kind_answer_forged_ones_included(tmp_path):
    """A button whose custom id no component of this release takes (an old release's, or forged)
    is answered privately, never left to Discord's "This interaction failed"."""
    async with running(tmp_path, [ANN, BOB]) as (h, channel, _other):
        answer = await h.slash(ANN, channel, "carc new", sets="base")
        lobby = answer.public[-1]
        for custom_id in ("carc:nope", "carc:lobby:12:join:extra", "carc:turn:x:1", "carc:" + "9" * 90, "carc:"):
            forged = {**lobby, "components": [{"type": 1, "components": [
                {"type": 2, "custom_id": custom_id, "label": "Forged", "style": 1}]}]}  # fmt: skip
            answer = await h.click(BOB, forged, custom_id)
            assert answer.private and "older version of the bot" in answer.private[-1]["content"], custom_id
            assert answer.public == []
        clean(h)
