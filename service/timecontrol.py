"""Time controls: how long a player has for a turn, and the arithmetic of a time bank.

Two kinds, chosen per game (and per league season):

- ``per-turn``: every turn has the game's fixed ``turn_limit`` (the default, as before);
- a **time bank** (Board Game Arena's turn-based clock, Fischer's clock in chess): each player
  starts with ``initial`` seconds; the time a turn takes is taken from the bank of the player
  whose turn it is, counted from the moment the turn began (its post), not from panel clicks;
  ``increment`` is added once at the end of each of their turns, and a bank never holds more
  than ``cap``. Written ``3d+12h cap 5d``; without a cap a bank never holds more than it
  started with. A player who runs out has their turn ruled by the game's timeout policy, and
  then the increment for each later turn (a player who timed out is not timed out at once
  again on every later turn).

Pure: no clock, no storage. The service charges a bank only in the versioned write that ends
the turn, so a restart, or two processes ticking the same game, never charge it twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.language import N_, _

PER_TURN = "per-turn"
UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
LONGEST = 90 * 86400  # no bank, increment or cap longer than a season
# What the lobby and `/carc new` offer (any other "initial+increment cap c" may be typed).
PRESETS = (PER_TURN, "3d+12h cap 5d", "1d+18h cap 3d", "15m+30s")

_DURATION = r"(?:[0-9]{1,4}[dhms])+"  # ASCII digits: "٣d" is not a duration
_SPEC = re.compile(rf"^({_DURATION})\+({_DURATION})(?:cap({_DURATION}))?$")
_PART = re.compile(r"([0-9]{1,4})([dhms])")


class BadTimeControl(ValueError):
    """Text that is not a time control (the message says what one looks like)."""


@dataclass(frozen=True)
class TimeControl:
    """A time bank: seconds to start with, seconds added per turn, most seconds a bank holds."""

    initial: int
    increment: int
    cap: int

    def __str__(self) -> str:
        text = f"{short_duration(self.initial, '')}+{short_duration(self.increment, '')}"
        return text if self.cap == self.initial else f"{text} cap {short_duration(self.cap, '')}"

    def charge(self, left: int, spent: float) -> int:
        """The bank after a turn that took ``spent`` seconds from ``left``: never below zero
        before the increment, never above the cap after it."""
        return min(self.cap, max(0, int(left - max(0.0, spent))) + self.increment)


def parse(text: str) -> TimeControl | None:
    """The time control written ``text``: None for ``per-turn``, else a bank.

    Accepts "3d+12h cap 5d", "15m+30s", "1d12h+6h" (spaces and case do not matter)."""
    if not isinstance(text, str) or len(text) > 40:
        raise BadTimeControl(_("a time control is per-turn or a bank such as 3d+12h cap 5d"))
    compact = re.sub(r"\s+", "", text.lower())
    if compact in (PER_TURN, "perturn", ""):
        return None
    match = _SPEC.match(compact)
    if match is None:
        raise BadTimeControl(
            _("{text} is not a time control: write per-turn, or a bank such as 3d+12h cap 5d or 15m+30s").format(
                text=text.strip()[:40]
            )
        )
    initial, increment = seconds(match[1]), seconds(match[2])
    cap = seconds(match[3]) if match[3] else initial
    if initial < 60:
        raise BadTimeControl(_("a time bank starts with at least a minute"))
    if cap < initial:
        raise BadTimeControl(_("a time bank's cap is at least what it starts with"))
    if max(initial, increment, cap) > LONGEST:
        raise BadTimeControl(_("a time bank holds at most 90 days"))
    return TimeControl(initial, increment, cap)


def canonical(text: str) -> str:
    """``text`` as stored and shown ("3d+12h cap 5d", "per-turn"); raises BadTimeControl."""
    control = parse(text)
    return PER_TURN if control is None else str(control)


def seconds(duration: str) -> int:
    """ "1d12h" -> 129600 (only the units d, h, m, s)."""
    return sum(int(n) * UNITS[unit] for n, unit in _PART.findall(duration))


def short_duration(total: float, between: str = " ") -> str:
    """The two largest units of a duration, as players write them: "2d 4h", "5h", "14m 30s", "0s"."""
    left = max(0, int(total))
    parts: list[str] = []
    for unit, size in UNITS.items():
        if left >= size or (unit == "s" and not parts):
            parts.append(f"{left // size}{unit}")
            left %= size
            if len(parts) == 2:
                break
        elif parts:
            break  # "2d 0h 5m" reads as "2d"
    return between.join(parts)


# A duration as a player reads it, in their language ("2d 4h", "2 j 4 h").
_SPOKEN_UNITS = {"d": N_("{n}d"), "h": N_("{n}h"), "m": N_("{n}m"), "s": N_("{n}s")}


def spoken_duration(total: float) -> str:
    """``short_duration`` in the language being spoken (the spec stays "3d+12h": it is typed)."""
    parts = short_duration(total).split(" ")
    return " ".join(_(_SPOKEN_UNITS[p[-1]]).format(n=p[:-1]) for p in parts)


def starting_banks(control: TimeControl | None, players: int) -> list[int] | None:
    """Every player's bank at the start of a game (None: a per-turn game has no banks)."""
    return None if control is None else [control.initial] * players
