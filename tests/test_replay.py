"""`python -m engine.replay` as RECORD.md specifies it: output fields and exit codes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Game
from engine.replay import summary

ROOT = Path(__file__).resolve().parent.parent

RECORD = {
    "format": 1,
    "players": ["Ann", "Bob"],
    "sets": ["base"],
    "seed": 7,
    "pool": ["base.V", "base.U", "base.E"],
    "moves": [
        {"type": "tile", "tile": "base.V", "x": 1, "y": 0, "rot": 90},
        {"type": "meeple", "at": "road:W"},
        {"type": "tile", "tile": "base.U", "x": 1, "y": -1, "rot": 90},
        {"type": "pass"},
    ],
}


def run(tmp_path, record) -> tuple[dict, int]:
    path = tmp_path / "record.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    proc = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    return json.loads(proc.stdout), proc.returncode


def test_replay_prints_the_state(tmp_path):
    out, code = run(tmp_path, RECORD)
    assert code == 0
    assert out["ok"] is True and out["finished"] is False
    assert out["scores"] == {"Ann": 0, "Bob": 0}
    assert out["turn"] == 3
    assert out["next"] == {"player": "Ann", "step": "tile", "tile": "base.E"}
    assert out["supply"] == {"Ann": 6, "Bob": 7}
    types = [e["type"] for e in out["events"]]
    assert types.count("tile_placed") == 2 and "meeple_placed" in types


def test_replay_to_the_end(tmp_path):
    record = dict(RECORD, moves=RECORD["moves"] + [{"type": "tile", "x": 0, "y": -1, "rot": 180}, {"type": "pass"}])
    out, code = run(tmp_path, record)
    assert code == 0 and out["finished"] is True and out["next"] is None
    final = [e for e in out["events"] if e["type"] == "scored" and e["final"]]
    assert [(e["feature"], e["points"]) for e in final] == [("road", {"Ann": 3})]
    assert out["scores"] == {"Ann": 3, "Bob": 0}


def test_illegal_move_reports_its_index_and_keeps_earlier_moves(tmp_path):
    record = dict(RECORD, moves=RECORD["moves"][:2] + [{"type": "tile", "x": 9, "y": 9, "rot": 0}])
    out, code = run(tmp_path, record)
    assert code == 1
    assert out["ok"] is False and out["move"] == 2
    assert "does not touch" in out["error"]
    assert out["supply"] == {"Ann": 6, "Bob": 7}


@pytest.mark.parametrize(
    "record",
    [
        "{not json",
        {"players": "Ann"},
        dict(RECORD, pool=["base.NOPE"]),
        dict(RECORD, moves=[{"type": "tile", "tile": "base.NOPE", "x": 1, "y": 0, "rot": 0}]),
        dict(RECORD, moves=[{"type": "draw", "player": "Zed"}]),
        dict(RECORD, sets=["base", "unicorns"]),
        dict(RECORD, format=2),
    ],
)
def test_bad_records_exit_2(tmp_path, record):
    out, code = run(tmp_path, record)
    assert code == 2 and out["ok"] is False and out["error"]


def test_missing_file_exits_2(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(tmp_path / "none.json")], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 2 and json.loads(proc.stdout)["ok"] is False


def test_summary_without_pool_uses_the_seed():
    out, code = summary({"players": ["Ann", "Bob"], "sets": ["base"], "seed": 11, "moves": []})
    again, _ = summary({"players": ["Ann", "Bob"], "sets": ["base"], "seed": 11, "moves": []})
    assert code == 0 and out == again
    assert out["next"]["step"] == "tile"
    assert Game(["Ann", "Bob"], seed=11).bag == Game(["Ann", "Bob"], seed=11).bag
    assert Game(["Ann", "Bob"], seed=11).bag != Game(["Ann", "Bob"], seed=12).bag
