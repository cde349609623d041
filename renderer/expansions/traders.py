"""Traders & Builders drawn: goods in their cities, each player's builder and pig."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from engine import Game
from engine.tiles import Segment, TileType
from renderer import figures
from renderer import palette as pal
from renderer.board import Figure, Frame, draws, figure_spot, holds
from renderer.expansions import draws_mark
from renderer.tile_art import segment_spot

#: a good's token: its colour
GOOD_COLOURS = {"wine": (128, 30, 60), "grain": (230, 190, 70), "cloth": (70, 120, 200)}


def _good(good: str) -> Any:
    def art(draw: ImageDraw.ImageDraw, tile: TileType, seg: Segment, s: int, at: Any) -> None:
        """A round token of the good's colour with a dark rim, beside where a knight stands."""
        sx, sy = segment_spot(tile, seg, s)
        x, y = at(sx - s * 0.18, sy + s * 0.14)
        r = s * 0.07
        draw.ellipse([x - r, y - r, x + r, y + r], fill=GOOD_COLOURS[good], outline=(40, 30, 20), width=max(1, s // 48))

    return art


for _name in GOOD_COLOURS:
    draws_mark(_name)(_good(_name))


def _where(game: Game, frame: Frame, figure: Figure) -> tuple[float, float, int]:
    (node,) = figure.data
    x, y = figure_spot(game, frame, node)
    return x, y, frame.cell


@draws("builder")
def builder(img: Image.Image, draw: ImageDraw.ImageDraw, game: Game, frame: Frame, figure: Figure) -> None:
    """A small block with a roof in the owner's colour, beside the spot (a follower may stand there)."""
    x, y, s = _where(game, frame, figure)
    x, y = x + s * 0.16, y + s * 0.1
    colour = pal.PLAYERS[(figure.owner or 0) % len(pal.PLAYERS)]
    r = s * 0.08
    draw.rectangle([x - r, y - r * 0.4, x + r, y + r], fill=colour, outline=pal.outline_for(colour))
    draw.polygon([(x - r * 1.2, y - r * 0.4), (x + r * 1.2, y - r * 0.4), (x, y - r * 1.4)], fill=colour,
                 outline=pal.outline_for(colour))  # fmt: skip


@draws("farm_pig")
def farm_pig(img: Image.Image, draw: ImageDraw.ImageDraw, game: Game, frame: Frame, figure: Figure) -> None:
    """A pig with a collar of the owner's colour, beside its farmer's spot."""
    x, y, s = _where(game, frame, figure)
    x, y = x - s * 0.14, y + s * 0.12
    figures.pig(draw, x, y, s * 0.22)
    colour = pal.PLAYERS[(figure.owner or 0) % len(pal.PLAYERS)]
    r = s * 0.04
    draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=pal.outline_for(colour))


# In a player's hand (the turn picture's legend): the builder, the pig and each good's tokens.
@holds("builder")
def builder_in_hand(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, player: int) -> None:
    colour = pal.PLAYERS[player % len(pal.PLAYERS)]
    r = size * 0.4
    draw.rectangle([x - r, y - r * 0.3, x + r, y + r], fill=colour, outline=pal.outline_for(colour))
    draw.polygon([(x - r * 1.2, y - r * 0.3), (x + r * 1.2, y - r * 0.3), (x, y - r * 1.3)], fill=colour,
                 outline=pal.outline_for(colour))  # fmt: skip


@holds("pig")
def pig_in_hand(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, player: int) -> None:
    figures.pig(draw, x - size * 0.1, y, size * 0.8)
    colour = pal.PLAYERS[player % len(pal.PLAYERS)]
    r = size * 0.14
    draw.ellipse([x - size * 0.1 - r, y - r, x - size * 0.1 + r, y + r], fill=colour, outline=pal.outline_for(colour))


def _token_in_hand(good: str) -> Any:
    def icon(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, player: int) -> None:
        r = size * 0.36
        draw.ellipse([x - r, y - r, x + r, y + r], fill=GOOD_COLOURS[good], outline=(40, 30, 20), width=2)

    return icon


for _name in GOOD_COLOURS:
    holds(_name)(_token_in_hand(_name))
