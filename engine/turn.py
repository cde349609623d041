"""The core steps of a turn and the chain that runs them: new turn, turn start, deal, tile,
figure, score, end of turn (``CORE_CHAIN``), with each expansion's steps inserted after the step
it names (``build_chain``). ``engine.game.Game`` holds the state the steps work on and runs the
chain (``runner_table``: what its loop needs of each step, looked up once per game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.catalog import TILE_TYPES
from engine.expansions import Expansion
from engine.figures import FigureKind, kind_of
from engine.language import _
from engine.moves import BadSetup, Event, IllegalMove, Move
from engine.steps import ASKS, DONE, GAME_OVER, FigureOption, Step
from engine.tiles import TileType
from engine.words import cell, feature_phrase, feature_word, role, tile_name

if TYPE_CHECKING:
    from engine.game import Game

#: kinds of feature a follower may stand on (never a river)
FOLLOWER_KINDS = frozenset(("road", "city", "field", "cloister", "castle"))


class NewTurn(Step):
    """Start a turn, or end the game once the bag is empty and nobody may go on."""

    name = "new_turn"

    def enter(self, game: Game, events: list[Event]) -> str | None:
        game.placement = None
        game.drawn = None
        game.actor = game.current
        if game.bag_pos >= len(game.bag) and not any(h(game) for h in game._hooks["may_continue"]):
            game._end_game(events)
            return GAME_OVER
        game.turn += 1
        return None


class TurnStart(Step):
    """A named point: the choices a player makes before drawing are inserted after it.
    The deal comes back here when the bag runs out but the player may still act."""

    name = "turn_start"


class Deal(Step):
    """Draw the turn's tile (unless something was already placed this turn)."""

    name = "deal"

    def enter(self, game: Game, events: list[Event]) -> str | None:
        if game.placement is not None or game.drawn is not None:
            return None
        if game.bag_pos >= len(game.bag):
            if any(h(game) for h in game._hooks["may_continue"]):
                return TurnStart.name  # e.g. a castle may still be placed
            game._end_game(events)
            return GAME_OVER
        tile = TILE_TYPES[game.bag[game.bag_pos]]
        game.bag_pos += 1
        game.drawn = tile
        events.append({"type": "tile_drawn", "player": game.players[game.current], "tile": tile.id})
        on_draw = game._hooks["on_draw"]
        if on_draw:
            for hook in on_draw:
                hook(game, tile, events)
        return None


class PlaceTile(Step):
    """Place the drawn tile (a tile that fits nowhere leaves the game; another is drawn)."""

    name = "tile"
    move_types = ("tile",)

    def enter(self, game: Game, events: list[Event]) -> str | None:
        tile = game.drawn
        if tile is None or game.placement is not None:
            return DONE
        # Only whether the tile can go somewhere is needed now, and the search stops at the first
        # place found; the list is made when asked for (``Game.tile_placements``: a replay never
        # asks, and a computer player's look-ahead asks in only one of the positions it judges).
        game._placements = None
        problems = game._hooks["placement_problem"]
        if problems:
            problems = game.placement_checks(tile)
        if problems:
            for x, y, r in game.board.each_fit(tile):
                for h in problems:
                    if h(game, tile, x, y, r):
                        break
                else:
                    return ASKS
        elif tile.multi_cell:
            if game.board.fits_somewhere(tile):
                return ASKS
        else:  # Board.fits_somewhere inlined: this runs for every tile drawn
            table = (tile._fit_tables or tile.fit_tables())[1]
            for key in game.board.frontier.values():
                if table[key]:
                    return ASKS
        game.drawn = None
        if not any(h(game, tile, events) for h in game._hooks["unplaceable"]):
            events.append({"type": "tile_discarded", "tile": tile.id})
        return Deal.name

    def asks(self, game: Game) -> bool:
        return game.drawn is not None and game.placement is None

    def moves(self, game: Game) -> list[Move]:
        tile_id = game.drawn.id if game.drawn else ""
        return [
            {"type": "tile", "tile": tile_id, "x": x, "y": y, "rot": r}
            for (x, y), rots in game.tile_placements().items()
            for r in rots
        ]

    def placed_tile(self, game: Game, move: Move) -> TileType | None:
        return game.drawn

    def prompt(self, game: Game) -> str:
        if game.drawn is None:
            return _("place the drawn tile")
        return _("place the drawn tile ({tile})").format(tile=tile_name(game.drawn.id))

    def label(self, game: Game, move: Move) -> str:
        return _("{cell} turned {degrees}°").format(cell=cell(move["x"], move["y"]), degrees=move["rot"])

    def check(self, game: Game, move: Move) -> None:
        tile = game.drawn
        assert tile is not None
        if move.get("tile") not in (None, tile.id):
            raise IllegalMove(
                _("the drawn tile is {tile}, not {other}").format(tile=tile.id, other=str(move.get("tile"))[:40])
            )
        game.check_placement(tile, move)

    def play(self, game: Game, move: Move, events: list[Event]) -> bool:
        tile = game.drawn
        assert tile is not None
        game.drawn = None
        game.put_tile(tile, move["x"], move["y"], move["rot"], events)  # checked by ``check``
        return True


