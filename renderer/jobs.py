"""Picture jobs for a process pool: plain data in, encoded bytes out.

Every function is top level and takes only a game record (RECORD.md) and plain
values, so it pickles; the game is rebuilt from the record in the worker. The
last few rebuilt games are kept per process, keyed by a hash of the whole record
(two different records never share an entry).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from engine import Game, IllegalMove
from engine.language import speaking
from engine.record import load
from locales import translations
from renderer.board import chart_png_bytes, label_cells, png_bytes, render_board, render_turn_pieces
from renderer.preview import render_preview
from renderer.story import render_bag, render_story, story_title, tell
from renderer.summary import render_final
from renderer.summary import replay_gif as _replay_gif

CACHE_SIZE = 32  # games per worker process: enough for every game a busy bot plays at once
_games: OrderedDict[str, Game] = OrderedDict()
# The latest game of each setup (a record without its moves): the next turn's record of the same
# game replays only its new moves from a copy of it.
_latest: OrderedDict[str, tuple[list[Any], Game]] = OrderedDict()


def record_key(record: dict[str, Any]) -> str:
    """A hash of the whole record (setup and every move)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def game_of(record: dict[str, Any]) -> Game:
    """The game a record leads to, from the per-process cache or replayed.

    The cached game is shared: callers only read it (pictures never change a game).
    """
    key = record_key(record)
    game = _games.get(key)
    if game is None:
        game = _continued(record) or _replayed(record)
        _games[key] = game
        while len(_games) > CACHE_SIZE:
            _games.popitem(last=False)
    else:
        _games.move_to_end(key)
    return game


def _replayed(record: dict[str, Any]) -> Game:
    game, _events, error = load(record)
    if error is not None:
        raise ValueError(f"move {error[0]} of the record is illegal: {error[1]}")
    _remember(record, game)
    return game


def _continued(record: dict[str, Any]) -> Game | None:
    """The game, from a copy of the same game's latest cached position plus the new moves."""
    moves = record.get("moves") or []
    setup = record_key({k: v for k, v in record.items() if k != "moves"})
    known = _latest.get(setup)
    if known is None or len(known[0]) > len(moves) or moves[: len(known[0])] != known[0]:
        return None
    game = known[1].clone()
    try:
        for move in moves[len(known[0]) :]:
            game.apply(move)
    except IllegalMove:
        return None
    _remember(record, game)
    return game


def _remember(record: dict[str, Any], game: Game) -> None:
    setup = record_key({k: v for k, v in record.items() if k != "moves"})
    _latest[setup] = (list(record.get("moves") or []), game)
    _latest.move_to_end(setup)
    while len(_latest) > CACHE_SIZE:
        _latest.popitem(last=False)


def cell_labels(cells: Iterable[tuple[int, int]]) -> dict[str, str]:
    """The letters of the legal cells as the picture jobs take them ("x,y" -> label): the letters
    ``label_cells`` gives, which the panel, ``/carc place`` and the terminal read too."""
    return {f"{x},{y}": label for (x, y), label in label_cells(list(cells)).items()}


def _cells(legal: dict[str, str] | None) -> dict[tuple[int, int], str] | None:
    if not legal:
        return None
    out = {}
    for key, label in legal.items():
        x, y = key.split(",")
        out[(int(x), int(y))] = label
    return out


# Each job takes ``language``: the words inside the picture (legend, notes, labels) are in it.
def turn_pngs(
    record: dict[str, Any], legal: dict[str, str] | None, clocks: list[str] | None = None, *, language: str = "en"
) -> list[bytes]:
    """The turn pictures (``render_turn_pieces``: the first with the legend, then the pieces of the
    board holding the legal cells it could not show); ``legal`` maps "x,y" to a cell label;
    ``clocks``: each player's time bank in words, in seat order (a time-bank game)."""
    with speaking(translations(language)):
        return [png_bytes(img) for img in render_turn_pieces(game_of(record), _cells(legal), clocks)]


def board_png(
    record: dict[str, Any], region: Any = None, legal: dict[str, str] | None = None, *, language: str = "en"
) -> bytes:
    """The full board, or a region: "nw"/"ne"/"sw"/"se", [x, y] or [x, y, radius]; ``legal`` letters
    the cells of the current choice ("x,y" -> label)."""
    if isinstance(region, list):
        region = tuple(region)
    with speaking(translations(language)):
        return png_bytes(render_board(game_of(record), _cells(legal), region=region))


# A board wider or taller than this many tiles is also sent in quarters: its whole picture would show
# tiles under 40 px on a phone (Discord shows pictures ~400 px wide).
PIECES_FROM = 10


def board_pieces_png(
    record: dict[str, Any], legal: dict[str, str] | None = None, *, language: str = "en"
) -> list[bytes]:
    """The whole board, and its four quarters when it is too big to read whole on a phone; ``legal``
    letters the cells of the current choice ("x,y" -> label) on each."""
    game = game_of(record)
    cells = _cells(legal)
    with speaking(translations(language)):
        return [png_bytes(render_board(game, cells)), *_quarters(game, cells)]


def final_pieces_png(record: dict[str, Any], *, language: str = "en") -> list[bytes]:
    """The final board with the score chart, and its four quarters when it is too big to read
    whole on a phone (the final post shows both: the whole game at a glance, then readable)."""
    game = game_of(record)
    with speaking(translations(language)):
        return [png_bytes(render_final(game)), *_quarters(game)]


def _quarters(game: Game, legal: dict[tuple[int, int], str] | None = None) -> list[bytes]:
    cells = [c for p in game.board.placements for c in p.cells]
    cols = max(x for x, _y in cells) - min(x for x, _y in cells) + 1
    rows = max(y for _x, y in cells) - min(y for _x, y in cells) + 1
    if max(cols, rows) <= PIECES_FROM:
        return []
    quarters = ("nw", "ne", "sw", "se")
    return [png_bytes(render_board(game, legal, region=quarter, highlight_last=False)) for quarter in quarters]


def preview_png(
    record: dict[str, Any], x: int, y: int, castle: str | None = None, rot: int | None = None, *, language: str = "en"
) -> bytes:
    """The drawn tile (or a castle of the player's hand) at (x, y) in each legal rotation, or in
    the chosen one."""
    with speaking(translations(language)):
        try:
            return png_bytes(render_preview(game_of(record), x, y, castle=castle, rot=rot))
        except ValueError:  # the stored game has moved past that placement: no preview, not a failure
            return b""


def story_png(record: dict[str, Any], game_id: int, *, language: str = "en") -> bytes:
    """The story of a finished game: ranking, points by category, the scores turn by turn."""
    with speaking(translations(language)):
        story = tell(record)
        title = story_title(game_id, dict(zip(story.players, story.scores, strict=True)))
        return chart_png_bytes(render_story(story, title))


def bag_png(_record: dict[str, Any], counts: dict[str, int], title: str, *, language: str = "en") -> bytes:
    """What is left in the bag, as tiles with counts (the counts the service gives: never an order)."""
    with speaking(translations(language)):
        return png_bytes(render_bag(counts, title))


def final_png(record: dict[str, Any], *, language: str = "en") -> bytes:
    """The final board with the score chart."""
    with speaking(translations(language)):
        return png_bytes(render_final(game_of(record)))


def replay_gif(record: dict[str, Any], *, language: str = "en") -> bytes:
    """The animated replay of the game."""
    with speaking(translations(language)):
        return _replay_gif(record, game_of(record))
