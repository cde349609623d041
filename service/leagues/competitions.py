"""Competitions: the rules of a season run as divisions (a round robin with promotion and
relegation) or a Swiss tournament, how a match is decided from its match log, and the tables.
Pure functions of the fixtures and the match log: every table is computed from them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from engine.language import _
from service.leagues.playoffs import PLAYOFF_ROUND
from service.lobbies import LobbyOptions
from service.timecontrol import BadTimeControl, canonical, parse
from service.validate import ServiceError
from storage.leagues import EntrantRow, FixtureRow, MatchEntry

FORMATS = ("ladder", "divisions", "swiss")
TIEBREAKS = ("head_to_head", "points_scored", "points_difference", "wins", "buchholz")
DEADLINE_RULES = ("award", "both_lose")
SYSTEM_USER = "league"  # who the match log credits for the bot's own entries


@dataclass
class CompetitionRules:
    """How a season is played. ``sets`` holds one list (fixed for the season) or several
    (round r plays ``sets[(r - 1) % len(sets)]``)."""

    format: str = "divisions"
    division_size: int = 6
    rounds: int = 5  # Swiss only; a round robin has as many rounds as its schedule
    best_of: int = 1
    sets: list[list[str]] = field(default_factory=lambda: [["base"]])
    window_hours: int = 14 * 24
    win: int = 2
    draw: int = 1
    loss: int = 0
    tiebreaks: list[str] = field(default_factory=lambda: ["head_to_head", "points_scored"])
    promote: int = 2
    relegate: int = 2
    deadline_rule: str = "award"
    turn_limit: int = 24 * 3600
    timeout_policy: str = "forfeit"
    time_control: str = "per-turn"  # or a time bank for the season's games (service/timecontrol.py)

    def checked(self) -> CompetitionRules:
        if self.format not in FORMATS[1:]:
            raise ServiceError(_("a competition is one of {formats}").format(formats=", ".join(FORMATS[1:])))
        if not 3 <= self.division_size <= 12:
            raise ServiceError(_("a division has 3 to 12 players"))
        if self.format == "swiss" and not 1 <= self.rounds <= 15:
            raise ServiceError(_("a Swiss tournament has 1 to 15 rounds"))
        if self.best_of not in (1, 3):
            raise ServiceError(_("a match is a single game or the best of 3"))
        if not self.sets or len(self.sets) > 10:
            raise ServiceError(_("give the sets of the season, or up to 10 to rotate per round"))
        sets = []
        for chosen in self.sets:
            try:
                sets.append(LobbyOptions(sets=chosen, max_players=2).checked(lambda: 0).sets)
            except ServiceError as exc:
                raise ServiceError(_("sets {sets}: {error}").format(sets=", ".join(chosen), error=exc)) from None
        if not 1 <= self.window_hours <= 90 * 24:
            raise ServiceError(_("a match window is 1 hour to 90 days"))
        if not (0 <= self.loss <= self.draw <= self.win <= 10) or self.win == self.loss:
            raise ServiceError(_("league points: loss <= draw <= win, win above loss, at most 10"))
        unknown = [t for t in self.tiebreaks if t not in TIEBREAKS]
        if unknown or len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise ServiceError(_("tie-breakers are distinct, among {tiebreaks}").format(tiebreaks=", ".join(TIEBREAKS)))
        if not (0 <= self.promote <= self.division_size // 2 and 0 <= self.relegate <= self.division_size // 2):
            raise ServiceError(_("at most half a division goes up, and at most half goes down"))
        if self.deadline_rule not in DEADLINE_RULES:
            raise ServiceError(_("the deadline rule is one of {rules}").format(rules=", ".join(DEADLINE_RULES)))
        try:
            time_control = canonical(self.time_control)
        except BadTimeControl as exc:
            raise ServiceError(str(exc)) from None
        return CompetitionRules(**(asdict(self) | {"sets": sets, "time_control": time_control}))

    def turn_seconds(self) -> int:
        """A turn's time at its start: the bank a player starts with, or the limit per turn."""
        bank = parse(self.time_control)
        return self.turn_limit if bank is None else bank.initial

    def sets_of_round(self, round_number: int) -> list[str]:
        return self.sets[(round_number - 1) % len(self.sets)]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CompetitionRules:
        return cls(**data)


