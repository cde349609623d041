"""The Discord front end, driven offline through fakes of discord.py's objects."""

import itertools
from datetime import timedelta
from types import SimpleNamespace

import pytest

from cogs.carc import Carc
from cogs.components import LobbyButton, SetsSelect, TakeTurnButton, TurnPanel
from service import GameService
from storage import Store, open_database
from tests.discord_fakes import FakeChannel, FakeClient, FakeInteraction, FakeUser, permissions
from tests.helpers import Clock


@pytest.fixture
async def world(tmp_path):
    db = await open_database(tmp_path / "bot.db")
    clock = Clock()
    service = GameService(Store(db), clock, new_seed=itertools.count(1).__next__)
    client = FakeClient(service)
    channel = FakeChannel(client)
    users = {111: FakeUser(111, "Ann"), 222: FakeUser(222, "Bob"), 333: FakeUser(333, "Cy")}
    yield SimpleNamespace(service=service, client=client, channel=channel, cog=Carc(client), users=users, clock=clock)
    await db.close()


def act(world, user_id, **kwargs):
    return FakeInteraction(world.client, world.users[user_id], kwargs.pop("channel", world.channel), **kwargs)


def item(view, custom_id):
    return next(c for c in view.children if getattr(c, "custom_id", None) == custom_id)


async def open_lobby(world, sets="base", **options):
    i = act(world, 111)
    await Carc.new.callback(
        world.cog, i, sets=sets, players=options.get("players", 4), turn_hours=options.get("hours", 24), timeout="skip"
    )
    message = world.channel.messages[-1]
    game_id = int(message.embed.title.split("#")[1])
    return message, game_id


async def started_game(world, sets="base", ai=False):
    lobby, gid = await open_lobby(world, sets)
    await item(lobby.view, f"carc:lobby:{gid}:join").callback(act(world, 222, message=lobby))
    if ai:
        await item(lobby.view, f"carc:lobby:{gid}:ai").callback(act(world, 111, message=lobby))
    await item(lobby.view, f"carc:lobby:{gid}:start").callback(act(world, 111, message=lobby))
    thread = world.channel.threads[-1]
    return gid, thread


async def take_turn(world, thread, user_id):
    message = thread.messages[-1]
    i = act(world, user_id, channel=thread, message=message)
    await message.view.children[0].callback(i)
    return i


async def play_one_turn(world, thread, gid):
    view = await world.service.turn(gid)
    opened = await take_turn(world, thread, int(view.user_id))
    panel = opened.log[-1].view
    assert isinstance(panel, TurnPanel)

    async def click(custom_id, values=None):
        target = item(panel, custom_id)
        if values is not None:
            target._values = values
        i = act(world, int(view.user_id), channel=thread)
        await target.callback(i)
        return i

    if view.step == "tile":
        cell_select = item(panel, "panel:cell")
        await click("panel:cell", [cell_select.options[0].value])
        rot = next(c.custom_id for c in panel.children if c.custom_id.startswith("panel:rot:"))
        await click(rot)
    while not panel.ready:
        choice = item(panel, "panel:choice")
        await click("panel:choice", [choice.options[-1].value])  # the last option: pass, when offered
    return await click("panel:confirm")


async def test_lobby_to_the_end_of_a_game_through_the_panel(world):
    gid, thread = await started_game(world, "base,toll", ai=True)
    first = thread.messages[-1]
    assert f"Game #{gid} starts" in first.content and "your turn" in first.content
    assert [f.filename for f in first.files] == ["board.png", "tile.png"]
    assert first.view.children[0].custom_id.startswith(f"carc:turn:{gid}:")
    turns = 0
    while thread.messages[-1].view is not None:
        await play_one_turn(world, thread, gid)
        turns += 1
    final = thread.messages[-1]
    assert "Final scores" in final.content
    assert [f.filename for f in final.files] == ["final.png", "replay.gif"]
    assert turns > 20
    row = await world.service.lobby(gid)
    assert row.status == "finished"


