"""What players are told: the computer's first turn is reported, and a decision with a single
option is made for the player and said, on every front end that goes through the service."""

from __future__ import annotations

import random

import pytest

from service import Caller, GameService, LobbyOptions, PlayResult, ServiceError
from storage import Store, open_database
from tests.helpers import as_


@pytest.fixture
async def service(tmp_path):
    db = await open_database(tmp_path / "see.db")
    yield GameService(Store(db))
    await db.close()


async def test_the_computers_first_turn_is_reported(service):
    ann = as_("u1")
    for seed in range(20):
        lobby = await service.create_lobby(ann, "Ann", LobbyOptions(seed=seed, turn_limit=0))
        await service.add_ai(ann, lobby.id, "normal")
        started = await service.start(ann, lobby.id)
        if started.events:  # the computer sat first and played
            break
    else:
        raise AssertionError("the computer never sat first")
    assert started.turn.turn == 2 and started.turn.user_id == "u1"
    placed = [e for e in started.events if e["type"] == "tile_placed"]
    assert len(placed) == 1 and placed[0]["player"] == "Bot 1 (normal)"  # its name says its level
    assert any("Bot 1 (normal)" in line for line in started.lines)


async def test_a_computer_is_named_with_its_level_in_the_games_language(service):
    ann = as_("u1")
    lobby = await service.create_lobby(ann, "Ann", LobbyOptions(language="fr", max_players=4))
    for level in ("easy", "hard", "normal"):
        lobby = await service.add_ai(ann, lobby.id, level)
    assert [s.name for s in lobby.seats] == ["Ann", "Bot 1 (facile)", "Bot 2 (difficile)", "Bot 3 (normal)"]


@pytest.mark.parametrize("sets", [["base", "castles", "ferries"], ["wheel", "castles", "ferries", "toll"]])
async def test_a_single_option_is_chosen_for_the_player_and_said(service, sets):
    """Random games through ask/pick: whenever a decision offered one option and no passing, the
    service made it, credited it to the player in the log, and said so; no question the player
    is shown ever has a single option without passing."""
    rng = random.Random(1)
    forced_lines = 0
    for seed in range(6):
        users = ["u1", "u2", "u3"]
        lobby = await service.create_lobby(as_(users[0]), "Ann", LobbyOptions(sets=sets, seed=seed, turn_limit=0))
        for n, uid in enumerate(users[1:]):
            await service.join(as_(uid), lobby.id, f"P{n}")
        view = (await service.start(as_(users[0]), lobby.id)).turn
        while not view.finished:
            who = Caller.offline(view.user_id)
            picks: list[int] = []
            while True:
                ask = await service.ask(who, lobby.id, picks, view.version)
                question = ask.question
                if question is None:
                    answer = await service.pick(who, lobby.id, picks, view.version)
                    break
                assert len(question.options) > 1 or question.pass_label is not None, question
                answer = await service.pick(who, lobby.id, [*picks, rng.randrange(len(question.moves()))], view.version)
                if isinstance(answer, PlayResult):
                    break
                picks = answer.picks
            assert isinstance(answer, PlayResult)
            for event, line in zip(
                [e for e in answer.events if e["type"] == "forced"],
                [line for line in answer.lines if "had a single choice, made for them" in line],
                strict=True,
            ):
                forced_lines += 1
                assert event["player"] in line
            view = answer.turn
    if "wheel" in sets:
        assert forced_lines > 0  # the plague with one follower standing, a castle holder who can only draw...
    logged = await service.store.moves(lobby.id)
    assert all(user in ("u1", "u2", "u3", "auto") for _seq, user, _move in logged)


def test_scoring_that_gives_nobody_a_point_is_not_announced():
    from service.announce import announce

    events = [
        {"type": "scored", "feature": "field", "points": {"Ann": 0}, "final": True, "cells": [], "x": 0, "y": 0},
        {"type": "toll", "action": "final", "player": "Ann", "points": 0},
        {"type": "toll", "action": "final", "player": "Ann", "points": 2},
    ]
    lines = announce(events)
    assert lines == ["Final scoring: Ann's tollhouse collects 2 points."]


async def test_carc_new_seats_computers_of_a_level_and_the_thread_tells_their_first_turn(tmp_path):
    from tests.discord_api import User, running
    from tests.test_discord_play import turn_message

    ann = User(700, "Ann")
    async with running(tmp_path, [ann]) as (h, channel, _):
        answer = await h.slash(ann, channel, "carc new", sets="base", players=3, computers=2, level="easy")
        lobby = answer.public[-1]
        store = h.bot.service.store
        (game_id,) = await store.game_ids()
        row = await store.get_game(game_id)
        assert [s.user_id for s in row.seats] == ["700", "ai:easy:1", "ai:easy:2"]
        await h.click(ann, h.fake.messages[int(lobby["id"])], "Start")
        thread = h.fake.threads_from[int(lobby["id"])]
        post = turn_message(h, thread)
        row = await store.get_game(game_id)
        first = row.setup["users"].index("700")  # computers seated before Ann played their turns
        assert post["content"].count("placed") >= first and "<@700>" in post["content"]
        assert not h.fake.violations


async def test_carc_place_names_a_castles_cell_as_the_turn_picture_letters_it(service):
    ann, bob = as_("u1"), as_("u2")
    lobby = await service.create_lobby(ann, "Ann", LobbyOptions(sets=["base", "castles"], seed=3, turn_limit=0))
    await service.join(bob, lobby.id, "Bob")
    view = (await service.start(ann, lobby.id)).turn
    assert view.question.kind == "draw"  # both hold castles: the first player may place one
    castles = [o.move for o in view.question.options if o.move["type"] == "castle"]
    assert castles and set(view.placements) == {(m["x"], m["y"]) for m in castles}  # lettered on the picture
    who = Caller.offline(view.user_id)
    target = castles[0]
    try:
        picks = await service.picks_for(who, lobby.id, (target["x"], target["y"]), target["rot"], None)
    except ServiceError as exc:  # both castles of the hand fit there the same way: the panel asks which
        assert "two of your castles fit there" in str(exc)
        return
    answer = await service.pick(who, lobby.id, picks, view.version)
    assert not isinstance(answer, PlayResult)  # the castle is placed on the trial; its figure is asked next
    assert answer.moves == [target] and answer.question.kind == "figure"


async def test_a_hint_only_where_the_lobby_allows_it_and_only_for_the_player_to_move(service):
    ann, bob = as_("u1"), as_("u2")
    plain = await service.create_lobby(ann, "Ann", LobbyOptions(seed=3, turn_limit=0))
    await service.join(bob, plain.id, "Bob")
    view = (await service.start(ann, plain.id)).turn
    mover = as_(view.user_id)
    with pytest.raises(ServiceError, match="hints are off in this game"):
        await service.hint(mover, plain.id)
    lobby = await service.create_lobby(ann, "Ann", LobbyOptions(seed=3, turn_limit=0, hints=True))
    await service.join(bob, lobby.id, "Bob")
    view = (await service.start(ann, lobby.id)).turn
    waiting = bob if view.user_id == "u1" else ann
    with pytest.raises(ServiceError, match="it is not your turn"):
        await service.hint(waiting, lobby.id)
    advice = await service.hint(as_(view.user_id), lobby.id)
    assert advice.version == view.version and advice.moves[0]["type"] == "tile"
    assert len(advice.labels) == len(advice.moves) and "turned" in advice.labels[0]
    played = await service.play(as_(view.user_id), lobby.id, advice.moves, view.version)  # a legal decision
    assert played.turn.user_id == waiting.user_id
