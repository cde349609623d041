"""Loading a game: ``python -m benchmarks.load [--rounds N]``.

Long games (about 150 moves) of several set families, each loaded the way the service
loads a game that is not in memory, interleaved in one run:

- before: the whole log replayed (the snapshot used to be the record: no shortcut);
- text snapshot: the engine state restored from a snapshot kept as base64 in JSON text,
  every move of the log parsed (the first state snapshots);
- after: the snapshot as bytes (a JSON head, then the state pickled), checked against the
  setup, the log's digest and its own; the moves after it replayed (the snapshot is taken
  every ``SNAPSHOT_EVERY`` moves, with them: the worst case replays SNAPSHOT_EVERY - 1 of
  them; 19 was the worst case with a snapshot every 20 moves, shown for comparison).

Both start from the rows as the store hands them over (setup, log texts, snapshot) and
end with the game ready; "service" rows add the one read of row, seats, snapshot and
log from an SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.table import print_table
from engine import ENGINE_VERSION, Game, snapshot
from engine.ai import GreedyPlayer
from engine.expansions.families import NAMED_FAMILIES
from engine.record import game_from_record
from service import GameService, LobbyOptions
from service.gamelog import (
    SNAPSHOT_EVERY,
    _from_log,
    _from_snapshot,
    _log_hash,
    _parse_log,
    _setup_digest,
    _snapshot_blob,
)
from storage import Store, open_database
from storage.rows import GameRow, move_text
from tests.helpers import SYSTEM, anyone, as_  # noqa: F401

# base, the rivers with every set that combines with them, the wheel with base and every set that
# combines with it (engine/expansions/families.py: built from the table of sets)
FAMILIES = NAMED_FAMILIES


def long_game(sets: list[str], moves: int = 150) -> Game:
    game = Game(["Ann", "Bob", "Cy"], sets, seed=7)
    player = GreedyPlayer(3)
    while not game.finished and len(game.moves) < moves:
        game.apply(player.choose(game))
    return game


def stored_rows(
    game: Game, tail: int
) -> tuple[dict[str, Any], list[tuple[int, str, str]], tuple[int, str, bytes], str]:
    """(setup, log rows, snapshot row, the same snapshot as text) as the store returns them,
    the snapshot ``tail`` moves back."""
    setup = {k: v for k, v in game.to_json().items() if k != "moves"}
    texts = [move_text(m) for m in game.moves]
    earlier = game_from_record({**setup, "moves": game.moves[: len(texts) - tail]})
    digest = _log_hash(texts[: len(earlier.moves)]).hexdigest()
    blob = (len(earlier.moves), ENGINE_VERSION, _snapshot_blob(earlier, setup, digest))
    text = json.dumps(
        {
            "seq": len(earlier.moves),
            "setup": _setup_digest(setup),
            "moves": digest,
            "data": base64.b64encode(snapshot.dump(earlier)).decode("ascii"),
        }
    )
    return setup, [(i + 1, "u", t) for i, t in enumerate(texts)], blob, text


def from_text_snapshot(row: GameRow, setup: dict[str, Any], log_rows: list[tuple[int, str, str]], text: str) -> Game:
    """The first state snapshots' load: base64 state in JSON text, the whole log parsed."""
    moves = _parse_log(row, log_rows)
    envelope = json.loads(text)
    seq = envelope["seq"]
    assert envelope["setup"] == _setup_digest(setup)
    assert envelope["moves"] == _log_hash([t for _s, _u, t in log_rows][:seq]).hexdigest()
    game = snapshot.restore(setup, base64.b64decode(envelope["data"], validate=True), moves[:seq])
    for move in moves[seq:]:
        game.apply(move)
    return game


