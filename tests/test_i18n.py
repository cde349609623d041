"""French for the slash commands: a translation for every text of the command tree, valid for
Discord (names lower case, 1-32 characters, unique among siblings; descriptions 1-100), and
French-speaking players served by the same bot."""

from __future__ import annotations

import asyncio
import random
import re
import string
from pathlib import Path

import discord
from babel.messages.pofile import read_po

from cogs.bot import command_tree
from cogs.i18n import command_text
from engine import Game
from engine.event_words import describe
from engine.language import speaking, use
from locales import entries, number, po_path, spoken, translations
from tests.discord_api import User, components_of, running
from tests.test_discord_play import FAMILIES, actor, clean, finish_in_panel, open_game, play_by_panel, turn_message


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
    from cogs.lobby import SETS_HELP, SETS_TEMPLATE

    # A text made from a template (the sets /carc new lists): the template's French, filled in.
    fr[SETS_HELP.message] = fr[SETS_TEMPLATE].format(sets=SETS_HELP.extras["sets"])
    assert "inns" in SETS_HELP.message and "traders" in SETS_HELP.message  # every set of the table
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


# ---------------------------------------------------------------------- the messages catalog
def _source_messages() -> dict[tuple[str | None, str], tuple[str, ...]]:
    """Every message of the code as Babel extracts it: (context, msgid) -> its forms (English)."""
    from babel.messages.extract import extract_from_dir

    root = Path(__file__).resolve().parent.parent
    patterns = [line[len("[python: ") : -1] for line in (root / "locales" / "babel.cfg").read_text().splitlines()
                if line.startswith("[python: ")]  # fmt: skip
    found: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        str(root), method_map=[(p, "python") for p in patterns]
    ):
        forms = message if isinstance(message, tuple) else (message,)
        found[(context, forms[0])] = tuple(forms)
    return found


def test_every_module_that_speaks_is_extracted():
    """A module that words texts through engine.language is one Babel reads (locales/babel.cfg)."""
    root = Path(__file__).resolve().parent.parent
    patterns = [line[len("[python: ") : -1] for line in (root / "locales" / "babel.cfg").read_text().splitlines()
                if line.startswith("[python: ")]  # fmt: skip
    for path in root.rglob("*.py"):
        relative = path.relative_to(root)
        if relative.parts[0] in ("tests", "benchmarks", ".venv", ".venv-ci") or relative.parts[0].startswith("."):
            continue
        if "from engine.language import" in path.read_text(encoding="utf-8") and relative.parts[0] != "locales":
            assert any(relative.match(p.replace("**", "*")) or str(relative).startswith(p.split("**")[0])
                       for p in patterns if p.split("**")[0]) or str(relative) in patterns, relative  # fmt: skip


def _fields(text: str) -> list[tuple[str, str | None]]:
    """The placeholders of a format string, with their conversions ("{name!r}")."""
    return sorted((name, conversion) for _t, name, _spec, conversion in string.Formatter().parse(text) if name)


def test_every_message_has_a_french_translation_with_the_same_placeholders():
    with open(po_path("fr"), "rb") as fh:
        french = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id): m for m in read_po(fh, locale="fr")}
    messages = _source_messages()
    assert len(messages) > 400  # the engine's, the service's, the cogs', the pictures', the terminal's
    for key, forms in messages.items():
        entry = french.get(key)
        assert entry is not None and entry.string and not entry.fuzzy, f"no French for {key}"
        translated = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert len(translated) == len(forms), key  # French has two plural forms, like English
        for english, text in zip(forms * len(translated), translated, strict=False):
            assert text.strip(), key
            assert _fields(text) == _fields(forms[-1]) or _fields(text) == _fields(english), (key, text)
    stale = set(french) - set(messages) - {(None, "")}
    assert not stale, f"catalog entries no code uses any more: {sorted(stale)[:5]}"


def test_the_template_is_up_to_date():
    with open(Path(po_path("fr")).parent.parent.parent / "messages.pot", "rb") as fh:
        template = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in read_po(fh) if m.id}
    assert template == set(_source_messages()), "run pybabel extract (see locales/__init__.py)"


def test_french_plurals_and_numbers():
    fr = translations("fr")
    one, many = "{n} tile left: {tiles}", "{n} tiles left: {tiles}"
    assert fr.ngettext(one, many, 1).format(n=1, tiles="") == "1 tuile restante : "
    assert fr.ngettext(one, many, 0).format(n=0, tiles="") == "0 tuile restante : "  # French: 0 is singular
    assert fr.ngettext(one, many, 2).format(n=2, tiles="") == "2 tuiles restantes : "
    assert translations("de").ngettext(one, many, 2) == many  # any other language: English
    assert number(1234.5, "fr") == "1\u202f234,5" and number(1234.5, "en") == "1,234.5"


