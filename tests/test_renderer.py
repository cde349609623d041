"""Board pictures: sizes, figures where the state has them, every tile, determinism."""

import io

import pytest
from PIL import Image

from engine import Game
from engine.ai import GreedyPlayer, RandomPlayer
from engine.catalog import TILE_TYPES
from renderer import palette as pal
from renderer.board import frame_for, label_cells, png_bytes, render_board
from renderer.gallery import gallery
from renderer.preview import render_preview, spot_targets
from renderer.summary import (
    REPLAY_FRAME_MS,
    REPLAY_LAST_FRAME_MS,
    REPLAY_SPLIT_MS,
    render_final,
    replay_gif,
    replay_turn_ms,
)
from renderer.tile_art import spots, tile_image
from tests.helpers import meeple, play, tile, turn_frames


def finished_game(seed=3, players=3, sets=("base", "toll")) -> Game:
    game = Game([f"P{i}" for i in range(players)], list(sets), seed=seed)
    ais = [GreedyPlayer(seed + i) for i in range(players)]
    while not game.finished:
        game.apply(ais[game.actor].choose(game))
    return game


@pytest.mark.parametrize("tile_type", list(TILE_TYPES.values()), ids=lambda t: t.id)
def test_every_tile_renders_in_every_rotation(tile_type):
    images = [tile_image(tile_type, rot, 48) for rot in (0, 90, 180, 270)]
    w, h = images[0].size
    assert (w, h) == (48 * (1 + max(c[0] for c in tile_type.cells)), 48 * (1 + max(c[1] for c in tile_type.cells)))
    assert images[1].size == (h, w)
    if tile_type.distinct_rots != (0,):
        assert images[0].tobytes() != images[1].tobytes() or images[0].tobytes() != images[2].tobytes()
    assert len(spots(tile_type, 90, 48)) == len(tile_type.segments)


def test_the_gallery_shows_every_tile():
    img = gallery(size=32)
    assert img.width > 300 and img.height > 300


def test_a_meeple_is_drawn_in_its_player_colour_where_it_stands():
    game, _ = play(["base.U", "base.B"], [tile(1, 0), meeple("road:W")], players=("Ann", "Bob", "Cy"))
    game.apply(tile(0, 1))
    game.apply({"type": "pass"})  # Bob passes; Ann's thief stays on the road at (1,0)
    frame = frame_for([c for p in game.board.placements for c in p.cells])
    img = render_board(game, frame=frame, legend=False)  # the legend shows every colour
    p = game.board.placements[1]
    sx, sy = spots(p.tile, p.rot, frame.cell)[0]
    ox, oy = frame.origin(1, 0)
    size = frame.cell * frame.follower
    # Below the player's mark on the chest: the body, in the player's colour.
    assert img.getpixel((int(ox + sx), int(oy + sy + 0.25 * size))) == pal.PLAYERS[0]
    # Bob has no follower: his colour appears nowhere.
    assert pal.PLAYERS[1] not in {c for _, c in img.getcolors(1 << 20)}


