"""The application layer shared by every front end (Discord, console, demo)."""

from service.games import (
    AlreadyPlayed,
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
    "Choice",
    "GameCorrupted",
    "GameService",
    "LobbyOptions",
    "Notice",
    "PlayResult",
    "ServiceError",
    "TurnView",
]
