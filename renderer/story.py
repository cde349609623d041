"""The story of a finished game, in one picture made for a phone (800 px wide, read at ~400):
the ranking, each player's points by category as a bar and in words, and the scores turn by turn.

Points are taken from the game's scoring events as the engine emits them, so an expansion's own
scoring (the wheel, the tolls...) shows as its own category; what no event names is "Other".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from engine import Game
from engine.language import N_, _
from engine.record import new_game
from renderer import palette as pal
from renderer.standings import fit
from renderer.tile_art import font

WIDTH, PAD = 800, 24
# Each category's word and colour (terrain colours, so a city reads as a city); unknown ones (an
# expansion added later) take their event's name and a neutral grey.
# Colours in hues that no player wears (red, blue, yellow, green, black, white): a bar's colour never
# reads as a player's.
CATEGORIES: dict[str, tuple[str, tuple[int, int, int]]] = {
    "city": (N_("Cities"), pal.WALL),
    "road": (N_("Roads"), (196, 178, 128)),
    "cloister": (N_("Cloisters"), (199, 120, 170)),
    "field": (N_("Farms"), (122, 128, 48)),
    "castle": (N_("Castles"), (128, 128, 128)),
    "crown": (N_("Crowns"), (232, 140, 40)),
    "wheel_event": (N_("Wheel"), (40, 150, 150)),
    "toll": (N_("Tolls"), (96, 128, 160)),
    "other": (N_("Other"), (186, 186, 186)),
}


@dataclass
class Story:
    """What a game's picture tells: points by player and category, and the scores after each turn."""

    players: list[str]
    scores: list[int]
    by_category: list[dict[str, int]] = field(default_factory=list)  # per player
    timeline: list[list[int]] = field(default_factory=list)  # the scores at the end of each turn
    final: list[int] = field(default_factory=list)  # per player, the end-game scoring's points (in the last)


def _points(event: dict[str, Any]) -> tuple[str, dict[str, int]] | None:
    """(category, points by player name) of a scoring event, or None."""
    points = event.get("points")
    if event["type"] == "scored" and isinstance(points, dict):
        return str(event.get("feature", "other")), points
    if isinstance(points, dict):
        return event["type"], points
    if isinstance(points, int) and points and "player" in event:
        return event["type"], {event["player"]: points}
    return None


def tell(record: dict[str, Any]) -> Story:
    """Replay the record, collecting every scoring event and the scores at each turn's end."""
    game: Game = new_game(record)
    story = Story(list(game.players), [], [{} for _ in game.players], [list(game.scores)], [0 for _ in game.players])
    index = {name: i for i, name in enumerate(game.players)}
    turn = game.turn
    for move in record.get("moves", []):
        for event in game.apply({k: v for k, v in move.items() if k != "player"}):
            found = _points(event)
            if found is None:
                continue
            category, points = found
            for name, n in points.items():
                if name in index and n:
                    mine = story.by_category[index[name]]
                    mine[category] = mine.get(category, 0) + n
                    if event.get("final"):
                        story.final[index[name]] += n
        if game.turn != turn or game.finished:
            turn = game.turn
            story.timeline.append(list(game.scores))
    story.scores = list(game.scores)
    for i, total in enumerate(story.scores):  # what no event named (there should be none)
        rest = total - sum(story.by_category[i].values())
        if rest:
            story.by_category[i]["other"] = story.by_category[i].get("other", 0) + rest
    return story


def points_by_category(games: list[tuple[dict[str, Any], str]]) -> dict[str, int]:
    """One player's points by category over several finished games: (record, their name in it)."""
    totals: dict[str, int] = {}
    for record, name in games:
        story = tell(record)
        if name in story.players:
            for key, n in story.by_category[story.players.index(name)].items():
                totals[key] = totals.get(key, 0) + n
    return totals


def ranks(scores: list[int]) -> list[int]:
    """Each player's place: tied scores share it (1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def category_word(key: str) -> str:
    """A category's word in the language being spoken ("Cities", "Tolls"...)."""
    return _category(key)[0]


def story_title(game_id: int, scores: dict[str, int]) -> str:
    """"Game #12: Ann wins" (or who share the win), in the language being spoken."""
    best = max(scores.values(), default=0)
    winners = [name for name, score in scores.items() if score == best]
    if len(winners) == 1:
        return _("Game #{id}: {player} wins").format(id=game_id, player=winners[0])
    return _("Game #{id}: {players} share the win").format(id=game_id, players=", ".join(winners))


def _category(key: str) -> tuple[str, tuple[int, int, int]]:
    word, colour = CATEGORIES.get(key, (key.replace("_", " ").capitalize(), CATEGORIES["other"][1]))
    return _(word), colour


