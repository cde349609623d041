"""``python bot.py play``: a game in the terminal, on the same service as Discord.

Humans share the keyboard; computer players fill the other seats. Input is read
line by line from stdin, so a game can be scripted:

    at a tile:    a cell and a rotation, e.g. ``B 90`` or ``1,0 90`` (a cell label
                  or x,y from the list; the rotation may be left out if only one fits)
    at a choice:  its number, or ``p`` to pass when passing is allowed
    any time:     ``score``, ``tiles``, ``board`` (writes a picture), ``help``, ``quit``
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from renderer.board import label_cells, png_bytes, render_board
from service import GameService, LobbyOptions, ServiceError, TurnView
from storage import Store, open_database

HELP = __doc__.split("\n\n", 1)[1] if __doc__ else ""


class Quit(Exception):
    pass


async def run_console(
    sets: list[str], humans: list[str], ai: int, seed: int | None, db_path: Path, pictures: Path | None,
    read: Callable[[], str | None] | None = None, write: Callable[[str], None] = print,
) -> int:  # fmt: skip
    read = read or _stdin_line
    if len(humans) + ai < 2:
        write("a game needs at least 2 players: name more humans or add --ai")
        return 2
    db = await open_database(db_path)
    try:
        service = GameService(Store(db))
        users = {f"console:{name}": name for name in humans}
        host = next(iter(users)) if users else "console:host"
        try:
            opts = LobbyOptions(sets=sets, max_players=len(humans) + ai, turn_limit=0, seed=seed)
            lobby = await service.create_lobby(host, humans[0] if humans else "host", opts, seat_creator=bool(humans))
            for uid, name in list(users.items())[1:]:
                await service.join(lobby.id, uid, name)
            for i in range(ai):
                await service.add_ai(lobby.id, host, greedy=i % 2 == 0)
            view = await service.start(lobby.id, host)
        except ServiceError as exc:
            write(f"cannot start: {exc}")
            return 2
        write(f"game #{lobby.id} started ({', '.join(opts.sets)}); type 'help' for the commands")
        try:
            while not view.finished:
                view = await _human_turn(service, view, read, write, pictures)
        except Quit:
            write(f"stopped; the game is saved in {db_path} as #{lobby.id}")
            return 0
        write("final scores: " + ", ".join(f"{n} {s}" for n, s in sorted(view.scores.items(), key=lambda kv: -kv[1])))
        return 0
    finally:
        await db.close()


def _stdin_line() -> str | None:
    line = sys.stdin.readline()
    return None if line == "" else line.strip()


async def _ask(prompt: str, service: GameService, view: TurnView, read, write, pictures: Path | None) -> str:
    while True:
        write(prompt)
        line = read()
        if line is None:
            raise Quit
        word = line.strip().lower()
        if word in ("quit", "exit"):
            raise Quit
        if word == "help":
            write(HELP)
        elif word == "score":
            write(", ".join(f"{n} {s} ({view.supply[n]} followers left)" for n, s in view.scores.items()))
        elif word == "tiles":
            bag = await service.bag(view.game_id)
            write(f"{sum(bag.values())} tiles left: " + ", ".join(f"{t} x{n}" for t, n in bag.items()))
        elif word == "board":
            path = await _picture(service, view, pictures or Path("."))
            write(f"board written to {path}")
        elif word:
            return line.strip()


async def _picture(service: GameService, view: TurnView, folder: Path) -> Path:
    _row, game = await service.game(view.game_id)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"game-{view.game_id}-turn-{view.turn:03d}.png"
    path.write_bytes(png_bytes(render_board(game, legal=label_cells(list(view.placements)) or None)))
    return path


async def _human_turn(service: GameService, view: TurnView, read, write, pictures: Path | None) -> TurnView:
    me, turn = view.player, view.turn
    draft: list[dict] = []
    current = view
    if pictures:
        write(f"board: {await _picture(service, view, pictures)}")
    while True:
        if current.step == "tile":
            labels = label_cells(list(current.placements))
            write(f"turn {turn}: {me} places {current.tile} ({current.bag_left} left in the bag). Legal cells:")
            write(
                "  "
                + "  ".join(
                    f"{labels[c]} {c[0]},{c[1]} {list(r)}"
                    for c, r in sorted(current.placements.items(), key=lambda kv: labels[kv[0]])
                )
            )
            answer = await _ask(f"{me} > cell rotation:", service, current, read, write, pictures)
            move = _tile_move(answer, current, labels)
            if isinstance(move, str):
                write(move)
                continue
        else:
            write(f"{me}, choose ({current.step}):")
            for choice in current.choices:  # labels carry the numbers of the preview's spots
                write(f"  {'p. ' if choice.move['type'] == 'pass' else ''}{choice.label}")
            answer = (await _ask(f"{me} > choice:", service, current, read, write, pictures)).lower()
            picked = [c for c in current.choices if c.move["type"] == "pass"] if answer in ("p", "pass") else []
            if answer.isdigit() and 1 <= int(answer) <= len(current.choices):
                picked = [current.choices[int(answer) - 1]]
            if not picked:
                write(
                    f"answer with a number from 1 to {len(current.choices)}"
                    + (" or p" if any(c.move["type"] == "pass" for c in current.choices) else "")
                )
                continue
            move = picked[0].move
        try:
            nxt = await service.options_after(view.game_id, view.user_id or "", view.version, draft + [move])
        except ServiceError as exc:
            write(f"not possible: {exc}")
            continue
        draft.append(move)
        if nxt.finished or nxt.turn != turn or nxt.player != me:
            result = await service.play(view.game_id, view.user_id or "", draft, view.version)
            for line in result.lines:
                write(line)
            return result.turn
        current = nxt


def _tile_move(answer: str, view: TurnView, labels: dict) -> dict | str:
    parts = answer.replace(",", " ").split()
    by_label = {v.lower(): k for k, v in labels.items()}
    cell = None
    if parts and parts[0].lower() in by_label:
        cell, rest = by_label[parts[0].lower()], parts[1:]
    elif len(parts) >= 2 and all(p.lstrip("-").isdigit() for p in parts[:2]):
        cell, rest = (int(parts[0]), int(parts[1])), parts[2:]
    if cell is None or cell not in view.placements:
        return "name a legal cell: its label (A, B, ...) or x,y"
    rots = view.placements[cell]
    if not rest:
        if len(rots) > 1:
            return f"say the rotation too: one of {', '.join(map(str, rots))}"
        rot = rots[0]
    elif rest[0].isdigit() and int(rest[0]) in rots:
        rot = int(rest[0])
    else:
        return f"the tile fits there turned {', '.join(map(str, rots))}"
    return {"type": "tile", "x": cell[0], "y": cell[1], "rot": rot}
