"""The service's question: whole random games played only through ask/pick (what every
front end does), for each set family, and /carc place's shortcut (picks_for)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.record import load
from service import Ask, GameService, LobbyOptions, PlayResult, ServiceError
from storage import Store, open_database
from tests.families import FAMILIES as ALL_FAMILIES
from tests.helpers import SYSTEM, Clock, anyone, as_  # noqa: F401

FAMILIES = ALL_FAMILIES


@pytest.fixture
async def service(db_url):
    db = await open_database(db_url)
    seeds = itertools.count(11)
    yield GameService(Store(db), clock=Clock(), new_seed=lambda: next(seeds))
    await db.close()


async def start(service: GameService, sets: list[str], humans: int, computers: int) -> int:
    lobby = await service.create_lobby(
        as_("u0"), "Ann", LobbyOptions(sets=sets, max_players=humans + computers, turn_limit=0)
    )
    for i in range(1, humans):
        await service.join(as_(f"u{i}"), lobby.id, f"P{i}")
    for _ in range(computers):
        await service.add_ai(as_("u0"), lobby.id)
    await service.start(as_("u0"), lobby.id)
    return lobby.id


@pytest.mark.parametrize("sets", FAMILIES, ids=lambda s: "+".join(s))
@pytest.mark.parametrize("humans,computers", [(2, 0), (3, 1), (5, 0)])
async def test_random_games_through_ask_and_pick_reach_the_end(service, sets, humans, computers):
    game_id = await start(service, sets, humans, computers)
    rng = random.Random(hash((tuple(sets), humans)) & 0xFFFF)
    decisions = 0
    view = await service.turn(SYSTEM, game_id)
    while not view.finished:
        picks: list[int] = []
        while True:
            ask = await service.ask(as_(view.user_id), game_id, picks, view.version)
            assert isinstance(ask, Ask) and ask.question is not None and not ask.done
            assert ask.question.player == view.player
            options = ask.question.moves()
            picks.append(rng.randrange(len(options)))
            answer = await service.pick(as_(view.user_id), game_id, picks, view.version)
            if isinstance(answer, PlayResult):
                break
            assert answer.moves[: len(picks)] == answer.moves
        decisions += 1
        assert all(isinstance(line, str) and line for line in answer.lines)
        view = answer.turn
    record = await service.export(SYSTEM, game_id)
    game, _events, error = load(record)
    assert error is None and game.finished and decisions > 10
    assert view.scores == game.score_table()


async def test_stale_picks_and_foreign_users_change_nothing(service):
    game_id = await start(service, ["base"], 2, 0)
    view = await service.turn(SYSTEM, game_id)
    other = "u1" if view.user_id == "u0" else "u0"
    with pytest.raises(ServiceError, match="turn, not yours"):
        await service.ask(as_(other), game_id, [], view.version)
    with pytest.raises(ServiceError, match="no longer on offer"):
        await service.ask(as_(view.user_id), game_id, [10_000], view.version)
    with pytest.raises(ServiceError):
        await service.ask(as_(view.user_id), game_id, [0], view.version + 1)  # a version from the future
    assert (await service.turn(SYSTEM, game_id)).version == view.version


async def test_picks_for_a_cell_rotation_and_spot_number(service):
    game_id = await start(service, ["base"], 2, 0)
    view = await service.turn(SYSTEM, game_id)
    (cell, rots), *_ = view.placements.items()
    picks = await service.picks_for(as_(view.user_id), game_id, cell, rots[0], "1")
    ask = await service.ask(as_(view.user_id), game_id, picks[:1])
    assert ask.question is not None and ask.question.kind == "figure"
    assert ask.spot_numbers[picks[1]] == 1  # spot 1 on the preview
    result = await service.pick(as_(view.user_id), game_id, picks, view.version)
    assert isinstance(result, PlayResult)
    placed = result.events[0]
    assert placed["type"] == "tile_placed" and (placed["x"], placed["y"]) == cell
    assert any(e["type"] == "meeple_placed" for e in result.events)


@pytest.mark.parametrize("spot", ["²", "9" * 5000, "x" * 6000, "99"])
async def test_bad_spots_are_refused_clearly(service, spot):
    game_id = await start(service, ["base"], 2, 0)
    view = await service.turn(SYSTEM, game_id)
    (cell, rots), *_ = view.placements.items()
    with pytest.raises(ServiceError) as caught:
        await service.picks_for(as_(view.user_id), game_id, cell, rots[0], spot)
    assert len(str(caught.value)) <= 1500
    assert (await service.turn(SYSTEM, game_id)).version == view.version


async def play_randomly(service: GameService, game_id: int, seed: int) -> dict:
    rng = random.Random(seed)
    view = await service.turn(SYSTEM, game_id)
    while not view.finished:
        picks: list[int] = []
        while True:
            ask = await service.ask(as_(view.user_id), game_id, picks, view.version)
            picks.append(rng.randrange(len(ask.question.moves())))  # type: ignore[union-attr]
            answer = await service.pick(as_(view.user_id), game_id, picks, view.version)
            if isinstance(answer, PlayResult):
                break
        view = answer.turn
    return await service.export(SYSTEM, game_id)


async def test_computer_players_think_in_the_worker_pool_and_choose_the_same(tmp_path):
    from service.workers import Workers

    records = []
    for processes in (None, 1):
        db = await open_database(tmp_path / f"w{processes}.db")
        seeds = itertools.count(5)
        service = GameService(Store(db), clock=Clock(), new_seed=lambda seeds=seeds: next(seeds))
        workers = Workers(processes) if processes else None
        service.workers = workers
        game_id = await start(service, ["base", "castles", "toll"], 1, 2)
        records.append(await play_randomly(service, game_id, 3))
        if workers:
            workers.close()
        await db.close()
    assert records[0] == records[1]  # the pool's computer players made the same moves as inline ones
    game, _events, error = load(records[1])
    assert error is None and game.finished


async def test_a_draw_is_committed_at_once_and_the_same_player_goes_on(service):
    game_id = await start(service, ["base", "castles"], 2, 0)
    view = await service.turn(SYSTEM, game_id)
    assert view.step == "draw"  # castle holders choose first
    ask = await service.ask(as_(view.user_id), game_id, [])
    draw = next(i for i, m in enumerate(ask.question.moves()) if m["type"] == "draw")  # type: ignore[union-attr]
    result = await service.pick(as_(view.user_id), game_id, [draw], view.version)
    assert isinstance(result, PlayResult) and result.again
    assert result.turn.version == view.version + 1 and result.turn.step == "tile"  # stored: no peeking, no undo
    assert result.turn.user_id == view.user_id
