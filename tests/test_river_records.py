"""Records made before the river completability rules still replay (RECORD.md):
they fail only at a move the new river rules forbid.

tests/fixtures/river_old_records.json holds random river games recorded with the engine
of commit 27deb1d; of 1,000 such games, 492 replay unchanged (see the river branch's
report for the breakdown).
"""

import json
from pathlib import Path

import pytest

from engine.record import load

DATA = json.loads((Path(__file__).parent / "fixtures" / "river_old_records.json").read_text())
NEW_RULES = (
    "the river may not turn the same way twice in a row (a U-turn)",  # the fork counts as a turn
    "the river may not turn the same way three times in a row",
    "the rest of the river could then no longer be placed in full",
)


@pytest.mark.parametrize("game", DATA["games"], ids=lambda g: f"game{g['seed_index']}")
def test_old_records_replay_or_stop_at_a_move_the_new_river_rules_forbid(game):
    replayed, _events, error = load(game["record"])
    expected = game["new_error"]
    moves = game["record"]["moves"]
    choice = next((i for i, m in enumerate(moves) if m["type"] in ("draw", "castle")), None)
    if choice is not None and error is not None and error[0] == choice:
        # No castle while river tiles remain (RULES.md): the draw-or-castle choice is gone.
        assert error[1].startswith(f"a {moves[choice]['type']!r} move is not possible now")
        assert choice <= expected["move"] if expected else True
        return
    if expected is None:
        assert error is None
        assert replayed.scores == game["old_scores"] and replayed.finished
        return
    assert error == (expected["move"], expected["error"])
    assert error[1] in NEW_RULES
    # Every move before it was still legal: the game stopped in its river phase.
    assert replayed.step == "tile" and replayed.drawn is not None
