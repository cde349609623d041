"""What each part of ``storage.store.Store`` relies on (``OutboxStore``, ``ClockStore``): the
database and the store's one way to run a write transaction and a read (``Store`` gives them)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from storage.backend import Database, Tx

T = TypeVar("T")


class StorePart:
    db: Database

    async def _write(self, body: Callable[[Tx], Awaitable[T]], game_id: int | None = None) -> T:
        raise NotImplementedError  # Store's

    async def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError  # Store's
