"""Which expansion module serves which set."""

from __future__ import annotations

from engine.expansions import Expansion

EXPANSIONS: dict[str, type[Expansion]] = {}
