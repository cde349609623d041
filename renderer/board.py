"""Board pictures: the turn picture for a phone, the full board (or one region of it), with a legend.

``render_turn`` shows what the player to move needs, cut and sized for Discord's
400 px wide view on a phone: the legal cells and the last placed tile. ``render_board``
shows the whole played area (or a region). Both carry a legend: each player's colour,
mark, name and score, and whose turn it is. ``png_bytes`` encodes with one fixed
palette built once, which is several times faster than quantizing every picture.
"""

from __future__ import annotations

import functools
import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import Game
from engine.language import _, ngettext
from engine.moves import BoardFigure
from renderer import figures
from renderer import palette as pal
from renderer.expansions import load_all as expansion_drawings
from renderer.tile_art import crown_points, font, spots, tile_image

MAX_SIDE = 4096
TARGET_SIDE = 1600  # the full board's long side aimed for
MIN_CELL, MAX_CELL = 40, 96

# The turn picture is drawn at TURN_WIDTH px and seen at PHONE_WIDTH: everything is
# sized in phone pixels times TURN_SCALE.
PHONE_WIDTH = 400
TURN_WIDTH = 640
TURN_SCALE = TURN_WIDTH / PHONE_WIDTH
TURN_MAX_COLS, TURN_MAX_ROWS = 7, 8
TURN_MAX_CELL = int(64 * TURN_SCALE)
TURN_TEXT = int(20 * TURN_SCALE)  # font size; capitals are ~0.72 of it: >= 11 px at 400 wide, with room
FOLLOWER_AT_PHONE = 16  # a follower's height in phone pixels, on the turn picture

Cell = tuple[int, int]
Region = str | tuple[int, int] | tuple[int, int, int]
QUADRANTS = ("nw", "ne", "sw", "se")


@dataclass
class Frame:
    """How board cells map to the picture's pixels."""

    min_x: int
    min_y: int
    cols: int
    rows: int
    cell: int
    margin: int
    margin_far: int | None = None  # right and bottom margin (default: as ``margin``)
    text: int = 0  # font size of coordinates and labels (0: derived from the cell)
    follower: float = 0.3  # a follower's size as a share of the cell

    @property
    def far(self) -> int:
        return self.margin if self.margin_far is None else self.margin_far

    def origin(self, x: int, y: int) -> tuple[int, int]:
        return self.margin + (x - self.min_x) * self.cell, self.margin + (y - self.min_y) * self.cell

    @property
    def size(self) -> tuple[int, int]:
        return self.margin + self.far + self.cols * self.cell, self.margin + self.far + self.rows * self.cell

    def contains(self, x: int, y: int) -> bool:
        return self.min_x <= x < self.min_x + self.cols and self.min_y <= y < self.min_y + self.rows