class PlaceFigure(Step):
    """Optionally place one figure: a follower on the new tile, or what expansions offer."""

    name = "figure"
    move_types = ("meeple",)

    def enter(self, game: Game, events: list[Event]) -> str | None:
        game._figure_options = {}
        if game.placement is None:
            return DONE
        allowed = game._hooks["figure_allowed"]
        if allowed and not all(h(game) for h in allowed):
            game._figure_blocked = True
            return DONE
        game._figure_blocked = False
        if game.supply[game.current] > 0:
            board = game.board
            p = board.placements[game.placement]
            canonical = p.tile.rotations[p.rot // 90].canonical
            kinds, followers, parent = board.kind, board.followers, board.parent
            n = p.first_node
            options: dict[int, tuple[int, str]] = {}
            for target in canonical:
                # Board.find inlined (with the same path compression): it runs for every segment.
                r = n
                while parent[r] != r:
                    parent[r] = parent[parent[r]]
                    r = parent[r]
                if not followers[r] and kinds[n] in FOLLOWER_KINDS:
                    options[n] = target
                n += 1
            if options:
                game._figure_options = options
                return ASKS
        return ASKS if self.asks(game) else DONE

    @staticmethod
    def kind_targets(game: Game, kind: FigureKind) -> dict[int, tuple[int, str]]:
        """node -> (cell index, target) where the current player may put a figure of ``kind`` (not
        the plain follower) on the tile placed this turn: on a free feature, or one already holding
        one of their followers if the kind joins its owner's (a builder, a pig)."""
        player = game.current
        if game.placement is None or game.in_hand(player, kind.name) == 0:
            return {}
        board = game.board
        p = board.placements[game.placement]
        canonical = p.tile.rotations[p.rot // 90].canonical
        kinds, followers, first = board.kind, board.followers, p.first_node
        out: dict[int, tuple[int, str]] = {}
        for si, target in enumerate(canonical):
            n = first + si
            if kinds[n] not in kind.stands_on:
                continue
            standing = followers[board.find(n)]
            if kind.joins_own:
                ok = bool(standing) and any(
                    f[0] == player and game._figure_rules[0][kind_of(f)].follower for f in standing or ()
                )
            else:
                ok = not standing
            if ok:
                out[n] = target
        return out

    def asks(self, game: Game) -> bool:
        if game.placement is None or game._figure_blocked:
            return False
        if game._figure_options:
            return True
        if game._figure_rules[1] and any(self.kind_targets(game, k) for k in game._figure_rules[1]):
            return True
        extras = game._figure_rules[3]
        return bool(extras) and any(o.moves(game) for o in extras)

    def _tile_moves(self, game: Game) -> list[Move]:
        moves: list[Move] = []
        if game.placement is None:
            return moves
        p = game.board.placements[game.placement]
        rt = p.tile.rotations[p.rot // 90]
        targets: list[tuple[str, dict[int, tuple[int, str]]]] = [("follower", game._figure_options)]
        targets += [(k.name, self.kind_targets(game, k)) for k in game._figure_rules[1]]
        for name, options in targets:
            for ci, at in options.values():
                move: Move = {"type": "meeple", "at": at}
                if ci:
                    dx, dy = rt.offsets[ci]
                    move["x"], move["y"] = p.x + dx, p.y + dy
                if name != "follower":
                    move["figure"] = name
                moves.append(move)
        return moves

    def moves(self, game: Game) -> list[Move]:
        moves = self._tile_moves(game)
        for option in game._figure_rules[3]:
            moves += option.moves(game)
        return moves

    def pass_label(self, game: Game) -> str | None:
        return _("no figure this turn")

    def may_pass(self, game: Game) -> bool:
        return True

    def prompt(self, game: Game) -> str:
        return _("place a figure or pass")

    def _extra(self, game: Game, move: Move) -> FigureOption | None:
        for option in game._figure_rules[3]:
            if option.owns(move):
                return option
        return None

    def tags(self, game: Game, move: Move) -> frozenset[str]:
        extra = self._extra(game, move)
        return extra.tags if extra is not None else frozenset()

    def label(self, game: Game, move: Move) -> str:
        extra = self._extra(game, move)
        if extra is not None:
            return extra.label(game, move)
        node = game._target_node(move)
        p = game.board.placement_of(node)
        where = feature_phrase(p.tile, p.rot, node - p.first_node)
        kind = game._figure_rules[0].get(move.get("figure", "follower"))
        if kind is not None and kind.name != "follower":
            if "x" in move and p.tile.multi_cell:
                where = _("{feature} at {cell}").format(feature=where, cell=cell(move["x"], move["y"]))
            return _(kind.option).format(role=role(game.board.kind[node]), feature=where)
        if "x" in move and p.tile.multi_cell:
            return _("{role} on {feature} at {cell}").format(
                role=role(game.board.kind[node]), feature=where, cell=cell(move["x"], move["y"])
            )
        return _("{role} on {feature}").format(role=role(game.board.kind[node]), feature=where)

    def check(self, game: Game, move: Move) -> None:
        if move["type"] == "pass":
            return
        extra = self._extra(game, move) if game._figure_rules[3] else None
        if extra is not None:
            extra.check(game, move)
            return
        if move["type"] != "meeple":
            raise IllegalMove(game._wrong_step(move["type"]))
        figure = move.get("figure", "follower")
        if figure != "follower":
            self._check_kind(game, move, figure)
            return
        node = game._target_node(move)
        if node not in game._figure_options:
            if game.supply[game.current] == 0:
                raise IllegalMove(_("you have no follower left in your supply"))
            raise IllegalMove(_("{place} already has a follower on its feature").format(place=str(move.get("at"))[:40]))
        game.scratch[_CHECKED_FOLLOWER] = (move, node)  # play() follows with the same move: no second look-up

    def _check_kind(self, game: Game, move: Move, figure: Any) -> None:
        kind = game._figure_rules[0].get(figure) if isinstance(figure, str) else None
        if kind is None:
            raise IllegalMove(
                _("this game has no figure {figure!r}; it has {kinds}").format(
                    figure=str(figure)[:40], kinds=", ".join(game._figure_rules[0])
                )
            )
        node = game._target_node(move)
        if node in self.kind_targets(game, kind):
            return
        noun = _(kind.noun)
        if game.in_hand(game.current, kind.name) == 0:
            raise IllegalMove(_("you have no {figure} left in your supply").format(figure=noun))
        if game.board.kind[node] not in kind.stands_on:
            raise IllegalMove(
                _("a {figure} may not stand on {feature}").format(
                    figure=noun, feature=feature_word(game.board.kind[node])
                )
            )
        if kind.joins_own:
            raise IllegalMove(
                _("a {figure} joins a feature that already holds one of your followers").format(figure=noun)
            )
        raise IllegalMove(_("{place} already has a follower on its feature").format(place=str(move.get("at"))[:40]))

    def play(self, game: Game, move: Move, events: list[Event]) -> bool:
        extra = self._extra(game, move) if move["type"] != "pass" and game._figure_rules[3] else None
        if extra is not None:
            extra.play(game, move, events)
        elif move["type"] == "meeple" and move.get("figure", "follower") != "follower":
            game._put_figure(game.current, game._target_node(move), move["figure"], events)
        elif move["type"] == "meeple":
            checked, node = game.scratch.pop(_CHECKED_FOLLOWER, (None, 0))
            game._put_follower(game.current, node if checked is move else game._target_node(move), events)
        game._figure_options = {}
        return True


class Score(Step):
    """Score every feature this turn completed; followers on them go home."""

    name = "score"

    def enter(self, game: Game, events: list[Event]) -> str | None:
        board = game.board
        hooks = game._hooks
        candidates: list[int] = []
        if game.placement is not None:
            candidates = board.completed_by(game.placement)
        for hook in hooks["completed_roots"]:
            for r in hook(game):
                if r not in candidates and board.is_complete(r):
                    candidates.append(r)
        if candidates:
            on_completed, followers = hooks["on_completed"], board.followers
            for root in candidates:
                if followers[root]:
                    game.score_feature(root, False, events)
                for hook in on_completed:
                    hook(game, root, events)
        if board.watched:
            for node in board.completed_areas():
                game.score_feature(node, False, events)
        return None


class EndTurn(Step):
    """Close the turn and hand it to the next player."""

    name = "end_turn"

    def enter(self, game: Game, events: list[Event]) -> str | None:
        hooks = game._hooks
        for hook in hooks["end_of_turn"]:
            hook(game, events)
        players, current = game.players, game.current
        nxt = None
        for hook in hooks["next_player"]:
            nxt = hook(game)
            if nxt is not None:
                break
        game.current = nxt = (current + 1) % len(players) if nxt is None else nxt
        events.append({"type": "turn_ended", "player": players[current], "turn": game.turn, "next": players[nxt]})
        return NewTurn.name


#: where ``game.state`` keeps each player's figures in hand other than the plain followers
HANDS = "figures"
#: scratch key of the follower move the figure step checked last, and its node
_CHECKED_FOLLOWER = "checked follower"

CORE_CHAIN: tuple[type[Step], ...] = (NewTurn, TurnStart, Deal, PlaceTile, PlaceFigure, Score, EndTurn)
# The chain goes round once per turn; a turn that loops more often than this is a bug.
MAX_STEPS_PER_RUN = 100_000


def build_chain(expansions: list[Expansion]) -> list[Step]:
    """The core steps with each expansion's steps inserted after the step they name
    (after any step inserted there before, in expansion order)."""
    chain: list[Step] = [cls() for cls in CORE_CHAIN]
    inserted_after: dict[int, str] = {}  # id of an inserted step -> the step it was inserted after
    for expansion in expansions:
        for step in expansion.steps():
            names_ = [s.name for s in chain]
            if step.after not in names_:
                raise BadSetup(f"{expansion.name}: step {step.name!r} follows an unknown step {step.after!r}")
            at = names_.index(step.after) + 1
            while at < len(chain) and inserted_after.get(id(chain[at])) == step.after:
                at += 1
            inserted_after[id(step)] = step.after
            chain.insert(at, step)
    return chain


def runner_table(chain: list[Step]) -> list[tuple[Any, Any, int, str, Any]]:
    """Per step of the chain, what the runner's loop needs: the bound ``enter`` and ``asks``
    the step overrides (None: the base class's no-op), the position of the next step that
    overrides either (steps that are only named points, such as ``turn_start``, are stepped
    over), its name, and its bound ``actor`` if it says who answers (None: the player whose
    turn it is). Made once per game: the loop runs several times a move, over steps of
    many classes, where looking each method up on the step would cost more than the call."""
    hot: list[tuple[Any, Any, int, str, Any]] = []
    for i, step in enumerate(chain):
        after = i + 1
        while after < len(chain) and type(chain[after]).enter is Step.enter and type(chain[after]).asks is Step.asks:
            after += 1
        hot.append(
            (
                step.enter if type(step).enter is not Step.enter else None,
                step.asks if type(step).asks is not Step.asks else None,
                after,
                step.name,
                step.actor if type(step).actor is not Step.actor else None,
            )
        )
    return hot
