"""Time controls: the bank's arithmetic (properties), and bank games through the service on both
backends: charged from the turn's start, the increment once per turn, the cap, reminders, each
timeout policy, vacations, restarts and two services ticking the same game."""

import asyncio
import contextlib
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from service import AlreadyPlayed, GameService, LobbyOptions, ServiceError
from service.timecontrol import PER_TURN, PRESETS, BadTimeControl, TimeControl, canonical, parse, short_duration
from storage import Store, open_database
from tests import test_service
from tests.helpers import SYSTEM, Clock, as_
from tests.test_service import play_turn, two_humans

DAY, HOUR, MINUTE = 86400, 3600, 60


# ---------------------------------------------------------------------- the arithmetic
def test_time_controls_read_as_players_write_them():
    assert parse("per-turn") is None and parse("Per turn") is None
    assert parse("3d+12h cap 5d") == TimeControl(3 * DAY, 12 * HOUR, 5 * DAY)
    assert parse("15m+30s") == TimeControl(15 * MINUTE, 30, 15 * MINUTE)  # no cap: what it starts with
    assert parse(" 1D12H + 6h  CAP 2d") == TimeControl(36 * HOUR, 6 * HOUR, 2 * DAY)
    assert canonical("1d12h+6h cap 2d") == "1d12h+6h cap 2d"
    assert [canonical(p) for p in PRESETS] == list(PRESETS)
    for bad, why in [
        ("3d", "not a time control"), ("3x+1h", "not a time control"), ("30s+1m", "at least a minute"),
        ("2d+1h cap 1d", "cap is at least"), ("100d+1h", "at most 90 days"), ("9" * 41, "per-turn or a bank"),
        ("3d+12h cap", "not a time control"), ("٣d+1h", "not a time control"),  # Unicode digits
    ]:  # fmt: skip
        with pytest.raises(BadTimeControl, match=why):
            parse(bad)
    assert [short_duration(s) for s in (0, 59, 90, 3600, 2 * DAY + 4 * HOUR + 5, 2 * DAY + 5 * MINUTE)] == [
        "0s", "59s", "1m 30s", "1h", "2d 4h", "2d",
    ]  # fmt: skip


controls = st.builds(
    lambda initial, increment, extra: TimeControl(initial, increment, initial + extra),
    st.integers(60, 90 * DAY), st.integers(0, 2 * DAY), st.integers(0, 30 * DAY),
)  # fmt: skip


@given(controls, st.lists(st.floats(0, 200 * DAY, allow_nan=False), max_size=40))
def test_a_bank_never_goes_below_zero_nor_above_its_cap(control, turns):
    left = control.initial
    for spent in turns:
        after = control.charge(left, spent)
        assert 0 <= after <= control.cap
        # what the turn took, back by the increment (less what the cap cuts, or what was not there)
        assert after == min(control.cap, max(0, int(left - spent)) + control.increment)
        left = after


@given(controls, st.integers(0, 90 * DAY), st.floats(0, 10 * DAY, allow_nan=False))
def test_the_increment_applies_once_per_turn(control, left, spent):
    left = min(left, control.cap)
    once = control.charge(left, spent)
    assert once - max(0, int(left - spent)) <= control.increment  # never more than one increment
    if spent <= left and left - spent + control.increment <= control.cap:
        assert once == int(left - spent) + control.increment


# ---------------------------------------------------------------------- through the service
env = test_service.env  # the game service over each backend, with its settable clock


async def test_a_bank_is_charged_from_the_turn_post_with_the_increment_once(env):
    service, clock, _db = env
    gid, view = await two_humans(service, time_control="1d+6h cap 2d")
    assert view.clocks == {view.player: DAY, next(p for p in view.scores if p != view.player): DAY}
    assert view.deadline == view.started_at + timedelta(days=1)
    clock.now += timedelta(hours=10)
    # The panel asks and previews in between: time counts from the turn's post, not from clicks.
    assert (await service.turn(SYSTEM, gid)).clocks[view.player] == 14 * HOUR
    nxt = (await play_turn(service, view)).turn
    assert nxt.clocks[view.player] == 20 * HOUR  # 24h - 10h + 6h
    clock.now += timedelta(minutes=30)
    back = (await play_turn(service, nxt)).turn
    assert back.clocks[nxt.player] == min(2 * DAY, DAY - 30 * MINUTE + 6 * HOUR)  # the cap holds it at 2d
    assert back.player == view.player and back.deadline == back.started_at + timedelta(hours=20)
    # A restart reads the banks back from the database.
    fresh = GameService(service.store, clock)
    assert (await fresh.turn(SYSTEM, gid)).clocks == back.clocks


