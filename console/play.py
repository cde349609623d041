"""``python bot.py play``: a game in the terminal, on the same service as Discord.

Humans share the keyboard; computer players fill the other seats. Input is read
line by line from stdin, so a game can be scripted:

    at a tile:    a cell and a rotation, e.g. ``B 90`` or ``1,0 90`` (a cell label
                  or x,y from the list; the rotation may be left out if only one fits)
    at a choice:  its number (follower spots are numbered as on the preview),
                  or ``p`` to pass when passing is allowed; ``back`` undoes a choice
    any time:     ``score``, ``tiles``, ``board`` (writes a picture into the game's folder),
                  ``hint``, ``help``, ``quit``
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path

from engine.expansions.registry import set_title
from engine.language import N_, _, ngettext, use
from engine.moves import Question
from engine.words import tile_name
from locales import translations
from renderer.board import label_cells
from renderer.jobs import board_png, cell_labels, final_pieces_png, preview_png, story_png, turn_pngs
from service import Ask, Caller, GameService, LobbyOptions, PlayResult, ServiceError, TurnView
from storage import Store, open_database

HELP = N_(
    "    at a tile:    a cell and a rotation, e.g. B 90 or 1,0 90 (a cell label\n"
    "                  or x,y from the list; the rotation may be left out if only one fits);\n"
    "                  with castles in hand, the castles are placed the same way, and a\n"
    "                  numbered line draws a tile instead\n"
    "    at a choice:  its number (follower spots are numbered as on the preview),\n"
    "                  or p to pass when passing is allowed; back undoes a choice\n"
    "    any time:     score, tiles, board (writes a picture), hint (what the hard\n"
    "                  computer would play), help, quit"
)
# The words the terminal understands at any prompt, in every language it speaks.
WORDS = {
    "help": ("help", "aide", "?"),
    "score": ("score", "scores"),
    "tiles": ("tiles", "tuiles"),
    "board": ("board", "plateau"),
    "hint": ("hint", "indice"),
    "back": ("back", "retour"),
    "quit": ("quit", "exit", "quitter"),
}


class Quit(Exception):
    pass


# Where ``board`` writes its pictures: --pictures, else the game's own folder beside its database.
BOARD_FOLDER: ContextVar[Path] = ContextVar("BOARD_FOLDER", default=Path("."))


async def run_console(
    sets: list[str], humans: list[str], ai: int, seed: int | None, db_path: Path, pictures: Path | None,
    read: Callable[[], str | None] | None = None, write: Callable[[str], None] = print, language: str = "en",
    resume: int | None = None,
) -> int:  # fmt: skip
    """A game in the terminal, spoken in ``language`` (``--lang``); ``resume``: a game saved by
    ``quit`` goes on where it stopped."""
    use(translations(language))
    read = read or _stdin_line
    if resume is not None:
        return await _resume(resume, db_path, pictures, read, write)
    if len(humans) + ai < 2:
        write(_("a game needs at least 2 players: name more humans or add --ai"))
        return 2
    db = await open_database(db_path)
    try:
        service = GameService(Store(db))
        users = {f"console:{name}": name for name in humans}
        host = Caller.offline(next(iter(users)) if users else "console:host")
        try:
            opts = LobbyOptions(sets=sets, max_players=len(humans) + ai, turn_limit=0, seed=seed, language=language,
                                hints=True)  # fmt: skip
            lobby = await service.create_lobby(host, humans[0] if humans else "host", opts, seat_creator=bool(humans))
            for uid, name in list(users.items())[1:]:
                await service.join(Caller.offline(uid), lobby.id, name)
            for i in range(ai):
                await service.add_ai(host, lobby.id, "normal" if i % 2 == 0 else "easy")
            started = await service.start(host, lobby.id)
            view = started.turn
        except ServiceError as exc:
            write(_("cannot start: {error}").format(error=exc))
            return 2
        write(
            _("game #{id} started ({sets}); type 'help' for the commands").format(
                id=lobby.id, sets=", ".join(_(set_title(s)) for s in opts.sets)
            )
        )
        for line in started.lines:  # what the computers who sit first did
            write(line)
        return await _play_on(service, view, db_path, pictures, read, write)
    finally:
        await db.close()


async def _resume(game_id: int, db_path: Path, pictures: Path | None, read, write) -> int:
    if not db_path.exists():
        write(_("no saved games in {path}").format(path=db_path))
        return 2
    db = await open_database(db_path)
    try:
        service = GameService(Store(db))
        try:
            view = await service.turn(Caller.system(None), game_id)
        except ServiceError as exc:
            write(_("cannot resume: {error}").format(error=exc))
            return 2
        return await _play_on(service, view, db_path, pictures, read, write)
    finally:
        await db.close()


async def _play_on(service: GameService, view: TurnView, db_path: Path, pictures: Path | None, read, write) -> int:
    """Turns until the end (or ``quit``), then the final scores and picture."""
    BOARD_FOLDER.set(pictures or db_path.parent / f"game-{view.game_id}")
    try:
        while not view.finished:
            view = await _human_turn(service, view, read, write, pictures)
    except Quit:
        command = f"python bot.py play --resume {view.game_id} --db {db_path}"
        write(_("stopped; the game is saved: {command} goes on with it").format(command=command))
        return 0
    ranked = sorted(view.scores.items(), key=lambda kv: -kv[1])
    # Each with their place; tied players share it ("1. Ann 30, 1. Bob 30, 3. Cy 12").
    table = ", ".join(f"{1 + sum(o > s for _n, o in ranked)}. {n} {s}" for n, s in ranked)
    write(_("final scores: {scores}").format(scores=table))
    if pictures:
        pictures.mkdir(parents=True, exist_ok=True)
        path = pictures / f"game-{view.game_id}-final.png"
        # The final board, and its quarters when it is too big to read whole (as the final post has them).
        pieces = await service.picture(Caller.system(None), final_pieces_png, view.game_id)
        path.write_bytes(pieces[0])
        write(_("final picture: {path}").format(path=path))
        for quarter, png in zip(("nw", "ne", "sw", "se"), pieces[1:], strict=False):
            part = pictures / f"game-{view.game_id}-final-{quarter}.png"
            part.write_bytes(png)
            write(_("final picture: {path}").format(path=part))
        story = pictures / f"game-{view.game_id}-story.png"
        story.write_bytes(await service.picture(Caller.system(None), story_png, view.game_id, view.game_id))
        write(_("the game's story: {path}").format(path=story))
    return 0


def _player(view: TurnView) -> Caller:
    """The terminal acts for whoever is to move (every human plays at this keyboard)."""
    return Caller.offline(view.user_id or "console:host")


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
        if word in WORDS["quit"]:
            raise Quit
        if word in WORDS["help"]:
            write(_(HELP))
        elif word in WORDS["score"]:
            write(
                ", ".join(
                    f"{n} {s} "
                    + ngettext("({n} follower left)", "({n} followers left)", view.supply[n]).format(n=view.supply[n])
                    for n, s in view.scores.items()
                )
            )
        elif word in WORDS["tiles"]:
            bag = await service.bag(_player(view), view.game_id)
            by_name: dict[str, int] = {}  # tiles of one name (two villages, say) count together
            for tile_id, n in bag.items():
                by_name[tile_name(tile_id)] = by_name.get(tile_name(tile_id), 0) + n
            left = sum(bag.values())
            listed = ", ".join(f"{name} x{n}" for name, n in sorted(by_name.items(), key=lambda kv: (-kv[1], kv[0])))
            lines = textwrap.fill(listed, 78, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False)
            said = ngettext("{n} tile left: {tiles}", "{n} tiles left: {tiles}", left)
            write(said.format(n=left, tiles="\n" + lines))
        elif word in WORDS["board"]:
            path = await _picture(service, view, BOARD_FOLDER.get(), "board")
            write(_("board written to {path}").format(path=path))
        elif word in WORDS["hint"]:
            write(await _hint(service, view))
        elif word:
            return line.strip()


async def _hint(service: GameService, view: TurnView) -> str:
    """What the hard computer would play for the player to move, worded as on Discord."""
    try:
        advice = await service.hint(_player(view), view.game_id)
    except ServiceError as exc:
        return str(exc)
    letters = label_cells(list(view.placements))
    steps = []
    for move, label in zip(advice.moves, advice.labels, strict=True):
        if move["type"] in ("tile", "castle") and "rot" in move:  # as the cell list names it
            label = f"{letters.get((move['x'], move['y']), '?')} {move['x']},{move['y']} {move['rot']}"
        steps.append(label)
    return _("Hint for game #{id}, turn {turn}: {moves}.").format(
        id=view.game_id, turn=view.turn, moves="; ".join(steps)
    ) + "\n" + _(
        "You stand {now:+.0f} against the best other player (scores, and what your followers hold); "
        "after this, the hard computer expects {expected:+.0f} two turns from now."
    ).format(now=advice.now, expected=advice.expected)


async def _picture(service: GameService, view: TurnView, folder: Path, name: str = "turn") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"game-{view.game_id}-turn-{view.turn:03d}-{name}.png"
    legal = cell_labels(view.placements)
    if name == "turn":
        pngs = await service.picture(_player(view), turn_pngs, view.game_id, legal or None)
        path.write_bytes(pngs[0])
        for k, png in enumerate(pngs[1:], start=2):  # the pieces holding the legal cells it could not show
            path.with_name(f"{path.stem}-{k}.png").write_bytes(png)
    else:
        # The whole board, lettered with the current choice as the turn pictures letter it.
        path.write_bytes(await service.picture(_player(view), board_png, view.game_id, None, legal or None))
    return path


async def _preview(service: GameService, view: TurnView, move: dict, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"game-{view.game_id}-turn-{view.turn:03d}-preview.png"
    png = await service.picture(
        _player(view), preview_png, view.game_id, move["x"], move["y"], move.get("castle"), move.get("rot")
    )
    if png:  # none when the stored game has moved past the placement
        path.write_bytes(png)
    return path


async def _human_turn(service: GameService, view: TurnView, read, write, pictures: Path | None) -> TurnView:
    """One decision of the player to act: render the service's question, submit the picks."""
    user = _player(view)
    if pictures:
        write(_("board: {path}").format(path=await _picture(service, view, pictures)))
    picks: list[int] = []
    while True:
        try:
            ask = await service.ask(user, view.game_id, picks, view.version)
        except ServiceError as exc:
            write(_("not possible: {error}").format(error=exc))
            return await service.turn(user, view.game_id)
        question = ask.question
        assert question is not None
        moves = question.moves()
        if question.kind in ("tile", "draw") and any("rot" in m for m in moves):
            pick = await _placement(service, view, ask, question, moves, read, write, pictures)
        else:
            pick = await _choice(service, view, ask, question, moves, read, write, pictures)
        if pick is None:
            picks = picks[:-1]
            continue
        try:
            answer = await service.pick(user, view.game_id, picks + [pick], view.version)
        except ServiceError as exc:
            write(_("not possible: {error}").format(error=exc))
            continue
        if isinstance(answer, PlayResult):
            for line in answer.lines:
                write(line)
            return answer.turn
        picks.append(pick)
        if pictures and moves[pick].get("rot") is not None:
            write(_("preview: {path}").format(path=await _preview(service, view, moves[pick], pictures)))


