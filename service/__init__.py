"""The application layer shared by every front end (Discord, console, demo)."""

from service.caller import Caller
from service.gamelog import AlreadyPlayed, GameCorrupted
from service.games import GameService, Limits
from service.lobbies import LobbyOptions
from service.validate import ServiceError
from service.views import Ask, Notice, PlayResult, TurnView

__all__ = [
    "AlreadyPlayed",
    "Ask",
    "Caller",
    "GameCorrupted",
    "GameService",
    "Limits",
    "LobbyOptions",
    "Notice",
    "PlayResult",
    "ServiceError",
    "TurnView",
]
