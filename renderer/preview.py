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
from engine.tiles import TileType
from renderer import palette as pal
from renderer.tile_art import font, spots, tile_image

PREVIEW_CELL = 96


def spot_targets(game: Game, placement: dict) -> list[tuple[int, dict]]:
    """(segment index, meeple move) for each follower spot after a placement, in panel order."""
    tile = _tile_of(game, placement)
    x, y, rot = placement["x"], placement["y"], placement["rot"]
    rt = tile.rotations[rot // 90]
    out = []
    for move in game.figure_moves_after(placement):
        if move["at"].startswith("crown:"):
            continue  # on the wheel, not on the tile: numbered after the tile's spots, not drawn
        ci = 0
        if "x" in move:
            ci = rt.offsets.index((move["x"] - x, move["y"] - y))
        out.append((rt.targets[(ci, move["at"])], move))
    return out


def _tile_of(game: Game, placement: dict) -> TileType:
    return TILE_TYPES[placement["castle"]] if placement["type"] == "castle" else game.drawn  # type: ignore[return-value]


def placements_at(game: Game, x: int, y: int, castle: str | None = None) -> list[dict]:
    """The legal placement moves at (x, y): of the drawn tile, or of one of the player's castles."""
    if castle is None:
        if game.drawn is None or game.step != "tile":
            raise ValueError("no tile to preview: the current step is not a tile placement")
        rots = game.legal_placements().get((x, y), ())
        moves = [{"type": "tile", "x": x, "y": y, "rot": r} for r in rots]
    else:
        moves = [m for m in game.legal_moves() if m["type"] == "castle" and m["castle"] == castle]
        moves = [m for m in moves if (m["x"], m["y"]) == (x, y)]
    if not moves:
        raise ValueError(f"no legal rotation at ({x}, {y})")
    return moves


def render_preview(game: Game, x: int, y: int, cell: int = PREVIEW_CELL, castle: str | None = None) -> Image.Image:
    """The drawn tile (or a castle) at (x, y) in every legal rotation, side by side."""
    panels = [_candidate(game, move, cell) for move in placements_at(game, x, y, castle)]
    pad = cell // 6
    w = sum(p.width for p in panels) + pad * (len(panels) + 1)
    h = max(p.height for p in panels) + pad * 2
    img = Image.new("RGB", (w, h), pal.MARGIN_BG)
    left = pad
    for panel in panels:
        img.paste(panel, (left, pad))
        left += panel.width + pad
    return img


def _candidate(game: Game, placement: dict, s: int) -> Image.Image:
    tile = _tile_of(game, placement)
    x, y, rot = placement["x"], placement["y"], placement["rot"]
    rt = tile.rotations[rot // 90]
    cells = [(x + dx, y + dy) for dx, dy in rt.offsets]
    min_x = min(c[0] for c in cells) - 1
    min_y = min(c[1] for c in cells) - 1
    cols = max(c[0] for c in cells) - min_x + 2
    rows = max(c[1] for c in cells) - min_y + 2
    label_h = s // 3
    img = Image.new("RGB", (cols * s, rows * s + label_h), pal.EMPTY_CELL)
    draw = ImageDraw.Draw(img)
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
            img.paste(art, ((px - min_x) * s, (py - min_y) * s), art)
    veil = Image.new("RGB", img.size, pal.MARGIN_BG)
    img = Image.blend(img, veil, 0.45)
    draw = ImageDraw.Draw(img)
    ox = (min(c[0] for c in cells) - min_x) * s
    oy = (min(c[1] for c in cells) - min_y) * s
    art = tile_image(tile, rot, s)
    img.paste(art, (ox, oy), art)
    draw.rectangle([ox, oy, ox + art.width - 1, oy + art.height - 1], outline=pal.LAST_PLACED, width=max(3, s // 24))
    where = spots(tile, rot, s)
    f = font(max(10, s // 6))
    r = max(8, s // 9)
    for number, (seg_index, _move) in enumerate(spot_targets(game, placement), start=1):
        sx, sy = where[seg_index]
        draw.ellipse(
            [ox + sx - r, oy + sy - r, ox + sx + r, oy + sy + r], fill=(255, 255, 255), outline=(0, 0, 0), width=2
        )
        draw.text((ox + sx, oy + sy), str(number), fill=(0, 0, 0), font=f, anchor="mm")
    draw.text((img.width / 2, rows * s + label_h / 2), f"rotation {rot}°", fill=pal.MARGIN_TEXT, font=f, anchor="mm")
    return img
