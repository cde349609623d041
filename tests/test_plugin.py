"""An expansion is a plugin: a test-only expansion with its own tile, its own lobby option, its own
event and its own figure on the board plays through the game service (which validates the option),
is shown in the lobby message and drawn, and replays from its record, with nothing edited outside
this file but one draw function registered with the renderer (``renderer.board.draws``)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine.ai import computer_moves
from engine.expansions import BoardFigure, Event, Expansion, LobbyOption
from engine.expansions.registry import register, unregister
from renderer.board import FIGURE_DRAWINGS, draws, render_board
from service import GameService, LobbyOptions, ServiceError
from storage import Store, open_database
from tests.helpers import SYSTEM, Clock, as_

BEACON = (255, 0, 255)  # a colour no tile art uses


class Beacons(Expansion):
    """A watchtower tile (a cloister among fields); each one placed lights a beacon on its cell,
    unless the lobby chose to keep them dark."""

    name = "beacons"
    sets = ("beacons",)
    titles = {"beacons": "The Beacons"}
    options = ("beacons",)  # a keyword option of Game(...), and a field of the record
    event_types = ("beacon",)
    tile_rows = {"beacons": [("beacons.tower", 3, "FFFF", "cloister; field{*}")]}
    lobby_options = (LobbyOption("beacons", "Beacons", (("lit", "lit at once"), ("dark", "kept dark")), "lit"),)

    @classmethod
    def game_options(cls, chosen, picks, seats, seed):  # type: ignore[no-untyped-def]
        return {"beacons": chosen["beacons"]}

    def setup(self, game: Any, rng: Any, options: dict[str, Any]) -> None:
        game.state["beacons"] = {"lit": [], "mode": options.get("beacons", "lit")}

    def record_fields(self, game: Any) -> dict[str, Any]:
        return {"beacons": game.state["beacons"]["mode"]}

    def on_place(self, game: Any, placement: int, events: list[Event]) -> None:
        p = game.board.placements[placement]
        if p.tile.id == "beacons.tower" and game.state["beacons"]["mode"] == "lit":
            game.state["beacons"]["lit"].append((p.x, p.y))
            events.append({"type": "beacon", "player": game.player_name, "x": p.x, "y": p.y})

    @staticmethod
    def describe(event: Event) -> str | None:
        return f"{event['player']} lights a beacon at {event['x']}, {event['y']}."

    def board_figures(self, game: Any) -> list[BoardFigure]:
        return [BoardFigure("beacon", ((x, y),), None, (x, y)) for x, y in game.state["beacons"]["lit"]]


@pytest.fixture
def beacons():
    register(Beacons)

    @draws("beacon")
    def _beacon(img, draw, game, frame, figure):  # the one draw function the plugin needs
        x, y = figure.data
        ox, oy = frame.origin(x, y)
        s = frame.cell
        draw.ellipse([ox + s * 0.05, oy + s * 0.05, ox + s * 0.3, oy + s * 0.3], fill=BEACON)

    yield Beacons
    FIGURE_DRAWINGS.pop("beacon", None)
    unregister(Beacons)


async def play_out(service: GameService, lobby_id: int, view: Any) -> list[str]:
    said: list[str] = []
    while not view.finished:
        _row, game = await service.game(SYSTEM, lobby_id)
        played = await service.play(as_(view.user_id), lobby_id, computer_moves(game.clone(), "ai:greedy:1"),
                                    view.version)  # fmt: skip
        said += played.lines
        view = played.turn
    return said


async def test_a_toy_expansion_plays_through_the_service_and_is_drawn(beacons, tmp_path):
    from cogs import present
    from engine.record import load

    db = await open_database(tmp_path / "toy.db")
    service = GameService(Store(db), Clock(), new_seed=itertools.count(1).__next__)
    try:
        with pytest.raises(ServiceError, match="Beacons is one of lit, dark"):
            await service.create_lobby(as_("u1"), "Ann", LobbyOptions(sets=["base", "beacons"],
                                                                      choices={"beacons": "bright"}))  # fmt: skip
        dark = await service.create_lobby(as_("u1"), "Ann", LobbyOptions(
            sets=["base", "beacons"], turn_limit=0, choices={"beacons": "dark"}))  # fmt: skip
        fields = {f["name"]: f["value"] for f in present.lobby_embed(dark).to_dict()["fields"]}
        assert fields["Beacons"] == "kept dark" and "The Beacons" in fields["Sets"]  # rendered from the plugin
        await service.join(as_("u2"), dark.id, "Bob")
        said = await play_out(service, dark.id, (await service.start(as_("u1"), dark.id)).turn)
        _row, game = await service.game(SYSTEM, dark.id)
        assert game.state["beacons"]["lit"] == [] and not any("beacon" in line for line in said)
        record = await service.export(SYSTEM, dark.id)
        assert record["beacons"] == "dark" and load(record)[0].state["beacons"]["mode"] == "dark"  # replays

        lobby = await service.create_lobby(as_("u1"), "Ann", LobbyOptions(sets=["base", "beacons"], turn_limit=0))
        await service.join(as_("u2"), lobby.id, "Bob")
        said = await play_out(service, lobby.id, (await service.start(as_("u1"), lobby.id)).turn)
        _row, game = await service.game(SYSTEM, lobby.id)
        lit = game.state["beacons"]["lit"]
        assert len(lit) == 3  # every tower of the bag was placed, and each lit its beacon
        assert sum("lights a beacon" in line for line in said) == 3  # worded by the plugin
        assert {f.kind for f in game.board_figures()} >= {"beacon"}
        picture = render_board(game, legend=False)
        assert BEACON in {colour for _count, colour in picture.getcolors(1 << 20)}  # drawn
        record = await service.export(SYSTEM, lobby.id)  # and it replays from its record
        assert "beacons" in record["sets"]
    finally:
        await db.close()


def test_a_figure_kind_nobody_draws_is_a_clear_error(beacons):
    from engine import Game

    FIGURE_DRAWINGS.pop("beacon")
    game = Game(["Ann", "Bob"], ["base", "beacons"], seed=1, pool=["beacons.tower"])
    game.apply({"type": "tile", "x": 0, "y": 1, "rot": 0})
    with pytest.raises(ValueError, match="no drawing for the figure kind 'beacon'"):
        render_board(game)
