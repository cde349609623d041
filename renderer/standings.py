"""League tables as pictures (for /league standings).

Made to be read on a phone: drawn 800 px wide, so that at the 400 px a phone shows
it the body text is still 13 px. Ratings arrive on the players' scale (whole
numbers, never negative); a provisional rating carries a "?". Names too long for
their column end in an ellipsis, never in a cut letter. Promotion and relegation
zones are tinted rows with a drawn arrow (the bundled font has no arrow glyphs).
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from engine.language import N_, _
from locales import number, spoken
from renderer import palette as pal
from renderer.tile_art import font

WIDTH = 800
PAD = 20
ROW = 46
TITLE_SIZE, HEAD_SIZE, BODY_SIZE = 34, 22, 26
NAME_SIZE_MIN = 20  # the smallest a name shrinks to before it is cut
MUTED = (110, 112, 118)
STRIPE = (230, 232, 236)
UP_BG, UP_MARK = (214, 238, 214), (46, 139, 62)
DOWN_BG, DOWN_MARK = (246, 218, 214), (190, 58, 44)
ELLIPSIS = "…"


class LadderRow(NamedTuple):
    rank: int
    name: str
    rating: int  # the players' scale
    games: int
    provisional: bool


class DivisionRow(NamedTuple):
    position: int
    name: str
    played: int
    won: int
    drawn: int
    lost: int
    points: int  # league points
    scored: int  # game points
    rating: int
    rating_change: int
    provisional: bool
    zone: str | None  # "up" | "down" | None


def fit(text: str, width: float, face: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> str:
    """``text`` as it fits in ``width`` pixels: whole, or cut with an ellipsis."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text.rstrip() + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def fit_shrunk(text: str, width: float, size: int, smallest: int) -> tuple[str, int]:
    """``text`` and the font size to write it in within ``width``: ``size``, else a smaller one down to
    ``smallest`` (a long name stays whole, a little smaller), cut with an ellipsis only past that."""
    for candidate in range(size, smallest - 1, -1):
        if font(candidate).getlength(text) <= width:
            return text, candidate
    return fit(text, width, font(smallest)), smallest


def rating_text(rating: int, provisional: bool) -> str:
    """A rating as the language being spoken writes numbers ("1,234" / "1 234"), "?" if provisional."""
    return f"{number(rating, spoken())}{'?' if provisional else ''}"


def change_text(change: int) -> str:
    return f"+{change}" if change > 0 else (f"-{-change}" if change < 0 else "=")


def _header(draw: ImageDraw.ImageDraw, y: int, columns: list[tuple[str, int, str]]) -> None:
    head = font(HEAD_SIZE)
    x = PAD
    for message, width, align in columns:
        label = _(message) if message not in ("#", "+/-") else message
        tx = x + width - head.getlength(label) - 8 if align == "r" else x
        draw.text((tx, y), label, fill=MUTED, font=head)
        x += width


def _cells(draw: ImageDraw.ImageDraw, y: int, columns: list[tuple[str, int, str]], cells: list[str], fill) -> None:
    x = PAD
    for (_label, width, align), text in zip(columns, cells, strict=True):
        # Names shrink a little before they are cut: 20 px at 800 is still 10 px on a phone.
        text, size = fit_shrunk(text, width - 10, BODY_SIZE, NAME_SIZE_MIN)
        body = font(size)
        tx = x + width - body.getlength(text) - 8 if align == "r" else x
        draw.text((tx, y + (BODY_SIZE - size) * 0.7), text, fill=fill, font=body)  # on the row's baseline
        x += width


