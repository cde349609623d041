"""Every public method of the game and league services, called with anything: each call either
answers or refuses with a ServiceError, never a raw exception, on SQLite and on PostgreSQL.

The arguments are drawn per parameter: sometimes a plausible value (a member of the game's server,
the running game, the league), often a hostile one (a float for an id, 10**30, NaN, a list, a NUL
or a lone surrogate in a text, a caller that is not a Caller)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import GameService, LobbyOptions, ServiceError
from service.caller import Caller
from service.leagues import LeagueService
from storage import Store, open_database
from storage.leagues import LeagueStore
from tests.helpers import Clock, as_

HOSTILE = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
    st.sampled_from([10**30, -(10**30), 2**63, float("nan"), float("inf"), [1], [], {}, (1, 2), "\x00", "a\x00b",
                     "\ud800", "x" * 300, b"bytes", 1.5, "1", object()]),
    st.lists(st.integers() | st.text(max_size=4), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=4), max_size=3),
)  # fmt: skip
SKIPPED = {"tick", "release_clock", "hint", "picture", "rebuild"}  # no arguments, or seconds of search per call


class World:
    """A database with a running game, a lobby and a league in server "1001"."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.db = self.loop.run_until_complete(open_database(url))
        self.games = GameService(Store(self.db), Clock(), new_seed=itertools.count(1).__next__)
        self.leagues = LeagueService(self.games, LeagueStore(self.games.store))
        self.loop.run_until_complete(self._setup())

    async def _setup(self) -> None:
        lobby = await self.games.create_lobby(as_("u1", "1001"), "Ann", LobbyOptions(seed=3))
        await self.games.join(as_("u2", "1001"), lobby.id, "Bob")
        await self.games.start(as_("u1", "1001"), lobby.id)
        self.game_id = lobby.id
        self.lobby_id = (await self.games.create_lobby(as_("u3", "1001"), "Cy", LobbyOptions(seed=4))).id
        league = await self.leagues.create(as_("boss", "1001", manager=True), "Friday")
        await self.leagues.join(as_("u1", "1001"), league.id, "Ann")
        self.league_id = league.id

    def plausible(self, name: str) -> st.SearchStrategy:
        callers = [as_("u1", "1001"), as_("u2", "1001"), as_("boss", "1001", manager=True), as_("eve", "2002"),
                   Caller.offline("solo"), Caller.system("1001")]  # fmt: skip
        pools = {
            "who": callers,
            "game_id": [self.game_id, self.lobby_id, 999_999],
            "league_id": [self.league_id, 999_999],
            "user_id": ["u1", "u2", "nobody"],
            "target_id": ["u1", "u2"],
            "name": ["Ann", "Friday"],
            "version": [None, 0, 1],
            "picks": [[], [0], [0, 0]],
            "moves": [[{"type": "pass"}], [{"type": "tile", "x": 1, "y": 0, "rot": 0}]],
            "options": [LobbyOptions()],
            "level": ["easy", "normal"],
            "days": [0, 3],
        }
        return st.sampled_from(pools[name]) if name in pools else st.nothing()

    def call(self, service: object, method: str, args: dict) -> None:
        positional, keywords = args["positional"], args["keywords"]
        with contextlib.suppress(ServiceError):  # a refusal is an answer; anything else fails the test
            self.loop.run_until_complete(asyncio.wait_for(getattr(service, method)(*positional, **keywords), 30))

    def close(self) -> None:
        self.loop.run_until_complete(self.db.close())
        self.loop.close()


@st.composite
def arguments(draw: st.DrawFn, world: World, function: object) -> dict:
    positional, keywords = [], {}
    for parameter in list(inspect.signature(function).parameters.values())[1:]:
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            keywords.update(draw(st.dictionaries(st.sampled_from(
                ["sets", "max_players", "turn_limit", "timeout_policy", "language", "hints", "time_control", "x"]),
                HOSTILE, max_size=2)))  # fmt: skip
            continue
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            positional += draw(st.lists(HOSTILE, max_size=2))
            continue
        if parameter.default is not inspect.Parameter.empty and draw(st.booleans()):
            continue  # left out
        value = draw(world.plausible(parameter.name) | HOSTILE if draw(st.booleans()) else HOSTILE)
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY:
            keywords[parameter.name] = value
        else:
            positional.append(value)
    return {"positional": positional, "keywords": keywords}


def public_methods(service: object) -> list[str]:
    return sorted(
        name for name in dir(service)
        if not name.startswith("_") and name not in SKIPPED
        and inspect.iscoroutinefunction(getattr(type(service), name, None))
    )  # fmt: skip


def test_no_public_service_method_raises_anything_but_a_service_error(db_url):
    world = World(db_url)
    targets = [(world.games, m) for m in public_methods(world.games)]
    targets += [(world.leagues, m) for m in public_methods(world.leagues)]
    called: set[str] = set()

    @st.composite
    def calls(draw: st.DrawFn) -> tuple:
        service, method = draw(st.sampled_from(targets))
        return service, method, draw(arguments(world, getattr(type(service), method)))

    @settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(calls())
    def check(call: tuple) -> None:
        service, method, args = call
        world.call(service, method, args)
        called.add(f"{type(service).__name__}.{method}")

    try:
        check()
        assert len(called) >= len(targets) * 0.9, sorted({f"{type(s).__name__}.{m}" for s, m in targets} - called)
    finally:
        world.close()


def test_the_calls_the_issue_found_are_refused_with_a_service_error(db_url):
    world = World(db_url)
    try:
        for call in (
            lambda: world.games.resign("u1", world.game_id),
            lambda: world.leagues.create(as_("boss", "1001", manager=True), 1.5),
            lambda: world.leagues.open_lobby(as_("u1", "1001"), 10**30, "Ann"),
            lambda: world.leagues.open_lobby(as_("u1", "1001"), [1], "Ann"),
            lambda: world.leagues.open_lobby(as_("u1", "1001"), float("nan"), "Ann"),
            lambda: world.games.join(as_("u4", "1001"), world.lobby_id, "A\x00nn"),
            lambda: world.games.save_player(as_("u4", "1001"), "\ud800"),
        ):
            try:
                world.loop.run_until_complete(call())
            except ServiceError:
                continue
            raise AssertionError("accepted")
    finally:
        world.close()


def test_another_servers_game_lobby_or_no_game_get_the_same_answer(db_url):
    """No existence oracle: from another server, a running game, a lobby and a missing number
    are refused in the same words by every call that names a game."""
    world = World(db_url)
    eve = as_("eve", "2002")
    try:
        calls = [("turn", ()), ("lobby", ()), ("join", ("Eve",)), ("bag", ()), ("export", ()), ("resign", ()),
                 ("leave", ()), ("add_ai", ()), ("ask", ([],)), ("abort", ())]  # fmt: skip
        for method, extra in calls:
            said = set()
            for game_id in (world.game_id, world.lobby_id, 999_999):
                try:
                    world.loop.run_until_complete(getattr(world.games, method)(eve, game_id, *extra))
                except ServiceError as exc:
                    said.add(str(exc).replace(f"#{game_id}", "#N"))
                else:
                    raise AssertionError(f"{method} answered another server")
            assert said == {"there is no game #N in this server"}, (method, said)
    finally:
        world.close()
