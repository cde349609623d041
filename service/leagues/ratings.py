"""Ratings: openskill's Plackett-Luce over every finished league game, a free-for-all ranked by
final score (ties share a rank; players who forfeited or were removed rank last).

A new season starts from the ratings the players had, with their uncertainty widened by
``season_sigma_boost`` (added in quadrature, capped at the default). Ratings are ranked by the
conservative ordinal mu - 3 sigma and shown on a friendly scale (``display_rating``: 1000 + 40 x
ordinal, never negative). Pure functions: the results log is replayed with the very same steps by
a rebuild, so an incremental update and a rebuild give identical numbers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from storage.leagues import Rating, RatingKey

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
DEFAULT_OPTIONS: dict[str, Any] = {
    "language": "en",  # of the league's games (the server's when it was created)
    "sets": ["base"],
    "max_players": 4,
    "turn_limit": 24 * 3600,
    "timeout_policy": "forfeit",
    "time_control": "per-turn",  # or a time bank, "3d+12h cap 5d" (service/timecontrol.py)
    "season_sigma_boost": 2.0,
    "provisional_games": 5,
    "organiser_role": None,  # a Discord role id whose members may run seasons, besides server managers
}


@dataclass
class Standing:
    rank: int
    user_id: str
    name: str
    ordinal: float
    mu: float
    sigma: float
    games: int  # rated games this season
    provisional: bool


def ranking_of(result: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished game's ranking: by score, ties shared, forfeits last."""
    scores: dict[str, int] = result["scores"]
    users: dict[str, str] = result["users"]
    out_of_game = set(result.get("forfeited", []))
    playing = [n for n in scores if n not in out_of_game]
    rows = []
    for name in playing:
        rank = 1 + sum(1 for other in playing if scores[other] > scores[name])
        rows.append({"user_id": users[name], "name": name, "score": scores[name], "rank": rank, "forfeited": False})
    for name in out_of_game:
        rows.append(
            {"user_id": users[name], "name": name, "score": scores[name], "rank": len(playing) + 1, "forfeited": True}
        )
    return sorted(rows, key=lambda r: (r["rank"], r["name"]))


def starting_rating(ratings: dict[RatingKey, Rating], season: int, user_id: str, boost: float) -> Rating:
    """A player's rating when a game of ``season`` begins (carried over from earlier seasons)."""
    if (season, user_id) in ratings:
        return ratings[(season, user_id)]
    earlier = [s for s, u in ratings if u == user_id and s < season]
    if not earlier:
        return (DEFAULT_MU, DEFAULT_SIGMA, 0)
    mu, sigma, _unused = ratings[(max(earlier), user_id)]
    return (mu, min(DEFAULT_SIGMA, math.sqrt(sigma * sigma + boost * boost)), 0)


def apply_result(
    ratings: dict[RatingKey, Rating], season: int, ranking: list[dict[str, Any]], boost: float
) -> dict[RatingKey, Rating]:
    """Rate one game: updates ``ratings`` in place and returns the entries it changed."""
    before = [starting_rating(ratings, season, r["user_id"], boost) for r in ranking]
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _unused in before]
    rated = MODEL.rate(teams, ranks=[r["rank"] for r in ranking])
    changed = {}
    for row, (_unused, _unused, games), (new,) in zip(ranking, before, rated, strict=True):
        key = (season, row["user_id"])
        changed[key] = ratings[key] = (new.mu, new.sigma, games + 1)
    return changed


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def display_rating(mu: float, sigma: float) -> int:
    """The rating players see: 1000 for a newcomer, 40 per ordinal point, never below 0."""
    return max(0, round(1000 + 40 * ordinal(mu, sigma)))