async def test_lobby_buttons_and_sets_select(world):
    lobby, gid = await open_lobby(world)
    ids = [c.custom_id for c in lobby.view.children]
    assert ids == [
        f"carc:lobby:{gid}:join",
        f"carc:lobby:{gid}:leave",
        f"carc:lobby:{gid}:ai",
        f"carc:lobby:{gid}:start",
        f"carc:sets:{gid}",
    ]
    i = act(world, 111, message=lobby)
    await item(lobby.view, f"carc:lobby:{gid}:join").callback(i)
    assert i.ephemeral_texts == ["you are already in this lobby"]
    i = act(world, 222, message=lobby)
    await item(lobby.view, f"carc:lobby:{gid}:start").callback(i)
    assert "only the player who opened the lobby" in i.ephemeral_texts[0]
    select = item(lobby.view, f"carc:sets:{gid}")
    select.item._values = ["base", "wheel", "river1"]
    i = act(world, 111, message=lobby)
    await select.callback(i)
    assert "cannot be combined with a river" in i.ephemeral_texts[0]
    select.item._values = ["base", "toll"]
    i = act(world, 111, message=lobby)
    await select.callback(i)
    assert (await world.service.lobby(gid)).options["sets"] == ["base", "toll"]
    assert "Tollkeepers" in lobby.embed.fields[0].value


async def test_persistent_items_rebuild_from_their_custom_ids(world):
    match = TakeTurnButton.__discord_ui_compiled_template__.match("carc:turn:12:34")
    rebuilt = await TakeTurnButton.from_custom_id(None, None, match)
    assert (rebuilt.game_id, rebuilt.version) == (12, 34)
    match = LobbyButton.__discord_ui_compiled_template__.match("carc:lobby:7:join")
    assert (await LobbyButton.from_custom_id(None, None, match)).action == "join"
    match = SetsSelect.__discord_ui_compiled_template__.match("carc:sets:7")
    assert (await SetsSelect.from_custom_id(None, None, match)).game_id == 7


async def test_wrong_player_and_stale_buttons_get_an_ephemeral_answer(world):
    gid, thread = await started_game(world)
    view = await world.service.turn(gid)
    other = 222 if view.user_id == "111" else 111
    i = await take_turn(world, thread, other)
    assert i.ephemeral_texts[-1] == f"It is {view.player}'s turn, not yours."
    old_message = thread.messages[-1]
    await play_one_turn(world, thread, gid)
    i = act(world, other, channel=thread, message=old_message)
    await old_message.view.children[0].callback(i)
    assert "has been played" in i.ephemeral_texts[-1]


async def test_panel_refuses_someone_else_and_a_turn_played_meanwhile(world):
    gid, thread = await started_game(world)
    view = await world.service.turn(gid)
    opened = await take_turn(world, thread, int(view.user_id))
    panel = opened.log[-1].view
    intruder = act(world, 333, channel=thread)
    assert await panel.interaction_check(intruder) is False
    assert intruder.ephemeral_texts == ["This panel is someone else's."]
    # The same player plays with /carc place meanwhile; the panel's turn is gone.
    cell = sorted(view.placements)[0]
    i = act(world, int(view.user_id), channel=thread)
    await Carc.place.callback(world.cog, i, cell=f"{cell[0]},{cell[1]}", rot=view.placements[cell][0], spot=None)
    assert i.ephemeral_texts == ["Played."]
    target = item(panel, "panel:cell")
    target._values = [target.options[0].value]
    await target.callback(act(world, int(view.user_id), channel=thread))
    i = act(world, int(view.user_id), channel=thread)
    await target.callback(i)
    assert "already been played" in (i.log[-1].content or "")
    assert panel.done and panel.is_finished()


