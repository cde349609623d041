"""Turns: the question a user must answer now, their picks, playing them, and the automatic
moves (computer players, absent players). One protocol for every front end: ``ask`` says what
is asked after the picks so far, ``pick`` makes them (``/carc place`` pre-fills picks with
``picks_for``); ``play`` takes whole moves (the terminal's and the JSON API's own shape)."""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from engine import Game, IllegalMove
from engine.ai import computer_moves, hint, standing
from engine.language import _
from engine.moves import OFF_TILE, Question
from service import validate
from service.announce import announce, game_language, in_language
from service.caller import Caller, caller
from service.core import NOTICE_HOLD, PLAYED_HOLD, ServiceCore
from service.gamelog import AlreadyPlayed, turn_seconds
from service.validate import ServiceError
from service.views import Ask, Hint, PlayResult, Said, TurnView
from service.workers import computer_turn, hint_moves
from storage import Conflict, GameRow

log = logging.getLogger(__name__)

AUTO_USER = "auto"  # who the log credits for moves made on an absent player's behalf


class Turns(ServiceCore):
    """The turn calls of ``GameService`` (a mixin: the state is the service's)."""

    async def turn(self, who: Caller, game_id: int, *, language: str | None = None) -> TurnView:
        """The game as it stands, its question worded in the game's language (what everyone
        sees in its thread) or in ``language`` (a player's, for a direct message)."""
        row, game = await self.game(who, game_id)
        return self.view(row, game, language=language)

    def view(self, row: GameRow, game: Game, version: int | None = None,
             language: str | None = None) -> TurnView:  # fmt: skip
        users = row.setup["users"] if row.setup else []
        finished = game.finished or row.status != "active"
        limit = turn_seconds(row)
        started = row.turn_started_at
        language = language or game_language(row)
        with in_language(language):
            question = None if finished else game.question()
        return TurnView(
            game_id=row.id,
            guild_id=row.guild_id,
            version=row.version if version is None else version,
            finished=finished,
            turn=game.turn,
            step=None if finished else game.step,
            player=None if finished else game.players[game.actor],
            user_id=None if finished else users[game.actor],
            tile=game.drawn.id if game.drawn is not None and not finished else None,
            question=question,
            scores=game.score_table(),
            supply=dict(zip(game.players, game.supply, strict=True)),
            bag_left=game.bag_left,
            started_at=started,
            deadline=started + timedelta(seconds=limit) if started and limit and not finished else None,
            language=language,
            clocks=self._clocks_now(row, game) if row.clocks is not None and not finished else None,
        )

    def _clocks_now(self, row: GameRow, game: Game) -> dict[str, int]:
        """Each player's time bank now: the player to move's bank less the time their turn took so far."""
        assert row.clocks is not None
        left = dict(zip(game.players, row.clocks["left"], strict=True))
        if row.turn_started_at is not None:
            actor = game.players[row.clocks["actor"]]
            spent = (self.clock() - row.turn_started_at).total_seconds()
            left[actor] = max(0, int(left[actor] - max(0.0, spent)))
        return left

    async def ask(self, who: Caller, game_id: int, picks: list[int], version: int | None = None) -> Ask:
        """What the user must decide now, after the picks made so far this turn
        (every front end renders this answer; none re-derives the turn)."""
        version = validate.version(version)
        if not isinstance(picks, list | tuple) or len(picks) > validate.MAX_MOVES:
            raise validate.InvalidInput("picks must be a short list of option numbers")
        row, game = await self.game(who, game_id)
        _check_turn(row, game, who.user_id, version)
        return self._ask(row, game, list(picks))

    def _ask(self, row: GameRow, game: Game, picks: list[int]) -> Ask:
        trial = game.clone()
        actor, turn = game.actor, game.turn
        moves: list[dict[str, Any]] = []
        labels: list[str] = []
        question = _answer_forced(trial, actor, turn, moves, labels)
        for n, pick in enumerate(picks):
            if question is None or _decided(trial, actor, turn):
                raise ServiceError(_("those choices go past the end of your decision"))
            options = question.moves()
            if type(pick) is not int or not 0 <= pick < len(options):
                raise AlreadyPlayed(_("choice {n} is no longer on offer; here is the current turn").format(n=n + 1))
            try:
                trial.apply(options[pick])
            except IllegalMove as exc:  # pragma: no cover - the engine offered it
                raise ServiceError(str(exc)) from None
            moves.append(options[pick])
            labels.append(question.options[pick].label if pick < len(question.options) else question.pass_label or "")
            question = _answer_forced(trial, actor, turn, moves, labels)
        done = bool(moves) and _decided(trial, actor, turn)
        spots: dict[int, int] = {}
        if not done and question is not None and question.kind == "figure" and moves:
            # Followers on the new tile are numbered as the preview numbers them.
            numbered = [i for i, o in enumerate(question.options)
                        if o.move["type"] == "meeple" and OFF_TILE not in o.tags]  # fmt: skip
            spots = {i: k for k, i in enumerate(numbered, start=1)}
        return Ask(self.view(row, game), list(picks), moves, None if done else question, done, spots, labels)

    async def pick(self, who: Caller, game_id: int, picks: list[int], version: int | None = None) -> PlayResult | Ask:
        """Make the picks: plays them at once when they complete the decision, or when
        the last one draws a tile (a draw is committed: nobody peeks at the bag);
        otherwise returns the next question."""
        ask = await self.ask(who, game_id, picks, version)
        if ask.done or (ask.moves and ask.moves[-1]["type"] == "draw"):
            result = await self.play(who, game_id, ask.moves, ask.turn.version)
            ended = any(e["type"] == "turn_ended" for e in result.events)
            result.again = not ended and not result.turn.finished and result.turn.user_id == who.user_id
            return result
        return ask

    async def play(
        self, who: Caller, game_id: int, moves: list[dict[str, Any]], version: int | None = None
    ) -> PlayResult:
        """Play one or more moves of the user's turn, atomically, then any automatic turns.

        ``version`` is the game version the player saw; if the game has moved on,
        AlreadyPlayed is raised and nothing changes.
        """
        who, game_id = caller(who), validate.game_id(game_id)
        moves, version = validate.moves(moves), validate.version(version)
        async with self.log.lock(game_id):
            row, game = await self.game(who, game_id)
            _check_turn(row, game, who.user_id, version)
            trial = game.clone()
            events: list[dict[str, Any]] = []
            try:
                for move in moves:
                    if trial.finished or trial.players[trial.actor] != game.players[game.actor]:
                        raise ServiceError(_("those moves go past the end of your turn"))
                    events += trial.apply({k: v for k, v in move.items() if k != "player"})
            except IllegalMove as exc:
                raise ServiceError(str(exc)) from None
            # A turn that passes on (or ends the game) is posted: its notice is committed with it
            # (a draw, the same player deciding on, is not).
            ends = trial.finished or trial.turn != game.turn or trial.actor != game.actor
            holder = f"{self.instance_id}/{uuid.uuid4().hex[:12]}" if ends and self.outbox_turns else None
            notice = None
            if holder is not None:
                said = announce(events, game_language(row))
                name = game.players[game.actor]
                notice = self.outgoing(holder, "played", row, who.user_id, name, said, PLAYED_HOLD)
            await self.log.commit(
                row, game, trial, [(who.user_id, m) for m in trial.moves[len(game.moves) :]], notice
            )
        events += await self.run_automatic(who, game_id, notify=holder)
        outbox = await self.store.held_notices(holder) if holder is not None else []
        return PlayResult(events, announce(events, game_language(row)), await self.turn(who, game_id), outbox=outbox)

    async def picks_for(
        self, who: Caller, game_id: int, cell: tuple[int, int], rot: int | None, spot: str | None
    ) -> list[int]:
        """The picks that ``/carc place``'s cell, rotation and spot stand for (a spot is a
        preview number, or words of an option's label, or "none"); later questions stay open."""
        if not (isinstance(cell, tuple) and len(cell) == 2 and all(validate.is_int(c) for c in cell)):
            raise validate.InvalidInput(_("a cell is two whole numbers"))
        if rot is not None and not validate.is_int(rot):
            raise validate.InvalidInput(_("the rotation is one of 0, 90, 180, 270"))
        if spot is not None and not isinstance(spot, str):
            raise validate.InvalidInput(_("a spot is a number or words"))
        ask = await self.ask(who, game_id, [])
        question = ask.question
        picks: list[int] = []
        if question is not None and question.kind == "draw":
            moves = question.moves()
            castle = [i for i, m in enumerate(moves) if m["type"] == "castle" and (m["x"], m["y"]) == cell]
            if castle:  # a castle on that cell: the rotation (and the castle) as for a tile
                rots = sorted({moves[i]["rot"] for i in castle})
                rot = _rotation(cell, rot, rots)
                choices = [i for i in castle if moves[i]["rot"] == rot]
                if len(choices) > 1:
                    raise ServiceError(_("two of your castles fit there: choose with the Take turn button"))
                return [choices[0]]
            draw = next((i for i, m in enumerate(moves) if m["type"] == "draw"), None)
            if draw is None:
                raise ServiceError(_("the bag is empty: place a castle with the Take turn button"))
            return [draw]
        if question is None or question.kind != "tile":
            raise ServiceError(_("this decision is not a tile placement: use the Take turn button"))
        moves = question.moves()
        rots = sorted({m["rot"] for m in moves if (m["x"], m["y"]) == cell})
        rot = _rotation(cell, rot, rots)
        picks.append(next(i for i, m in enumerate(moves) if (m["x"], m["y"], m["rot"]) == (*cell, rot)))
        if spot is None:
            return picks
        after = await self.ask(who, game_id, picks)
        if after.question is None or after.question.kind != "figure":
            raise ServiceError(_("no figure can be placed on that tile this turn"))
        picks.append(_match_spot(after, spot))
        return picks

    async def run_automatic(
        self, who: Caller, game_id: int, on_turn: Callable[[Game, list[dict[str, Any]]], Any] | None = None,
        notify: str | None = None,
    ) -> list[dict[str, Any]]:  # fmt: skip
        """Play the turns of computer players and of players who left, until a human must act.

        ``on_turn(game, events)`` is called after each automatic turn is stored. ``notify``: the
        outbox holder each turn's notice is written for, with its moves (the clock's tick).
        """
        events: list[dict[str, Any]] = []
        while True:
            async with self.log.lock(game_id):
                row, game = await self.game(who, game_id)
                if row.status != "active" or game.finished:
                    return events
                users = row.setup["users"]  # type: ignore[index]
                actor_id = users[game.actor]
                seat = row.seat_of(actor_id)
                turn_events: list[dict[str, Any]] = []
                if seat is None:
                    return events
                if not seat.is_ai and seat.status == "playing":
                    # A human is asked only what has a choice: a decision with a single option
                    # (the plague with one follower standing) is made for them, and said.
                    if game.step == "tile" or len(game.legal_moves()) != 1:  # cheap: no labels worded
                        return events
                    question = game.question()
                    if not _forced(question):
                        return events
                    assert question is not None
                    mover, moves = actor_id, [question.options[0].move]
                    turn_events.append(
                        {"type": "forced", "player": question.player, "choice": question.options[0].label}
                    )
                else:
                    mover = actor_id if seat.is_ai else AUTO_USER
                    if seat.is_ai and self.workers is not None:  # a computer thinks off the event loop
                        moves = await self.workers.run(computer_turn, game.to_json(), actor_id)
                    else:
                        moves = computer_moves(game.clone(), actor_id if seat.is_ai else None)
                trial = game.clone()
                for move in moves:
                    turn_events += trial.apply(move)
                notice = None
                if notify is not None:
                    name = game.players[game.actor]
                    said = announce(turn_events, game_language(row))
                    hold = PLAYED_HOLD if "/" in notify else NOTICE_HOLD  # a player's post, or the clock's
                    notice = self.outgoing(notify, "moved", row, actor_id, name, said, hold)
                try:
                    await self.log.commit(
                        row, game, trial, [(mover, m) for m in trial.moves[len(game.moves) :]], notice
                    )
                except AlreadyPlayed:
                    # Another process sharing the database played this automatic turn first (its
                    # deadline clock, between a human's move here and the reply): it goes on from
                    # there and posts what it played.
                    return events
                events += turn_events
            if on_turn is not None:
                on_turn(trial, turn_events)

    async def hint(self, who: Caller, game_id: int) -> Hint:
        """What the hard computer would play for the caller's decision, with how it expects them to
        stand afterwards. Only in a game whose lobby turned hints on (never a rated one), only for
        the player to move. It searches as hard does, never reading the bag's order."""
        who, game_id = caller(who), validate.game_id(game_id)
        row, game = await self.game(who, game_id)
        if row.league_id is not None or not row.options.get("hints"):
            raise ServiceError(_("hints are off in this game (a lobby opened with /carc new hints:True has them)"))
        if row.status != "active" or game.finished:
            raise ServiceError(_("game #{id} is over").format(id=game_id))
        users = row.setup["users"]  # type: ignore[index]
        if users[game.actor] != who.user_id:
            raise ServiceError(_("it is not your turn in game #{id}").format(id=game_id))
        seed = game_id * 1_000_003 + row.version  # the same hint for the same position
        if self.workers is not None:  # the search thinks off the event loop
            moves, expected = await self.workers.run(hint_moves, game.to_json(), seed)
        else:
            moves, expected = hint(game.clone(), seed)
        trial, labels = game.clone(), []
        for move in moves:
            question = trial.question()
            option = next(
                (o for o in question.options if all(o.move.get(k) == v for k, v in move.items())), None
            ) if question is not None else None  # fmt: skip
            if option is not None:
                labels.append(option.label)
            else:  # passing: the question says what that means
                labels.append(question.pass_label or _("pass") if question is not None else _("pass"))
            trial.apply(move)
        return Hint(game_id, row.version, moves, labels, standing(game, game.actor), expected)

    async def resign(self, who: Caller, game_id: int) -> list[str]:
        return await self._leave_game(who, game_id, who.user_id, "resigned")

    async def kick(self, who: Caller, game_id: int, target_id: str) -> list[str]:
        """Remove a player; only a manager of the game's server may."""
        await self.lobby(who, game_id)  # another server's game is not there, whoever asks
        if not who.manager:
            raise ServiceError(_("only server managers can remove a player from a game"))
        return await self._leave_game(who, game_id, validate.user_id(target_id), "kicked")

    async def _leave_game(self, who: Caller, game_id: int, user_id: str, status: str) -> list[str]:
        game_id = validate.game_id(game_id)
        async with self.log.lock(game_id):
            row = await self.lobby(who, game_id)
            if row.status != "active":
                raise ServiceError(_("game #{id} is not running").format(id=game_id))
            seat = row.seat_of(user_id)
            if seat is None or seat.is_ai:
                raise ServiceError(_("that player is not in game #{id}").format(id=game_id))
            if seat.status != "playing":
                raise ServiceError(_("{player} has already left game #{id}").format(player=seat.name, id=game_id))
            # With a front end that posts each turn, what follows is told through the outbox.
            holder = f"{self.instance_id}/{uuid.uuid4().hex[:12]}" if self.outbox_turns else None
            if status == "resigned" and len(row.seats) == 2:
                return await self._concede(row, user_id, holder)
            with in_language(game_language(row)):
                if status == "resigned":
                    lines = [_("{player} resigned; their turns are played automatically.").format(player=seat.name)]
                else:
                    lines = [_("{player} was removed; their turns are played automatically.").format(player=seat.name)]
            notice = None
            if holder is not None:
                notice = self.outgoing(holder, "left", row, user_id, seat.name, list(lines), PLAYED_HOLD)
            await self.store.set_seat_status(game_id, user_id, status, notice=notice, now=self.clock())
            row = await self.lobby(who, game_id)
            remaining = [s for s in row.seats if s.status == "playing" and not s.is_ai]
            if not remaining:
                with contextlib.suppress(Conflict):  # ended meanwhile (by another instance)
                    await self.store.finish(game_id, "aborted", None, self.clock())
                self.log.forget(game_id)
                with in_language(game_language(row)):
                    lines.append(_("No human player is left: the game is abandoned."))
                return Said(lines, await self.store.held_notices(holder) if holder is not None else [])
            events = await self.run_automatic(who, game_id, notify=holder)
        outbox = await self.store.held_notices(holder) if holder is not None else []
        return Said(lines + announce(events, game_language(row)), outbox)


    async def _concede(self, row: GameRow, user_id: str, holder: str | None) -> list[str]:
        """A duel resigned: the game ends now, the other player the winner (ranked first in a
        league whatever the scores: the one who resigned counts as forfeited). Under the game's lock."""
        row, game = await self.log.load(row.id)
        users = row.setup["users"]  # type: ignore[index]
        names = dict(zip(users, game.players, strict=True))
        resigned = names[user_id]
        result = {
            "scores": game.score_table(),
            "users": dict(zip(game.players, users, strict=True)),
            "forfeited": [resigned],
            "conceded": resigned,
        }
        winner = next(n for u, n in names.items() if u != user_id)
        with in_language(game_language(row)):
            lines = [_("{player} resigned: game #{id} ends, and {winner} wins.").format(
                player=resigned, id=row.id, winner=winner)]  # fmt: skip
        notice = None
        if holder is not None:
            notice = self.outgoing(holder, "left", row, user_id, resigned, lines, PLAYED_HOLD)
        if not await self.store.concede(row.id, user_id, row.version, result, self.clock(), notice):
            raise AlreadyPlayed(_("game #{id} moved on meanwhile: try again").format(id=row.id))
        self.log.forget(row.id)
        for listener in self.log.finished_listeners:  # a league rates it and counts it for its match
            try:
                await listener(row.id)
            except Exception:  # a listener's failure must not undo the resignation
                log.exception("after game #%s was conceded", row.id)
        return Said(lines, await self.store.held_notices(holder) if holder is not None else [])


