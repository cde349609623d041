"""Snapshots of a game's state: a game restored from one goes on exactly as if replayed.

A record (RECORD.md) rebuilds a game by replaying every move; a snapshot skips that. It
holds the state the moves made — the board, the bag, scores, supplies, the turn and the
step the chain waits at, the expansions' state — but not the setup (players, sets, seed,
pool: the record has them) nor the moves themselves (the log has them). ``restore`` builds
the game of the setup afresh (without starting its first turn), puts the saved state in
place, and attaches the moves.

The format is versioned (``STATE_FORMAT``) and holds plain data only: tuples, lists, dicts,
sets, strings, numbers, booleans and None, pickled; tiles are named by their id. Reading
refuses any class (a restricted unpickler), so a damaged or forged snapshot can fail to
restore (``BadSnapshot``) but never runs code. A snapshot is a cache: callers check that
it covers a prefix of the game's log and replay the log whenever it does not restore.

Bump ``STATE_FORMAT`` whenever the game's state changes shape (a new attribute, a field
that means something else): older snapshots are then refused and games replayed.
"""

from __future__ import annotations

import io
import pickle
from typing import Any

from engine.board import Board, PlacedCell, Placement
from engine.catalog import TILE_TYPES
from engine.expansions.registry import state_types
from engine.game import Game
from engine.moves import Move
from engine.record import Record, new_game
from engine.tiles import CELL_DX, CELL_DY, CELL_INDEX

STATE_FORMAT = 2  # 2: the expansions' states are their own dataclasses (1: dicts)

#: the attributes of a Game that a snapshot saves
SAVED = frozenset(
    (
        "scores", "supply", "board", "turn", "current", "actor", "step", "_index", "finished", "drawn",
        "placement", "_placements", "_figure_options", "_figure_blocked", "state", "bag", "bag_pos",
    )
)  # fmt: skip
#: the attributes the setup makes (the same for the same record), and the moves (from the log);
#: ``start_events`` (what the first turn's start said) stays empty in a restored game
FROM_SETUP = frozenset(
    (
        "players", "sets", "seed", "expansions", "_hooks", "_figure_rules", "chain", "_runner",
        "initial_bag", "start_events", "moves",
    )
)  # fmt: skip
#: scratch attributes that hold nothing between two moves (a clone resets them too)
TRANSIENT = frozenset(("scratch",))


class BadSnapshot(ValueError):
    """A snapshot that does not restore (damaged, another format, another setup)."""


class _PlainData(pickle.Unpickler):
    """Reads plain data and the expansions' declared state classes (``Expansion.state_types``):
    any other class or function named in the stream is refused."""

    def find_class(self, module: str, name: str) -> Any:
        cls = state_types().get((module, name))
        if cls is None:
            raise BadSnapshot(f"a snapshot holds plain data only, not {module}.{name}"[:120])
        return cls


def dump(game: Game) -> bytes:
    """The state of ``game`` as bytes (see the module's docstring)."""
    b = game.board
    state = (
        STATE_FORMAT,
        len(game.moves),
        game.scores,
        game.supply,
        game.turn,
        game.current,
        game.actor,
        game.step,
        game._index,
        game.finished,
        game.drawn.id if game.drawn is not None else None,
        game.placement,
        # A replayed tile step only checked that the tile fits somewhere (the list is made
        # when asked for); the snapshot keeps the finished list.
        game.tile_placements() if game._placements is None and game.drawn is not None else game._placements,
        game._figure_options,
        game._figure_blocked,
        game.state,
        game.bag,
        game.bag_pos,
        [(p.tile.id, p.x, p.y, p.rot, p.first_node) for p in b.placements],
        [(cell, placed[0], placed[2][CELL_INDEX]) for cell, placed in b.cells.items()],
        b.frontier,
        b.parent,
        b.nxt,
        b.kind,
        b.node_place,
        b.open,
        b.pennants,
        b.followers,
        b.watched,
        b.ferry_link,
    )
    return pickle.dumps(state, protocol=5)


def restore(setup: Record, data: bytes, moves: list[Move]) -> Game:
    """The game of the record ``setup`` (its moves left out) at the snapshot ``data``, with
    ``moves``, the moves the snapshot covers (as the game recorded them). Raises BadSnapshot
    when the data does not fit (the caller then replays the record)."""
    try:
        game = new_game(setup, begin=False)
        state = _PlainData(io.BytesIO(data)).load()
        _restore(game, state, moves)
    except BadSnapshot:
        raise
    except Exception as exc:  # damaged data shows up as any error: it is this snapshot's problem only
        raise BadSnapshot(f"the snapshot does not restore ({type(exc).__name__})") from None
    return game


def _restore(game: Game, state: Any, moves: list[Move]) -> None:
    if not isinstance(state, tuple) or len(state) != 30 or state[0] != STATE_FORMAT:
        raise BadSnapshot("the snapshot has another format")
    (
        _format, count, scores, supply, turn, current, actor, step, index, finished, drawn, placement,
        placements, figure_options, figure_blocked, expansion_state, bag, bag_pos,
        placed, cells, frontier, parent, nxt, kind, node_place, open_, pennants, followers, watched, ferry_link,
    ) = state  # fmt: skip
    if count != len(moves):
        raise BadSnapshot(f"the snapshot covers {count} moves, not {len(moves)}")
    n = len(game.players)
    if len(scores) != n or len(supply) != n or not 0 <= current < n or not 0 <= actor < n:
        raise BadSnapshot("the snapshot has another number of players")
    if not 0 <= index < len(game.chain) or (not finished and game.chain[index].name != step):
        raise BadSnapshot("the snapshot waits at a step this game does not have")
    nodes = len(parent)
    if not all(len(column) == nodes for column in (nxt, kind, node_place, open_, pennants, followers)):
        raise BadSnapshot("the snapshot's board is damaged")
    board = Board.__new__(Board)
    board.placements = [Placement(TILE_TYPES[t], x, y, rot, first) for t, x, y, rot, first in placed]
    board_cells: dict[tuple[int, int], PlacedCell] = {}
    for cell, pidx, ci in cells:
        p = board.placements[pidx]
        info = p.tile.rotations[p.rot // 90].cell_info[ci]
        if info[CELL_INDEX] != ci or cell != (p.x + info[CELL_DX], p.y + info[CELL_DY]):
            raise BadSnapshot("the snapshot's board is damaged")
        board_cells[cell] = (pidx, p.first_node, info)
    board.cells = board_cells
    board.frontier = frontier
    board.parent, board.nxt, board.kind, board.node_place = parent, nxt, kind, node_place
    board.open, board.pennants, board.followers = open_, pennants, followers
    board.watched, board.ferry_link = watched, ferry_link
    board.field_cities, board.field_done, board.feature_sizes, board.layout_cache = {}, {}, {}, {}
    board.recount_marks()
    board.recount_occupied()

    game.board = board
    game.scores, game.supply = scores, supply
    game.turn, game.current, game.actor, game.step, game._index = turn, current, actor, step, index
    game.finished = finished
    game.drawn = TILE_TYPES[drawn] if drawn is not None else None
    game.placement = placement
    game._placements, game._figure_options, game._figure_blocked = placements, figure_options, figure_blocked
    game.state = expansion_state
    game.bag, game.bag_pos = bag, bag_pos
    game.moves = list(moves)
    game.scratch = {}
