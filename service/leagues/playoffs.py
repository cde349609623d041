"""Playoffs: a knockout bracket after a season's groups (divisions or Swiss), as community
leagues run them (the Carcassonne Champions League: groups, then best-of-3 knockout rounds).

A bracket is a fixed graph of matches made once from the number of seeds: each side of a match
is a seed, or the winner or the loser of an earlier match. What a match's sides are follows
from the results so far (``resolve``), so nothing but the seeds and the match log is stored:
a restart, or another process, derives the same bracket.

- **Single elimination**: the field is padded to a power of two; the top seeds get the byes
  (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight: the best two can only meet in the final).
- **Double elimination**: a loser drops into the losers' bracket once; the losers' bracket
  alternates a round among its own survivors and a round against the players just beaten in the
  winners' bracket; its winner meets the winners' bracket winner in a grand final of one match
  (no reset: a second final would make the schedule open-ended for an async league).

A side with nobody (a bye, or a match that both players lost at its deadline) lets the other
side through without a game; a match with nobody on either side sends nobody on. A knockout match
is never a draw: a match level after its games goes on with one more game (``match_outcome``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.language import N_, _

PLAYOFF_ROUND = 1000  # a playoff match's fixture round is PLAYOFF_ROUND + its number (group rounds are below)
BEST_OF = (1, 3, 5)
MOST_SEEDS = 32

# A side of a match: ("seed", k) the k-th seed (1 = best); ("winner", n) / ("loser", n) of match n.
Ref = tuple[str, int]


@dataclass(frozen=True)
class PlayoffRules:
    top: int = 8
    best_of: int = 3
    double: bool = False

    def checked(self, field_size: int) -> PlayoffRules:
        from service.validate import ServiceError

        if self.best_of not in BEST_OF:
            raise ServiceError(_("a playoff match is the best of 1, 3 or 5"))
        least = 4 if self.double else 2
        if not least <= self.top <= MOST_SEEDS:
            raise ServiceError(_("playoffs take {least} to {most} players").format(least=least, most=MOST_SEEDS))
        if self.top > field_size:
            raise ServiceError(
                _("the season has {n} players: playoffs cannot take the top {top}").format(n=field_size, top=self.top)
            )
        return self


@dataclass(frozen=True)
class BracketMatch:
    number: int  # 1, 2, ... in the order matches become playable
    bracket: str  # "W" winners', "L" losers', "F" the grand final
    round: int  # the round within its bracket, from 1
    home: Ref
    away: Ref


def seed_order(size: int) -> list[int]:
    """The seeds of a power-of-two bracket's first round, pair by pair, so that the best seeds
    meet as late as possible: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def build_bracket(seeds: int, double: bool) -> list[BracketMatch]:
    """Every match of a bracket for ``seeds`` players (the field padded to a power of two)."""
    size = max(2, 2 ** math.ceil(math.log2(seeds)))
    matches: list[BracketMatch] = []

    def add(bracket: str, round_: int, home: Ref, away: Ref) -> int:
        matches.append(BracketMatch(len(matches) + 1, bracket, round_, home, away))
        return len(matches)

    order = seed_order(size)
    winners_rounds: list[list[int]] = [
        [add("W", 1, ("seed", order[i]), ("seed", order[i + 1])) for i in range(0, size, 2)]
    ]
    while len(winners_rounds[-1]) > 1:
        last = winners_rounds[-1]
        r = len(winners_rounds) + 1
        pairs = range(0, len(last), 2)
        winners_rounds.append([add("W", r, ("winner", last[i]), ("winner", last[i + 1])) for i in pairs])
    if not double:
        return matches
    # Losers' bracket: round 1 pairs the first round's losers; then, in turn, its survivors meet
    # the players just beaten in the winners' bracket (in reverse order, so that two players do
    # not meet again at once), and its survivors meet each other.
    first = winners_rounds[0]
    current = [add("L", 1, ("loser", first[i]), ("loser", first[i + 1])) for i in range(0, len(first), 2)]
    lr = 1
    for dropped in winners_rounds[1:]:
        lr += 1
        current = [add("L", lr, ("winner", m), ("loser", d)) for m, d in zip(current, reversed(dropped), strict=True)]
        if len(current) > 1:
            lr += 1
            pairs = range(0, len(current), 2)
            current = [add("L", lr, ("winner", current[i]), ("winner", current[i + 1])) for i in pairs]
    add("F", 1, ("winner", winners_rounds[-1][0]), ("winner", current[0]))
    return matches


PENDING = "?"  # a side not known yet (its match is still being played)


@dataclass
class Resolved:
    """A match as the results so far make it: its players (None: nobody, PENDING: not known yet),
    and its winner once decided (None when nobody goes on)."""

    match: BracketMatch
    home: str | None
    away: str | None
    decided: bool = False
    winner: str | None = None
    loser: str | None = None
    played: bool = False  # a match with two players (the others are walkovers, or empty)


@dataclass
class BracketState:
    matches: list[Resolved] = field(default_factory=list)
    champion: str | None = None
    finished: bool = False

    def playable(self) -> list[Resolved]:
        """The matches with both players known and no result yet."""
        return [r for r in self.matches if r.played and not r.decided]


def resolve(bracket: list[BracketMatch], seeds: list[str], results: dict[int, str | None]) -> BracketState:
    """The bracket as the ``results`` so far make it (match number -> winner, None: nobody goes
    on); matches without two players are decided here, as walkovers."""
    state = BracketState()
    by_number: dict[int, Resolved] = {}

    def side(ref: Ref) -> str | None:
        kind, n = ref
        if kind == "seed":
            return seeds[n - 1] if n <= len(seeds) else None
        earlier = by_number[n]
        if not earlier.decided:
            return PENDING
        return earlier.winner if kind == "winner" else earlier.loser

    for match in bracket:
        home, away = side(match.home), side(match.away)
        entry = Resolved(match, home, away)
        if PENDING not in (home, away):
            if home is not None and away is not None:
                entry.played = True
                if match.number in results:
                    entry.decided = True
                    entry.winner = results[match.number]
                    entry.loser = None if entry.winner is None else (away if entry.winner == home else home)
            else:  # a walkover: the one player there goes on, nobody drops
                entry.decided, entry.winner = True, home if home is not None else away
        by_number[match.number] = entry
        state.matches.append(entry)
    final = state.matches[-1]
    state.finished, state.champion = final.decided, final.winner
    return state


# Round names as players say them, by how many rounds are left in the winners' bracket.
_ROUND_NAMES = {1: N_("Final"), 2: N_("Semi-finals"), 3: N_("Quarter-finals")}


def stage_name(match: BracketMatch, winners_rounds: int, double: bool) -> str:
    """ "Quarter-finals", "Round of 16", "Losers' round 2", "Grand final" (in the language spoken)."""
    if match.bracket == "F":
        return _("Grand final")
    if match.bracket == "L":
        return _("Losers' round {n}").format(n=match.round)
    left = winners_rounds - match.round + 1
    if left in _ROUND_NAMES:
        name = _(_ROUND_NAMES[left])
        return _("Winners' {stage}").format(stage=name.lower()) if double else name
    return _("Round of {n}").format(n=2**left)


def column_name(match: BracketMatch, winners_rounds: int) -> str:
    """A round's short heading in a bracket picture, where each bracket has its own section:
    "Semi-finals", "Round 2" (of the losers' bracket), "Grand final"."""
    if match.bracket == "L":
        return _("Round {n}").format(n=match.round)
    return stage_name(match, winners_rounds, double=False) if match.bracket == "W" else _("Grand final")
