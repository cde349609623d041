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
from engine.tiles import TileType
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
FOLLOWER_AT_PHONE = 18  # a follower's height in phone pixels, on the turn picture

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
        # Each half overlaps the middle by one cell, so nothing at the seam is lost; the outer sides
        # keep the ring of empty cells around the tiles, where the legal cells are.
        x0, x1 = (min(xs) - 1, math.ceil(mid_x)) if region[1] == "w" else (math.floor(mid_x), max(xs) + 1)
        y0, y1 = (min(ys) - 1, math.ceil(mid_y)) if region[0] == "n" else (math.floor(mid_y), max(ys) + 1)
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
        hand_tile = game.drawn if legal and game.step == "tile" else None
        img = with_legend(img, game, max(14, min(40, img.width // 34)), hand_tile=hand_tile)
    if max(img.size) > MAX_SIDE:
        scale = MAX_SIDE / max(img.size)
        img = img.resize((int(img.width * scale), int(img.height * scale)), Image.Resampling.LANCZOS)
    return img


# How far the turn picture zooms out before it splits: tiles stay >= 32 px at 400 px wide.
TURN_MIN_CELL = math.ceil(32 * TURN_SCALE)
TURN_MARGIN = int(TURN_TEXT * 2.1)  # room for "-12" on the left
TURN_FAR = int(8 * TURN_SCALE)
TURN_ZOOM_COLS = (TURN_WIDTH - TURN_MARGIN - TURN_FAR) // TURN_MIN_CELL
# The tile sizes a turn picture uses, largest first: a few sizes, so that each worker draws each
# tile's art once per size and reuses it (any size a frame could take cost three times as much).
TURN_CELLS = (TURN_MAX_CELL, 86, 70, TURN_MIN_CELL)
TURN_ZOOM_ROWS = 11
TURN_MAX_PICTURES = 9  # Discord takes 10 files a message: the pieces and the legend's picture
HAND_TILE_AT_PHONE = 84  # the tile in hand, in phone pixels (>= 80)


def _window(
    cells: list[Cell], fixed: list[Cell], count: list[Cell], cols: int, rows: int, centre: tuple[float, float]
) -> tuple[int, int, list[Cell]]:
    """The ``cols`` x ``rows`` window over ``cells`` that holds all of ``fixed`` if it can and most of
    ``count``, nearest ``centre``: (x0, y0, the cells of ``count`` inside)."""
    xs = [x for x, _unused in cells]
    ys = [y for _unused, y in cells]
    best: tuple[tuple[bool, int, float], int, int, list[Cell]] | None = None
    for x0 in range(min(xs) - 1, max(max(xs) + 2 - cols, min(xs) - 1) + 1):
        for y0 in range(min(ys) - 1, max(max(ys) + 2 - rows, min(ys) - 1) + 1):
            inside = [c for c in count if x0 <= c[0] < x0 + cols and y0 <= c[1] < y0 + rows]
            has_fixed = all(x0 <= x < x0 + cols and y0 <= y < y0 + rows for x, y in fixed)
            near = abs(x0 + (cols - 1) / 2 - centre[0]) + abs(y0 + (rows - 1) / 2 - centre[1])
            key = (has_fixed, len(inside), -near)
            if best is None or key > best[0]:
                best = (key, x0, y0, inside)
    assert best is not None
    return best[1], best[2], best[3]


def _turn_frame(cells: list[Cell], least: tuple[int, int]) -> Frame:
    """A turn picture's frame around ``cells`` with a ring of context where it fits, zoomed so the
    picture stays TURN_WIDTH wide (tiles between TURN_MIN_CELL and TURN_MAX_CELL)."""
    xs = [x for x, _unused in cells]
    ys = [y for _unused, y in cells]
    cols = max(least[0], min(TURN_ZOOM_COLS, max(xs) - min(xs) + 3))
    rows = max(least[1], min(TURN_ZOOM_ROWS, max(ys) - min(ys) + 3))
    # Centre the cells; a window narrower than cells + ring keeps the cells (the ring goes first).
    x0 = min(xs) - (cols - (max(xs) - min(xs) + 1)) // 2
    y0 = min(ys) - (rows - (max(ys) - min(ys) + 1)) // 2
    room = TURN_WIDTH - TURN_MARGIN - TURN_FAR
    cell = next((c for c in TURN_CELLS if c * cols <= room), TURN_MIN_CELL)
    return Frame(
        x0, y0, cols, rows, cell, TURN_MARGIN, TURN_FAR, text=TURN_TEXT, follower=FOLLOWER_AT_PHONE * TURN_SCALE / cell
    )


def turn_frames(game: Game, legal: dict[Cell, str] | None) -> list[Frame]:
    """The frames of the turn pictures: the first holds the last placed tile and as many legal
    cells as fit, zoomed out down to tiles of 32 px at 400 px wide; each further one (a piece of the
    board) as many of the legal cells left as fit, until every legal cell is in a picture."""
    placements = game.board.placements
    last = list(placements[-1].cells) if len(placements) > 1 else [(0, 0)]
    footprints = game.footprints() if legal else {}
    # A tile covering several cells (a castle) wants its other cells in view too.
    wanted = {c: [c, *sorted(footprints.get(c, ()))] for c in legal or ()}
    todo = list(wanted)
    centre = (sum(x for x, _unused in last) / len(last), sum(y for _unused, y in last) / len(last))
    frames: list[Frame] = []
    while todo and len(frames) < TURN_MAX_PICTURES:
        fixed = last if not frames else []
        area = fixed + [c for t in todo for c in wanted[t]]
        xs = [x for x, _unused in area]
        ys = [y for _unused, y in area]
        if max(xs) - min(xs) < TURN_ZOOM_COLS and max(ys) - min(ys) < TURN_ZOOM_ROWS:
            shown = area
        else:
            x0, y0, inside = _window(area, fixed, todo, TURN_ZOOM_COLS, TURN_ZOOM_ROWS, centre)
            shown = fixed + [
                c for t in inside for c in wanted[t]
                if x0 <= c[0] < x0 + TURN_ZOOM_COLS and y0 <= c[1] < y0 + TURN_ZOOM_ROWS
            ]  # fmt: skip
        frames.append(_turn_frame(shown, (5, 4) if not frames else (3, 3)))
        todo = [t for t in todo if not frames[-1].contains(*t)]
        if todo:
            centre = todo[0]
    return frames or [_turn_frame(last, (5, 4))]


def turn_frame(game: Game, legal: dict[Cell, str] | None) -> tuple[Frame, int]:
    """The first turn picture's frame, and how many legal cells it leaves to the further pieces."""
    frames = turn_frames(game, legal)
    return frames[0], sum(1 for c in legal or () if not frames[0].contains(*c))


def render_turn(game: Game, legal: dict[Cell, str] | None = None, clocks: list[str] | None = None) -> Image.Image:
    """The picture for the player to move, made to be read 400 px wide on a phone (the first of
    ``render_turn_pieces``)."""
    return render_turn_pieces(game, legal, clocks)[0]


def render_turn_pieces(
    game: Game, legal: dict[Cell, str] | None = None, clocks: list[str] | None = None
) -> list[Image.Image]:
    """The pictures for the player to move, made to be read 400 px wide on a phone.

    The first shows the last placed tile and the legal cells around it, lettered, with the legend:
    the tile in hand drawn big, each player's score, time bank and hand. Legal cells it cannot show
    with tiles of 32 px or more at 400 px come in further pictures (pieces of the board), lettered
    the same way, so every legal cell is lettered in some picture.
    ``clocks``: each player's time bank as words ("2d 4h"), shown after their score.
    """
    frames = turn_frames(game, legal)
    footprints = game.footprints() if legal else {}
    pictures = []
    for k, frame in enumerate(frames):
        shown = {c: v for c, v in (legal or {}).items() if frame.contains(*c)}
        img = draw_area(game, frame, shown, game.board.placements, k == 0, figures_too=True, both_sides=False)
        if footprints:
            _draw_footprints(img, frame, {c: footprints[c] for c in shown if c in footprints})
        pictures.append(img)
    left_out = sum(1 for c in legal or () if not any(f.contains(*c) for f in frames))
    # Each legal cell's first picture: the notes list where the letters not in the first one are.
    first_in = {c: next((k for k, f in enumerate(frames) if f.contains(*c)), None) for c in legal or ()}
    later = [legal[c] for c, k in first_in.items() if k]  # type: ignore[index]
    more = len(frames) - 1
    notes = []
    if more:
        notes.append(
            ngettext("also {labels} in the next picture", "also {labels} in the next {n} pictures", more).format(
                labels=_label_list(later), n=more
            )
        )
    if left_out:
        more_cells = ngettext("+{n} more cell: /carc place", "+{n} more cells: /carc place", left_out)
        notes.append(more_cells.format(n=left_out))
    if footprints:
        notes.append(_("lettered cells: where a castle may go"))
    out = [with_legend(pictures[0], game, TURN_TEXT, note=" · ".join(notes), pad=int(6 * TURN_SCALE), clocks=clocks,
                       hand_tile=game.drawn if game.step == "tile" else None)]  # fmt: skip
    for k, img in enumerate(pictures[1:], start=1):
        labels = [legal[c] for c, first in first_in.items() if first == k]  # type: ignore[index]
        head = _("picture {k} of {n}: {labels}").format(k=k + 1, n=len(pictures), labels=_label_list(labels))
        out.append(_with_head(img, head, TURN_TEXT, int(6 * TURN_SCALE)))
    return out


def _label_list(labels: list[str]) -> str:
    """Labels in their order (A, B, ... Z, AA): "G, H, N" — the first and last of a long list."""
    ordered = sorted(labels, key=lambda v: (len(v), v))
    if len(ordered) > 8:
        return f"{', '.join(ordered[:6])} … {ordered[-1]}"
    return ", ".join(ordered)


def _with_head(img: Image.Image, head: str, text: int, pad: int) -> Image.Image:
    row = int(text * 1.6)
    out = Image.new("RGB", (img.width, img.height + row + pad), pal.MARGIN_BG)
    put_line(out, pad, pad / 2 + row / 2, head, text)
    out.paste(img, (0, row + pad))
    return out


def _draw_footprints(img: Image.Image, frame: Frame, footprints: dict[Cell, set[Cell]]) -> None:
    """For each lettered cell of a tile covering several cells (a castle): a bar across each edge into
    a cell the tile may also cover, so a player sees which way it may lie."""
    draw = ImageDraw.Draw(img)
    s = frame.cell
    for (x, y), cells in footprints.items():
        ox, oy = frame.origin(x, y)
        cx, cy = ox + s / 2, oy + s / 2
        for cx2, cy2 in cells:
            dx, dy = cx2 - x, cy2 - y
            if (dx, dy) == (0, 0) or abs(dx) + abs(dy) != 1:
                continue
            ex, ey = cx + dx * s / 2, cy + dy * s / 2  # the middle of the shared edge
            half_w, half_l = s * 0.12, s * 0.22
            box = (
                [ex - half_l, ey - half_w, ex + half_l, ey + half_w]
                if dx
                else [ex - half_w, ey - half_l, ex + half_w, ey + half_l]
            )
            draw.rounded_rectangle(box, radius=int(half_w), fill=pal.CASTLE, outline=pal.LEGAL, width=max(2, s // 30))


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
    img: Image.Image, game: Game, text: int, note: str = "", pad: int = 8, clocks: list[str] | None = None,
    hand_tile: TileType | None = None, hands: bool = True,
) -> Image.Image:  # fmt: skip
    """The picture with a legend band below: each player's mark, colour, name, score (time bank) and
    hand; who acts; the tile in hand drawn big."""
    band = legend_band(game, img.width, text, note, pad, clocks=clocks, hand_tile=hand_tile, hands=hands)
    out = Image.new("RGB", (img.width, img.height + band.height), pal.MARGIN_BG)
    out.paste(img, (0, 0))
    out.paste(band, (0, img.height))
    return out


def legend_band(
    game: Game, width: int, text: int, note: str = "", pad: int = 8, score_digits: int = 0,
    clocks: list[str] | None = None, hand_tile: TileType | None = None, hands: bool = False,
) -> Image.Image:  # fmt: skip
    """The legend alone, ``width`` wide: the turn (or game over), then each player's entry.

    ``score_digits`` reserves room for scores that long, so that every frame of a
    replay has the same layout (digits all have the same width). ``clocks``: each player's time
    bank in words, written after their score. ``hand_tile``: the tile in hand, drawn big on the
    left. ``hands``: each entry has a second line, what the player holds (followers, castles).
    """
    row = int(text * 1.6)
    tile_side = int(HAND_TILE_AT_PHONE * text / (TURN_TEXT / TURN_SCALE)) if hand_tile is not None else 0
    left = tile_side + pad if tile_side else 0
    inner = width - left
    lines = legend_lines(game)
    clocks = clocks if clocks is not None and len(clocks) == len(game.players) else None
    held = [_hand_words(game, i) for i in range(len(game.players))] if hands else None
    small = int(text * 0.85)
    names = [
        text_stamp(name + (f"  {clocks[i]}" if clocks else ""), text)[0].width for i, name in enumerate(game.players)
    ]
    gap = text // 2
    room = text_stamp("0" * score_digits, text)[0].width if score_digits else 0
    widest = max(w + gap + max(room, text_stamp(str(game.scores[i]), text)[0].width) for i, w in enumerate(names))
    two_lines = False
    if held:
        hand_w = math.ceil(max(_hand_width(h, small, row) for h in held))
        if row * 2.6 + widest + hand_w + text <= inner - 2 * pad:  # the hand fits after the score
            widest += hand_w + text
        else:
            widest, two_lines = max(widest, hand_w), True  # the hand on a line of its own
    entry_w = int(row * 1.6 + widest + row)
    per_row = max(1, min(len(lines), (inner - 2 * pad) // entry_w))
    n_rows = math.ceil(len(lines) / per_row)
    entry_h = row * 2 if two_lines else row
    if game.finished:
        status = _("game over")
    else:
        status = ngettext("turn {turn} · {n} tile left", "turn {turn} · {n} tiles left", game.bag_left).format(
            turn=game.turn, n=game.bag_left
        )
    heads = [status + (f" · {note}" if note else "")]
    if note and line_width(heads[0], text) > inner - 2 * pad:
        heads = [status, *_wrapped(note, text, inner - 2 * pad)]  # too wide for one line: the note below
    height = max(pad * 2 + row * len(heads) + entry_h * n_rows, pad * 2 + row + tile_side if tile_side else 0)
    out = Image.new("RGB", (width, height), pal.MARGIN_BG)
    top = pad
    for line in heads:
        put_line(out, left + pad, top + row / 2, line, text)
        top += row
    col_w = (inner - 2 * pad) // per_row
    for k, (i, _label, acting) in enumerate(lines):
        entry = _legend_entry(
            game.players[i], game.scores[i], i, acting, text, min(col_w, entry_w), clocks[i] if clocks else "",
            held[i] if held else None, two_lines,
        )  # fmt: skip
        out.paste(entry, (left + pad + (k % per_row) * col_w, top + entry_h * (k // per_row)))
    if hand_tile is not None:
        put_text(out, pad + tile_side / 2, pad + row / 2, _("in hand"), small, anchor="mm")
        art = tile_image(hand_tile, 0, tile_side)
        y = pad + row
        out.paste(art, (pad, y), art)
        frame_box = [pad - 2, y - 2, pad + art.width + 1, y + art.height + 1]
        ImageDraw.Draw(out).rectangle(frame_box, outline=pal.LEGAL, width=2)
    return out


def _wrapped(text: str, size: int, width: int) -> list[str]:
    """``text`` cut at its " · " separators (then at spaces) into lines at most ``width`` wide."""
    lines: list[str] = []
    for part in text.split(" · "):
        words = part.split(" ")
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if line and line_width(candidate, size) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


HandWords = tuple[tuple[str, int, str], ...]


def _hand_words(game: Game, player: int) -> HandWords:
    """What a player holds, as (kind, count, name) to draw: ``Game.hand``."""
    return tuple((item.kind, item.number, item.name) for item in game.hand(player))


def _hand_width(held: HandWords, size: int, row: int) -> float:
    return sum(row * 0.7 + line_width(_hand_text(count, name), size) + size for _kind, count, name in held)


def _hand_text(count: int, name: str) -> str:
    return name if name else f"×{count}"


Figure = BoardFigure  # what stands on the board, as the engine hands it over (engine.moves)


def placed_figures(game: Game) -> list[Figure]:
    """Every figure on the board, in drawing order (``Game.board_figures``): plain views whose
    equality changes whenever their drawing would, so a replay redraws only what changed."""
    return game.board_figures()


@functools.lru_cache(maxsize=1024)
def _legend_entry(
    name: str, score: int, player: int, acting: bool, text: int, width: int, clock: str = "",
    held: HandWords | None = None, two_lines: bool = False,
) -> Image.Image:  # fmt: skip
    """One player's legend entry (turn mark, follower, name, score, time bank; then, after them or on
    a second line, what they hold), drawn once: every frame of a replay repeats the same few."""
    row = int(text * 1.6)
    out = Image.new("RGB", (width, row * 2 if two_lines else row), pal.MARGIN_BG)
    draw = ImageDraw.Draw(out)
    if acting:
        draw.rounded_rectangle(
            [0, 2, width - 4, out.height - 2], radius=row // 4, fill=pal.TURN_MARK, outline=(0, 0, 0), width=2
        )
    figures.meeple(draw, row * 0.55, row / 2, row * 0.8, player)
    name_w = put_text(out, row * 1.2, row / 2, name, text)
    score_w = put_text(out, row * 1.2 + name_w + text // 2, row / 2, str(score), text)
    end = row * 1.2 + name_w + text // 2 + score_w
    if clock:
        end += text // 2 + put_text(out, end + text // 2, row / 2, clock, int(text * 0.85))
    if held is not None:
        small = int(text * 0.85)
        x, y = (row * 1.2, row * 1.5) if two_lines else (end + text, row / 2)
        for kind, count, what in held:
            icon = hand_icon(kind)
            if icon is not None:
                icon(draw, x + row * 0.3, y, row * 0.55, player)
                x += row * 0.7
            x += put_text(out, x, y, _hand_text(count, what), small) + small
    return out


HandIcon = Callable[[ImageDraw.ImageDraw, float, float, float, int], None]
#: The small drawing before each kind of thing a player holds, by ``HeldItem.kind`` (``holds``).
HAND_ICONS: dict[str, HandIcon] = {}


def holds(kind: str) -> Callable[[HandIcon], HandIcon]:
    """Register the icon of a kind of thing held in a hand (``@holds("castle")``)."""

    def register(fn: HandIcon) -> HandIcon:
        HAND_ICONS[kind] = fn
        return fn

    return register


def hand_icon(kind: str) -> HandIcon | None:
    """The icon of a kind of thing held, registered by the core or an expansion's drawing module."""
    if kind not in HAND_ICONS:
        expansion_drawings()
    return HAND_ICONS.get(kind)


@holds("follower")
def _follower_icon(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, player: int) -> None:
    figures.meeple(draw, x, y, size, player)


@holds("castle")
def _castle_icon(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, player: int) -> None:
    r = size / 2
    draw.rectangle([x - r, y - r * 0.5, x + r, y + r], fill=pal.CASTLE, outline=pal.CASTLE_EDGE, width=2)
    for k in range(3):  # battlements
        bx = x - r + k * r * 0.8
        draw.rectangle([bx, y - r, bx + r * 0.4, y - r * 0.5], fill=pal.CASTLE, outline=pal.CASTLE_EDGE, width=1)


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


def figure_spot(game: Game, frame: Frame, node: int) -> tuple[float, float]:
    """Where a figure standing on ``node`` is drawn in ``frame``: its segment's spot on its tile."""
    p = game.board.placement_of(node)
    ox, oy = frame.origin(min(c[0] for c in p.cells), min(c[1] for c in p.cells))
    sx, sy = spots(p.tile, p.rot, frame.cell)[node - p.first_node]
    return ox + sx, oy + sy


@draws("follower")
def _follower(img: Image.Image, draw: ImageDraw.ImageDraw, game: Game, frame: Frame, figure: Figure) -> None:
    (node,) = figure.data
    x, y = figure_spot(game, frame, node)
    feature = game.board.kind[node]
    size = frame.cell * frame.follower * (1.35 if feature == "castle" else 1.0)
    figures.paste_meeple(img, x, y, size, figure.owner or 0, lying=feature == "field")


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


def png_bytes_adaptive(img: Image.Image) -> bytes:
    """PNG in a palette made for this picture (the board's former encoder, kept for the benchmark's
    comparison)."""
    out = io.BytesIO()
    img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=6
    )
    return out.getvalue()


def chart_png_bytes(img: Image.Image) -> bytes:
    """PNG in true colour, for pictures that are not boards (tables, the bracket, the story): their
    tints are in no fixed palette (the board's turned them grey) and a palette made per picture
    shifts them; flat colours compress well all the same."""
    out = io.BytesIO()
    img.convert("RGB").save(out, format="PNG", compress_level=6)
    return out.getvalue()
