"""The application layer shared by every front end (Discord, console, demo)."""

from service.games import (
    AlreadyPlayed,
    Ask,
    Choice,
    GameCorrupted,
    GameService,
    LobbyOptions,
    Notice,
    PlayResult,
    ServiceError,
    TurnView,
)

__all__ = [
    "AlreadyPlayed",
    "Ask",
    "Choice",
    "GameCorrupted",
    "GameService",
    "LobbyOptions",
    "Notice",
    "PlayResult",
    "ServiceError",
    "TurnView",
]
