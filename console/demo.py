"""``python bot.py demo``: computer players play a whole game through the service.

Uses a real SQLite file, writes the board picture after every turn, the final
picture, the record and the replay animation.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from engine import Game
from engine.expansions.registry import set_title
from engine.language import _, ngettext, use
from locales import translations
from renderer.board import png_bytes, render_board
from renderer.jobs import final_pieces_png, story_png
from renderer.summary import replay_gif
from service import Caller, GameService, LobbyOptions, ServiceError
from storage import Store, open_database
from storage.database import safe_url

QUARTERS = ("nw", "ne", "sw", "se")  # the order final_pieces_png gives a big board's quarters in


class Progress:
    """A one-line progress bar of the tiles drawn from the bag on a terminal; a line every 10
    tiles otherwise."""

    def __init__(self, total: int) -> None:
        self.total = max(1, total)
        self.tty = sys.stderr.isatty()
        self.said = -1

    def show(self, done: int, text: str) -> None:
        if self.tty:
            bar = "#" * (30 * done // self.total)
            print(f"\r[{bar:<30}] {done}/{self.total} {text[:50]:<50}", end="", file=sys.stderr, flush=True)
        elif (done % 10 == 0 or done == self.total) and done != self.said:
            self.said = done
            print(_("{done}/{total} tiles drawn").format(done=done, total=self.total), file=sys.stderr)

    def close(self) -> None:
        if self.tty:
            print(file=sys.stderr)


async def run_demo(
    sets: list[str], players: int, seed: int | None, out: Path, pictures: bool = True, language: str = "en",
    database: str | None = None,
) -> int:  # fmt: skip
    """A whole game of computer players, spoken and drawn in ``language`` (``--lang``); a new game
    each run unless ``seed`` is given (the summary says which, to play it again). Its database is
    ``OUT/demo.db`` unless ``database`` is given: never the bot's ``DATABASE_URL`` by itself."""
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**6)
    use(translations(language))
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("board-[0-9][0-9][0-9].png"), *out.glob("final-[ns][ew].png")]:  # a previous run's
        old.unlink()
    db_path = database or str(out / "demo.db")
    db = await open_database(db_path)
    try:
        service = GameService(Store(db))
        host = Caller.offline("demo-host")
        try:
            lobby = await service.create_lobby(
                host,
                "host",
                LobbyOptions(sets=sets, max_players=players, seed=seed, language=language),
                seat_creator=False,
            )
            for i in range(players):
                await service.add_ai(host, lobby.id, "normal" if i % 2 == 0 else "easy")
        except ServiceError as exc:
            print(_("cannot set up that game: {error}").format(error=exc), file=sys.stderr)
            return 2
        progress: Progress | None = None
        counts = {"turn_ended": 0, "tile_placed": 0, "tile_discarded": 0}
        board = 0  # the pictures written, one per turn

        def after_turn(game: Game, events: list[dict[str, Any]]) -> None:
            """After each stored decision (a turn, or a plague's answer): count what happened."""
            nonlocal progress, board
            for event in events:
                if event["type"] in counts:
                    counts[event["type"]] += 1
            if progress is None:  # the bag as dealt (river tiles included; castles are played from hands)
                progress = Progress(len(game.initial_bag))
            if pictures and any(e["type"] == "turn_ended" for e in events):
                board += 1
                (out / f"board-{board:03d}.png").write_bytes(png_bytes(render_board(game)))
            line = next((e for e in events if e["type"] == "tile_placed"), None)
            progress.show(len(game.initial_bag) - game.bag_left, f"{line['player']}: {line['tile']}" if line else "")

        await service.start(host, lobby.id, autoplay=False)
        await service.run_automatic(host, lobby.id, on_turn=after_turn)
        if progress:
            progress.close()
        row, game = await service.game(host, lobby.id)
        record = await service.export(host, lobby.id)
        (out / "record.json").write_text(json.dumps(record, indent=1))
        if pictures:
            # The final board, and its quarters when it is too big to read whole (as the final post has them).
            pieces = await service.picture(host, final_pieces_png, lobby.id, language=language)
            (out / "final.png").write_bytes(pieces[0])
            for quarter, png in zip(QUARTERS, pieces[1:], strict=False):
                (out / f"final-{quarter}.png").write_bytes(png)
            (out / "story.png").write_bytes(story_png(record, row.id, language=language))
            (out / "replay.gif").write_bytes(replay_gif(record))
        turns, placed, set_aside = counts["turn_ended"], counts["tile_placed"], counts["tile_discarded"]
        print(
            ngettext(
                "game #{id} ({sets}, seed {seed}): {n} turn", "game #{id} ({sets}, seed {seed}): {n} turns", turns
            ).format(id=row.id, sets=", ".join(_(set_title(s)) for s in game.sets), seed=seed, n=turns)
            + ", "
            + ngettext("{n} tile placed", "{n} tiles placed", placed).format(n=placed)
            + (
                ngettext(
                    " ({n} tile that fitted nowhere was set aside)",
                    " ({n} tiles that fitted nowhere were set aside)",
                    set_aside,
                ).format(n=set_aside)
                if set_aside
                else ""
            )
        )
        ranked = sorted(game.score_table().items(), key=lambda kv: -kv[1])
        width = max(len(name) for name, _score in ranked)
        for name, score in ranked:  # each with their place, tied players sharing it
            print(f"  {1 + sum(other > score for _n, other in ranked)}. {name:<{width}} {score:>4}")
        made = "record.json"
        if pictures:
            made = _("record.json, final.png, story.png, replay.gif and a board-NNN.png per turn")
        where = safe_url(db_path)
        print(_("wrote {files} to {folder}/ (database: {database})").format(files=made, folder=out, database=where))
        print(_("replay the record: {command}").format(command=f"python -m engine.replay {out / 'record.json'}"))
        return 0
    finally:
        await db.close()
