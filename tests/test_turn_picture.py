"""The turn post's picture shows the whole choice: every legal cell lettered (in pieces when the board
is too big), the tile in hand drawn big, what each player holds, and where a castle may lie."""

from PIL import ImageChops

from engine import Game
from engine.catalog import TILE_TYPES
from engine.moves import HeldItem
from renderer import palette as pal
from renderer.board import (
    HAND_TILE_AT_PHONE,
    PHONE_WIDTH,
    TURN_SCALE,
    TURN_TEXT,
    label_cells,
    render_turn,
    turn_frame,
)
from renderer.tile_art import tile_image
from tests.helpers import tile

CASTLE_SETS = ["base", "castles"]


def castle_game() -> Game:
    return Game(["Ann", "Bob"], CASTLE_SETS, seed=4, castles={"Ann": ["castles.eltz"], "Bob": []})


def test_a_hand_holds_the_followers_left_and_each_castle_by_name():
    game = Game(["Ann", "Bob"], CASTLE_SETS, pool=["base.E", "base.U"], castles={"Ann": ["castles.eltz"], "Bob": []})
    assert game.hand(0) == [HeldItem("follower", 7), HeldItem("castle", 1, "castle Eltz")]
    game.apply({"type": "draw"})
    game.apply(tile(0, -1, 180))  # a city cap on the start tile's city
    assert game.question().kind == "figure"
    farmer = next(m for m in game.legal_moves() if m["type"] == "meeple" and m["at"].startswith("field"))
    game.apply(farmer)  # a farmer stays till the end
    assert game.hand(0) == [HeldItem("follower", 6), HeldItem("castle", 1, "castle Eltz")]
    assert game.hand(1) == [HeldItem("follower", 7)]


