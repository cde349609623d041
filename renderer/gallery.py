"""``python -m renderer.gallery OUT.png``: every tile type of every set, with its id."""

from __future__ import annotations

import sys

from PIL import Image, ImageDraw

from engine.catalog import TILE_TYPES
from renderer import palette as pal
from renderer.tile_art import font, tile_image

CELL = 96
COLUMNS = 10


def gallery(size: int = CELL) -> Image.Image:
    tiles = list(TILE_TYPES.values())
    pad, label = 8, 16
    slot_w = size * 2 + pad  # castles are two cells wide; the wheel gets a row of its own
    rows: list[list] = [[]]
    for t in tiles:
        if len(t.cells) == 16:
            rows.append([t])
            rows.append([])
            continue
        if len(rows[-1]) == COLUMNS:
            rows.append([])
        rows[-1].append(t)
    rows = [r for r in rows if r]
    heights = [(4 * size if len(r[0].cells) == 16 else size) + label + pad for r in rows]
    img = Image.new("RGB", (COLUMNS * slot_w + pad, sum(heights) + pad), pal.MARGIN_BG)
    draw = ImageDraw.Draw(img)
    f = font(11)
    y = pad
    for row, height in zip(rows, heights, strict=True):
        for i, t in enumerate(row):
            x = pad + i * slot_w
            art = tile_image(t, 0, size)
            img.paste(art, (x, y), art)
            draw.text((x, y + art.height + 2), t.id, fill=pal.MARGIN_TEXT, font=f)
        y += height
    return img


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m renderer.gallery OUT.png", file=sys.stderr)
        return 2
    gallery().save(args[0])
    print(f"wrote {args[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
