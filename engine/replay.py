"""``python -m engine.replay RECORD.json``: replay a game record (RECORD.md).

Prints one JSON object. Exit 0: replayed; 1: an illegal move (moves before it
count); 2: not a readable record (bad JSON, unknown ids, impossible setup).
The record's format and the output's fields: docs/RECORD.md.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from engine.record import BadRecord, load


def summary(record: Any) -> tuple[dict[str, Any], int]:
    """The replay's output object and exit status for a parsed record."""
    try:
        game, events, error = load(record)
    except BadRecord as exc:
        return {"ok": False, "error": str(exc)}, 2
    out: dict[str, Any] = {
        "ok": error is None,
        "finished": game.finished,
        "scores": game.score_table(),
        "turn": game.turn,
        "next": _next(record, game),
        "supply": dict(zip(game.players, game.supply, strict=False)),
        "events": events,
    }
    if game._extra_kinds:  # figures of other kinds than the plain follower (RECORD.md "figures")
        out["figures"] = dict(zip(game.players, game.hands(), strict=True))
    for expansion in game.expansions:
        out.update(expansion.replay_fields(game))
    if error is not None:
        out["move"], out["error"] = error
        return out, 1
    return out, 0


def _next(record: dict[str, Any], game: Any) -> dict[str, Any] | None:
    """Whose decision is awaited; of a record with hidden tiles, the tile only if it was drawn."""
    info = game.next_info()
    if info is not None and record.get("hidden") is not None and game.bag_pos > len(record["pool"]):
        info.pop("tile", None)
    return info


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def main(argv: list[str] | None = None) -> int:
    """Replay the file named in ``argv``; prints one JSON object, never a traceback."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    try:
        return _main(args)
    except BrokenPipeError:  # the reader stopped early (`| head`): nothing more to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so Python's exit flush is quiet
        return 0
    except Exception as exc:  # last resort: the output stays one JSON object
        print(json.dumps({"ok": False, "error": f"cannot replay this record ({type(exc).__name__})"}))
        return 2


def _main(args: list[str]) -> int:
    if len(args) != 1:
        print(json.dumps({"ok": False, "error": "usage: python -m engine.replay RECORD.json"}))
        return 2
    try:
        with open(args[0], encoding="utf-8") as fh:
            record = json.load(fh, parse_constant=_no_constant)  # NaN and Infinity are not JSON
    except OSError as exc:
        print(json.dumps({"ok": False, "error": f"cannot read {args[0]}: {exc.strerror}"}))
        return 2
    except RecursionError:
        print(json.dumps({"ok": False, "error": "not valid JSON: nested too deeply"}))
        return 2
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, numbers over 4,300 digits
        print(json.dumps({"ok": False, "error": f"not valid JSON: {str(exc)[:200]}"}))
        return 2
    out, status = summary(record)
    print(json.dumps(out))
    return status


if __name__ == "__main__":
    sys.exit(main())
