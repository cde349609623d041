"""The offline front ends: the scripted terminal game and the demo."""

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from console.demo import run_demo
from console.play import run_console
from engine.catalog import SET_TILES
from engine.replay import summary
from tests.families import FAMILIES as ALL_FAMILIES

ROOT = Path(__file__).resolve().parent.parent


class Script:
    """Answers the console's prompts like a player who takes the first option offered."""

    def __init__(self, extra: list[str] | None = None) -> None:
        self.out: list[str] = []
        self.extra = list(extra or [])

    def write(self, text: str) -> None:
        self.out.append(text)

    def read(self) -> str | None:
        prompt = self.out[-1]
        if self.extra and prompt.endswith("cell rotation:"):  # bad answers where a cell is asked
            return self.extra.pop(0)
        if prompt.endswith("cell rotation:"):
            listing = next(line for line in reversed(self.out) if re.match(r"^\s+A ", line))
            first = re.match(r"^\s+A (-?\d+),(-?\d+) \[(\d+)", listing)
            return f"A {first.group(3)}"
        if prompt.endswith("choice:"):
            return "p" if any(line.strip().startswith("p. ") for line in self.out[-8:]) else "1"
        raise AssertionError(f"unexpected prompt {prompt!r}")


async def test_a_scripted_console_game_plays_to_the_end(tmp_path):
    script = Script(extra=["help", "score", "tiles", "Z 45", "1,1 33", "nonsense"])
    code = await run_console(["base", "toll"], ["Ann", "Bob"], 1, 3, tmp_path / "c.db", None, script.read, script.write)
    assert code == 0
    text = "\n".join(script.out)
    assert re.search(r"final scores: 1\. .+ \d+, [12]\. .+ \d+, [123]\. .+ \d+$", text, re.M)  # with places
    assert "name a legal cell" in text  # "Z 45", "1,1 33" and "nonsense" got an explanation
    assert "tiles left" in text and "followers left" in text
    assert "Game over" in text


async def test_quitting_keeps_the_game(tmp_path):
    script = Script(extra=["quit"])
    code = await run_console(["base"], ["Ann"], 1, 3, tmp_path / "c.db", None, script.read, script.write)
    assert code == 0 and "saved" in script.out[-1]


async def test_demo_writes_a_replayable_record(tmp_path):
    code = await run_demo(["base"], 2, 5, tmp_path, pictures=False)
    assert code == 0
    record = json.loads((tmp_path / "record.json").read_text())
    out, status = summary(record)
    assert status == 0 and out["finished"]
    assert (tmp_path / "demo.db").exists()


