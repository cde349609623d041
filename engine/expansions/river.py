"""The River and The River II (RULES.md, river page).

State (``game.state["river"]``):
- ``ends``: open river ends, "x,y" of the empty cell the river points at ->
  {"branch": id, "dir": direction the water flows into that cell};
- ``turns``: per branch, the turns of its tiles so far ("L", "R" or "S").

A river tile must continue an open end; a curve may not turn the same way as
the branch's previous tile (an immediate U-turn), nor as its previous two
curves (three the same way, even with straights between); branches never
join; and the river may not point at a cell it could never continue from.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.catalog import tile_set
from engine.expansions import Event, Expansion
from engine.tiles import DX, DY

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType

RIVER_SETS = ("river1", "river2")
FORK = "river2.fork"


def is_river(tile_id: str) -> bool:
    return tile_set(tile_id) in RIVER_SETS


def _key(x: int, y: int) -> str:
    return f"{x},{y}"


def _state(game: Game) -> dict:
    return game.state["river"]


def river_tiles(sets: list[str]) -> tuple[list[str], str | None, str]:
    """(river tiles to shuffle, the fork or None, the lake that comes last) for the sets."""
    from engine.catalog import SET_TILES, expand

    both = "river1" in sets and "river2" in sets
    tiles: list[str] = []
    for s in RIVER_SETS:
        if s in sets:
            tiles += expand(SET_TILES[s])
    drop = {"river1.spring", "river2.spring", FORK}
    if "river2" in sets:
        drop.add("river2.volcano_lake")
        if both:
            drop.add("river1.lake")
        lake = "river2.volcano_lake"
    else:
        drop.add("river1.lake")
        lake = "river1.lake"
    fork = FORK if "river2" in sets else None
    return [t for t in tiles if t not in drop], fork, lake


class River(Expansion):
    name = "river"
    sets = RIVER_SETS
    setup_tiles = ("river1.spring", "river2.spring")

    # ------------------------------------------------------------------ setup
    def start_tile(self, game: Game) -> str | None:
        return "river1.spring" if "river1" in game.sets else "river2.spring"

    def bag(self, game: Game, bag: list[str], rng: random.Random) -> list[str]:
        shuffled, fork, lake = river_tiles(game.sets)
        # Keep the seeded shuffle's order of the river tiles; the fork leads, the lake closes.
        wanted = list(shuffled)
        river = []
        for t in bag:
            if t in wanted:
                wanted.remove(t)
                river.append(t)
        others = [t for t in bag if not is_river(t)]
        return ([fork] if fork else []) + river + [lake] + others

    def check_pool(self, game: Game, pool: list[str]) -> None:
        from engine.moves import BadSetup

        count = 0
        while count < len(pool) and is_river(pool[count]):
            count += 1
        if any(is_river(t) for t in pool[count:]):
            raise BadSetup("the pool must hold every river tile before the other tiles")
        river = pool[:count]
        if "river2" in game.sets and river and river[0] != FORK:
            raise BadSetup("with The River II the fork comes first in the pool")
        lakes = ("river1.lake", "river2.volcano_lake")
        if river and river[-1] not in lakes:
            raise BadSetup("the last river tile of the pool must be the lake")
        if "river1" in game.sets and "river2" in game.sets and "river1.lake" in river:
            raise BadSetup("with both rivers, river1.lake stays in the box")

    def setup(self, game: Game, rng: random.Random, options: dict) -> None:
        # The spring at (0,0), rotation 0, sends the river east.
        game.state["river"] = {"ends": {_key(1, 0): {"branch": 0, "dir": 1}}, "turns": {"0": []}, "next_branch": 1}

    # ------------------------------------------------------------------ placing
    def _plan(self, game: Game, tile: TileType, x: int, y: int, rot: int) -> tuple[str | None, dict | None]:
        """(why not, or None; the state change) for a river tile placed there."""
        state = _state(game)
        end = state["ends"].get(_key(x, y))
        if end is None:
            return "a river tile must continue the river: place it at an open end of the river", None
        flow = end["dir"]
        incoming = (flow + 2) % 4
        q = rot // 90
        segments = []
        for seg in tile.segments:
            if seg.kind == "river":
                segments.append([(d + q) % 4 for _, d in seg.edges])
        through = next((dirs for dirs in segments if incoming in dirs), None)
        if through is None:
            return "the river on this tile does not meet the open end", None
        outgoing = [d for d in through if d != incoming]
        new_branches = [dirs for dirs in segments if dirs is not through]
        turns = list(state["turns"][str(end["branch"])])
        turn = None
        if len(outgoing) == 1:
            o = outgoing[0]
            turn = "S" if o == flow else ("R" if o == (flow + 1) % 4 else "L")
            if turn != "S":
                if turns and turns[-1] == turn:
                    return "the river may not turn the same way twice in a row (a U-turn)", None
                curves = [t for t in turns if t != "S"]
                if len(curves) >= 2 and curves[-1] == turn and curves[-2] == turn:
                    return "the river may not turn the same way three times in a row", None
        ends = dict(state["ends"])
        del ends[_key(x, y)]
        new_turns = dict(state["turns"])
        next_branch = state["next_branch"]
        exits: list[tuple[int, int]] = []  # (branch, direction)
        if outgoing:
            new_turns[str(end["branch"])] = turns + [turn]
            exits.append((end["branch"], outgoing[0]))
        for dirs in new_branches:  # the fork: each other arm starts a branch
            new_turns[str(next_branch)] = []
            exits.append((next_branch, dirs[0]))
            next_branch += 1
        for branch, d in exits:
            nx, ny = x + DX[d], y + DY[d]
            if (nx, ny) in game.board.cells:
                return f"the river would run into the tile at ({nx}, {ny})", None
            if _key(nx, ny) in ends:
                return "the two branches of the river may never be joined", None
            # Look ahead: the next river tile needs somewhere to go from there.
            ahead = [(nx + DX[k], ny + DY[k]) for k in range(4) if k != (d + 2) % 4]
            if all(c in game.board.cells for c in ahead):
                return f"the river would point at ({nx}, {ny}), from where it could never continue", None
            ends[_key(nx, ny)] = {"branch": branch, "dir": d}
        return None, {"ends": ends, "turns": new_turns, "next_branch": next_branch}

    def placement_problem(self, game: Game, tile: TileType, x: int, y: int, rot: int) -> str | None:
        if not is_river(tile.id):
            return None
        problem, _ = self._plan(game, tile, x, y, rot)
        return problem

    def on_place(self, game: Game, placement: int, events: list[Event]) -> None:
        p = game.board.placements[placement]
        if not is_river(p.tile.id):
            return
        problem, change = self._plan_after(game, p.tile, p.x, p.y, p.rot)
        assert problem is None and change is not None, problem
        game.state["river"] = change
        if self.last_river_tile(game):
            game.state["river"]["extra_turn"] = game.current

    def _plan_after(self, game: Game, tile: TileType, x: int, y: int, rot: int):
        # The tile is on the board now: plan as if it were not (its own cells are free).
        cells = game.board.cells
        saved = {c: cells.pop(c) for c in [(x + dx, y + dy) for dx, dy in tile.rotations[rot // 90].offsets]}
        try:
            return self._plan(game, tile, x, y, rot)
        finally:
            cells.update(saved)

    def must_draw(self, game: Game) -> bool:
        # No castle (or anything else instead of a tile) while river tiles remain.
        return not self.last_river_tile(game)

    @staticmethod
    def last_river_tile(game: Game) -> bool:
        return not any(is_river(t) for t in game.remaining_tiles())

    # ------------------------------------------------------------------ the extra turn
    def figure_allowed(self, game: Game) -> bool:
        # Whoever places the last river tile places no figure on it...
        return "extra_turn" not in game.state["river"]

    def next_player(self, game: Game) -> int | None:
        # ...and plays a normal turn at once.
        return game.state["river"].pop("extra_turn", None)
