"""The game: a declared chain of steps over the board, players and bag.

A turn runs through ``engine.turn.CORE_CHAIN`` — new turn, (expansion steps such as the
castle choice), deal, (the plague), tile, figure, (ferries), score, end of turn
— with each expansion's steps inserted after the step it names. A step either
does automatic work or asks a question; the chain stops at the first step that
asks and waits for one of its moves (``apply``), then goes on by itself.

``question()`` says what is asked now, of whom, with every option as a legal
move plus a label a player can read; ``legal_moves()`` lists the same moves.
``apply(move)`` validates a move completely before changing anything, then plays
it and returns the events. Moves are the JSON objects of RECORD.md.
"""

from __future__ import annotations

import random
from typing import Any

from engine.board import Board
from engine.catalog import BASE_START, SET_TILES, TILE_TYPES, expand, tile_set
from engine.copying import copy_plain
from engine.expansions import HOOKS, Expansion, overridden
from engine.expansions.registry import (
    EXPANSIONS,
    expansion_classes,
)
from engine.figures import FOLLOWER, Figure, FigureKind, kind_of
from engine.language import _
from engine.moves import BadSetup, BoardFigure, Event, HeldItem, IllegalMove, Move, Option, Question
from engine.scoring import KIND_HOOK_KEYS, FeatureScoring
from engine.steps import ASKS, DONE, FigureOption, Step
from engine.tiles import TileType
from engine.turn import FOLLOWER_KINDS, HANDS, MAX_STEPS_PER_RUN, PlaceFigure, build_chain, runner_table
from engine.words import cell, feature_phrase

FOLLOWERS = FOLLOWER.per_player
MIN_PLAYERS, MAX_PLAYERS = 2, 6
BASE_SET = "base"  # the core game's own tiles


def known_sets() -> list[str]:
    """Every set a game can use: the catalog's, and any registered expansion's."""
    return list(SET_TILES) + [s for s in EXPANSIONS if s not in SET_TILES]


def check_sets(sets: list[str]) -> list[str]:
    """Validate a combination of sets; returns them in canonical order."""
    known = known_sets()
    unknown = [s for s in sets if s not in known]
    if unknown:
        shown = str(unknown[0])[:40]
        raise BadSetup(_("unknown set {name!r}; the sets are {sets}").format(name=shown, sets=", ".join(known)))
    classes = expansion_classes(sets)
    if BASE_SET not in sets and not any(cls.land_tiles for cls in classes):
        raise BadSetup(_("a game needs the base game or The Wheel of Fortune for its land tiles"))
    for cls in classes:
        problem = cls.conflict(sets)
        if problem:
            raise BadSetup(problem)
    return [s for s in known if s in sets]


# what ``clone`` passes for the players: a game with no attribute set, which it fills
_CLONING: list[str] = []