async def _placement(service, view, ask: Ask, question: Question, moves, read, write, pictures) -> int | None:
    me = question.player
    placing = [i for i, m in enumerate(moves) if "rot" in m]
    cells = sorted({(moves[i]["x"], moves[i]["y"]) for i in placing}, key=lambda c: (c[1], c[0]))
    labels = label_cells(cells)
    write(
        _("turn {turn}: {player}, {question}. Legal cells:").format(
            turn=question.turn, player=me, question=question.prompt
        )
    )
    by_cell: dict[tuple[int, int], list[int]] = {}
    for i in placing:
        by_cell.setdefault((moves[i]["x"], moves[i]["y"]), []).append(i)
    hand = sorted({moves[i]["castle"] for i in placing if moves[i].get("castle")})
    if hand:  # a castle holder's turn: the castles they may place instead of drawing
        write(_("your castles: {castles} (name one after the rotation)").format(
            castles=", ".join(tile_name(c) for c in hand)
        ))  # fmt: skip

    def turns(cell: tuple[int, int]) -> str:
        return "[" + ", ".join(
            f"{moves[i]['rot']}" + (f" {tile_name(moves[i]['castle'])}" if moves[i].get("castle") else "")
            for i in by_cell[cell]
        ) + "]"  # fmt: skip

    write("  " + "  ".join(f"{labels[c]} {c[0]},{c[1]} {turns(c)}" for c in cells))
    others = [i for i in range(len(moves)) if i not in placing]
    for k, i in enumerate(others, start=1):
        write(f"  {k}. {question.options[i].label}")
    while True:
        answer = await _ask(_("{player} > cell rotation:").format(player=me), service, view, read, write, pictures)
        if answer.lower() in WORDS["back"] and ask.picks:
            return None
        word = answer.strip()
        if re.fullmatch(r"[0-9]{1,4}", word) and 1 <= int(word) <= len(others):
            return others[int(word) - 1]
        picked = _tile_pick(word, moves, by_cell, labels)
        if isinstance(picked, int):
            return picked
        write(picked)


