"""Procedural tile art, drawn from the tile data alone (no image files).

Every tile type is drawn at rotation 0 and turned for the other rotations, so
two rotations of a tile always look rotated. Images are cached per (type,
rotation, cell size): a board picture only pastes them.
"""

from __future__ import annotations

import functools
import math
import random
import sys
import zlib
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from engine.expansions.wheel import sector_name
from engine.expansions.wheel.tiles import CROWN_SPACES, SECTORS
from engine.tiles import Segment, TileType
from renderer import palette as pal
from renderer.expansions import mark_art

# Cosmetic details that have no rule effect (RULES.md) and so no place in the tile data.
EXTRAS = {
    "river2.volcano_lake": "volcano",
    "river1.lake": "lake",
    "river1.spring": "spring",
    "river2.spring": "spring",
}

Point = tuple[float, float]


def _edge_mid(d: int, s: float) -> Point:
    return [(s / 2, 0), (s, s / 2), (s / 2, s), (0, s / 2)][d]


def _edge_corners(d: int, s: float) -> tuple[Point, Point]:
    return [((0, 0), (s, 0)), ((s, 0), (s, s)), ((s, s), (0, s)), ((0, s), (0, 0))][d]


def _half_point(h: int, s: float, inset: float = 0.0) -> Point:
    """A point on half-edge h (a quarter along its edge), moved ``inset`` inwards."""
    q = s / 4
    pts = [(q, 0), (3 * q, 0), (s, q), (s, 3 * q), (3 * q, s), (q, s), (0, 3 * q), (0, q)]
    x, y = pts[h]
    d = h // 2
    dx, dy = [(0, 1), (-1, 0), (0, -1), (1, 0)][d]
    return x + dx * inset, y + dy * inset


