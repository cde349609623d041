"""Malformed calls to the service API: every one is a ServiceError with a short message, and
the database is unchanged."""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import GameService, LobbyOptions, ServiceError
from service.validate import move_types
from storage import Store, open_database
from tests.helpers import SYSTEM, Clock, anyone, as_, draft_question  # noqa: F401

ANY = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
NOT_AN_INT = st.one_of(
    st.booleans(), st.floats(), st.text(max_size=12), st.none(), st.lists(st.integers(), max_size=2),
    st.just("3"), st.just("²"), st.just(3.0), st.just(-2.6),
)  # fmt: skip
BAD_GAME_ID = NOT_AN_INT | st.integers(max_value=0) | st.integers(min_value=2**63) | st.just(10**5000)
BAD_USER = st.one_of(st.integers(), st.none(), st.just(""), st.text(min_size=101, max_size=300), st.just("a\nb"))
ROT = st.sampled_from([0, 90, 180, 270])


@st.composite
def bad_move(draw: st.DrawFn) -> object:
    """A move with at least one thing wrong: its shape, a field's type or range, its type."""
    kind = draw(st.sampled_from(["shape", "field", "type", "rot", "key"]))
    move: dict = {"type": "tile", "x": draw(st.integers(-3, 3)), "y": draw(st.integers(-3, 3)), "rot": draw(ROT)}
    if kind == "shape":
        return draw(ANY.filter(lambda v: not isinstance(v, dict)))
    if kind == "field":
        move[draw(st.sampled_from(["x", "y", "rot"]))] = draw(NOT_AN_INT | st.integers(min_value=10_001))
    elif kind == "type":
        move["type"] = draw(st.text(max_size=12).filter(lambda t: t not in move_types()) | NOT_AN_INT)
    elif kind == "rot":
        move["rot"] = draw(st.integers().filter(lambda r: r not in (0, 90, 180, 270)))
    else:
        move[draw(st.text(min_size=1, max_size=40).filter(lambda k: not k.islower() or " " in k))] = 1
    return move


def _not_a_time_control(text: str) -> bool:
    from service.timecontrol import BadTimeControl, parse

    try:
        parse(text)
    except BadTimeControl:
        return True
    return False


class World:
    """One database with a running game in server "1001", shared by the examples."""

    def __init__(self) -> None:
        self.folder = tempfile.TemporaryDirectory()
        self.loop = asyncio.new_event_loop()
        self.db = self.loop.run_until_complete(open_database(Path(self.folder.name) / "f.db"))
        self.service = GameService(Store(self.db), Clock(), new_seed=itertools.count(1).__next__)
        self.game_id, self.view = self.loop.run_until_complete(self._start())

    async def _start(self):
        lobby = await self.service.create_lobby(as_("u1", "1001"), "Ann", LobbyOptions(seed=3))
        await self.service.join(as_("u2", "1001"), lobby.id, "Bob")
        return lobby.id, (await self.service.start(as_("u1", "1001"), lobby.id)).turn

    async def state(self) -> list:
        out = []
        for table in ("games", "seats", "moves", "snapshots", "clock_lease", "players"):
            out.append([tuple(r) for r in await self.service.store._read(f"SELECT * FROM {table} ORDER BY rowid")])
        return out

    def refused(self, call) -> str:
        """Run ``call(service)``; it must raise ServiceError and change nothing."""
        before = self.loop.run_until_complete(self.state())
        try:
            self.loop.run_until_complete(call(self.service))
        except ServiceError as exc:
            message = str(exc)
        else:
            raise AssertionError("accepted")
        assert self.loop.run_until_complete(self.state()) == before
        assert 0 < len(message) <= 200, message
        return message

    def close(self) -> None:
        self.loop.run_until_complete(self.db.close())
        self.loop.close()
        self.folder.cleanup()


