"""Message content for Discord: texts and embeds from service answers, within Discord's limits.

Everything a user typed (names, set lists, cells) reaches a message only through
``safe`` (markdown and mentions escaped) and ``clip``; public messages carry
``NO_PINGS`` or ``ping(user)`` so that user text can never ping @everyone, @here
or a role.
"""

from __future__ import annotations

import io
import re
from datetime import datetime

import discord

from cogs.i18n import game_language, speak
from engine.catalog import SET_TILES
from engine.expansions.registry import lobby_options, set_title
from engine.language import N_, _, ngettext
from engine.words import tile_name
from locales import LANGUAGES
from renderer.palette import PLAYER_NAMES
from service import TurnView
from service.timecontrol import PER_TURN, TimeControl, spoken_duration
from service.timecontrol import parse as parse_time_control
from storage.rows import GameRow

# In seat order, as the pictures draw them (renderer.palette.PLAYERS); ``colour_name`` words them.
COLOUR_NAMES = tuple(PLAYER_NAMES)
_COLOUR_WORDS = {
    "red": N_("red"), "blue": N_("blue"), "yellow": N_("yellow"),
    "green": N_("green"), "black": N_("black"), "white": N_("white"),
}  # fmt: skip
COLOUR_SQUARES = tuple({"red": "🟥", "blue": "🟦", "yellow": "🟨", "green": "🟩", "black": "⬛", "white": "⬜"}
                       .get(name, "●") for name in PLAYER_NAMES)  # fmt: skip
MAX_MESSAGE = 2000
NO_PINGS = discord.AllowedMentions.none()


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """Text cut to ``limit`` characters, with an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_end(text: str, limit: int = MAX_MESSAGE) -> str:
    """Text cut from the front (the newest lines matter most)."""
    return text if len(text) <= limit else "…" + text[-(limit - 1) :]


def safe(text: str, limit: int = 100) -> str:
    """User-supplied text, shown as typed: markdown and mentions escaped, clipped."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(clip(str(text), limit)))


def is_snowflake(text: str | None) -> bool:
    """A Discord id (computer seats and console players have others)."""
    return bool(text) and re.fullmatch(r"[0-9]{1,20}", text or "") is not None


def ping(user_id: str | None) -> discord.AllowedMentions:
    """Mentions that may ping this one user and nobody else."""
    if is_snowflake(user_id):
        return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(user_id or 0))])
    return NO_PINGS


