"""Engine events -> the lines a front end posts (the engine words them; this only picks)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.event_words import QUIET_EVENTS, describe
from engine.language import _, speaking
from locales import language_of, translations
from storage.rows import GameRow


def game_language(row: GameRow) -> str:
    """The language of a game's public lines (chosen in its lobby; English for older games)."""
    return language_of(row.options.get("language"))


@contextmanager
def in_language(language: str) -> Iterator[None]:
    """Word every text of the block (the engine's too) in ``language``."""
    with speaking(translations(language)):
        yield


def announce(events: list[dict[str, Any]], language: str = "en") -> list[str]:
    """One line per event worth telling players (draws and turn ends say nothing new), in the
    game's language: these lines are posted for everyone."""
    with in_language(language):
        return [_forced(e) if e["type"] == "forced" else describe(e) for e in events if _worth_telling(e)]


def _worth_telling(event: dict[str, Any]) -> bool:
    """Draws and turn ends say nothing new, and neither does scoring that gives nobody a point
    (a field touching no city at the end, a tollhouse with nothing to collect at the end)."""
    if event["type"] in QUIET_EVENTS:
        return False
    if event["type"] == "scored":
        return any(event.get("points", {}).values())
    if event["type"] == "toll" and event.get("action") == "final":
        return bool(event.get("points"))
    return True


def _forced(event: dict[str, Any]) -> str:
    """The service's own event: a decision with a single option, made for the player."""
    return _("{player} had a single choice, made for them: {choice}.").format(
        player=event["player"], choice=event["choice"]
    )
