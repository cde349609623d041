"""Message content for Discord: text, embeds and picture files from service answers."""

from __future__ import annotations

import io
from datetime import datetime

import discord

from engine import Game
from renderer.board import label_cells, png_bytes, render_board
from renderer.summary import render_final, replay_gif
from renderer.tile_art import tile_image
from service import TurnView
from storage.store import GameRow

SET_NAMES = {
    "base": "Base game",
    "river1": "The River",
    "river2": "The River II",
    "castles": "Castles in Germany",
    "ferries": "The Ferries",
    "wheel": "The Wheel of Fortune",
    "toll": "The Tollkeepers",
}
MAX_MESSAGE = 1900


def mention(user_id: str | None, fallback: str) -> str:
    return f"<@{user_id}>" if user_id and user_id.isdigit() else fallback


def timestamp(t: datetime | None, style: str = "R") -> str:
    return f"<t:{int(t.timestamp())}:{style}>" if t else "no time limit"


def lobby_embed(row: GameRow) -> discord.Embed:
    opts = row.options
    limit = opts.get("turn_limit", 0)
    embed = discord.Embed(title=f"Carcassonne — game #{row.id}", colour=0x8DBF5A)
    embed.add_field(name="Sets", value=", ".join(SET_NAMES.get(s, s) for s in opts["sets"]), inline=False)
    seated = "\n".join(f"• {s.name}{' (computer)' if s.is_ai else ''}" for s in row.seats) or "nobody yet"
    embed.add_field(name=f"Players ({len(row.seats)}/{opts['max_players']})", value=seated, inline=True)
    rules = f"{limit // 3600} h per turn" if limit >= 3600 else (f"{limit // 60} min per turn" if limit else "no limit")
    embed.add_field(name="Turn limit", value=f"{rules}, then {opts['timeout_policy']}", inline=True)
    if "castles" in opts["sets"]:
        if opts.get("castles") == "chosen":
            chosen = opts.get("castle_choices", {})
            picks = [
                f"{s.name}: {', '.join(c.split('.', 1)[1].capitalize() for c in chosen.get(s.user_id, [])) or '—'}"
                for s in row.seats
                if not s.is_ai
            ]
            embed.add_field(name="Castles (chosen)", value="\n".join(picks) or "—", inline=False)
        else:
            embed.add_field(name="Castles", value="dealt at the start", inline=False)
    status = {"lobby": "Waiting for players", "active": "Playing", "finished": "Finished", "aborted": "Aborted"}
    embed.set_footer(text=status.get(row.status, row.status))
    return embed


def png_file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def board_file(game: Game, view: TurnView | None = None) -> discord.File:
    legal = label_cells(list(view.placements)) if view and view.placements else None
    return png_file(png_bytes(render_board(game, legal=legal)), "board.png")


def tile_file(game: Game) -> discord.File | None:
    if game.drawn is None:
        return None
    img = tile_image(game.drawn, 0, 128)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return png_file(out.getvalue(), "tile.png")


def turn_content(view: TurnView, lines: list[str]) -> str:
    """The turn message: what just happened, then whose turn it is and until when."""
    text = "\n".join(lines[-12:])
    if view.finished:
        return _clip(text)
    who = mention(view.user_id, view.player or "?")
    if view.step == "tile":
        ask = f"{who}, your turn: place **{view.tile}** ({view.bag_left} tiles left)."
    elif view.step == "plague":
        ask = f"{who}, the plague: choose one of your followers to send home."
    elif view.step in ("ferry", "ferry_move"):
        ask = f"{who}, your turn goes on: {'place the new ferry' if view.step == 'ferry' else 'you may move ferries'}."
    elif view.step == "draw":
        ask = f"{who}, your turn: draw a tile or place one of your castles ({view.bag_left} tiles left)."
    else:
        ask = f"{who}, your decision: {view.step}."
    deadline = f" Ends {timestamp(view.deadline)}." if view.deadline else ""
    return _clip((text + "\n\n" if text else "") + f"**Turn {view.turn}** — {ask}{deadline}")


def final_content(view: TurnView, lines: list[str]) -> str:
    table = "\n".join(
        f"{i}. **{name}** — {score}"
        for i, (name, score) in enumerate(sorted(view.scores.items(), key=lambda kv: -kv[1]), start=1)
    )
    return _clip("\n".join(lines[-8:]) + f"\n\n**Final scores**\n{table}")


def final_files(game: Game) -> list[discord.File]:
    return [
        png_file(png_bytes(render_final(game)), "final.png"),
        png_file(replay_gif(game.to_json()), "replay.gif"),
    ]


def _clip(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else "…" + text[-MAX_MESSAGE:]
