"""The rules of Carcassonne and its expansions: pure, deterministic, stdlib only."""

from engine.game import BadSetup, Game, IllegalMove

__all__ = ["Game", "IllegalMove", "BadSetup"]
