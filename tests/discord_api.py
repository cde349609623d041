"""A fake Discord API for the bot's tests (../shared/docs/DISCORD.md).

The real bot (``CarcBot``: its setup hook, command tree, cogs, views and
``DynamicItem``s) runs inside discord.py; only the transport at the very bottom is
replaced: ``HTTPClient.request`` (REST) and ``AsyncWebhookAdapter.request``
(interaction responses, followups, ``@original``). Users act by raw
``INTERACTION_CREATE`` payloads fed to discord.py's own parser, built from the
commands and components the bot actually sent. The fake answers with Discord's
JSON and refuses what Discord refuses (its status and error code), so the bot
meets the exceptions it would meet live; every broken rule is also kept in
``violations`` so a test can assert there are none.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

EPHEMERAL = 64
MANAGE_GUILD = 1 << 5
ALL_PERMISSIONS = (1 << 50) - 1
USER_PERMISSIONS = 0x0000_0000_0006_4C00 | (1 << 38) | (1 << 35) | (1 << 15) | (1 << 14) | (1 << 11)
THREAD_DURATIONS = {60, 1440, 4320, 10080}
UPLOAD_LIMIT = 10 * 1024 * 1024
TOKEN_LIFE = 15 * 60
RESPONSE_WINDOW = 3.0
_PING = re.compile(r"@everyone|@here|<@&\d+>")


@dataclass
class User:
    id: int
    name: str
    manager: bool = False
    locale: str = "en-US"
    roles: list[int] = field(default_factory=list)

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name.lower()[:32] or "user", "discriminator": "0",
                "global_name": self.name, "avatar": None}  # fmt: skip


@dataclass
class Interaction:
    id: int
    token: str
    kind: int
    created: float
    user: User
    channel_id: int
    responded: int | None = None  # the initial response's type
    response_flags: int = 0
    responded_at: float | None = None
    original: int | None = None  # message id of @original
    followups: list[int] = field(default_factory=list)
    edited_original: bool = False
    autocomplete: list[dict[str, Any]] | None = None


@dataclass
class Answer:
    """What the bot answered one user action with."""

    interaction: Interaction
    messages: list[dict[str, Any]]  # messages created or edited because of it, in order

    @property
    def response_type(self) -> int | None:
        return self.interaction.responded

    @property
    def text(self) -> str:
        return "\n".join(m.get("content") or "" for m in self.messages)

    @property
    def private(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("flags", 0) & EPHEMERAL]

    @property
    def public(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if not m.get("flags", 0) & EPHEMERAL]


class FakeDiscord:
    """The server side: guilds, channels, messages, interactions, and Discord's rules."""

    def __init__(self) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.app_id = self.new_id()
        self.bot_user = User(self.app_id, "Carcassonne")
        self.guilds: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.nonces: dict[str, dict[str, Any]] = {}  # enforce_nonce: a nonce already used gives its message
        self.threads_from: dict[int, int] = {}  # starter message -> thread
        self.interactions: dict[str, Interaction] = {}
        self.commands: list[dict[str, Any]] = []
        self.violations: list[tuple[str, str]] = []
        self.unhandled: list[str] = []
        self.clock_offset = 0.0
        self.guild_locale = "en-US"  # the servers' language, as Discord reports it in interactions
        self.log: list[dict[str, Any]] = []  # every message created or edited, in order
        self.dms: dict[int, list[dict[str, Any]]] = {}
        self.offered_in_dms: set[str] = set()  # commands a user could pick in a DM (slash() notes them)

    def new_id(self) -> int:
        return next(self._ids)

    def now(self) -> float:
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Let time pass (tokens expire after 15 minutes)."""
        self.clock_offset += seconds

    # ------------------------------------------------------------------ the world
    def add_guild(self, name: str, users: list[User]) -> tuple[int, int]:
        """A server with one text channel; returns (guild id, channel id)."""
        gid, cid = self.new_id(), self.new_id()
        self.guilds[gid] = {"id": gid, "name": name, "users": list(users)}
        self.channels[cid] = {"id": str(cid), "type": 0, "name": "games", "guild_id": str(gid), "position": 0,
                              "permission_overwrites": [], "parent_id": None}  # fmt: skip
        return gid, cid

    def guild_payload(self, gid: int) -> dict[str, Any]:
        guild = self.guilds[gid]
        return {
            "id": str(gid), "name": guild["name"], "owner_id": str(guild["users"][0].id), "unavailable": False,
            "roles": [{"id": str(rid), "name": "@everyone" if rid == gid else f"role {rid}",
                       "permissions": str(USER_PERMISSIONS), "position": 0, "color": 0, "hoist": False,
                       "managed": False, "mentionable": False, "flags": 0}
                      for rid in [gid, *sorted({r for u in guild["users"] for r in u.roles})]],
            "channels": [c for c in self.channels.values() if c["guild_id"] == str(gid) and c["type"] == 0],
            "members": [self.member(u) for u in guild["users"]], "member_count": len(guild["users"]),
            "threads": [], "features": [], "emojis": [], "stickers": [], "large": False, "joined_at": _iso(),
        }  # fmt: skip

    def member(self, user: User) -> dict[str, Any]:
        perms = ALL_PERMISSIONS if user.manager else USER_PERMISSIONS
        return {"user": user.payload(), "roles": [str(r) for r in user.roles], "joined_at": _iso(), "deaf": False,
                "mute": False, "flags": 0, "permissions": str(perms)}  # fmt: skip

    # ------------------------------------------------------------------ errors
    def violate(self, rule: str, detail: str, status: int = 0, code: int = 0) -> None:
        self.violations.append((rule, detail[:300]))
        if status:
            raise _http_error(status, code, f"{rule}: {detail[:200]}")

    # ------------------------------------------------------------------ REST
    async def http_request(
        self, route: discord.http.Route, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        payload, uploads = _payload(kwargs.get("json"), form, files)
        method, path = route.method, route.path.format(**_params(route))
        return await self._dispatch(method, path, payload, uploads, kwargs.get("params"), rest=True)

    async def webhook_request(self, route: discord.http.Route, session: Any = None, **kwargs: Any) -> Any:
        payload, uploads = _payload(kwargs.get("payload"), kwargs.get("multipart"), kwargs.get("files"))
        method, path = route.method, route.path.format(**_params(route))
        return await self._dispatch(method, path, payload, uploads, kwargs.get("params"), rest=False)

    async def _dispatch(self, method: str, path: str, payload: Any, uploads: list[tuple[str, int]], params: Any,
                        rest: bool) -> Any:  # fmt: skip
        await asyncio.sleep(0)
        parts = path.strip("/").split("/")
        if path == "/users/@me":
            return self.bot_user.payload() | {"bot": True}
        if path == "/oauth2/applications/@me":
            return {"id": str(self.app_id), "name": "Carcassonne", "description": "", "icon": None, "bot_public": True,
                    "bot_require_code_grant": False, "owner": self.bot_user.payload(), "verify_key": "k", "flags": 0,
                    "team": None}  # fmt: skip
        if parts[:2] == ["applications", str(self.app_id)] and parts[-1] == "commands" and method == "PUT":
            return self._sync(payload)
        if parts[0] == "interactions" and parts[-1] == "callback":
            return self._callback(parts[2], payload, uploads)
        if parts[0] == "webhooks":
            return self._webhook(method, parts, payload, uploads, params or {})
        if parts[0] == "channels":
            return self._channel(method, parts, payload, uploads)
        if path == "/users/@me/channels":
            uid = int(payload["recipient_id"])
            cid = self.new_id()
            self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [self._user(uid).payload()],
                                  "guild_id": None, "dm_of": uid}  # fmt: skip
            return self.channels[cid]
        if parts[0] == "users" and len(parts) == 2:
            return self._user(int(parts[1])).payload()
        self.unhandled.append(f"{method} {path}")
        return {}

    def _user(self, uid: int) -> User:
        for guild in self.guilds.values():
            for u in guild["users"]:
                if u.id == uid:
                    return u
        raise _http_error(404, 10013, "Unknown User")

    # ------------------------------------------------------------------ commands
    def _sync(self, payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(payload) > 100:
            self.violate("commands", "more than 100 commands", 400, 50035)
        for command in payload:
            self._check_command(command, command["name"])
        self.commands = [dict(c, id=str(self.new_id()), application_id=str(self.app_id), version="1") for c in payload]
        return self.commands

    def _check_command(self, command: dict[str, Any], where: str) -> None:
        names = [command.get("name", "")] + list((command.get("name_localizations") or {}).values())
        for name in names:
            if not (1 <= len(name) <= 32) or name != name.lower() or not re.fullmatch(r"[-_\w]{1,32}", name):
                self.violate("command name", f"{where}: {name!r}", 400, 50035)
        descriptions = [command.get("description", "")] + list(
            (command.get("description_localizations") or {}).values()
        )
        for description in descriptions:
            if command.get("type", 1) in (1, None) and not 1 <= len(description) <= 100:
                self.violate("command description", f"{where}: {description!r}", 400, 50035)
        for choice in command.get("choices") or []:
            for text in [choice["name"], *(choice.get("name_localizations") or {}).values()]:
                if not 1 <= len(text) <= 100:
                    self.violate("choice name", f"{where}: {text!r}", 400, 50035)
        siblings = command.get("options") or []
        for language in {k for o in siblings for k in (o.get("name_localizations") or {})}:
            local = [(o.get("name_localizations") or {}).get(language, o["name"]) for o in siblings]
            if len(set(local)) != len(local):
                self.violate("option names unique", f"{where} ({language}): {sorted(local)}", 400, 50035)
        options = command.get("options") or []
        if len(options) > 25:
            self.violate("command options", where, 400, 50035)
        seen_optional = False
        for option in options:
            if option.get("type") in (1, 2):
                self._check_command(option, f"{where} {option.get('name')}")
                continue
            self._check_command(option | {"type": 1}, f"{where} {option.get('name')}")
            if option.get("required"):
                if seen_optional:
                    self.violate("required options first", where, 400, 50035)
            else:
                seen_optional = True
            if len(option.get("choices") or []) > 25:
                self.violate("option choices", where, 400, 50035)

    def command_named(self, path: str) -> tuple[dict[str, Any], list[str]]:
        first, *rest = path.split()
        for command in self.commands:
            if command["name"] == first:
                return command, rest
        raise KeyError(f"no command /{first} registered")

    # ------------------------------------------------------------------ messages
    def _check_message(self, payload: dict[str, Any], uploads: list[tuple[str, int]], where: str,
                       creating: bool) -> None:  # fmt: skip
        content = payload.get("content") or ""
        if len(content) > 2000:
            self.violate("content over 2000", f"{where}: {len(content)}", 400, 50035)
        embeds = payload.get("embeds") or []
        if len(embeds) > 10:
            self.violate("more than 10 embeds", where, 400, 50035)
        total = 0
        for embed in embeds:
            total += _check_embed(self, embed, where)
        if total > 6000:
            self.violate("embeds over 6000", where, 400, 50035)
        components = payload.get("components") or []
        if creating and not (content or embeds or components or uploads or payload.get("attachments")):
            self.violate("empty message", where, 400, 50006)
        _check_components(self, components, where)
        if len(uploads) > 10:
            self.violate("more than 10 files", where, 400, 50035)
        for name, size in uploads:
            if size > UPLOAD_LIMIT:
                self.violate("file too large", f"{where}: {name} {size}", 413, 40005)
        if _PING.search(content):
            allowed = payload.get("allowed_mentions")
            parse = (allowed or {}).get("parse", ["everyone", "roles", "users"]) if allowed is not None else [
                "everyone", "roles", "users"]  # fmt: skip
            pings_everyone = ("@everyone" in content or "@here" in content) and "everyone" in parse
            pings_role = bool(re.search(r"<@&\d+>", content)) and ("roles" in parse or (allowed or {}).get("roles"))
            if pings_everyone or pings_role:
                self.violate("mentions", f"{where}: {content[:80]!r} could ping")

    def _new_message(self, channel_id: int, payload: dict[str, Any], uploads: list[tuple[str, int]],
                     flags: int = 0, interaction: Interaction | None = None) -> dict[str, Any]:  # fmt: skip
        mid = self.new_id()
        channel = self.channels.get(channel_id, {})
        message = {
            "id": str(mid), "channel_id": str(channel_id), "author": self.bot_user.payload() | {"bot": True},
            "content": payload.get("content") or "", "embeds": payload.get("embeds") or [],
            "components": payload.get("components") or [], "attachments": _attachments(self, uploads),
            "flags": flags | (payload.get("flags") or 0), "timestamp": _iso(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False, "type": 0,
        }  # fmt: skip
        if channel.get("guild_id"):
            message["guild_id"] = channel["guild_id"]
        if interaction is not None:
            message["webhook_id"] = str(self.app_id)
            message["type"] = 20 if interaction.kind == 2 else 19
        self.messages[mid] = message
        self.log.append(message)
        if channel.get("dm_of"):
            self.dms.setdefault(channel["dm_of"], []).append(message)
        return message

    def _edit(self, message: dict[str, Any], payload: dict[str, Any], uploads: list[tuple[str, int]]) -> dict[str, Any]:
        for key in ("content", "embeds", "components"):
            if key in payload:
                message[key] = payload[key] or ([] if key != "content" else "")
        if "attachments" in payload or uploads:
            kept = [a for a in message["attachments"] if any(str(k.get("id")) == a["id"]
                    for k in payload.get("attachments") or [])]  # fmt: skip
            message["attachments"] = kept + _attachments(self, uploads)
        message["edited_timestamp"] = _iso()
        self.log.append(message)
        return message

    def _channel(self, method: str, parts: list[str], payload: Any, uploads: list[tuple[str, int]]) -> Any:
        cid = int(parts[1])
        if cid not in self.channels:
            raise _http_error(404, 10003, "Unknown Channel")
        if len(parts) == 2 and method == "GET":
            return self.channels[cid]
        if parts[2:] == ["messages"] and method == "POST":
            self._check_message(payload, uploads, f"POST message in {cid}", True)
            nonce = payload.get("nonce") if payload.get("enforce_nonce") else None
            if nonce is not None and nonce in self.nonces:  # Discord returns the message that nonce made
                return self.nonces[nonce]
            message = self._new_message(cid, payload, uploads)
            if nonce is not None:
                self.nonces[nonce] = message
            return message
        if len(parts) >= 4 and parts[2] == "messages":
            message = self.messages.get(int(parts[3]))
            if message is None or message["channel_id"] != str(cid):
                raise _http_error(404, 10008, "Unknown Message")
            if message["flags"] & EPHEMERAL:
                self.violate("ephemeral via channel", f"{method} message {parts[3]}", 404, 10008)
            if len(parts) == 4 and method == "GET":
                return message
            if len(parts) == 4 and method == "PATCH":
                self._check_message(payload, uploads, f"PATCH message {parts[3]}", False)
                return self._edit(message, payload, uploads)
            if parts[4:] == ["threads"] and method == "POST":
                if int(parts[3]) in self.threads_from:
                    self.violate("one thread per message", parts[3], 400, 160004)
                thread = self._thread(cid, payload)
                self.threads_from[int(parts[3])] = int(thread["id"])
                return thread
        if parts[2:] == ["threads"] and method == "POST":
            return self._thread(cid, payload)
        self.unhandled.append(f"{method} /{'/'.join(parts)}")
        return {}

    def _thread(self, parent: int, payload: dict[str, Any]) -> dict[str, Any]:
        name = payload.get("name") or ""
        if not 1 <= len(name) <= 100:
            self.violate("thread name", repr(name[:120]), 400, 50035)
        if payload.get("auto_archive_duration", 4320) not in THREAD_DURATIONS:
            self.violate("auto_archive_duration", str(payload.get("auto_archive_duration")), 400, 50035)
        tid = self.new_id()
        guild = self.channels[parent]["guild_id"]
        self.channels[tid] = {
            "id": str(tid), "type": 11, "name": name, "guild_id": guild, "parent_id": str(parent),
            "owner_id": str(self.app_id), "thread_metadata": {"archived": False, "auto_archive_duration": 10080,
            "archive_timestamp": _iso(), "locked": False}, "message_count": 0, "member_count": 1,
            "rate_limit_per_user": 0, "flags": 0,
        }  # fmt: skip
        return self.channels[tid]

    # ------------------------------------------------------------------ interactions
    def _live(self, token: str) -> Interaction:
        interaction = self.interactions.get(token)
        if interaction is None:
            raise _http_error(404, 10062, "Unknown interaction")
        if self.now() - interaction.created > TOKEN_LIFE:
            self.violate("token expired", f"interaction {interaction.id}", 401, 50027)
        return interaction

    def _callback(self, token: str, payload: dict[str, Any], uploads: list[tuple[str, int]]) -> dict[str, Any]:
        interaction = self._live(token)
        if interaction.responded is not None:
            self.violate("second initial response", f"interaction {interaction.id}", 400, 40060)
        late = self.now() - interaction.created
        if late > RESPONSE_WINDOW:
            self.violate("answered after 3 s", f"{late:.2f} s", 404, 10062)
        kind = payload["type"]
        data = payload.get("data") or {}
        interaction.responded, interaction.responded_at = kind, self.now()
        interaction.response_flags = data.get("flags") or 0
        message = None
        if kind == 8:
            choices = data.get("choices") or []
            if len(choices) > 25:
                self.violate("autocomplete over 25", str(len(choices)), 400, 50035)
            for choice in choices:
                if not 1 <= len(choice["name"]) <= 100 or len(str(choice["value"])) > 100:
                    self.violate("autocomplete choice", repr(choice)[:120], 400, 50035)
            interaction.autocomplete = choices
        elif kind == 4:
            self._check_message(data, uploads, f"response to {interaction.id}", True)
            message = self._new_message(interaction.channel_id, data, uploads, data.get("flags") or 0, interaction)
            interaction.original = int(message["id"])
        elif kind == 5:
            message = self._new_message(interaction.channel_id, {"content": ""}, [], (data.get("flags") or 0) | 128,
                                        interaction)  # fmt: skip
            interaction.original = int(message["id"])
        elif kind == 6:
            interaction.original = interaction.original  # the component's message stays @original
        elif kind == 7:
            if interaction.original is None:
                self.violate("update without a message", str(interaction.id), 400, 50035)
            self._check_message(data, uploads, f"update of {interaction.id}", False)
            message = self._edit(self.messages[interaction.original], data, uploads)  # type: ignore[index]
        return {
            "interaction": {"id": str(interaction.id), "type": interaction.kind, "response_message_id":
                            message["id"] if message else None, "response_message_loading": kind == 5,
                            "response_message_ephemeral": bool(interaction.response_flags & EPHEMERAL)},
            "resource": {"type": kind, "message": message} if message else {"type": kind},
        }  # fmt: skip

    def _webhook(self, method: str, parts: list[str], payload: Any, uploads: list[tuple[str, int]],
                 params: dict[str, Any]) -> Any:  # fmt: skip
        interaction = self._live(parts[2])
        if interaction.responded is None:
            self.violate("followup before the response", f"{method} {parts[3:]}", 404, 10015)
        if len(parts) == 3 and method == "POST":  # a followup
            self._check_message(payload, uploads, f"followup of {interaction.id}", True)
            flags = payload.get("flags") or 0
            if interaction.responded == 5 and not interaction.followups and not interaction.edited_original:
                # The first followup replaces the "thinking" message: it keeps the defer's visibility.
                deferred_private = bool(interaction.response_flags & EPHEMERAL)
                if flags & EPHEMERAL and not deferred_private:
                    self.violate("ephemeral after a public defer", (payload.get("content") or "")[:120])
                flags = (flags & ~EPHEMERAL) | (EPHEMERAL if deferred_private else 0)
                message = self.messages[interaction.original]  # type: ignore[index]
                message["flags"] = flags
                message = self._edit(message, payload, uploads)
            else:
                message = self._new_message(interaction.channel_id, payload, uploads, flags, interaction)
            interaction.followups.append(int(message["id"]))
            return message
        target = parts[4] if len(parts) >= 5 else ""
        if target == "@original":
            if interaction.original is None:
                raise _http_error(404, 10008, "Unknown Message")
            message = self.messages[interaction.original]
        else:
            message = self.messages.get(int(target)) if target.isdigit() else None
            if message is None:
                raise _http_error(404, 10008, "Unknown Message")
        if method == "GET":
            return message
        if method == "PATCH":
            self._check_message(payload, uploads, f"edit of {target}", False)
            if target == "@original":
                interaction.edited_original = True
            return self._edit(message, payload, uploads)
        if method == "DELETE":
            message["deleted"] = True
            return None
        self.unhandled.append(f"{method} webhook {parts[3:]}")
        return {}


def _check_embed(fake: FakeDiscord, embed: dict[str, Any], where: str) -> int:
    limits = {"title": 256, "description": 4096}
    total = 0
    for key, limit in limits.items():
        text = embed.get(key) or ""
        total += len(text)
        if len(text) > limit:
            fake.violate(f"embed {key}", where, 400, 50035)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        fake.violate("embed fields", where, 400, 50035)
    for f in fields:
        total += len(f.get("name", "")) + len(f.get("value", ""))
        if not f.get("name") or len(f["name"]) > 256 or not f.get("value") or len(f["value"]) > 1024:
            fake.violate("embed field", f"{where}: {f.get('name', '')[:40]!r}", 400, 50035)
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > 2048 or len(author) > 256:
        fake.violate("embed footer/author", where, 400, 50035)
    return total + len(footer) + len(author)


def _check_components(fake: FakeDiscord, rows: list[dict[str, Any]], where: str) -> None:
    if len(rows) > 5:
        fake.violate("more than 5 rows", where, 400, 50035)
    ids: list[str] = []
    for row in rows:
        items = row.get("components") or []
        selects = [c for c in items if c["type"] in (3, 5, 6, 7, 8)]
        if (selects and len(items) != 1) or len(items) > 5 or not items:
            fake.violate("row layout", f"{where}: {len(items)} items", 400, 50035)
        for c in items:
            if c.get("url"):
                if c.get("custom_id"):
                    fake.violate("link button with custom_id", where, 400, 50035)
                continue
            cid = c.get("custom_id") or ""
            if not 1 <= len(cid) <= 100:
                fake.violate("custom_id length", f"{where}: {cid[:120]!r}", 400, 50035)
            ids.append(cid)
            if c["type"] == 2 and len(c.get("label") or "") > 80:
                fake.violate("button label over 80", where, 400, 50035)
            if c["type"] == 3:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    fake.violate("select options count", f"{where}: {len(options)}", 400, 50035)
                if len(c.get("placeholder") or "") > 150:
                    fake.violate("placeholder over 150", where, 400, 50035)
                values = [o.get("value", "") for o in options]
                if len(set(values)) != len(values):
                    fake.violate("select values unique", where, 400, 50035)
                for o in options:
                    if not 1 <= len(o.get("label", "")) <= 100 or not 1 <= len(o.get("value", "")) <= 100:
                        fake.violate("select option label/value", f"{where}: {o.get('label', '')[:40]!r}", 400, 50035)
                    if len(o.get("description") or "") > 100:
                        fake.violate("select option description", where, 400, 50035)
                low, high = c.get("min_values", 1), c.get("max_values", 1)
                if not 0 <= low <= high <= min(25, len(options)):
                    fake.violate("select min/max values", f"{where}: {low}..{high}/{len(options)}", 400, 50035)
    if len(set(ids)) != len(ids):
        fake.violate("custom_id unique", f"{where}: {sorted(ids)}", 400, 50035)


def _http_error(status: int, code: int, message: str) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason=message)
    data = {"code": code, "message": message}
    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return cls(response, data)  # type: ignore[arg-type]


def _params(route: discord.http.Route) -> dict[str, Any]:
    names = re.findall(r"{(\w+)}", route.path)
    out = {}
    for name in names:
        value = getattr(route, name, None)
        if value is None:
            match = re.search(rf"/{{{name}}}", route.path)
            value = match and name
        out[name] = value
    # discord.py formats the url itself: read the parameters back from it.
    url_parts = route.url.split("/api/v10", 1)[-1].strip("/").split("/")
    path_parts = route.path.strip("/").split("/")
    for part, actual in zip(path_parts, url_parts, strict=False):
        if part.startswith("{") and part.endswith("}"):
            out[part[1:-1]] = actual
    return out


def _payload(payload: Any, form: Any, files: Any) -> tuple[Any, list[tuple[str, int]]]:
    uploads: list[tuple[str, int]] = []
    if form:
        for part in form:
            if part.get("name") == "payload_json":
                payload = json.loads(part["value"])
            elif str(part.get("name", "")).startswith("files["):
                value = part["value"]
                size = len(value) if isinstance(value, bytes | str) else _size(value)
                uploads.append((part.get("filename") or "file", size))
    elif files:
        uploads = [(f.filename or "file", _size(f.fp)) for f in files]
    return payload if payload is not None else {}, uploads


def _size(fp: Any) -> int:
    try:
        pos = fp.tell()
        fp.seek(0, 2)
        size = fp.tell()
        fp.seek(pos)
        return int(size)
    except (AttributeError, OSError):
        return 0


def _attachments(fake: FakeDiscord, uploads: list[tuple[str, int]]) -> list[dict[str, Any]]:
    return [
        {"id": str(fake.new_id()), "filename": name, "size": size, "url": f"https://cdn.example/{name}",
         "proxy_url": f"https://cdn.example/{name}"}
        for name, size in uploads
    ]  # fmt: skip


def _iso() -> str:
    return datetime.now(UTC).isoformat()


# ---------------------------------------------------------------------- the client side
class ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Harness:
    """The real bot against the fake API, and users who act on it."""

    def __init__(self, fake: FakeDiscord, db_path: Path | str) -> None:
        self.fake = fake
        self.db_path = db_path
        self.bot: Any = None
        self.errors = ErrorLog()

    async def start(self) -> None:
        from cogs.bot import CarcBot

        bot = CarcBot(str(self.db_path), worker_processes=0)
        bot.http.request = self.fake.http_request  # type: ignore[method-assign]
        await bot.login("fake-token")
        for gid in self.fake.guilds:
            bot._connection._add_guild_from_data(self.fake.guild_payload(gid))
        bot._ready.set()
        await bot.tree.sync()
        self.bot = bot

    async def stop(self) -> None:
        if self.bot is not None:
            for name in list(self.bot.cogs):
                await self.bot.remove_cog(name)  # their clocks stop (cog_unload)
            await asyncio.sleep(0)
            await self.bot.close()
            self.bot = None

    async def restart(self) -> None:
        """A new bot process over the same database (old messages keep their buttons)."""
        await self.stop()
        await self.start()

    # -- acting
    def dm_channel(self, user: User) -> int:
        """The direct-message channel between the bot and ``user``."""
        for cid, channel in self.fake.channels.items():
            if channel.get("dm_of") == user.id:
                return cid
        cid = self.fake.new_id()
        self.fake.channels[cid] = {"id": str(cid), "type": 1, "recipients": [user.payload()], "guild_id": None,
                                   "dm_of": user.id}  # fmt: skip
        return cid

    def _base(self, user: User, channel_id: int, kind: int) -> tuple[dict[str, Any], Interaction]:
        fake = self.fake
        iid = fake.new_id()
        token = f"tok{iid}"
        channel = fake.channels[channel_id]
        record = Interaction(iid, token, kind, fake.now(), user, channel_id)
        fake.interactions[token] = record
        perms = ALL_PERMISSIONS if user.manager else USER_PERMISSIONS
        payload = {
            "id": str(iid), "application_id": str(fake.app_id), "type": kind, "token": token, "version": 1,
            "channel_id": str(channel_id), "channel": channel, "guild_id": channel.get("guild_id"),
            "member": fake.member(user), "app_permissions": str(ALL_PERMISSIONS), "locale": user.locale,
            "guild_locale": fake.guild_locale, "entitlements": [], "context": 0, "attachment_size_limit": UPLOAD_LIMIT,
            "authorizing_integration_owners": {"0": channel.get("guild_id")},
        }  # fmt: skip
        payload["member"]["permissions"] = str(perms)
        if channel.get("dm_of"):  # Discord's shape of an interaction in a DM: a user, no server, no member
            del payload["member"], payload["guild_id"], payload["guild_locale"]
            payload["user"], payload["context"] = user.payload(), 1
            payload["authorizing_integration_owners"] = {}
        return payload, record

    async def _run(self, payload: dict[str, Any], record: Interaction) -> Answer:
        before = asyncio.all_tasks()
        start = len(self.fake.log)
        self.bot._connection.parse_interaction_create(payload)
        for _ in range(1000):
            pending = {
                t
                for t in asyncio.all_tasks() - before
                if t is not asyncio.current_task() and "timeout_task" not in getattr(t.get_coro(), "__qualname__", "")
            }  # a view's 15-minute timeout is not part of answering
            if not pending:
                break
            done, _still = await asyncio.wait(pending, timeout=20)
            if not done:
                raise AssertionError(
                    f"the bot did not finish handling an interaction: {[(t.get_name(), t.get_coro()) for t in pending]}"
                )
        if record.responded is None and record.kind != 4:
            data = payload.get("data", {})
            self.fake.violate("no response", f"interaction {record.id} ({data.get('name') or data.get('custom_id')})")
        if record.responded == 5 and not record.followups and not record.edited_original:
            self.fake.violate("thinking forever", f"interaction {record.id}")
        return Answer(record, list(self.fake.log[start:]))

    async def slash(self, user: User, channel_id: int, path: str, **options: Any) -> Answer:
        command, subs = self.fake.command_named(path)
        if self.fake.channels[channel_id].get("dm_of") and command.get("dm_permission") is not False:
            self.fake.offered_in_dms.add(command["name"])  # Discord would list it in the DM
        payload, record = self._base(user, channel_id, 2)
        payload["data"] = self._command_data(command, subs, options, focused=None)
        return await self._run(payload, record)

    async def autocomplete(self, user: User, channel_id: int, path: str, focused: str, **options: Any) -> list[dict]:
        command, subs = self.fake.command_named(path)
        payload, record = self._base(user, channel_id, 4)
        payload["data"] = self._command_data(command, subs, options, focused=focused)
        await self._run(payload, record)
        return record.autocomplete or []

    def _command_data(self, command: dict[str, Any], subs: list[str], options: dict[str, Any],
                      focused: str | None) -> dict[str, Any]:  # fmt: skip
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
        spec, holder = command, data
        for sub in subs:
            spec = next(o for o in spec.get("options", []) if o["name"] == sub)
            node: dict[str, Any] = {"name": sub, "type": spec["type"], "options": []}
            holder.setdefault("options", []).append(node)
            holder = node
        resolved: dict[str, Any] = {}
        values = []
        for name, value in options.items():
            opt = next(o for o in spec.get("options", []) if o["name"] == name)
            if isinstance(value, User):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                resolved.setdefault("members", {})[str(value.id)] = {
                    k: v for k, v in self.fake.member(value).items() if k != "user"}  # fmt: skip
                value = str(value.id)
            elif opt["type"] == 8:  # a role, given by its id
                resolved.setdefault("roles", {})[str(value)] = {
                    "id": str(value), "name": f"role {value}", "permissions": "0", "position": 1, "color": 0,
                    "hoist": False, "managed": False, "mentionable": True, "flags": 0}  # fmt: skip
                value = str(value)
            entry = {"name": name, "type": opt["type"], "value": value}
            if name == focused:
                entry["focused"] = True
            values.append(entry)
        holder.setdefault("options", []).extend(values)
        if resolved:
            data["resolved"] = resolved
        return data

    async def click(self, user: User, message: dict[str, Any], label_or_id: str) -> Answer:
        component = find_component(message, label_or_id)
        payload, record = self._base(user, int(message["channel_id"]), 3)
        payload["message"] = message
        payload["data"] = {"custom_id": component["custom_id"], "component_type": 2}
        record.original = int(message["id"])
        return await self._run(payload, record)

    async def select(self, user: User, message: dict[str, Any], custom_id_part: str, values: list[str]) -> Answer:
        component = find_component(message, custom_id_part, kind=3)
        payload, record = self._base(user, int(message["channel_id"]), 3)
        payload["message"] = message
        payload["data"] = {"custom_id": component["custom_id"], "component_type": 3, "values": values}
        record.original = int(message["id"])
        return await self._run(payload, record)

    def messages_in(self, channel_id: int) -> list[dict[str, Any]]:
        return [m for m in self.fake.messages.values() if m["channel_id"] == str(channel_id) and not m.get("deleted")]


def components_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components") or [] for c in row.get("components") or []]


def find_component(message: dict[str, Any], label_or_id: str, kind: int | None = None) -> dict[str, Any]:
    for c in components_of(message):
        if kind is not None and c["type"] != kind:
            continue
        if c.get("custom_id") == label_or_id or c.get("label") == label_or_id:
            return c
    for c in components_of(message):
        if (kind is None or c["type"] == kind) and label_or_id in (c.get("custom_id") or ""):
            return c
    raise KeyError(
        f"no component {label_or_id!r} in {[c.get('label') or c.get('custom_id') for c in components_of(message)]}"
    )


@contextlib.asynccontextmanager
async def running(tmp_path: Path, users: list[User], second_guild: list[User] | None = None,
                  guild_locale: str = "en-US", database: str | None = None,
                  ) -> AsyncIterator[tuple[Harness, int, int | None]]:  # fmt: skip
    """The bot running against a fresh fake: (harness, channel of guild 1, channel of guild 2);
    its database a new SQLite file, or the URL ``database`` names."""
    fake = FakeDiscord()
    fake.guild_locale = guild_locale
    _gid, channel = fake.add_guild("Meeple Club", users)
    other = fake.add_guild("Elsewhere", second_guild)[1] if second_guild else None
    original = AsyncWebhookAdapter.request
    AsyncWebhookAdapter.request = lambda self, route, session=None, **kw: fake.webhook_request(route, session, **kw)  # type: ignore[method-assign,assignment]
    harness = Harness(fake, database or tmp_path / "bot.db")
    logging.getLogger().addHandler(harness.errors)
    try:
        await harness.start()
        yield harness, channel, other
    finally:
        await harness.stop()
        AsyncWebhookAdapter.request = original  # type: ignore[method-assign]
        logging.getLogger().removeHandler(harness.errors)
