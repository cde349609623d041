"""SQLite storage (aiosqlite): schema and migrations, games, the move log, snapshots.

Storage knows no engine internals: it keeps the JSON it is handed.
"""

from storage.database import Database, open_database
from storage.store import Conflict, GameRow, NotFound, Store

__all__ = ["Database", "open_database", "Store", "GameRow", "Conflict", "NotFound"]