def frame_for(cells: list[Cell], cell: int | None = None) -> Frame:
    """A frame around ``cells`` plus one ring of empty cells."""
    xs = [x for x, _unused in cells]
    ys = [y for _unused, y in cells]
    min_x, min_y = min(xs) - 1, min(ys) - 1
    cols, rows = max(xs) - min_x + 2, max(ys) - min_y + 2
    if cell is None:
        cell = max(MIN_CELL, min(MAX_CELL, TARGET_SIDE // max(cols, rows)))
    margin = max(18, cell * 2 // 5)
    return Frame(min_x, min_y, cols, rows, cell, margin)


def region_cells(game: Game, region: Region) -> list[Cell]:
    """The cells a region covers: a quadrant of the played area, or a square around a cell."""
    placed = [c for p in game.board.placements for c in p.cells]
    if isinstance(region, str):
        if region not in QUADRANTS:
            raise ValueError(f"unknown region {region!r}: use a cell or one of {', '.join(QUADRANTS)}")
        xs = [x for x, _unused in placed]
        ys = [y for _unused, y in placed]
        mid_x, mid_y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        # Each half overlaps the middle by one cell, so nothing at the seam is lost.
        x0, x1 = (min(xs), math.ceil(mid_x)) if region[1] == "w" else (math.floor(mid_x), max(xs))
        y0, y1 = (min(ys), math.ceil(mid_y)) if region[0] == "n" else (math.floor(mid_y), max(ys))
    else:
        x, y = region[0], region[1]
        r = region[2] if len(region) == 3 else 3
        x0, x1, y0, y1 = x - r, x + r, y - r, y + r
    return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]


def render_board(
    game: Game,
    legal: dict[Cell, str] | None = None,
    highlight_last: bool = True,
    frame: Frame | None = None,
    upto: int | None = None,
    region: Region | None = None,
    legend: bool = True,
) -> Image.Image:
    """The board as a picture, with the legend below it.

    ``legal`` maps cells to short labels drawn on them (the drawn tile's legal
    cells). ``region`` restricts the picture to a quadrant ("nw", "ne", "sw", "se")
    or to a square around a cell, ``(x, y)`` or ``(x, y, radius)``. ``upto`` draws
    only the first ``upto`` placed tiles, without figures (for replays); ``frame``
    fixes the area and cell size.
    """
    board = game.board
    placements = board.placements if upto is None else board.placements[:upto]
    if frame is None:
        if region is not None:
            area = region_cells(game, region)
            xs = [x for x, _unused in area]
            ys = [y for _unused, y in area]
            cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
            cell = max(MIN_CELL, min(MAX_CELL, TARGET_SIDE // max(cols, rows)))
            frame = Frame(min(xs), min(ys), cols, rows, cell, max(24, cell * 2 // 5))
            if legal:
                legal = {c: v for c, v in legal.items() if frame.contains(*c)}
        else:
            cells = [c for p in placements for c in p.cells] + list(legal or ())
            frame = frame_for(cells)
    img = draw_area(game, frame, legal, placements, highlight_last, figures_too=upto is None, both_sides=True)
    if legend:
        img = with_legend(img, game, max(14, min(40, img.width // 34)))
    if max(img.size) > MAX_SIDE:
        scale = MAX_SIDE / max(img.size)
        img = img.resize((int(img.width * scale), int(img.height * scale)), Image.Resampling.LANCZOS)
    return img


def turn_frame(game: Game, legal: dict[Cell, str] | None) -> tuple[Frame, int]:
    """The turn picture's frame, and how many legal cells it leaves out.

    It covers the last placed tile and as many legal cells as fit in
    TURN_MAX_COLS x TURN_MAX_ROWS cells, nearest the last tile first.
    """
    placements = game.board.placements
    last = list(placements[-1].cells) if len(placements) > 1 else [(0, 0)]
    wanted = list(legal or ()) + last
    xs = [x for x, _unused in wanted]
    ys = [y for _unused, y in wanted]
    # One ring of context around what is wanted, when it fits.
    cols = min(TURN_MAX_COLS, max(xs) - min(xs) + 3)
    rows = min(TURN_MAX_ROWS, max(ys) - min(ys) + 3)
    cols, rows = max(cols, 5), max(rows, 4)
    lx = sum(x for x, _unused in last) / len(last)
    ly = sum(y for _unused, y in last) / len(last)
    best = None
    for x0 in range(min(xs) - 1, max(xs) + 2 - cols + 1):
        for y0 in range(min(ys) - 1, max(ys) + 2 - rows + 1):
            inside = [c for c in (legal or ()) if x0 <= c[0] < x0 + cols and y0 <= c[1] < y0 + rows]
            has_last = all(x0 <= x < x0 + cols and y0 <= y < y0 + rows for x, y in last)
            centre = abs(x0 + (cols - 1) / 2 - lx) + abs(y0 + (rows - 1) / 2 - ly)
            key = (has_last, len(inside), -centre)
            if best is None or key > best[0]:
                best = (key, x0, y0, len(inside))
    if best is None:  # what is wanted is smaller than the minimum window: centre it
        x0 = (min(xs) + max(xs)) // 2 - cols // 2
        y0 = (min(ys) + max(ys)) // 2 - rows // 2
        shown = len(legal or ())
    else:
        _unused, x0, y0, shown = best
    text = TURN_TEXT
    margin = int(text * 2.1)  # room for "-12" on the left
    far = int(8 * TURN_SCALE)
    cell = min(TURN_MAX_CELL, (TURN_WIDTH - margin - far) // cols)
    frame = Frame(x0, y0, cols, rows, cell, margin, far, text=text, follower=FOLLOWER_AT_PHONE * TURN_SCALE / cell)
    return frame, len(legal or ()) - shown


def render_turn(game: Game, legal: dict[Cell, str] | None = None, clocks: list[str] | None = None) -> Image.Image:
    """The picture for the player to move, made to be read 400 px wide on a phone.

    The neighbourhood of the legal cells (labelled) and of the last placed tile;
    at 400 px wide a tile is >= 40 px, labels >= 11 px, followers >= 14 px.
    Legal cells that do not fit are counted in the legend (``/carc board`` shows them all).
    ``clocks``: each player's time bank as words ("2d 4h"), shown after their score.
    """
    frame, left_out = turn_frame(game, legal)
    shown = {c: v for c, v in (legal or {}).items() if frame.contains(*c)}
    img = draw_area(game, frame, shown, game.board.placements, True, figures_too=True, both_sides=False)
    note = _("+{n} more cells: /carc board").format(n=left_out) if left_out else ""
    return with_legend(img, game, TURN_TEXT, note=note, pad=int(6 * TURN_SCALE), clocks=clocks)


def draw_area(
    game: Game,
    frame: Frame,
    legal: dict[Cell, str] | None,
    placements: list,
    highlight_last: bool,
    figures_too: bool,
    both_sides: bool,
) -> Image.Image:
    s = frame.cell
    w, h = frame.size
    img = Image.new("RGB", (w, h), pal.EMPTY_CELL)
    draw = ImageDraw.Draw(img)
    for p in placements:
        xs = [c[0] for c in p.cells]
        ys = [c[1] for c in p.cells]
        if not any(frame.contains(*c) for c in p.cells):
            continue
        art = tile_image(p.tile, p.rot, s)
        img.paste(art, frame.origin(min(xs), min(ys)), art)
    if figures_too:
        draw_figures(img, game, frame)
    if highlight_last and len(placements) > 1:
        width = max(4, s // 10)
        outline_cells(draw, frame, placements[-1].cells, (0, 0, 0), width + 4)
        outline_cells(draw, frame, placements[-1].cells, pal.LAST_PLACED, width, inset=2)
    if legal:
        f = font(frame.text or max(12, s // 3))
        for (x, y), label in legal.items():
            ox, oy = frame.origin(x, y)
            _dashed_rect(draw, ox + 3, oy + 3, ox + s - 4, oy + s - 4, pal.LEGAL, max(2, s // 28))
            draw.text(
                (ox + s / 2, oy + s / 2),
                label,
                fill=pal.LEGAL,
                font=f,
                anchor="mm",
                stroke_width=2,
                stroke_fill="white",
            )
    # Margins last: a tile reaching out of a region is cut at the frame.
    m, far = frame.margin, frame.far
    draw.rectangle([0, 0, w, m - 1], fill=pal.MARGIN_BG)
    draw.rectangle([0, 0, m - 1, h], fill=pal.MARGIN_BG)
    draw.rectangle([w - far, 0, w, h], fill=pal.MARGIN_BG)
    draw.rectangle([0, h - far, w, h], fill=pal.MARGIN_BG)
    _coordinates(img, frame, both_sides)
    return img


def _coordinates(img: Image.Image, frame: Frame, both_sides: bool) -> None:
    s, m = frame.cell, frame.margin
    size = frame.text or max(12, min(m - 4, s // 3))
    w, h = frame.size
    for i in range(frame.cols):
        x = m + i * s + s / 2
        label = str(frame.min_x + i)
        put_text(img, x, m / 2, label, size, anchor="mm")
        if both_sides:
            put_text(img, x, h - m / 2, label, size, anchor="mm")
    for j in range(frame.rows):
        y = m + j * s + s / 2
        label = str(frame.min_y + j)
        put_text(img, m / 2, y, label, size, anchor="mm")
        if both_sides:
            put_text(img, w - m / 2, y, label, size, anchor="mm")


def legend_lines(game: Game) -> list[tuple[int, str, bool]]:
    """(player index, "Name  score" text, is to act) for the legend, in seat order."""
    acting = None if game.finished else game.actor
    return [(i, f"{name}  {game.scores[i]}", i == acting) for i, name in enumerate(game.players)]


@functools.lru_cache(maxsize=2048)
def text_stamp(text: str, size: int, anchor: str = "lm") -> tuple[Image.Image, int, int]:
    """(mask, dx, dy): ``text`` rendered once, to paste with its ``anchor`` point at (x, y) + (dx, dy).

    Coordinates and legends repeat the same names and numbers on every picture and
    every frame of a replay: rendering them once and pasting is several times faster.
    """
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=f, anchor=anchor)
    return mask, left, top


def put_text(
    img: Image.Image, x: float, y: float, text: str, size: int, colour=pal.MARGIN_TEXT, anchor: str = "lm"
) -> int:
    """Draw ``text`` with its ``anchor`` point at (x, y); returns its width from x."""
    mask, dx, dy = text_stamp(text, size, anchor)
    ImageDraw.Draw(img).bitmap((round(x) + dx, round(y) + dy), mask, fill=colour)
    return mask.width + dx


def put_line(img: Image.Image, x: float, y: float, text: str, size: int) -> None:
    """``put_text`` for a line whose numbers change from picture to picture ("turn 12 · 40
    tiles left"): its words and numbers are stamped apart, so the frames of a replay reuse
    a few stamps instead of rendering every line anew."""
    for piece in re.findall(r"\d+|\D+", text):
        put_text(img, x, y, piece, size)
        x += _advance(piece, size)


def line_width(text: str, size: int) -> float:
    """How wide ``put_line`` draws ``text``."""
    return sum(_advance(piece, size) for piece in re.findall(r"\d+|\D+", text))


@functools.lru_cache(maxsize=1024)
def _advance(text: str, size: int) -> float:
    return font(size).getlength(text)


def with_legend(
    img: Image.Image, game: Game, text: int, note: str = "", pad: int = 8, clocks: list[str] | None = None
) -> Image.Image:
    """The picture with a legend band below: each player's mark, colour, name, score (and time
    bank); who acts."""
    band = legend_band(game, img.width, text, note, pad, clocks=clocks)
    out = Image.new("RGB", (img.width, img.height + band.height), pal.MARGIN_BG)
    out.paste(img, (0, 0))
    out.paste(band, (0, img.height))
    return out


def legend_band(
    game: Game, width: int, text: int, note: str = "", pad: int = 8, score_digits: int = 0,
    clocks: list[str] | None = None,
) -> Image.Image:  # fmt: skip
    """The legend alone, ``width`` wide: the turn (or game over), then each player's entry.

    ``score_digits`` reserves room for scores that long, so that every frame of a
    replay has the same layout (digits all have the same width). ``clocks``: each player's time
    bank in words, written after their score.
    """
    row = int(text * 1.6)
    lines = legend_lines(game)
    clocks = clocks if clocks is not None and len(clocks) == len(game.players) else None
    names = [
        text_stamp(name + (f"  {clocks[i]}" if clocks else ""), text)[0].width for i, name in enumerate(game.players)
    ]
    gap = text // 2
    room = text_stamp("0" * score_digits, text)[0].width if score_digits else 0
    widest = max(w + gap + max(room, text_stamp(str(game.scores[i]), text)[0].width) for i, w in enumerate(names))
    entry_w = int(row * 1.6 + widest + row)
    per_row = max(1, min(len(lines), (width - 2 * pad) // entry_w))
    n_rows = math.ceil(len(lines) / per_row)
    if game.finished:
        status = _("game over")
    else:
        status = ngettext("turn {turn} · {n} tile left", "turn {turn} · {n} tiles left", game.bag_left).format(
            turn=game.turn, n=game.bag_left
        )
    heads = [status + (f" · {note}" if note else "")]
    if note and line_width(heads[0], text) > width - 2 * pad:
        heads = [status, note]  # too wide for one line: the note gets its own
    out = Image.new("RGB", (width, pad * 2 + row * (n_rows + len(heads))), pal.MARGIN_BG)
    top = pad
    for line in heads:
        put_line(out, pad, top + row / 2, line, text)
        top += row
    top -= row
    col_w = (width - 2 * pad) // per_row
    for k, (i, _label, acting) in enumerate(lines):
        entry = _legend_entry(
            game.players[i], game.scores[i], i, acting, text, min(col_w, entry_w), clocks[i] if clocks else ""
        )
        out.paste(entry, (pad + (k % per_row) * col_w, top + row * (1 + k // per_row)))
    return out


Figure = BoardFigure  # what stands on the board, as the engine hands it over (engine.moves)


def placed_figures(game: Game) -> list[Figure]:
    """Every figure on the board, in drawing order (``Game.board_figures``): plain views whose
    equality changes whenever their drawing would, so a replay redraws only what changed."""
    return game.board_figures()


@functools.lru_cache(maxsize=1024)
def _legend_entry(
    name: str, score: int, player: int, acting: bool, text: int, width: int, clock: str = ""
) -> Image.Image:
    """One player's legend entry (turn mark, follower, name, score, time bank), drawn once:
    every frame of a replay repeats the same few."""
    row = int(text * 1.6)
    out = Image.new("RGB", (width, row), pal.MARGIN_BG)
    draw = ImageDraw.Draw(out)
    if acting:
        draw.rounded_rectangle(
            [0, 2, width - 4, row - 2], radius=row // 4, fill=pal.TURN_MARK, outline=(0, 0, 0), width=2
        )
    figures.meeple(draw, row * 0.55, row / 2, row * 0.8, player)
    name_w = put_text(out, row * 1.2, row / 2, name, text)
    score_w = put_text(out, row * 1.2 + name_w + text // 2, row / 2, str(score), text)
    if clock:
        put_text(out, row * 1.2 + name_w + score_w + text, row / 2, clock, int(text * 0.85))
    return out


def draw_figures(img: Image.Image, game: Game, frame: Frame, figures_on: list[Figure] | None = None) -> None:
    """Draw the figures (``placed_figures``, or the ones given) in ``frame``, each kind with its
    function in ``FIGURE_DRAWINGS``."""
    draw = ImageDraw.Draw(img)
    for figure in placed_figures(game) if figures_on is None else figures_on:
        drawing = FIGURE_DRAWINGS.get(figure.kind)
        if drawing is None:  # an expansion's figure: its module (renderer/expansions/) registers the drawing
            expansion_drawings()
            drawing = FIGURE_DRAWINGS.get(figure.kind)
        if drawing is None:
            raise ValueError(f"no drawing for the figure kind {figure.kind!r} (renderer.board.draws)")
        drawing(img, draw, game, frame, figure)


FigureDrawing = Callable[[Image.Image, ImageDraw.ImageDraw, Game, Frame, Figure], None]
#: How each kind of figure is drawn: the one place a new expansion's figure needs a line (``draws``).
FIGURE_DRAWINGS: dict[str, FigureDrawing] = {}


def draws(kind: str) -> Callable[[FigureDrawing], FigureDrawing]:
    """Register the drawing of a kind of figure (``@draws("ferry")``)."""

    def register(fn: FigureDrawing) -> FigureDrawing:
        FIGURE_DRAWINGS[kind] = fn
        return fn

    return register


@draws("follower")
def _follower(img: Image.Image, draw: ImageDraw.ImageDraw, game: Game, frame: Frame, figure: Figure) -> None:
    (node,) = figure.data
    board, s = game.board, frame.cell
    p = board.placement_of(node)
    ox, oy = frame.origin(min(c[0] for c in p.cells), min(c[1] for c in p.cells))
    sx, sy = spots(p.tile, p.rot, s)[node - p.first_node]
    feature = board.kind[node]
    size = s * frame.follower * (1.35 if feature == "castle" else 1.0)
    figures.paste_meeple(img, ox + sx, oy + sy, size, figure.owner or 0, lying=feature == "field")


@draws("pig")
def _pig(img: Image.Image, draw: ImageDraw.ImageDraw, game: Game, frame: Frame, figure: Figure) -> None:
    x, y, sector = figure.data
    s = frame.cell
    ox, oy = frame.origin(x, y)
    w = 4 * s
    angle = math.radians(-90 + 60 * sector + 30)
    cx, cy, rad = ox + w / 2, oy + w / 2, w * 0.42
    figures.pig(draw, cx + math.cos(angle) * rad * 0.32, cy + math.sin(angle) * rad * 0.32, s * 0.6)


@draws("crowns")
def _crowns(img: Image.Image, draw: ImageDraw.ImageDraw, game: Game, frame: Frame, figure: Figure) -> None:
    x, y, sector, spaces = figure.data
    s = frame.cell
    ox, oy = frame.origin(x, y)
    for player, (px, py) in zip(spaces, crown_points(sector, 4 * s, 4 * s), strict=True):
        if player is not None:
            figures.meeple(draw, ox + px, oy + py, s * max(0.3, frame.follower), player)


@draws("ferry")
def _ferry(img: Image.Image, draw: ImageDraw.ImageDraw, game: Game, frame: Frame, figure: Figure) -> None:
    x, y, join = figure.data
    ox, oy = frame.origin(x, y)
    figures.ferry(draw, ox, oy, frame.cell, join)


@draws("toll")
def _toll(img: Image.Image, draw: ImageDraw.ImageDraw, game: Game, frame: Frame, figure: Figure) -> None:
    x, y, value = figure.data
    s = frame.cell
    ox, oy = frame.origin(x, y)
    figures.tollhouse(draw, ox + s * 0.72, oy + s * 0.28, s * 0.3, figure.owner or 0, value, font(max(12, s // 4)))


def outline_cells(
    draw: ImageDraw.ImageDraw, frame: Frame, cells: list[Cell], colour, width: int, inset: int = 0
) -> None:
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, y0 = frame.origin(min(xs), min(ys))
    x1, y1 = frame.origin(max(xs) + 1, max(ys) + 1)
    draw.rectangle([x0 + inset, y0 + inset, x1 - 1 - inset, y1 - 1 - inset], outline=colour, width=width)


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


def _palette_colours() -> list[tuple[int, int, int]]:
    named = [v for k, v in vars(pal).items() if k.isupper() and isinstance(v, tuple) and len(v) == 3]
    named += list(pal.PLAYERS) + [(0, 0, 0), (255, 255, 255), (60, 40, 30), (90, 110, 60)]
    # The preview veils its neighbours: those blends too.
    named += [
        tuple(round(a * 0.55 + b * 0.45) for a, b in zip(c, pal.MARGIN_BG, strict=True))  # type: ignore[misc]
        for c in (pal.FIELD, pal.CITY, pal.ROAD, pal.RIVER, pal.LAKE, pal.WALL, pal.EMPTY_CELL)
    ]
    unique = list(dict.fromkeys(named))
    levels = 6 if len(unique) <= 40 else 5
    steps = [round(255 * k / (levels - 1)) for k in range(levels)]
    cube = [(r, g, b) for r in steps for g in steps for b in steps]
    out = unique + [c for c in cube if c not in unique]
    return out[:256]


def _palette_image() -> Image.Image:
    colours = _palette_colours()
    flat = [v for c in colours for v in c]
    flat += flat[:3] * (256 - len(colours))
    img = Image.new("P", (1, 1))
    img.putpalette(flat)
    return img


FIXED_PALETTE = _palette_image()


def palettised(img: Image.Image) -> Image.Image:
    """The picture in the fixed palette (nearest colour, no dithering)."""
    if img.mode != "RGB":
        img = img.convert("RGB")
    return img.quantize(palette=FIXED_PALETTE, dither=Image.Dither.NONE)


def png_bytes(img: Image.Image, compress_level: int = 1) -> bytes:
    """PNG in the fixed palette built once: the flat board art keeps its look, fast."""
    out = io.BytesIO()
    palettised(img).save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()


def png_bytes_quantized(img: Image.Image) -> bytes:
    """The former encoder (an adaptive palette per picture), kept for the benchmark's comparison."""
    out = io.BytesIO()
    img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=6
    )
    return out.getvalue()