def test_footprints_give_every_cell_a_castle_may_cover_from_each_offered_cell():
    game = castle_game()
    assert game.step == "draw"
    footprints = game.footprints()
    castle_moves = [m for m in game.legal_moves() if m["type"] == "castle"]
    assert castle_moves and set(footprints) == {(m["x"], m["y"]) for m in castle_moves}
    for m in castle_moves:
        offsets = TILE_TYPES[m["castle"]].rotations[m["rot"] // 90].offsets
        covered = {(m["x"] + dx, m["y"] + dy) for dx, dy in offsets}
        assert len(covered) == 2 and covered <= footprints[(m["x"], m["y"])]
    game.apply({"type": "draw"})  # the tile step places a one-cell tile: nothing to outline
    assert game.footprints() == {}


def _area_colours(game: Game, legal: dict) -> set:
    img = render_turn(game, legal)
    frame, _left_out = turn_frame(game, legal)
    return {c for _n, c in img.crop((0, 0, *frame.size)).convert("RGB").getcolors(1 << 20)}


def test_the_castle_step_shows_which_way_each_castle_may_lie():
    game = castle_game()
    legal = label_cells(list(game.footprints()))
    assert pal.CASTLE in _area_colours(game, legal)  # the tabs: no castle stands on the board yet
    base = Game(["Ann", "Bob"], ["base"], seed=4)
    assert pal.CASTLE not in _area_colours(base, label_cells(list(base.legal_placements())))


def test_the_tile_in_hand_is_drawn_in_the_legend_at_least_80_px_wide_at_400():
    game = Game(["Ann", "Bob"], ["base"], seed=4)
    legal = label_cells(list(game.legal_placements()))
    img = render_turn(game, legal).convert("RGB")
    frame, _left_out = turn_frame(game, legal)
    side = int(HAND_TILE_AT_PHONE * TURN_TEXT / (TURN_TEXT / TURN_SCALE))
    assert side * PHONE_WIDTH / img.width >= 80
    pad, row = int(6 * TURN_SCALE), int(TURN_TEXT * 1.6)
    art = tile_image(game.drawn, 0, side).convert("RGB")
    x, y = pad, frame.size[1] + pad + row
    assert ImageChops.difference(img.crop((x, y, x + side, y + side)), art).getbbox() is None
    # Once the tile is placed (the figure step), there is no tile in hand to draw.
    game.apply(tile(*next(iter(legal)), rot=game.legal_placements()[next(iter(legal))][0]))
    later = render_turn(game).convert("RGB")
    frame, _ = turn_frame(game, None)
    assert ImageChops.difference(later.crop((x, frame.size[1] + pad + row, x + side, frame.size[1] + pad + row + side)),
                                 art).getbbox() is not None  # fmt: skip


def test_the_legend_shows_castles_in_hand_only_for_who_holds_them():
    game = castle_game()
    img = render_turn(game).convert("RGB")
    frame, _ = turn_frame(game, None)
    band = {c for _n, c in img.crop((0, frame.size[1], img.width, img.height)).getcolors(1 << 20)}
    assert pal.CASTLE in band
    none_held = Game(["Ann", "Bob"], CASTLE_SETS, seed=4, castles={"Ann": [], "Bob": []})
    img = render_turn(none_held).convert("RGB")
    frame, _ = turn_frame(none_held, None)
    band = {c for _n, c in img.crop((0, frame.size[1], img.width, img.height)).getcolors(1 << 20)}
    assert pal.CASTLE not in band


def test_tables_and_brackets_keep_their_tints_once_encoded():
    """The board's fixed palette turned the promotion/relegation and winner tints grey: pictures that
    are not boards are encoded in a palette of their own."""
    import io

    from PIL import Image

    from renderer.board import chart_png_bytes
    from renderer.standings import DOWN_BG, UP_BG, DivisionRow, render_tables

    rows = [DivisionRow(i, f"P{i}", 5, 3, 1, 1, 7, 120, 1040, -12, False, zone)
            for i, zone in enumerate(["up", None, None, "down"], start=1)]  # fmt: skip
    encoded = Image.open(io.BytesIO(chart_png_bytes(render_tables("League · season 1", [("Division 1", rows)]))))
    colours = {c for _n, c in encoded.convert("RGB").getcolors(1 << 20)}
    assert UP_BG in colours and DOWN_BG in colours


def test_the_story_shares_a_place_between_tied_players_and_keeps_the_end_game_apart():
    from renderer.story import ranks, render_story, story_title, tell

    assert ranks([61, 61, 21, 48]) == [1, 1, 4, 3]
    game, events = _finished_base_game()
    story = tell(game.to_json())
    final_points = [e["points"] for e in events if e["type"] == "scored" and e.get("final")]
    final = [sum(p.get(name, 0) for p in final_points) for name in game.players]
    assert story.final == final and any(final)  # the farms and the unfinished features at the end
    # A title too long for one line is written whole, on more lines: the picture grows.
    short = render_story(story, "Game #7: Ann wins")
    long = render_story(story, "Game #7: " + ", ".join(["Bartholomew Longname"] * 3) + " share the win")
    assert long.height > short.height
    assert story_title(7, {"Ann": 5, "Bob": 5}) == "Game #7: Ann, Bob share the win"


def _finished_base_game() -> tuple[Game, list]:
    from engine.ai import GreedyPlayer

    game = Game(["Ann", "Bob"], ["base"], seed=11)
    players = [GreedyPlayer(i) for i in range(2)]
    events = list(game.start_events)
    while not game.finished:
        events += game.apply(players[game.actor].choose(game))
    return game, events


def test_followers_stay_readable_in_the_replay_of_a_big_board():
    from engine.ai import RandomPlayer
    from renderer.summary import REPLAY_FOLLOWER_PX, REPLAY_SIDE, replay_frame

    game = Game(["Ann", "Bob", "Cy", "Dee"], ["base", "river1", "river2", "castles"], seed=2)
    player = RandomPlayer(3)
    while not game.finished:
        game.apply(player.choose(game))
    frame, _text = replay_frame(game)
    assert frame.cell <= 40  # a big board: small tiles at the end
    follower = frame.cell * frame.follower
    assert follower >= REPLAY_FOLLOWER_PX
    assert follower * PHONE_WIDTH / REPLAY_SIDE >= 7  # px where Discord shows the animation 400 px wide


def test_the_players_mark_on_a_turn_picture_follower_is_6_px_at_400():
    from renderer.board import FOLLOWER_AT_PHONE
    from renderer.figures import meeple_stamp

    size = round(FOLLOWER_AT_PHONE * TURN_SCALE)
    stamp = meeple_stamp(0, size, False).convert("RGB")
    mark = pal.outline_for(pal.PLAYERS[0])  # the mark is drawn in the outline's colour, inside the body
    centre_row = stamp.height // 2
    run = [x for x in range(stamp.width) if stamp.getpixel((x, centre_row)) == mark]
    inner = [x for x in run if abs(x - stamp.width / 2) < size * 0.2]  # not the arms' outline
    assert (max(inner) - min(inner) + 1) * PHONE_WIDTH / (PHONE_WIDTH * TURN_SCALE) >= 6


def test_the_bag_picture_counts_a_tiles_drawing_variants_together():
    from renderer.story import render_bag

    apart = render_bag({"base.U": 2, "base.U.farmhouse": 1, "base.E": 3, "base.D": 1, "base.D.farmhouse": 1,
                        "base.K": 1, "base.K.stable": 1}, "Bag")  # fmt: skip
    together = render_bag({"base.U": 3, "base.E": 3, "base.D": 2, "base.K": 2}, "Bag")
    assert apart.tobytes() == together.tobytes()


def test_a_hand_holds_every_kind_of_figure_and_the_goods_taken():
    from engine.expansions.traders import _state as traders_state

    game = Game(["Ann", "Bob"], ["base", "inns", "traders"], seed=4)
    kinds = [item.kind for item in game.hand(0)]
    assert kinds[0] == "follower" and {"big", "builder", "pig"} <= set(kinds)
    assert all(item.number == 1 for item in game.hand(0) if item.kind in ("big", "builder", "pig"))
    traders_state(game).goods[0]["wine"] = 2  # as a completed city with two wine tokens leaves them
    assert HeldItem("wine", 2) in game.hand(0) and all(i.kind != "wine" for i in game.hand(1))
    from renderer.board import hand_icon

    assert all(hand_icon(item.kind) is not None for item in game.hand(0))  # each kind has its icon


def test_a_long_name_shrinks_before_it_is_cut_in_tables_and_brackets():
    from renderer.standings import BODY_SIZE, NAME_SIZE_MIN, fit_shrunk
    from renderer.tile_art import font

    assert fit_shrunk("Ann", 200, BODY_SIZE, NAME_SIZE_MIN) == ("Ann", BODY_SIZE)
    name = "Bartholomew Smith"  # 17 letters: cut at 11 before, in the division table's 196 px at 26 px
    text, size = fit_shrunk(name, 210, BODY_SIZE, NAME_SIZE_MIN)
    assert text == name and NAME_SIZE_MIN <= size < BODY_SIZE and font(size).getlength(name) <= 210
    text, size = fit_shrunk(name * 3, 210, BODY_SIZE, NAME_SIZE_MIN)
    assert text.endswith("…") and size == NAME_SIZE_MIN
