"""``python -m renderer.samples DIR``: the README's sample pictures, made the same way each time
(fixed seeds, the reference player), so that the art can be compared before and after a change."""

from __future__ import annotations

import sys
from pathlib import Path

from engine import Game
from engine.ai import GreedyPlayer
from renderer.board import label_cells, png_bytes, render_board, render_turn

SAMPLES = {
    "turn-base": (["base"], 4, 7, 30),
    "turn-rivers": (["base", "river1", "river2", "castles", "ferries", "toll"], 3, 3, 40),
    "turn-wheel": (["base", "wheel", "castles", "toll"], 3, 5, 30),
}
BOARD = ("board-rivers", ["base", "river1", "river2", "castles", "ferries", "toll"], 3, 3, 75)


def played(sets: list[str], players: int, seed: int, turns: int) -> Game:
    game = Game([f"Player{i}" for i in range(players)], sets, seed=seed)
    player = GreedyPlayer(seed)
    while not game.finished and game.turn <= turns:
        game.apply(player.choose(game))
    return game


def write_samples(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, (sets, players, seed, turns) in SAMPLES.items():
        game = played(sets, players, seed, turns)
        question = game.question()
        assert question is not None  # the samples stop before the game ends
        cells = sorted({(o.move["x"], o.move["y"]) for o in question.options if o.move["type"] == "tile"})
        path = folder / f"{name}.png"
        path.write_bytes(png_bytes(render_turn(game, label_cells(cells))))
        out.append(path)
    name, sets, players, seed, turns = BOARD
    path = folder / f"{name}.png"
    path.write_bytes(png_bytes(render_board(played(sets, players, seed, turns))))
    out.append(path)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m renderer.samples DIR", file=sys.stderr)
        return 2
    for path in write_samples(Path(args[0])):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
