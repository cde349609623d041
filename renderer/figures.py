"""Figures drawn on the board: followers (meeples), tollhouses, the pig."""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

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
    # A thin outline on a small figure: a thick one left little of the player's colour to see.
    draw.polygon(poly, fill=colour, outline=pal.outline_for(colour), width=max(1, round(size / 12)))
    if size >= 20:
        # The player's mark on the chest, in the outline colour: tells players apart without hue
        # (about a fifth of the figure: 6 px or more where a follower is 30 px).
        shape(draw, x, y, size * 0.17, player, fill=pal.outline_for(colour))


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


def ferry(draw: ImageDraw.ImageDraw, ox: float, oy: float, s: float, join: str) -> None:
    """A ferry on the lake of the cell at (ox, oy): a rope between the two jetties it joins, and the boat."""
    ends = []
    for name in join.split("-"):
        dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[name]
        ends.append((ox + s / 2 + dx * s * 0.27, oy + s / 2 + dy * s * 0.27))
    (x1, y1), (x2, y2) = ends
    mx, my = ox + s / 2, oy + s / 2
    draw.line([(x1, y1), (mx, my), (x2, y2)], fill=(92, 64, 32), width=max(2, int(s / 24)), joint="curve")
    bx, by = (x1 + mx) / 2, (y1 + my) / 2
    r = s * 0.09
    draw.ellipse([bx - r, by - r * 0.6, bx + r, by + r * 0.6], fill=(150, 100, 50), outline=(60, 40, 20), width=2)


def shape(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, player: int, fill=None) -> None:
    """The player's own mark (circle, square, triangle...): a second cue besides the colour."""
    kind = pal.SHAPES[player % len(pal.SHAPES)]
    colour = fill if fill is not None else pal.PLAYERS[player % len(pal.PLAYERS)]
    line = pal.outline_for(pal.PLAYERS[player % len(pal.PLAYERS)])
    width = max(1, int(r / 5))
    if kind == "circle":
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=line, width=width)
    elif kind == "square":
        draw.rectangle([x - r * 0.85, y - r * 0.85, x + r * 0.85, y + r * 0.85], fill=colour, outline=line, width=width)
    elif kind == "triangle":
        draw.polygon([(x, y - r), (x + r, y + r * 0.8), (x - r, y + r * 0.8)], fill=colour, outline=line, width=width)
    elif kind == "diamond":
        draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=colour, outline=line, width=width)
    elif kind == "cross":
        t = r * 0.38
        pts = [
            (-t, -r),
            (t, -r),
            (t, -t),
            (r, -t),
            (r, t),
            (t, t),
            (t, r),
            (-t, r),
            (-t, t),
            (-r, t),
            (-r, -t),
            (-t, -t),
        ]
        draw.polygon([(x + a, y + b) for a, b in pts], fill=colour, outline=line, width=width)
    else:
        pts = []
        for k in range(10):
            a = math.pi / 2 + k * math.pi / 5
            rr = r if k % 2 == 0 else r * 0.45
            pts.append((x + math.cos(a) * rr, y - math.sin(a) * rr))
        draw.polygon(pts, fill=colour, outline=line, width=width)


@functools.lru_cache(maxsize=512)
def meeple_stamp(player: int, size: int, lying: bool) -> Image.Image:
    """A follower drawn once on a transparent square, to paste: a replay draws thousands."""
    side = size + 2 * max(2, size // 9) + 2
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    meeple(ImageDraw.Draw(img), side / 2, side / 2, size, player, lying)
    return img


def paste_meeple(img: Image.Image, x: float, y: float, size: float, player: int, lying: bool = False) -> None:
    """Like ``meeple`` but pasted from a cached stamp (the size rounded to whole pixels)."""
    stamp = meeple_stamp(player, round(size), lying)
    img.paste(stamp, (round(x - stamp.width / 2), round(y - stamp.height / 2)), stamp)
