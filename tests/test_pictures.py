"""Pictures a phone can read: measured sizes at 400 px wide, the legend, colour-blind
distances, upright symbols, previews, the replay GIF and the picture jobs."""

import io
import itertools
import json
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import Game
from engine.ai import GreedyPlayer
from engine.catalog import TILE_TYPES
from renderer import jobs
from renderer import palette as pal
from renderer.board import (
    PHONE_WIDTH,
    TURN_ZOOM_COLS,
    TURN_ZOOM_ROWS,
    label_cells,
    png_bytes,
    region_cells,
    render_board,
    render_turn,
    render_turn_pieces,
    turn_frame,
)
from renderer.board import turn_frames as turn_frames_of
from renderer.colour_vision import VISIONS, delta_e, simulate, worst_delta_e
from renderer.preview import number_positions, number_radius, placements_at, render_preview
from renderer.summary import REPLAY_MIN_WIDTH, replay_gif
from renderer.tile_art import font, tile_image, wheel_icon_centre
from tests.helpers import meeple, play, tile, turn_frames

SETS = {
    "base": ["base"],
    "rivers": ["base", "river1", "river2", "castles", "ferries", "toll"],
    "wheel": ["base", "wheel", "castles", "ferries", "toll"],
}


def game_at_tile_step(sets: list[str], seed: int, players: int, turns: int) -> Game:
    """A seeded greedy game played ``turns`` turns, stopped where a tile must be placed."""
    game = Game([f"Player{i}" for i in range(players)], sets, seed=seed)
    ais = [GreedyPlayer(seed + i) for i in range(players)]
    while not game.finished and (game.turn < turns or game.step != "tile"):
        game.apply(ais[game.actor].choose(game))
    return game


