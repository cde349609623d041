"""The engine's wording hook: every text a player reads goes through ``_``/``ngettext``.

The engine holds no translation of its own: its texts are English gettext
messages (extracted into ``locales/`` by Babel), and the front end says which
language to speak by installing a ``gettext`` translations object for the
current context (``with speaking(translations): ...``). A context variable, not
a global, so that two players served at once (asyncio tasks, worker threads)
each read their own language; without one, the engine speaks English.

A leaf module: standard library only, deterministic for a given translator.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol


class Translations(Protocol):
    """What the engine needs of a translator (``gettext.NullTranslations`` has it)."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...


ENGLISH: Translations = gettext.NullTranslations()
_current: ContextVar[Translations] = ContextVar("engine_translations", default=ENGLISH)


def _(message: str) -> str:
    """``message`` in the current language."""
    return _current.get().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language (French 0 and 1 are singular)."""
    return _current.get().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where ``context`` tells two uses of one English text apart."""
    return _current.get().pgettext(context, message)


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; it is translated with ``_`` where used."""
    return message


def current() -> Translations:
    """The translator installed for this context (the English one by default)."""
    return _current.get()


@contextmanager
def speaking(translations: Translations) -> Iterator[None]:
    """Word every text of the block with ``translations``."""
    token = _current.set(translations)
    try:
        yield
    finally:
        _current.reset(token)


def use(translations: Translations) -> None:
    """Word the rest of this context's texts with ``translations`` (a task that serves one
    user: an interaction's handler)."""
    _current.set(translations)


def sentence(text: str) -> str:
    """``text`` with its first letter upper-cased (a phrase that starts a sentence)."""
    return text[:1].upper() + text[1:]
