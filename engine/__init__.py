"""The rules of Carcassonne and its expansions: pure, deterministic, stdlib only."""

from engine import _compiled

# "compiled" when a fresh mypyc build of this package is used (engine/_compiled.py), else "python":
# chosen before any other module of the package is imported, so that every one comes from the same place
IMPLEMENTATION = _compiled.activate(__path__)

from engine.game import BadSetup, Game, IllegalMove  # noqa: E402  (after the choice above)

# Bumped whenever the same record could replay differently (a rules fix): cached
# snapshots written by another version are then ignored and games replayed.
ENGINE_VERSION = "1"

__all__ = ["Game", "IllegalMove", "BadSetup", "ENGINE_VERSION", "IMPLEMENTATION"]
