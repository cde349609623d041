"""What the league service hands its callers: opened games, notices, fixtures; and how a league's
damaged rows are contained (``LeagueDamaged``)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from engine.language import _
from service import validate
from service.leagues.competitions import MatchOutcome
from service.validate import ServiceError

log = logging.getLogger(__name__)
T = TypeVar("T")

@dataclass
class OpenedGame:
    """A match game the bot opened: the front end gives it a thread and pings its players."""

    game_id: int
    user_ids: list[str]
    title: str
    outbox: list[int] = field(default_factory=list)  # its opening post's outbox rows (PlayResult.outbox)


@dataclass
class LeagueNotice:
    """Something a competition did on its own (a round opened, a deadline ruled, a game opened)."""

    league_id: int
    season: int
    guild_id: str | None
    channel_id: str | None
    lines: list[str]
    games: list[OpenedGame] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)  # user ids the announcement pings
    # Its outbox row (a front end that marks its posts: ``LeagueCore.outbox_posts``), marked by
    # ``mark_posted`` once the lines went out; the league's clock posts it again otherwise.
    outbox: list[int] = field(default_factory=list)


@dataclass
class FixtureView:
    fixture_id: int
    round: int
    division: int
    home: str
    home_name: str
    away: str | None
    away_name: str | None
    sets: list[str]
    deadline: datetime | None  # None: a future round of the schedule
    games: list[int]
    outcome: MatchOutcome | None
    stage: str | None = None  # a playoff match's stage ("Semi-finals"); None in the groups


class LeagueDamaged(ServiceError):
    """A league whose stored rows cannot be read. Only that league is affected."""


def _contained(method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """A league's damaged rows (text where a number is stored, options that are not JSON, a season
    time that does not parse) make that league's calls a clear ``LeagueDamaged``; the others work."""

    @functools.wraps(method)
    async def contained(self: Any, league_id: Any, *args: Any, **kwargs: Any) -> T:
        try:
            return await method(self, league_id, *args, **kwargs)
        except ServiceError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError) as exc:
            log.warning("league #%s: %s failed on its stored rows", league_id, method.__name__, exc_info=exc)
            what = validate.shorten(f"{type(exc).__name__}: {exc}", 160)
            raise LeagueDamaged(
                _("league #{id} cannot be read: its stored data is damaged ({what})").format(id=league_id, what=what)
            ) from None

    return contained
