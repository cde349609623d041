"""End of game: the final board with a score chart, and an animated replay."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from engine import Game
from engine.record import new_game
from renderer import palette as pal
from renderer.board import draw_area, draw_figures, frame_for, outline_cells, palettised, render_board, with_legend
from renderer.tile_art import font, tile_image

REPLAY_SIDE = 720  # the animation's long side, in pixels
REPLAY_FRAME_MS = 350


def render_final(game: Game) -> Image.Image:
    """The final board above a bar chart of the scores, best first."""
    board = render_board(game, highlight_last=False, legend=False)  # the chart below is the legend
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
    """An animated GIF of the game, one frame per turn.

    Every frame shows the turn number, each player's colour, name and running
    score, and the figures as they stood at the end of that turn (a follower
    appears with its tile). Tiles are pasted once onto a growing canvas and every
    frame is put in the fixed palette as soon as it is drawn, so the animation is
    fast and light on memory.
    """
    final = _replayed(record)
    cells = [c for p in final.board.placements for c in p.cells]
    span = max(max(x for x, _ in cells) - min(x for x, _ in cells), max(y for _, y in cells) - min(y for _, y in cells))
    frame = frame_for(cells, cell=max(12, REPLAY_SIDE // (span + 3)))
    text = max(14, REPLAY_SIDE // 36)
    game = new_game(record)
    canvas = draw_area(game, frame, None, [], False, figures_too=False, both_sides=True)
    pasted = 0
    frames = []

    def snapshot() -> None:
        nonlocal pasted
        for p in game.board.placements[pasted:]:
            art = tile_image(p.tile, p.rot, frame.cell)
            canvas.paste(art, frame.origin(min(c[0] for c in p.cells), min(c[1] for c in p.cells)), art)
        pasted = len(game.board.placements)
        img = canvas.copy()
        draw = ImageDraw.Draw(img)
        draw_figures(img, game, frame)
        if pasted > 1:
            outline_cells(draw, frame, game.board.placements[-1].cells, pal.LAST_PLACED, max(2, frame.cell // 12))
        frames.append(palettised(with_legend(img, game, text)))

    snapshot()
    for move in record.get("moves", []):
        turn = game.turn
        game.apply(move)
        if game.turn != turn or game.finished:
            snapshot()
    out = io.BytesIO()
    durations = [REPLAY_FRAME_MS] * (len(frames) - 1) + [3000]
    frames[0].save(
        out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False
    )
    return out.getvalue()


def _replayed(record: dict[str, Any]) -> Game:
    game = new_game(record)
    for move in record.get("moves", []):
        game.apply(move)
    return game
