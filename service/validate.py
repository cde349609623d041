"""One input-validation layer: every public service method checks what a user typed here,
before anything else, and gets a ServiceError with a clear, clipped message.

Values are never coerced: ``"3"``, ``3.0``, ``True`` are not the integer 3, and a rotation
of 90.5 is not a rotation. What passes is exactly what the engine and the log will hold.
"""

from __future__ import annotations

import functools
import inspect
import math
import re
import types
import typing
from typing import Any

from engine.expansions.registry import move_shapes
from engine.language import _

MAX_GAME_ID = 2**63 - 1  # SQLite's INTEGER
MAX_ID_LENGTH = 100  # user ids, guild ids: Discord snowflakes, "ai:greedy:1", console names
MAX_NAME = 32  # a display name, as Discord caps it
MAX_TEXT = 100  # any string inside a move (a tile id, a spot, a ferry join)
MAX_COORDINATE = 10_000  # far beyond any board (a game has at most a few hundred tiles)
MAX_MOVES = 20  # moves in one turn
MAX_MOVE_KEYS = 8
ROTATIONS = (0, 90, 180, 270)
_KEY = re.compile(r"[a-z][a-z_]{0,31}")


class ServiceError(Exception):
    """Something a user asked for that cannot be done; the message says why."""


class InvalidInput(ServiceError):
    """A malformed argument: wrong type, out of range, unknown move shape."""


def clip(value: Any, limit: int = MAX_TEXT) -> str:
    """``repr`` of user input, cut to ``limit`` characters, for an error message."""
    try:
        text = repr(value)
    except Exception:  # a hostile object: say what it is, not what it contains
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shorten(text: str, limit: int = 200) -> str:
    """A message (possibly quoting user input) cut to ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def move_types() -> frozenset[str]:
    """Every move type the engine declares: the base game's and each expansion's, a registered one's
    included (``registry.move_shapes``). A move of any other type is refused here, before the engine."""
    return frozenset(move_shapes())


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def game_id(value: Any) -> int:
    """A game number: a true int in 1 .. 2**63-1."""
    if not is_int(value) or not 1 <= value <= MAX_GAME_ID:
        raise InvalidInput(_("there is no game {id}").format(id=clip(value, 30)))
    return value


def league_id(value: Any) -> int:
    """A league number: a true int in 1 .. 2**63-1."""
    if not is_int(value) or not 1 <= value <= MAX_GAME_ID:
        raise InvalidInput(_("there is no league {id}").format(id=clip(value, 30)))
    return value


def version(value: Any) -> int | None:
    if value is None:
        return None
    if not is_int(value) or not 0 <= value <= MAX_GAME_ID:
        raise InvalidInput(_("{value} is not a game version").format(value=clip(value, 30)))
    return value


def user_id(value: Any, what: str = "user id") -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ID_LENGTH or not value.isprintable():
        raise InvalidInput(f"{clip(value, 30)} is not a valid {what}")
    return value


def display_name(value: Any) -> str:
    """A player's display name as a front end passes it: any printable text, cut to Discord's 32."""
    if not isinstance(value, str):
        raise InvalidInput(_("{value} is not a name").format(value=clip(value, 30)))
    return "".join(ch for ch in value if ch.isprintable())[:MAX_NAME]


def names(value: Any, what: str, limit: int = 16) -> list[str]:
    """A short list of short texts (sets, castle ids)."""
    if not isinstance(value, list | tuple) or len(value) > limit:
        raise InvalidInput(f"{what} must be a list of at most {limit} names")
    if not all(isinstance(v, str) and 0 < len(v) <= MAX_TEXT for v in value):
        raise InvalidInput(f"{what} must be a list of names")
    return list(value)


def whole_number(value: Any, what: str) -> int:
    if not is_int(value) or abs(value) > MAX_GAME_ID:
        raise InvalidInput(_("{what} must be a whole number, not {value}").format(what=_(what), value=clip(value, 30)))
    return value


MAX_SEED = 2**256


def seed(value: Any) -> int:
    """A game's seed: a whole number, up to 256 bits (new games draw 128)."""
    if not is_int(value) or not 0 <= value < MAX_SEED:
        raise InvalidInput(
            _("{what} must be a whole number, not {value}").format(what=_("the seed"), value=clip(value, 30))
        )
    return value


def guild_id(value: Any) -> str | None:
    return None if value is None else user_id(value, "server id")


def move(value: Any, index: int = 0) -> dict[str, Any]:
    """One move object: a dict of known shape whose values are true ints or short strings."""
    where = f"move {index + 1}"
    if not isinstance(value, dict):
        raise InvalidInput(f"{where} is not a move object")
    if len(value) > MAX_MOVE_KEYS:
        raise InvalidInput(f"{where} has too many fields")
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in move_types():
        raise InvalidInput(f"{where}: unknown move type {clip(kind, 40)}")
    for key, item in value.items():
        if not isinstance(key, str) or not _KEY.fullmatch(key):
            raise InvalidInput(f"{where}: unknown field {clip(key, 40)}")
        if is_int(item):
            if not -MAX_COORDINATE <= item <= MAX_COORDINATE:
                raise InvalidInput(f"{where}: {key} is out of range")
        elif isinstance(item, str):
            if len(item) > MAX_TEXT or not item.isprintable():
                raise InvalidInput(f"{where}: {key} is not a valid text")
        else:
            raise InvalidInput(f"{where}: {key} must be a whole number or a text, not {clip(item, 40)}")
    for key in ("x", "y", "rot"):
        if key in value and not is_int(value[key]):
            raise InvalidInput(f"{where}: {key} must be a whole number, not {clip(value[key], 40)}")
    if "rot" in value and value["rot"] not in ROTATIONS:
        raise InvalidInput(f"{where}: the rotation is one of 0, 90, 180, 270")
    return dict(value)


