"""How a game scores its features (``FeatureScoring``, a part of ``engine.game.Game``): what a feature
is worth with every expansion's modifiers (the one value the final scoring, the scoring during play
and the computer players use), who holds its majority, a feature scored, and the end of the game."""

from __future__ import annotations

from typing import Any

from engine.board import AREA_KINDS, Board
from engine.figures import Figure, FigureKind
from engine.moves import Event
from engine.tiles import FEATURE_KINDS, TileType

#: feature kind -> the keys of ``Game._hooks`` that hold the value and bonus hooks for that kind
KIND_HOOK_KEYS = {kind: (f"value.{kind}", f"bonus.{kind}") for kind in FEATURE_KINDS}
ANY_KIND_HOOK_KEYS = ("value", "bonus")  # (a kind the notation does not know: every hook)
#: order of final scoring: roads, cities, areas (cloisters, castles), fields
_FINAL_ORDER = {"road": 0, "city": 1, **{k: 2 for k in AREA_KINDS}, "field": 3}


class FeatureScoring:
    """The scoring part of ``Game`` (which holds the state these methods read and change)."""

    board: Board
    players: list[str]
    scores: list[int]
    step: str
    finished: bool
    drawn: TileType | None
    _placements: dict[tuple[int, int], tuple[int, ...]] | None
    _hooks: dict[str, list[Any]]
    _figure_rules: tuple[dict[str, FigureKind], list[FigureKind], bool, list[Any]]

    def describe_node(self, node: int) -> dict[str, Any]:  # (Game's own)
        raise NotImplementedError

    def return_figure(self, figure: Figure) -> None:  # (Game's own)
        raise NotImplementedError

    def feature_points(self, root: int, final: bool) -> int:
        """Points a feature is worth to each of its majority players."""
        board = self.board
        kind = board.kind[root]
        if kind == "field":  # (first: the computer players value fields most often)
            return 3 * board.completed_cities_of_field(root)
        if kind == "road":
            return board.feature_size(root)
        if kind == "city":
            cells, pennants = board.feature_size(root), board.pennants[root]
            return cells + pennants if final else 2 * (cells + pennants)
        if kind in AREA_KINDS:
            own = 1 if kind == "cloister" else 2
            return own + board.occupied_around(root)
        return 0

    def feature_value(self, root: int, final: bool, player: int | None = None) -> int:
        """What a feature is worth to each of its majority players (to ``player``, if given: a pig
        counts only for its owner), every expansion's modifier included (``Expansion.value``, then
        ``Expansion.bonus``): the one value final scoring, mid-game scoring and the computer players
        use. An inn road unfinished at the end is worth 0 to whoever asks."""
        return self.feature_values([root], final, player)[0]

    def feature_values(self, roots: list[int], final: bool, player: int | None = None) -> list[int]:
        """``feature_value`` of each of ``roots`` (the computer players value every feature with a
        figure in every position they judge: the hooks are looked up once)."""
        feature_points, hooks, kinds = self.feature_points, self._hooks, self.board.kind
        if not hooks["value"] and not hooks["bonus"]:
            return [feature_points(root, final) for root in roots]
        out = []
        for root in roots:
            points = feature_points(root, final)
            # (only the hooks of the expansions that change this kind's value: Expansion.scored_kinds)
            value_key, bonus_key = KIND_HOOK_KEYS.get(kinds[root], ANY_KIND_HOOK_KEYS)
            for hook in hooks[value_key]:
                points = hook(self, root, final, points, player)
            if points:
                for hook in hooks[bonus_key]:
                    points += hook(self, root, final)
            out.append(points)
        return out

    def majority(self, root: int) -> list[int]:
        """Players with the most strength on a feature (all tied ones): a follower weighs 1, other kinds
        what they declare (a big follower 2, a builder or a pig nothing)."""
        standing = self.board.followers[root]
        if standing is None:
            return []
        if len(standing) == 1 and len(standing[0]) == 2:  # the usual case: one plain follower
            return [standing[0][0]]
        counts: dict[int, int] = {}
        kinds = self._figure_rules[0]
        for figure in standing:
            player = figure[0]
            if len(figure) == 2:
                counts[player] = counts.get(player, 0) + 1
            elif strength := kinds[figure[2]].strength:
                counts[player] = counts.get(player, 0) + strength
        if not counts:
            return []
        best = max(counts.values())
        return sorted(p for p, c in counts.items() if c == best)

    def score_feature(self, root: int, final: bool, events: list[Event]) -> None:
        """Score a feature for its majority and (during play) return its followers."""
        board = self.board
        winners = self.majority(root)
        if self._figure_rules[2]:  # a value that depends on who asks (a pig): each winner apart
            won = {p: self.feature_value(root, final, p) for p in winners}
        else:
            points = self.feature_value(root, final)
            won = {p: points for p in winners}
        for p, value in won.items():
            self.scores[p] += value
        event: Event = {
            "type": "scored",
            "feature": board.kind[root],
            "points": {self.players[p]: value for p, value in won.items()},
            "final": final,
            **self.describe_node(root),
        }
        if not final:
            returned = []
            for figure in board.clear_followers(root):
                self.return_figure(figure)
                returned.append(self.players[figure[0]])
            event["returned"] = returned
        events.append(event)

    def _end_game(self, events: list[Event]) -> None:
        board = self.board
        roots = board.figure_roots()
        roots.sort(key=lambda r: (_FINAL_ORDER.get(board.kind[r], 4), r))
        for root in roots:
            if self._figure_rules[1] and not self.majority(root):
                continue  # only figures that weigh nothing there (a pig whose farmers the plague took)
            self.score_feature(root, True, events)
        for hook in self._hooks["final_scoring"]:
            hook(self, events)
        self.step = "end"
        self.finished = True
        self.drawn = None
        self._placements = {}
        best = max(self.scores)
        events.append(
            {
                "type": "game_over",
                "scores": dict(zip(self.players, self.scores, strict=True)),
                "winners": [p for p, s in zip(self.players, self.scores, strict=True) if s == best],
            }
        )
