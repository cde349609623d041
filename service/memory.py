"""Garbage collection settings for the bot's long-running process.

The service keeps up to ``CACHE_SIZE`` replayed games in memory, a few hundred container
objects each, and every turn replaces one game with its successor. With CPython's default
thresholds a full collection then walks every cached game every few hundred turns, which
stalls the event loop for tens of milliseconds (with 2,000 active games: play p99 37 ms
and pauses up to 260 ms; see ``python -m benchmarks.service``). The objects that exist once
the bot has started (modules, tile catalogs, the fit tables) are moved out of the collector's
sight, and young collections run less often; games are freed by reference counting anyway.
"""

from __future__ import annotations

import gc

#: allocations between two young collections (CPython's default is 700)
YOUNG_THRESHOLD = 50_000


def tune_gc() -> None:
    """Call once the process has started (imports done, before serving)."""
    if gc.get_threshold()[0] == YOUNG_THRESHOLD:
        return  # done already (a bot set up again in the same process)
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
