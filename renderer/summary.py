"""End of game: the final board with a score chart, and an animated replay."""

from __future__ import annotations

import io
import itertools
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from engine import Game
from engine.record import game_from_record, new_game
from renderer import palette as pal
from renderer.board import (
    FIXED_PALETTE,
    Cell,
    Figure,
    Frame,
    draw_area,
    draw_figures,
    frame_for,
    legend_band,
    outline_cells,
    palettised,
    placed_figures,
    render_board,
)
from renderer.tile_art import font, tile_image

REPLAY_SIDE = 720  # the animation's long side, in pixels
REPLAY_MIN_WIDTH = 480  # in pixels: room for the legend beside a narrow board
REPLAY_MOST_CELL = 120  # a tile's side while the board is small (the frame follows the board as it grows)
REPLAY_HEADROOM = 3  # empty cells kept around the board (fewer while it is small) when the frame zooms out
REPLAY_FRAME_MS = 350  # a turn's time at most; a long game's turns are shorter (REPLAY_TURNS_MS)
REPLAY_TURNS_MS = 17000  # every turn of a whole game, together: with the last frame, 20 s
# A turn whose changes lie far apart (the board's and the legend's) is two frames, the
# first held this long: viewers show shorter delays as 100 ms (browsers those under 20 ms,
# Apple's ImageIO all of them), which would stretch such turns.
REPLAY_SPLIT_MS = 100
REPLAY_FRAMES_PER_TURN = 2  # at most: the turn's last frame is held the rest of its time
REPLAY_LAST_FRAME_MS = 3000  # the final position stays a while before the loop starts again


