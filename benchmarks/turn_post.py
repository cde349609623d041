"""What the turn post lets a player find: ``python -m benchmarks.turn_post [GAMES]``.

Over whole seeded games of each set family (4 players, the reference greedy player), at every
decision that places a tile or a castle: how many legal cells no turn picture letters, the smallest
tile at 400 px wide, and how many pictures the post carries. "before" is the single picture of at
most 7 x 8 cells that the turn post had until 2026-11-27 (the frame that holds the last tile and the
most legal cells), "now" the turn pictures (``renderer.board.turn_frames``) as posted.
"""

from __future__ import annotations

import statistics
import sys

from benchmarks.table import print_grid
from engine import Game
from engine.ai import GreedyPlayer
from engine.expansions.families import NAMED_FAMILIES
from renderer.board import PHONE_WIDTH, TURN_WIDTH, _window, label_cells, turn_frames

# base, the rivers with every set that combines with them, the wheel with base and every set that
# combines with it (engine/expansions/families.py: built from the table of sets)
FAMILIES = NAMED_FAMILIES
BEFORE_COLS, BEFORE_ROWS = 7, 8  # the single turn picture's largest window before


def before_left_out(game: Game, legal: list[tuple[int, int]]) -> int:
    """Legal cells outside the single window of the former turn picture."""
    last = list(game.board.placements[-1].cells) if len(game.board.placements) > 1 else [(0, 0)]
    centre = (sum(x for x, _y in last) / len(last), sum(y for _x, y in last) / len(last))
    _x0, _y0, inside = _window(last + legal, last, legal, BEFORE_COLS, BEFORE_ROWS, centre)
    return len(legal) - len(inside)


def measure(sets: list[str], games: int) -> list[str]:
    decisions = legal_total = before = after = 0
    smallest = 10**9
    pictures: list[int] = []
    for seed in range(games):
        game = Game([f"P{i}" for i in range(4)], sets, seed=seed)
        player = GreedyPlayer(seed + 1000)
        while not game.finished:
            question = game.question()
            assert question is not None
            places = [o.move for o in question.options if o.move["type"] in ("tile", "castle")]
            cells = sorted({(m["x"], m["y"]) for m in places})
            if cells:
                frames = turn_frames(game, label_cells(cells))
                decisions += 1
                legal_total += len(cells)
                before += before_left_out(game, cells)
                after += sum(1 for c in cells if not any(f.contains(*c) for f in frames))
                smallest = min(smallest, min(f.cell for f in frames))
                pictures.append(len(frames))
            game.apply(player.choose(game))
    return [
        str(decisions), str(legal_total),
        f"{before} ({100 * before / legal_total:.0f}%)", f"{after} ({100 * after / legal_total:.0f}%)",
        f"{smallest * PHONE_WIDTH / TURN_WIDTH:.0f} px",
        f"{statistics.mean(pictures):.2f} / {max(pictures)}",
    ]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else 10
    rows = [[name, f"{games} games", *measure(sets, games)] for name, sets in FAMILIES.items()]
    print_grid(
        ["family", "games", "decisions", "legal cells", "unlettered before", "unlettered now", "smallest tile at 400",
         "pictures mean / max"],
        rows,
    )  # fmt: skip
    print("goal: 0 unlettered; tiles >= 32 px at 400 px wide")
    return 0


if __name__ == "__main__":
    sys.exit(main())
