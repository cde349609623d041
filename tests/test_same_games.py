"""Speed work must not change a single game: seeded random games of several set families
give exactly the records, events, option labels and scores they gave when ``DIGEST`` was
taken. Update ``DIGEST`` only for a deliberate change of the rules or their wording (and
say so in the commit); a change made for speed must leave it as it is."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine import Game
from engine.ai import RandomPlayer
from engine.record import load
from tests.helpers import python_engine_only

FAMILIES = (
    ("base",),
    ("base", "river1", "river2", "castles", "ferries", "toll"),
    ("base", "wheel", "castles", "ferries", "toll"),
)
GAMES = 8  # per family; players 2 to 6 in turn
DIGEST = "d9b4fee6cbbb5f0f3a51712e013224554158ac311828f29e790159590843b273"


def _games_digest() -> str:
    digest = hashlib.sha256()
    for sets in FAMILIES:
        for seed in range(GAMES):
            players = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][: 2 + seed % 5]
            game = Game(players, list(sets), seed=seed)
            player = RandomPlayer(seed)
            seen: list[Any] = [game.start_events]
            while not game.finished:
                if len(game.moves) % 5 == 0:
                    q = game.question()
                    assert q is not None
                    seen.append([q.player, q.kind, q.prompt, q.pass_label, [(o.move, o.label) for o in q.options]])
                seen.append(game.apply(player.choose(game)))
            record = game.to_json()
            replayed, events, error = load(record)
            assert error is None
            assert replayed.scores == game.scores
            text = json.dumps([record, seen, events, game.scores, game.supply], sort_keys=True, default=str)
            digest.update(text.encode())
    return digest.hexdigest()


def test_seeded_games_are_unchanged() -> None:
    assert _games_digest() == DIGEST


@python_engine_only
def test_a_game_keeps_fewer_than_30_attributes() -> None:
    """CPython 3.11 keeps an object's attributes in a compact, shared layout only up to 29
    of them; a game with more is read through a plain dict on every attribute access, and
    random base games were then about 3% slower. Add state inside an existing attribute."""
    for sets in FAMILIES:
        game = Game(["Ann", "Bob"], list(sets), seed=1)
        assert len(vars(game)) < 30, sorted(vars(game))
