"""Which expansion module serves which set."""

from __future__ import annotations

from engine.expansions import Expansion
from engine.expansions.castles import Castles
from engine.expansions.ferries import Ferries
from engine.expansions.river import River
from engine.expansions.toll import Tollkeepers
from engine.expansions.wheel import Wheel

EXPANSIONS: dict[str, type[Expansion]] = {
    "river1": River,
    "river2": River,
    "castles": Castles,
    "ferries": Ferries,
    "wheel": Wheel,
    "toll": Tollkeepers,
}
