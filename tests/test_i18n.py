"""French for the slash commands: a translation for every text of the command tree, valid for
Discord (names lower case, 1-32 characters, unique among siblings; descriptions 1-100), and
French-speaking players served by the same bot."""

from __future__ import annotations

import re

import discord

from cogs.bot import command_tree
from cogs.i18n import command_text
from locales import entries
from tests.discord_api import User, running
from tests.test_discord_play import clean


async def test_every_command_text_has_a_french_translation_valid_for_discord():
    tree = await command_tree()
    texts: list[tuple[str, dict]] = []

    def walk(node: dict, siblings: list[dict]) -> None:
        texts.append(("name", node))
        if node.get("description"):
            texts.append(("description", node))
        for choice in node.get("choices") or []:
            texts.append(("choice", choice))
        options = node.get("options") or []
        french = [o["name_localizations"]["fr"] for o in options]
        assert len(set(french)) == len(french), french  # unique among siblings in French too
        for option in options:
            walk(option, options)

    for command in tree:
        walk(command, tree)
    fr = entries("fr", "commands")
    for kind, node in texts:
        source = node["name"] if kind in ("name", "choice") else node["description"]
        assert source in fr, f"no French for {source!r}"
        local = node[f"{'name' if kind != 'description' else 'description'}_localizations"]["fr"]
        assert local == fr[source]
        if kind == "name":
            assert re.fullmatch(r"[-_\w]{1,32}", local) and local == local.lower(), local
        else:
            assert 1 <= len(local) <= 100, local


def test_other_languages_fall_back_to_english():
    assert command_text("Join a league", discord.Locale.french) == "Rejoindre une ligue"
    assert command_text("Join a league", discord.Locale.german) == "Join a league"
    assert command_text("Join a league", None) == "Join a league"


async def test_a_french_speaking_player_uses_the_same_commands(tmp_path):
    anne = User(1400, "Anne", locale="fr")
    async with running(tmp_path, [anne, User(1401, "Bruno", locale="fr")]) as (h, channel, _):
        synced = next(c for c in h.fake.commands if c["name"] == "carc")
        assert synced["name_localizations"]["fr"] == "carc"
        assert {o["name_localizations"]["fr"] for o in synced["options"]} >= {"nouvelle", "poser", "plateau"}
        answer = await h.slash(anne, channel, "carc new", sets="base", players=2)
        assert answer.public and answer.public[-1]["embeds"]
        clean(h)
