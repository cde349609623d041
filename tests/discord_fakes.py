"""Small stand-ins for the discord.py objects the cogs touch, recording what is sent.

They mirror the calls discord.py offers (same method names and keywords), so the
cogs run unchanged; the tests then read what a user would have seen.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord

_ids = itertools.count(10_000)


@dataclass
class Sent:
    kind: str  # "send", "defer", "edit", "followup", "channel"
    content: str | None = None
    embed: Any = None
    view: Any = None
    files: list[Any] = field(default_factory=list)
    ephemeral: bool = False

    @property
    def filenames(self) -> list[str]:
        return [f.filename for f in self.files]


def _files(kwargs: dict[str, Any]) -> list[Any]:
    files = list(kwargs.get("files") or [])
    if kwargs.get("file") is not None:
        files.append(kwargs["file"])
    files += [a for a in kwargs.get("attachments") or [] if isinstance(a, discord.File)]
    return files


class FakeMessage:
    def __init__(self, channel: FakeChannel | None, content: str | None, **kwargs: Any) -> None:
        self.id = next(_ids)
        self.channel = channel
        self.content = content
        self.embed = kwargs.get("embed")
        self.view = kwargs.get("view")
        self.files = _files(kwargs)

    async def edit(self, **kwargs: Any) -> FakeMessage:
        if "content" in kwargs:
            self.content = kwargs["content"]
        if "embed" in kwargs:
            self.embed = kwargs["embed"]
        if "view" in kwargs:
            self.view = kwargs["view"]
        return self


class FakeChannel:
    def __init__(self, client: FakeClient, name: str = "games") -> None:
        self.id = next(_ids)
        self.name = name
        self.client = client
        self.messages: list[FakeMessage] = []
        self.threads: list[FakeChannel] = []
        client.channels[self.id] = self

    async def send(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        message = FakeMessage(self, content, **kwargs)
        self.messages.append(message)
        return message

    async def create_thread(self, *, name: str, message: Any = None, **kwargs: Any) -> FakeChannel:
        if not self.client.may_create_threads:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "Missing Permissions")
        thread = FakeChannel(self.client, name)
        self.threads.append(thread)
        return thread


class FakeUser:
    def __init__(self, user_id: int, name: str) -> None:
        self.id = user_id
        self.display_name = name
        self.name = name
        self.mention = f"<@{user_id}>"
        self.dms: list[str] = []

    async def send(self, content: str) -> None:
        self.dms.append(content)


class FakeClient:
    def __init__(self, service: Any) -> None:
        self.service = service
        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeUser] = {}
        self.may_create_threads = True

    def get_channel(self, channel_id: int) -> FakeChannel | None:
        return self.channels.get(channel_id)

    async def fetch_channel(self, channel_id: int) -> FakeChannel:
        return self.channels[channel_id]

    def get_user(self, user_id: int) -> FakeUser | None:
        return self.users.get(user_id)

    async def fetch_user(self, user_id: int) -> FakeUser:
        return self.users[user_id]


class FakeResponse:
    def __init__(self, interaction: FakeInteraction) -> None:
        self.interaction = interaction
        self._done = False

    def is_done(self) -> bool:
        return self._done

    def _mark(self) -> None:
        if self._done:
            raise RuntimeError("this interaction has already been responded to")  # as discord.py does
        self._done = True

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self._mark()
        self.interaction.log.append(Sent("defer", ephemeral=ephemeral))

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self._mark()
        self.interaction.log.append(
            Sent(
                "send", content, kwargs.get("embed"), kwargs.get("view"), _files(kwargs), kwargs.get("ephemeral", False)
            )
        )

    async def edit_message(self, **kwargs: Any) -> None:
        self._mark()
        self.interaction.log.append(
            Sent("edit", kwargs.get("content"), kwargs.get("embed"), kwargs.get("view"), _files(kwargs))
        )
        if self.interaction.message is not None:
            await self.interaction.message.edit(**kwargs)


class FakeFollowup:
    def __init__(self, interaction: FakeInteraction) -> None:
        self.interaction = interaction

    async def send(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        sent = Sent(
            "followup", content, kwargs.get("embed"), kwargs.get("view"), _files(kwargs), kwargs.get("ephemeral", False)
        )
        self.interaction.log.append(sent)
        message = FakeMessage(self.interaction.channel, content, **kwargs)
        if not sent.ephemeral and self.interaction.channel is not None:
            self.interaction.channel.messages.append(message)
        return message


def permissions(**granted: bool) -> discord.Permissions:
    base = dict(
        send_messages=True, create_public_threads=True, send_messages_in_threads=True, attach_files=True,
        embed_links=True,
    )  # fmt: skip
    base.update(granted)
    return discord.Permissions(**base)


class FakeInteraction:
    def __init__(
        self, client: FakeClient, user: FakeUser, channel: FakeChannel, guild_id: int = 1,
        message: FakeMessage | None = None, app_permissions: discord.Permissions | None = None,
        manager: bool = False, namespace: dict[str, Any] | None = None,
    ) -> None:  # fmt: skip
        self.client = client
        self.user = user
        client.users[user.id] = user
        self.channel = channel
        self.channel_id = channel.id
        self.guild_id = guild_id
        self.message = message
        self.app_permissions = app_permissions or permissions()
        self.permissions = discord.Permissions(manage_guild=manager)
        self.namespace = SimpleNamespace(**(namespace or {}))
        self.log: list[Sent] = []
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.log.append(Sent("edit", kwargs.get("content"), kwargs.get("embed"), kwargs.get("view"), _files(kwargs)))

    @property
    def ephemeral_texts(self) -> list[str]:
        return [s.content or "" for s in self.log if s.ephemeral and s.kind != "defer"]
