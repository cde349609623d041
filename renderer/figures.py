"""Figures drawn on the board: followers (meeples), tollhouses, the pig."""

from __future__ import annotations

from PIL import ImageDraw

from renderer import palette as pal

# The classic meeple silhouette, standing, in a unit box centred on (0, 0).
MEEPLE = [
    (0.0, -0.5), (0.12, -0.46), (0.17, -0.34), (0.13, -0.2), (0.45, -0.1), (0.5, 0.02), (0.2, 0.05),
    (0.32, 0.5), (0.08, 0.5), (0.0, 0.3), (-0.08, 0.5), (-0.32, 0.5), (-0.2, 0.05), (-0.5, 0.02),
    (-0.45, -0.1), (-0.13, -0.2), (-0.17, -0.34), (-0.12, -0.46),
]  # fmt: skip


def meeple(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, player: int, lying: bool = False) -> None:
    """A follower of ``player`` centred on (x, y); farmers lie down."""
    colour = pal.PLAYERS[player % len(pal.PLAYERS)]
    pts = [(-py, px) if lying else (px, py) for px, py in MEEPLE]
    poly = [(x + px * size, y + py * size) for px, py in pts]
    draw.polygon(poly, fill=colour, outline=pal.outline_for(colour), width=max(1, int(size / 14)))


def tollhouse(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, player: int, value: int, font) -> None:
    colour = pal.PLAYERS[player % len(pal.PLAYERS)]
    line = pal.outline_for(colour)
    r = size / 2
    draw.rectangle([x - r, y - r * 0.4, x + r, y + r], fill=colour, outline=line, width=max(1, int(size / 14)))
    draw.polygon([(x - r * 1.2, y - r * 0.4), (x + r * 1.2, y - r * 0.4), (x, y - r * 1.3)], fill=colour, outline=line)
    draw.text((x, y + r * 0.3), str(value), fill=line, font=font, anchor="mm")


def pig(draw: ImageDraw.ImageDraw, x: float, y: float, size: float) -> None:
    r = size / 2
    draw.ellipse([x - r, y - r * 0.7, x + r, y + r * 0.7], fill=pal.PIG, outline=(90, 40, 60), width=2)
    draw.ellipse([x + r * 0.6, y - r * 0.3, x + r * 1.2, y + r * 0.3], fill=pal.PIG, outline=(90, 40, 60), width=2)
