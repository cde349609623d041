"""Inns & Cathedrals (RULES.md "Inns & Cathedrals"): inns on roads, cathedrals in cities, and each
player's big follower.

An inn (``road{..} inn``) makes its completed road worth 2 per tile and an unfinished one worth 0 at
the end; a cathedral (``city{..} cathedral``) makes its completed city worth 3 per tile and 3 per
pennant, an unfinished one 0. Several inns or cathedrals change nothing more. Both are one value
hook (``value``): scoring and the computer players see them through ``Game.feature_value``. The big
follower is a kind of figure (engine.figures): placed as a follower, it weighs 2 in majorities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.expansions import Expansion
from engine.figures import LAND, FigureKind
from engine.language import N_, _

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType

INN, CATHEDRAL = "inn", "cathedral"

BIG_FOLLOWER = FigureKind(
    "big",
    per_player=1,
    strength=2,
    follower=True,
    stands_on=LAND,
    noun=N_("big follower"),
    option=N_("big follower as {role} on {feature}"),
    placed=N_("{player} put their big follower as {role} on {feature}."),
    hand_worth=2.0,  # (it weighs two: spent where one plain follower would do, it is a loss)
)


class Inns(Expansion):
    name = "inns"
    sets = ("inns",)
    titles = {"inns": N_("Inns & Cathedrals")}
    figure_kinds = (BIG_FOLLOWER,)
    segment_marks = (INN, CATHEDRAL)
    scored_kinds = ("road", "city")  # (an inn on a road, a cathedral in a city)

    @staticmethod
    def name_tile(tile: TileType, name: str) -> str:
        marks = {m for seg in tile.segments for m in seg.marks}
        if CATHEDRAL in marks:
            return _("{tile} with a cathedral").format(tile=name)
        if INN in marks:
            return _("{tile} with an inn").format(tile=name)
        return name

    def value(self, game: Game, root: int, final: bool, points: int, player: int | None) -> int:
        board = game.board
        kind = board.kind[root]
        if kind == "road":
            if INN not in board.feature_marks(root):
                return points
            return 0 if final else 2 * board.feature_size(root)
        if kind == "city":
            if CATHEDRAL not in board.feature_marks(root):
                return points
            return 0 if final else 3 * (board.feature_size(root) + board.pennants[root])
        return points