def _forced(question: Question | None) -> bool:
    """A decision with a single option and no passing: nobody needs to be asked. Placing the tile
    stays the player's own click even where it fits in one place only: it is the turn itself,
    and the thread shows the player where it went."""
    return (
        question is not None and question.kind != "tile" and len(question.options) == 1
        and question.pass_label is None
    )  # fmt: skip


def _answer_forced(
    trial: Game, actor: int, turn: int, moves: list[dict[str, Any]], labels: list[str]
) -> Question | None:
    """Make the forced choices that follow in the same decision (a lake's only ferry, say) on the
    trial game, as picks a player did not have to make; returns the next real question."""
    question = trial.question()
    while _forced(question) and not _decided(trial, actor, turn):
        assert question is not None
        option = question.options[0]
        trial.apply(option.move)
        moves.append(option.move)
        labels.append(option.label)
        question = trial.question()
    return question


def _decided(game: Game, actor: int, turn: int) -> bool:
    """Whether the decision of ``actor`` in ``turn`` is complete on this copy."""
    return game.finished or game.turn != turn or game.actor != actor


def _check_turn(row: GameRow, game: Game, user_id: str, version: int | None) -> None:
    if row.status == "finished" or game.finished:
        raise ServiceError(_("game #{id} is over").format(id=row.id))
    if row.status != "active":
        raise ServiceError(_("game #{id} is not running").format(id=row.id))
    if version is not None and version != row.version:
        raise AlreadyPlayed(_("that turn has already been played; here is the current one"))
    users = row.setup["users"]  # type: ignore[index]
    if users[game.actor] != user_id:
        seat = row.seat_of(user_id)
        if seat is None or seat.seat is None:
            raise ServiceError(_("you are not playing in game #{id}").format(id=row.id))
        raise ServiceError(_("it is {player}'s turn, not yours").format(player=game.players[game.actor]))