def _title(draw: ImageDraw.ImageDraw, title: str) -> None:
    heading, size = fit_shrunk(title, WIDTH - 2 * PAD, TITLE_SIZE, TITLE_SIZE * 3 // 4)  # French titles run long
    draw.text((PAD, PAD), heading, fill=pal.MARGIN_TEXT, font=font(size))


def _note(draw: ImageDraw.ImageDraw, y: int, text: str) -> None:
    draw.text((PAD, y), fit(text, WIDTH - 2 * PAD, font(HEAD_SIZE - 2)), fill=MUTED, font=font(HEAD_SIZE - 2))


LADDER_COLUMNS = [("#", 60, "l"), (N_("Player"), 470, "l"), (N_("Rating"), 130, "r"), (N_("Games"), 100, "r")]


def render_standings(title: str, rows: list[LadderRow]) -> Image.Image:
    """A rating ladder: rank, player, rating on the players' scale, rated games."""
    top = PAD + TITLE_SIZE + 24
    height = top + ROW * (len(rows) + 1) + 50
    img = Image.new("RGB", (WIDTH, height), pal.MARGIN_BG)
    draw = ImageDraw.Draw(img)
    _title(draw, title)
    _header(draw, top, LADDER_COLUMNS)
    for i, row in enumerate(rows):
        y = top + ROW * (i + 1)
        if i % 2 == 0:
            draw.rectangle([PAD // 2, y - 6, WIDTH - PAD // 2, y + ROW - 10], fill=STRIPE)
        cells = [str(row.rank), row.name, rating_text(row.rating, row.provisional), str(row.games)]
        _cells(draw, y, LADDER_COLUMNS, cells, MUTED if row.provisional else pal.MARGIN_TEXT)
    _note(draw, top + ROW * (len(rows) + 1) + 6, _("? provisional: fewer rated games than the league asks"))
    return img


DIVISION_COLUMNS = [
    ("#", 40, "l"), (N_("Player"), 220, "l"), (N_("P"), 40, "r"), (N_("W"), 40, "r"), (N_("D"), 40, "r"),
    (N_("L"), 40, "r"), (N_("Pts"), 60, "r"), (N_("Score"), 80, "r"), (N_("Rating"), 104, "r"), ("+/-", 92, "r"),
]  # fmt: skip


def render_tables(title: str, tables: list[tuple[str, list[DivisionRow]]]) -> Image.Image:
    """Division tables one under another: played, won, drawn, lost, league points, game
    points scored and rating (with its change this season); zones tinted and marked."""
    heading = HEAD_SIZE + 18
    top = PAD + TITLE_SIZE + 20
    height = top + sum(heading + ROW * (len(rows) + 1) + 12 for _unused, rows in tables) + 80
    img = Image.new("RGB", (WIDTH, height), pal.MARGIN_BG)
    draw = ImageDraw.Draw(img)
    _title(draw, title)
    y = top
    for label, rows in tables:
        draw.text((PAD, y), fit(label, WIDTH - 2 * PAD, font(HEAD_SIZE + 4)), fill=pal.MARGIN_TEXT,
                  font=font(HEAD_SIZE + 4))  # fmt: skip
        y += heading
        _header(draw, y, DIVISION_COLUMNS)
        y += ROW
        for i, row in enumerate(rows):
            background = UP_BG if row.zone == "up" else DOWN_BG if row.zone == "down" else STRIPE if i % 2 else None
            if background is not None:
                draw.rectangle([PAD // 2, y - 6, WIDTH - PAD // 2, y + ROW - 10], fill=background)
            if row.zone is not None:
                _arrow(draw, 4, y - 6, ROW - 4, row.zone)
            cells = [
                str(row.position), row.name, str(row.played), str(row.won), str(row.drawn), str(row.lost),
                str(row.points), str(row.scored), rating_text(row.rating, row.provisional),
                change_text(row.rating_change),
            ]  # fmt: skip
            _cells(draw, y, DIVISION_COLUMNS, cells, pal.MARGIN_TEXT)
            y += ROW
        y += 12
    _note(draw, y, _("Pts: league points · Score: game points · +/-: rating this season"))
    _note(draw, y + 30, _("? provisional rating · green: goes up · red: goes down"))
    return img


def _arrow(draw: ImageDraw.ImageDraw, x: int, y: int, height: int, zone: str) -> None:
    """A small triangle in the row's margin: up for promotion, down for relegation."""
    mid = y + height // 2
    if zone == "up":
        points = [(x, mid + 5), (x + 10, mid + 5), (x + 5, mid - 6)]
        colour = UP_MARK
    else:
        points = [(x, mid - 5), (x + 10, mid - 5), (x + 5, mid + 6)]
        colour = DOWN_MARK
    draw.polygon(points, fill=colour)
