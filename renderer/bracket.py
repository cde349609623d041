"""A playoff bracket as a picture (for /league bracket and the playoffs' posts).

Drawn 800 px wide like the league tables, so that at the 400 px a phone shows the names stay
readable: one column per round, each match a box of two lines (player, games won), the winner's
line tinted, lines from each match to the one its winner plays next. A double elimination has
the winners' bracket (and the grand final) on top and the losers' bracket below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image, ImageDraw

from engine.language import _, sentence
from renderer import palette as pal
from renderer.standings import ELLIPSIS, MUTED, NAME_SIZE_MIN, PAD, WIDTH, fit, fit_shrunk
from renderer.tile_art import font

TITLE_SIZE, HEAD_SIZE = 34, 22
LINE = (150, 154, 160)
BOX_BG, WIN_BG, OPEN_EDGE = (244, 245, 247), (214, 238, 214), (60, 110, 200)
PENDING = "?"


class Box(Protocol):
    """What the picture needs of a match (``service.leagues.BracketBox`` has it)."""

    number: int
    bracket: str
    stage: str
    column: str
    home: str | None
    away: str | None
    home_won: float
    away_won: float
    winner: str | None
    state: str
    feeds: list[int]


def games_text(won: float) -> str:
    """ "2", "1½" (a drawn game counts half)."""
    whole, half = int(won), won - int(won) >= 0.5
    return (str(whole) if whole or not half else "") + ("½" if half else "")


def render_bracket(title: str, boxes: Sequence[Box], champion: str | None) -> Image.Image:
    winners, losers = [b for b in boxes if b.bracket in ("W", "F")], [b for b in boxes if b.bracket == "L"]
    # A double elimination names its two brackets; a single one needs no heading.
    sections = [(_("Winners' bracket") if losers else "", winners)]
    if losers:
        sections.append((_("Losers' bracket"), losers))
    parts = [_section(part, heading) for heading, part in sections]
    title_h = TITLE_SIZE + 2 * PAD
    foot_h = (TITLE_SIZE + PAD) if champion else 0
    height = title_h + sum(p.height for p in parts) + PAD * (len(parts) + 1) + foot_h
    img = Image.new("RGB", (WIDTH, height), pal.MARGIN_BG)
    draw = ImageDraw.Draw(img)
    heading, size = fit_shrunk(title, WIDTH - 2 * PAD, TITLE_SIZE, TITLE_SIZE * 3 // 4)  # French titles run long
    draw.text((PAD, PAD), heading, font=font(size), fill=pal.MARGIN_TEXT)
    y = title_h
    for part in parts:
        img.paste(part, (0, y))
        y += part.height + PAD
    if champion:
        said = _("Champion: {player}").format(player=champion)
        draw.text((PAD, y), fit(said, WIDTH - 2 * PAD, font(TITLE_SIZE)), font=font(TITLE_SIZE), fill=pal.MARGIN_TEXT)
    return img


def _section(boxes: list[Box], heading: str = "") -> Image.Image:
    """One bracket: its rounds as columns (the grand final after the winners' rounds), under its
    ``heading`` if it has one."""
    columns: list[list[Box]] = []
    keys: list[tuple[str, int]] = []
    for box in boxes:
        key = (box.bracket, _round_of(box, boxes))
        if key not in keys:
            keys.append(key)
            columns.append([])
        columns[keys.index(key)].append(box)
    col_w = (WIDTH - 2 * PAD) // len(columns)
    body = max(16, min(24, col_w // 7))
    row_h = int(body * 1.6)
    box_h, gap = 2 * row_h, max(10, body // 2)
    tallest = max(len(c) for c in columns)
    area_h = tallest * (box_h + gap)
    top = (HEAD_SIZE + gap) if heading else 0
    head_h = top + HEAD_SIZE + gap
    img = Image.new("RGB", (WIDTH, head_h + area_h), pal.MARGIN_BG)
    draw = ImageDraw.Draw(img)
    if heading:
        draw.text((PAD, 0), fit(heading, WIDTH - 2 * PAD, font(HEAD_SIZE)), font=font(HEAD_SIZE), fill=pal.MARGIN_TEXT)
    where: dict[int, tuple[int, int, int]] = {}  # match -> (left x, centre y, right x)
    for c, column in enumerate(columns):
        x0 = PAD + c * col_w
        stage = fit(sentence(column[0].column or column[0].stage), col_w - 8, font(HEAD_SIZE))
        draw.text((x0, top), stage, font=font(HEAD_SIZE), fill=MUTED)
        for i, box in enumerate(column):
            centre = head_h + int((i + 0.5) * area_h / len(column))
            where[box.number] = (x0, centre, x0 + col_w - 16)
    for box in boxes:  # the lines first, under the boxes
        x0, cy, _x1 = where[box.number]
        for fed in box.feeds:
            if fed in where:
                fx0, fy, fx1 = where[fed]
                mid = (fx1 + x0) // 2
                draw.line([(fx1, fy), (mid, fy), (mid, cy), (x0, cy)], fill=LINE, width=3)
    for box in boxes:
        x0, cy, x1 = where[box.number]
        _draw_box(draw, box, x0, cy - box_h // 2, x1, row_h, body)
    return img


def _round_of(box: Box, boxes: list[Box]) -> int:
    """The column of a match within its section: its stage's order of first appearance."""
    stages = list(dict.fromkeys(b.stage for b in boxes))
    return stages.index(box.stage)


def _draw_box(draw: ImageDraw.ImageDraw, box: Box, x0: int, y0: int, x1: int, row_h: int, body: int) -> None:
    edge = OPEN_EDGE if box.state == "open" else LINE
    draw.rounded_rectangle([x0, y0, x1, y0 + 2 * row_h], radius=6, fill=BOX_BG, outline=edge, width=3)
    for k, (name, won, side) in enumerate(((box.home, box.home_won, "home"), (box.away, box.away_won, "away"))):
        top = y0 + k * row_h
        if box.winner == side:
            draw.rounded_rectangle([x0 + 3, top + 3, x1 - 3, top + row_h - 3], radius=4, fill=WIN_BG)
        if name is None:
            text, colour = "—", MUTED  # nobody: a bye, or a match both lost
        elif name == PENDING:
            text, colour = ELLIPSIS, MUTED  # not known yet
        else:
            text, colour = name, pal.MARGIN_TEXT
        score = games_text(won) if box.state in ("open", "decided") and name not in (None, PENDING) else ""
        face = font(body)
        score_w = int(face.getlength(score)) + 8 if score else 0
        # A long name shrinks a little before it is cut (NAME_SIZE_MIN at 800 px: 10 px on a phone).
        text, size = fit_shrunk(text, x1 - x0 - 16 - score_w, body, min(body, NAME_SIZE_MIN))
        draw.text((x0 + 8, top + row_h / 2), text, font=font(size), fill=colour, anchor="lm")
        if score:
            draw.text((x1 - 8, top + row_h / 2), score, font=face, fill=pal.MARGIN_TEXT, anchor="rm")
    draw.line([(x0 + 3, y0 + row_h), (x1 - 3, y0 + row_h)], fill=LINE, width=1)
