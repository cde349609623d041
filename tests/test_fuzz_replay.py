"""Hostile records for ``python -m engine.replay``: whatever the file holds, the output is one
JSON object and the exit status 0, 1 or 2 — never a traceback."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game
from engine.ai import GreedyPlayer
from engine.replay import main

ROOT = Path(__file__).resolve().parent.parent


def _played_record(sets: list[str], turns: int) -> dict[str, Any]:
    game = Game(["Ann", "Bob", "Cy"], sets, seed=11)
    player = GreedyPlayer(5)
    while not game.finished and len(game.moves) < turns:
        game.apply(player.choose(game))
    return game.to_json()


BASE = _played_record(["base"], 30)
EXPANSIONS = _played_record(["base", "river1", "castles", "ferries", "toll"], 40)

# Values that broke the replay before, plus ordinary JSON of every kind.
NASTY = st.sampled_from(
    [
        float("inf"), float("-inf"), float("nan"), 10**5000, -(10**400), 2**63, True, None, "", "²", "٣",
        "base.NOPE", {"a": 1}, [1, 2], [[[[[]]]]], 3.4, -2.6, 90.5, "3", "x" * 10_000,
    ]
)  # fmt: skip
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated_records(draw: st.DrawFn) -> dict[str, Any]:
    record = copy.deepcopy(draw(st.sampled_from([BASE, EXPANSIONS])))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(record) if p]
        path = draw(st.sampled_from(paths))
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "nasty"]))
        if action == "delete":
            del parent[path[-1]]
        else:
            # a copy: later steps may mutate it, and sampled values are shared between examples
            parent[path[-1]] = copy.deepcopy(draw(NASTY if action == "nasty" else JSON))
    return record


def _replay_text(text: str) -> tuple[dict[str, Any], int]:
    """Run the replay's entry point in-process on a file holding ``text``."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as fh:
        fh.write(text)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            status = main([fh.name])
    finally:
        os.unlink(fh.name)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, lines
    return json.loads(lines[0]), status


def _dumps(record: Any) -> str:
    """The record as a file would hold it: Infinity and NaN come out as Python's non-JSON
    constants, and integers over 4,300 digits in full (the replay must refuse both)."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.dumps(record)
    finally:
        sys.set_int_max_str_digits(limit)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_every_mutated_record_gives_json_and_an_exit_status(record):
    out, status = _replay_text(_dumps(record))
    assert status in (0, 1, 2)
    assert out["ok"] is (status == 0)
    if status != 0:
        assert isinstance(out["error"], str) and out["error"]


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300).map(lambda b: b.decode("latin-1")), st.integers(0, 400))
def test_damaged_bytes_give_json_and_an_exit_status(noise, where):
    text = json.dumps(BASE)
    out, status = _replay_text(text[:where] + noise + text[where:])
    assert status in (0, 1, 2) and out["ok"] is (status == 0)


def test_the_inputs_that_used_to_print_a_traceback():
    good = json.dumps(BASE)
    cases = {
        "infinity x": json.dumps({**BASE, "moves": [{**BASE["moves"][0], "x": float("inf")}]}),
        "dict tile id": json.dumps({**BASE, "moves": [{**BASE["moves"][0], "tile": {"a": 1}}]}),
        "list tile id": json.dumps({**BASE, "moves": [{**BASE["moves"][0], "tile": ["base.D"]}]}),
        "deep nesting": '{"players": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "5,000-digit seed": good.replace('"seed": 11', '"seed": ' + "9" * 5000),
        "float rotation": json.dumps({**BASE, "moves": [{**BASE["moves"][0], "rot": 90.5}]}),
        "bool coordinate": json.dumps({**BASE, "moves": [{**BASE["moves"][0], "x": True}]}),
    }
    assert '"x": Infinity' in cases["infinity x"] and len(cases["5,000-digit seed"]) > 5000
    for name, text in cases.items():
        out, status = _replay_text(text)
        assert status == 2, name
        assert out["ok"] is False and out["error"], name


def test_the_command_line_prints_no_traceback_on_deep_nesting(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    proc = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and proc.stderr == ""
    assert json.loads(proc.stdout) == {"ok": False, "error": "not valid JSON: nested too deeply"}