def ping_users(user_ids: list[str]) -> discord.AllowedMentions:
    """Mentions that may ping these users and nobody else."""
    users = [discord.Object(int(u)) for u in user_ids if is_snowflake(u)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


def mention(user_id: str | None, fallback: str) -> str:
    return f"<@{user_id}>" if is_snowflake(user_id) else safe(fallback)


def set_name(name: str) -> str:
    """A set's name in the language spoken (user text escaped if it is no set)."""
    return _(set_title(name)) if name in SET_TILES else safe(name, 20)


def colour_name(seat: int) -> str:
    """The colour of a seat, in the language spoken."""
    name = COLOUR_NAMES[seat % len(COLOUR_NAMES)]
    return _(_COLOUR_WORDS.get(name, name))


def timestamp(t: datetime | None, style: str = "R") -> str:
    """A Discord timestamp (each reader's client shows it in their own language and time zone)."""
    return f"<t:{int(t.timestamp())}:{style}>" if t else _("no time limit")


def colour_of(view: TurnView, name: str) -> str:
    """ "🟥 red" for a player of the game (seat order = colour order)."""
    names = list(view.scores)
    if name not in names:
        return ""
    i = names.index(name) % len(COLOUR_NAMES)
    return f"{COLOUR_SQUARES[i]} {colour_name(i)}"


def scores_line(view: TurnView) -> str:
    return " · ".join(f"{COLOUR_SQUARES[i % 6]} {safe(n, 40)} {s}" for i, (n, s) in enumerate(view.scores.items()))


def clocks_line(view: TurnView) -> str:
    """ "🟥 Ann 2d 4h · 🟦 Bob 5d": each player's time bank, in seat order."""
    return " · ".join(
        f"{COLOUR_SQUARES[i % 6]} {safe(n, 40)} {spoken_duration(left)}"
        for i, (n, left) in enumerate((view.clocks or {}).items())
    )


def away_line(player: str, until: datetime) -> str:
    """ "Ann is on vacation until …: their turns wait for them." """
    said = _("{player} is on vacation until {until}: their turns wait for them, with no reminder and no timeout.")
    return said.format(player=safe(player, 40), until=timestamp(until, "f"))


def clock_words(view: TurnView) -> list[str] | None:
    """Each player's time bank as the turn picture's legend writes it ("2d 4h"), in seat order."""
    if view.clocks is None:
        return None
    with speak(view.language):
        return [spoken_duration(left) for left in view.clocks.values()]


def time_bank_words(bank: TimeControl) -> str:
    """ "3d to start, +12h a turn, at most 5d" (a time bank, for the lobby and the league)."""
    return _("{initial} to start, +{increment} a turn, at most {cap}").format(
        initial=spoken_duration(bank.initial), increment=spoken_duration(bank.increment), cap=spoken_duration(bank.cap)
    )


def lobby_embed(row: GameRow) -> discord.Embed:
    """The lobby message (public: in the game's language)."""
    with speak(game_language(row)):
        return _lobby_embed(row)


def _lobby_embed(row: GameRow) -> discord.Embed:
    opts = row.options
    limit = int(opts.get("turn_limit", 0) or 0)
    embed = discord.Embed(title=_("Carcassonne — game #{id}").format(id=row.id), colour=0x8DBF5A)
    sets = ", ".join(set_name(s) for s in opts.get("sets", ["base"]))
    embed.add_field(name=_("Sets"), value=clip(sets, 1024), inline=False)
    # A computer's name says so and its level ("Bot 2 (hard)"); seats named before that get the word.
    seated = "\n".join(
        f"• {safe(s.name, 40)}" + (_(" (computer)") if s.is_ai and not s.name.endswith(")") else "")
        for s in row.seats
    ) or _("nobody yet")
    embed.add_field(
        name=_("Players ({seated}/{most})").format(seated=len(row.seats), most=opts.get("max_players", "?")),
        value=clip(seated, 1024),
    )
    bank = parse_time_control(opts.get("time_control", PER_TURN))
    if bank is not None:
        rules = time_bank_words(bank)
    elif limit >= 3600:
        rules = ngettext("{n} hour per turn", "{n} hours per turn", limit // 3600).format(n=limit // 3600)
    elif limit:
        rules = ngettext("{n} minute per turn", "{n} minutes per turn", limit // 60).format(n=limit // 60)
    else:
        rules = _("no limit")
    if opts.get("timeout_policy") == "skip":
        limit_text = _("{limit}; then the turn is skipped").format(limit=rules)
    elif opts.get("timeout_policy") == "computer":
        limit_text = _("{limit}; then a computer plays the turn").format(limit=rules)
    else:
        limit_text = _("{limit}; then the player forfeits").format(limit=rules)
    embed.add_field(name=_("Time bank") if bank is not None else _("Turn limit"), value=limit_text, inline=True)
    embed.add_field(name=_("Language"), value=LANGUAGES.get(game_language(row), "English"), inline=True)
    if opts.get("hints") and row.league_id is None:
        embed.add_field(name=_("Hints"), value=_("on: /carc hint shows what the hard computer would play"), inline=True)
    for _cls, option in lobby_options(opts.get("sets", [])):  # each expansion's own lobby options
        value = opts.get(option.name, option.default)
        meaning = dict(option.choices).get(value, value)
        pick = option.pick
        if pick is not None and value == pick.when:  # what each player picked so far
            chosen = opts.get(pick.key, {})
            picks = [
                _("{player}: {choices}").format(
                    player=safe(s.name, 40), choices=", ".join(pick.label(v) for v in chosen.get(s.user_id, [])) or "—"
                )
                for s in row.seats
                if not s.is_ai
            ]
            title = _("{option} ({meaning})").format(option=_(option.title), meaning=_(meaning))
            embed.add_field(name=clip(title, 256), value=clip("\n".join(picks) or "—", 1024), inline=False)
        else:
            embed.add_field(name=_(option.title), value=_(meaning), inline=False)
    if row.league_id is not None:
        embed.add_field(
            name=_("League"), value=_("a rated league game: members only, no computer players"), inline=False
        )
    status = {
        "lobby": N_("Waiting for players"), "active": N_("Playing"),
        "finished": N_("Finished"), "aborted": N_("Aborted"),
    }  # fmt: skip
    embed.set_footer(text=_(status[row.status]) if row.status in status else row.status)
    return embed


def png_file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def turn_files(pngs: list[bytes]) -> list[discord.File]:
    """The turn's pictures as files: the board with the legend, then the pieces holding the legal
    cells it could not show (board-2.png, ...)."""
    return [png_file(png, "board.png" if k == 1 else f"board-{k}.png") for k, png in enumerate(pngs, start=1)]


def event_lines(lines: list[str], limit: int = 1200) -> str:
    """What happened, newest last, escaped (names are user text) and clipped from the front."""
    return clip_end("\n".join(safe(line, 300) for line in lines), limit)


def turn_content(view: TurnView, lines: list[str]) -> str:
    """The turn message: what just happened, whose turn it is (colour), scores, deadline."""
    text = event_lines(lines)
    if view.finished:
        return clip(text or _("The game is over."))
    question = view.question
    name = view.player or "?"
    who = mention(view.user_id, name)
    colour = colour_of(view, name)
    if question is not None and question.kind == "tile" and view.tile:
        ask = ngettext(
            "place **{tile}** ({n} tile left in the bag)", "place **{tile}** ({n} tiles left in the bag)", view.bag_left
        ).format(tile=tile_name(view.tile, article=True), n=view.bag_left)
    elif question is not None:
        ask = question.prompt
    else:
        ask = _("play")
    deadline = " " + _("Ends {when}.").format(when=timestamp(view.deadline)) if view.deadline else ""
    if view.clocks is not None:
        deadline = " " + _("Time bank runs out {when}.").format(when=timestamp(view.deadline)) if view.deadline else ""
    head = _("**Turn {turn}** — {player} ({colour}): {question}.").format(
        turn=view.turn, player=who, colour=colour, question=ask
    )
    head += f"{deadline}\n{scores_line(view)}"
    if view.clocks is not None:
        head += "\n⏱ " + clocks_line(view)
    return clip((text + "\n\n" if text else "") + head)


def final_content(view: TurnView, lines: list[str]) -> str:
    table = "\n".join(
        f"{i}. {COLOUR_SQUARES[list(view.scores).index(name) % 6]} **{safe(name, 40)}** — {score}"
        for i, (name, score) in enumerate(sorted(view.scores.items(), key=lambda kv: -kv[1]), start=1)
    )
    below = _("The replay, the story and the record (`python -m engine.replay carcassonne-{id}.json`) are below.")
    replay = below.format(id=view.game_id)
    return clip(event_lines(lines, 1400) + "\n\n**" + _("Final scores") + f"**\n{table}\n\n{replay}")


def seat_line(names: list[str]) -> str:
    """ "🟥 Ann (red), 🟦 Bob (blue)": who has which colour, in seat order."""
    return ", ".join(f"{COLOUR_SQUARES[i % 6]} {safe(n, 40)} ({colour_name(i)})" for i, n in enumerate(names))
