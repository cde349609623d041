"""Tile previews: the drawn tile in each legal rotation at one cell, in context.

Each candidate shows the neighbouring tiles around it and numbers the follower
spots 1, 2, 3... in the order ``Game.figure_moves_after`` lists them, which is the
order the Discord panel and the console offer them. Castles are previewed the
same way, at the start of a turn, for a player who may place one.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine import Game
from engine.catalog import TILE_TYPES
from engine.language import _
from engine.moves import OFF_TILE
from engine.tiles import TileType
from renderer import palette as pal
from renderer.tile_art import font, spots, tile_image

PREVIEW_CELL = 96


def spot_targets(game: Game, placement: dict) -> list[tuple[int | None, dict]]:
    """(segment index, meeple move) for each figure move after a placement, in panel order.

    The spot number of a move is its 1-based position in this list. Moves that are
    not on the tile (crown spaces of the wheel) have no segment: None.
    """
    tile = _tile_of(game, placement)
    x, y, rot = placement["x"], placement["y"], placement["rot"]
    rt = tile.rotations[rot // 90]
    out: list[tuple[int | None, dict]] = []
    for option in game.figure_options_after(placement):
        move = option.move
        if OFF_TILE in option.tags:
            out.append((None, move))
            continue
        ci = 0
        if "x" in move:
            ci = rt.offsets.index((move["x"] - x, move["y"] - y))
        out.append((rt.targets[(ci, move["at"])], move))
    return out


def _tile_of(game: Game, placement: dict) -> TileType:
    return TILE_TYPES[placement["castle"]] if placement["type"] == "castle" else game.drawn  # type: ignore[return-value]


def placements_at(game: Game, x: int, y: int, castle: str | None = None, rot: int | None = None) -> list[dict]:
    """The legal placement moves at (x, y): of the drawn tile, or of one of the player's castles;
    only the turn ``rot`` when the player has chosen it."""
    if castle is None:
        if game.drawn is None or game.step != "tile":
            raise ValueError("no tile to preview: the current step is not a tile placement")
        rots = game.legal_placements().get((x, y), ())
        moves = [{"type": "tile", "x": x, "y": y, "rot": r} for r in rots]
    else:
        moves = [m for m in game.legal_moves() if m["type"] == "castle" and m["castle"] == castle]
        moves = [m for m in moves if (m["x"], m["y"]) == (x, y)]
    if rot is not None:
        moves = [m for m in moves if m["rot"] == rot]
    if not moves:
        raise ValueError(f"no legal rotation at ({x}, {y})")
    return moves


def render_preview(
    game: Game, x: int, y: int, cell: int = PREVIEW_CELL, castle: str | None = None, rot: int | None = None
) -> Image.Image:
    """The drawn tile (or a castle) at (x, y) in every legal rotation, side by side; in the one
    turn ``rot`` alone once the player has chosen it (its numbered spots are the ones asked)."""
    panels = [_candidate(game, move, cell) for move in placements_at(game, x, y, castle, rot)]
    pad = cell // 6
    # Two per row at most: a phone shows the picture ~400 px wide.
    per_row = 1 if len(panels) == 1 else 2
    rows = [panels[i : i + per_row] for i in range(0, len(panels), per_row)]
    w = max(sum(p.width for p in row) + pad * (len(row) + 1) for row in rows)
    heights = [max(p.height for p in row) for row in rows]
    img = Image.new("RGB", (w, sum(heights) + pad * (len(rows) + 1)), pal.MARGIN_BG)
    top = pad
    for row, height in zip(rows, heights, strict=True):
        left = pad
        for panel in row:
            img.paste(panel, (left, top))
            left += panel.width + pad
        top += height + pad
    return img


def spread(points: list[tuple[float, float]], gap: float, box: tuple[float, float, float, float]):
    """Move circles of diameter ``gap`` apart until none overlaps, staying inside ``box``."""
    pts = [list(p) for p in points]
    x0, y0, x1, y1 = box
    for _unused in range(60):
        moved = False
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
                dist = (dx * dx + dy * dy) ** 0.5
                if dist >= gap:
                    continue
                moved = True
                if dist < 1e-6:
                    dx, dy, dist = (1.0, 0.3 * (j - i), (1 + 0.09 * (j - i) ** 2) ** 0.5)
                push = (gap - dist) / 2 + 0.5
                ux, uy = dx / dist, dy / dist
                pts[i][0] -= ux * push
                pts[i][1] -= uy * push
                pts[j][0] += ux * push
                pts[j][1] += uy * push
        for p in pts:
            p[0] = min(x1, max(x0, p[0]))
            p[1] = min(y1, max(y0, p[1]))
        if not moved:
            break
    return [(p[0], p[1]) for p in pts]


# The candidate is drawn this much larger than a board cell of the preview's ``cell`` size, with a
# strip of each neighbour around it (CONTEXT of a cell) rather than whole neighbouring tiles.
CANDIDATE_SCALE = 5 / 3
CONTEXT = 0.35
# A spot's disc is tinted by what the figure would stand on, so a number reads as "the road", "the
# field": the tile stays visible between the discs.
SPOT_TINTS = {
    "city": pal.CITY, "road": pal.ROAD, "field": pal.FIELD_ALT, "cloister": pal.CLOISTER_WALL,
    "river": pal.RIPPLE, "castle": pal.CASTLE,
}  # fmt: skip


def candidate_cell(tile: TileType, s: int) -> int:
    """The size of one cell of the candidate: larger than the board's, a multi-cell tile no wider
    than two such cells."""
    cols = max(dx for dx, _dy in tile.cells) + 1
    rows = max(dy for _dx, dy in tile.cells) + 1
    return int(s * CANDIDATE_SCALE * min(1.0, 2 / max(cols, rows)))


def _candidate(game: Game, placement: dict, s: int) -> Image.Image:
    tile = _tile_of(game, placement)
    s = candidate_cell(tile, s)
    x, y, rot = placement["x"], placement["y"], placement["rot"]
    rt = tile.rotations[rot // 90]
    cells = [(x + dx, y + dy) for dx, dy in rt.offsets]
    min_x = min(c[0] for c in cells) - 1
    min_y = min(c[1] for c in cells) - 1
    cols = max(c[0] for c in cells) - min_x + 2
    rows = max(c[1] for c in cells) - min_y + 2
    board_img = Image.new("RGB", (cols * s, rows * s), pal.EMPTY_CELL)
    # Neighbouring tiles, faded so that the candidate stands out.
    board = game.board
    seen = set()
    for cx in range(min_x, min_x + cols):
        for cy in range(min_y, min_y + rows):
            placed = board.cells.get((cx, cy))
            if placed is None or placed[0] in seen:
                continue
            seen.add(placed[0])
            p = board.placements[placed[0]]
            px = min(c[0] for c in p.cells)
            py = min(c[1] for c in p.cells)
            art = tile_image(p.tile, p.rot, s)
            board_img.paste(art, ((px - min_x) * s, (py - min_y) * s), art)
    board_img = Image.blend(board_img, Image.new("RGB", board_img.size, pal.MARGIN_BG), 0.45)
    ox = (min(c[0] for c in cells) - min_x) * s
    oy = (min(c[1] for c in cells) - min_y) * s
    art = tile_image(tile, rot, s)
    board_img.paste(art, (ox, oy), art)
    ctx = int(s * CONTEXT)
    board_img = board_img.crop((ox - ctx, oy - ctx, ox + art.width + ctx, oy + art.height + ctx))
    ox = oy = ctx
    label_h = number_font(s) * 3 // 2
    img = Image.new("RGB", (board_img.width, board_img.height + label_h), pal.MARGIN_BG)
    img.paste(board_img, (0, 0))
    draw = ImageDraw.Draw(img)
    draw.rectangle([ox, oy, ox + art.width - 1, oy + art.height - 1], outline=pal.LAST_PLACED, width=max(3, s // 30))
    f = font(number_font(s))
    r = number_radius(s)
    kinds = [tile.segments[seg].kind if seg is not None else "" for seg, _m in spot_targets(game, placement)]
    for number, (nx, ny), (sx, sy) in number_positions(game, placement, s, ox, oy):
        if (nx - sx) ** 2 + (ny - sy) ** 2 > r * r:  # pushed aside: a line back to its spot
            draw.line([(sx, sy), (nx, ny)], fill=(0, 0, 0), width=2)
        tint = SPOT_TINTS.get(kinds[number - 1], (255, 255, 255))
        draw.ellipse([nx - r, ny - r, nx + r, ny + r], fill=tint, outline=(0, 0, 0), width=2)
        draw.text((nx, ny), str(number), fill=(0, 0, 0), font=f, anchor="mm")
    # The turn in the margin band below the board, never over the tile's own words.
    draw.text(
        (img.width / 2, board_img.height + label_h / 2),
        _("turned {degrees}°").format(degrees=rot),
        fill=pal.MARGIN_TEXT,
        font=f,
        anchor="mm",
    )
    return img


def number_radius(s: int) -> int:
    return max(10, s // 10)


def number_font(s: int) -> int:
    return max(13, s // 7)


def number_positions(
    game: Game, placement: dict, s: int, ox: float = 0, oy: float = 0
) -> list[tuple[int, tuple[float, float], tuple[float, float]]]:
    """(spot number, where its circle is drawn, the spot itself) for the moves on the tile, kept apart."""
    tile = _tile_of(game, placement)
    rot = placement["rot"]
    where = spots(tile, rot, s)
    numbered = [
        (n, where[seg]) for n, (seg, _m) in enumerate(spot_targets(game, placement), start=1) if seg is not None
    ]
    art = tile_image(tile, rot, s)
    r = number_radius(s)
    box = (ox + r, oy + r, ox + art.width - r, oy + art.height - r)
    placed = spread([(ox + x, oy + y) for _unused, (x, y) in numbered], 2 * r + 3, box)
    return [(n, c, (ox + x, oy + y)) for (n, (x, y)), c in zip(numbered, placed, strict=True)]
