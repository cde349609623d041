"""SIGKILL processes playing concurrent games over one database: nothing acknowledged is lost
and every game loads. A few rounds here; ``python -m benchmarks.chaos`` runs 100 kills."""

import asyncio
import random

import pytest

from tests.crash_worker import check, kill_rolling, kill_round


def test_sigkill_never_loses_an_acknowledged_move(tmp_path):
    db = tmp_path / "crash.db"
    rng = random.Random(2026)
    total_acks = killed = 0
    for round_ in range(3):
        # Killed once each worker has acknowledged 6-20 moves: mid-play, whatever the machine's load.
        result = kill_round(db, round_, workers=2, acks_each=rng.randrange(6, 21))
        total_acks += len(result.acks)
        killed += result.killed
        outcome = asyncio.run(check(db, result.acks))
        assert outcome.lost == 0
        assert outcome.unloadable == []
        assert outcome.games >= 4  # the games of both workers (two each at least), killed mid-play, load again
        assert outcome.stuck == 0  # a computer whose reply the kill cut off moves at the first tick
    assert killed == 6
    assert total_acks > 30  # the workers really played between the kills


@pytest.mark.slow
def test_a_hundred_kills(tmp_path):
    """The full run (minutes): ``pytest -m slow tests/test_crash.py`` or ``python -m benchmarks.chaos``."""
    db = tmp_path / "chaos.db"
    rng = random.Random(16)
    killed = lost = acks = 0
    while killed < 100:
        result = kill_round(db, killed, workers=2, acks_each=rng.randrange(2, 30))
        outcome = asyncio.run(check(db, result.acks))
        killed, lost, acks = killed + result.killed, lost + outcome.lost, acks + len(result.acks)
        assert outcome.unloadable == []
    assert lost == 0 and acks > 1000


def test_killing_one_of_several_processes_over_postgresql_loses_nothing_and_the_clock_goes_on(postgres):
    """Three processes share one PostgreSQL database, each playing and ticking the clock; one at a
    time is SIGKILLed and replaced, once the others have played and ticked on since the last kill
    (a clock that stopped would stall the run). ``python -m benchmarks.chaos --postgres`` runs 50
    kills and measures the clock's longest silence."""
    url = postgres.new_database()
    rolling = kill_rolling(url, kills=4, workers=3, rng=random.Random(7), tick_every=0.3, by_progress=True)
    outcome = asyncio.run(check(url, rolling.acks))
    assert outcome.lost == 0 and outcome.unloadable == [] and outcome.stuck == 0
    assert len(rolling.acks) >= 12  # 3-10 moves before each of the 4 kills
    assert outcome.games >= len({game for game, _version in rolling.acks}) >= 2  # every game played loads
    # After every kill the clock ticked again (the survivors', then the replacement's too).
    assert all(any(tick > killed for tick in rolling.ticks) for killed in rolling.kill_times)


def test_every_change_the_clock_commits_is_announced_once_whatever_process_dies(db_url, tmp_path):
    """120 overdue games (half against a computer: 180 changes). One process is SIGKILLed after its
    tick committed 40 changes (none posted yet), the next after it posted 25 notices (the 25th not
    yet marked posted), then one process finishes (two at once over PostgreSQL): every committed
    change is told in exactly one message (the repeated 25th carries the same nonce: Discord keeps
    one), nothing is left in the outbox. ``python -m benchmarks.chaos --outbox`` prints the counts."""
    from tests.outbox_worker import run

    scenario = run(db_url, tmp_path / "sink", games=120, last=2 if db_url.startswith("postgresql") else 1)
    counts = scenario.counts
    assert scenario.kills == 2 and scenario.commits_before_kill == 40 and scenario.posts_before_kill == 25
    assert counts.committed == 180  # 120 timeouts, 60 computer replies
    assert counts.announced == 180 and counts.lost == 0 and counts.duplicates == 0
    assert counts.repeats <= 1 and counts.unposted == 0
