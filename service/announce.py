"""Engine events -> short lines a front end can post (Markdown-light, no Discord types)."""

from __future__ import annotations

from typing import Any

FEATURE_NAMES = {"road": "road", "city": "city", "cloister": "cloister", "field": "field", "castle": "castle"}


def _names(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def describe(event: dict[str, Any]) -> str | None:
    """One line for an event, or None for events not worth announcing."""
    kind = event["type"]
    if kind == "tile_placed":
        return f"{event['player']} placed {event['tile']} at ({event['x']}, {event['y']})."
    if kind == "meeple_placed":
        what = event["at"].split(":")[0]
        return (
            f"{event['player']} put a follower on the {FEATURE_NAMES.get(what, what)} at ({event['x']}, {event['y']})."
        )
    if kind == "tile_discarded":
        return f"{event['tile']} fits nowhere: it leaves the game and another tile is drawn."
    if kind == "scored":
        points = event["points"]
        feature = FEATURE_NAMES.get(event["feature"], event["feature"])
        when = "Final scoring: " if event["final"] else ""
        if not points:
            return None
        if len(points) == 1:
            ((name, value),) = points.items()
            return f"{when}{name} scores {value} for a {feature}."
        value = next(iter(points.values()))
        return f"{when}{_names(list(points))} score {value} each for a shared {feature}."
    if kind == "toll":
        action = event["action"]
        if action in ("placed", "moved"):
            return (
                f"{event['player']} {action} their tollhouse (value {event['value']}) at ({event['x']}, {event['y']})."
            )
        if action == "collected":
            return f"{event['player']}'s tollhouse collects {event['points']}."
        if action == "flipped":
            return f"{event['player']}'s tollhouse turns to value {event['value']}."
        if action == "final" and event["points"]:
            return f"Final scoring: {event['player']}'s tollhouse collects {event['points']}."
        return None
    if kind == "game_over":
        scores = event["scores"]
        winners = event["winners"]
        best = scores[winners[0]]
        table = ", ".join(f"{n} {s}" for n, s in sorted(scores.items(), key=lambda kv: -kv[1]))
        if len(winners) == 1:
            return f"Game over: {winners[0]} wins with {best}. ({table})"
        return f"Game over: {_names(winners)} share the win with {best}. ({table})"
    return None


def announce(events: list[dict[str, Any]]) -> list[str]:
    return [line for line in map(describe, events) if line]
