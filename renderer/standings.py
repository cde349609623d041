"""A league table as a picture (for /league standings)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from renderer import palette as pal
from renderer.tile_art import font

COLUMNS = ("#", "Player", "Rating", "mu", "sigma", "Games")


def render_standings(title: str, rows: list[tuple[int, str, float, float, float, int, bool]]) -> Image.Image:
    """rows: (rank, name, ordinal, mu, sigma, games, provisional)."""
    line = 34
    widths = (50, 300, 110, 90, 90, 90)
    width = sum(widths) + 40
    img = Image.new("RGB", (width, line * (len(rows) + 3)), pal.MARGIN_BG)
    draw = ImageDraw.Draw(img)
    draw.text((20, line // 2), title, fill=pal.MARGIN_TEXT, font=font(24))
    head = font(16)
    body = font(18)
    x = 20
    for name, w in zip(COLUMNS, widths, strict=True):
        draw.text((x, line * 1.5), name, fill=(110, 112, 118), font=head)
        x += w
    for i, (rank, name, rating, mu, sigma, games, provisional) in enumerate(rows):
        y = line * (i + 2) + 8
        if i % 2 == 0:
            draw.rectangle([10, y - 4, width - 10, y + line - 8], fill=(230, 232, 236))
        cells = (
            str(rank),
            name + (" (provisional)" if provisional else ""),
            f"{rating:.1f}",
            f"{mu:.1f}",
            f"{sigma:.2f}",
            str(games),
        )
        x = 20
        for text, w in zip(cells, widths, strict=True):
            draw.text((x, y), text[:32], fill=(140, 140, 140) if provisional else pal.MARGIN_TEXT, font=body)
            x += w
    return img
