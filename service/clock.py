"""The deadline clock: reminders, timeouts, and games waiting on an automatic move.

``tick`` is called every ``TICK_EVERY`` by the bot. Over SQLite (one process) one instance holds
the clock's lease and renews it at every tick (its heartbeat); when that instance dies, another one
takes the clock over once the lease is ``LEASE_TTL`` old, so a crash delays deadlines by at most
``LEASE_TTL + TICK_EVERY``. Over a shared database (PostgreSQL, several processes) there is no
holder: every process ticks, and each due game is claimed by exactly one of them for ``CLAIM_TTL``
(``Store.claim_games``), so its notice is posted once and a dead process's games are free again
after ``CLAIM_TTL``. Every tick also plays the move of any game whose player to move is a
computer or an absent player: a process that died between a human's move and the computer's reply
leaves no game waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from datetime import datetime, timedelta
from typing import Any

from engine import Game
from engine.ai import computer_moves
from engine.language import _, ngettext
from service import validate
from service.announce import announce, game_language, in_language
from service.caller import Caller
from service.core import NOTICE_HOLD, ServiceCore
from service.gamelog import AlreadyPlayed, turn_seconds
from service.turns import AUTO_USER
from service.validate import ServiceError
from service.views import Notice, TurnView
from service.workers import computer_turn
from storage import GameRow
from storage.outbox import Pending
from storage.times import parse_time

log = logging.getLogger(__name__)

TICK_EVERY = timedelta(seconds=10)  # how often the bot calls tick (cogs: the deadline loop)
LEASE_TTL = timedelta(seconds=20)  # a clock whose holder has not ticked for this long is free
# Who plays a timed-out turn under the "computer" policy: a normal-level computer (engine.ai.seat_player).
STAND_IN = "ai:normal:stand-in"
CLAIM_TTL = timedelta(seconds=20)  # a due game claimed by a process that stopped ticking is free after this
# A tick takes the due games oldest first in batches (each claimed as it begins over a shared
# database), and stops starting batches once it has run TICK_BUDGET: every claim is held well inside
# CLAIM_TTL, and a catch-up after a long downtime goes on at the next tick instead of in one long one.
TICK_BATCH = 100
TICK_BUDGET = CLAIM_TTL / 2
# When the player to move is reminded, as shares of the time they had when the turn began: with a
# quarter left, and again with a sixteenth left (a 5-day bank: after 3 d 18 h, then 7 h 30 min before).
REMINDERS = (3 / 4, 15 / 16)


class Clock(ServiceCore):
    """The clock calls of ``GameService`` (a mixin: the state is the service's)."""

    async def tick(self) -> list[Notice]:
        """Send due reminders, apply the timeout policy to expired turns, and play the moves
        games wait for from a computer or an absent player.

        After a restart it catches up on everything that expired while the process was down (each
        expired turn once). It never raises: a game that fails is logged (once per distinct
        failure) and the others go on. Over SQLite only the instance holding the clock's lease
        ticks; over a shared database each due game is handled by the one process that claims it.
        """
        try:
            await self.store.report_instance(self.instance_id, self.clock(), self._self_report())
            if self.store.shared:
                await self.store.beat(self.instance_id, self.clock())
                holder = None
            else:
                holder = await self.store.take_clock_lease(self.instance_id, self.clock(), LEASE_TTL)
        except Exception:
            log.exception("the deadline clock cannot reach the database")
            return []
        if holder is not None:
            if self._lease_holder != holder:
                log.warning(
                    "another bot process (%s) runs the deadline clock over this SQLite database; this one (%s)"
                    " takes it over if that one stops ticking for %s s. SQLite serves one bot process:"
                    " several processes need PostgreSQL (DATABASE_URL=postgresql://...).",
                    holder, self.instance_id, int(LEASE_TTL.total_seconds()),
                )  # fmt: skip
                self._lease_holder = holder
            return []
        self._lease_holder = None
        now = self.clock()
        try:  # the loop posted what the last tick offered (it awaits every post before the next tick)
            await self.store.notices_posted(self._offered, now)
        except Exception:
            log.exception("the deadline clock cannot reach the outbox")
            return []
        self._offered = []
        self._ticks += 1
        holder = f"{self.instance_id}#{self._ticks}"  # this tick's notices, posted after it
        try:
            # Only the clocks of games changed since the last look, or whose time has come (an
            # index on games.due_at): a steady tick reads a few rows, not every game.
            clocks = await self.store.turn_clocks(now)
            waiting = set(await self.store.automatic_game_ids())
            self.active_games = await self.store.active_count()
        except Exception:
            log.exception("the deadline clock cannot list the games")
            return []
        seen = {c[0] for c in clocks} | waiting
        self._failing = {g: why for g, why in self._failing.items() if g in seen}
        if len(self._turn_limits) > 2 * self.active_games + 1000:  # the ended games' are forgotten
            self._turn_limits = {g: v for g, v in self._turn_limits.items() if g in seen}
        # Only the games with something due are loaded (a restart loads no other game), the
        # longest overdue first; a game waiting on a computer is due since its turn began. The
        # others are told when to look again.
        due_at: dict[int, datetime] = {g: datetime.min.replace(tzinfo=now.tzinfo) for g in waiting}
        later: list[tuple[int, int, datetime | None]] = []
        for n, c in enumerate(clocks):
            when = _due_at(c, now, self._turn_limits)
            if when is not None and when <= now:
                due_at[c[0]] = min(when, due_at.get(c[0], when))
            elif c[0] not in waiting:
                later.append((c[0], c[5], when))
            if n % 250 == 249:
                await asyncio.sleep(0)  # a long walk lets the turns being played in
        try:
            await self.store.set_due(later)
        except Exception:  # looked at again next tick
            log.exception("the deadline clock cannot note when games are due")
        order = sorted(due_at, key=lambda g: (due_at[g], g))
        started = time.monotonic()
        self.tick_left, self.tick_longest_batch = 0, 0.0
        for start in range(0, len(order), TICK_BATCH):
            batch_started = time.monotonic()
            if time.monotonic() - started > TICK_BUDGET.total_seconds():
                self.tick_left = len(order) - start  # the next tick goes on from the oldest left
                log.info("deadline clock: %s due games left to the next tick", self.tick_left)
                break
            batch = order[start : start + TICK_BATCH]
            if self.store.shared:
                try:  # claimed as the batch begins: each claim is held a batch's time
                    taken = set(await self.store.claim_games(batch, self.instance_id, self.clock(), CLAIM_TTL))
                except Exception:
                    log.exception("the deadline clock cannot claim its games")
                    break  # what the outbox holds is still posted
                batch = [g for g in batch if g in taken]
            for game_id in batch:
                try:
                    await self._tick_game(game_id, now, holder)
                except Exception as exc:
                    self._clock_failed(game_id, exc)
                    continue
                self._failing.pop(game_id, None)
            self.tick_longest_batch = max(self.tick_longest_batch, time.monotonic() - batch_started)
        return await self._notices(holder, now)

    async def _notices(self, holder: str, now: datetime) -> list[Notice]:
        """What to post now: the notices this tick wrote, and those a process left unposted (it
        died, or its post failed) once their hold expired; each game's in one post after the
        turn they lead to. A reminder of a turn since played is dropped."""
        try:
            # This process's earlier ticks' rows too (more than one tick hands out at once).
            pending = await self.store.claim_notices(holder, now, NOTICE_HOLD, also=f"{self.instance_id}#")
        except Exception:
            log.exception("the deadline clock cannot read the outbox")
            return []
        by_game: dict[int, list[Pending]] = {}
        for p in pending:
            by_game.setdefault(p.game_id, []).append(p)
        notices: list[Notice] = []
        stale: list[int] = []
        for game_id, rows in by_game.items():
            guild = rows[0].body.get("guild_id")
            guild = guild if isinstance(guild, str) else None
            try:
                view = await self.turn(Caller.system(guild), game_id)
            except Exception as exc:  # held until it expires, then offered again (a few times)
                self._clock_failed(game_id, exc)
                continue
            told: list[Pending] = []
            for r in rows:
                if r.kind != "reminder":
                    told.append(r)
                elif r.version != view.version or view.finished:
                    stale.append(r.id)
                else:
                    notices.append(_notice(r, guild, [r.id]))
            if told:
                lines = [line for r in told for line in _lines(r)]
                notices.append(_notice(told[0], guild, [r.id for r in told], lines, view))
        if stale:
            with contextlib.suppress(Exception):  # offered again next tick, and dropped then
                await self.store.notices_posted(stale, now)
        notices.sort(key=lambda n: n.outbox[0])
        self._offered = [i for n in notices for i in n.outbox]
        return notices

    async def posted(self, notices: list[Notice]) -> None:
        """The front end posted these notices: they are not offered again."""
        ids = {i for n in notices for i in n.outbox}
        self._offered = [i for i in self._offered if i not in ids]
        await self.store.notices_posted(sorted(ids), self.clock())

    async def mark_posted(self, outbox: list[int]) -> None:
        """A front end posted what these outbox rows tell (a turn played: ``PlayResult.outbox``)."""
        if not (isinstance(outbox, list) and all(validate.is_int(i) and 0 < i < 2**63 for i in outbox)):
            raise ServiceError(_("outbox rows are a list of numbers"))
        await self.store.notices_posted(outbox, self.clock())

    async def not_posted(self, notices: list[Notice]) -> None:
        """Posting these failed: they are offered again at the next tick (a few times at most)."""
        ids = {i for n in notices for i in n.outbox}
        self._offered = [i for i in self._offered if i not in ids]
        await self.store.release_notices(sorted(ids))

    def _self_report(self) -> dict[str, Any]:
        """What this process says of itself at each tick (``bot.py health`` reads it)."""
        workers = self.workers
        if workers is None:
            return {"workers": 0, "workers_alive": 0}
        return {"workers": workers.size, "workers_alive": workers.alive(), "worker_restarts": workers.restarts}

    async def release_clock(self) -> None:
        """Give up the deadline clock's lease (at shutdown), so another instance may take it
        at once instead of after LEASE_TTL. What the last tick offered counts as posted, as at
        the next tick (a front end hands back with ``not_posted`` what it could not post)."""
        offered, self._offered = self._offered, []
        await self.store.notices_posted(offered, self.clock())
        await self.store.release_clock_lease(self.instance_id)

    def _clock_failed(self, game_id: int, exc: Exception) -> None:
        what = f"{type(exc).__name__}: {exc}"
        if self._failing.get(game_id) == what:
            return  # reported already; a game broken for days is not logged every minute
        self._failing[game_id] = what
        if isinstance(exc, ServiceError):
            log.warning("deadline clock: game #%s skipped: %s", game_id, exc)
        else:
            log.error("deadline clock: game #%s failed", game_id, exc_info=exc)

    async def _tick_game(self, game_id: int, now: datetime, holder: str) -> None:
        """Whatever is due in one game, each change committed with its notice (to the outbox,
        held by ``holder``)."""
        async with self.log.lock(game_id):
            row, game = await self.log.load(game_id)
            if row.status != "active" or game.finished:
                return None
            system = Caller.system(row.guild_id)
            users = row.setup["users"]  # type: ignore[index]
            actor_id, actor = users[game.actor], game.players[game.actor]
            seat = row.seat_of(actor_id)
            if seat is not None and (seat.is_ai or seat.status != "playing"):
                # Nobody will click for this seat: play it now (a crash between a human's move and
                # the computer's reply left it waiting).
                await self.run_automatic(system, game_id, notify=holder)
                return None
            limit = turn_seconds(row)  # the turn limit, or the player's time bank
            if row.turn_started_at is None or (not limit and row.clocks is None):
                return None
            away, _taken = await self.store.vacation(actor_id)
            if away is not None and away > row.turn_started_at:
                # Away since this turn began (or still away): the turn starts over when they are
                # back, whole; no reminder and no timeout before then.
                await self.store.restart_turn(game_id, row.version, away)
                return None
            deadline = row.turn_started_at + timedelta(seconds=limit)
            if now >= deadline:
                await self._time_out(row, game, holder)  # nothing if the player moved just in time
                return None
            # The reminders this turn has reached (after a downtime, only the latest goes out).
            stage = sum(1 for f in REMINDERS if now >= row.turn_started_at + timedelta(seconds=limit * f))
            if stage > row.reminded:
                with in_language(game_language(row)):
                    if row.clocks is not None:
                        said = _("{player}, your time bank in game #{id} runs out in {duration}.")
                    else:
                        said = _("{player}, your turn in game #{id} ends in {duration}.")
                    lines = [said.format(player=actor, id=game_id, duration=_duration(deadline - now))]
                notice = self.outgoing(holder, "reminder", row, actor_id, actor, lines)
                await self.store.mark_reminded(game_id, row.version, stage, notice, now)
            return None

    async def _time_out(self, row: GameRow, game: Game, holder: str) -> None:
        """Apply the timeout policy to the human turn at ``row.version``, under the game's lock,
        each write with its notice.

        Both policies are versioned writes: a move that got in first wins (nothing is done),
        and a forfeit makes any later move of that player fail, so never both count.
        """
        system = Caller.system(row.guild_id)
        users = row.setup["users"]  # type: ignore[index]
        actor_id, actor = users[game.actor], game.players[game.actor]
        if row.options.get("timeout_policy") == "forfeit":
            with in_language(game_language(row)):
                lines = [
                    _("{player} ran out of time and forfeits game #{id}; their turns are played automatically.").format(
                        player=actor, id=row.id
                    )
                ]
            notice = self.outgoing(holder, "timeout", row, actor_id, actor, lines)
            if await self.store.set_seat_status(
                row.id, actor_id, "forfeited", expected_version=row.version, notice=notice, now=self.clock()
            ):
                self.log.forget(row.id)
                await self.run_automatic(system, row.id, notify=holder)
            return
        stand_in = STAND_IN if row.options.get("timeout_policy") == "computer" else None
        if stand_in is not None and self.workers is not None:  # a computer thinks off the event loop
            moves = await self.workers.run(computer_turn, game.to_json(), stand_in)
        else:
            moves = computer_moves(game.clone(), stand_in)
        trial = game.clone()
        events: list[dict[str, Any]] = []
        for move in moves:
            events += trial.apply(move)
        language = game_language(row)
        with in_language(language):
            if stand_in is not None:
                said = _("{player} ran out of time: a computer (normal level) played the turn for them.")
            else:
                said = _("{player} ran out of time: the turn was played automatically (no figure).")
            lines = [said.format(player=actor)]
        notice = self.outgoing(holder, "timeout", row, actor_id, actor, lines + announce(events, language))
        try:
            await self.log.commit(row, game, trial, [(AUTO_USER, m) for m in trial.moves[len(game.moves) :]], notice)
        except AlreadyPlayed:
            return
        await self.run_automatic(system, row.id, notify=holder)


def _lines(row: Pending) -> list[str]:
    lines = row.body.get("lines")
    return [str(line) for line in lines] if isinstance(lines, list) else []


def _notice(
    row: Pending, guild: str | None, ids: list[int], lines: list[str] | None = None, turn: TurnView | None = None
) -> Notice:
    user, player, title = row.body.get("user_id"), row.body.get("player"), row.body.get("title")
    return Notice(row.kind, row.game_id, guild, str(user or ""), str(player or ""),
                  _lines(row) if lines is None else lines, turn, ids,
                  title[:100] if isinstance(title, str) else None)  # fmt: skip


def _duration(delta: timedelta) -> str:
    minutes = max(1, int(delta.total_seconds() // 60))
    if minutes < 120:
        return ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
    return ngettext("{n} hour", "{n} hours", minutes // 60).format(n=minutes // 60)


def _due(clock: tuple[Any, ...], now: datetime) -> bool:
    """Whether an active game's turn clock (id, turn start, options JSON, reminded, banks JSON)
    has its reminder or its timeout due; a row that does not read is due (its load says what is
    wrong)."""
    when = _due_at(clock, now)
    return when is not None and when <= now


def _due_at(
    clock: tuple[Any, ...], now: datetime,
    limits: dict[int, tuple[str, Any]] | None = None,
) -> datetime | None:  # fmt: skip
    """When an active game's next reminder or its timeout is due (None: never, no limit); a row
    that does not read is due at once (its load says what is wrong)."""
    at_once = datetime.min.replace(tzinfo=now.tzinfo)
    _game_id, started_text, options_text, reminded, banks_text = clock[:5]
    try:
        if banks_text is not None:  # a time bank: the time left to the player to move
            banks = json.loads(banks_text)
            limit = banks["left"][banks["actor"]]
        else:
            known = limits.get(clock[0]) if limits is not None else None
            if known is not None and known[0] == options_text:  # an active game's options do not change
                limit = known[1]
            else:
                limit = json.loads(options_text).get("turn_limit", 0)
                if limits is not None:
                    limits[clock[0]] = (options_text, limit)
        started = parse_time(started_text)
    except (TypeError, ValueError, AttributeError, RecursionError, KeyError, IndexError):
        return at_once
    if not validate.is_int(limit) or limit < 0:
        return at_once
    if started is None or (not limit and banks_text is None):
        return None
    if started.tzinfo is None:
        return at_once
    if not validate.is_int(reminded):
        return at_once
    fraction = REMINDERS[reminded] if 0 <= reminded < len(REMINDERS) else 1
    try:
        return started + timedelta(seconds=limit * fraction)
    except OverflowError:  # a limit past the calendar: never
        return None