def _rotation(cell: tuple[int, int], rot: int | None, rots: list[int]) -> int:
    """The rotation meant on ``cell``: the one given, or the only one that fits."""
    if not rots:
        raise ServiceError(_("the tile cannot go on {cell}").format(cell=f"({cell[0]}, {cell[1]})"))
    if rot is None and len(rots) == 1:
        return rots[0]
    if rot not in rots:
        raise ServiceError(
            _("on {cell} the tile fits turned {rotations}").format(
                cell=f"({cell[0]}, {cell[1]})", rotations=", ".join(f"{r}°" for r in rots)
            )
        )
    return rot


def _match_spot(ask: Ask, spot: str) -> int:
    """The option a player means by a spot: its preview number, "none", or words of its label."""
    question = ask.question
    assert question is not None
    text = spot.strip().lower()[:100]
    moves = question.moves()
    if text in ("", "none", "pass", "no", "-", "0"):
        if question.pass_label is None:
            raise ServiceError(_("a figure is needed here"))
        return len(moves) - 1
    if text.isascii() and text.isdigit() and len(text) <= 3:
        by_number = {n: i for i, n in ask.spot_numbers.items()}
        if int(text) in by_number:
            return by_number[int(text)]
        raise ServiceError(
            _("there is no spot {spot} on that tile (the preview numbers them 1 to {n})").format(
                spot=text, n=len(by_number)
            )
        )
    found = [i for i, o in enumerate(question.options) if text in o.label.lower()]
    if len(found) == 1:
        return found[0]
    listed = "; ".join(f"{ask.spot_numbers.get(i, '-')}: {o.label}" for i, o in enumerate(question.options))
    if found:
        raise ServiceError(_("{spot!r} matches several spots: {spots}").format(spot=spot[:40], spots=listed)[:1500])
    raise ServiceError(_("{spot!r} is not one of the spots: {spots}").format(spot=spot[:40], spots=listed)[:1500])
