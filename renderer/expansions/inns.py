"""Inns & Cathedrals drawn: the inn beside its road, the cathedral in its city, the big follower."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from engine import Game
from engine.tiles import Segment, TileType
from renderer import figures
from renderer.board import Figure, Frame, draws, figure_spot, holds
from renderer.expansions import draws_mark
from renderer.tile_art import _beside_road, _house, segment_spot

INN_WALL = (214, 170, 92)
CATHEDRAL = (236, 228, 210)
CATHEDRAL_EDGE = (70, 60, 50)


@draws_mark("inn")
def inn(draw: ImageDraw.ImageDraw, tile: TileType, seg: Segment, s: int, at: Any) -> None:
    """A house with a gable on the other side of the road than a decoration would stand."""
    x, y = _beside_road(tile, seg, s)
    ci, d = seg.edges[0]
    cx, cy = (tile.cells[ci][0] + 0.5) * s, (tile.cells[ci][1] + 0.5) * s
    # Mirror the decoration's point across the road's axis: the other side of the road.
    px, py = [(1, 0), (0, 1), (-1, 0), (0, -1)][d]
    off = (x - cx) * px + (y - cy) * py
    hx, hy = at(x - 2 * off * px, y - 2 * off * py)
    _house(draw, hx, hy, s * 0.09, INN_WALL)


@draws_mark("cathedral")
def cathedral(draw: ImageDraw.ImageDraw, tile: TileType, seg: Segment, s: int, at: Any) -> None:
    """A nave with a tower and a cross, beside where a knight stands."""
    sx, sy = segment_spot(tile, seg, s)
    x, y = at(sx + s * 0.2, sy + s * 0.12)
    r = s * 0.09
    draw.rectangle([x - r * 1.6, y - r * 0.4, x + r * 0.6, y + r], fill=CATHEDRAL, outline=CATHEDRAL_EDGE)
    draw.rectangle([x + r * 0.6, y - r * 1.5, x + r * 1.4, y + r], fill=CATHEDRAL, outline=CATHEDRAL_EDGE)
    draw.line([(x + r, y - r * 2.3), (x + r, y - r * 1.5)], fill=CATHEDRAL_EDGE, width=max(1, s // 48))
    draw.line([(x + r * 0.7, y - r * 2.0), (x + r * 1.3, y - r * 2.0)], fill=CATHEDRAL_EDGE, width=max(1, s // 48))


@draws("big")
def big_follower(img: Image.Image, draw: ImageDraw.ImageDraw, game: Game, frame: Frame, figure: Figure) -> None:
    """A follower half as tall again as the others."""
    (node,) = figure.data
    x, y = figure_spot(game, frame, node)
    lying = game.board.kind[node] == "field"
    figures.paste_meeple(img, x, y, frame.cell * frame.follower * 1.5, figure.owner or 0, lying=lying)


@holds("big")
def big_in_hand(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, player: int) -> None:
    """The big follower in a player's hand: a follower a third taller than the others there."""
    figures.meeple(draw, x, y, size * 1.3, player)
