"""Whole games on Discord, through discord.py's real request path and the fake Discord API.

Players press the buttons and pick from the menus the bot actually sent, choosing
at random (never always the first or last option), or type ``/carc place`` from
the autocomplete's suggestions, until the game ends; every set family, with and
without computer seats. Discord's rules are checked on every request: a test
passes only with zero violations and zero errors logged.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine.catalog import SET_TILES
from tests.discord_api import Answer, Harness, User, components_of, running
from tests.families import RIVERS, WHEEL
from tests.helpers import SYSTEM, any_of, anyone, as_  # noqa: F401

FAMILIES = {"base": "base", "rivers": ",".join(RIVERS), "wheel": ",".join(WHEEL)}
PANEL_ACT = re.compile(r"^carc:p[bs]:\d+:\d+:[0-9.]*:(?P<act>[a-z]\d*)$")


def clean(h: Harness) -> None:
    assert h.fake.violations == []
    assert h.fake.unhandled == []
    assert [r.getMessage() for r in h.errors.records] == []


# The words the tests look for, in each language the bot speaks.
WORDS = {
    "en": {"join": "Join", "start": "Start", "started": "has started",
           "take": "Take turn", "played": "Played", "made": "This decision has been made", "final": "Final scores"},
    "fr": {"join": "Rejoindre", "start": "Commencer", "started": "a commencé",
           "take": "Jouer mon tour", "played": "Joué", "made": "Cette décision a déjà été prise",
           "final": "Scores finaux"},
}  # fmt: skip


async def open_game(
    h: Harness, channel: int, users: list[User], sets: str, computers: int = 0, lobby_language: str = "en"
) -> tuple[int, int]:
    """A lobby opened, joined and started through the buttons (labelled in the game's language):
    (game id, thread id)."""
    words = WORDS[lobby_language]
    answer = await h.slash(users[0], channel, "carc new", sets=sets, players=len(users) + computers)
    lobby = answer.public[-1]
    for user in users[1:]:
        await h.click(user, h.fake.messages[int(lobby["id"])], words["join"])
    for _ in range(computers):  # the lobby's menu: a computer of the normal level
        await h.select(users[0], h.fake.messages[int(lobby["id"])], "carc:addai:", ["normal"])
    started = await h.click(users[0], h.fake.messages[int(lobby["id"])], words["start"])
    assert WORDS[users[0].locale[:2] if users[0].locale[:2] in WORDS else "en"]["started"] in started.text
    game_id = int(re.search(r"(?:#|n°)(\d+)", started.text)[1])  # type: ignore[index]
    thread = h.fake.threads_from[int(lobby["id"])]
    return game_id, thread


def turn_message(h: Harness, thread: int) -> dict[str, Any]:
    for message in reversed(h.messages_in(thread)):
        if any(str(c.get("custom_id", "")).startswith("carc:turn:") for c in components_of(message)):
            return message
    raise AssertionError("no turn message with a Take turn button")


async def actor(h: Harness, game_id: int, users: list[User]) -> User | None:
    view = await h.bot.service.turn(await any_of(h.bot.service, game_id), game_id)
    if view.finished:
        return None
    return next(u for u in users if str(u.id) == view.user_id)


async def finish_in_panel(h: Harness, user: User, panel: dict[str, Any], rng: random.Random) -> int:
    """Answer a panel's questions at random until the decision is played; returns the clicks.
    The panel speaks the user's language."""
    words = WORDS.get(user.locale[:2], WORDS["en"])
    for clicks in range(60):
        panel = h.fake.messages[int(panel["id"])]
        if panel["content"].startswith(words["played"]):
            return clicks
        assert not panel["content"].startswith(words["made"]), panel["content"]
        choices: list[tuple[str, str | None]] = []  # (custom id, select value)
        for c in components_of(panel):
            if c["type"] == 3:
                choices += [(c["custom_id"], o["value"]) for o in c["options"]]
            else:
                act = PANEL_ACT.match(c["custom_id"])["act"]  # type: ignore[index]
                if act != "b" or rng.random() < 0.05:  # now and then a player takes a choice back
                    choices.append((c["custom_id"], None))
        assert choices, panel
        custom_id, value = rng.choice(choices)
        answer: Answer = (
            await h.select(user, panel, custom_id, [value]) if value else await h.click(user, panel, custom_id)
        )
        assert answer.response_type == 6  # the panel updates in place, never a public "thinking"
    raise AssertionError("the panel never finished the decision")


async def play_by_panel(
    h: Harness, game_id: int, thread: int, users: list[User], seed: int, game_language: str = "en"
) -> list[int]:
    """Everyone plays through the Take turn button until the end: interactions per decision."""
    rng = random.Random(seed)
    per_decision = []
    while (user := await actor(h, game_id, users)) is not None:
        answer = await h.click(user, turn_message(h, thread), WORDS[game_language]["take"])
        assert answer.response_type == 5 and answer.private, answer.text
        panel = answer.private[-1]
        per_decision.append(1 + await finish_in_panel(h, user, panel, rng))
    return per_decision


async def assert_final_pictures(h: Harness, game_id: int, final: dict[str, Any]) -> None:
    """The final post: the final board, the story, the replay; and the board in quarters when it is
    too big to read whole on a phone (tiles >= 40 px at 400 px wide)."""
    from renderer.jobs import PIECES_FROM

    _row, game = await h.bot.service.game(await any_of(h.bot.service, game_id), game_id)
    cells = [c for p in game.board.placements for c in p.cells]
    span = max(max(x for x, _ in cells) - min(x for x, _ in cells), max(y for _, y in cells) - min(y for _, y in cells))
    quarters = {f"final-{q}.png" for q in ("nw", "ne", "sw", "se")} if span + 1 > PIECES_FROM else set()
    names = [a["filename"] for a in final["attachments"]]
    record = f"carcassonne-{game_id}.json"
    assert names[:2] == ["final.png", "story.png"] and names[-2:] == ["replay.gif", record]
    assert set(names) == {"final.png", "story.png", "replay.gif", record} | quarters
    assert f"python -m engine.replay {record}" in final["content"]


# Every family with two players, and three players with a computer on base; the expansion families'
# four-seat games are soak runs (about a minute each: the longest tests), and the rivers' one runs in
# the default suite on PostgreSQL below.
PANEL_GAMES = [(family, 2, 0) for family in FAMILIES] + [
    pytest.param(family, 3, 1, marks=[pytest.mark.slow] if family != "base" else []) for family in FAMILIES
]


@pytest.mark.parametrize("family,humans,computers", PANEL_GAMES)
async def test_whole_games_through_the_turn_panel(tmp_path, family, humans, computers):
    users = [User(600 + i, name, manager=i == 0) for i, name in enumerate(["Ann", "Bob", "Cy", "Di", "Ed"][:humans])]
    async with running(tmp_path, users) as (h, channel, _):
        game_id, thread = await open_game(h, channel, users, FAMILIES[family], computers)
        clicks = await play_by_panel(h, game_id, thread, users, seed=humans * 7 + len(family))
        final = h.messages_in(thread)[-1]
        assert "Final scores" in final["content"]
        await assert_final_pictures(h, game_id, final)
        assert clicks and sorted(clicks)[len(clicks) // 2] <= 4  # a normal turn: at most 4 interactions
        clean(h)


async def test_a_whole_game_through_the_turn_panel_on_postgresql(tmp_path, postgres):
    """The bot's whole request path over the shared backend: every expansion of the river family,
    three humans and a computer, to the end."""
    users = [User(650 + i, name, manager=i == 0) for i, name in enumerate(["Ann", "Bob", "Cy"])]
    async with running(tmp_path, users, database=postgres.new_database()) as (h, channel, _):
        assert h.bot.service.store.shared
        game_id, thread = await open_game(h, channel, users, FAMILIES["rivers"], 1)
        await play_by_panel(h, game_id, thread, users, seed=31)
        final = h.messages_in(thread)[-1]
        assert "Final scores" in final["content"]
        await assert_final_pictures(h, game_id, final)
        clean(h)


async def play_by_command(h: Harness, game_id: int, thread: int, users: list[User], seed: int) -> None:
    """Everyone plays with /carc place from the autocomplete's suggestions (spots by number or
    "none"); what the command leaves open (a ferry, a plague answer, a castle) goes through the panel."""
    rng = random.Random(seed)
    while (user := await actor(h, game_id, users)) is not None:
        view = await h.bot.service.turn(await any_of(h.bot.service, game_id), game_id)
        if view.step != "tile":
            answer = await h.click(user, turn_message(h, thread), "Take turn")
            await finish_in_panel(h, user, answer.private[-1], rng)
            continue
        cells = await h.autocomplete(user, thread, "carc place", "cell", cell="")
        assert 1 <= len(cells) <= 25
        cell = rng.choice(cells)["value"]
        rots = await h.autocomplete(user, thread, "carc place", "rot", cell=cell, rot=0)
        rot = rng.choice(rots)["value"]
        spots = await h.autocomplete(user, thread, "carc place", "spot", cell=cell, rot=rot, spot="")
        options: dict[str, Any] = {"cell": cell, "rot": rot}
        if spots and rng.random() < 0.8:
            options["spot"] = rng.choice(spots)["value"]
        answer = await h.slash(user, thread, "carc place", **options)
        reply = h.fake.messages[answer.interaction.original]  # type: ignore[index]
        assert answer.response_type == 5 and reply["flags"] & 64, reply  # answered privately
        if not reply["content"].startswith("Played"):
            await finish_in_panel(h, user, reply, rng)


@pytest.mark.parametrize("family", list(FAMILIES))
async def test_whole_games_through_carc_place(tmp_path, family):
    users = [User(700, "Ann"), User(701, "Bob")]
    async with running(tmp_path, users) as (h, channel, _):
        game_id, thread = await open_game(h, channel, users, FAMILIES[family], computers=1)
        await play_by_command(h, game_id, thread, users, seed=len(family))
        assert "Final scores" in h.messages_in(thread)[-1]["content"]
        clean(h)


async def test_carc_tiles_shows_the_bag_as_a_picture_privately(tmp_path):
    ann, bob = User(760, "Ann"), User(761, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        game_id, thread = await open_game(h, channel, [ann, bob], "base,toll")
        answer = await h.slash(bob, thread, "carc tiles")
        reply = h.fake.messages[answer.interaction.original]  # type: ignore[index]
        assert reply["flags"] & 64 and re.match(r"\d+ tiles left: ", reply["content"])
        assert [a["filename"] for a in reply["attachments"]] == ["tiles.png"]
        clean(h)


async def test_carc_hint_answers_privately_where_the_lobby_allows_it(tmp_path):
    ann, bob = User(720, "Ann"), User(721, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        answer = await h.slash(ann, channel, "carc new", sets="base", players=2, hints=True)
        lobby = answer.public[-1]
        assert any(f["name"] == "Hints" for f in lobby["embeds"][0]["fields"])
        await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
        started = await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
        game_id = int(re.search(r"#(\d+)", started.text)[1])  # type: ignore[index]
        thread = h.fake.threads_from[int(lobby["id"])]
        mover = await actor(h, game_id, [ann, bob])
        other = bob if mover is ann else ann
        answer = await h.slash(mover, thread, "carc hint")
        reply = h.fake.messages[answer.interaction.original]  # type: ignore[index]
        assert reply["flags"] & 64 and reply["content"].startswith(f"Hint for game #{game_id}, turn 1: "), reply
        assert "°" in reply["content"] and "two turns from now" in reply["content"]
        answer = await h.slash(other, thread, "carc hint")
        reply = h.fake.messages[answer.interaction.original]  # type: ignore[index]
        assert reply["flags"] & 64 and "it is not your turn" in reply["content"]
        clean(h)


async def test_the_metrics_endpoint_counts_interactions_games_and_decisions(tmp_path, monkeypatch):
    import asyncio
    import socket
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("METRICS_PORT", str(port))
    users = [User(730, "Ann"), User(731, "Bob")]
    async with running(tmp_path, users) as (h, channel, _):
        game_id, thread = await open_game(h, channel, users, "base")
        await play_by_panel(h, game_id, thread, users, seed=3)
        await h.bot.service.tick()  # the clock counts the games being played

        def scrape() -> str:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
                return answer.read().decode()

        text = await asyncio.to_thread(scrape)
        counted = dict(
            line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#")
        )  # fmt: skip
        assert float(counted['carc_interaction_seconds_count{kind="command"}']) >= 1  # /carc new
        assert float(counted['carc_interaction_seconds_count{kind="component"}']) >= 10  # joins, panels
        assert float(counted["carc_decisions_total"]) >= 30  # a whole game's decisions
        assert counted["carc_active_games"] == "0.0"  # it ended
        assert counted["carc_workers_alive"] == "1.0"
        clean(h)


async def test_carc_forget_me_explains_then_removes_privately(tmp_path):
    ann, bob = User(740, "Ann"), User(741, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        await open_game(h, channel, [ann, bob], "base")
        await h.slash(ann, channel, "carc settings", dm=True)
        answer = await h.slash(ann, channel, "carc forget-me")
        assert answer.private and "confirm:True" in answer.text and answer.public == []
        assert (await h.bot.service.player_settings(as_(str(ann.id))))["dm_turns"] is True  # nothing yet
        answer = await h.slash(ann, channel, "carc forget-me", confirm=True)
        reply = h.fake.messages[answer.interaction.original]  # type: ignore[index]
        assert reply["flags"] & 64 and "removed from 1 game" in reply["content"]
        assert (await h.bot.service.player_settings(as_(str(ann.id))))["dm_turns"] is False
        clean(h)


async def test_the_final_post_offers_a_rematch_that_opens_a_seated_lobby(tmp_path):
    ann, bob = User(750, "Ann"), User(751, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        game_id, thread = await open_game(h, channel, [ann, bob], "base")
        await play_by_panel(h, game_id, thread, [ann, bob], seed=5)
        final = h.messages_in(thread)[-1]
        assert "Final scores" in final["content"]
        answer = await h.slash(ann, thread, "carc tiles")  # the game is over: an empty bag, no picture
        reply = h.fake.messages[answer.interaction.original]  # type: ignore[index]
        assert reply["flags"] & 64 and reply["content"].startswith("0 tiles left") and not reply["attachments"]
        answer = await h.slash(ann, thread, "carc stats", player=bob)  # the game just played counts
        reply = h.fake.messages[answer.interaction.original]  # type: ignore[index]
        assert reply["flags"] & 64 and "**Bob**: 1 game," in reply["content"], reply["content"]
        assert "Points by kind, latest game: " in reply["content"]
        answer = await h.click(bob, final, "Rematch")
        assert answer.private and "Rematch: lobby #" in answer.text
        assert [m["channel_id"] for m in answer.public] == [str(channel)]  # where the first lobby was
        lobby = h.messages_in(channel)[-1]
        new_id = int(re.search(r"lobby #(\d+)", answer.text)[1])  # type: ignore[index]
        assert f"#{new_id}" in lobby["embeds"][0]["title"]
        row = await h.bot.service.lobby(await any_of(h.bot.service, new_id), new_id)
        assert {s.user_id for s in row.seats} == {str(ann.id), str(bob.id)} and row.creator_id == str(bob.id)
        again = await h.click(ann, final, "Rematch")
        assert "has already been opened" in again.text
        started = await h.click(bob, lobby, "Start")
        assert "has started" in started.text
        clean(h)


async def test_carc_vacation_answers_privately(tmp_path):
    ann = User(770, "Ann")
    async with running(tmp_path, [ann]) as (h, channel, _):
        answer = await h.slash(ann, channel, "carc vacation", days=3)
        assert answer.private and "You are on vacation until <t:" in answer.text and answer.public == []
        answer = await h.slash(ann, channel, "carc vacation", days=3)
        assert "already on vacation" in answer.text
        answer = await h.slash(ann, channel, "carc vacation", days=0)
        assert "Welcome back" in answer.text
        clean(h)


async def test_a_vacation_pauses_two_games_and_the_others_are_told(tmp_path):
    from datetime import timedelta

    ann, bob = User(772, "Ann"), User(773, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        service = h.bot.service
        games = []
        for _n in range(2):
            answer = await h.slash(ann, channel, "carc new", sets="base", players=2, turn_hours=24)
            lobby = answer.public[-1]
            await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
            await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
            thread = h.fake.threads_from[int(lobby["id"])]
            game_id = await service.store.game_id_by_thread(str(thread))
            if (await actor(h, game_id, [ann, bob])) is bob:  # Bob plays: the game waits for Ann
                rng = random.Random(game_id)
                answer = await h.click(bob, turn_message(h, thread), "Take turn")
                await finish_in_panel(h, bob, answer.private[-1], rng)
            assert (await actor(h, game_id, [ann, bob])) is ann
            games.append((game_id, thread))
        answer = await h.slash(ann, channel, "carc vacation", days=3)
        assert answer.private
        for _game_id, thread in games:  # the others see why the game waits
            assert "Ann is on vacation until <t:" in h.messages_in(thread)[-1]["content"]
        real = service.clock
        service.clock = service.log.clock = lambda: real() + timedelta(days=2)  # past both turns' deadlines
        await h.bot.get_cog("Play").deadlines()
        for game_id, thread in games:
            assert "ran out of time" not in h.messages_in(thread)[-1]["content"]
            assert (await actor(h, game_id, [ann, bob])) is ann  # nobody played Ann's turn
        service.clock = service.log.clock = lambda: real() + timedelta(days=3, hours=23)  # back 23 h ago
        await h.bot.get_cog("Play").deadlines()
        for game_id, _thread in games:  # the turn started over at the return: a day to play, not 0
            view = await service.turn(await any_of(service, game_id), game_id)
            assert view.user_id == str(ann.id) and view.deadline > service.clock()
        clean(h)


@pytest.mark.parametrize("policy", ["skip", "computer", "forfeit"])
async def test_a_time_bank_game_shows_the_clocks_and_rules_a_player_out_of_time(tmp_path, policy):
    """The time control is chosen in the lobby's menu; every turn post shows each player's bank
    (its text and the picture's legend); a player whose bank runs out is reminded once, then the
    game's policy plays or forfeits their turn, and the next turn is posted."""
    from datetime import timedelta

    ann, bob = User(780, "Ann"), User(781, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        for user in (ann, bob):  # turn DMs on: the reminder comes by DM too
            await h.slash(user, channel, "carc settings", dm=True)
        answer = await h.slash(ann, channel, "carc new", sets="base", players=2, timeout=policy)
        lobby = answer.public[-1]
        await h.select(ann, h.fake.messages[int(lobby["id"])], "carc:clock:", ["1d+18h cap 3d"])
        embed = h.fake.messages[int(lobby["id"])]["embeds"][0]
        bank = next(f for f in embed["fields"] if f["name"] == "Time bank")
        assert bank["value"].startswith("1d to start, +18h a turn, at most 3d")
        await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
        await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
        thread = h.fake.threads_from[int(lobby["id"])]
        game_id = await h.bot.service.store.game_id_by_thread(str(thread))
        post = turn_message(h, thread)
        first = next(u for u in (ann, bob) if f"<@{u.id}>" in post["content"].split("**Turn 1**")[1])
        other = bob if first is ann else ann
        # the bank of the player to move runs down (a second or so already), the other's is whole
        assert re.search(rf"\n⏱ 🟥 {first.name} 23h 59m · 🟦 {other.name} 1d$", post["content"]), post["content"]
        assert "Time bank runs out <t:" in post["content"]
        assert post["attachments"]  # the picture, whose legend carries the banks too
        late = await actor(h, game_id, [ann, bob])
        service = h.bot.service
        real = service.clock
        service.clock = service.log.clock = lambda: real() + timedelta(hours=19)  # 19 of 24 hours
        dms_before = len(h.fake.dms.get(late.id, []))
        await h.bot.get_cog("Play").deadlines()
        assert "time bank in game" in h.messages_in(thread)[-1]["content"]
        reminders = h.fake.dms[late.id][dms_before:]
        assert [("time bank in game" in m["content"]) for m in reminders] == [True]  # once, by DM as well
        service.clock = service.log.clock = lambda: real() + timedelta(hours=25)
        await h.bot.get_cog("Play").deadlines()
        post = h.messages_in(thread)[-1]
        said = {"skip": "was played automatically", "computer": "a computer (normal level)", "forfeit": "forfeits"}
        assert "ran out of time" in post["content"] and said[policy] in post["content"]
        view = await service.turn(await any_of(service, game_id), game_id)
        if policy == "forfeit":
            assert view.finished or view.user_id != str(late.id)
        else:
            nxt = await actor(h, game_id, [ann, bob])
            assert nxt is not late and any("carc:turn:" in c["custom_id"] for c in components_of(post))
            assert view.clocks[late.name] == 18 * 3600  # empty, then one increment
        clean(h)


async def test_castles_chosen_in_the_lobby_through_its_generic_menu(tmp_path):
    """An expansion's lobby option rendered from what it declares: the lobby message says how castles
    come, each player picks theirs in the menu (an old message's castles menu still works), and the
    game starts with those hands."""
    ann, bob = User(790, "Ann"), User(791, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        answer = await h.slash(ann, channel, "carc new", sets="base,castles", players=2, castles="chosen")
        lobby = answer.public[-1]
        game_id = int(lobby["embeds"][0]["title"].split("#")[1])
        await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
        await h.select(ann, h.fake.messages[int(lobby["id"])], f"carc:pick:{game_id}:castles",
                       ["castles.eltz", "castles.rieneck"])  # fmt: skip
        fields = {f["name"]: f["value"] for f in h.fake.messages[int(lobby["id"])]["embeds"][0]["fields"]}
        picked = fields["Castles (chosen in the lobby)"].splitlines()
        assert picked[0].startswith("Ann: ") and ", " in picked[0] and picked[1] == "Bob: —"
        answer = await h.select(bob, h.fake.messages[int(lobby["id"])], f"carc:pick:{game_id}:castles",
                                ["castles.eltz"])  # fmt: skip
        assert "already chosen by another player" in answer.text
        # A lobby message posted before the menus were generic carries carc:castles:<game>.
        old = {**h.fake.messages[int(lobby["id"])]}
        old["components"] = [{"type": 1, "components": [{
            "type": 3, "custom_id": f"carc:castles:{game_id}", "options": [
                {"label": "Wartburg", "value": "castles.wartburg"}, {"label": "Bentheim", "value": "castles.bentheim"}],
            "min_values": 1, "max_values": 2}]}]  # fmt: skip
        await h.select(bob, old, f"carc:castles:{game_id}", ["castles.wartburg", "castles.bentheim"])
        started = await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
        assert "has started" in started.text, started.text
        _row, game = await h.bot.service.game(await any_of(h.bot.service, game_id), game_id)
        assert game.to_json()["castles"] == {
            "Ann": ["castles.eltz", "castles.rieneck"], "Bob": ["castles.wartburg", "castles.bentheim"]
        }
        clean(h)


async def test_a_turn_timed_out_by_a_process_that_died_is_posted_once_by_the_next_tick(tmp_path):
    """Another process over the same database times a turn out and dies before posting it: the
    bot's next tick posts it in the game's thread, once; the same notice sent again (a process
    killed between its post and marking it posted) carries the same nonce, and Discord keeps one."""
    from datetime import timedelta

    from cogs.common import table_of
    from service import GameService

    ann, bob = User(790, "Ann"), User(791, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        answer = await h.slash(ann, channel, "carc new", sets="base", players=2, turn_hours=24)
        lobby = answer.public[-1]
        await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
        await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
        thread = h.fake.threads_from[int(lobby["id"])]
        service = h.bot.service
        real = service.clock
        dead = GameService(service.store, clock=lambda: real() + timedelta(hours=25))
        notices = await dead.tick()  # committed with its notice, then the process died: nothing posted
        assert [n.kind for n in notices] == ["timeout"]
        before = len(h.messages_in(thread))
        service.clock = service.log.clock = lambda: real() + timedelta(hours=25, minutes=1)
        await h.bot.get_cog("Play").deadlines()
        posts = h.messages_in(thread)[before:]
        assert len(posts) == 1 and "ran out of time" in posts[0]["content"], posts
        await table_of(h.bot).post_notice(notices[0])  # sent again: the same nonce
        assert len(h.messages_in(thread)) == before + 1
        await h.bot.get_cog("Play").deadlines()
        assert len(h.messages_in(thread)) == before + 1  # marked posted: never again


async def test_a_turn_played_whose_post_never_went_out_is_posted_by_the_clock_once(tmp_path):
    """A turn played through the panel is posted and marked: no later tick posts it again. A turn
    played by a process that died before posting it (committed with its notice) is posted by the
    clock once the player's hold is over, once, with the computer's reply when there is one."""
    from datetime import timedelta

    from engine.ai import computer_moves
    from service import GameService
    from service.core import PLAYED_HOLD

    ann, bob = User(794, "Ann"), User(795, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        answer = await h.slash(ann, channel, "carc new", sets="base", players=2, turn_hours=24)
        lobby = answer.public[-1]
        await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
        await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
        thread = h.fake.threads_from[int(lobby["id"])]
        service = h.bot.service
        game_id = await service.store.game_id_by_thread(str(thread))
        mover = await actor(h, game_id, [ann, bob])
        answer = await h.click(mover, turn_message(h, thread), "Take turn")
        await finish_in_panel(h, mover, answer.private[-1], random.Random(3))
        assert await service.store.unposted() == 0  # posted, and marked
        posts = len(h.messages_in(thread))
        dead = GameService(service.store, clock=service.clock)  # another process, about to die
        dead.outbox_turns = True
        who = await any_of(service, game_id)
        view = await dead.turn(who, game_id)
        _row, game = await dead.game(who, game_id)
        player = as_(view.user_id, who.guild_id)
        await dead.play(player, game_id, computer_moves(game.clone(), None), view.version)
        assert len(h.messages_in(thread)) == posts and await service.store.unposted() == 1
        real = service.clock
        service.clock = service.log.clock = lambda: real() + PLAYED_HOLD + timedelta(seconds=5)
        await h.bot.get_cog("Play").deadlines()
        new = h.messages_in(thread)[posts:]
        assert len(new) == 1 and turn_message(h, thread) is new[0]  # the next turn, with its button
        await h.bot.get_cog("Play").deadlines()
        assert len(h.messages_in(thread)) == posts + 1 and await service.store.unposted() == 0
        clean(h)


async def test_carc_resign_in_a_duel_posts_the_final_result_at_once(tmp_path):
    ann, bob = User(796, "Ann"), User(797, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        answer = await h.slash(ann, channel, "carc new", sets="base", players=2)
        lobby = answer.public[-1]
        await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
        await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
        thread = h.fake.threads_from[int(lobby["id"])]
        answer = await h.slash(bob, thread, "carc resign")
        assert answer.private and "You left game" in answer.private[-1]["content"]
        final = h.messages_in(thread)[-1]
        assert "Bob resigned: game #" in final["content"] and "Ann wins." in final["content"], final["content"]
        assert "Final scores" in final["content"]
        clean(h)


async def test_every_lobby_setting_has_a_control_whatever_the_sets(tmp_path):
    """/carc new sets:base castles:chosen, then Castles added in the lobby: the castles are chosen
    (the pick menu shows); dealt or chosen can be switched in the lobby; with the pick menu the
    language and the time control are still there (in one options menu); never more than
    Discord's five rows."""
    ann, bob = User(798, "Ann"), User(799, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        answer = await h.slash(ann, channel, "carc new", sets="base", castles="chosen")
        lobby_id = int(answer.public[-1]["id"])  # the lobby message
        game_id = int(answer.public[-1]["components"][0]["components"][0]["custom_id"].split(":")[2])
        await h.select(ann, h.fake.messages[lobby_id], "carc:sets:", ["base", "castles"])
        message = h.fake.messages[lobby_id]
        ids = [c["custom_id"] for c in components_of(message)]
        assert any(i.startswith("carc:pick:") for i in ids), ids  # chosen, as /carc new said
        assert len(message["components"]) <= 5
        menu = next(c for c in components_of(message) if c["custom_id"].startswith("carc:opts:"))
        values = [o["value"] for o in menu["options"]]
        assert "opt:castles:dealt" in values and any(v.startswith("clock:") for v in values)
        assert any(v.startswith("lang:") for v in values)
        await h.select(ann, message, "carc:opts:", ["clock:15m+30s"])
        service = h.bot.service
        row = await service.lobby(await any_of(service, game_id), game_id)
        assert row.options["time_control"] == "15m+30s" and row.options["castles"] == "chosen"
        await h.select(ann, h.fake.messages[lobby_id], "carc:opts:", ["opt:castles:dealt"])
        row = await service.lobby(await any_of(service, game_id), game_id)
        assert row.options["castles"] == "dealt"
        ids = [c["custom_id"] for c in components_of(h.fake.messages[lobby_id])]
        assert not any(i.startswith("carc:pick:") for i in ids)  # dealt: nothing to pick
        menu = next(c for c in components_of(h.fake.messages[lobby_id]) if c["custom_id"].startswith("carc:opts:"))
        values = [o["value"] for o in menu["options"]]
        assert "opt:castles:chosen" in values and "clock:3d+12h cap 5d" in values and "lang:fr" in values
        refused = await h.select(bob, h.fake.messages[lobby_id], "carc:opts:", ["opt:castles:chosen"])
        assert "only the player who opened the lobby" in refused.text
        for sets in (["base"], ["base", "castles"], list(SET_TILES)):  # any sets: five rows at most
            await h.select(ann, h.fake.messages[lobby_id], "carc:sets:", sets)
            assert len(h.fake.messages[lobby_id]["components"]) <= 5, sets
        clean(h)


async def test_a_resignation_whose_post_never_went_out_is_posted_by_the_clock_once(tmp_path):
    """/carc resign posts the result and marks it; a resignation made by a process that died
    before posting it is posted by the clock once the hold is over, once."""
    from datetime import timedelta

    from service import GameService
    from service.core import PLAYED_HOLD

    ann, bob, cy = User(800, "Ann"), User(801, "Bob"), User(802, "Cy")
    async with running(tmp_path, [ann, bob, cy]) as (h, channel, _):
        service = h.bot.service
        threads = []
        for players in ([ann, bob], [ann, cy]):
            answer = await h.slash(ann, channel, "carc new", sets="base", players=2)
            lobby = answer.public[-1]
            await h.click(players[1], h.fake.messages[int(lobby["id"])], "Join")
            await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
            threads.append(h.fake.threads_from[int(lobby["id"])])
        await h.slash(bob, threads[0], "carc resign")
        assert "Bob resigned" in h.messages_in(threads[0])[-1]["content"] and await service.store.unposted() == 0
        game_id = await service.store.game_id_by_thread(str(threads[1]))
        posts = len(h.messages_in(threads[1]))
        dead = GameService(service.store, clock=service.clock)
        dead.outbox_turns = True
        who = await any_of(service, game_id)
        said = await dead.resign(as_(str(cy.id), who.guild_id), game_id)
        assert said.outbox and len(h.messages_in(threads[1])) == posts
        real = service.clock
        service.clock = service.log.clock = lambda: real() + PLAYED_HOLD + timedelta(seconds=5)
        await h.bot.get_cog("Play").deadlines()
        await h.bot.get_cog("Play").deadlines()
        new = h.messages_in(threads[1])[posts:]
        assert len(new) == 1 and "Cy resigned" in new[0]["content"] and "Final scores" in new[0]["content"]
        assert await service.store.unposted() == 0
        clean(h)


async def test_a_game_whose_opening_post_never_went_out_gets_its_thread_from_the_clock_once(tmp_path):
    """The Start button opens the thread and marks the opening posted. A game started by a
    process that died before its opening post (the start committed with its notice, a computer
    who sits first has played) gets its thread from the lobby message, the seats and the first
    turn with what the computer did, from the clock once the hold is over; once."""
    from datetime import timedelta

    from service import GameService
    from service.core import PLAYED_HOLD

    ann, bob = User(803, "Ann"), User(804, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        service = h.bot.service
        answer = await h.slash(ann, channel, "carc new", sets="base", players=3)
        lobby = answer.public[-1]
        await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
        await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
        assert int(lobby["id"]) in h.fake.threads_from and await service.store.unposted() == 0
        answer = await h.slash(ann, channel, "carc new", sets="base", players=3)
        lobby = answer.public[-1]
        game_id = int(lobby["components"][0]["components"][0]["custom_id"].split(":")[2])
        await h.click(bob, h.fake.messages[int(lobby["id"])], "Join")
        who = await any_of(service, game_id)
        host = as_(str(ann.id), who.guild_id)
        await service.add_ai(host, game_id, "easy")
        seats = list((await service.lobby(who, game_id)).seats)

        def first_seat(seed):  # the start shuffles the seats with the game's seed
            order = list(seats)
            random.Random(seed).shuffle(order)
            return order[0]

        seed = next(n for n in range(1, 100) if first_seat(n).is_ai)
        await service.store.update_lobby_options(game_id, lambda options: options.update(seed=seed), service.clock())
        dead = GameService(service.store, clock=service.clock)  # another process, about to die
        dead.outbox_turns = True
        started = await dead.start(host, game_id, title="Carcassonne #opening")  # the computer plays first
        assert started.events and len(started.outbox) >= 2  # the opening, and the computer's turn
        assert int(lobby["id"]) not in h.fake.threads_from
        real = service.clock
        service.clock = service.log.clock = lambda: real() + PLAYED_HOLD + timedelta(seconds=5)
        await h.bot.get_cog("Play").deadlines()
        thread = h.fake.threads_from[int(lobby["id"])]  # from the lobby message, as the Start button does
        posts = h.messages_in(thread)
        assert f"<@{ann.id}>" in posts[0]["content"] and "starts. Seats and colours" in posts[0]["content"]
        assert turn_message(h, thread) is posts[-1] and len(posts) == 2
        await h.bot.get_cog("Play").deadlines()
        assert len(h.messages_in(thread)) == 2 and await service.store.unposted() == 0
        clean(h)