def test_demo_command_from_a_fresh_process_writes_pictures(tmp_path):
    proc = subprocess.run(
        [sys.executable, "bot.py", "demo", "--sets", "base", "--players", "2", "--seed", "3", "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "final.png").stat().st_size > 10_000
    assert (tmp_path / "replay.gif").exists()
    assert len(list(tmp_path.glob("board-*.png"))) > 30


def test_bot_without_token_says_what_is_missing(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 2 and "DISCORD_TOKEN" in proc.stderr


class RandomPlayerAtTheKeyboard:
    """Answers every prompt with a random legal-looking line, often with junk first: Unicode
    digits, huge numbers, 6,000 characters, unknown words, labels that do not exist."""

    JUNK = ["²", "9" * 5000, "x" * 6000, "Z 45", "-1,-1 33", "  ", "p", "back", "0", "١", "1,1 90.5", "score", "tiles"]

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.out: list[str] = []

    def write(self, text: str) -> None:
        self.out.append(text)

    def read(self) -> str | None:
        if self.rng.random() < 0.3:
            return self.rng.choice(self.JUNK)
        prompt = self.out[-1]
        if prompt.endswith("cell rotation:"):
            listing = next(line for line in reversed(self.out) if re.match(r"^\s+A ", line))
            cells = re.findall(r"([A-Z]+) (-?\d+),(-?\d+) \[([^\]]+)\]", listing)
            label, _x, _y, turns = self.rng.choice(cells)
            return f"{label} {self.rng.choice(turns.split(', '))}"  # "90", or "0 castle Eltz"
        if prompt.endswith("choice:"):
            count = sum(1 for line in self.out[-30:] if re.match(r"^\s+\d+\. ", line))
            options = [str(n) for n in range(1, count + 1)]
            if any(line.strip().startswith("p. ") for line in self.out[-30:]):
                options.append("p")
            return self.rng.choice(options or ["p"])
        raise AssertionError(f"unexpected prompt {prompt!r}")


@pytest.mark.parametrize(
    "sets",
    ALL_FAMILIES,
    ids=lambda s: "+".join(s),
)
async def test_random_answers_and_junk_play_a_whole_terminal_game(tmp_path, sets):
    player = RandomPlayerAtTheKeyboard(len(sets))
    code = await run_console(sets, ["Ann", "Bob"], 1, 7, tmp_path / "c.db", None, player.read, player.write)
    text = "\n".join(player.out)
    assert code == 0 and "final scores:" in text and "Traceback" not in text
    assert not re.search(r"\b(" + "|".join(SET_TILES) + r")\.[A-Za-z_]", text)  # tile names, not ids


class FrenchScript(Script):
    """The same player at a terminal game in French (``--lang fr``)."""

    def read(self) -> str | None:
        prompt = self.out[-1]
        if self.extra and prompt.endswith("case rotation :"):  # bad answers where a cell is asked
            return self.extra.pop(0)
        if prompt.endswith("case rotation :"):
            listing = next(line for line in reversed(self.out) if re.match(r"^\s+A ", line))
            first = re.match(r"^\s+A (-?\d+),(-?\d+) \[(\d+)", listing)
            return f"A {first.group(3)}"  # type: ignore[union-attr]
        if prompt.endswith("choix :"):
            return "p" if any(line.strip().startswith("p. ") for line in self.out[-8:]) else "1"
        raise AssertionError(f"unexpected prompt {prompt!r}")


async def test_a_terminal_game_in_french(tmp_path):
    script = FrenchScript(extra=["score", "tiles", "Z 45", "nonsense"])
    code = await run_console(
        ["base", "toll"], ["Anne", "Bob"], 1, 3, tmp_path / "c.db", None, script.read, script.write, language="fr"
    )
    assert code == 0
    text = "\n".join(script.out)
    assert "partie n°1 commencée (Jeu de base, Les Péages)" in text and "scores finaux :" in text
    assert "nommez une case permise" in text  # junk is explained, in French
    assert "tuiles restantes :" in text and "partisans restants" in text
    assert "Fin de la partie" in text and " a posé " in text
    assert "Game over" not in text and " placed " not in text


async def test_a_game_stopped_with_quit_resumes_where_it_stopped(tmp_path):
    first = Script(extra=["tiles", "quit"])
    db = tmp_path / "t.db"
    assert await run_console(["base", "toll"], ["Ann"], 1, 3, db, None, first.read, first.write) == 0
    said = "\n".join(first.out)
    assert f"python bot.py play --resume 1 --db {db}" in said
    listing = " ".join(next(line for line in first.out if "tiles left:" in line).split())  # wrapped lines joined
    names = [part.rsplit(" x", 1)[0] for part in listing.split(": ", 1)[1].split(", ")]
    assert len(names) > 20 and all(re.fullmatch(r"[a-z][a-z -]+", name) for name in names), names
    assert len(names) == len(set(names))  # each tile name once, with its count
    second = Script()
    pictures = tmp_path / "pictures"
    assert await run_console([], [], 0, None, db, pictures, second.read, second.write, resume=1) == 0
    assert "final scores:" in "\n".join(second.out)
    assert (pictures / "game-1-final.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record = json.loads(json.dumps(await _record(db)))
    wanted = [name.replace("final-", "game-1-final-") for name in quarters(record)]
    assert sorted(p.name for p in pictures.glob("game-1-final-*.png")) == wanted  # a big board in quarters too
    assert "cannot resume" in "\n".join(await _resume_missing(db))


async def _record(db) -> dict:
    from service import Caller, GameService
    from storage import Store, open_database

    database = await open_database(db)
    try:
        _row, game = await GameService(Store(database)).game(Caller.system(None), 1)
        return game.to_json()
    finally:
        await database.close()


async def _resume_missing(db) -> list[str]:
    script = Script()
    assert await run_console([], [], 0, None, db, None, script.read, script.write, resume=99) == 2
    return script.out


async def test_the_french_terminal_understands_french_words(tmp_path):
    script = FrenchScript(extra=["aide", "tuiles", "quitter"])
    code = await run_console(
        ["base"], ["Anne"], 1, 3, tmp_path / "c.db", None, script.read, script.write, language="fr"
    )
    text = "\n".join(script.out)
    assert code == 0 and "tapez 'aide'" in text and "à tout moment" in text and "tuiles restantes" in text
    assert "``" not in text


def test_the_terminal_tells_two_castles_on_one_cell_apart():
    from console.play import _tile_pick
    from engine.words import tile_name

    moves = [
        {"type": "castle", "castle": "castles.eltz", "x": 1, "y": 0, "rot": 0},
        {"type": "castle", "castle": "castles.rieneck", "x": 1, "y": 0, "rot": 0},
        {"type": "castle", "castle": "castles.eltz", "x": 1, "y": 0, "rot": 90},
    ]
    by_cell, labels = {(1, 0): [0, 1, 2]}, {(1, 0): "A"}
    said = _tile_pick("A 0", moves, by_cell, labels)
    assert isinstance(said, str) and tile_name("castles.eltz") in said and tile_name("castles.rieneck") in said
    assert _tile_pick("A 0 rieneck", moves, by_cell, labels) == 1
    assert _tile_pick("1 0 0 eltz", moves, by_cell, labels) == 0
    assert _tile_pick("A 90", moves, by_cell, labels) == 2  # only one castle turned so
    # A castle the player does not hold is never placed instead of the one they hold.
    said = _tile_pick("A 90 bentheim", moves, by_cell, labels)
    assert said == f"no castle of yours called bentheim fits there turned 90: {tile_name('castles.eltz')}"
    drawn = [{"type": "tile", "x": 1, "y": 0, "rot": 0}]
    assert _tile_pick("A 0 eltz", drawn, {(1, 0): [0]}, labels) == (
        "only the drawn tile fits there turned 0: leave the castle's name out"
    )
    assert _tile_pick("A 0", drawn, {(1, 0): [0]}, labels) == 0


async def test_the_terminal_gives_hints_wraps_the_bag_and_writes_boards_into_the_games_folder(tmp_path):
    script = Script(extra=["hint", "tiles", "board", "quit"])
    code = await run_console(["base"], ["Ann"], 1, 3, tmp_path / "t.db", None, script.read, script.write)
    assert code == 0
    text = "\n".join(script.out)
    hint = next(line for line in script.out if re.match(r"Hint for game #1, turn \d+: ", line))
    assert re.search(r": [A-Z] -?\d+,-?\d+ \d+", hint) and "two turns from now" in text
    bag = next(line for line in script.out if "tiles left:" in line)
    assert bag.count("\n") >= 3 and max(len(part) for part in bag.splitlines()) <= 78  # wrapped, not one line
    boards = list((tmp_path / "game-1").glob("*board.png"))
    assert len(boards) == 1 and f"board written to {boards[0]}" in text
    assert not list(Path(".").glob("game-1-turn-*"))  # nothing in the current folder


async def test_the_french_terminal_goes_back_with_retour(tmp_path):
    out: list[str] = []
    answers = iter(["aide", "A", "retour", "quitter"])  # at the first prompts, whatever they ask
    code = await run_console(["base"], ["Ann"], 1, 3, tmp_path / "t.db", None, lambda: next(answers, None), out.append,
                             language="fr")  # fmt: skip
    assert code == 0
    text = "\n".join(out)
    assert "retour annule un choix" in text and "indice" in text
    asked = [line for line in out if line.startswith("Ann >")]
    assert asked[-1] == asked[-3] and asked[-2] != asked[-1]  # "retour" went back to the placement's question


async def test_the_demo_counts_turns_and_set_aside_tiles_from_events_and_a_second_run_replaces_pictures(
    tmp_path, capsys
):
    assert await run_demo(["wheel"], 3, 3, tmp_path, pictures=True) == 0
    said = capsys.readouterr()
    record = json.loads((tmp_path / "record.json").read_text())
    out, _status = summary(record)
    turns = sum(e["type"] == "turn_ended" for e in out["events"])
    placed = sum(e["type"] == "tile_placed" for e in out["events"])
    discarded = sum(e["type"] == "tile_discarded" for e in out["events"])
    assert any(e["type"] == "plague" for e in out["events"])  # decisions that are no turns of their own
    assert f"{turns} turns, {placed} tiles placed" in said.out
    places = re.findall(r"^  ([1-3])\. ", said.out, re.M)
    assert len(places) == 3 and places[0] == "1"  # the final scores with each player's place
    assert ("fitted nowhere" in said.out) == (discarded > 0)
    assert "72/72 tiles drawn" in said.err  # the bag as dealt, whatever was placed from elsewhere
    assert len(list(tmp_path.glob("board-*.png"))) == turns
    assert quarters(record) == ["final-ne.png", "final-nw.png", "final-se.png", "final-sw.png"]  # a wide board
    assert sorted(p.name for p in tmp_path.glob("final-*.png")) == quarters(record)
    assert await run_demo(["base"], 2, 5, tmp_path, pictures=True) == 0  # a shorter game into the same folder
    second = json.loads((tmp_path / "record.json").read_text())
    turns = sum(e["type"] == "turn_ended" for e in summary(second)[0]["events"])
    assert len(list(tmp_path.glob("board-*.png"))) == turns
    assert sorted(p.name for p in tmp_path.glob("final-*.png")) == quarters(second)  # none left from the first


def quarters(record: dict) -> list[str]:
    """The final board's quarter pictures a game's board calls for (renderer.jobs.PIECES_FROM)."""
    from engine.record import game_from_record
    from renderer.jobs import PIECES_FROM

    cells = [cell for placed in game_from_record(record).board.placements for cell in placed.cells]
    wide = max(max(c[i] for c in cells) - min(c[i] for c in cells) + 1 for i in (0, 1))
    return sorted(f"final-{q}.png" for q in ("nw", "ne", "sw", "se")) if wide > PIECES_FROM else []


async def test_the_replay_command_has_help_and_stops_quietly_when_its_reader_does(tmp_path):
    assert await run_demo(["base"], 2, 5, tmp_path, pictures=False) == 0
    shown = subprocess.run([sys.executable, "-m", "engine.replay", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert shown.returncode == 0 and "docs/RECORD.md" in shown.stdout and not shown.stderr
    # `| head -c 100`: the output (a whole game's events, more than the pipe holds) is cut short.
    fcntl = pytest.importorskip("fcntl")
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)  # smaller than the output: the writer must wait for us
    replay = subprocess.Popen([sys.executable, "-m", "engine.replay", str(tmp_path / "record.json")], cwd=ROOT,
                              stdout=write_end, stderr=subprocess.PIPE)  # fmt: skip
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        assert reader.read(100).startswith(b'{"ok": true')
    assert replay.stderr is not None
    assert replay.wait() == 0 and replay.stderr.read() == b""  # no traceback