class Game(FeatureScoring):
    """One game of Carcassonne. Deterministic: same setup and moves, same state."""

    def __init__(
        self,
        players: list[str],
        sets: list[str] | tuple[str, ...] = ("base",),
        seed: int = 0,
        pool: list[str] | None = None,
        begin: bool = True,
        **options: Any,
    ) -> None:
        if players is _CLONING:
            return  # (``clone`` sets every attribute)
        if not isinstance(players, list | tuple) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            count = len(players) if isinstance(players, list | tuple) else "no"
            raise BadSetup(
                _("a game takes {min} to {max} players, not {count}").format(
                    min=MIN_PLAYERS, max=MAX_PLAYERS, count=count
                )
            )
        if not all(isinstance(p, str) and p for p in players) or len(set(players)) != len(players):
            raise BadSetup(_("player names must be distinct, non-empty strings"))
        self.players = list(players)
        self.sets = check_sets(list(sets))
        self.seed = seed
        self.expansions: list[Expansion] = [cls() for cls in expansion_classes(self.sets)]
        given = {k: v for k, v in options.items() if v is not None}
        accepted = {o for e in self.expansions for o in e.options}
        for key in given:
            if key not in accepted:
                raise BadSetup(f"the option {key!r} needs a set that uses it (none of {', '.join(self.sets)} does)")
        self._hooks = {h: overridden(self.expansions, h) if self.expansions else [] for h in HOOKS}
        for kind, keys in KIND_HOOK_KEYS.items():
            for hook_name, key in zip(("value", "bonus"), keys, strict=True):
                self._hooks[key] = [h for h in self._hooks[hook_name] if kind in (h.__self__.scored_kinds or (kind,))]
        # Every kind of figure by name (the plain follower and the expansions', figures.py), the kinds other
        # than the follower, whether a feature's value depends on who asks, and the figure step's options
        # besides a figure on the new tile: one attribute (tests/test_same_games.py says why a game keeps few).
        kinds: dict[str, FigureKind] = {FOLLOWER.name: FOLLOWER}
        for e in self.expansions:
            kinds.update((k.name, k) for k in e.figure_kinds)
        self._figure_rules = (
            kinds,
            [k for k in kinds.values() if k is not FOLLOWER],
            any(e.value_per_player for e in self.expansions),
            [o for e in self.expansions for o in e.figure_options()],
        )
        self.chain = build_chain(self.expansions)
        # What the chain's runner and ``apply`` need of the steps, looked up once (see runner_table):
        # (the runner's table, per step (move types, bound check, bound play), step name -> position)
        self._runner = (
            runner_table(self.chain),
            [(step.move_types, step.check, step.play) for step in self.chain],
            {s.name: i for i, s in enumerate(self.chain)},
        )

        n = len(players)
        self.scores = [0] * n
        self.supply = [FOLLOWERS] * n
        self.board = Board()
        self.moves: list[Move] = []
        self.turn = 0
        self.current = 0
        self.actor = 0  # who must answer the current step (differs during a plague)
        self.step = "setup"
        self._index = 0  # position of the asking step in the chain
        self.finished = False
        self.drawn: TileType | None = None
        self.placement: int | None = None  # index of the tile placed this turn
        # The drawn tile's legal placements (None: not listed yet, see ``tile_placements``).
        self._placements: dict[tuple[int, int], tuple[int, ...]] | None = {}
        self._figure_options: dict[int, tuple[int, str]] = {}  # node -> (cell index, target), this turn
        self._figure_blocked = False
        self.state: dict[str, Any] = {}  # expansion state, keyed by expansion name
        # Per-position caches of derived facts (never copied: a clone starts empty).
        self.scratch: dict[Any, Any] = {}

        rng = random.Random(seed)
        start_tile = self._start_tile()
        if pool is None:
            bag = self._default_bag(start_tile)
            rng.shuffle(bag)
            for hook in self._hooks["bag"]:
                bag = hook(self, bag, rng)
        else:
            bag = self._check_pool(pool)
        self.bag = bag
        self.initial_bag = list(bag)
        self.bag_pos = 0
        if self._figure_rules[1]:  # each player's figures of the other kinds, in hand (the followers: ``supply``)
            self.state[HANDS] = [{k.name: k.per_player for k in self._figure_rules[1]} for _p in players]
        for hook in self._hooks["setup"]:
            hook(self, rng, given)
        self.board.place(TILE_TYPES[start_tile], 0, 0, 0)
        self.start_events: list[Event] = []
        if begin:  # (engine.snapshot sets up a game without, then puts a position in place)
            self._run(0, self.start_events)

    # ------------------------------------------------------------------ setup
    def _start_tile(self) -> str:
        for hook in self._hooks["start_tile"]:
            tile_id = hook(self)
            if tile_id:
                return str(tile_id)
        return BASE_START

    def _setup_tiles(self) -> set[str]:
        """Tiles that only ever start a game (never in the bag)."""
        return {t for e in self.expansions for t in e.setup_tiles}

    def bag_tiles(self) -> list[str]:
        """Every tile id the chosen sets put in the bag, with repeats (catalog order)."""
        out: list[str] = []
        setup_tiles = self._setup_tiles()
        for s in self.sets:
            tiles = SET_TILES.get(s, [])
            for hook in self._hooks["set_tiles"]:
                tiles = hook(self, s, tiles)
            out += expand([t for t in tiles if t.id not in setup_tiles])
        return out

    def _default_bag(self, start_tile: str) -> list[str]:
        bag = self.bag_tiles()
        if start_tile in bag:
            bag.remove(start_tile)
        return bag

    @property
    def start_tile(self) -> str:
        """The tile the game started with, at (0, 0)."""
        return self.board.placements[0].tile.id

    def _check_pool(self, pool: list[Any]) -> list[str]:  # (Any: a record's pool may hold anything)
        if not isinstance(pool, list):
            raise BadSetup("pool must be a list of tile ids")
        allowed = set(self.bag_tiles())
        setup_tiles = self._setup_tiles()
        for tile_id in pool:
            if isinstance(tile_id, str) and tile_id in allowed:
                continue  # the usual case (the bag's tiles hold no setup tile), without the catalog's look-up
            if not isinstance(tile_id, str) or tile_id not in TILE_TYPES:
                raise BadSetup(f"unknown tile id {str(tile_id)[:40]!r} in the pool")
            if tile_id in setup_tiles:
                raise BadSetup(f"{tile_id!r} is a setup tile and cannot be in the pool")
            if tile_id not in allowed:
                raise BadSetup(f"tile {tile_id!r} is not part of the sets {', '.join(self.sets)}")
        for hook in self._hooks["check_pool"]:
            hook(self, pool)
        return list(pool)

    def clone(self) -> Game:
        """An independent copy, for players that look ahead and for trying moves."""
        # (every attribute named: the compiled engine's Game has no __dict__ to copy whole; a look-ahead
        # clones a game for every move it tries. tests/test_compiled_engine.py checks none is left out.)
        other = Game(_CLONING)
        # made by the setup, never changed after it
        other.players, other.sets, other.seed, other.expansions = self.players, self.sets, self.seed, self.expansions
        other._hooks, other._figure_rules, other.chain, other._runner = (
            self._hooks, self._figure_rules, self.chain, self._runner
        )  # fmt: skip
        other.initial_bag, other.start_events = self.initial_bag, self.start_events
        # the position's values (each replaced by a move, never changed in place)
        other.turn, other.current, other.actor, other.step, other._index = (
            self.turn, self.current, self.actor, self.step, self._index
        )  # fmt: skip
        other.finished, other.drawn, other.placement, other.bag_pos = (
            self.finished, self.drawn, self.placement, self.bag_pos
        )  # fmt: skip
        other._placements, other._figure_blocked = self._placements, self._figure_blocked
        # the position's containers, copied
        other.board = self.board.clone()
        other.scores = list(self.scores)
        other.supply = list(self.supply)
        other.moves = list(self.moves)
        other.bag = list(self.bag)
        other.state = copy_plain(self.state) if self.state else {}
        other._figure_options = dict(self._figure_options)
        other.scratch = {}
        return other

    # ------------------------------------------------------------------ the chain
    def _run(self, index: int, events: list[Event]) -> None:
        """Go along the chain from ``index`` until a step asks or the game ends."""
        hot, _answering, position = self._runner
        jumps = 0
        while True:
            enter, asks, after, name, actor = hot[index]
            if enter is not None:
                jump = enter(self, events)
                if jump is not None:
                    if jump is DONE:
                        index = after
                        continue
                    if jump is not ASKS:
                        if self.finished:  # GAME_OVER
                            return
                        jumps += 1
                        if jumps > MAX_STEPS_PER_RUN:
                            raise RuntimeError("the turn's steps went round without asking anything")
                        index = position[jump]
                        continue
                elif asks is None or not asks(self):
                    index = after
                    continue
            elif asks is None or not asks(self):
                index = after
                continue
            # The step asks: the game waits for one of its moves.
            self._index = index
            self.step = name
            self.actor = self.current if actor is None else actor(self)
            return

    @property
    def figure_kinds(self) -> dict[str, FigureKind]:
        """Every kind of figure of this game by name: the plain follower and the expansions' (figures.py)."""
        return self._figure_rules[0]

    @property
    def _extra_kinds(self) -> list[FigureKind]:
        """The kinds of figure other than the plain follower (the engine reads ``_figure_rules[1]``:
        a property costs a call in the hot paths)."""
        return self._figure_rules[1]

    @property
    def _figure_extras(self) -> list[FigureOption]:
        """The figure step's options besides a figure on the new tile (``_figure_rules[3]``)."""
        return self._figure_rules[3]

    @property
    def current_step(self) -> Step | None:
        return None if self.finished else self.chain[self._index]

    # ------------------------------------------------------------------ queries
    def expansion_state(self, name: str) -> Any:
        """An expansion's state (its own dataclass, ``Expansion.state_types``; None before its
        setup): for the expansion and its tests. Front ends read ``board_figures`` instead."""
        return self.state.get(name)

    @property
    def player_name(self) -> str:
        return self.players[self.current]

    @property
    def bag_left(self) -> int:
        return len(self.bag) - self.bag_pos

    def remaining_tiles(self) -> list[str]:
        return self.bag[self.bag_pos :]

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current step, passing included (empty once over)."""
        if self.finished:
            return []
        step = self.chain[self._index]
        moves = step.moves(self)
        if step.may_pass(self):
            moves.append({"type": "pass"})
        return moves

    def question(self) -> Question | None:
        """What the game asks now (None once it is over): who, what, and every option
        as a legal move with a label a player can read."""
        step = self.current_step
        if step is None:
            return None
        options = tuple(Option(m, step.label(self, m), step.tags(self, m)) for m in step.moves(self))
        return Question(
            player=self.players[self.actor],
            kind=step.name,
            prompt=step.prompt(self),
            options=options,
            pass_label=step.pass_label(self),
            tile=self.drawn.id if self.drawn is not None else None,
            turn=self.turn,
        )

    def legal_placements(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """In the tile step: cell -> legal rotations of the drawn tile (one per distinct look)."""
        if self.step != "tile" or self.finished:
            return {}
        placements = self._placements  # (tile_placements, without a call when listed already)
        return placements if placements is not None else self.tile_placements()

    def tile_placements(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """The drawn tile's legal placements, listed on first use (the tile step only
        checks that there is one: replaying a move needs no list)."""
        placements = self._placements
        if placements is None:
            tile = self.drawn
            assert tile is not None
            problems = self._hooks["placement_problem"]
            if problems:
                problems = self.placement_checks(tile)
            # The board has not changed since the tile step began (it waits for this tile).
            if not problems:
                self._placements = placements = self.board.fitting_placements(tile)
                return placements
            placements = {}
            for (x, y), rots in self.board.fitting_placements(tile).items():
                ok = []
                for r in rots:
                    for h in problems:
                        if h(self, tile, x, y, r):
                            break
                    else:
                        ok.append(r)
                if ok:
                    placements[(x, y)] = tuple(ok)
            self._placements = placements
        return placements

    def placement_checks(self, tile: TileType) -> list[Any]:
        """The expansions' ``placement_problem`` hooks that may object to a place of ``tile`` now
        (``Expansion.checks_placement``): the others need not be asked for every place tried."""
        return [h for h in self._hooks["placement_problem"] if h.__self__.checks_placement(self, tile)]

    def board_figures(self) -> list[BoardFigure]:
        """Everything standing on the board, in drawing order, as plain views: the followers, then
        each expansion's figures (``Expansion.board_figures``)."""
        board = self.board
        out: list[BoardFigure] = []
        for root in board.figure_roots():
            for figure in board.followers[root] or ():
                player, node = figure[0], figure[1]
                drawing = "follower" if len(figure) == 2 else (self._figure_rules[0][figure[2]].drawing or figure[2])
                out.append(BoardFigure(drawing, tuple(board.placement_of(node).cells), player, (node,)))
        for hook in self._hooks["board_figures"]:
            out += hook(self)
        return out

    def footprints(self) -> dict[tuple[int, int], set[tuple[int, int]]]:
        """For a question that places a tile covering several cells (a castle): each offered cell
        -> every cell the tile may cover from there, over its rotations (what a picture outlines)."""
        step = self.current_step
        out: dict[tuple[int, int], set[tuple[int, int]]] = {}
        if step is None:
            return out
        for move in step.moves(self):
            tile = step.placed_tile(self, move)
            if tile is None or not tile.multi_cell:
                continue
            x, y = move["x"], move["y"]
            offsets = tile.rotations[move["rot"] // 90].offsets
            out.setdefault((x, y), set()).update((x + dx, y + dy) for dx, dy in offsets)
        return out

    def hand(self, player: int) -> list[HeldItem]:
        """What ``player`` holds off the board, as plain views: their figures left by kind (followers
        first), then what the expansions say they hold (castles by name, goods)."""
        items = [HeldItem(kind, number) for kind, number in self.hands()[player].items()]
        for hook in self._hooks["held"]:
            items += hook(self, player)
        return items

    def figure_moves_after(self, placement: Move) -> list[Move]:
        """The follower moves the current player would have after a placement (a tile
        or castle move), tried on a copy: this game does not change."""
        return [o.move for o in self.figure_options_after(placement)]

    def figure_options_after(self, placement: Move) -> list[Option]:
        """The follower options (with their tags) the current player would have after a placement,
        tried on a copy: this game does not change."""
        trial = self.clone()
        trial.apply(placement)
        if trial.finished or trial.turn != self.turn or trial.step != "figure":
            return []
        question = trial.question()
        return [o for o in question.options if o.move["type"] == "meeple"] if question is not None else []

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
            raise IllegalMove(_("the game is over"))
        if not isinstance(move, dict) or not isinstance(mtype := move.get("type"), str):
            raise IllegalMove(_('a move is an object with a "type"'))
        actor = self.players[self.actor]
        who = move.get("player")
        if who is not None and who != actor:
            raise IllegalMove(_("it is {player}'s turn, not {other}'s").format(player=actor, other=str(who)[:40]))
        index = self._index
        move_types, check, play = self._runner[1][index]
        if mtype not in move_types and not self._answers(self.chain[index], move):
            raise IllegalMove(self._wrong_step(mtype))
        check(self, move)
        events: list[Event] = []
        self.moves.append({**move, "player": actor})
        if play(self, move, events):
            self._run(index + 1, events)
        else:
            self.actor = self.chain[index].actor(self)
        return events

    def _answers(self, step: Step, move: Move) -> bool:
        """A pass where passing is allowed, or a move of an expansion's figure option."""
        if move["type"] == "pass":
            return step.may_pass(self)
        return isinstance(step, PlaceFigure) and any(o.owns(move) for o in self._figure_rules[3])

    def _wrong_step(self, mtype: str) -> str:
        step = self.chain[self._index]
        known = {t for s in self.chain for t in s.move_types} | {"pass"}
        known |= {t for o in self._figure_rules[3] for t in o.move_types}
        if mtype not in known:
            return _("unknown move type {type!r} in this game").format(type=mtype[:40])
        return _("a {type!r} move is not possible now: {player} must {question}").format(
            type=mtype[:40], player=self.players[self.actor], question=step.prompt(self)
        )

    def check_placement(self, tile: TileType, move: Move) -> tuple[int, int, int]:
        """(x, y, rot) of a move placing ``tile``, if the rules allow it; else IllegalMove."""
        x, y, rot = move.get("x"), move.get("y"), move.get("rot")
        if type(x) is not int or type(y) is not int or type(rot) is not int:  # no bool, float or text
            raise IllegalMove(_('a placement needs whole numbers "x", "y" and "rot"'))
        if rot not in (0, 90, 180, 270):
            raise IllegalMove(_("rot must be 0, 90, 180 or 270"))
        board = self.board
        if tile.multi_cell:
            fits = board.fits(tile, x, y, rot)
        else:  # Board.fits inlined: this runs for every tile placed
            key = board.frontier.get((x, y))
            fits = key is not None and rot in (tile._fit_tables or tile.fit_tables())[0][key]
        if not fits:
            raise IllegalMove(board.mismatch(tile, x, y, rot) or _("the tile does not fit there"))
        for hook in self._hooks["placement_problem"]:
            problem = hook(self, tile, x, y, rot)
            if problem:
                raise IllegalMove(problem)
        return x, y, rot

    def put_tile(self, tile: TileType, x: int, y: int, rot: int, events: list[Event]) -> None:
        """Place a checked tile (or castle): the turn's placement."""
        self.placement = placement = self.board.place(tile, x, y, rot)
        events.append(
            {"type": "tile_placed", "player": self.players[self.current], "tile": tile.id, "x": x, "y": y, "rot": rot}
        )
        for hook in self._hooks["on_place"]:
            hook(self, placement, events)

    def _target_node(self, move: Move) -> int:
        """The node a meeple move names on the tile placed this turn."""
        p = self.board.placements[self.placement]  # type: ignore[index]
        at = move.get("at")
        if not isinstance(at, str):
            raise IllegalMove(_('a meeple move needs "at", e.g. "road:E", "city:N", "field:NNE" or "cloister"'))
        node = self.node_at(move.get("x", p.x), move.get("y", p.y), at, only=self.placement)
        if self.board.kind[node] not in FOLLOWER_KINDS:
            raise IllegalMove(_("followers may not stand on the river"))
        return node

    def node_at(self, x: Any, y: Any, at: str, only: int | None = None) -> int:
        """The node a target name ("road:E", "castle"...) names on the tile at (x, y);
        with ``only``, that cell must belong to that placement."""
        if type(x) is not int or type(y) is not int:
            raise IllegalMove(_('"x" and "y" must be whole numbers'))
        placed = self.board.cells.get((x, y))
        if placed is None or (only is not None and placed[0] != only):
            if only is not None:
                raise IllegalMove(_("{cell} is not a cell of the tile you just placed").format(cell=cell(x, y)))
            raise IllegalMove(_("{cell} is not a cell of a placed tile").format(cell=cell(x, y)))
        p = self.board.placements[placed[0]]
        rt = p.tile.rotations[p.rot // 90]
        ci = rt.offsets.index((x - p.x, y - p.y))
        si = rt.targets.get((ci, at))
        if si is None:
            if only is not None:
                raise IllegalMove(_("the tile you just placed has no {place!r} there").format(place=at[:40]))
            raise IllegalMove(_("the tile at {cell} has no {place!r} there").format(cell=cell(x, y), place=at[:40]))
        return p.first_node + si

    def _put_follower(self, player: int, node: int, events: list[Event]) -> None:
        self.board.add_follower(player, node)
        self.supply[player] -= 1
        events.append({"type": "meeple_placed", "player": self.players[player], **self.describe_node(node)})

    def _put_figure(self, player: int, node: int, kind: str, events: list[Event]) -> None:
        """Put a figure of a kind other than the plain follower (checked) from the player's hand."""
        self.board.add_follower(player, node, kind)
        self.state[HANDS][player][kind] -= 1
        events.append(
            {"type": "meeple_placed", "player": self.players[player], **self.describe_node(node), "figure": kind}
        )

    # ------------------------------------------------------------------ figures
    def in_hand(self, player: int, kind: str = "follower") -> int:
        """How many figures of a kind the player has in supply."""
        if kind == "follower":
            return self.supply[player]
        hands = self.state.get(HANDS)
        return hands[player].get(kind, 0) if hands else 0

    def take_figure(self, player: int, kind: str = "follower") -> None:
        """A figure leaves its owner's supply (for a place off the board, such as a wheel's crown space)."""
        if kind == "follower":
            self.supply[player] -= 1
        else:
            self.state[HANDS][player][kind] -= 1

    def followers_in_hand(self, player: int) -> int:
        """The player's followers in supply, a big follower counted once (the storm counts them)."""
        return self.supply[player] + sum(self.in_hand(player, k.name) for k in self._figure_rules[1] if k.follower)

    def hands(self) -> list[dict[str, int]]:
        """Each player's figures in supply by kind (the plain followers included)."""
        extra = self.state.get(HANDS) or [{} for _p in self.players]
        return [{"follower": self.supply[p], **extra[p]} for p in range(len(self.players))]

    def is_follower(self, figure: Figure) -> bool:
        """Whether a figure standing on the board is a follower (a big one too; a builder or a pig is not)."""
        return len(figure) == 2 or self._figure_rules[0][figure[2]].follower

    def return_figure(self, figure: Figure) -> None:
        """A figure taken off the board goes back to its owner's supply (scoring, the plague, a
        builder left alone): the one way home of every kind."""
        player, kind = figure[0], kind_of(figure)
        if kind == "follower":
            self.supply[player] += 1
        else:
            self.state[HANDS][player][kind] += 1

    def describe_node(self, node: int) -> dict[str, Any]:
        """Where a node is, in record terms: {"x", "y", "at"}."""
        board = self.board
        p = board.placements[board.node_place[node]]
        rt = p.tile.rotations[p.rot // 90]
        ci, at = rt.canonical[node - p.first_node]
        dx, dy = rt.offsets[ci]
        return {"x": p.x + dx, "y": p.y + dy, "at": at}

    def node_phrase(self, node: int) -> str:
        """A node in words: "the road running west–east at (1, 0)"."""
        p = self.board.placement_of(node)
        where = self.describe_node(node)
        return _("{feature} at {cell}").format(
            feature=feature_phrase(p.tile, p.rot, node - p.first_node), cell=cell(where["x"], where["y"])
        )

    def hooks(self, name: str) -> list[Any]:
        """The expansions' methods that override the hook ``name`` (``engine.expansions.HOOKS``),
        looked up once for the game and shared by its clones."""
        return self._hooks[name]

    def must_draw(self) -> bool:
        """True while the player to move has no alternative to drawing (the river phase)."""
        return any(h(self) for h in self._hooks["must_draw"])

    # ------------------------------------------------------------------ records
    def score_table(self) -> dict[str, int]:
        return dict(zip(self.players, self.scores, strict=True))

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


__all__ = ["Game", "IllegalMove", "BadSetup", "check_sets", "tile_set", "tile_of"]


def tile_of(tile_id: str) -> TileType:
    try:
        return TILE_TYPES[tile_id]
    except KeyError:
        raise BadSetup(f"unknown tile id {str(tile_id)[:40]!r}") from None
