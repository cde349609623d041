"""Translations for Discord: gettext catalogs in ``locales/<lang>/LC_MESSAGES/carcassonne.po``.

discord.py hands every command name, description, option and choice to the tree's
``Translator`` when the commands are synced, and Discord shows each user the
version of their language. The catalogs are read with Babel; English (the
source text) is the fallback for any other locale.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import discord
from babel.messages.pofile import read_po
from discord import app_commands

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "carcassonne"
# Discord's locales that have a catalog, and the catalog's language.
LANGUAGES = {discord.Locale.french: "fr"}


@cache
def catalog(language: str) -> dict[str, str]:
    """msgid -> translation for one language (untranslated entries left out)."""
    with open(LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as fh:
        po = read_po(fh, locale=language)
    return {str(m.id): str(m.string) for m in po if m.id and m.string}


def translate(text: str, locale: discord.Locale | None) -> str:
    """``text`` in the language of ``locale`` when there is a catalog for it, else as it is."""
    language = LANGUAGES.get(locale) if locale is not None else None
    return catalog(language).get(text, text) if language else text


class CatalogTranslator(app_commands.Translator):
    """Gives Discord the French (and any future language's) command texts from the catalogs."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        language = LANGUAGES.get(locale)
        if language is None:
            return None
        return catalog(language).get(string.message)
