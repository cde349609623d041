"""The words of every event, for players: ``describe`` words the core game's events and asks the
expansion that owns any other (``Expansion.describe``); ``QUIET_EVENTS`` are those a front end may
leave out (the next message says them anyway).
"""

from __future__ import annotations

from engine.expansions.registry import event_owner, figure_kind, figure_owner, scored_feature_word
from engine.language import N_, _, ngettext, sentence
from engine.moves import Event
from engine.words import cell, feature_word, names, role, tile_name

_COMPLETED = {
    "road": N_("a completed road"), "city": N_("a completed city"),
    "cloister": N_("a completed cloister"), "castle": N_("a completed castle"),
}  # fmt: skip
_UNFINISHED = {
    "road": N_("an unfinished road"), "city": N_("an unfinished city"),
    "cloister": N_("an unfinished cloister"), "castle": N_("an unfinished castle"),
}  # fmt: skip


_COMPLETED_OTHER, _UNFINISHED_OTHER = N_("a completed feature"), N_("an unfinished feature")


def _describe_core(event: Event) -> str | None:
    kind = event["type"]
    if kind == "tile_drawn":
        return _("{player} draws {tile}.").format(player=event["player"], tile=tile_name(event["tile"], article=True))
    if kind == "tile_placed":
        return _("{player} placed {tile} at {cell}.").format(
            player=event["player"], tile=tile_name(event["tile"], article=True), cell=cell(event["x"], event["y"])
        )
    if kind == "meeple_placed":
        feature = event["at"].partition(":")[0]
        owner = figure_owner(feature) if "x" not in event else None
        if owner is not None:  # a figure off the board (a crown space): its expansion words it
            return owner.describe(event)
        kind = figure_kind(event["figure"]) if "figure" in event else None
        if kind is not None:  # a kind of figure other than the plain follower: worded as its expansion declares
            where = feature_word(feature)
            if "x" in event:
                where = _("{feature} at {cell}").format(feature=where, cell=cell(event["x"], event["y"]))
            return _(kind.placed).format(player=event["player"], role=role(feature), feature=where)
        if "x" in event:
            return _("{player} put a {role} on {feature} at {cell}.").format(
                player=event["player"], role=role(feature), feature=feature_word(feature),
                cell=cell(event["x"], event["y"]),
            )  # fmt: skip
        return _("{player} put a {role} on {feature}.").format(
            player=event["player"], role=role(feature), feature=feature_word(feature)
        )
    if kind == "tile_discarded":
        return sentence(
            _("{tile} fits nowhere: it leaves the game and another tile is drawn.").format(
                tile=tile_name(event["tile"], article=True)
            )
        )
    if kind == "scored":
        return _scored(event)
    if kind == "turn_ended":
        if event.get("next"):
            return _("End of {player}'s turn {turn}. {next} plays next.").format(
                player=event["player"], turn=event["turn"], next=event["next"]
            )
        return _("End of {player}'s turn {turn}.").format(player=event["player"], turn=event["turn"])
    if kind == "game_over":
        scores, winners = event["scores"], event["winners"]
        best = scores[winners[0]]
        table = ", ".join(f"{n} {s}" for n, s in sorted(scores.items(), key=lambda kv: -kv[1]))
        if len(winners) == 1:
            return _("Game over: {player} wins with {points}. ({table})").format(
                player=winners[0], points=best, table=table
            )
        return _("Game over: {players} share the win with {points}. ({table})").format(
            players=names(winners), points=best, table=table
        )
    return None


def _scored(event: Event) -> str:
    points = event["points"]
    feature = event["feature"]
    declared = None if feature in _COMPLETED or feature == "field" else scored_feature_word(feature)
    if feature == "field":
        what = _("a field")
    elif declared is not None:  # an expansion's own kind (the wheel's crowns)
        what = _(declared)
    elif event["final"]:
        what = _(_UNFINISHED.get(feature, _UNFINISHED_OTHER))
    else:
        what = _(_COMPLETED.get(feature, _COMPLETED_OTHER))
    if not points:
        text = sentence(_("{feature} scores for nobody (no follower on it).").format(feature=what))
    elif len(points) == 1:
        ((name, value),) = points.items()
        text = ngettext(
            "{player} scores {n} point for {feature}.", "{player} scores {n} points for {feature}.", value
        ).format(player=name, n=value, feature=what)
    else:
        value = next(iter(points.values()))
        text = ngettext(
            "{players} score {n} point each for {feature} they share.",
            "{players} score {n} points each for {feature} they share.",
            value,
        ).format(players=names(list(points)), n=value, feature=what)
    return _("Final scoring: {text}").format(text=text) if event["final"] else text


#: events that only say what the next message says anyway (front ends may leave them out)
QUIET_EVENTS = frozenset(("tile_drawn", "turn_ended"))


def describe(event: Event) -> str:
    """One line for any event of any set, for players."""
    text = _describe_core(event)
    if text is None:
        owner = event_owner(event["type"])
        text = owner.describe(event) if owner is not None else None
    if text is None:
        raise KeyError(f"no wording for the event type {event['type']!r}")
    return text