def _bezier(a: Point, c: Point, b: Point, steps: int = 12) -> list[Point]:
    out = []
    for i in range(steps + 1):
        t = i / steps
        out.append(
            (
                (1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t**2 * b[0],
                (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t**2 * b[1],
            )
        )
    return out


def _shift(points: list[Point], ox: float, oy: float) -> list[Point]:
    return [(x + ox, y + oy) for x, y in points]


# DejaVu Sans cut to Latin, Greek and Cyrillic (pyftsubset; licence beside it): Pillow's built-in
# font has no accents, so "Bérénice" or "château" came out with boxes. It ships with the code,
# since a fresh machine has no system fonts.
FONT_FILE = Path(__file__).resolve().parent / "fonts" / "DejaVuSans-Latin.ttf"


@functools.lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.truetype(str(FONT_FILE), max(8, size))


def _city_polygons(seg: Segment, s: float) -> list[tuple[int, list[list[Point]]]]:
    """City shape per cell of a city segment, in cell-local pixels."""
    by_cell: dict[int, list[int]] = {}
    for ci, d in seg.edges:
        by_cell.setdefault(ci, []).append(d)
    polys = []
    centre = (s / 2, s / 2)
    for ci, dirs in by_cell.items():
        cell_polys = []
        if len(dirs) == 1 and len(seg.edges) == 1:
            d = dirs[0]
            a, b = _edge_corners(d, s)
            depth = 0.3 * s
            dx, dy = [(0, 1), (-1, 0), (0, -1), (1, 0)][d]
            inner = [
                (
                    b[0] + (a[0] - b[0]) * t + dx * depth * math.sin(math.pi * t),
                    b[1] + (a[1] - b[1]) * t + dy * depth * math.sin(math.pi * t),
                )
                for t in [i / 10 for i in range(11)]
            ]
            cell_polys.append([a, b] + inner[1:-1])
        else:
            for d in dirs:
                a, b = _edge_corners(d, s)
                cell_polys.append([a, b, centre])
            if sorted(dirs) in ([0, 2], [1, 3]):
                band = 0.28 * s
                if sorted(dirs) == [1, 3]:
                    cell_polys.append([(0, s / 2 - band), (s, s / 2 - band), (s, s / 2 + band), (0, s / 2 + band)])
                else:
                    cell_polys.append([(s / 2 - band, 0), (s / 2 + band, 0), (s / 2 + band, s), (s / 2 - band, s)])
        polys.append((ci, cell_polys))
    return polys  # type: ignore[return-value]


def segment_spot(tile: TileType, seg: Segment, s: float) -> Point:
    """Where a figure on this segment stands, in rot-0 tile pixels."""
    if seg.kind in ("cloister", "castle") or not (seg.edges or seg.halves):
        xs = [tile.cells[ci][0] for ci in seg.cells]
        ys = [tile.cells[ci][1] for ci in seg.cells]
        return ((min(xs) + max(xs) + 1) * s / 2, (min(ys) + max(ys) + 1) * s / 2)
    if seg.kind == "field":
        # The half-edge point farthest from the roads and rivers of its cell, moved inwards.
        def clearance(ci: int, h: int) -> float:
            x, y = _half_point(h, s, 0.2 * s)
            lines = [
                _edge_mid(d, s)
                for other in tile.segments
                if other.kind in ("road", "river")
                for c, d in other.edges
                if c == ci
            ]
            if lines:
                lines.append((s / 2, s / 2))
            return min((math.hypot(x - lx, y - ly) for lx, ly in lines), default=s)

        ci, h = max(seg.halves, key=lambda half: clearance(*half))
        x, y = _half_point(h, s, 0.2 * s)
        return x + tile.cells[ci][0] * s, y + tile.cells[ci][1] * s
    ci, d = seg.edges[0]
    ox, oy = tile.cells[ci][0] * s, tile.cells[ci][1] * s
    if seg.kind == "city":
        cell_dirs = [dd for cc, dd in seg.edges if cc == ci]
        if len(cell_dirs) == 1:
            mx, my = _edge_mid(d, s)
            dx, dy = [(0, 1), (-1, 0), (0, -1), (1, 0)][d]
            return mx + dx * 0.15 * s + ox, my + dy * 0.15 * s + oy
        pts = [_edge_mid(dd, s) for dd in cell_dirs]
        cx = (sum(p[0] for p in pts) / len(pts) + s / 2) / 2
        cy = (sum(p[1] for p in pts) / len(pts) + s / 2) / 2
        if len(cell_dirs) == 4 or sorted(cell_dirs) in ([0, 2], [1, 3]):
            cx, cy = s / 2, s / 2
        return cx + ox, cy + oy
    mx, my = _edge_mid(d, s)
    if len(seg.edges) == 2 and seg.edges[0][0] == seg.edges[1][0]:
        a, b = _edge_mid(seg.edges[0][1], s), _edge_mid(seg.edges[1][1], s)
        x, y = _bezier(a, (s / 2, s / 2), b, 2)[1]
        return x + ox, y + oy
    return (mx * 0.6 + s / 2 * 0.4) + ox, (my * 0.6 + s / 2 * 0.4) + oy


DECO_PERSON = (112, 96, 78)  # a highwayman painted on a tile: a muted brown, not a figure's black
DECO_TRAVELLERS = ((150, 118, 86), (126, 110, 92), (170, 140, 100))


def _draw_icon(draw: ImageDraw.ImageDraw, name: str, x: float, y: float, s: float) -> None:
    r = s * 0.07
    if name == "farmhouse":
        draw.rectangle([x - r, y - r * 0.4, x + r, y + r], fill=(250, 245, 235), outline=(60, 40, 30))
        draw.polygon([(x - r * 1.3, y - r * 0.4), (x + r * 1.3, y - r * 0.4), (x, y - r * 1.5)], fill=(160, 60, 40))
    elif name == "stable":
        draw.rectangle([x - r * 1.3, y - r * 0.6, x + r * 1.3, y + r], fill=(150, 100, 55), outline=(60, 40, 30))
        draw.line([x - r * 1.3, y - r * 0.6, x + r * 1.3, y + r], fill=(60, 40, 30), width=1)
    elif name == "garden":
        draw.ellipse([x - r, y - r, x + r, y + r], fill=(60, 140, 60), outline=(30, 70, 30))
        for k in range(5):
            a = 2 * math.pi * k / 5
            fx, fy = x + math.cos(a) * r * 0.55, y + math.sin(a) * r * 0.55
            draw.ellipse([fx - r * 0.22, fy - r * 0.22, fx + r * 0.22, fy + r * 0.22], fill=(240, 90, 120))
    # People painted on a tile are in the tile's own earthy tones, never in a player's colour or black:
    # they must not read as figures standing on the board.
    elif name == "highwayman":
        draw.ellipse([x - r * 0.5, y - r * 1.2, x + r * 0.5, y - r * 0.2], fill=DECO_PERSON)
        draw.polygon([(x - r * 0.8, y + r), (x + r * 0.8, y + r), (x, y - r * 0.3)], fill=DECO_PERSON)
        draw.line([x - r * 0.6, y - r * 0.75, x + r * 0.6, y - r * 0.75], fill=pal.WALL, width=max(1, int(r / 3)))
    elif name == "travellers":
        for k, col in enumerate(DECO_TRAVELLERS):
            px = x + (k - 1) * r * 0.9
            draw.ellipse([px - r * 0.35, y - r * 1.0, px + r * 0.35, y - r * 0.3], fill=col)
            draw.rectangle([px - r * 0.35, y - r * 0.3, px + r * 0.35, y + r * 0.7], fill=col)


def _draw_tile(tile: TileType, s: int) -> Image.Image:
    xs = [c[0] for c in tile.cells]
    ys = [c[1] for c in tile.cells]
    w, h = (max(xs) + 1) * s, (max(ys) + 1) * s
    img = Image.new("RGBA", (w, h), pal.FIELD + (255,))
    draw = ImageDraw.Draw(img)
    extra = EXTRAS.get(tile.id)
    wheel = tile.id == "wheel.start"
    road_w = max(3, s // 8)
    river_w = max(4, s // 5)

    if wheel:
        cx, cy, rad = w / 2, h / 2, w * 0.42
        draw.ellipse(
            [cx - rad, cy - rad, cx + rad, cy + rad], fill=pal.PARCHMENT, outline=pal.WALL, width=max(2, s // 24)
        )
        for i in range(len(SECTORS)):
            a0 = -90 + 60 * i
            draw.pieslice(
                [cx - rad, cy - rad, cx + rad, cy + rad], a0, a0 + 60, outline=pal.WALL, width=max(1, s // 32)
            )
            for px, py in crown_points(i, w, h):
                draw.ellipse(
                    [px - s * 0.12, py - s * 0.12, px + s * 0.12, py + s * 0.12], fill=pal.CROWN, outline=pal.WALL
                )
        draw.ellipse([cx - s * 0.2, cy - s * 0.2, cx + s * 0.2, cy + s * 0.2], fill=pal.WALL)

    # Cities, with a wall line along their inner border.
    mask = Image.new("L", (w, h), 0)
    mdraw = ImageDraw.Draw(mask)
    for seg in tile.segments:
        if seg.kind != "city":
            continue
        for ci, polys in _city_polygons(seg, s):
            ox, oy = tile.cells[ci][0] * s, tile.cells[ci][1] * s
            for poly in polys:
                mdraw.polygon(_shift(poly, ox, oy), fill=255)
    if mask.getbbox():
        img.paste(pal.CITY + (255,), (0, 0), mask)
        _rooftops(draw, mask, tile, s)
        _city_wall(img, mask, s)

    # Rivers, then roads (bridges cross over the river).
    for kind, colour, width in (("river", pal.RIVER, river_w), ("road", pal.ROAD, road_w)):
        for seg in tile.segments:
            if seg.kind != kind:
                continue
            for path in _paths(tile, seg, s):
                if kind == "road":
                    draw.line(path, fill=pal.ROAD_EDGE, width=width + max(2, s // 32), joint="curve")
                else:  # banks either side of the water
                    draw.line(path, fill=pal.RIVER_BANK, width=width + max(4, s // 14), joint="curve")
                draw.line(path, fill=colour, width=width, joint="curve")
    river_stubs = [seg for seg in tile.segments if seg.kind == "river"]
    if len(river_stubs) >= 3 or extra == "spring" or tile.id == "river2.city_end":
        r = s * 0.14
        draw.ellipse([s / 2 - r - s // 28, s / 2 - r - s // 28, s / 2 + r + s // 28, s / 2 + r + s // 28],
                     fill=pal.RIVER_BANK)  # fmt: skip
        draw.ellipse([s / 2 - r, s / 2 - r, s / 2 + r, s / 2 + r], fill=pal.RIVER)
    for seg in river_stubs:  # ripples on the water, along the flow
        for path in _paths(tile, seg, s):
            _ripples(draw, path, river_w, s)
    if extra in ("lake", "volcano"):
        r = s * 0.3
        draw.ellipse([s / 2 - r, s / 2 - r, s / 2 + r, s / 2 + r], fill=pal.LAKE)
    if "lake" in tile.marks:
        r = s * 0.27
        draw.ellipse([s / 2 - r, s / 2 - r, s / 2 + r, s / 2 + r], fill=pal.LAKE)
        for seg in tile.segments:
            if seg.kind == "road":
                d = seg.edges[0][1]
                mx, my = _edge_mid(d, s)
                jx, jy = (mx + s / 2) / 2 * 0.5 + mx * 0.5, (my + s / 2) / 2 * 0.5 + my * 0.5
                px, py = (mx * 0.25 + s / 2 * 0.75), (my * 0.25 + s / 2 * 0.75)
                draw.line([(jx, jy), (px, py)], fill=pal.JETTY, width=max(3, s // 10))
    # Fields a road or river splits are shaded apart: every other field a lighter green.
    fields = [seg for seg in tile.segments if seg.kind == "field"]
    for seg in fields[1::2]:
        for cell_index, half in seg.halves:
            x, y = _half_point(half, s, 0.1 * s)
            seed = (int(x + tile.cells[cell_index][0] * s), int(y + tile.cells[cell_index][1] * s))
            seed = (min(w - 3, max(2, seed[0])), min(h - 3, max(2, seed[1])))
            pixel = img.getpixel(seed)
            if isinstance(pixel, tuple) and pixel[:3] == pal.FIELD:
                flood_fill(img, seed, pal.FIELD_ALT + (255,))
    _grass(img, tile, s)
    # A fine grid line between tiles.
    draw.rectangle([0, 0, w - 1, h - 1], outline=(90, 110, 60, 255))
    return img


def _rng(tile: TileType) -> random.Random:
    """The same scatter of tufts and roofs for a tile type every time (its pictures are cached,
    and a replay's frames must agree)."""
    return random.Random(zlib.crc32(tile.id.encode()))


def _grass(img: Image.Image, tile: TileType, s: int) -> None:
    """Tufts of grass on the fields: short strokes a shade darker than the field under them."""
    if s < 24:
        return  # a speck at this size: plain fields read better
    draw = ImageDraw.Draw(img)
    rng = _rng(tile)
    w, h = img.size
    darker = {pal.FIELD: pal.FIELD_TUFT, pal.FIELD_ALT: pal.FIELD_ALT_TUFT}
    tuft = max(2.0, s * 0.045)
    line = max(1, s // 48)
    for _ in range(int(w * h / (s * s) * 26)):
        x, y = rng.uniform(tuft, w - tuft - 1), rng.uniform(tuft, h - tuft - 1)
        under = img.getpixel((int(x), int(y)))
        if not isinstance(under, tuple) or under[:3] not in darker:
            continue
        if any(img.getpixel((int(x + dx), int(y + dy)))[:3] != under[:3]  # type: ignore[index]
               for dx, dy in ((-tuft, 0), (tuft, 0), (0, -tuft))):  # fmt: skip
            continue  # at a road's or a city's edge: no tuft across it
        colour = darker[(under[0], under[1], under[2])] + (255,)
        draw.line([(x - tuft * 0.6, y), (x - tuft * 0.1, y - tuft)], fill=colour, width=line)
        draw.line([(x, y), (x + tuft * 0.1, y - tuft * 1.2)], fill=colour, width=line)
        draw.line([(x + tuft * 0.6, y), (x + tuft * 0.2, y - tuft)], fill=colour, width=line)


def _city_wall(img: Image.Image, mask: Image.Image, s: int) -> None:
    """The wall along a city's inner border, with merlons (crenellations) on its inner side."""
    w, h = img.size
    edge = mask.filter(ImageFilter.FIND_EDGES)
    border = Image.new("L", (w, h), 0)
    ImageDraw.Draw(border).rectangle([2, 2, w - 3, h - 3], fill=255)
    edge = ImageChops.multiply(edge, border)  # not along the tile's own sides: the city goes on there
    thick = max(3, (s // 22) | 1)
    wall = edge.filter(ImageFilter.MaxFilter(thick))
    if s >= 32:  # merlons: the wall widened inwards, every other block
        block = max(3, s // 14)
        deeper = edge.filter(ImageFilter.MaxFilter(thick + 2 * max(2, s // 30)))
        checker = Image.new("L", (w, h), 0)
        cdraw = ImageDraw.Draw(checker)
        for bx in range(0, w, block):
            for by in range(0, h, block):
                if (bx // block + by // block) % 2 == 0:
                    cdraw.rectangle([bx, by, bx + block - 1, by + block - 1], fill=255)
        merlons = ImageChops.multiply(ImageChops.multiply(deeper, mask), checker)
        img.paste(pal.WALL_TOP + (255,), (0, 0), merlons)
    img.paste(pal.WALL + (255,), (0, 0), wall)


def _rooftops(draw: ImageDraw.ImageDraw, mask: Image.Image, tile: TileType, s: int) -> None:
    """A few rooftops seen from above (a ridge down the middle), deep inside the city."""
    if s < 32:
        return
    rng = _rng(tile)
    w, h = mask.size
    half = s * 0.05
    reach = s * 0.13  # this far from any wall
    step = s * 0.2
    placed: list[Point] = []
    y = step * 0.6
    while y < h - step * 0.4:
        x = step * 0.6
        while x < w - step * 0.4:
            px, py = x + rng.uniform(-step * 0.2, step * 0.2), y + rng.uniform(-step * 0.2, step * 0.2)
            deep = all(
                mask.getpixel((int(min(w - 1, max(0, px + dx))), int(min(h - 1, max(0, py + dy))))) == 255
                for dx in (-reach, 0, reach) for dy in (-reach, 0, reach)
            )  # fmt: skip
            if deep and rng.random() < 0.6 and all(math.hypot(px - a, py - b) > step * 0.75 for a, b in placed):
                placed.append((px, py))
                long = rng.random() < 0.5
                rw, rh = (half * 1.5, half) if long else (half, half * 1.5)
                draw.rectangle([px - rw, py - rh, px + rw, py + rh], fill=pal.ROOF, outline=pal.ROOF_EDGE)
                if long:
                    draw.line([(px - rw, py), (px + rw, py)], fill=pal.ROOF_EDGE, width=max(1, s // 48))
                else:
                    draw.line([(px, py - rh), (px, py + rh)], fill=pal.ROOF_EDGE, width=max(1, s // 48))
            x += step
        y += step


def _ripples(draw: ImageDraw.ImageDraw, path: list[Point], river_w: int, s: int) -> None:
    """Short light strokes on the water, along the river's course."""
    if s < 32 or len(path) < 2:
        return
    every = s * 0.22
    gone = 0.0
    side = 1
    for (x0, y0), (x1, y1) in zip(path, path[1:], strict=False):
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        t = every - gone
        while t < length:
            cx, cy = x0 + ux * t, y0 + uy * t
            off = side * river_w * 0.18
            cx, cy = cx - uy * off, cy + ux * off
            dash = river_w * 0.35
            draw.line([(cx - ux * dash, cy - uy * dash), (cx + ux * dash, cy + uy * dash)], fill=pal.RIPPLE,
                      width=max(1, s // 40))  # fmt: skip
            side = -side
            t += every
        gone = (gone + length) % every


def flood_fill(img: Image.Image, seed: tuple[int, int], colour: tuple[int, int, int, int]) -> None:
    """Fill the pixels of ``seed``'s colour joined to it side by side (4-neighbours) with
    ``colour``: the pixels ``ImageDraw.floodfill(thresh=0)`` fills, span by span on the raw
    pixels, which makes a tile's art several times faster to draw the first time."""
    assert img.mode == "RGBA"
    w, h = img.size
    px = memoryview(bytearray(img.tobytes())).cast("I")
    target = px[seed[1] * w + seed[0]]
    new = int.from_bytes(bytes(colour), sys.byteorder)  # as cast("I") reads the pixels
    if target == new:
        return
    stack = [seed]
    while stack:
        x, y = stack.pop()
        row = y * w
        if px[row + x] != target:
            continue
        left = x
        while left > 0 and px[row + left - 1] == target:
            left -= 1
        right = x
        while right < w - 1 and px[row + right + 1] == target:
            right += 1
        px[row + left : row + right + 1] = memoryview(new.to_bytes(4, sys.byteorder) * (right - left + 1)).cast("I")
        for ny in (y - 1, y + 1):
            if 0 <= ny < h:
                other = ny * w
                i = left
                while i <= right:
                    if px[other + i] == target:
                        stack.append((i, ny))
                        while i <= right and px[other + i] == target:
                            i += 1
                    i += 1
    img.frombytes(px.tobytes())


def crown_points(sector: int, w: float, h: float) -> list[Point]:
    """Pixel positions of a sector's crown spaces on the wheel tile (rot 0)."""
    cx, cy, rad = w / 2, h / 2, w * 0.42
    n = CROWN_SPACES[SECTORS[sector]]
    mid = math.radians(-90 + 60 * sector + 30)
    pts = []
    for k in range(n):
        a = mid + (k - (n - 1) / 2) * math.radians(18)
        pts.append((cx + math.cos(a) * rad * 0.85, cy + math.sin(a) * rad * 0.85))
    return pts


def _house(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: tuple[int, int, int]) -> None:
    draw.rectangle([x - r, y - r * 0.5, x + r, y + r], fill=colour, outline=(60, 40, 30))
    draw.polygon(
        [(x - r * 1.25, y - r * 0.5), (x + r * 1.25, y - r * 0.5), (x, y - r * 1.4)],
        fill=pal.VILLAGE_ROOF,
        outline=(60, 40, 30),
    )


def _cloister(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A church: a nave under a red roof, a bell tower with a spire and a cross, an arched door."""
    edge = (60, 40, 30)
    line = max(1, int(r / 10))
    nave = [cx - r * 1.05, cy - r * 0.35, cx + r * 0.45, cy + r]
    draw.rectangle(nave, fill=pal.CLOISTER_WALL, outline=edge, width=line)
    draw.polygon([(cx - r * 1.25, cy - r * 0.35), (cx + r * 0.6, cy - r * 0.35), (cx + r * 0.3, cy - r * 0.95),
                  (cx - r * 0.95, cy - r * 0.95)], fill=pal.CLOISTER_ROOF, outline=edge)  # fmt: skip
    draw.rectangle([cx + r * 0.35, cy - r * 0.95, cx + r, cy + r], fill=pal.CLOISTER_WALL, outline=edge, width=line)
    draw.polygon([(cx + r * 0.28, cy - r * 0.95), (cx + r * 1.07, cy - r * 0.95), (cx + r * 0.675, cy - r * 1.75)],
                 fill=pal.CLOISTER_ROOF, outline=edge)  # fmt: skip
    tx, ty = cx + r * 0.675, cy - r * 1.75
    draw.line([(tx, ty), (tx, ty - r * 0.45)], fill=edge, width=line + 1)
    draw.line([(tx - r * 0.17, ty - r * 0.3), (tx + r * 0.17, ty - r * 0.3)], fill=edge, width=line + 1)
    draw.ellipse([cx + r * 0.55, cy - r * 0.65, cx + r * 0.8, cy - r * 0.4], fill=edge)  # the bell's window
    draw.rectangle([cx - r * 0.5, cy + r * 0.35, cx - r * 0.15, cy + r], fill=edge)  # the door
    draw.pieslice([cx - r * 0.5, cy + r * 0.18, cx - r * 0.15, cy + r * 0.52], 180, 360, fill=edge)


def _paths(tile: TileType, seg: Segment, s: float) -> list[list[Point]]:
    """Centre lines of a road or river segment, in rot-0 tile pixels."""
    out = []
    by_cell: dict[int, list[int]] = {}
    for ci, d in seg.edges:
        by_cell.setdefault(ci, []).append(d)
    for ci, dirs in by_cell.items():
        ox, oy = tile.cells[ci][0] * s, tile.cells[ci][1] * s
        centre = (s / 2, s / 2)
        if len(dirs) == 2 and (dirs[0] - dirs[1]) % 2 == 0:
            out.append(_shift([_edge_mid(dirs[0], s), _edge_mid(dirs[1], s)], ox, oy))
        elif len(dirs) == 2:
            out.append(_shift(_bezier(_edge_mid(dirs[0], s), centre, _edge_mid(dirs[1], s)), ox, oy))
        else:
            for d in dirs:
                mx, my = _edge_mid(d, s)
                end = centre if not tile.multi_cell else ((mx + s / 2) / 2, (my + s / 2) / 2)
                out.append(_shift([(mx, my), end], ox, oy))
    return out


def _beside_road(tile: TileType, seg: Segment, s: float) -> Point:
    ci, d = seg.edges[0]
    mx, my = _edge_mid(d, s)
    x, y = (mx + s / 2) / 2, (my + s / 2) / 2
    px, py = [(1, 0), (0, 1), (-1, 0), (0, -1)][d]  # to the right of the road, looking inwards
    return x + px * s * 0.17 + tile.cells[ci][0] * s, y + py * s * 0.17 + tile.cells[ci][1] * s


@functools.lru_cache(maxsize=512)
def _terrain(tile: TileType, size: int) -> Image.Image:
    return _draw_tile(tile, size)


def tile_image(tile: TileType, rot: int, size: int) -> Image.Image:
    """The tile's picture at a rotation, ``size`` pixels per cell, its words (the wheel's sectors)
    in the language being spoken. Cached.

    The terrain is drawn once and turned; symbols and digits are drawn after the
    turn, so they always stand upright.
    """
    words = tuple(sector_name(sector) for sector in SECTORS) if tile.id == "wheel.start" else ()
    return _tile_image(tile, rot, size, words)


@functools.lru_cache(maxsize=2048)
def _tile_image(tile: TileType, rot: int, size: int, words: tuple[str, ...]) -> Image.Image:
    img = _terrain(tile, size)
    if rot:
        turn = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}[rot]
        img = img.transpose(turn)
    else:
        img = img.copy()
    _draw_upright(ImageDraw.Draw(img), tile, rot, size, words)
    return img


def rotate_point(p: Point, w: float, h: float, rot: int) -> Point:
    """Where a point of a w x h rot-0 image lands once the image turns ``rot`` clockwise."""
    x, y = p
    for _ in range(rot // 90):
        x, y, w, h = h - y, x, h, w
    return x, y


@functools.lru_cache(maxsize=4096)
def spots(tile: TileType, rot: int, size: int) -> list[Point]:
    """Per segment, where its figure stands, in the rotated tile image's pixels."""
    xs = [c[0] for c in tile.cells]
    ys = [c[1] for c in tile.cells]
    w, h = (max(xs) + 1) * size, (max(ys) + 1) * size
    return [rotate_point(segment_spot(tile, seg, size), w, h, rot) for seg in tile.segments]


def _draw_upright(draw: ImageDraw.ImageDraw, tile: TileType, rot: int, s: int, words: tuple[str, ...]) -> None:
    """Symbols, houses, digits and words, drawn on the already rotated image so that they stand upright."""
    xs = [c[0] for c in tile.cells]
    ys = [c[1] for c in tile.cells]
    w, h = (max(xs) + 1) * s, (max(ys) + 1) * s

    def at(x: float, y: float) -> Point:
        return rotate_point((x, y), w, h, rot)

    extra = EXTRAS.get(tile.id)
    river_stubs = [seg for seg in tile.segments if seg.kind == "river"]
    if tile.id == "wheel.start":
        f = font(int(s * 0.26))  # about 9 px where the turn picture's tiles are 35 px on a phone
        cx, cy, rad = w / 2, h / 2, w * 0.42
        for i, name in enumerate(words):
            mid = math.radians(-90 + 60 * i + 30)
            tx, ty = at(cx + math.cos(mid) * rad * 0.6, cy + math.sin(mid) * rad * 0.6)
            draw.text(
                (tx, ty),
                name,
                fill=pal.MARGIN_TEXT,
                font=f,
                anchor="mm",
                stroke_width=max(1, s // 40),
                stroke_fill=pal.PARCHMENT,
            )
    if extra == "volcano":
        vx, vy = at(s * 0.5, s * 0.5)
        draw.polygon(
            [(vx - s * 0.12, vy + s * 0.1), (vx + s * 0.12, vy + s * 0.1), (vx, vy - s * 0.14)], fill=pal.VOLCANO
        )
        draw.polygon(
            [(vx - s * 0.04, vy - s * 0.08), (vx + s * 0.04, vy - s * 0.08), (vx, vy - s * 0.14)], fill=(230, 80, 30)
        )
    for seg in tile.segments:
        if seg.kind == "cloister":
            _cloister(draw, *at(s / 2, s * 0.26 if river_stubs else s / 2), s * 0.16)
        if seg.kind == "castle":
            cx, cy = at(w / 2, h / 2)
            bw = s * (0.55 if rot in (0, 180) else 0.4)
            bh = s * 0.32
            draw.rectangle(
                [cx - bw, cy - bh, cx + bw, cy + bh], fill=pal.CASTLE, outline=pal.CASTLE_EDGE, width=max(2, s // 32)
            )
            step = bw / 4
            for k in range(8):
                if k % 2 == 0:
                    bx = cx - bw + k * step
                    draw.rectangle(
                        [bx, cy - bh - step * 0.6, bx + step, cy - bh], fill=pal.CASTLE, outline=pal.CASTLE_EDGE
                    )
            draw.rectangle([cx - s * 0.08, cy, cx + s * 0.08, cy + bh], fill=pal.CASTLE_EDGE)
        if seg.kind == "city" and seg.pennants:
            sx, sy = segment_spot(tile, seg, s)
            px, py = at(sx, sy)
            px, py = px + s * 0.16, py - s * 0.12
            r = s * 0.1
            draw.polygon(
                [
                    (px - r, py - r),
                    (px + r, py - r),
                    (px + r, py + r * 0.3),
                    (px, py + r * 1.2),
                    (px - r, py + r * 0.3),
                ],
                fill=pal.PENNANT,
                outline=(255, 255, 255),
                width=max(1, s // 48),
            )
            draw.line([(px, py - r * 0.8), (px, py + r * 0.8)], fill=(255, 255, 255), width=max(1, s // 40))
            draw.line(
                [(px - r * 0.7, py - r * 0.1), (px + r * 0.7, py - r * 0.1)],
                fill=(255, 255, 255),
                width=max(1, s // 40),
            )
        for name in seg.decorations:
            _draw_icon(draw, name, *at(*_beside_road(tile, seg, s)), s)
        for mark in seg.marks:  # an expansion's mark (an inn, a cathedral, a good): its module draws it
            art = mark_art(mark)
            if art is not None:
                art(draw, tile, seg, s, at)
    for k, name in enumerate(tile.loose_decorations):
        _draw_icon(draw, name, *at(s * (0.2 + 0.15 * k), s * 0.8), s)
    if tile.village:  # a hamlet: three houses around the crossing
        vx, vy = at(s / 2, s / 2)
        for hx, hy, size in ((-0.09, 0.02, 0.075), (0.09, 0.02, 0.075), (0.0, -0.02, 0.095)):
            _house(draw, vx + hx * s, vy + hy * s, s * size, pal.VILLAGE)
    if tile.number:
        r = s * 0.15
        x, y = wheel_icon_centre(tile, rot, s)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=pal.PARCHMENT, outline=pal.WALL, width=max(1, s // 40))
        draw.text((x, y), str(tile.number), fill=pal.MARGIN_TEXT, font=font(int(r * 1.6)), anchor="mm")


def wheel_icon_centre(tile: TileType, rot: int, s: int) -> Point:
    """Where the wheel icon of a tile sits in its rotated image (for tests and overlays)."""
    r = s * 0.15
    x, y = rotate_point((s - r * 1.2, r * 1.2), s, s, rot)
    return round(x), round(y)  # whole pixels: the icon rasterises the same in every rotation