def test_the_engine_speaks_the_language_of_each_context():
    game = Game(["Anne", "Bob"], seed=5)
    english = game.question()
    assert spoken() == "en"
    with speaking(translations("fr")):
        assert spoken() == "fr"  # pictures made now are worded in French
        french = game.question()
        drawn = describe({"type": "tile_drawn", "player": "Anne", "tile": "base.D"})
    assert english.prompt.startswith("place the drawn tile (") and french.prompt.startswith("poser la tuile piochée (")
    assert english.options[0].move == french.options[0].move  # the same moves, only the words differ
    assert drawn == "Anne pioche un bord de ville avec une route droite."
    assert describe({"type": "tile_drawn", "player": "Anne", "tile": "base.D"}).startswith("Anne draws a city edge")


async def test_two_players_served_at_once_each_read_their_own_language():
    """The language is a context variable: interleaved tasks never see each other's."""
    game = Game(["Anne", "Bob"], seed=5)
    seen: dict[str, list[str]] = {"fr": [], "en": []}

    async def serve(language: str) -> None:
        use(translations(language))
        for _ in range(5):
            seen[language].append(game.question().prompt)
            await asyncio.sleep(0)

    await asyncio.gather(serve("fr"), serve("en"))
    assert all(p.startswith("poser") for p in seen["fr"]) and all(p.startswith("place") for p in seen["en"])
    assert game.question().prompt.startswith("place")  # the caller's context is untouched


# ---------------------------------------------------------------------- French games on the fake Discord API
async def test_a_whole_french_game_through_the_panel(tmp_path):
    """A French server: the game speaks French in public, each French player is answered in French,
    within Discord's limits (French texts are longer)."""
    users = [User(1500, "Anne", locale="fr", manager=True), User(1501, "Bérénice", locale="fr")]
    async with running(tmp_path, users, guild_locale="fr") as (h, channel, _):
        game_id, thread = await open_game(h, channel, users, FAMILIES["rivers"], computers=1, lobby_language="fr")
        lobby = next(m for m in h.messages_in(channel) if m.get("embeds"))
        assert lobby["embeds"][0]["title"] == f"Carcassonne — partie n°{game_id}"
        await play_by_panel(h, game_id, thread, users, seed=19, game_language="fr")
        posts = [m["content"] for m in h.messages_in(thread)]
        assert any(p.startswith(f"La partie n°{game_id} commence") for p in posts)
        assert any("**Tour " in p for p in posts) and any(" a posé " in p for p in posts)
        assert "Scores finaux" in posts[-1]
        assert not any("**Turn " in p or " placed " in p for p in posts)
        clean(h)


async def test_an_english_player_in_a_french_game_reads_the_panel_in_english(tmp_path):
    users = [User(1510, "Anne", locale="fr"), User(1511, "Bob", locale="en-GB")]
    async with running(tmp_path, users) as (h, channel, _):  # an English server: the lobby picks French
        answer = await h.slash(users[0], channel, "carc new", sets="base", players=2, language="fr")
        lobby = answer.public[-1]
        await h.click(users[1], h.fake.messages[int(lobby["id"])], "Rejoindre")
        await h.click(users[0], h.fake.messages[int(lobby["id"])], "Commencer")
        game_id = (await h.bot.service.store.game_ids(user_id="1510"))[0]
        thread = h.fake.threads_from[int(lobby["id"])]
        rng = random.Random(3)
        for _ in range(4):
            user = await actor(h, game_id, users)
            assert user is not None
            panel = (await h.click(user, turn_message(h, thread), "Jouer mon tour")).private[-1]
            assert panel["content"].startswith("Partie n°" if user.locale == "fr" else "Game #"), panel["content"]
            await finish_in_panel(h, user, panel, rng)
        assert all("**Tour " in m["content"] for m in h.messages_in(thread) if "carc:turn:" in str(m))
        moving = await actor(h, game_id, users)
        waiting = next(u for u in users if u != moving)
        wrong = await h.click(waiting, turn_message(h, thread), "Jouer mon tour")
        expected = "C'est à " if waiting.locale == "fr" else "It is "
        assert wrong.private and wrong.text.startswith(expected), wrong.text  # a private error, in their language
        clean(h)


