"""A process that plays games until it is killed; prints ACK lines for stored turns.

Run by tests/test_crash.py: ``python tests/crash_worker.py DB SEED``.
"""

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service import GameService, LobbyOptions  # noqa: E402
from storage import Store, open_database  # noqa: E402

GAMES = 4


async def main(db_path: str, seed: int) -> None:
    db = await open_database(db_path)
    service = GameService(Store(db))
    rng = random.Random(seed)
    while True:
        active = [g.id for g in await service.games(status="active")]
        while len(active) < GAMES:
            n = rng.randrange(10**6)
            lobby = await service.create_lobby(f"a{n}", "Ann", LobbyOptions(seed=n))
            await service.join(lobby.id, f"b{n}", "Bob")
            await service.start(lobby.id, f"a{n}")
            active.append(lobby.id)
        gid = rng.choice(active)
        view = await service.turn(gid)
        (x, y), rots = sorted(view.placements.items())[rng.randrange(len(view.placements))]
        draft = [{"type": "tile", "x": x, "y": y, "rot": rots[0]}]
        after = await service.options_after(gid, view.user_id, view.version, draft)
        if after.step == "figure" and after.player == view.player:
            draft.append(rng.choice(after.choices).move)
        result = await service.play(gid, view.user_id, draft, view.version)
        print(f"ACK {gid} {result.turn.version}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
