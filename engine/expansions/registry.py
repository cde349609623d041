"""Which expansion module serves which set."""

from __future__ import annotations

from engine.expansions import Expansion
from engine.expansions.toll import Tollkeepers

EXPANSIONS: dict[str, type[Expansion]] = {
    "toll": Tollkeepers,
}
