"""The compiled engine (``python compile_engine.py``, engine/_compiled.py) gives the games the Python
engine gives: the same source compiled with mypyc, played side by side in two processes, must write the
same records, events, questions (in English and French), scores and computer players' judgements, in
every set family and with every level; and a build that is not of these sources is never used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import compile_engine
from engine import Game, _compiled
from engine.ai import RandomPlayer
from tests.helpers import python_engine_only

ROOT = Path(__file__).resolve().parent.parent

# Played in each engine's own process: a JSON line a game (its record, every event, the question of every
# third move in English and French, the final scores and standings as repr'd floats, its record replayed).
GAMES = r"""
import json
import engine
from engine import Game
from engine.ai import GreedyPlayer, RandomPlayer, make_player, standing
import engine.board
from engine.expansions.families import NAMED_FAMILIES
from engine.language import speaking
from engine.record import load
from locales import translations

print(json.dumps({"implementation": engine.IMPLEMENTATION, "board": engine.board.__file__.rsplit(".", 1)[-1]}))
languages = (translations("en"), translations("fr"))


def play(sets, seats, seed):
    game = Game(["Ann", "Bob", "Cy", "Di"][: len(seats)], sets, seed=seed)
    seen = [game.start_events]
    stand_in = RandomPlayer(seed)  # (the levels play the first 50 moves and the last tiles: a whole game
    # of them in an expansion family takes minutes of Python)
    while not game.finished:
        seat = seats[game.actor] if len(game.moves) < 50 or game.bag_left < 6 else stand_in
        if len(game.moves) % 3 == 0:
            for language in languages:
                with speaking(language):
                    q = game.question()
                    seen.append([q.player, q.kind, q.prompt, [(o.move, o.label) for o in q.options]])
        seen.append(game.apply(seat.choose(game)))
    record = game.to_json()
    replayed, _events, error = load(record)
    standings = [repr(standing(game, p)) for p in range(len(seats))]
    return {"record": record, "seen": seen, "scores": game.scores, "standings": standings,
            "replayed": replayed.scores, "error": error}


for name, sets in NAMED_FAMILIES.items():
    for seed in range(3):
        seats = [RandomPlayer(seed * 10 + p) for p in range(2 + seed)]
        print(json.dumps({"game": f"{name} random {seed}", **play(sets, seats, seed)}))
    levels = [make_player("normal", 1), GreedyPlayer(2), make_player("easy", 3)]
    print(json.dumps({"game": f"{name} normal greedy easy", **play(sets, levels, 7)}))
    hard = [make_player("hard", 4, playouts=3), make_player("normal", 5)]
    print(json.dumps({"game": f"{name} hard normal", **play(sets, hard, 8)}))
"""


def _play(engine_env: dict[str, str]) -> list[dict[str, Any]]:
    env = {**os.environ, **engine_env}
    done = subprocess.run(
        [sys.executable, "-c", GAMES], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build of these sources: the one in ``.compiled/`` if it is fresh, else one made for the test."""
    fresh, _why = _compiled.usable(_compiled.DEFAULT_BUILD)
    if fresh:
        return _compiled.DEFAULT_BUILD
    dest = tmp_path_factory.mktemp("compiled") / "build"
    try:
        compile_engine.build(dest)
    except compile_engine.BuildFailed as exc:
        pytest.fail(f"the engine does not compile: {exc}")
    return dest


def test_the_compiled_engine_plays_the_same_games_as_the_python_engine(build: Path) -> None:
    python = _play({"CARC_ENGINE": "python"})
    compiled = _play({"CARC_ENGINE": "compiled", "CARC_ENGINE_BUILD": str(build)})
    # the header: which engine each process ran, and where its board module came from
    assert python[0] == {"implementation": "python", "board": "py"}
    assert compiled[0] == {"implementation": "compiled", "board": "so"}
    assert len(python) == len(compiled) == 1 + 5 * 3
    for ours, theirs in zip(python[1:], compiled[1:], strict=True):
        assert ours["game"] == theirs["game"]
        assert ours["error"] is None and ours["scores"] == ours["replayed"]
        assert ours == theirs, f"{ours['game']}: the compiled engine played another game"


def _engine_of(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "import engine; print(engine.IMPLEMENTATION)"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True
    )


def test_a_build_of_other_sources_is_never_used(tmp_path: Path) -> None:
    # a build whose stamp is not these sources' fingerprint (an edit, a checkout since it was made)
    stale = tmp_path / "stale"
    (stale / "engine").mkdir(parents=True)
    (stale / "engine" / _compiled.STAMP).write_text("0" * 64 + "\n")
    ran = _engine_of({"CARC_ENGINE": "", "CARC_ENGINE_BUILD": str(stale)})
    assert ran.returncode == 0 and ran.stdout.strip() == "python"
    assert "built from other sources" in ran.stderr
    required = _engine_of({"CARC_ENGINE": "compiled", "CARC_ENGINE_BUILD": str(stale)})
    assert required.returncode == 2 and required.stderr.startswith("engine: CARC_ENGINE=compiled, but the compiled")
    assert len(required.stderr.splitlines()) == 1  # one line, whichever entry point imports the engine
    missing = _engine_of({"CARC_ENGINE": "compiled", "CARC_ENGINE_BUILD": str(tmp_path / "none")})
    assert missing.returncode == 2 and "no engine is compiled in" in missing.stderr
    bogus = _engine_of({"CARC_ENGINE": "cython"})
    assert (bogus.returncode, bogus.stderr) == (
        2,
        "engine: CARC_ENGINE is 'cython': it must be 'python' or 'compiled' (or unset)\n",
    )


def test_the_fingerprint_covers_every_source_and_data_file(tmp_path: Path) -> None:
    package = tmp_path / "engine"
    (package / "expansions").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "expansions" / "rules.md").write_text("rules\n")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"cache")
    first = _compiled.fingerprint(package)
    (package / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"other cache")
    (package / "a.cpython-311-x86_64-linux-gnu.so").write_bytes(b"built")
    assert _compiled.fingerprint(package) == first  # caches and builds are not sources
    (package / "expansions" / "rules.md").write_text("rules, edited\n")
    assert _compiled.fingerprint(package) != first


@python_engine_only
def test_a_clone_has_every_attribute_of_the_game() -> None:
    # (``Game.clone`` names each attribute, as a compiled class needs: one added and not copied shows here)
    game = Game(["Ann", "Bob"], ["base", "river1", "castles", "ferries", "toll", "inns", "traders"], seed=1)
    player = RandomPlayer(1)
    for _ in range(12):
        game.apply(player.choose(game))
    assert set(vars(game.clone())) == set(vars(game))


def test_the_check_says_which_engine_runs_here_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CARC_ENGINE", raising=False)
    assert compile_engine.main(["--check", "--out", str(tmp_path / "none")]) == 1
    assert capsys.readouterr().out == (
        f"the Python engine runs: no engine is compiled in {tmp_path / 'none'} (python compile_engine.py)\n"
    )
    stale = tmp_path / "stale"
    (stale / "engine").mkdir(parents=True)
    (stale / "engine" / _compiled.STAMP).write_text("0" * 64 + "\n")
    assert compile_engine.main(["--check", "--out", str(stale)]) == 1
    assert "was built from other sources" in capsys.readouterr().out
    monkeypatch.setenv("CARC_ENGINE", "python")
    assert compile_engine.main(["--check"]) == 1
    assert capsys.readouterr().out == "the Python engine runs: CARC_ENGINE=python\n"