def render_final(game: Game) -> Image.Image:
    """The final board above a bar chart of the scores, best first."""
    board = render_board(game, highlight_last=False, legend=False)  # the chart below is the legend
    ranking = sorted(range(len(game.players)), key=lambda i: (-game.scores[i], i))
    row = max(28, board.width // 30)
    chart = Image.new("RGB", (board.width, row * (len(ranking) + 1)), pal.MARGIN_BG)
    draw = ImageDraw.Draw(chart)
    f = font(int(row * 0.6))
    best = max(1, max(game.scores))
    name_w = int(board.width * 0.3)
    bar_w = board.width - name_w - row * 4
    for k, i in enumerate(ranking):
        y = row // 2 + k * row
        colour = pal.PLAYERS[i % len(pal.PLAYERS)]
        draw.rectangle([row // 2, y + 4, row // 2 + row - 8, y + row - 4], fill=colour, outline=pal.outline_for(colour))
        draw.text((row * 2, y + row / 2), game.players[i], fill=pal.MARGIN_TEXT, font=f, anchor="lm")
        length = int(bar_w * game.scores[i] / best)
        draw.rectangle(
            [name_w, y + 6, name_w + max(2, length), y + row - 6], fill=colour, outline=pal.outline_for(colour)
        )
        draw.text((name_w + length + 8, y + row / 2), str(game.scores[i]), fill=pal.MARGIN_TEXT, font=f, anchor="lm")
    out = Image.new("RGB", (board.width, board.height + chart.height), pal.MARGIN_BG)
    out.paste(board, (0, 0))
    out.paste(chart, (0, board.height))
    return out


def replay_gif(record: dict[str, Any], final: Game | None = None) -> bytes:
    """An animated GIF of the game, one frame per turn.

    Every frame shows the turn number, each player's colour, name and running
    score, and the figures as they stood at the end of that turn (a follower
    appears with its tile). The frames are streamed, each as a box that changed
    since the frame before (see ``_ReplayFrames``), so a whole game takes a
    fraction of a second and a few megabytes. ``final``: the game at the record's end,
    if the caller has it (it sets the picture's extent), else it is replayed.
    """
    final = game_from_record(record) if final is None else final
    canvas, text = replay_frame(final)
    game = new_game(record)
    turn_ms = replay_turn_ms(final.turn)
    # A turn is split in two frames only where its second frame outlasts the first (a viewer tells them apart).
    frames = _ReplayFrames(game, canvas, text, len(str(max(final.scores))), turn_ms > 2 * REPLAY_SPLIT_MS)
    out = io.BytesIO()
    header, _unused = GifImagePlugin.getheader(frames.shown, info={"loop": 0, "optimize": False})
    out.write(b"".join(header))
    # A frame is written once the next one is known: the last one stays longer.
    pending: tuple[Box, Image.Image, int] = ((0, 0) + frames.shown.size, frames.shown.copy(), turn_ms)
    for move in record.get("moves", []):
        turn = game.turn
        game.apply(move)
        if game.turn != turn or game.finished:
            changes = frames.advance()
            if not changes:
                pending = (pending[0], pending[1], pending[2] + turn_ms)
                continue
            # A turn is one frame, or two where its changes lie far apart (on the board
            # and in the legend below): the first is held REPLAY_SPLIT_MS.
            _write_frame(out, *pending)
            for box, image in changes[:-1]:
                _write_frame(out, box, image, REPLAY_SPLIT_MS)
            box, image = changes[-1]
            pending = (box, image, turn_ms - REPLAY_SPLIT_MS * (len(changes) - 1))
    _write_frame(out, pending[0], pending[1], REPLAY_LAST_FRAME_MS)
    out.write(b";")
    return out.getvalue()


def replay_turn_ms(turns: int) -> int:
    """How long the replay shows each turn: REPLAY_FRAME_MS, shorter for a long game so that the
    whole game takes REPLAY_TURNS_MS, never under REPLAY_SPLIT_MS (viewers stretch shorter ones)."""
    # A GIF counts in hundredths of a second: whole ones, so that every turn lasts the same.
    return max(REPLAY_SPLIT_MS, min(REPLAY_FRAME_MS, REPLAY_TURNS_MS // max(1, turns) // 10 * 10))


def zoomed(previous: Frame | None, cells: list[Cell], canvas: Frame) -> Frame:
    """The replay's frame for a board covering ``cells``: ``previous`` while the board and a ring
    of cells around it still fit in it, else a frame around the board with REPLAY_HEADROOM empty
    cells each side, its tiles as large as the canvas allows (REPLAY_MOST_CELL at most, never
    larger than before), centred; never a cell smaller than the final board's (``canvas``)."""
    xs, ys = [x for x, _y in cells], [y for _x, y in cells]
    ring = [(min(xs) - 1, min(ys) - 1), (max(xs) + 1, max(ys) + 1)]
    if previous is not None and all(previous.contains(*c) for c in ring):
        return previous
    width, height = canvas.size
    inner_w, inner_h = width - 2 * canvas.margin, height - 2 * canvas.margin
    span = max(max(xs) - min(xs), max(ys) - min(ys)) + 1
    headroom = min(REPLAY_HEADROOM, 1 + span // 3)  # a small board keeps its large tiles
    need_cols = max(xs) - min(xs) + 1 + 2 * (1 + headroom)
    need_rows = max(ys) - min(ys) + 1 + 2 * (1 + headroom)
    cell = min(REPLAY_MOST_CELL, inner_w // need_cols, inner_h // need_rows)
    if previous is not None:
        cell = min(cell, previous.cell)
    cell = max(cell, canvas.cell)
    cols, rows = inner_w // cell, inner_h // cell
    min_x = (min(xs) + max(xs) + 1 - cols) // 2
    min_y = (min(ys) + max(ys) + 1 - rows) // 2
    if cell == canvas.cell:  # as far out as it goes: the final board's own frame
        return canvas
    return Frame(min_x, min_y, cols, rows, cell, canvas.margin, text=canvas.text, follower=replay_follower(cell))


# A follower in the replay is at least this many pixels tall (about 8 px where Discord shows the
# animation 400 px wide): on a big board's small tiles a third of a cell left a few pixels of outline.
REPLAY_FOLLOWER_PX = 14


def replay_follower(cell: int) -> float:
    """A follower's size as a share of a replay cell: a third of a large tile, never under
    REPLAY_FOLLOWER_PX, at most half a tile."""
    return min(0.5, max(0.3, REPLAY_FOLLOWER_PX / cell))


def replay_frame(final: Game) -> tuple[Frame, int]:
    """The replay's canvas: the final board's frame (the final board's extent, its long side
    REPLAY_SIDE pixels, and at least REPLAY_MIN_WIDTH wide: a board a few tiles wide gets empty
    columns each side, so that its legend has room), and the legend's text size. Earlier turns
    are drawn larger on the same canvas (``zoomed``)."""
    cells = [c for p in final.board.placements for c in p.cells]
    span = max(max(x for x, _ in cells) - min(x for x, _ in cells), max(y for _, y in cells) - min(y for _, y in cells))
    frame = frame_for(cells, cell=max(12, REPLAY_SIDE // (span + 3)))
    short = max(0, REPLAY_MIN_WIDTH - frame.size[0])
    if short:
        extra = -(-short // frame.cell)  # whole columns, rounded up
        frame.min_x -= extra // 2
        frame.cols += extra
    frame.follower = replay_follower(frame.cell)
    return frame, max(14, REPLAY_SIDE // 36)


Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive): pixels, or cells


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def _union(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _merged(boxes: list[Box], most: int | None = None) -> list[Box]:
    """Boxes joined where the union covers at most twice their own area (each box is a
    frame whose pixels are all encoded, and encoding is most of a replay's cost, while
    a frame costs little of its own); then, past ``most`` boxes, the pairs that grow least."""
    boxes = list(boxes)
    while most is not None and len(boxes) > most:
        i, j = min(
            itertools.combinations(range(len(boxes)), 2),
            key=lambda pair: _area(_union(boxes[pair[0]], boxes[pair[1]]))
            - _area(boxes[pair[0]])
            - _area(boxes[pair[1]]),
        )
        boxes[i] = _union(boxes[i], boxes[j])
        del boxes[j]
    joined = True
    while joined:
        joined = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                union = _union(boxes[i], boxes[j])
                if _area(union) <= 2 * (_area(boxes[i]) + _area(boxes[j])):
                    boxes[i] = union
                    del boxes[j]
                    joined = True
                    break
            if joined:
                break
    return boxes


def _write_frame(out: io.BytesIO, box: Box, image: Image.Image, duration: int) -> None:
    """One frame: ``image`` (in the fixed palette) drawn at ``box``'s corner over the frames before."""
    # Disposal 1: the frame stays under the next one (what viewers do with "unspecified" too).
    out.write(b"".join(GifImagePlugin.getdata(image, offset=box[:2], duration=duration, disposal=1)))


class _ReplayFrames:
    """The replay's picture kept up to date turn by turn, redrawing only what changed.

    ``tiles`` holds the board without figures; ``shown`` the frame in the fixed
    palette. A turn redraws the cells of the new tile, of the figures that came
    or went, and of the last tile's frame (before and after), each group of
    nearby cells in a box of its own, and the part of the legend that changed.
    """

    def __init__(self, game: Game, canvas: Frame, text: int, score_digits: int, split: bool = True) -> None:
        self.game, self.canvas, self.text, self.score_digits = game, canvas, text, score_digits
        self.most = REPLAY_FRAMES_PER_TURN if split else 1  # frames a turn may take
        self.band = palettised(self.legend())
        self.shown = Image.new("P", (canvas.size[0], canvas.size[1] + self.band.height))
        self.shown.putpalette(FIXED_PALETTE.getpalette() or [])
        self.frame = zoomed(None, self.cells(), canvas)
        self.start_board()
        self.board_changes()
        self.shown.paste(self.band, (0, self.tiles.height))

    def cells(self) -> list[Cell]:
        return [c for p in self.game.board.placements for c in p.cells]

    def start_board(self) -> None:
        """The board at ``self.frame`` without its tiles (the canvas's size: a frame zoomed in
        leaves a strip of margin at its right and bottom)."""
        self.tiles = Image.new("RGB", self.canvas.size, pal.MARGIN_BG)
        self.tiles.paste(draw_area(self.game, self.frame, None, [], False, figures_too=False, both_sides=True))
        self.scratch = self.tiles.copy()  # where figures are drawn: see redraw
        self.pasted = 0
        self.figures: list[Figure] = []
        self.last: tuple[Cell, ...] = ()
        self.shown.paste(palettised(self.tiles), (0, 0))

    def legend(self) -> Image.Image:
        return legend_band(self.game, self.canvas.size[0], self.text, score_digits=self.score_digits)

    def advance(self) -> list[tuple[Box, Image.Image]]:
        """Bring the picture to the game's position: the boxes that changed, each with what
        it now shows (the whole board when the frame zooms out)."""
        frame = zoomed(self.frame, self.cells(), self.canvas)
        if frame is not self.frame:
            self.frame = frame
            self.start_board()
            self.board_changes()
            boxes: list[Box] = [(0, 0, *self.canvas.size)]
        else:
            boxes = self.board_changes()
        legend = self.legend_change()
        if legend is not None:
            boxes.append(legend)
        return [(box, self.shown.crop(box)) for box in _merged(boxes, most=self.most)]

    def legend_change(self) -> Box | None:
        band = palettised(self.legend())
        # Same layout every frame (no note, room for the final scores): a band of another
        # size would leave rows of the old one on screen.
        assert band.size == self.band.size, (band.size, self.band.size)
        changed = ImageChops.subtract_modulo(band, self.band).getbbox()
        self.band = band
        if changed is None:
            return None
        self.shown.paste(band.crop(changed), (changed[0], self.tiles.height + changed[1]))
        return changed[0], self.tiles.height + changed[1], changed[2], self.tiles.height + changed[3]

    def board_changes(self) -> list[Box]:
        game, frame, s = self.game, self.frame, self.frame.cell
        placements = game.board.placements
        groups = [tuple(p.cells) for p in placements[self.pasted :]]
        for p in placements[self.pasted :]:
            art = tile_image(p.tile, p.rot, s)
            self.tiles.paste(art, frame.origin(min(c[0] for c in p.cells), min(c[1] for c in p.cells)), art)
        self.pasted = len(placements)
        figures_now = placed_figures(game)
        groups += [figure.cells for figure in set(self.figures) ^ set(figures_now)]
        last = tuple(placements[-1].cells) if len(placements) > 1 else ()
        if last != self.last:
            groups += [group for group in (self.last, last) if group]
        self.figures, self.last = figures_now, last
        # Cells with a ring of one cell: a figure reaches over its cell's edge.
        rings = [
            (min(c[0] for c in g) - 1, min(c[1] for c in g) - 1, max(c[0] for c in g) + 2, max(c[1] for c in g) + 2)
            for g in groups
        ]
        return [self.redraw(ring) for ring in _merged(rings)]

    def redraw(self, ring: Box) -> Box:
        """Redraw the cells inside ``ring`` (its own cells are context), return their pixels' box.

        Drawn on the scratch board at the figures' own coordinates, so each pixel
        comes out exactly as on a board drawn whole.
        """
        frame, s = self.frame, self.frame.cell
        x0, y0, x1, y1 = ring
        left, top = frame.origin(x0, y0)
        right, bottom = frame.origin(x1, y1)
        area = (max(0, left), max(0, top), min(right, self.tiles.width), min(bottom, self.tiles.height))
        self.scratch.paste(self.tiles.crop(area), area[:2])
        near = [f for f in self.figures if any(x0 <= x < x1 and y0 <= y < y1 for x, y in f.cells)]
        draw_figures(self.scratch, self.game, frame, near)
        if self.last:
            outline_cells(ImageDraw.Draw(self.scratch), frame, list(self.last), pal.LAST_PLACED, max(2, s // 12))
        # Kept: the inner cells and what their figures reach of the ring.
        reach = s // 3
        box = (
            max(0, left + s - reach),
            max(0, top + s - reach),
            min(self.tiles.width, right - s + reach),
            min(self.tiles.height, bottom - s + reach),
        )
        self.shown.paste(palettised(self.scratch.crop(box)), box[:2])
        return box