async def test_a_bank_is_reminded_once_then_each_policy_rules_the_turn(env):
    service, clock, _db = env
    for policy, said in [
        ("skip", "the turn was played automatically"), ("computer", "a computer (normal level) played the turn"),
        ("forfeit", "forfeits"),
    ]:  # fmt: skip
        gid, view = await two_humans(service, time_control="1h+10m", timeout_policy=policy, seed=len(policy))
        clock.now += timedelta(minutes=46)
        notices = [n for n in await service.tick() if n.game_id == gid]
        assert [n.kind for n in notices] == ["reminder"]
        assert "time bank" in notices[0].lines[0] and "14 minutes" in notices[0].lines[0]
        assert [n for n in await service.tick() if n.game_id == gid] == []  # once
        clock.now += timedelta(minutes=15)
        notices = [n for n in await service.tick() if n.game_id == gid]
        assert [n.kind for n in notices] == ["timeout"] and said in notices[0].lines[0]
        after = await service.turn(SYSTEM, gid)
        assert after.user_id != view.user_id
        if policy != "forfeit":  # out of time: the next turns have the increment, not nothing
            assert after.clocks[view.player] == 10 * MINUTE
        else:
            assert (await service.lobby(SYSTEM, gid)).seat_of(view.user_id).status == "forfeited"


async def test_a_player_out_of_time_has_the_increment_for_each_later_turn(env):
    service, clock, _db = env
    gid, view = await two_humans(service, time_control="1h+10m")
    clock.now += timedelta(hours=2)
    await service.tick()  # timed out, skipped
    other = await service.turn(SYSTEM, gid)
    back = (await play_turn(service, other)).turn
    assert back.player == view.player and back.clocks[view.player] == 10 * MINUTE
    assert back.deadline == back.started_at + timedelta(minutes=10)
    clock.now += timedelta(minutes=5)
    assert (await play_turn(service, back)).turn.clocks[view.player] == 15 * MINUTE


async def test_a_vacation_pauses_a_bank(env):
    service, clock, _db = env
    gid, view = await two_humans(service, time_control="1d+1h")
    clock.now += timedelta(hours=2)
    await service.vacation(as_(view.user_id), view.player, 3)
    clock.now += timedelta(days=2)
    assert await service.tick() == []  # away: no reminder, no timeout
    clock.now += timedelta(days=1, hours=1)  # back since an hour
    assert await service.tick() == []  # the turn began again at their return
    turn = await service.turn(SYSTEM, gid)
    assert turn.clocks[view.player] == DAY - HOUR  # the days away are not charged
    nxt = (await play_turn(service, turn)).turn
    assert nxt.clocks[view.player] == DAY  # 24h - 1h + 1h, at the cap


async def test_two_services_ticking_the_same_bank_charge_it_once(env):
    service, clock, _db = env
    gid, view = await two_humans(service, time_control="1h+10m")
    other = GameService(service.store, clock)
    clock.now += timedelta(hours=3)
    ticks = await asyncio.gather(service.tick(), other.tick())
    assert sum(n.kind == "timeout" for notices in ticks for n in notices) == 1
    after = await GameService(service.store, clock).turn(SYSTEM, gid)
    assert after.clocks[view.player] == 10 * MINUTE  # charged once: zero, then one increment


async def test_bank_options_are_checked_in_the_lobby(env):
    service, _clock, _db = env
    lobby = await service.create_lobby(as_("u1"), "Ann", LobbyOptions(seed=1))
    assert lobby.options["time_control"] == PER_TURN
    row = await service.set_options(as_("u1"), lobby.id, time_control="3D + 12H cap 5d")
    assert row.options["time_control"] == "3d+12h cap 5d"
    with pytest.raises(ServiceError, match="not a time control"):
        await service.set_options(as_("u1"), lobby.id, time_control="x" * 30)
    with pytest.raises(ServiceError, match="per-turn or a bank"):
        await service.set_options(as_("u1"), lobby.id, time_control="9" * 6000)
    assert (await service.lobby(SYSTEM, lobby.id)).options["time_control"] == "3d+12h cap 5d"


