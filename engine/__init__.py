"""The rules of Carcassonne and its expansions: pure, deterministic, stdlib only."""

from engine.game import BadSetup, Game, IllegalMove

# Bumped whenever the same record could replay differently (a rules fix): cached
# snapshots written by another version are then ignored and games replayed.
ENGINE_VERSION = "1"

__all__ = ["Game", "IllegalMove", "BadSetup", "ENGINE_VERSION"]
