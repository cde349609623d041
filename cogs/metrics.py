"""What an operator scrapes: a Prometheus text endpoint, off by default (``METRICS_PORT``).

Counted where they happen in this front end: how long interactions take to handle (slash commands
from the tree's check to their completion or error, components in ``guarded``), posts that failed.
Read from the service at each scrape: active games (as the last clock tick saw them), decisions
stored, worker processes alive. One registry of this module's own, so tests can read it.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from typing import Any

import discord
from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

REGISTRY = CollectorRegistry()
INTERACTION_SECONDS = Histogram(
    "carc_interaction_seconds",
    "Time to handle an interaction (slash command or component), by kind",
    ["kind"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10),
    registry=REGISTRY,
)
FAILED_POSTS = Counter(
    "carc_failed_posts_total", "Posts to Discord that failed (a deleted thread, a lost permission...)", ["what"],
    registry=REGISTRY,
)  # fmt: skip
STARTED = "carc_started"  # where an interaction's start time is kept (Interaction.extras)


def started(interaction: discord.Interaction) -> None:
    """Note when the bot began handling ``interaction``."""
    interaction.extras.setdefault(STARTED, time.perf_counter())


def handled(interaction: discord.Interaction, kind: str) -> None:
    """Count the time ``interaction`` took, once."""
    start = interaction.extras.pop(STARTED, None)
    if start is not None:
        INTERACTION_SECONDS.labels(kind).observe(time.perf_counter() - start)


class ServiceCollector(Collector):
    """The service's figures, read at each scrape."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def collect(self) -> Iterator[Any]:
        service = getattr(self.bot, "service", None)
        if service is None:
            return
        yield GaugeMetricFamily(
            "carc_active_games", "Games being played, as the last clock tick counted them", value=service.active_games
        )
        yield CounterMetricFamily(
            "carc_decisions", "Decisions stored by this process (humans, computers, the clock)",
            value=service.log.commits,
        )  # fmt: skip
        workers = service.workers
        if workers is not None:
            yield GaugeMetricFamily("carc_workers", "Worker processes (pictures, computers)", value=workers.size)
            yield GaugeMetricFamily("carc_workers_alive", "Worker processes alive", value=workers.alive())


_serving: dict[str, Any] = {}  # the endpoint's port and collector, once started (one per process)


def serve(bot: Any) -> int | None:
    """Start the endpoint on ``METRICS_PORT`` (on ``METRICS_HOST``, 127.0.0.1 by default) if set;
    returns the port, or None when metrics are off. Started once per process: a bot started again
    in the same process (tests) takes the collector over."""
    port = os.environ.get("METRICS_PORT", "").strip()
    if not port.isdecimal():
        return None
    if "port" in _serving:
        _serving["collector"].bot = bot
        return int(_serving["port"])
    collector = ServiceCollector(bot)
    REGISTRY.register(collector)
    start_http_server(int(port), addr=os.environ.get("METRICS_HOST", "127.0.0.1"), registry=REGISTRY)
    _serving.update(port=int(port), collector=collector)
    log.info("metrics on port %s", port)
    return int(port)