def spread(samples: list[float]) -> str:
    ordered = sorted(samples)
    lo, hi = ordered[len(ordered) // 10], ordered[-1 - len(ordered) // 10]
    return f"{statistics.median(samples) * 1000:.3f} ms ({lo * 1000:.3f}-{hi * 1000:.3f})"


def in_process(rounds: int) -> list[tuple[str, str, str]]:
    rows = []
    for name, sets in FAMILIES.items():
        game = long_game(sets)
        n = len(game.moves)
        cases = {tail: stored_rows(game, tail) for tail in (0, SNAPSHOT_EVERY - 1, 19)}
        row = GameRow(0, None, None, None, None, "active", "u", {}, None, n, None, 0, None, None)  # type: ignore[arg-type]
        before: list[float] = []
        text: dict[int, list[float]] = {tail: [] for tail in cases}
        after: dict[int, list[float]] = {tail: [] for tail in cases}
        for _ in range(rounds):
            for tail, (setup, log_rows, blob, snapshot_text) in cases.items():
                start = time.perf_counter()
                moves = _parse_log(row, log_rows)
                _from_log(row, setup, moves)
                if tail == 0:
                    before.append(time.perf_counter() - start)
                start = time.perf_counter()
                from_text_snapshot(row, setup, log_rows, snapshot_text)
                text[tail].append(time.perf_counter() - start)
                start = time.perf_counter()
                moves = _parse_log(row, log_rows)
                restored = _from_snapshot(blob, setup, moves, [t for _s, _u, t in log_rows])
                after[tail].append(time.perf_counter() - start)
                assert len(restored.moves) == n
        rows.append((f"{name}, {n} moves: before, the whole log replayed", spread(before), ""))
        for tail, samples in text.items():
            if tail < SNAPSHOT_EVERY:
                rows.append((f"{name}, {n} moves: text snapshot + {tail} moves replayed", spread(samples), ""))
        for tail, samples in after.items():
            target = "" if tail >= SNAPSHOT_EVERY else "<= 0.5 ms"
            rows.append((f"{name}, {n} moves: after, snapshot + {tail} moves replayed", spread(samples), target))
    return rows


async def through_service(rounds: int) -> list[tuple[str, str, str]]:
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "load.db")
        service = GameService(Store(db))
        lobby = await service.create_lobby(as_("a"), "Ann", LobbyOptions(sets=["base", "castles", "toll"], seed=7))
        await service.join(as_("b"), lobby.id, "Bob")
        await service.join(as_("c"), lobby.id, "Cy")
        await service.start(as_("a"), lobby.id)
        from engine.ai import computer_moves

        while True:
            row, game = await service.game(SYSTEM, lobby.id)
            if game.finished or row.version >= 150 and row.version % SNAPSHOT_EVERY >= SNAPSHOT_EVERY // 2:
                break
            moves = computer_moves(game.clone(), "ai:greedy:1")
            await service.play(as_(row.setup["users"][game.actor]), lobby.id, moves, row.version)  # type: ignore[index]
        snapshot = await service.store.snapshot(lobby.id)
        assert snapshot is not None
        store = service.store
        users = {k: v for k, v in (await store.get_game(lobby.id)).setup.items() if k != "users"}  # type: ignore[union-attr]
        before, after = [], []
        for _ in range(rounds):
            start = time.perf_counter()
            loaded = await store.load_game(lobby.id)
            await GameService(store).log.replay(loaded)
            after.append(time.perf_counter() - start)
            start = time.perf_counter()
            loaded = await store.load_game(lobby.id)
            _from_log(loaded.row, users, _parse_log(loaded.row, loaded.moves))  # type: ignore[arg-type]
            before.append(time.perf_counter() - start)
        await db.close()
    n, tail = row.version, row.version - snapshot[0]
    return [
        (f"service, {n} moves: before, read + whole log replayed", spread(before), ""),
        (f"service, {n} moves: after, read + snapshot + {tail} moves", spread(after), "<= 0.5 ms"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    rows = in_process(args.rounds) + asyncio.run(through_service(args.rounds))
    print(f"median (10th-90th percentile) over {args.rounds} loads each; before and after interleaved")
    print_table(rows)


if __name__ == "__main__":
    main()