def render_story(story: Story, title: str) -> Image.Image:
    """The picture: ``title``, then per player (best first) name and total, a bar of their points
    by category and the same in words; a legend; the scores turn by turn."""
    big, body, small = font(34), font(28), font(24)
    ranking = sorted(range(len(story.players)), key=lambda i: (-story.scores[i], i))
    places = ranks(story.scores)
    used = [k for k in CATEGORIES if any(k in c for c in story.by_category)]
    used += sorted({k for c in story.by_category for k in c} - set(used))
    inner = WIDTH - 2 * PAD
    words = {
        i: _wrap([f"{_category(k)[0]} {story.by_category[i][k]}" for k in used if story.by_category[i].get(k)],
                 inner, small, " · ") or [_("no points")]
        for i in ranking
    }  # fmt: skip
    legend = _wrap([_category(k)[0] for k in used], inner - 40 * len(used), small, "   ")
    heading = _wrap(title.split(" "), inner, big, " ")  # the title whole, on as many lines as it takes
    chart_h = 340
    height = PAD + 44 * len(heading) + 12 + sum(40 + 30 + 32 * len(words[i]) + 22 for i in ranking)
    height += 36 * max(1, len(legend)) + 24 + 50 + chart_h + PAD
    img = Image.new("RGB", (WIDTH, height), pal.MARGIN_BG)
    draw = ImageDraw.Draw(img)
    y = PAD
    for line in heading:
        draw.text((PAD, y), line, fill=pal.MARGIN_TEXT, font=big)
        y += 44
    y += 12
    best = max(1, max(story.scores))
    for i in ranking:
        colour = pal.PLAYERS[i % len(pal.PLAYERS)]
        draw.rectangle([PAD, y + 6, PAD + 26, y + 32], fill=colour, outline=pal.outline_for(colour))
        total = str(story.scores[i])
        draw.text((WIDTH - PAD, y + 19), total, fill=pal.MARGIN_TEXT, font=big, anchor="rm")
        name = fit(f"{places[i]}. {story.players[i]}", inner - 50 - big.getlength(total) - 20, body)
        draw.text((PAD + 40, y + 19), name, fill=pal.MARGIN_TEXT, font=body, anchor="lm")
        y += 40
        x = float(PAD)
        for key in used:
            n = story.by_category[i].get(key, 0)
            if n <= 0:
                continue
            w = inner * n / best
            draw.rectangle([x, y, x + w - 1, y + 24], fill=_category(key)[1])
            x += w
        y += 30
        for line in words[i]:
            draw.text((PAD, y), line, fill=pal.MARGIN_TEXT, font=small)
            y += 32
        y += 22
    # The legend: the categories this game scored, each with its colour, as many rows as it takes.
    x = PAD
    for key in used:
        word, colour = _category(key)
        width = 22 + 8 + small.getlength(word) + 22
        if x + width > WIDTH - PAD and x > PAD:
            x, y = PAD, y + 36
        draw.rectangle([x, y + 4, x + 22, y + 26], fill=colour)
        draw.text((x + 30, y + 15), word, fill=pal.MARGIN_TEXT, font=small, anchor="lm")
        x += int(width)
    y += 36 + 24
    draw.text((PAD, y), _("Scores turn by turn"), fill=pal.MARGIN_TEXT, font=body)
    y += 44
    names_w = int(max(small.getlength(fit(n, 120, small)) for n in story.players)) + 12
    _chart(draw, story, (PAD + 50, y, WIDTH - PAD - names_w, y + chart_h - 80), small)
    return img


def _wrap(items: list[str], width: float, face: Any, joint: str) -> list[str]:
    """``items`` joined by ``joint`` into as few lines as fit ``width`` (an item never splits)."""
    lines: list[str] = []
    for item in items:
        if lines and face.getlength(lines[-1] + joint + item) <= width:
            lines[-1] += joint + item
        else:
            lines.append(fit(item, width, face))
    return lines