def test_malformed_service_calls_are_refused_and_change_nothing():
    world = World()
    gid, view = world.game_id, world.view
    user = view.user_id
    calls = st.one_of(
        bad_move().map(lambda m: ("play move", lambda s: s.play(as_(user, "1001"), gid, [m], view.version))),
        ANY.filter(lambda v: not isinstance(v, list | tuple) or not v or not all(isinstance(m, dict) for m in v)).map(
            lambda ms: ("moves", lambda s: s.play(as_(user, "1001"), gid, ms, view.version))
        ),
        BAD_GAME_ID.map(lambda g: ("game id", lambda s: s.turn(anyone("1001"), g))),
        BAD_GAME_ID.map(lambda g: ("game id", lambda s: s.play(as_(user, "1001"), g, [{"type": "pass"}]))),
        BAD_GAME_ID.map(lambda g: ("game id", lambda s: s.abort(as_("u1", manager=True), g))),
        BAD_GAME_ID.map(lambda g: ("game id", lambda s: s.export(anyone("1001"), g))),
        BAD_USER.map(lambda u: ("user", lambda s: s.play(as_(u, "1001"), gid, [{"type": "pass"}]))),
        BAD_USER.map(lambda u: ("user", lambda s: s.kick(as_("manager", manager=True), gid, u))),
        BAD_USER.map(lambda u: ("user", lambda s: s.resign(as_(u, "1001"), gid))),
        NOT_AN_INT.filter(lambda v: v is not None).map(
            lambda v: ("version", lambda s: s.play(as_(user, "1001"), gid, [{"type": "pass"}], v))
        ),
        BAD_USER.filter(lambda g: g is not None).map(lambda g: ("guild", lambda s: s.bag(anyone(g), gid))),
        st.text(min_size=1, max_size=12)
        .filter(lambda g: g != "1001")
        .map(lambda g: ("other guild", lambda s: s.kick(as_("manager", g, manager=True), gid, "u2"))),
        BAD_USER.map(lambda u: ("lobby", lambda s: s.join(as_(u, "1001"), gid, "Cy"))),
        NOT_AN_INT.map(
            lambda v: ("lobby", lambda s: s.create_lobby(as_("u9", "1001"), "Di", LobbyOptions(max_players=v)))
        ),
        NOT_AN_INT.map(
            lambda v: ("lobby", lambda s: s.create_lobby(as_("u9", "1001"), "Di", LobbyOptions(turn_limit=v)))
        ),
        ANY.filter(lambda v: not isinstance(v, list)).map(
            lambda v: ("lobby", lambda s: s.create_lobby(as_("u9", "1001"), "Di", LobbyOptions(sets=v)))
        ),
        (ANY.filter(lambda v: not isinstance(v, str)) | st.text(max_size=60).filter(_not_a_time_control)).map(
            lambda v: ("clock", lambda s: s.create_lobby(as_("u9", "1001"), "Di", LobbyOptions(time_control=v)))
        ),
        ANY.filter(lambda v: not (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 366)).map(
            lambda v: ("vacation", lambda s: s.vacation(as_("u1", "1001"), "Ann", v))
        ),
        BAD_USER.map(lambda u: ("user", lambda s: s.away_until(anyone("1001"), u))),
        ANY.filter(lambda v: not isinstance(v, str)).map(
            lambda v: ("lobby", lambda s: s.join(as_("u9", "1001"), gid, v))
        ),
        ANY.map(lambda v: ("caller", lambda s: s.turn(v, gid))),
        ANY.map(lambda v: ("caller", lambda s: s.play(v, gid, [{"type": "pass"}]))),
        ANY.map(lambda v: ("caller", lambda s: s.create_lobby(v, "Di", LobbyOptions()))),
        ANY.map(lambda v: ("caller", lambda s: s.save_player(v, "Di"))),
        ANY.filter(lambda v: not isinstance(v, str)).map(
            lambda v: ("settings", lambda s: s.save_player(as_("u1", "1001"), v))
        ),
        ANY.filter(lambda v: v is not None and not isinstance(v, bool)).map(
            lambda v: ("settings", lambda s: s.save_player(as_("u1", "1001"), "Ann", dm_turns=v))
        ),
        ANY.filter(lambda v: v is not None and v not in ("en", "fr")).map(
            lambda v: ("settings", lambda s: s.save_player(as_("u1", "1001"), "Ann", language=v))
        ),
        ANY.filter(lambda v: not isinstance(v, tuple)).map(
            lambda v: ("cell", lambda s: s.picks_for(as_(user, "1001"), gid, v, None, None))
        ),
        ANY.map(lambda v: ("level", lambda s: s.add_ai(as_("u1", "1001"), gid, v))),
        st.text(min_size=1, max_size=20).map(
            lambda k: ("options", lambda s: s.set_options(as_("u1", "1001"), gid, **{k: 1}))
        ),
        ANY.filter(lambda v: v not in (None, "lobby", "active", "finished", "aborted")).map(
            lambda v: ("status", lambda s: s.games(anyone("1001"), status=v))
        ),
    )
    seen: set[str] = set()

    @settings(max_examples=900, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(calls)
    def check(named_call):
        name, call = named_call
        world.refused(call)
        seen.add(name)

    try:
        check()
        kinds = {"play move", "moves", "game id", "user", "version", "guild", "other guild", "lobby", "caller",
                 "settings", "cell", "level", "options", "status", "clock", "vacation"}  # fmt: skip
        assert seen == kinds
        # The game is intact and playable after all that.
        turn = world.loop.run_until_complete(world.service.turn(anyone("1001"), gid))
        assert turn.version == view.version and turn.user_id == user
    finally:
        world.close()
