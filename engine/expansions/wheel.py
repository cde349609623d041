"""The Wheel of Fortune (RULES.md, wheel page).

State (``game.state["wheel"]``): ``pig`` (index of the sector it stands on),
``crowns`` (sector -> players on its crown spaces, None for a free space) and,
during a plague, ``plague`` (the players still to give up a follower, in order).

A drawn tile with an icon moves the pig, runs the sector's event, scores the
sector's crown spaces and only then is placed (or, fitting nowhere, removed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.expansions import Event, Expansion, Move
from engine.game import IllegalMove
from engine.tiledata.wheel import CROWN_SPACES, SECTORS, START

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType


def _state(game: Game) -> dict[str, Any]:
    return game.state["wheel"]


class Wheel(Expansion):
    name = "wheel"
    move_types = ("remove",)
    steps = ("plague",)
    targets = ("crown",)

    def start_tile(self, game: Game) -> str | None:
        return START

    def set_tiles(self, game: Game, set_name: str, tiles: list[TileType]) -> list[TileType]:
        if set_name == "wheel" and "base" in game.sets:
            return [t for t in tiles if t.wheel_icon]  # with the base game: only the icon tiles
        return tiles

    def setup(self, game: Game, rng: Any, options: dict[str, Any]) -> None:
        game.state["wheel"] = {"pig": 0, "crowns": {s: [None] * n for s, n in CROWN_SPACES.items() if n}}

    # ------------------------------------------------------------------ the pig
    def on_draw(self, game: Game, tile: TileType, events: list[Event]) -> bool:
        if not tile.wheel_icon:
            return False
        state = _state(game)
        state["pig"] = (state["pig"] + tile.wheel_icon) % len(SECTORS)
        sector = SECTORS[state["pig"]]
        events.append({"type": "wheel", "sector": sector, "steps": tile.wheel_icon, "player": game.player_name})
        if sector == "plague":
            order = [(game.current + k) % len(game.players) for k in range(len(game.players))]
            state["plague"] = [p for p in order if self.land_followers(game, p)]
            if state["plague"]:
                game.step = "plague"
                game.actor = state["plague"][0]
                return True
        else:
            self._event(game, sector, events)
        self._score_crowns(game, sector, events)
        return False

    def _event(self, game: Game, sector: str, events: list[Event]) -> None:
        board = game.board
        gained = [0] * len(game.players)
        if sector == "fortune":
            gained[game.current] = 3
        elif sector == "storm":
            gained = list(game.supply)
        else:
            for root, standing in enumerate(board.followers):
                if not standing or board.parent[root] != root:
                    continue
                kind = board.kind[root]
                if sector == "taxes" and kind == "city":
                    for player, _ in standing:
                        mine = sum(1 for p, _ in standing if p == player)
                        gained[player] += board.pennants[root] + mine
                elif sector == "famine" and kind == "field":
                    cities = sum(1 for c in board.cities_of_field(root) if board.open[c] == 0)
                    for player, _ in standing:
                        gained[player] += cities
                elif sector == "inquisition" and kind == "cloister":
                    for player, _ in standing:
                        gained[player] += 2
        for player, points in enumerate(gained):
            game.scores[player] += points
        events.append(
            {
                "type": "wheel_event",
                "sector": sector,
                "points": {game.players[p]: n for p, n in enumerate(gained) if n},
            }
        )

    def _score_crowns(self, game: Game, sector: str, events: list[Event]) -> None:
        spaces = _state(game)["crowns"].get(sector)
        if not spaces:
            return
        standing = [p for p in spaces if p is not None]
        if not standing:
            return
        each = 3 if len(spaces) == 1 or len(standing) == 2 else 6
        points: dict[str, int] = {}
        for player in standing:
            game.scores[player] += each
            game.supply[player] += 1
            points[game.players[player]] = points.get(game.players[player], 0) + each
        _state(game)["crowns"][sector] = [None] * len(spaces)
        events.append({"type": "scored", "feature": "crown", "sector": sector, "points": points, "final": False})

    # ------------------------------------------------------------------ plague
    @staticmethod
    def land_followers(game: Game, player: int) -> list[int]:
        """Nodes where the player has a follower on a land tile (not on a crown space)."""
        board = game.board
        out = []
        for root, standing in enumerate(board.followers):
            if standing and board.parent[root] == root:
                out += [node for p, node in standing if p == player]
        return sorted(out)

    def step_moves(self, game: Game) -> list[Move]:
        player = game.actor
        return [
            {"type": "remove", "player": game.players[player], **game.describe_node(node)}
            for node in self.land_followers(game, player)
        ]

    def validate(self, game: Game, move: Move) -> None:
        if move["type"] == "meeple":
            self._validate_crown(game, move)
            return
        if game.step != "plague":
            raise IllegalMove("followers are only sent home by the plague")
        legal = self.step_moves(game)
        wanted = {k: move.get(k) for k in ("x", "y", "at")}
        wanted["player"] = move.get("player", game.players[game.actor])
        if not any(all(m[k] == v for k, v in wanted.items()) for m in legal):
            where = ", ".join(f"{m['at']} at ({m['x']}, {m['y']})" for m in legal)
            raise IllegalMove(f"{game.players[game.actor]} must send home one of their followers: {where}")

    def apply(self, game: Game, move: Move, events: list[Event]) -> None:
        if move["type"] == "meeple":
            self._apply_crown(game, move, events)
            return
        board = game.board
        player = game.actor
        node = next(
            n
            for n in self.land_followers(game, player)
            if game.describe_node(n) == {k: move[k] for k in ("x", "y", "at")}
        )
        board.remove_follower(player, node)
        game.supply[player] += 1
        events.append({"type": "plague", "player": game.players[player], **game.describe_node(node)})
        state = _state(game)
        state["plague"].pop(0)
        if state["plague"]:
            game.actor = state["plague"][0]
            return
        del state["plague"]
        game.actor = game.current
        self._score_crowns(game, "plague", events)
        if not game.offer_drawn(events):
            game.draw(events)

    # ------------------------------------------------------------------ crowns
    def figure_moves(self, game: Game) -> list[Move]:
        if game.supply[game.current] == 0:
            return []
        crowns = _state(game)["crowns"]
        return [{"type": "meeple", "at": f"crown:{s}"} for s in SECTORS if None in crowns.get(s, [])]

    def _validate_crown(self, game: Game, move: Move) -> None:
        sector = move["at"].split(":", 1)[1]
        spaces = _state(game)["crowns"].get(sector)
        if spaces is None:
            raise IllegalMove(f"the wheel has no crown space in {sector!r}")
        if game.supply[game.current] == 0:
            raise IllegalMove("you have no follower left in your supply")
        if None not in spaces:
            raise IllegalMove(f"the crown spaces of {sector} are taken")

    def _apply_crown(self, game: Game, move: Move, events: list[Event]) -> None:
        sector = move["at"].split(":", 1)[1]
        spaces = _state(game)["crowns"][sector]
        spaces[spaces.index(None)] = game.current
        game.supply[game.current] -= 1
        events.append({"type": "meeple_placed", "player": game.players[game.current], "at": move["at"]})
        game.after_figure(events)