def moves(value: Any) -> list[dict[str, Any]]:
    """A non-empty list of moves (a turn, or a draft of one)."""
    if not isinstance(value, list | tuple):
        raise InvalidInput("moves must be a list of move objects")
    if not value:
        raise InvalidInput("no move given")
    if len(value) > MAX_MOVES:
        raise InvalidInput("too many moves at once")
    return [move(m, i) for i, m in enumerate(value)]


def draft(value: Any) -> list[dict[str, Any]]:
    """Like ``moves`` but may be empty (the first question of a turn)."""
    if isinstance(value, list | tuple) and not value:
        return []
    return moves(value)


# ---------------------------------------------------------------------- the boundary
MAX_STRING = 1_000_000  # any text argument (names are clipped further by their own checks)
MAX_ITEMS = 1_000  # any list argument
MIN_INT, MAX_INT = -(2**63), 2**63 - 1  # what both databases store as an integer


def boundary(cls: type) -> type:
    """Check every argument of every public coroutine method of ``cls`` against its annotation
    before the method runs: a caller that is not a ``Caller``, a number that is not a true int
    (or does not fit the database), a text that is not text (or cannot be stored: a NUL, a lone
    surrogate), a list that is not a list... are refused with InvalidInput (a ServiceError),
    never passed on to fail deeper as a raw exception. The methods' own checks (ranges, shapes)
    come after. Applied to GameService and LeagueService: their public methods are the boundary."""
    for name in dir(cls):
        if name.startswith("_"):
            continue
        function = getattr(cls, name)
        if not inspect.iscoroutinefunction(function) or getattr(function, "__boundary__", False):
            continue
        setattr(cls, name, _checked(function))
    return cls


def _checked(function: Any) -> Any:
    signature = inspect.signature(function)
    try:
        hints = typing.get_type_hints(function)
    except Exception:  # an annotation that does not resolve is not checked
        hints = {}
    checks = {
        p.name: (hints[p.name], p.kind)
        for p in signature.parameters.values()
        if p.name in hints and p.name != "self"
    }

    @functools.wraps(function)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            raise InvalidInput(_("this request's arguments are not what it takes")) from None
        for name, value in bound.arguments.items():
            if name not in checks:
                continue
            hint, kind = checks[name]
            if name in NAMED and not (value is None and _fits(None, hint)):
                NAMED[name](value)  # the parameter's own check, with its own words
                continue
            if kind is inspect.Parameter.VAR_KEYWORD:
                values = list(value.values())
            elif kind is inspect.Parameter.VAR_POSITIONAL:
                values = list(value)
            else:
                values = [value]
            for one in values:
                if not _fits(one, hint):
                    if hint.__class__.__name__ == "type" and hint.__name__ == "Caller":
                        raise InvalidInput(_("every request must say who makes it"))
                    raise InvalidInput(
                        _("{value} is not a valid {what}").format(value=clip(one, 30), what=name.replace("_", " "))
                    )
        return await function(*args, **kwargs)

    wrapper.__boundary__ = True  # type: ignore[attr-defined]
    return wrapper


def _caller(value: Any) -> None:
    from service.caller import Caller  # the caller module checks its fields with this one

    if not isinstance(value, Caller):
        raise InvalidInput(_("every request must say who makes it"))


# Parameters checked by name, whatever method takes them (the boundary's first words for them).
NAMED: dict[str, Any] = {
    "who": _caller,
    "game_id": game_id,
    "league_id": league_id,
    "version": version,
    "moves": moves,
}


def _fits(value: Any, hint: Any, depth: int = 0) -> bool:
    """Whether ``value`` is of the annotated type (as far as a boundary can tell)."""
    if hint is Any or depth > 4:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h, depth + 1) for h in typing.get_args(hint))
    if origin is typing.Literal:
        return any(value == a and type(value) is type(a) for a in typing.get_args(hint))
    if hint is None or hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return is_int(value) and MIN_INT <= value <= MAX_INT
    if hint is float:
        return (is_int(value) and MIN_INT <= value <= MAX_INT) or (
            isinstance(value, float) and math.isfinite(value))  # fmt: skip
    if hint is str:
        return isinstance(value, str) and _storable(value)
    if origin in (list, tuple, set, frozenset) or hint in (list, tuple):
        kinds = {list: (list, tuple), tuple: (tuple, list)}.get(origin or hint, (origin,))
        if not isinstance(value, kinds) or len(value) > MAX_ITEMS:
            return False
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        return not args or all(_fits(v, args[0] if len(args) == 1 or origin is not tuple else Any, depth + 1)
                               for v in value)  # fmt: skip
    if origin is dict or hint is dict:
        if not isinstance(value, dict) or len(value) > MAX_ITEMS:
            return False
        pair = typing.get_args(hint)
        return not pair or all(_fits(k, pair[0], depth + 1) and _fits(v, pair[1], depth + 1) for k, v in value.items())
    if origin is not None:  # Callable[...], and other generics: callable, or not checked
        return callable(value) if "Callable" in str(origin) else True
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _storable(text: str) -> bool:
    """Text both databases store: within the size limit, no NUL (PostgreSQL refuses it), and
    valid Unicode (a lone surrogate does not encode)."""
    if len(text) > MAX_STRING or "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
