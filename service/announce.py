"""Engine events -> the lines a front end posts (the engine words them; this only picks)."""

from __future__ import annotations

from typing import Any

from engine.game import QUIET_EVENTS, describe


def announce(events: list[dict[str, Any]]) -> list[str]:
    """One line per event worth telling players (draws and turn ends say nothing new)."""
    return [describe(e) for e in events if e["type"] not in QUIET_EVENTS]
