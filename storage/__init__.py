"""Storage: games, the move log, snapshots, players and leagues, over SQLite or PostgreSQL.

``open_database(url)`` opens either (``storage.database``); ``Store`` and ``LeagueStore`` are the
one interface the service uses, written once over ``storage.backend``'s transactions. Storage
knows no engine internals: it keeps the JSON and bytes it is handed.
"""

from storage.backend import Database, IntegrityError
from storage.database import open_database
from storage.rows import Conflict, GameRow, NotFound
from storage.store import Store

__all__ = ["Database", "IntegrityError", "open_database", "Store", "GameRow", "Conflict", "NotFound"]