def test_board_size_bounds_and_png_size_for_a_long_game():
    game = Game(["A", "B"], ["base", "toll"], seed=1)
    ai = RandomPlayer(1)
    while not game.finished:
        game.apply(ai.choose(game))
    img = render_board(game)
    assert max(img.size) <= 4096
    assert min(img.size) >= 400
    data = png_bytes(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 1024 * 1024


def test_a_150_tile_board_stays_within_discord_limits():
    from benchmarks.renderer import long_game

    game = long_game(150)
    assert len(game.board.placements) > 140
    img = render_board(game)
    assert max(img.size) <= 4096
    assert len(png_bytes(img)) <= 1024 * 1024


def test_legal_cells_are_labelled_and_framed():
    game = Game(["Ann", "Bob"], seed=2)
    labels = label_cells(list(game.legal_placements()))
    assert sorted(labels.values())[0] == "A"
    plain = render_board(game)
    marked = render_board(game, legal=labels)
    assert marked.size >= plain.size
    assert marked.tobytes() != plain.tobytes()


def test_label_cells_go_past_z():
    labels = label_cells([(x, 0) for x in range(30)])
    assert labels[(0, 0)] == "A" and labels[(25, 0)] == "Z" and labels[(26, 0)] == "AA"


def test_same_state_same_picture():
    a, b = finished_game(5, 2), finished_game(5, 2)
    assert png_bytes(render_board(a)) == png_bytes(render_board(b))


def test_preview_numbers_the_spots_in_panel_order():
    game = Game(["Ann", "Bob"], seed=2)
    (x, y), rots = max(game.legal_placements().items(), key=lambda kv: len(kv[1]))
    assert len(rots) >= 2
    img = render_preview(game, x, y)
    # One candidate (3 x 3 cells) per legal rotation, two side by side per row.
    assert img.width >= min(2, len(rots)) * 3 * 96
    assert img.height >= (len(rots) + 1) // 2 * 3 * 96
    placement = {"type": "tile", "x": x, "y": y, "rot": rots[0]}
    targets = spot_targets(game, placement)
    assert [m for _, m in targets] == game.figure_moves_after(placement)
    with pytest.raises(ValueError, match="no legal rotation"):
        render_preview(game, 50, 50)
    # Once the turn is chosen, the preview shows that one alone: the spots the panel numbers.
    chosen = render_preview(game, x, y, rot=rots[-1])
    assert chosen.width < img.width and (chosen.height < img.height or len(rots) <= 2)
    with pytest.raises(ValueError, match="no legal rotation"):
        render_preview(game, x, y, rot=next(r for r in (0, 90, 180, 270) if r not in rots))


def test_a_castle_is_previewed_like_a_tile():
    game = Game(["Ann", "Bob"], ["base", "castles"], pool=["base.B"], castles={"Ann": ["castles.konradsheim"]})
    img = render_preview(game, 1, 0, castle="castles.konradsheim")
    assert img.width > 4 * 96  # a double tile with its neighbours
    spots_ = spot_targets(game, {"type": "castle", "castle": "castles.konradsheim", "x": 1, "y": 0, "rot": 0})
    assert {"type": "meeple", "at": "castle"} in [m for _, m in spots_]


def test_final_picture_and_replay_animation():
    game = finished_game(7, 3)
    final = render_final(game)
    assert final.height > render_board(game).height
    gif = replay_gif(game.to_json())
    assert len(gif) < 8 * 1024 * 1024
    anim = Image.open(io.BytesIO(gif))
    assert anim.format == "GIF"
    # One picture per turn (the start, then each turn's end), each shown REPLAY_FRAME_MS in all.
    assert len(turn_frames(gif)) == game.turn + 1
    durations = []
    for k in range(anim.n_frames):
        anim.seek(k)
        durations.append(anim.info["duration"])
    turns, shown = [], 0
    for duration in durations:
        shown += duration
        if duration != REPLAY_SPLIT_MS:  # a turn's last frame
            turns.append(shown)
            shown = 0
    turn_ms = replay_turn_ms(game.turn)
    assert REPLAY_SPLIT_MS <= turn_ms <= REPLAY_FRAME_MS
    assert turns[:-1] == [turn_ms] * game.turn and durations[-1] == REPLAY_LAST_FRAME_MS
    assert sum(durations) <= 20_000  # a whole game in 20 s at most
    assert min(durations) >= REPLAY_SPLIT_MS  # no frame is too short to be honoured
    # A turn is split in two frames only where the second outlasts the first.
    assert (min(durations) == REPLAY_SPLIT_MS) == (turn_ms > 2 * REPLAY_SPLIT_MS)


def test_the_replay_follows_the_board_as_it_grows_and_a_long_game_lasts_20_seconds():
    """The first turns are drawn large (tiles >= 40 px at the 400 px a phone shows), the frame
    zooms out as the board grows (never in again), down to the final board's own frame; a
    6-player game of every set lasts at most 20 s and stays under Discord's limit."""
    from engine.ai import GreedyPlayer
    from engine.record import new_game
    from renderer.summary import replay_frame, zoomed

    sets = ["base", "river1", "river2", "castles", "ferries", "toll"]
    game = Game([f"P{i}" for i in range(6)], sets, seed=9)
    ais = [GreedyPlayer(9 + i) for i in range(6)]
    while not game.finished:
        game.apply(ais[game.actor].choose(game))
    record = game.to_json()
    canvas, _text = replay_frame(game)
    replay, frame, cells_seen = new_game(record), None, []
    for move in record["moves"]:
        replay.apply(move)
        frame = zoomed(frame, [c for p in replay.board.placements for c in p.cells], canvas)
        cells_seen.append(frame.cell)
    assert cells_seen[0] * 400 / canvas.size[0] >= 40  # the start, readable on a phone
    assert cells_seen == sorted(cells_seen, reverse=True)  # zooms out only
    assert frame is canvas or frame.cell >= canvas.cell
    assert 1 < len(set(cells_seen)) <= 8  # a few zooms, not one per turn
    data = replay_gif(record)
    anim = Image.open(io.BytesIO(data))
    total = 0
    for k in range(anim.n_frames):
        anim.seek(k)
        total += anim.info["duration"]
    assert total <= 20_000 and len(data) < 8 * 1024 * 1024