def _chart(draw: ImageDraw.ImageDraw, story: Story, box: tuple[int, int, int, int], face: Any) -> None:
    """Each player's score after each turn, a line in their colour over light grid lines, the turns
    along the bottom, the end-game scoring as a last step of its own (labelled), each player's name
    at the end of their line."""
    x0, y0, x1, y1 = box
    top = max(1, max(max(t) for t in story.timeline))
    step = next(s for s in (5, 10, 20, 25, 50, 100, 200, 500, 1000) if top / s <= 5)
    for value in range(0, top + 1, step):
        y = y1 - (y1 - y0) * value / top
        draw.line([x0, y, x1, y], fill=pal.EMPTY_CELL, width=2)
        draw.text((x0 - 8, y), str(value), fill=pal.MARGIN_TEXT, font=face, anchor="rm")
    final = story.final if any(story.final) else None
    # The turns' scores, then (when the end game scored) one more column: the final scoring.
    timeline = [list(t) for t in story.timeline]
    if final is not None:
        timeline[-1:] = [[a - b for a, b in zip(timeline[-1], final, strict=True)], timeline[-1]]
    turns = max(1, len(story.timeline) - 1)
    last_x = x1 - (x1 - x0) // 8 if final is not None else x1  # the final scoring's own step, wide enough to see

    def at(t: float) -> float:
        return x0 + (last_x - x0) * t / turns if t <= turns else x1

    turn_step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100) if turns / s <= 8)
    for t in range(0, turns + 1, turn_step):
        draw.line([at(t), y1, at(t), y1 + 6], fill=pal.MARGIN_TEXT, width=2)
        draw.text((at(t), y1 + 10), str(t), fill=pal.MARGIN_TEXT, font=face, anchor="mt")
    draw.text(((x0 + last_x) / 2, y1 + 40), _("turn"), fill=pal.MARGIN_TEXT, font=face, anchor="mt")
    if final is not None:
        x = (last_x + x1) / 2
        for dash in range(int(y0), int(y1), 12):
            draw.line([x, dash, x, min(dash + 6, y1)], fill=pal.MARGIN_TEXT, width=1)
        draw.text((x1, y1 + 40), _("final scoring"), fill=pal.MARGIN_TEXT, font=face, anchor="rt")
    ends: list[tuple[float, int]] = []
    for i in range(len(story.players)):
        colour = pal.PLAYERS[i % len(pal.PLAYERS)]
        points = [(at(t), y1 - (y1 - y0) * scores[i] / top) for t, scores in enumerate(timeline)]
        draw.line(points, fill=pal.outline_for(colour), width=6, joint="curve")
        draw.line(points, fill=colour, width=4, joint="curve")
        ends.append((points[-1][1], i))
    # Names at the line ends, pushed apart so that none overlaps another.
    gap = face.size + 2 if hasattr(face, "size") else 26
    placed: list[float] = []
    for y, i in sorted(ends):
        y = max(y, placed[-1] + gap) if placed else y
        placed.append(y)
        draw.text((x1 + 8, y), fit(story.players[i], 120, face), fill=pal.MARGIN_TEXT, font=face, anchor="lm")


def render_bag(counts: dict[str, int], title: str) -> Image.Image:
    """What is left in the bag: each kind of tile as it looks, with how many are left (counts only,
    never an order), most numerous first; 6 to a row, phone-sized."""
    from engine.catalog import TILE_TYPES
    from renderer.tile_art import tile_image

    per_row, cell, gap = 6, 104, 20
    # A tile's drawing variants (base.U and base.U.farmhouse: the same edges and features, another
    # decoration) are one kind to a player looking for a tile: counted together, drawn plain.
    merged: dict[str, int] = {}
    for tile_id, n in counts.items():
        plain = ".".join(tile_id.split(".")[:2])
        key = plain if plain in TILE_TYPES else tile_id
        merged[key] = merged.get(key, 0) + n
    kinds = sorted(merged.items(), key=lambda kv: (-kv[1], kv[0]))
    rows = (len(kinds) + per_row - 1) // per_row
    top = PAD + 56
    img = Image.new("RGB", (WIDTH, top + rows * (cell + gap + 34) + PAD), pal.MARGIN_BG)
    draw = ImageDraw.Draw(img)
    big, body = font(34), font(28)
    draw.text((PAD, PAD), fit(title, WIDTH - 2 * PAD, big), fill=pal.MARGIN_TEXT, font=big)
    step = (WIDTH - 2 * PAD) // per_row
    for k, (tile_id, n) in enumerate(kinds):
        x = PAD + (k % per_row) * step + (step - cell) // 2
        y = top + (k // per_row) * (cell + gap + 34)
        tile = TILE_TYPES.get(tile_id)
        if tile is not None:
            art = tile_image(tile, 0, cell // max(1 + max(c[0] for c in tile.cells), 1 + max(c[1] for c in tile.cells)))
            img.paste(art.convert("RGB"), (x + (cell - art.width) // 2, y + (cell - art.height) // 2))
        draw.rectangle([x, y, x + cell - 1, y + cell - 1], outline=pal.EMPTY_CELL, width=2)
        draw.text((x + cell // 2, y + cell + 18), f"×{n}", fill=pal.MARGIN_TEXT, font=body, anchor="mm")
    return img

