"""``python -m renderer.samples DIR``: the README's sample pictures, made the same way each time
(fixed seeds, the reference player), so that the art can be compared before and after a change."""

from __future__ import annotations

import sys
from pathlib import Path

from engine import Game
from engine.ai import GreedyPlayer
from engine.language import speaking
from locales import translations
from renderer.board import label_cells, png_bytes, render_board, render_turn_pieces
from renderer.preview import render_preview

# name: (sets, players, seed, turns, language); a turn picture's pieces are written as NAME-2.png...
SAMPLES = {
    "turn-base": (["base"], 4, 7, 30, "en"),
    "turn-rivers": (["base", "river1", "river2", "castles", "ferries", "toll"], 3, 3, 40, "en"),
    "turn-late-fr": (["base", "river1", "river2", "castles", "ferries", "toll"], 4, 3, 60, "fr"),
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
    for name, (sets, players, seed, turns, language) in SAMPLES.items():
        game = played(sets, players, seed, turns)
        question = game.question()
        assert question is not None  # the samples stop before the game ends
        cells = sorted({(o.move["x"], o.move["y"]) for o in question.options if o.move["type"] == "tile"})
        with speaking(translations(language)):
            pictures = render_turn_pieces(game, label_cells(cells))
            for k, img in enumerate(pictures, start=1):
                path = folder / (f"{name}.png" if k == 1 else f"{name}-{k}.png")
                path.write_bytes(png_bytes(img))
                out.append(path)
            if name == "turn-base":  # the preview of the cell with the most ways to turn the tile
                (x, y), _rots = max(game.legal_placements().items(), key=lambda kv: (len(kv[1]), kv[0]))
                path = folder / "preview-base.png"
                path.write_bytes(png_bytes(render_preview(game, x, y)))
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
