"""Who is asking: every service call that reads or changes a game, lobby or league names its caller.

There is no "trusted" call. A Discord user acts in one server (``Caller.member``) and reaches only
that server's games; the terminal game and the demo act offline (``Caller.offline``) and reach only
games that belong to no server; the service itself (the deadline clock, a league opening its
matches) acts for one server as ``Caller.system``. Authorisation is checked once, in the service,
against the caller's server and seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from engine.language import _
from service import validate

SYSTEM_USER = "system"  # the user id credited when the service acts on its own


@dataclass(frozen=True, slots=True)
class Caller:
    """A user in a server, the offline console, or the service acting for a server."""

    user_id: str
    guild_id: str | None
    kind: Literal["member", "offline", "system"]
    manager: bool = False  # manages the server it acts in (Discord's Manage Server)
    roles: tuple[int, ...] = ()  # the user's roles in that server (a league's organisers are a role)

    @classmethod
    def member(cls, user_id: str, guild_id: str, manager: bool = False, roles: tuple[int, ...] = ()) -> Caller:
        """A Discord user acting in a server; ``manager``: they may manage it."""
        return cls(validate.user_id(user_id), _server(guild_id), "member", bool(manager), tuple(roles))

    @classmethod
    def offline(cls, user_id: str) -> Caller:
        """A player of the terminal game or the demo: reaches only games of no server."""
        return cls(validate.user_id(user_id), None, "offline")

    @classmethod
    def system(cls, guild_id: str | None) -> Caller:
        """The service acting by itself for a server's games (a league opening a match)."""
        return cls(SYSTEM_USER, validate.guild_id(guild_id), "system", True)

    def may_see(self, guild_id: str | None) -> bool:
        """Whether a game or league of ``guild_id`` is within this caller's reach."""
        return guild_id == self.guild_id


def acting_for(user_id: str, guild_id: str | None) -> Caller:
    """The service acting on a player's behalf in their server (a league seating a match's players)."""
    return Caller(validate.user_id(user_id), validate.guild_id(guild_id), "member" if guild_id else "offline")


def caller(value: Any) -> Caller:
    """The caller argument of a service method, checked: a ``Caller``, nothing else."""
    if not isinstance(value, Caller):
        raise validate.InvalidInput(_("every request must say who makes it"))
    return value


def _server(guild_id: Any) -> str:
    if guild_id is None:
        raise validate.InvalidInput(_("this command works in a server, not in direct messages"))
    checked = validate.guild_id(guild_id)
    assert checked is not None
    return checked