def _tile_pick(answer: str, moves: list[dict], by_cell: dict, labels: dict) -> int | str:
    parts = answer.replace(",", " ").split()
    by_label = {v.lower(): k for k, v in labels.items()}
    cell, rest = None, parts[1:]
    if parts and parts[0].lower() in by_label:
        cell = by_label[parts[0].lower()]
    elif len(parts) >= 2 and all(re.fullmatch(r"-?[0-9]{1,4}", p) for p in parts[:2]):
        cell, rest = (int(parts[0]), int(parts[1])), parts[2:]
    if cell is None or cell not in by_cell:
        return _("name a legal cell: its label (A, B, ...) or x,y")
    options = by_cell[cell]
    rots = sorted({moves[i]["rot"] for i in options})
    if not rest:
        if len(options) > 1:
            return _("say the rotation too: one of {rotations}").format(rotations=", ".join(map(str, rots)))
        return options[0]
    if not (re.fullmatch(r"[0-9]{1,3}", rest[0]) and int(rest[0]) in rots):
        return _("the tile fits there turned {rotations}").format(rotations=", ".join(map(str, rots)))
    turned = [i for i in options if moves[i]["rot"] == int(rest[0])]
    # The words after the rotation name a castle of the player's hand: never one they do not hold.
    named = " ".join(rest[1:]).lower()
    if named:
        chosen = [i for i in turned if moves[i].get("castle") and named in tile_name(moves[i]["castle"]).lower()]
        if len(chosen) == 1:
            return chosen[0]
        if not chosen:
            castles = [tile_name(moves[i]["castle"]) for i in turned if moves[i].get("castle")]
            if not castles:
                return _("only the drawn tile fits there turned {rotation}: leave the castle's name out").format(
                    rotation=rest[0]
                )
            return _("no castle of yours called {name} fits there turned {rotation}: {castles}").format(
                name=" ".join(rest[1:]), rotation=rest[0], castles=", ".join(castles)
            )
    if len(turned) == 1:
        return turned[0]
    return _("more than one castle fits there turned {rotation}: name it ({castles})").format(
        rotation=rest[0], castles=", ".join(tile_name(moves[i]["castle"]) for i in turned)
    )


async def _choice(service, view, ask: Ask, question: Question, moves, read, write, pictures) -> int | None:
    me = question.player
    write(_("{player}, {question}:").format(player=me, question=question.prompt))
    for i, option in enumerate(question.options, start=1):
        write(f"  {i}. {option.label}")
    if question.pass_label is not None:
        write(f"  p. {question.pass_label}")
    while True:
        answer = (
            (await _ask(_("{player} > choice:").format(player=me), service, view, read, write, pictures))
            .strip()
            .lower()
        )
        if answer in WORDS["back"] and ask.picks:
            return None
        if answer in ("p", "pass") and question.pass_label is not None:
            return len(moves) - 1
        if re.fullmatch(r"[0-9]{1,4}", answer) and 1 <= int(answer) <= len(question.options):
            return int(answer) - 1
        write(
            _("answer with a number from 1 to {n}").format(n=len(question.options))
            + (_(" or p") if question.pass_label is not None else "")
            + (_(", or back") if ask.picks else "")
        )
