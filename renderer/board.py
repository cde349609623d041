"""Board pictures: the played area plus one ring of empty cells, with coordinates.

``render_board`` composes cached tile art, then draws the figures, the last
placed tile's outline and, on request, labelled legal cells. ``png_bytes``
encodes a picture small enough for Discord.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import Game
from engine.tiledata.wheel import SECTORS
from renderer import figures
from renderer import palette as pal
from renderer.tile_art import crown_points, font, spots, tile_image

MAX_SIDE = 4096
TARGET_SIDE = 1600  # long side aimed for: readable on a phone once Discord scales it
MIN_CELL, MAX_CELL = 40, 96

Cell = tuple[int, int]


@dataclass
class Frame:
    """How board cells map to the picture's pixels."""

    min_x: int
    min_y: int
    cols: int
    rows: int
    cell: int
    margin: int

    def origin(self, x: int, y: int) -> tuple[int, int]:
        return self.margin + (x - self.min_x) * self.cell, self.margin + (y - self.min_y) * self.cell

    @property
    def size(self) -> tuple[int, int]:
        return self.margin * 2 + self.cols * self.cell, self.margin * 2 + self.rows * self.cell


def frame_for(cells: list[Cell], cell: int | None = None) -> Frame:
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    min_x, min_y = min(xs) - 1, min(ys) - 1
    cols, rows = max(xs) - min_x + 2, max(ys) - min_y + 2
    if cell is None:
        cell = max(MIN_CELL, min(MAX_CELL, TARGET_SIDE // max(cols, rows)))
    margin = max(18, cell * 2 // 5)
    return Frame(min_x, min_y, cols, rows, cell, margin)


def render_board(
    game: Game,
    legal: dict[Cell, str] | None = None,
    highlight_last: bool = True,
    frame: Frame | None = None,
    upto: int | None = None,
) -> Image.Image:
    """The board as a picture.

    ``legal`` maps cells to short labels drawn on them (the drawn tile's legal
    cells). ``upto`` draws only the first ``upto`` placed tiles (for replays),
    without figures. ``frame`` fixes the area and cell size (also for replays).
    """
    board = game.board
    placements = board.placements if upto is None else board.placements[:upto]
    cells = [c for p in placements for c in p.cells]
    if legal:
        cells += list(legal)
    frame = frame or frame_for(cells)
    s = frame.cell
    img = Image.new("RGB", frame.size, pal.MARGIN_BG)
    draw = ImageDraw.Draw(img)
    draw.rectangle(
        [frame.margin, frame.margin, frame.margin + frame.cols * s - 1, frame.margin + frame.rows * s - 1],
        fill=pal.EMPTY_CELL,
    )
    for p in placements:
        art = tile_image(p.tile, p.rot, s)
        xs = [c[0] for c in p.cells]
        ys = [c[1] for c in p.cells]
        img.paste(art, frame.origin(min(xs), min(ys)), art)
    _coordinates(draw, frame)
    if upto is None:
        _figures(draw, game, frame)
    if highlight_last and len(placements) > 1:
        _outline(draw, frame, placements[-1].cells, pal.LAST_PLACED, max(3, s // 24))
    if legal:
        f = font(max(10, s // 4))
        for (x, y), label in legal.items():
            ox, oy = frame.origin(x, y)
            _dashed_rect(draw, ox + 2, oy + 2, ox + s - 3, oy + s - 3, pal.LEGAL, max(2, s // 32))
            draw.text((ox + s / 2, oy + s / 2), label, fill=pal.LEGAL, font=f, anchor="mm")
    if max(img.size) > MAX_SIDE:
        scale = MAX_SIDE / max(img.size)
        img = img.resize((int(img.width * scale), int(img.height * scale)), Image.Resampling.LANCZOS)
    return img


def _coordinates(draw: ImageDraw.ImageDraw, frame: Frame) -> None:
    s, m = frame.cell, frame.margin
    f = font(max(10, min(m - 4, s // 4)))
    w, h = frame.size
    for i in range(frame.cols):
        x = m + i * s + s / 2
        label = str(frame.min_x + i)
        draw.text((x, m / 2), label, fill=pal.MARGIN_TEXT, font=f, anchor="mm")
        draw.text((x, h - m / 2), label, fill=pal.MARGIN_TEXT, font=f, anchor="mm")
    for j in range(frame.rows):
        y = m + j * s + s / 2
        label = str(frame.min_y + j)
        draw.text((m / 2, y), label, fill=pal.MARGIN_TEXT, font=f, anchor="mm")
        draw.text((w - m / 2, y), label, fill=pal.MARGIN_TEXT, font=f, anchor="mm")


def _figures(draw: ImageDraw.ImageDraw, game: Game, frame: Frame) -> None:
    board = game.board
    s = frame.cell
    for root, standing in enumerate(board.followers):
        if not standing or board.parent[root] != root:
            continue
        for player, node in standing:
            p = board.placement_of(node)
            seg_index = node - p.first_node
            xs = [c[0] for c in p.cells]
            ys = [c[1] for c in p.cells]
            ox, oy = frame.origin(min(xs), min(ys))
            sx, sy = spots(p.tile, p.rot, s)[seg_index]
            kind = board.kind[node]
            size = s * (0.42 if kind == "castle" else 0.3)
            figures.meeple(draw, ox + sx, oy + sy, size, player, lying=kind == "field")
    wheel = game.expansion_state("wheel")
    if wheel:
        _wheel_figures(draw, game, frame, wheel)
    for key, join in game.expansion_state("ferries").get("at", {}).items():
        x, y = map(int, key.split(","))
        ox, oy = frame.origin(x, y)
        figures.ferry(draw, ox, oy, s, join)
    f = font(max(9, s // 5))
    for player, house in game.expansion_state("toll").get("houses", {}).items():
        ox, oy = frame.origin(house["x"], house["y"])
        figures.tollhouse(draw, ox + s * 0.72, oy + s * 0.28, s * 0.26, player, house["value"], f)


def _wheel_figures(draw: ImageDraw.ImageDraw, game: Game, frame: Frame, wheel: dict) -> None:
    """The pig on its sector and the followers on crown spaces."""
    p = next(p for p in game.board.placements if p.tile.id == "wheel.start")
    ox, oy = frame.origin(p.x, p.y)
    s = frame.cell
    w = 4 * s
    sector = wheel["pig"]
    angle = math.radians(-90 + 60 * sector + 30)
    cx, cy, rad = ox + w / 2, oy + w / 2, w * 0.42
    figures.pig(draw, cx + math.cos(angle) * rad * 0.35, cy + math.sin(angle) * rad * 0.35, s * 0.45)
    for name, spaces in wheel["crowns"].items():
        points = crown_points(SECTORS.index(name), w, w)
        for player, (px, py) in zip(spaces, points, strict=True):
            if player is not None:
                figures.meeple(draw, ox + px, oy + py, s * 0.3, player)


def _outline(draw: ImageDraw.ImageDraw, frame: Frame, cells: list[Cell], colour, width: int) -> None:
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, y0 = frame.origin(min(xs), min(ys))
    x1, y1 = frame.origin(max(xs) + 1, max(ys) + 1)
    draw.rectangle([x0, y0, x1 - 1, y1 - 1], outline=colour, width=width)


def _dashed_rect(draw: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float, colour, width: int) -> None:
    dash = max(4, int((x1 - x0) / 8))
    for a, b, fixed, horizontal in ((x0, x1, y0, True), (x0, x1, y1, True), (y0, y1, x0, False), (y0, y1, x1, False)):
        pos = a
        while pos < b:
            end = min(pos + dash, b)
            if horizontal:
                draw.line([(pos, fixed), (end, fixed)], fill=colour, width=width)
            else:
                draw.line([(fixed, pos), (fixed, end)], fill=colour, width=width)
            pos += 2 * dash


def label_cells(cells: list[Cell]) -> dict[Cell, str]:
    """Short labels for cells (A, B, ... Z, AA, AB ...), in reading order: row by row."""
    out = {}
    for i, (x, y) in enumerate(sorted(cells, key=lambda c: (c[1], c[0]))):
        label = ""
        i += 1
        while i:
            i, r = divmod(i - 1, 26)
            label = chr(65 + r) + label
        out[(x, y)] = label
    return out


def png_bytes(img: Image.Image) -> bytes:
    """PNG with an adaptive palette: the flat board art keeps its look at a fraction of the size."""
    out = io.BytesIO()
    img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=6
    )
    return out.getvalue()
