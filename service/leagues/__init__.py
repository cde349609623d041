"""Leagues: members, seasons, rated games and standings, by concern:

- ``ratings``: openskill ratings of finished games, the ladder's numbers (pure);
- ``competitions``: divisions and Swiss rounds, matches, tables (pure);
- ``views``: what the service hands back (notices, fixtures) and the damaged-league guard;
- ``reading``: ``LeagueReading``, what a league shows (its rows, the ratings and division tables, fixtures, history);
- ``core``: ``LeagueCore``, the operations over the league store (leagues, members, seasons, seeding, rated games);
- ``rounds``: ``CompetitionRounds``, a competition's rounds and matches, the league clock, its announcements;
- ``playoffs``: a knockout bracket after the groups (pure); ``knockout``: ``KnockoutCore``, its operations;
- ``service``: ``LeagueService``, those operations as callers reach them (each names its caller).
"""

from service.leagues.competitions import (
    DEADLINE_RULES,
    FORMATS,
    SYSTEM_USER,
    TIEBREAKS,
    CompetitionRules,
    MatchOutcome,
    TableRow,
    build_tables,
    match_outcome,
    next_divisions,
    order_table,
    round_robin,
    swiss_pairs,
)
from service.leagues.core import LeagueCore
from service.leagues.knockout import BracketBox, BracketView, KnockoutCore
from service.leagues.playoffs import PlayoffRules
from service.leagues.ratings import (
    DEFAULT_MU,
    DEFAULT_OPTIONS,
    DEFAULT_SIGMA,
    MODEL,
    Standing,
    apply_result,
    display_rating,
    ordinal,
    ranking_of,
    starting_rating,
)
from service.leagues.service import LeagueService
from service.leagues.views import FixtureView, LeagueDamaged, LeagueNotice, OpenedGame

__all__ = [
    "BracketBox",
    "BracketView",
    "KnockoutCore",
    "PlayoffRules",
    "DEADLINE_RULES", "DEFAULT_MU", "DEFAULT_OPTIONS", "DEFAULT_SIGMA", "FORMATS", "MODEL", "SYSTEM_USER", "TIEBREAKS",
    "CompetitionRules", "FixtureView", "LeagueCore", "LeagueDamaged", "LeagueNotice", "LeagueService", "MatchOutcome",
    "OpenedGame", "Standing", "TableRow", "apply_result", "build_tables", "display_rating", "match_outcome",
    "next_divisions", "order_table", "ordinal", "ranking_of", "round_robin", "starting_rating", "swiss_pairs",
]  # fmt: skip
