"""End of game: the final board with a score chart, and an animated replay."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from engine import Game
from engine.record import new_game
from renderer import palette as pal
from renderer.board import frame_for, render_board
from renderer.tile_art import font

REPLAY_SIDE = 720  # the animation's long side, in pixels
REPLAY_FRAME_MS = 350


def render_final(game: Game) -> Image.Image:
    """The final board above a bar chart of the scores, best first."""
    board = render_board(game, highlight_last=False)
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


def replay_gif(record: dict[str, Any]) -> bytes:
    """An animated GIF of the game, one frame per placed tile (figures as they stood)."""
    final = _replayed(record)
    cells = [c for p in final.board.placements for c in p.cells]
    span = max(max(x for x, _ in cells) - min(x for x, _ in cells), max(y for _, y in cells) - min(y for _, y in cells))
    frame = frame_for(cells, cell=max(12, REPLAY_SIDE // (span + 3)))
    game = new_game(record)
    frames = [render_board(game, frame=frame)]
    for move in record.get("moves", []):
        game.apply(move)
        if move.get("type") in ("tile", "castle"):
            frames.append(render_board(game, frame=frame))
    palette_frames = [
        f.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE) for f in frames
    ]
    out = io.BytesIO()
    durations = [REPLAY_FRAME_MS] * (len(frames) - 1) + [3000]
    palette_frames[0].save(
        out, format="GIF", save_all=True, append_images=palette_frames[1:], duration=durations, loop=0, optimize=False
    )
    return out.getvalue()


def _replayed(record: dict[str, Any]) -> Game:
    game = new_game(record)
    for move in record.get("moves", []):
        game.apply(move)
    return game
