"""Times as the database stores them: ISO 8601 text in UTC, to the second."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


def iso(t: datetime) -> str:
    return t.astimezone(UTC).isoformat(timespec="seconds")


def parse_time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def lenient_time(text: Any) -> datetime | None:
    """A stored time, or None when the text is not one (a damaged row is read, not refused)."""
    try:
        return datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None