def test_the_demo_speaks_french(tmp_path, capsys):
    from bot import main

    assert main(["demo", "--lang", "fr", "--players", "2", "--seed", "4", "--out", str(tmp_path), "--no-pictures"]) == 0
    out = capsys.readouterr().out
    assert "partie n°1 (Jeu de base, graine 4) : " in out and " tuiles posées" in out
    assert "rejouer le compte rendu" in out


async def test_rules_and_turn_dms_speak_the_users_language(tmp_path):
    """/carc rules from the French pages for a French user; turn DMs in the language the player
    had when they asked for them, whatever the game's language."""
    anne, bob = User(1520, "Anne", locale="fr"), User(1521, "Bob", locale="en-US")
    async with running(tmp_path, [anne, bob]) as (h, channel, _):
        rules = await h.slash(anne, channel, "carc rules", set="castles")
        assert rules.text.startswith("## castles — Châteaux d'Allemagne") and "seigneur" in rules.text
        english = await h.slash(bob, channel, "carc rules", set="castles")
        assert english.text.startswith("## castles — Castles in Germany")
        for user in (anne, bob):
            answer = await h.slash(user, channel, "carc settings", dm=True)
            assert answer.text in ("Les messages privés de tour sont activés.", "Turn DMs are on.")
        game_id, thread = await open_game(h, channel, [anne, bob], "base")  # an English server: an English game
        rng = random.Random(5)
        for _ in range(3):
            user = await actor(h, game_id, [anne, bob])
            assert user is not None
            panel = (await h.click(user, turn_message(h, thread), "Take turn")).private[-1]
            await finish_in_panel(h, user, panel, rng)
        french, english_dms = h.fake.dms.get(anne.id, []), h.fake.dms.get(bob.id, [])
        assert french and english_dms
        assert all(m["content"].startswith("À vous de jouer dans la partie de Carcassonne n°") for m in french)
        assert all("poser la tuile piochée" in m["content"] for m in french)
        assert all(m["content"].startswith("Your turn in Carcassonne game #") for m in english_dms)
        clean(h)


async def test_the_lobby_language_menu_switches_the_game_to_french(tmp_path):
    ann, bob = User(1530, "Ann"), User(1531, "Bob")
    async with running(tmp_path, [ann, bob]) as (h, channel, _):
        lobby = (await h.slash(ann, channel, "carc new", sets="base", players=2)).public[-1]
        assert any(c.get("label") == "Join" for c in components_of(lobby))
        refused = await h.select(bob, h.fake.messages[int(lobby["id"])], "carc:lang:", ["fr"])
        assert refused.private and "only the player who opened the lobby" in refused.text
        junk = await h.select(ann, h.fake.messages[int(lobby["id"])], "carc:lang:", ["xx"])
        assert junk.private and "the language is one of en, fr" in junk.text
        await h.select(ann, h.fake.messages[int(lobby["id"])], "carc:lang:", ["fr"])
        now = h.fake.messages[int(lobby["id"])]
        assert now["embeds"][0]["title"].startswith("Carcassonne — partie n°")
        assert {"Rejoindre", "Quitter", "Commencer"} <= {c.get("label") for c in components_of(now)}
        await h.click(bob, now, "Rejoindre")
        started = await h.click(ann, h.fake.messages[int(lobby["id"])], "Commencer")
        assert started.text.startswith("Game #")  # Ann's own answer stays in her language
        thread = h.fake.threads_from[int(lobby["id"])]
        assert any("**Tour 1**" in m["content"] for m in h.messages_in(thread))
        clean(h)


def test_the_documented_catalogue_update_runs_with_the_pinned_babel(tmp_path):
    """locales/__init__.py's `pybabel update` line, on a copy: it runs and keeps every translation."""
    import shutil
    import subprocess
    import sys

    import locales

    command = next(line.split() for line in (locales.__doc__ or "").splitlines() if "pybabel update" in line)
    shutil.copytree(Path(locales.__file__).parent, tmp_path / "locales", ignore=shutil.ignore_patterns("__pycache__"))
    pybabel = Path(sys.executable).with_name("pybabel")
    run = subprocess.run([str(pybabel), *command[1:]], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    body = (tmp_path / po_path("fr").relative_to(po_path("fr").parents[3])).read_text()
    before = po_path("fr").read_text()
    strip = re.compile(r'^"POT-Creation-Date.*$', re.M)
    assert strip.sub("", body).count("msgstr") == strip.sub("", before).count("msgstr")
