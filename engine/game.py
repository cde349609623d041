"""The game: an explicit step machine over the board, players and bag.

Steps of a turn: ``draw`` (only for a player who may place a castle instead),
``tile``, ``figure``, then any expansion steps (wheel plague, ferries), then
scoring and the next turn. ``legal_moves()`` lists every legal move of the
current step; ``apply(move)`` validates it completely before changing anything,
then plays it and returns the events. Moves are the JSON objects of RECORD.md.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engine.board import AREA_KINDS, Board
from engine.catalog import BASE_START, SET_TILES, TILE_TYPES, expand, tile_set
from engine.expansions import HOOKS, Event, Expansion, Move, overridden
from engine.tiles import TileType

FOLLOWERS = 7
MIN_PLAYERS, MAX_PLAYERS = 2, 6
LAND_SETS = ("base", "wheel")
# Tiles that only ever start the game (the base start tile is an ordinary D).
SETUP_TILES = ("wheel.start", "river1.spring", "river2.spring")


class IllegalMove(Exception):
    """A move that the rules do not allow now; the message is meant for the player."""


class BadSetup(ValueError):
    """A game that cannot be set up: unknown set, impossible combination, bad pool."""


def _expansion_classes() -> dict[str, type[Expansion]]:
    from engine.expansions.registry import EXPANSIONS

    return EXPANSIONS


def check_sets(sets: list[str]) -> list[str]:
    """Validate a combination of sets; returns them in canonical order."""
    known = list(SET_TILES)
    unknown = [s for s in sets if s not in known]
    if unknown:
        raise BadSetup(f"unknown set {unknown[0]!r}; the sets are {', '.join(known)}")
    if not any(s in sets for s in LAND_SETS):
        raise BadSetup("a game needs the base game or The Wheel of Fortune for its land tiles")
    if "wheel" in sets and ("river1" in sets or "river2" in sets):
        raise BadSetup("The Wheel of Fortune cannot be combined with a river: both need to be the start tile")
    return [s for s in known if s in sets]


class Game:
    """One game of Carcassonne. Deterministic: same setup and moves, same state."""

    def __init__(
        self,
        players: list[str],
        sets: list[str] | tuple[str, ...] = ("base",),
        seed: int = 0,
        pool: list[str] | None = None,
        castles: dict[str, list[str]] | None = None,
    ) -> None:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise BadSetup(f"a game takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
            raise BadSetup("player names must be distinct, non-empty strings")
        self.players = list(players)
        self.sets = check_sets(list(sets))
        if castles is not None and "castles" not in self.sets:
            raise BadSetup("castles are dealt only in games with Castles in Germany")
        self.seed = seed
        classes = _expansion_classes()
        self.expansions: list[Expansion] = [classes[s]() for s in self.sets if s in classes]
        # Several sets can share one expansion module (river1 + river2): keep one.
        unique: dict[type, Expansion] = {}
        for e in self.expansions:
            unique.setdefault(type(e), e)
        self.expansions = list(unique.values())
        self._hooks = {h: overridden(self.expansions, h) for h in HOOKS}
        self._move_owner = {t: e for e in self.expansions for t in e.move_types}
        self._step_owner = {s: e for e in self.expansions for s in e.steps}
        self._targets = {t: e for e in self.expansions for t in e.targets}

        n = len(players)
        self.scores = [0] * n
        self.supply = [FOLLOWERS] * n
        self.board = Board()
        self.moves: list[Move] = []
        self.turn = 0
        self.current = 0
        self.actor = 0  # who must answer the current step (differs during a plague)
        self.step = "setup"
        self.finished = False
        self.drawn: TileType | None = None
        self.placement: int | None = None  # index of the tile placed this turn
        self._placements: dict[tuple[int, int], tuple[int, ...]] = {}
        self._figure_options: dict[int, tuple[int, str]] = {}  # node -> (cell index, target), this turn
        self.state: dict[str, Any] = {}  # expansion state, keyed by expansion name

        rng = random.Random(seed)
        self.start_tile = self._start_tile()
        if pool is None:
            bag = self._default_bag()
            rng.shuffle(bag)
            for hook in self._hooks["bag"]:
                bag = hook(self, bag, rng)
        else:
            bag = self._check_pool(pool)
        self.bag = bag
        self.initial_bag = list(bag)
        self.bag_pos = 0
        options = {"castles": castles}
        for hook in self._hooks["setup"]:
            hook(self, rng, options)
        self.board.place(TILE_TYPES[self.start_tile], 0, 0, 0)
        self.start_events: list[Event] = []
        self._begin_turn(self.start_events)

    # ------------------------------------------------------------------ setup
    def _start_tile(self) -> str:
        for hook in self._hooks["start_tile"]:
            tile_id = hook(self)
            if tile_id:
                return tile_id
        return BASE_START

    def bag_tiles(self) -> list[str]:
        """Every tile id the chosen sets put in the bag, with repeats (catalog order)."""
        out: list[str] = []
        for s in self.sets:
            tiles = SET_TILES[s]
            for hook in self._hooks["set_tiles"]:
                tiles = hook(self, s, tiles)
            out += expand([t for t in tiles if t.id not in SETUP_TILES])
        return out

    def _default_bag(self) -> list[str]:
        bag = self.bag_tiles()
        if self.start_tile in bag:
            bag.remove(self.start_tile)
        return bag

    def _check_pool(self, pool: list[str]) -> list[str]:
        if not isinstance(pool, list):
            raise BadSetup("pool must be a list of tile ids")
        allowed = set(self.bag_tiles())
        for tile_id in pool:
            if tile_id not in TILE_TYPES:
                raise BadSetup(f"unknown tile id {tile_id!r} in the pool")
            if tile_id in SETUP_TILES:
                raise BadSetup(f"{tile_id!r} is a setup tile and cannot be in the pool")
            if tile_id not in allowed:
                raise BadSetup(f"tile {tile_id!r} is not part of the sets {', '.join(self.sets)}")
        for hook in self._hooks["check_pool"]:
            hook(self, pool)
        return list(pool)

    def clone(self) -> Game:
        """An independent copy, for players that look ahead."""
        other = copy.copy(self)
        other.board = self.board.clone()
        other.scores = list(self.scores)
        other.supply = list(self.supply)
        other.moves = list(self.moves)
        other.state = copy.deepcopy(self.state)
        other._figure_options = dict(self._figure_options)
        return other

    # ------------------------------------------------------------------ queries
    def expansion_state(self, name: str) -> dict[str, Any]:
        """An expansion's state (read-only use: front ends and the renderer)."""
        return self.state.get(name, {})

    @property
    def player_name(self) -> str:
        return self.players[self.current]

    @property
    def bag_left(self) -> int:
        return len(self.bag) - self.bag_pos

    def remaining_tiles(self) -> list[str]:
        return self.bag[self.bag_pos :]

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current step (empty once the game is over)."""
        step = self.step
        if step == "tile":
            tile_id = self.drawn.id  # type: ignore[union-attr]
            return [
                {"type": "tile", "tile": tile_id, "x": x, "y": y, "rot": r}
                for (x, y), rots in self._placements.items()
                for r in rots
            ]
        if step == "figure":
            return self._figure_moves() + [{"type": "pass"}]
        owner = self._step_owner.get(step)
        if owner is not None:
            return owner.step_moves(self)
        return []

    def legal_placements(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """In the tile step: cell -> legal rotations of the drawn tile (one per distinct look)."""
        return self._placements if self.step == "tile" else {}

    def _figure_moves(self) -> list[Move]:
        moves: list[Move] = []
        if self._figure_options:
            p = self.board.placements[self.placement]  # type: ignore[index]
            rt = p.tile.rotations[p.rot // 90]
            for _node, (ci, at) in self._figure_options.items():
                move: Move = {"type": "meeple", "at": at}
                if ci:
                    dx, dy = rt.offsets[ci]
                    move["x"], move["y"] = p.x + dx, p.y + dy
                moves.append(move)
        for hook in self._hooks["figure_moves"]:
            moves += hook(self)
        return moves

    def figure_moves_after(self, placement: Move) -> list[Move]:
        """The follower moves the current player would have after a placement (a tile
        or castle move), tried on a copy: this game does not change."""
        trial = self.clone()
        trial.apply(placement)
        if trial.turn != self.turn or trial.step != "figure":
            return []
        return [m for m in trial.legal_moves() if m["type"] == "meeple"]

    def next_info(self) -> dict[str, Any] | None:
        """Whose decision is awaited and for what (None once finished)."""
        if self.finished:
            return None
        info: dict[str, Any] = {"player": self.players[self.actor], "step": self.step}
        if self.drawn is not None:
            info["tile"] = self.drawn.id
        return info

    # ------------------------------------------------------------------ playing
    def apply(self, move: Move) -> list[Event]:
        """Validate and play one move; returns the events it caused.

        Raises IllegalMove (and changes nothing) if the move is not legal now.
        """
        if self.finished:
            raise IllegalMove("the game is over")
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove('a move is an object with a "type"')
        mtype = move["type"]
        who = move.get("player")
        if who is not None and who != self.players[self.actor]:
            raise IllegalMove(f"it is {self.players[self.actor]}'s turn, not {who}'s")
        events: list[Event] = []
        step = self.step
        if mtype == "tile" and step == "tile":
            self._apply_tile(move, events)
        elif mtype == "meeple" and step == "figure" and self._target_owner(move) is not None:
            owner = self._target_owner(move)  # a follower placed off the new tile (a crown space)
            owner.validate(self, move)  # type: ignore[union-attr]
            self._record(move)
            owner.apply(self, move, events)  # type: ignore[union-attr]
        elif mtype == "meeple" and step == "figure":
            self._apply_meeple(move, events)
        elif mtype == "pass" and step == "figure":
            self._record(move)
            self.after_figure(events)
        elif mtype in self._move_owner or (mtype == "pass" and step in self._step_owner):
            # Expansion moves, and a pass that skips an expansion's optional step.
            owner = self._move_owner.get(mtype) or self._step_owner[step]
            owner.validate(self, move)
            self._record(move)
            owner.apply(self, move, events)
        else:
            raise IllegalMove(self._wrong_step(mtype))
        return events

    def _target_owner(self, move: Move) -> Expansion | None:
        at = move.get("at")
        if not isinstance(at, str):
            return None
        return self._targets.get(at.split(":", 1)[0])

    def _wrong_step(self, mtype: str) -> str:
        wanted = {
            "tile": "place the drawn tile",
            "figure": "place a figure or pass",
            "draw": "draw a tile or place a castle",
        }.get(self.step, f"answer the {self.step} step")
        known = ("tile", "meeple", "pass") + tuple(self._move_owner)
        if mtype not in known:
            return f"unknown move type {mtype!r} in this game"
        return f"a {mtype!r} move is not possible now: {self.players[self.actor]} must {wanted}"

    def _record(self, move: Move) -> None:
        entry = dict(move)
        entry["player"] = self.players[self.actor]
        self.moves.append(entry)

    def _apply_tile(self, move: Move, events: list[Event]) -> None:
        tile = self.drawn
        assert tile is not None
        if move.get("tile") not in (None, tile.id):
            raise IllegalMove(f"the drawn tile is {tile.id}, not {move.get('tile')}")
        x, y, rot = self.check_placement(tile, move)
        self._record(move)
        self.drawn = None
        self.put_tile(tile, x, y, rot, events)

    def check_placement(self, tile: TileType, move: Move) -> tuple[int, int, int]:
        """(x, y, rot) of a move placing ``tile``, if the rules allow it; else IllegalMove."""
        try:
            x, y, rot = int(move["x"]), int(move["y"]), int(move["rot"])
        except (KeyError, TypeError, ValueError):
            raise IllegalMove('a placement needs whole numbers "x", "y" and "rot"') from None
        if rot not in (0, 90, 180, 270):
            raise IllegalMove("rot must be 0, 90, 180 or 270")
        if not self.board.fits(tile, x, y, rot):
            raise IllegalMove(self.board.mismatch(tile, x, y, rot) or "the tile does not fit there")
        for hook in self._hooks["placement_problem"]:
            problem = hook(self, tile, x, y, rot)
            if problem:
                raise IllegalMove(problem)
        return x, y, rot

    def put_tile(self, tile: TileType, x: int, y: int, rot: int, events: list[Event]) -> None:
        """Place a checked tile (or castle) and open the figure step."""
        self.placement = self.board.place(tile, x, y, rot)
        events.append(
            {"type": "tile_placed", "player": self.players[self.current], "tile": tile.id, "x": x, "y": y, "rot": rot}
        )
        for hook in self._hooks["on_place"]:
            hook(self, self.placement, events)
        self._enter_figure_step(events)

    def _enter_figure_step(self, events: list[Event]) -> None:
        board = self.board
        options: dict[int, tuple[int, str]] = {}
        allowed = self._hooks["figure_allowed"]
        if allowed and not all(h(self) for h in allowed):
            self.step = "figure"
            self._figure_options = {}
            self.after_figure(events)  # no figure of any kind on this tile
            return
        if self.supply[self.current] > 0:
            p = board.placements[self.placement]  # type: ignore[index]
            canonical = p.tile.rotations[p.rot // 90].canonical
            kinds, followers, find = board.kind, board.followers, board.find
            first = p.first_node
            for si, target in enumerate(canonical):
                n = first + si
                if not followers[find(n)] and kinds[n] != "river":
                    options[n] = target
        self._figure_options = options
        self.step = "figure"
        if not options and not (self._hooks["figure_moves"] and self._figure_moves()):
            self.after_figure(events)

    def _apply_meeple(self, move: Move, events: list[Event]) -> None:
        node = self._target_node(move)
        if node not in self._figure_options:
            if self.supply[self.current] == 0:
                raise IllegalMove("you have no follower left in your supply")
            raise IllegalMove(f"{move.get('at')} already has a follower on its feature")
        self._record(move)
        self._put_follower(self.current, node, events)
        self.after_figure(events)

    def _target_node(self, move: Move) -> int:
        """The node a meeple move names on the tile placed this turn."""
        p = self.board.placements[self.placement]  # type: ignore[index]
        rt = p.tile.rotations[p.rot // 90]
        at = move.get("at")
        if not isinstance(at, str):
            raise IllegalMove('a meeple move needs "at", e.g. "road:E", "city:N", "field:NNE" or "cloister"')
        x, y = move.get("x", p.x), move.get("y", p.y)
        try:
            ci = rt.offsets.index((int(x) - p.x, int(y) - p.y))
        except (TypeError, ValueError):
            raise IllegalMove(f"({x}, {y}) is not a cell of the tile you just placed") from None
        si = rt.targets.get((ci, at))
        if si is None:
            raise IllegalMove(f"the tile you just placed has no {at!r} there")
        node = p.first_node + si
        if self.board.kind[node] == "river":
            raise IllegalMove("followers may not stand on the river")
        return node

    def _put_follower(self, player: int, node: int, events: list[Event]) -> None:
        self.board.add_follower(player, node)
        self.supply[player] -= 1
        events.append({"type": "meeple_placed", "player": self.players[player], **self.describe_node(node)})

    def describe_node(self, node: int) -> dict[str, Any]:
        """Where a node is, in record terms: {"x", "y", "at"}."""
        board = self.board
        p = board.placements[board.node_place[node]]
        rt = p.tile.rotations[p.rot // 90]
        ci, at = rt.canonical[node - p.first_node]
        dx, dy = rt.offsets[ci]
        return {"x": p.x + dx, "y": p.y + dy, "at": at}

    def after_figure(self, events: list[Event]) -> None:
        self._figure_options = {}
        for hook in self._hooks["after_figure"]:
            if hook(self, events):
                return  # the expansion's step runs; it calls finish_turn() when done
        self.finish_turn(events)

    def finish_turn(self, events: list[Event]) -> None:
        """Score what this turn completed, then start the next turn."""
        board = self.board
        candidates: list[int] = []
        if self.placement is not None:
            candidates = board.completed_by(self.placement)
        for hook in self._hooks["completed_roots"]:
            for r in hook(self):
                if r not in candidates and board.is_complete(r):
                    candidates.append(r)
        on_completed = self._hooks["on_completed"]
        for root in candidates:
            if board.followers[root]:
                self.score_feature(root, False, events)
            for hook in on_completed:
                hook(self, root, events)
        for node in board.completed_areas():
            self.score_feature(node, False, events)
        for hook in self._hooks["end_of_turn"]:
            hook(self, events)
        nxt = None
        for hook in self._hooks["next_player"]:
            nxt = hook(self)
            if nxt is not None:
                break
        self.current = (self.current + 1) % len(self.players) if nxt is None else nxt
        self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        self.placement = None
        self.actor = self.current
        self.drawn = None
        if self.bag_pos >= len(self.bag) and not any(h(self) for h in self._hooks["may_continue"]):
            self._end_game(events)
            return
        self.turn += 1
        for hook in self._hooks["turn_start"]:
            if hook(self):
                return
        self.draw(events)

    def draw(self, events: list[Event]) -> None:
        """Draw tiles until one can be placed; the game ends if the bag runs out."""
        while self.bag_pos < len(self.bag):
            tile = TILE_TYPES[self.bag[self.bag_pos]]
            self.bag_pos += 1
            events.append({"type": "tile_drawn", "player": self.players[self.current], "tile": tile.id})
            self.drawn = tile
            wait = False
            for hook in self._hooks["on_draw"]:
                wait = hook(self, tile, events) or wait
            if wait:
                return  # an expansion step runs first; it calls offer_drawn() when done
            if self.offer_drawn(events):
                return
        self.drawn = None
        self._end_game(events)

    def offer_drawn(self, events: list[Event]) -> bool:
        """Open the tile step for the drawn tile, or discard it if it fits nowhere."""
        tile = self.drawn
        assert tile is not None
        placements = self.board.fitting_placements(tile)
        problems = self._hooks["placement_problem"]
        if problems:
            kept = {}
            for (x, y), rots in placements.items():
                ok = tuple(r for r in rots if not any(h(self, tile, x, y, r) for h in problems))
                if ok:
                    kept[(x, y)] = ok
            placements = kept
        if placements:
            self._placements = placements
            self.step = "tile"
            self.actor = self.current
            return True
        for hook in self._hooks["unplaceable"]:
            if hook(self, tile, events):  # put back into the bag: draw the next tile
                self.drawn = None
                return False
        events.append({"type": "tile_discarded", "tile": tile.id})
        self.drawn = None
        return False

    # ------------------------------------------------------------------ scoring
    def feature_points(self, root: int, final: bool) -> int:
        """Points a feature is worth to each of its majority players."""
        board = self.board
        kind = board.kind[root]
        if kind == "road":
            return len(board.feature_cells(root))
        if kind == "city":
            cells, pennants = len(board.feature_cells(root)), board.pennants[root]
            return cells + pennants if final else 2 * (cells + pennants)
        if kind in AREA_KINDS:
            own = 1 if kind == "cloister" else 2
            return own + board.occupied_around(root)
        if kind == "field":
            return 3 * sum(1 for c in board.cities_of_field(root) if board.open[c] == 0)
        return 0

    def majority(self, root: int) -> list[int]:
        """Players with the most followers on a feature (all tied ones)."""
        counts: dict[int, int] = {}
        for player, _ in self.board.followers[root] or ():
            counts[player] = counts.get(player, 0) + 1
        if not counts:
            return []
        best = max(counts.values())
        return sorted(p for p, c in counts.items() if c == best)

    def score_feature(self, root: int, final: bool, events: list[Event]) -> None:
        """Score a feature for its majority and (during play) return its followers."""
        board = self.board
        winners = self.majority(root)
        points = self.feature_points(root, final)
        if points:
            for hook in self._hooks["bonus"]:
                points += hook(self, root, final)
        for p in winners:
            self.scores[p] += points
        event: Event = {
            "type": "scored",
            "feature": board.kind[root],
            "points": {self.players[p]: points for p in winners},
            "final": final,
            **self.describe_node(root),
        }
        if not final:
            returned = []
            for player, _ in board.clear_followers(root):
                self.supply[player] += 1
                returned.append(self.players[player])
            event["returned"] = returned
        events.append(event)

    def _end_game(self, events: list[Event]) -> None:
        board = self.board
        roots = [n for n, f in enumerate(board.followers) if f and board.parent[n] == n]
        order = {"road": 0, "city": 1, "cloister": 2, "castle": 2, "field": 3}
        roots.sort(key=lambda r: (order.get(board.kind[r], 4), r))
        for root in roots:
            self.score_feature(root, True, events)
        for hook in self._hooks["final_scoring"]:
            hook(self, events)
        self.step = "end"
        self.finished = True
        self.drawn = None
        best = max(self.scores)
        events.append(
            {
                "type": "game_over",
                "scores": dict(zip(self.players, self.scores, strict=False)),
                "winners": [p for p, s in zip(self.players, self.scores, strict=False) if s == best],
            }
        )

    # ------------------------------------------------------------------ records
    def score_table(self) -> dict[str, int]:
        return dict(zip(self.players, self.scores, strict=False))

    def to_json(self) -> dict[str, Any]:
        """The game's record (RECORD.md): setup plus every move. Replays to this state."""
        record: dict[str, Any] = {
            "format": 1,
            "players": list(self.players),
            "sets": list(self.sets),
            "seed": self.seed,
            "pool": list(self.initial_bag),
        }
        for e in self.expansions:
            record.update(e.record_fields(self))
        record["moves"] = [dict(m) for m in self.moves]
        return record

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> Game:
        """Rebuild a game from its record; raises BadSetup or IllegalMove."""
        from engine.record import load

        game, _events, error = load(record)
        if error is not None:
            raise IllegalMove(f"move {error[0]}: {error[1]}")
        return game


def tile_of(tile_id: str) -> TileType:
    try:
        return TILE_TYPES[tile_id]
    except KeyError:
        raise BadSetup(f"unknown tile id {tile_id!r}") from None


__all__ = ["Game", "IllegalMove", "BadSetup", "check_sets", "tile_set", "tile_of"]