async def test_place_command_with_autocomplete(world):
    gid, thread = await started_game(world)
    view = await world.service.turn(gid)
    user = int(view.user_id)
    i = act(world, user, channel=thread)
    cells = await world.cog._cells(i, "")
    assert cells and cells[0].name.startswith("A (")
    i = act(world, user, channel=thread, namespace={"cell": cells[0].value})
    rots = await world.cog._rots(i, 0)
    assert [r.value for r in rots] == list(view.placements[tuple(map(int, cells[0].value.split(",")))])
    i = act(world, user, channel=thread, namespace={"cell": cells[0].value, "rot": rots[0].value})
    spots = await world.cog._spots(i, "")
    assert spots and any("pass" in s.name or "no figure" in s.name for s in spots)
    assert spots[0].value == "1" and spots[0].name.startswith("1. ")
    draft = [
        {
            "type": "tile",
            "x": int(cells[0].value.split(",")[0]),
            "y": int(cells[0].value.split(",")[1]),
            "rot": rots[0].value,
        }
    ]
    spots_first = dict((await world.service.options_after(gid, view.user_id, view.version, draft)).choices[0].move)
    spots_first["player"] = view.player
    i = act(world, user, channel=thread)
    await Carc.place.callback(world.cog, i, cell="A", rot=rots[0].value, spot="1")
    assert i.ephemeral_texts == ["Played."]
    assert (await world.service.turn(gid)).version == view.version + 2
    record = await world.service.export(gid)
    assert record["moves"][-1] == spots_first  # spot 1: the first follower spot, numbered as in the preview
    i = act(world, user, channel=thread)
    await Carc.place.callback(world.cog, i, cell="A", rot=0, spot=None)
    assert "not yours" in i.ephemeral_texts[0]
    i = act(world, 333, channel=world.channel)
    await Carc.place.callback(world.cog, i, cell="A", rot=0, spot=None)
    assert "Name the game" in i.ephemeral_texts[0]


async def test_information_commands(world):
    gid, thread = await started_game(world)
    i = act(world, 111, channel=thread)
    await Carc.board.callback(world.cog, i)
    assert i.log[-1].filenames == ["board.png"]
    i = act(world, 111, channel=thread)
    await Carc.score.callback(world.cog, i)
    assert "Ann" in i.log[-1].content and "followers left" in i.log[-1].content
    i = act(world, 111, channel=thread)
    await Carc.tiles.callback(world.cog, i)
    assert "tiles left" in i.log[-1].content
    i = act(world, 111)
    await Carc.rules.callback(world.cog, i, set="toll")
    assert "tollhouse" in i.log[-1].content and i.log[-1].ephemeral
    i = act(world, 111, channel=thread)
    await Carc.export.callback(world.cog, i)
    assert i.log[-1].filenames == [f"carcassonne-{gid}.json"]
    i = act(world, 111)
    await Carc.games.callback(world.cog, i)
    assert f"#{gid} active" in i.log[-1].content
    i = act(world, 111)
    await Carc.board.callback(world.cog, i, game=999)
    assert "no game #999" in i.ephemeral_texts[-1]


async def test_moderation_needs_managers(world):
    gid, thread = await started_game(world)
    turn_message = thread.messages[-1]
    i = act(world, 222, channel=thread)
    await Carc.abort.callback(world.cog, i)
    assert "only a server manager" in i.ephemeral_texts[0]
    i = act(world, 222, channel=thread)
    await Carc.kick.callback(world.cog, i, player=world.users[111])
    assert "Only server managers" in i.ephemeral_texts[0]
    i = act(world, 333, channel=thread, manager=True)
    await Carc.kick.callback(world.cog, i, player=world.users[111])
    assert "was removed" in i.log[-1].content
    i = act(world, 333, channel=thread, manager=True)
    await Carc.abort.callback(world.cog, i)
    assert "aborted" in i.log[-1].content
    assert (await world.service.lobby(gid)).status == "aborted"
    i = act(world, 222, channel=thread, message=turn_message)
    await turn_message.view.children[0].callback(i)
    assert i.ephemeral_texts[-1] == f"Game #{gid} is over."


async def test_resign_and_dm_settings(world):
    gid, thread = await started_game(world)
    i = act(world, 222)
    await Carc.settings.callback(world.cog, i, dm=True)
    assert i.ephemeral_texts == ["Turn DMs are on."]
    while (await world.service.turn(gid)).user_id != "111":
        await play_one_turn(world, thread, gid)
    await play_one_turn(world, thread, gid)  # Ann plays; Bob is told by DM too
    assert world.users[222].dms and "Your turn" in world.users[222].dms[-1]
    i = act(world, 222, channel=thread)
    await Carc.resign.callback(world.cog, i)
    assert "resigned" in i.log[-1].content
    assert (await world.service.turn(gid)).user_id == "111"