def ink_rows(img: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixel rows of ``img`` hold ``colour``."""
    rgb = img.convert("RGB")
    return sum(1 for y in range(rgb.height) if any(rgb.getpixel((x, y)) == colour for x in range(rgb.width)))


@pytest.mark.parametrize("name", list(SETS))
@pytest.mark.parametrize("turns", [8, 40])
def test_turn_picture_measured_at_400_px(name, turns):
    game = game_at_tile_step(SETS[name], seed=5, players=4, turns=turns)
    legal = label_cells(list(game.legal_placements()))
    img = render_turn(game, legal)
    frame, _left_out = turn_frame(game, legal)
    scale = PHONE_WIDTH / img.width
    assert frame.cell * scale >= 32  # a tile at 400 px wide
    # A cell label, measured: the ink of the first label inside its cell (the dashed border left out).
    (x, y), label = next((c, v) for c, v in legal.items() if frame.contains(*c))
    ox, oy = frame.origin(x, y)
    s = frame.cell
    inner = img.crop((ox + s // 5, oy + s // 5, ox + s - s // 5, oy + s - s // 5))
    assert ink_rows(inner, pal.LEGAL) * scale >= 11, label
    # Coordinates use the same font size: capitals and digits >= 11 px tall at 400 px.
    left, top, right, bottom = ImageDraw.Draw(img).textbbox((0, 0), "0", font=font(frame.text))
    assert (bottom - top) * scale >= 11
    assert len(png_bytes(img)) <= 300 * 1024


def test_a_follower_on_the_turn_picture_is_at_least_14_px_at_400():
    game, _ = play(["base.U", "base.B", "base.E"], [tile(1, 0), meeple("road:W")], players=("Ann", "Bob", "Cy"))
    legal = label_cells(list(game.legal_placements()))
    img = render_turn(game, legal)
    frame, _ = turn_frame(game, legal)
    area = img.crop((0, 0, *frame.size))  # the legend below has Ann's colour too
    assert ink_rows(area, pal.PLAYERS[0]) * PHONE_WIDTH / img.width >= 14


@pytest.mark.parametrize("name", list(SETS))
def test_every_legal_cell_is_lettered_in_a_turn_picture_with_tiles_of_32_px(name):
    game = game_at_tile_step(SETS[name], seed=5, players=4, turns=55)
    legal = label_cells(list(game.legal_placements()))
    frames = turn_frames_of(game, legal)
    assert all(frames[0].contains(*c) for c in game.board.placements[-1].cells)
    for c in legal:
        assert any(f.contains(*c) for f in frames), c
    pictures = render_turn_pieces(game, legal)
    assert len(pictures) == len(frames)
    for frame, img in zip(frames, pictures, strict=True):
        assert frame.cell * PHONE_WIDTH / img.width >= 32
    # The first frame holds what fits of the legal cells: a window no larger than the zoom allows.
    assert frames[0].cols <= TURN_ZOOM_COLS and frames[0].rows <= TURN_ZOOM_ROWS


def test_the_turn_picture_zooms_out_before_it_splits():
    game = game_at_tile_step(SETS["base"], seed=5, players=4, turns=12)
    legal = label_cells(list(game.legal_placements()))
    frames = turn_frames_of(game, legal)
    assert len(frames) == 1 and all(frames[0].contains(*c) for c in legal)
    first, _ = turn_frame(game, legal)
    assert first == frames[0]


@pytest.mark.parametrize("players", [2, 6])
def test_every_picture_has_a_legend_with_every_player(players):
    game = game_at_tile_step(SETS["base"], seed=3, players=players, turns=6)
    for img, area_h in (
        (render_turn(game), turn_frame(game, None)[0].size[1]),
        (render_board(game, legend=True), render_board(game, legend=False).height),
    ):
        band = img.crop((0, area_h, img.width, img.height)).convert("RGB")
        colours = {c for _, c in band.getcolors(1 << 20)}
        for i in range(players):
            assert pal.PLAYERS[i] in colours, f"player {i}'s swatch is missing"
        assert pal.TURN_MARK in colours  # whose turn it is


def test_legend_text_names_each_player_with_the_score():
    from renderer.board import legend_lines

    game = game_at_tile_step(SETS["base"], seed=3, players=3, turns=12)
    lines = legend_lines(game)
    assert [t for _, t, _ in lines] == [f"{n}  {s}" for n, s in zip(game.players, game.scores, strict=True)]
    assert [acting for _, _, acting in lines] == [i == game.actor for i in range(3)]


def test_player_colours_are_apart_under_three_colour_blindness_simulations():
    for a, b in itertools.combinations(pal.PLAYERS, 2):
        assert worst_delta_e(a, b) >= 25, (a, b, [round(delta_e(a, b, v), 1) for v in VISIONS])
    assert len(set(pal.SHAPES)) == len(pal.PLAYERS)  # a second cue besides the colour


def test_fields_and_cities_are_apart_under_the_simulations_as_drawn():
    art = tile_image(TILE_TYPES["base.E"], 0, 96).convert("RGB")  # a city on the north edge, field below

    def most_of(box):  # what the area mostly is (rooftops and tufts of grass lie on it)
        return max(art.crop(box).getcolors(96 * 96), key=lambda c: c[0])[1]

    city, field = most_of((0, 0, 96, 16)), most_of((0, 64, 96, 96))
    assert (city, field) == (pal.CITY, pal.FIELD)
    assert worst_delta_e(city, field) >= 20
    # The art's own details stay readable on what they lie on, under every simulation too.
    for detail, ground, least in [(pal.ROOF, pal.CITY, 15), (pal.WALL, pal.CITY, 20), (pal.RIPPLE, pal.RIVER, 15),
                                  (pal.RIVER_BANK, pal.FIELD, 15), (pal.FIELD_TUFT, pal.FIELD, 4)]:  # fmt: skip
        assert worst_delta_e(detail, ground) >= least, (detail, ground)


def test_a_known_deuteranopia_value():
    # Pure red under deuteranopia (Machado 2009) turns olive, about (162, 144, 0): a check on the matrices.
    seen = simulate((255, 0, 0), "deuteranopia")
    assert all(abs(a - b) < 4 for a, b in zip(seen, (162, 144, 0), strict=True)), seen
    assert delta_e((255, 0, 0), (255, 0, 0), "tritanopia") == 0


@pytest.mark.parametrize("tile_id", ["wheel.A.2", "wheel.B.1", "wheel.F.3"])
def test_wheel_icon_digits_stand_upright_in_every_rotation(tile_id):
    t = TILE_TYPES[tile_id]
    s = 96
    r = int(s * 0.1)  # inside the icon's circle

    def icon(rot):
        cx, cy = wheel_icon_centre(t, rot, s)
        return tile_image(t, rot, s).crop((int(cx) - r, int(cy) - r, int(cx) + r, int(cy) + r))

    upright = icon(0)
    assert upright.tobytes() == icon(180).tobytes()
    assert upright.tobytes() == icon(90).tobytes()
    # And the digit is not symmetric: turning it would show.
    assert upright.tobytes() != upright.transpose(Image.Transpose.ROTATE_180).tobytes()


def test_previews_on_a_wheel_game_do_not_crash_and_leave_crowns_undrawn():
    game = game_at_tile_step(SETS["wheel"], seed=4, players=3, turns=10)
    rendered = 0
    for _ in range(15):
        for x, y in game.legal_placements():
            render_preview(game, x, y)
            rendered += 1
        ais = GreedyPlayer(1)
        game.apply(ais.choose(game))
        while game.step != "tile" and not game.finished:
            game.apply(ais.choose(game))
    assert rendered > 15


def test_castle_spot_numbers_are_apart_and_both_cells_shown():
    game = Game(["Ann", "Bob"], ["base", "castles"], pool=["base.B"], castles={"Ann": ["castles.konradsheim"]})
    img = render_preview(game, 1, 0, castle="castles.konradsheim")
    for move in placements_at(game, 1, 0, "castles.konradsheim"):
        spots_ = number_positions(game, move, 96)
        assert len(spots_) == 8
        assert [n for n, _, _ in spots_] == list(range(1, 9))
        r = number_radius(96)
        for (_, a, _), (_, b, _) in itertools.combinations(spots_, 2):
            assert ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 >= 2 * r
        art = tile_image(TILE_TYPES["castles.konradsheim"], move["rot"], 96)
        assert max(art.size) == 192  # both cells
        assert all(0 <= x <= art.width and 0 <= y <= art.height for _, (x, y), _ in spots_)
    assert img.width >= 2 * 96 * 3


def test_regions_of_the_full_board():
    game = game_at_tile_step(SETS["base"], seed=5, players=2, turns=50)
    full = render_board(game)
    quarters = [render_board(game, region=q) for q in ("nw", "ne", "sw", "se")]
    placed = {c for p in game.board.placements for c in p.cells}
    covered = set().union(*(region_cells(game, q) for q in ("nw", "ne", "sw", "se")))
    assert placed <= covered
    around = render_board(game, region=(0, 0, 2))
    assert len(region_cells(game, (0, 0, 2))) == 25
    assert all(q.width * q.height < full.width * full.height for q in quarters)
    assert around.width < full.width
    with pytest.raises(ValueError):
        region_cells(game, "middle")


def test_replay_gif_shows_legend_and_the_follower_with_its_tile():
    game, _ = play(["base.U", "base.B", "base.E"], [tile(1, 0), meeple("road:W")], players=("Ann", "Bob"))
    first, frame = turn_frames(replay_gif(game.to_json()))  # the start, then Ann's turn: tile and follower together
    colours = {c for _, c in frame.getcolors(1 << 20)}
    assert pal.PLAYERS[0] in colours and pal.PLAYERS[1] in colours and pal.TURN_MARK in colours
    # Ann's follower stands on the board part (above the legend): more of her colour than the swatch alone.
    ann = sum(n for n, c in frame.getcolors(1 << 20) if c == pal.PLAYERS[0])
    ann_before = sum(n for n, c in first.getcolors(1 << 20) if c == pal.PLAYERS[0])
    assert ann > ann_before


def test_replay_gif_of_a_six_player_game_with_every_set_is_under_8_mib():
    game = Game([f"Player{i}" for i in range(6)], SETS["rivers"], seed=9)
    ais = [GreedyPlayer(i) for i in range(6)]
    while not game.finished:
        game.apply(ais[game.actor].choose(game))
    gif = replay_gif(game.to_json())
    assert len(gif) < 8 * 1024 * 1024
    assert Image.open(io.BytesIO(gif)).n_frames > 60


def test_picture_jobs_take_plain_data_and_key_the_cache_by_the_whole_record():
    game = game_at_tile_step(SETS["base"], seed=2, players=2, turns=5)
    record = game.to_json()
    legal = {f"{x},{y}": v for (x, y), v in label_cells(list(game.legal_placements())).items()}
    data = jobs.turn_pngs(record, legal)
    assert data and all(png[:8] == b"\x89PNG\r\n\x1a\n" for png in data)
    assert jobs.board_png(record, [0, 0, 2])[:4] == b"\x89PNG"
    (x, y) = next(iter(game.legal_placements()))
    assert jobs.preview_png(record, x, y)[:4] == b"\x89PNG"
    # Once the stored game has moved past the placement (a panel a step behind), no preview: no failure.
    rot = game.legal_placements()[(x, y)][0]
    placed = game.clone()
    placed.apply({"type": "tile", "x": x, "y": y, "rot": rot})
    assert jobs.preview_png(placed.to_json(), x, y, None, rot) == b""
    # Same JSON length and move count, different game (a player renamed): a different key and game.
    renamed = json.loads(json.dumps(record).replace("Player0", "Player7"))
    assert len(json.dumps(renamed)) == len(json.dumps(record))
    assert len(renamed["moves"]) == len(record["moves"])
    assert jobs.record_key(renamed) != jobs.record_key(record)
    assert jobs.game_of(renamed).players[0] == "Player7"
    assert jobs.game_of(record).players[0] == "Player0"
    assert jobs.game_of(record) is jobs.game_of(dict(record))


def test_the_last_placed_tile_is_framed_thick_on_the_turn_picture():
    game = game_at_tile_step(SETS["base"], seed=5, players=3, turns=20)
    legal = label_cells(list(game.legal_placements()))
    img = render_turn(game, legal)
    frame, _ = turn_frame(game, legal)
    (x, y) = game.board.placements[-1].cells[0]
    ox, oy = frame.origin(x, y)
    s = frame.cell
    ring = img.crop((ox, oy, ox + s, oy + s)).convert("RGB")
    yellow = sum(n for n, c in ring.getcolors(1 << 16) if c == pal.LAST_PLACED)
    # A yellow band at least 3 px wide at 400 px all round the tile.
    band = 3 * img.width / PHONE_WIDTH
    assert yellow >= 4 * (s - 2 * band) * band


def test_a_later_record_of_the_same_game_continues_from_the_cached_position():
    from engine import Game
    from engine.ai import RandomPlayer
    from renderer import jobs

    game = Game(["Ann", "Bob"], ["base"], seed=12)
    ai = RandomPlayer(2)
    for _ in range(20):
        game.apply(ai.choose(game))
    early = game.to_json()
    for _ in range(20):
        game.apply(ai.choose(game))
    later = game.to_json()
    first = jobs.game_of(early)
    continued = jobs.game_of(later)
    assert continued is not first and first.moves == early["moves"]  # the cached game was copied, not changed
    assert continued.to_json() == later and continued.scores == game.scores
    assert jobs.game_of(later) is continued


def whole_replay_frames(record: dict) -> list[Image.Image]:
    """Each turn's replay frame drawn whole, the simple way: tiles, every figure, the
    last tile's frame and the legend, on a fresh picture (what the streamed GIF must show)."""
    from engine.record import new_game
    from renderer.board import FIXED_PALETTE, draw_area, draw_figures, legend_band, outline_cells
    from renderer.summary import replay_frame, zoomed

    final = new_game(record)
    for move in record["moves"]:
        final.apply(move)
    canvas, text = replay_frame(final)
    digits = len(str(max(final.scores)))
    game = new_game(record)
    frame = None

    def whole() -> Image.Image:
        nonlocal frame
        frame = zoomed(frame, [c for p in game.board.placements for c in p.cells], canvas)
        img = Image.new("RGB", canvas.size, pal.MARGIN_BG)
        img.paste(draw_area(game, frame, None, [], False, figures_too=False, both_sides=True))
        for p in game.board.placements:
            art = tile_image(p.tile, p.rot, frame.cell)
            img.paste(art, frame.origin(min(c[0] for c in p.cells), min(c[1] for c in p.cells)), art)
        draw_figures(img, game, frame)
        if len(game.board.placements) > 1:
            last = game.board.placements[-1].cells
            outline_cells(ImageDraw.Draw(img), frame, last, pal.LAST_PLACED, max(2, frame.cell // 12))
        band = legend_band(game, img.width, text, score_digits=digits)
        out = Image.new("RGB", (img.width, img.height + band.height))
        out.paste(img, (0, 0))
        out.paste(band, (0, img.height))
        return out.quantize(palette=FIXED_PALETTE, dither=Image.Dither.NONE).convert("RGB")

    frames = [whole()]
    for move in record["moves"]:
        turn = game.turn
        game.apply(move)
        if game.turn != turn or game.finished:
            frames.append(whole())
    return frames


def narrow_game(seed: int, columns: int) -> Game:
    """A 2-player base game kept to ``columns`` columns where it can be: a board a few
    tiles wide and many tall."""
    rng = random.Random(seed)
    game = Game(["Ann", "Bob"], ["base"], seed=seed)
    ai = GreedyPlayer(seed)
    while not game.finished:
        if game.step == "tile":
            placements = game.tile_placements()
            inside = sorted(c for c in placements if 0 <= c[0] < columns) or sorted(placements)
            x, y = rng.choice(inside)
            game.apply({"type": "tile", "x": x, "y": y, "rot": placements[(x, y)][0]})
        else:
            game.apply(ai.choose(game))
    return game


@pytest.mark.parametrize(
    ("name", "players", "seed"), [("base", 2, 4), ("rivers", 5, 11), ("wheel", 4, 6), ("narrow", 2, 28)]
)
def test_replay_gif_frames_equal_the_turns_drawn_whole(name, players, seed):
    """The GIF streams only what changed each turn; decoded, every turn must be exactly
    the picture drawn whole (figures that left, the moved pig, ferries, tollhouses, a
    narrow board widened with empty columns for its legend...)."""
    if name == "narrow":
        game = narrow_game(seed, columns=4)
    else:
        game = Game([f"Player{i}" for i in range(players)], SETS[name], seed=seed)
        ais = [GreedyPlayer(seed + i) for i in range(players)]
        while not game.finished:
            game.apply(ais[game.actor].choose(game))
    record = game.to_json()
    expected = whole_replay_frames(record)
    turns = turn_frames(replay_gif(record))
    assert len(turns) == len(expected) and turns[0].width >= REPLAY_MIN_WIDTH
    for k, (shown, drawn) in enumerate(zip(turns, expected, strict=True)):
        assert shown.size == drawn.size, f"turn {k}: {shown.size} shown, {drawn.size} drawn"
        assert shown.tobytes() == drawn.tobytes(), f"turn {k}: {ImageChops.difference(shown, drawn).getbbox()} differs"


def test_tile_art_fills_fields_as_pillows_flood_fill_does(monkeypatch):
    """The span fill that shades every other field paints exactly Pillow's flood fill."""
    from renderer import tile_art

    def pillows(img, seed, colour):
        ImageDraw.floodfill(img, seed, colour, thresh=0)

    for size in (30, 57):
        for tile_type in list(TILE_TYPES.values()):
            ours = tile_art._draw_tile(tile_type, size)
            with monkeypatch.context() as patch:
                patch.setattr(tile_art, "flood_fill", pillows)
                theirs = tile_art._draw_tile(tile_type, size)
            assert ours.tobytes() == theirs.tobytes(), (tile_type.id, size)


def test_a_turn_split_in_two_frames_shows_its_final_pixels_in_each():
    """The first frame of a split turn draws a box of the turn's final picture: its pixels
    there are the ones the turn ends with, and it holds for REPLAY_SPLIT_MS."""
    from renderer.summary import REPLAY_LAST_FRAME_MS, REPLAY_SPLIT_MS, replay_turn_ms

    game = Game([f"Player{i}" for i in range(4)], SETS["base"], seed=6)  # a game short enough to split turns
    ais = [GreedyPlayer(6 + i) for i in range(4)]
    while not game.finished:
        game.apply(ais[game.actor].choose(game))
    turn_ms = replay_turn_ms(game.turn)
    assert turn_ms > 2 * REPLAY_SPLIT_MS  # room for a split turn
    gif = Image.open(io.BytesIO(replay_gif(game.to_json())))
    splits = 0
    for k in range(gif.n_frames - 1):
        gif.seek(k)
        if gif.info["duration"] != REPLAY_SPLIT_MS:
            continue
        splits += 1
        box, first = gif.dispose_extent, gif.convert("RGB")
        gif.seek(k + 1)
        last = k + 1 == gif.n_frames - 1  # the game's last frame stays on longer
        assert gif.info["duration"] == (REPLAY_LAST_FRAME_MS if last else turn_ms - REPLAY_SPLIT_MS)  # its 2nd
        assert first.crop(box).tobytes() == gif.convert("RGB").crop(box).tobytes()
    assert splits > 10


@pytest.mark.parametrize("language", ["en", "fr"])
def test_standings_columns_hold_a_provisional_rating_and_its_change_whole(language):
    from engine.language import speaking
    from locales import translations
    from renderer.standings import BODY_SIZE, DIVISION_COLUMNS, LADDER_COLUMNS, change_text, fit, rating_text
    from renderer.standings import font as standings_font

    body = standings_font(BODY_SIZE)
    widths = {label: width for label, width, _align in DIVISION_COLUMNS}
    with speaking(translations(language)):
        for rating in (1000, 2999, 9999):
            text = rating_text(rating, True)  # "1,000?" / "1 000?": the "?" must show
            assert fit(text, widths["Rating"] - 10, body) == text
            assert fit(text, dict((c[0], c[1]) for c in LADDER_COLUMNS)["Rating"] - 10, body) == text
        for change in (-1234, 999):
            assert fit(change_text(change), widths["+/-"] - 10, body) == change_text(change)


def test_the_wheel_names_its_sectors_in_the_language_spoken():
    from engine.expansions.wheel import sector_name
    from engine.language import speaking
    from locales import translations
    from renderer import tile_art

    wheel = TILE_TYPES["wheel.start"]
    english = tile_image(wheel, 0, 60).convert("RGB")
    with speaking(translations("fr")):
        french = tile_image(wheel, 0, 60).convert("RGB")
        words = tuple(sector_name(s) for s in tile_art.SECTORS)
    assert "Peste" in words and "Orage" in words
    assert ImageChops.difference(english, french).getbbox() is not None  # other words drawn
    again = tile_image(wheel, 0, 60).convert("RGB")
    assert ImageChops.difference(english, again).getbbox() is None  # each language cached apart
    assert ImageChops.difference(french, tile_art._tile_image(wheel, 0, 60, words).convert("RGB")).getbbox() is None


@pytest.mark.parametrize(
    "sets",
    [["base"], ["base", "river1", "river2", "castles", "ferries", "toll"], ["wheel", "castles", "ferries", "toll"]],
)
def test_the_story_accounts_for_every_point_by_category_and_turn(sets):
    from renderer.story import render_story, story_title, tell

    game = Game(["Ann", "Bob", "Cy"], sets, seed=11)
    players = [GreedyPlayer(i) for i in range(3)]
    while not game.finished:
        game.apply(players[game.actor].choose(game))
    story = tell(game.to_json())
    assert story.scores == game.scores
    for i, categories in enumerate(story.by_category):
        assert sum(categories.values()) == game.scores[i] and "other" not in categories  # every point named
        assert all(n > 0 for n in categories.values())
    assert story.timeline[0] == [0, 0, 0] and story.timeline[-1] == game.scores
    pairs = zip(story.timeline, story.timeline[1:], strict=False)
    assert all(a <= b for t0, t1 in pairs for a, b in zip(t0, t1, strict=True))  # scores only grow
    title = story_title(7, game.score_table())
    assert title.startswith("Game #7: ") and ("wins" in title or "share the win" in title)
    img = render_story(story, title)
    assert img.width == 800 and img.height < 1400  # read at ~400 px wide on a phone


def test_a_big_board_comes_in_quarters_too():
    from renderer.board import region_cells
    from renderer.jobs import PIECES_FROM, board_pieces_png

    game = Game(["Ann", "Bob"], ["base"], seed=4)
    assert len(board_pieces_png(game.to_json())) == 1  # the start tile: readable whole
    players = [GreedyPlayer(1), GreedyPlayer(2)]
    while not game.finished:
        game.apply(players[game.actor].choose(game))

    def columns(cells):
        xs, ys = [x for x, _y in cells], [y for _x, y in cells]
        return max(max(xs) - min(xs), max(ys) - min(ys)) + 1

    whole = columns([c for p in game.board.placements for c in p.cells])
    assert whole > PIECES_FROM
    pieces = board_pieces_png(game.to_json())
    assert len(pieces) == 5  # the whole board, then nw, ne, sw, se
    for quarter, png in zip(("nw", "ne", "sw", "se"), pieces[1:], strict=True):
        side = columns(region_cells(game, quarter))
        assert side < whole and 400 / side >= 35  # a tile about 40 px on a phone's 400 px
        assert Image.open(io.BytesIO(png)).width >= 400