async def test_a_damaged_bank_is_a_corrupted_game_not_a_crash(env):
    from service import GameCorrupted

    service, _clock, db = env
    gid, _view = await two_humans(service, time_control="1h+10m")
    await db.execute("UPDATE games SET clocks = ? WHERE id = ?", ('{"left": [-5, 3600], "actor": 0}', gid))
    with pytest.raises(GameCorrupted, match="time banks are damaged"):
        await GameService(service.store, Clock()).turn(SYSTEM, gid)


# ---------------------------------------------------------------------- the banks over time, as a property
ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("wait"), st.integers(1, 3 * 3600)),
        st.tuples(st.just("tick"), st.integers(0, 1)),  # either of two services (processes)
        st.tuples(st.just("move"), st.just(0)),
        st.tuples(st.just("restart"), st.just(0)),
    ),
    max_size=25,
)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(ACTIONS)
@example([("wait", 1), ("wait", 7199), ("tick", 1)])  # the second service rules the turn the first one cached
@example([("wait", 3600), ("tick", 1), ("move", 0), ("wait", 9000), ("restart", 0), ("tick", 0)])
def test_whatever_happens_each_turn_is_charged_once_from_its_start(actions):
    """Moves, waits, ticks from two services and restarts in any order: every bank is what the
    arithmetic says, turn by turn (a model kept beside), never below zero nor above its cap."""
    control = TimeControl(2 * HOUR, 30 * MINUTE, 3 * HOUR)

    async def run() -> None:
        with tempfile.TemporaryDirectory() as folder:
            db = await open_database(Path(folder) / "banks.db")
            clock = Clock()
            services = [GameService(Store(db), clock) for _ in range(2)]
            try:
                gid, view = await two_humans(services[0], time_control=str(control))
                banks, names = dict(view.clocks), list(view.scores)  # (names in seat order)
                started, actor = clock.now, view.player
                for kind, arg in actions:
                    if kind == "wait":
                        clock.now += timedelta(seconds=arg)
                    elif kind == "restart":
                        services = [GameService(Store(db), clock) for _ in range(2)]
                    else:
                        if kind == "tick":
                            await services[arg].tick()
                        else:  # the player moves, through the first service
                            with contextlib.suppress(AlreadyPlayed):  # its cached turn was ruled meanwhile
                                await play_turn(services[0], await services[0].turn(SYSTEM, gid))
                        # What the database holds (a service that cached nothing: over SQLite one
                        # service's cache does not see another's writes, one process being the rule).
                        now = await GameService(Store(db), clock).turn(SYSTEM, gid)
                        if now.player != actor:  # the turn ended (a move, or a timeout): charged once
                            banks[actor] = control.charge(banks[actor], (clock.now - started).total_seconds())
                            started, actor = clock.now, now.player
                    row = await services[0].store.get_game(gid)
                    stored = dict(zip(names, row.clocks["left"], strict=True))
                    assert stored == banks
                    assert all(0 <= b <= control.cap for b in stored.values())
            finally:
                await db.close()

    asyncio.run(run())


async def test_a_long_bank_is_reminded_with_a_quarter_left_then_with_a_sixteenth_left_once_each(env):
    service, clock, _db = env
    gid, view = await two_humans(service, time_control="4d+12h cap 5d")
    clock.now += timedelta(days=2, hours=23)  # 71 of 96 hours: not yet
    assert [n for n in await service.tick() if n.game_id == gid] == []
    clock.now += timedelta(hours=2)  # 73 h: a quarter left
    notices = [n for n in await service.tick() if n.game_id == gid]
    assert [n.kind for n in notices] == ["reminder"] and "23 hours" in notices[0].lines[0]
    assert await service.tick() == []
    clock.now += timedelta(hours=17)  # 90 h: a sixteenth (6 h) left
    notices = [n for n in await service.tick() if n.game_id == gid]
    assert [n.kind for n in notices] == ["reminder"] and "6 hours" in notices[0].lines[0]
    assert await service.tick() == []  # each once
    # After a downtime past both, the turn gets one reminder, not two.
    other, _view = await two_humans(service, time_control="4d+12h cap 5d", seed=9)
    clock.now += timedelta(hours=95)
    assert [n.kind for n in await service.tick() if n.game_id == other] == ["reminder"]
    assert [n.kind for n in await service.tick() if n.game_id == other] == []
