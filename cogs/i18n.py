"""Languages on Discord: whose language a text is in, and the slash commands' translations.

discord.py hands every command name, description, option and choice to the tree's
``Translator`` when the commands are synced, and Discord shows each user the
version of their language (the ``commands`` catalog). Every other text is worded
in a language chosen here: a private answer in the user's (``interaction.locale``),
a public post in the game's (chosen in the lobby, the server's by default).
English is the fallback for any other locale.
"""

from __future__ import annotations

import discord
from discord import app_commands

from engine.language import use
from locales import language_of, translations
from service.announce import game_language, in_language

# A public post speaks its game's language: ``with speak(game_language(row)): ...``.
speak = in_language
__all__ = ["CatalogTranslator", "command_text", "game_language", "listen", "server_language", "speak", "user_language"]


def command_text(text: str, locale: discord.Locale | None) -> str:
    """A command's text in the language of ``locale`` (English when there is no catalog for it)."""
    return translations(language_of(locale), "commands").gettext(text)


def user_language(interaction: discord.Interaction) -> str:
    """The language of a private answer: the user's."""
    return language_of(interaction.locale)


def server_language(interaction: discord.Interaction) -> str:
    """A new game's language: the server's (English in DMs or for other languages)."""
    return language_of(interaction.guild_locale)


def listen(interaction: discord.Interaction) -> None:
    """Word everything this interaction's handler says privately in the user's language (for
    the rest of the handler's task; public posts switch to the game's with ``speak``)."""
    use(translations(user_language(interaction)))


class CatalogTranslator(app_commands.Translator):
    """Gives Discord the French (and any future language's) command texts from the catalogs."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        language = language_of(locale)
        if language == "en":
            return None
        template = string.extras.get("template")
        if template is not None:  # a text made from a template: the template translated, then filled in
            values = {k: v for k, v in string.extras.items() if k != "template"}
            return translations(language, "commands").gettext(template).format(**values)  # type: ignore[no-any-return]
        return translations(language, "commands").gettext(string.message)