def round_robin(players: list[str]) -> list[list[tuple[str, str]]]:
    """Every pair once (circle method); with an odd count one player sits out each round.

    >>> [len(r) for r in round_robin(["a", "b", "c", "d", "e", "f"])]
    [3, 3, 3, 3, 3]
    """
    ring: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(ring)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is not None and b is not None:
                pairs.append((b, a) if (r + i) % 2 else (a, b))  # alternate who hosts
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def swiss_pairs(
    order: list[str], played: set[frozenset[str]], had_bye: set[str]
) -> tuple[list[tuple[str, str]], str | None]:
    """Pair players of similar record (``order`` is best first) with no rematch; with an odd
    count the lowest player who has not had a bye sits out."""

    def pair(rest: list[str]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        first = rest[0]
        for partner in rest[1:]:
            if frozenset((first, partner)) in played:
                continue
            others = pair([p for p in rest[1:] if p != partner])
            if others is not None:
                return [(first, partner), *others]
        return None

    candidates: list[str | None] = [None]
    if len(order) % 2:
        fresh = [p for p in reversed(order) if p not in had_bye]
        candidates = list(fresh or reversed(order))  # a second bye only once everyone has had one
    for bye in candidates:
        pairs = pair([p for p in order if p != bye])
        if pairs is not None:
            return pairs, bye
    raise ServiceError(_("no pairing without a rematch is left: the tournament has more rounds than it can pair"))


@dataclass
class MatchOutcome:
    decided: bool
    winner: str | None  # None when decided: a draw, or both lost (``draw`` tells)
    draw: bool
    how: str  # "pending" | "games" | "bye" | "deadline" | "override"
    games_won: dict[str, float]
    scored: dict[str, int]  # game points, summed over the match's games
    reason: str = ""


def match_outcome(
    fixture: FixtureRow, entries: list[MatchEntry], best_of: int, knockout: bool = False
) -> MatchOutcome:
    """A match's result from its log entries, in order: games count until the match is
    decided; a deadline ruling decides an open match; an override replaces anything. A
    ``knockout`` match level after its games is not decided: one more game is played."""
    players = [p for p in (fixture.home, fixture.away) if p is not None]
    won = dict.fromkeys(players, 0.0)
    scored = dict.fromkeys(players, 0)
    outcome = MatchOutcome(False, None, False, "pending", won, scored)
    played = 0
    for entry in entries:
        body = entry.body
        if entry.kind == "override":
            outcome = MatchOutcome(
                True, body["winner"], body["winner"] is None, "override", won, scored, body["reason"]
            )
        elif outcome.decided:
            continue
        elif entry.kind == "bye":
            outcome = MatchOutcome(True, fixture.home, False, "bye", won, scored)
        elif entry.kind == "deadline":  # no winner: both lose (nobody was to move, or the rule says so)
            outcome = MatchOutcome(True, body["winner"], False, "deadline", won, scored, body["reason"])
        elif entry.kind == "game":
            played += 1
            for user, points in body["scores"].items():
                scored[user] = scored.get(user, 0) + points
            if body["winner"] is None:
                for p in players:
                    won[p] += 0.5
            else:
                won[body["winner"]] += 1
            a, b = players
            left = best_of - played
            if abs(won[a] - won[b]) > left or (left <= 0 and not (knockout and won[a] == won[b])):
                winner = None if won[a] == won[b] else (a if won[a] > won[b] else b)
                outcome = MatchOutcome(True, winner, winner is None, "games", won, scored)
    return outcome


@dataclass
class TableRow:
    position: int
    user_id: str
    name: str
    division: int
    played: int
    won: int
    drawn: int
    lost: int
    points: int  # league points
    scored: int  # game points over the season's matches
    against: int
    buchholz: int
    byes: int
    rating: int  # friendly scale, now
    rating_change: int  # since the season began
    provisional: bool
    zone: str | None = None  # "up" | "down"


def order_table(
    players: list[str], stats: dict[str, TableRow], results: list[tuple[str, str, MatchOutcome]],
    tiebreaks: list[str], rules: CompetitionRules, seeds: dict[str, int],
) -> list[str]:  # fmt: skip
    """League points first, then each tie-breaker in turn inside the players still level,
    then the seed (a stable last resort, so a table never depends on dict order)."""

    def head_to_head(group: set[str]) -> dict[str, float]:
        mini = dict.fromkeys(group, 0.0)
        for home, away, outcome in results:
            if home in group and away in group and outcome.decided:
                for p in (home, away):
                    mini[p] += _league_points(p, outcome, rules)
        return mini

    def key(name: str, group: list[str]) -> dict[str, float]:
        if name == "head_to_head":
            return head_to_head(set(group))
        if name == "points_scored":
            return {p: stats[p].scored for p in group}
        if name == "points_difference":
            return {p: stats[p].scored - stats[p].against for p in group}
        if name == "wins":
            return {p: stats[p].won for p in group}
        return {p: stats[p].buchholz for p in group}

    def split(group: list[str], level: int) -> list[str]:
        if len(group) <= 1 or level == len(tiebreaks):
            return sorted(group, key=lambda p: (seeds.get(p, 10**6), p))
        values = key(tiebreaks[level], group)
        out: list[str] = []
        for value in sorted(set(values.values()), reverse=True):
            out += split([p for p in group if values[p] == value], level + 1)
        return out

    ordered: list[str] = []
    for value in sorted({stats[p].points for p in players}, reverse=True):
        ordered += split([p for p in players if stats[p].points == value], 0)
    return ordered


def _league_points(player: str, outcome: MatchOutcome, rules: CompetitionRules) -> int:
    if outcome.draw:
        return rules.draw
    return rules.win if outcome.winner == player else rules.loss


def build_tables(
    rules: CompetitionRules, entrants: list[EntrantRow], fixtures: list[FixtureRow], log_entries: list[MatchEntry],
    ratings: dict[str, tuple[int, int, bool]],
) -> dict[int, list[TableRow]]:  # fmt: skip
    """Division tables (Swiss: one table, division 1) from the fixtures and the match log.

    ``ratings``: user -> (friendly rating now, change this season, provisional).
    """
    by_fixture: dict[int, list[MatchEntry]] = {}
    for entry in log_entries:
        by_fixture.setdefault(entry.fixture_id, []).append(entry)
    zero = (0, 0, 0, 0, 0, 0, 0, 0, 0)  # played .. byes
    stats = {
        e.user_id: TableRow(0, e.user_id, e.name, e.division, *zero, *ratings.get(e.user_id, (1000, 0, True)))
        for e in entrants
    }
    results: list[tuple[str, str, MatchOutcome]] = []
    opponents: dict[str, list[str]] = {p: [] for p in stats}
    for fixture in fixtures:
        if fixture.round >= PLAYOFF_ROUND:
            continue  # the playoffs after the groups are not in the groups' tables
        outcome = match_outcome(fixture, by_fixture.get(fixture.id, []), rules.best_of)
        if not outcome.decided or fixture.home not in stats:
            continue
        if fixture.away is None:
            row = stats[fixture.home]
            row.byes += 1
            row.played += 1
            row.won += 1
            row.points += rules.win
            continue
        results.append((fixture.home, fixture.away, outcome))
        for me, other in ((fixture.home, fixture.away), (fixture.away, fixture.home)):
            row = stats[me]
            row.played += 1
            row.won += outcome.winner == me
            row.drawn += outcome.draw
            row.lost += not outcome.draw and outcome.winner != me
            row.points += _league_points(me, outcome, rules)
            row.scored += outcome.scored.get(me, 0)
            row.against += outcome.scored.get(other, 0)
            opponents[me].append(other)
    for player, row in stats.items():
        row.buchholz = sum(stats[o].points for o in opponents[player])
    seeds = {e.user_id: e.seed for e in entrants}
    divisions = sorted({e.division for e in entrants})
    tables = {}
    for division in divisions:
        players = [e.user_id for e in entrants if e.division == division]
        order = order_table(players, stats, results, rules.tiebreaks, rules, seeds)
        table = []
        for position, user in enumerate(order, start=1):
            row = stats[user]
            row.position = position
            if rules.format == "divisions":
                if division != divisions[0] and position <= rules.promote:
                    row.zone = "up"
                elif division != divisions[-1] and position > len(order) - rules.relegate:
                    row.zone = "down"
            table.append(row)
        tables[division] = table
    return tables


def next_divisions(tables: dict[int, list[TableRow]]) -> dict[str, int]:
    """Where each player of a finished divisional season plays next season."""
    return {
        row.user_id: division - 1 if row.zone == "up" else division + 1 if row.zone == "down" else division
        for division, table in tables.items()
        for row in table
    }