async def test_missing_permissions_are_named(world):
    i = act(world, 111, app_permissions=permissions(create_public_threads=False, attach_files=False))
    await Carc.new.callback(world.cog, i, sets="base", players=4, turn_hours=24, timeout="skip")
    assert i.ephemeral_texts == ["I need these permissions in this channel first: Create Public Threads, Attach Files."]
    assert world.channel.messages == []


async def test_bad_options_are_refused(world):
    i = act(world, 111)
    await Carc.new.callback(world.cog, i, sets="base,unicorns", players=4, turn_hours=24, timeout="skip")
    assert "unknown set 'unicorns'" in i.ephemeral_texts[0]


async def test_deadline_loop_posts_reminders_and_timeouts(world):
    world.client.service = world.service
    gid, thread = await started_game(world)
    world.cog.bot = world.client
    world.clock.now += timedelta(hours=19)
    await world.cog.deadlines.coro(world.cog)
    assert "ends in" in thread.messages[-1].content
    world.clock.now += timedelta(hours=6)
    before = len(thread.messages)
    await world.cog.deadlines.coro(world.cog)
    assert len(thread.messages) == before + 1 and "ran out of time" in thread.messages[-1].content


async def test_castles_are_picked_with_the_lobby_select(world):
    i = act(world, 111)
    await Carc.new.callback(
        world.cog, i, sets="base,castles", players=4, turn_hours=24, timeout="skip", castles="chosen"
    )
    lobby = world.channel.messages[-1]
    gid = int(lobby.embed.title.split("#")[1])
    select = item(lobby.view, f"carc:castles:{gid}")
    select.item._values = ["castles.eltz"]
    i = act(world, 222, message=lobby)
    await select.callback(i)
    assert i.ephemeral_texts == ["join the lobby first"]
    select.item._values = ["castles.eltz", "castles.rieneck"]
    await select.callback(act(world, 111, message=lobby))
    assert "Ann: Eltz, Rieneck" in lobby.embed.fields[-1].value


async def test_a_castle_holder_draws_or_places_a_castle_from_the_panel(world):
    i = act(world, 111)
    await Carc.new.callback(world.cog, i, sets="base,castles", players=2, turn_hours=24, timeout="skip")
    lobby = world.channel.messages[-1]
    gid = int(lobby.embed.title.split("#")[1])
    await item(lobby.view, f"carc:lobby:{gid}:join").callback(act(world, 222, message=lobby))
    await item(lobby.view, f"carc:lobby:{gid}:start").callback(act(world, 111, message=lobby))
    thread = world.channel.threads[-1]
    view = await world.service.turn(gid)
    assert view.step == "draw" and "draw a tile or place one of your castles" in thread.messages[-1].content
    opened = await take_turn(world, thread, int(view.user_id))
    panel = opened.log[-1].view
    ids = [c.custom_id for c in panel.children]
    assert ids[0] == "panel:draw" and all(x.startswith("panel:castle:") for x in ids[1:]) and len(ids) == 3
    user = int(view.user_id)
    await item(panel, ids[1]).callback(act(world, user, channel=thread))  # place the first castle
    cells = item(panel, "panel:cell")
    cells._values = [cells.options[0].value]
    i = act(world, user, channel=thread)
    await cells.callback(i)
    assert i.log[-1].filenames == ["preview.png"]
    rot = next(c for c in panel.children if c.custom_id.startswith("panel:rot:"))
    await rot.callback(act(world, user, channel=thread))
    while not panel.ready:
        choice = item(panel, "panel:choice")
        choice._values = [choice.options[-1].value]
        await choice.callback(act(world, user, channel=thread))
    assert "castle" in panel._content().lower()
    await item(panel, "panel:confirm").callback(act(world, user, channel=thread))
    _row, game = await world.service.game(gid)
    assert any(p.tile.id.startswith("castles.") for p in game.board.placements)
    assert len(game.state["castles"]["hands"][game.players.index(view.player)]) == 1
