"""The game table: what the bot posts in a game's thread, whichever cog or clock caused it.

Every cog reaches it as ``bot.table`` (cogs.common.table_of): turn posts with their picture and
Take turn button, the final post, turn DMs, the thread a started game gets, the clock's notices.
It acts for the game's own server (``Caller.system``).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from typing import Any

import discord

from cogs import present
from cogs.common import channel_by_id, picture, pictures
from cogs.i18n import speak
from cogs.lobby import RematchButton
from cogs.metrics import FAILED_POSTS
from cogs.panel import turn_view
from engine.language import _
from renderer.jobs import cell_labels, final_pieces_png, replay_gif, story_png, turn_pngs
from service import Caller, GameService, Notice, ServiceError, TurnView

log = logging.getLogger(__name__)


class Table:
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service  # type: ignore[no-any-return]

    async def thread_of(self, game_id: int, guild_id: str | None, fallback: Any = None) -> Any:
        """The game's thread (or, failing that, ``fallback``)."""
        row = await self.service.lobby(Caller.system(guild_id), game_id)
        thread = await channel_by_id(self.bot, row.thread_id)
        return fallback if thread is None else thread

    async def post_turn(self, channel: Any, view: TurnView, lines: list[str], nonce: str | None = None) -> None:
        """The board, what happened, and the Take turn button; or the final result (in the game's language).
        ``nonce``: the same for a post sent again (Discord then keeps the first: an outbox row's)."""
        if channel is None:
            return
        with speak(view.language):
            await self._post_turn(channel, view, lines, nonce)

    async def _post_turn(self, channel: Any, view: TurnView, lines: list[str], nonce: str | None = None) -> None:
        who, game_id = Caller.system(view.guild_id), view.game_id
        if view.finished:
            files = []
            pieces: list[bytes] = []
            if self.service.workers is not None:  # the final board, and in quarters when too big to read whole
                try:
                    pieces = await self.service.picture(who, final_pieces_png, game_id, language=view.language)
                except Exception:  # a picture is never a reason for the final post to fail
                    log.exception("final pictures of game %s", game_id)
            names = ["final.png", "final-nw.png", "final-ne.png", "final-sw.png", "final-se.png"]
            files += [present.png_file(png, name) for png, name in zip(pieces, names, strict=False)]
            story = await picture(self.service, story_png, game_id, game_id, who=who, language=view.language)
            if story:  # the game's story: points by category, the scores turn by turn
                files.insert(1 if files else 0, present.png_file(story, "story.png"))
            gif = await picture(self.service, replay_gif, game_id, who=who, language=view.language)
            if gif and len(gif) < 8 * 1024 * 1024:
                files.append(present.png_file(gif, "replay.gif"))
            try:  # the game's record, whole now that it is over: python -m engine.replay replays it
                record = json.dumps(await self.service.export(who, game_id), indent=1).encode()
                files.append(discord.File(io.BytesIO(record), filename=f"carcassonne-{game_id}.json"))
            except ServiceError as exc:
                log.warning("no record for game %s's final post: %s", game_id, exc)
            row = await self.service.lobby(who, game_id)
            again = None
            if row.league_id is None:  # a rated game's next match is the league's to open
                again = discord.ui.View(timeout=None)
                again.add_item(RematchButton(game_id))
            await channel.send(present.final_content(view, lines), files=files, view=again,  # type: ignore[arg-type]
                               allowed_mentions=present.NO_PINGS, nonce=nonce)  # fmt: skip
            return
        if present.is_snowflake(view.user_id):  # the others see that the turn waits for a player away
            away = await self.service.away_until(Caller.system(view.guild_id), view.user_id)  # type: ignore[arg-type]
            if away is not None:
                with speak(view.language):
                    lines = [*lines, present.away_line(view.player or "?", away)]
        legal = cell_labels(view.placements)
        clocks = present.clock_words(view)
        pngs = await pictures(self.service, turn_pngs, game_id, legal or None, clocks, who=who, language=view.language)
        files = present.turn_files(pngs)
        await channel.send(
            present.turn_content(view, lines),
            files=files,
            view=turn_view(view),
            allowed_mentions=present.ping(view.user_id),
            nonce=nonce,
        )

    async def announce(
        self, view: TurnView, lines: list[str], fallback: Any = None, outbox: list[int] | None = None
    ) -> None:
        """Post the turn in the game's thread and DM the next player if they asked for it.
        ``outbox``: the rows this post tells (``PlayResult.outbox``), marked posted once it went out
        (a failed post is left to the deadline clock, which posts it again, under the same nonce)."""
        nonce = f"carc-n{outbox[0]}" if outbox else None
        try:
            await self.post_turn(await self.thread_of(view.game_id, view.guild_id, fallback), view, lines, nonce)
        except discord.HTTPException as exc:  # a deleted thread or a lost permission: the game goes on
            FAILED_POSTS.labels("turn").inc()
            log.warning("could not post game %s in its thread: %s", view.game_id, exc)
        else:
            if outbox:
                try:
                    await self.service.mark_posted(outbox)
                except Exception:  # the clock posts it again after its hold, under the same nonce
                    log.exception("game %s: the turn post went out but is not marked", view.game_id)
        await self.notify_by_dm(view)

    async def notify_by_dm(self, view: TurnView) -> None:
        """A DM for players who asked for one (``/carc settings``): the tile and the thread."""
        if view.finished or not present.is_snowflake(view.user_id):
            return
        assert view.user_id is not None
        try:
            system = Caller.system(view.guild_id)
            settings = await self.service.dm_settings(system, view.user_id)
            if not settings.get("dm_turns"):
                return
            row = await self.service.lobby(system, view.game_id)
            language = settings.get("language", "en")
            mine = await self.service.turn(system, view.game_id, language=language)  # the question in their words
            question = mine.question
            with speak(language):
                what = question.prompt if question is not None else _("play")
                if row.thread_id:
                    text = _("Your turn in Carcassonne game #{id} in {thread}: {question}.").format(
                        id=view.game_id, thread=f"<#{row.thread_id}>", question=what
                    )
                else:
                    text = _("Your turn in Carcassonne game #{id}: {question}.").format(id=view.game_id, question=what)
            user = self.bot.get_user(int(view.user_id)) or await self.bot.fetch_user(int(view.user_id))
            await user.send(present.clip(text), allowed_mentions=present.NO_PINGS)
        except (discord.HTTPException, ServiceError):
            log.info("could not DM %s", view.user_id)

    async def remind_by_dm(self, notice: Notice) -> None:
        """The reminder by DM too, for players who asked for turn DMs (once: the clock reminds once)."""
        if not present.is_snowflake(notice.user_id):
            return
        try:
            settings = await self.service.dm_settings(Caller.system(notice.guild_id), notice.user_id)
            if not settings.get("dm_turns"):
                return
            user = self.bot.get_user(int(notice.user_id)) or await self.bot.fetch_user(int(notice.user_id))
            await user.send(present.clip(" ".join(notice.lines)), allowed_mentions=present.NO_PINGS)
        except (discord.HTTPException, ServiceError):
            log.info("could not DM %s", notice.user_id)

    async def open_game_thread(
        self, channel: Any, game_id: int, guild_id: str | None, user_ids: list[str], title: str, starter: Any = None,
        opening: list[str] | None = None, outbox: list[int] | None = None,
    ) -> None:  # fmt: skip
        """A thread for a started game (from its lobby message when there is one), the
        seats with their colours, the players pinged, what the computers who sit first did
        (``opening``), and the first human turn. ``outbox``: the rows of this opening post
        (``PlayResult.outbox``), marked once it went out; a process that dies before leaves them
        to the deadline clock, which opens the thread then (``post_notice``)."""
        thread = await self._game_thread(channel, game_id, guild_id, title, starter)
        if thread is None:
            return
        nonce = f"carc-n{outbox[0]}" if outbox else None
        try:
            view = await self._post_opening(thread, game_id, guild_id, user_ids, opening or [], nonce)
        except discord.HTTPException as exc:  # left to the clock, which posts it again (same nonces)
            FAILED_POSTS.labels("turn").inc()
            log.warning("could not post game %s's opening: %s", game_id, exc)
            return
        if outbox:
            try:
                await self.service.mark_posted(outbox)
            except Exception:  # the clock posts it again after its hold, under the same nonce
                log.exception("game %s: the opening post went out but is not marked", game_id)
        await self.notify_by_dm(view)

    async def _post_opening(
        self, thread: Any, game_id: int, guild_id: str | None, user_ids: list[str], opening: list[str],
        nonce: str | None,
    ) -> TurnView:  # fmt: skip
        """The seats with their colours (the players pinged) and the first turn, in the thread."""
        view = await self.service.turn(Caller.system(guild_id), game_id)
        pings = " ".join(present.mention(u, "") for u in user_ids if present.is_snowflake(u))
        with speak(view.language):
            head = _("Game #{id} starts. Seats and colours: {seats}.").format(
                id=game_id, seats=present.seat_line(list(view.scores))
            )
        if pings:
            await thread.send(
                present.clip(f"{pings} {head}"), allowed_mentions=present.ping_users(user_ids),
                nonce=f"{nonce}h" if nonce else None,
            )  # fmt: skip
            head = ""
        await self.post_turn(thread, view, ([head] if head else []) + opening, nonce)
        return view

    async def _game_thread(self, channel: Any, game_id: int, guild_id: str | None, title: str, starter: Any) -> Any:
        """The game's thread: the one it has (an opening posted again), else a new one (from the
        lobby message ``starter`` when there is one); ``channel`` itself when none can be made."""
        system = Caller.system(guild_id)
        existing = await self.thread_of(game_id, guild_id)
        if existing is not None:
            return existing
        try:
            if starter is not None:
                thread = await starter.create_thread(name=present.clip(title, 100), auto_archive_duration=10080)
            elif channel is not None:
                thread = await channel.create_thread(
                    name=present.clip(title, 100), auto_archive_duration=10080, type=discord.ChannelType.public_thread
                )
            else:
                return None
        except (discord.HTTPException, AttributeError) as exc:
            FAILED_POSTS.labels("thread").inc()
            log.warning("no thread for game %s: %s", game_id, exc)
            return channel
        await self.service.attach(system, game_id, thread_id=str(thread.id))
        return thread

    async def post_notice(self, notice: Notice) -> None:
        """What the deadline clock did: a reminder in the thread, or the turn it played. Its nonce
        names its outbox row: a notice posted again (its process died before marking it) is kept once."""
        if notice.kind == "started":  # its process died before the opening post: made now
            await self._opening_again(notice)
            return
        channel = await self.thread_of(notice.game_id, notice.guild_id)
        nonce = f"carc-n{notice.outbox[0]}" if notice.outbox else None
        if notice.kind == "reminder":
            if channel is not None:
                await channel.send(
                    present.clip(f"{present.mention(notice.user_id, notice.player)} " + " ".join(notice.lines)),
                    allowed_mentions=present.ping(notice.user_id),
                    nonce=nonce,
                )
            await self.remind_by_dm(notice)
        elif notice.turn is not None:
            await self.post_turn(channel, notice.turn, notice.lines, nonce)
            await self.notify_by_dm(notice.turn)

    async def _opening_again(self, notice: Notice) -> None:
        """A started game's opening post from the outbox: its thread (from the lobby message when
        it can still be read), the seats and the first turn, under the row's nonce. A failure
        raises: the clock's loop offers the notice again."""
        row = await self.service.lobby(Caller.system(notice.guild_id), notice.game_id)
        channel = await channel_by_id(self.bot, row.channel_id)
        starter = None
        if channel is not None and row.lobby_message and row.lobby_message.isdigit() and not row.thread_id:
            with contextlib.suppress(discord.HTTPException, AttributeError):
                starter = await channel.fetch_message(int(row.lobby_message))
        title = notice.title or f"Carcassonne #{notice.game_id}"
        thread = await self._game_thread(channel, notice.game_id, notice.guild_id, title, starter)
        if thread is None:
            raise RuntimeError(f"game {notice.game_id}: no channel to open its thread in")
        nonce = f"carc-n{notice.outbox[0]}" if notice.outbox else None
        users = [seat.user_id for seat in row.seats]
        view = await self._post_opening(thread, notice.game_id, notice.guild_id, users, notice.lines, nonce)
        await self.notify_by_dm(view)
