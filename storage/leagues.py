"""Leagues: members, seasons, the append-only results log and the ratings cache."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.language import _
from storage.backend import IntegrityError, Tx
from storage.rows import Conflict, NotFound
from storage.store import Store
from storage.times import iso, parse_time

RatingKey = tuple[int, str]  # (season number, user id)
Rating = tuple[float, float, int]  # (mu, sigma, games)


@dataclass
class LeagueRow:
    id: int
    guild_id: str
    name: str
    options: dict[str, Any]
    created_by: str


@dataclass
class SeasonRow:
    number: int
    started_at: datetime
    ended_at: datetime | None
    standings: list[dict[str, Any]] | None


@dataclass
class PlayoffRow:
    league_id: int
    season: int
    rules: dict[str, Any]
    seeds: list[str]  # user ids, best first
    created_at: datetime


@dataclass
class CompetitionRow:
    league_id: int
    season: int
    rules: dict[str, Any]
    guild_id: str | None
    channel_id: str | None


@dataclass
class EntrantRow:
    user_id: str
    name: str
    division: int
    seed: int


@dataclass
class FixtureRow:
    id: int
    season: int
    round: int
    division: int
    home: str
    away: str | None  # None: a bye
    sets: list[str]
    opens_at: datetime
    deadline: datetime
    games: list[int]  # game ids, in the order they were played


@dataclass
class MatchEntry:
    id: int
    fixture_id: int
    kind: str  # "game" | "bye" | "deadline" | "override"
    body: dict[str, Any]
    by_user: str
    recorded_at: datetime


@dataclass
class ResultRow:
    id: int
    season: int
    game_id: int
    ranking: list[dict[str, Any]]
    recorded_at: datetime


class LeagueStore:
    """League queries, over the game store's database. A write that reads first (a season's number,
    the entrants before kick-off) locks the league's row; unique keys refuse what is done twice."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ leagues
    async def create_league(self, guild_id: str, name: str, options: dict[str, Any], by: str, now: datetime) -> int:
        try:
            return await self.store._write(
                lambda tx: tx.insert(
                    "INSERT INTO leagues (guild_id, name, options, created_by, created_at) VALUES (?, ?, ?, ?, ?)",
                    (guild_id, name, json.dumps(options), by, iso(now)),
                )
            )
        except IntegrityError:
            raise Conflict(_("this server already has a league called {name!r}").format(name=name)) from None

    @staticmethod
    def _league(row: Any) -> LeagueRow:
        return LeagueRow(row["id"], row["guild_id"], row["name"], json.loads(row["options"]), row["created_by"])

    async def league(self, league_id: int) -> LeagueRow:
        rows = await self.store._read("SELECT * FROM leagues WHERE id = ?", (league_id,))
        if not rows:
            raise NotFound(_("there is no league #{id}").format(id=league_id))
        return self._league(rows[0])

    async def league_by_name(self, guild_id: str, name: str) -> LeagueRow | None:
        rows = await self.store._read(
            "SELECT * FROM leagues WHERE guild_id = ? AND lower(name) = lower(?)", (guild_id, name)
        )
        return self._league(rows[0]) if rows else None

    async def league_ids(self) -> list[int]:
        """Every league's id, damaged or not (what a rebuild walks through)."""
        return [r[0] for r in await self.store._read("SELECT id FROM leagues ORDER BY id")]

    async def leagues(self, guild_id: str | None = None) -> list[LeagueRow]:
        if guild_id is None:
            rows = await self.store._read("SELECT * FROM leagues ORDER BY id")
        else:
            rows = await self.store._read("SELECT * FROM leagues WHERE guild_id = ? ORDER BY name", (guild_id,))
        return [self._league(r) for r in rows]

    async def set_league_option(self, league_id: int, key: str, value: Any) -> None:
        async def body(tx: Tx) -> None:
            if not await tx.lock("leagues", league_id):
                raise NotFound(_("there is no league #{id}").format(id=league_id))
            (row,) = await tx.fetch("SELECT options FROM leagues WHERE id = ?", (league_id,))
            options = json.loads(row[0]) | {key: value}
            await tx.execute("UPDATE leagues SET options = ? WHERE id = ?", (json.dumps(options), league_id))

        await self.store._write(body)

    # ------------------------------------------------------------------ members
    async def add_member(self, league_id: int, user_id: str, name: str, now: datetime) -> None:
        async def body(tx: Tx) -> None:
            await tx.lock("leagues", league_id)
            row = await tx.fetchrow(
                "SELECT active FROM league_members WHERE league_id = ? AND user_id = ?", (league_id, user_id)
            )
            if row is not None and row[0]:
                raise Conflict(_("you are already a member of this league"))
            if row is None:
                await tx.execute(
                    "INSERT INTO league_members (league_id, user_id, name, joined_at) VALUES (?, ?, ?, ?)",
                    (league_id, user_id, name, iso(now)),
                )
            else:
                await tx.execute(
                    "UPDATE league_members SET active = 1, name = ? WHERE league_id = ? AND user_id = ?",
                    (name, league_id, user_id),
                )

        await self.store._write(body)

    async def remove_member(self, league_id: int, user_id: str) -> None:
        changed = await self.store._write(
            lambda tx: tx.execute(
                "UPDATE league_members SET active = 0 WHERE league_id = ? AND user_id = ? AND active = 1",
                (league_id, user_id),
            )
        )
        if changed == 0:
            raise Conflict(_("you are not a member of this league"))

    async def is_member(self, league_id: int, user_id: str) -> bool:
        rows = await self.store._read(
            "SELECT 1 FROM league_members WHERE league_id = ? AND user_id = ? AND active = 1", (league_id, user_id)
        )
        return bool(rows)

    async def members(self, league_id: int, active_only: bool = False) -> dict[str, str]:
        """user id -> name (former members too, unless ``active_only``)."""
        sql = "SELECT user_id, name FROM league_members WHERE league_id = ?"
        if active_only:
            sql += " AND active = 1"
        return {r[0]: r[1] for r in await self.store._read(sql, (league_id,))}

    # ------------------------------------------------------------------ seasons
    async def seasons(self, league_id: int) -> list[SeasonRow]:
        rows = await self.store._read(
            "SELECT number, started_at, ended_at, standings FROM seasons WHERE league_id = ? ORDER BY number",
            (league_id,),
        )
        return [
            SeasonRow(r[0], parse_time(r[1]), parse_time(r[2]), json.loads(r[3]) if r[3] else None)  # type: ignore[arg-type]
            for r in rows
        ]

    async def start_season(self, league_id: int, now: datetime) -> int:
        async def body(tx: Tx) -> int:
            # Two processes starting a season at once: the second waits here, then sees the first's.
            await tx.lock("leagues", league_id)
            last = await tx.fetchrow(
                "SELECT number, ended_at FROM seasons WHERE league_id = ? ORDER BY number DESC LIMIT 1", (league_id,)
            )
            if last is not None and last[1] is None:
                raise Conflict(_("season {n} is still running").format(n=last[0]))
            number = (last[0] if last else 0) + 1
            await tx.execute(
                "INSERT INTO seasons (league_id, number, started_at) VALUES (?, ?, ?)", (league_id, number, iso(now))
            )
            return int(number)

        return await self.store._write(body)

    async def end_season(self, league_id: int, number: int, standings: list[dict[str, Any]], now: datetime) -> None:
        changed = await self.store._write(
            lambda tx: tx.execute(
                "UPDATE seasons SET ended_at = ?, standings = ?"
                " WHERE league_id = ? AND number = ? AND ended_at IS NULL",
                (iso(now), json.dumps(standings), league_id, number),
            )
        )
        if changed == 0:
            raise Conflict(_("no season is running"))

    # ------------------------------------------------------------------ results and ratings
    async def append_result(
        self, league_id: int, season: int, game_id: int, ranking: list[dict[str, Any]], now: datetime,
        rate: Callable[[dict[RatingKey, Rating]], dict[RatingKey, Rating]],
    ) -> None:  # fmt: skip
        """Record a game's ranking and rate it, in one transaction holding the league's row: ``rate``
        gets the league's ratings as they are now and returns the entries the game changed, so two
        games of one league finishing at once (in one process or two) are rated one after the
        other, never both from the same ratings."""

        async def body(tx: Tx) -> None:
            await tx.lock("leagues", league_id)
            await tx.execute(
                "INSERT INTO results (league_id, season, game_id, ranking, recorded_at) VALUES (?, ?, ?, ?, ?)",
                (league_id, season, game_id, json.dumps(ranking), iso(now)),
            )
            rows = await tx.fetch(
                "SELECT season, user_id, mu, sigma, games FROM ratings WHERE league_id = ?", (league_id,)
            )
            await self._write_ratings(tx, league_id, rate({(r[0], r[1]): (r[2], r[3], r[4]) for r in rows}))

        try:
            await self.store._write(body)
        except IntegrityError:
            raise Conflict(_("game #{id} is already in the results").format(id=game_id)) from None

    @staticmethod
    async def _write_ratings(tx: Tx, league_id: int, ratings: dict[RatingKey, Rating]) -> None:
        await tx.executemany(
            "INSERT INTO ratings (league_id, season, user_id, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (league_id, season, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games",
            [(league_id, season, user, mu, sigma, games) for (season, user), (mu, sigma, games) in ratings.items()],
        )

    async def replace_ratings(self, league_id: int, ratings: dict[RatingKey, Rating]) -> None:
        async def body(tx: Tx) -> None:
            await tx.lock("leagues", league_id)
            await tx.execute("DELETE FROM ratings WHERE league_id = ?", (league_id,))
            await self._write_ratings(tx, league_id, ratings)

        await self.store._write(body)

    async def results(self, league_id: int) -> list[ResultRow]:
        rows = await self.store._read(
            "SELECT id, season, game_id, ranking, recorded_at FROM results WHERE league_id = ? ORDER BY id",
            (league_id,),
        )
        return [ResultRow(r[0], r[1], r[2], json.loads(r[3]), parse_time(r[4])) for r in rows]  # type: ignore[arg-type]

    async def ratings(self, league_id: int) -> dict[RatingKey, Rating]:
        rows = await self.store._read(
            "SELECT season, user_id, mu, sigma, games FROM ratings WHERE league_id = ?", (league_id,)
        )
        return {(r[0], r[1]): (r[2], r[3], r[4]) for r in rows}

    async def game_ids(self, league_id: int) -> list[int]:
        rows = await self.store._read("SELECT id FROM games WHERE league_id = ? ORDER BY id", (league_id,))
        return [r[0] for r in rows]

    # ------------------------------------------------------------------ competitions
    async def create_competition(
        self, league_id: int, season: int, rules: dict[str, Any], guild_id: str | None, channel_id: str | None,
        now: datetime,
    ) -> None:  # fmt: skip
        try:
            await self.store._write(
                lambda tx: tx.execute(
                    "INSERT INTO competitions (league_id, season, rules, guild_id, channel_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (league_id, season, json.dumps(rules), guild_id, channel_id, iso(now)),
                )
            )
        except IntegrityError:
            raise Conflict(_("season {n} is already a competition").format(n=season)) from None

    async def competition(self, league_id: int, season: int) -> CompetitionRow | None:
        rows = await self.store._read(
            "SELECT rules, guild_id, channel_id FROM competitions WHERE league_id = ? AND season = ?",
            (league_id, season),
        )
        if not rows:
            return None
        return CompetitionRow(league_id, season, json.loads(rows[0][0]), rows[0][1], rows[0][2])

    async def running_competitions(self) -> list[CompetitionRow]:
        """Competitions whose season has not ended (the deadline clock looks at these)."""
        rows = await self.store._read(
            "SELECT c.league_id, c.season, c.rules, c.guild_id, c.channel_id FROM competitions c"
            " JOIN seasons s ON s.league_id = c.league_id AND s.number = c.season"
            " WHERE s.ended_at IS NULL ORDER BY c.league_id"
        )
        return [CompetitionRow(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows]

    async def create_playoffs(
        self, league_id: int, season: int, rules: dict[str, Any], seeds: list[str], now: datetime
    ) -> None:
        """A season's bracket, once: a second start (another process, a double click) is a Conflict."""
        try:
            await self.store._write(
                lambda tx: tx.execute(
                    "INSERT INTO playoffs (league_id, season, rules, seeds, created_at) VALUES (?, ?, ?, ?, ?)",
                    (league_id, season, json.dumps(rules), json.dumps(seeds), iso(now)),
                )
            )
        except IntegrityError:
            raise Conflict(_("the playoffs of season {n} have already started").format(n=season)) from None

    async def playoffs(self, league_id: int, season: int) -> PlayoffRow | None:
        rows = await self.store._read(
            "SELECT rules, seeds, created_at FROM playoffs WHERE league_id = ? AND season = ?", (league_id, season)
        )
        if not rows:
            return None
        return PlayoffRow(league_id, season, json.loads(rows[0][0]), json.loads(rows[0][1]), parse_time(rows[0][2]))  # type: ignore[arg-type]

    async def set_entrants(self, league_id: int, season: int, entrants: list[EntrantRow]) -> None:
        """Replace the season's entrants (only before its first round opens)."""
        async def body(tx: Tx) -> None:
            await tx.lock("leagues", league_id)
            kicked_off = await tx.fetchrow(
                "SELECT 1 FROM fixtures WHERE league_id = ? AND season = ? LIMIT 1", (league_id, season)
            )
            if kicked_off:
                raise Conflict(_("the season has kicked off: its divisions are fixed"))
            await tx.execute("DELETE FROM entrants WHERE league_id = ? AND season = ?", (league_id, season))
            await tx.executemany(
                "INSERT INTO entrants (league_id, season, user_id, name, division, seed) VALUES (?, ?, ?, ?, ?, ?)",
                [(league_id, season, e.user_id, e.name, e.division, e.seed) for e in entrants],
            )

        await self.store._write(body)

    async def entrants(self, league_id: int, season: int) -> list[EntrantRow]:
        rows = await self.store._read(
            "SELECT user_id, name, division, seed FROM entrants WHERE league_id = ? AND season = ?"
            " ORDER BY division, seed",
            (league_id, season),
        )
        return [EntrantRow(r[0], r[1], r[2], r[3]) for r in rows]

    async def add_fixtures(
        self, league_id: int, season: int, round_number: int,
        pairs: list[tuple[int, str, str | None, list[str]]], opens_at: datetime, deadline: datetime,
    ) -> list[int]:  # fmt: skip
        """Write a round's pairings (division, home, away or None for a bye, sets) at once."""

        async def body(tx: Tx) -> list[int]:
            # The league's row lock makes a second opening of the round wait, then meet the unique key.
            await tx.lock("leagues", league_id)
            ids = []
            for division, home, away, sets in pairs:
                ids.append(
                    await tx.insert(
                        "INSERT INTO fixtures (league_id, season, round, division, home, away, sets, opens_at,"
                        " deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (league_id, season, round_number, division, home, away, json.dumps(sets), iso(opens_at),
                         iso(deadline)),
                    )  # fmt: skip
                )
            return ids

        try:
            return await self.store._write(body)
        except IntegrityError:
            raise Conflict(_("round {n} is already open").format(n=round_number)) from None

    async def add_fixture_game(self, fixture_id: int, number: int, game_id: int) -> None:
        try:
            await self.store._write(
                lambda tx: tx.execute(
                    "INSERT INTO fixture_games (fixture_id, number, game_id) VALUES (?, ?, ?)",
                    (fixture_id, number, game_id),
                )
            )
        except IntegrityError:
            raise Conflict(_("game {n} of this match is already open").format(n=number)) from None

    async def fixtures(self, league_id: int, season: int) -> list[FixtureRow]:
        rows = await self.store._read(
            "SELECT id, season, round, division, home, away, sets, opens_at, deadline FROM fixtures"
            " WHERE league_id = ? AND season = ? ORDER BY round, division, id",
            (league_id, season),
        )
        games = await self.store._read(
            "SELECT fg.fixture_id, fg.game_id FROM fixture_games fg JOIN fixtures f ON f.id = fg.fixture_id"
            " WHERE f.league_id = ? AND f.season = ? ORDER BY fg.fixture_id, fg.number",
            (league_id, season),
        )
        by_fixture: dict[int, list[int]] = {}
        for fixture_id, game_id in games:
            by_fixture.setdefault(fixture_id, []).append(game_id)
        return [
            FixtureRow(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                json.loads(r[6]),
                parse_time(r[7]),  # type: ignore[arg-type]
                parse_time(r[8]),  # type: ignore[arg-type]
                by_fixture.get(r[0], []),
            )
            for r in rows
        ]

    async def fixture_of_game(self, game_id: int) -> tuple[int, int, int] | None:
        """(league id, season, fixture id) of a game played for a fixture."""
        rows = await self.store._read(
            "SELECT f.league_id, f.season, f.id FROM fixture_games fg JOIN fixtures f ON f.id = fg.fixture_id"
            " WHERE fg.game_id = ?",
            (game_id,),
        )
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    async def log_match(self, fixture_id: int, kind: str, body: dict[str, Any], by_user: str, now: datetime) -> None:
        """Add an entry to the match log. A fixture has one bye and one deadline ruling at most:
        a second one (another process's clock ruling at the same deadline) is refused (Conflict),
        as is a game counted twice."""

        async def body_(tx: Tx) -> None:
            if kind in ("bye", "deadline"):
                await tx.lock("fixtures", fixture_id)  # two rulings of one fixture: one after the other
                if await tx.fetchrow("SELECT 1 FROM match_log WHERE fixture_id = ? AND kind = ?", (fixture_id, kind)):
                    raise Conflict(_("this match has already been ruled on"))
            await tx.execute(
                "INSERT INTO match_log (fixture_id, kind, game_id, body, by_user, recorded_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (fixture_id, kind, body.get("game_id") if kind == "game" else None, json.dumps(body), by_user,
                 iso(now)),
            )  # fmt: skip

        try:
            await self.store._write(body_)
        except IntegrityError:
            raise Conflict(_("that game is already in the match log")) from None

    async def match_log(self, league_id: int, season: int) -> list[MatchEntry]:
        rows = await self.store._read(
            "SELECT m.id, m.fixture_id, m.kind, m.body, m.by_user, m.recorded_at FROM match_log m"
            " JOIN fixtures f ON f.id = m.fixture_id WHERE f.league_id = ? AND f.season = ? ORDER BY m.id",
            (league_id, season),
        )
        return [MatchEntry(r[0], r[1], r[2], json.loads(r[3]), r[4], parse_time(r[5])) for r in rows]  # type: ignore[arg-type]

    async def replace_season_standings(self, league_id: int, number: int, standings: Any) -> None:
        """Rewrite an ended season's kept table (a cache that a rebuild recomputes)."""
        await self.store._write(
            lambda tx: tx.execute(
                "UPDATE seasons SET standings = ? WHERE league_id = ? AND number = ? AND ended_at IS NOT NULL",
                (json.dumps(standings), league_id, number),
            )
        )
