"""The bot's languages: gettext catalogs under ``locales/<language>/LC_MESSAGES/``.

Two domains: ``commands`` (slash command names, descriptions, options and
choices, handed to Discord by ``cogs.i18n``) and ``messages`` (every other text:
the engine's wording, the service's answers, the panel, embeds, pictures, the
terminal). The ``.po`` files are the source; they are compiled in memory with
Babel when first used, so no compiled ``.mo`` lives in the repository. English
is the source language and the fallback for any other.

Extract and update the catalog after changing texts::

    pybabel extract -F locales/babel.cfg -o locales/messages.pot --no-location --omit-header --sort-output .
    pybabel update -i locales/messages.pot -d locales -D messages --ignore-obsolete -w 120

(``tests/test_i18n.py`` fails until the template is current and every message is translated.)
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from engine.language import current

LOCALES_DIR = Path(__file__).resolve().parent
ENGLISH = "en"
# Every language the bot speaks, with its name in that language (for the lobby's menu).
LANGUAGES = {"en": "English", "fr": "Français"}


def po_path(language: str, domain: str = "messages") -> Path:
    return LOCALES_DIR / language / "LC_MESSAGES" / f"{domain}.po"


@cache
def translations(language: str, domain: str = "messages") -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (English, the source, for any language without one)."""
    path = po_path(language, domain)
    if language == ENGLISH or not path.exists():
        return gettext.NullTranslations()
    with open(path, "rb") as fh:
        catalog = read_po(fh, locale=language, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def warm_up() -> None:
    """Compile every catalog now (about 15 ms each), at start, rather than during a player's first
    interaction in that language."""
    for language in LANGUAGES:
        translations(language)
        translations(language, "commands")


def entries(language: str, domain: str = "messages") -> dict[str, str | tuple[str, ...]]:
    """msgid -> translation (a tuple of plural forms for a plural message), untranslated left out."""
    with open(po_path(language, domain), "rb") as fh:
        catalog = read_po(fh, locale=language, domain=domain)
    out: dict[str, str | tuple[str, ...]] = {}
    for message in catalog:
        if message.id and message.string and not message.fuzzy:
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            out[str(key)] = tuple(message.string) if isinstance(message.string, tuple) else str(message.string)
    return out


def spoken() -> str:
    """The language being spoken in this context (``engine.language.speaking``)."""
    info: dict[str, str] = getattr(current(), "info", dict)()  # gettext translations know their catalog's headers
    return language_of(info.get("language"))


def language_of(locale: object) -> str:
    """The bot's language for a Discord locale ("fr", "en-US", a ``discord.Locale``…): English unless
    we speak it."""
    if locale is None:
        return ENGLISH
    code = str(getattr(locale, "value", locale)).split("-")[0].lower()
    return code if code in LANGUAGES else ENGLISH


def number(value: float, language: str) -> str:
    """A number written the way ``language`` writes it (1,234.5 / 1 234,5)."""
    return format_decimal(value, locale=language)
