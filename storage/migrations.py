"""Numbered schema migrations, applied in order at start; never edit a released one."""

MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        """
        CREATE TABLE players (
            user_id     TEXT PRIMARY KEY,
            name        TEXT NOT NULL,
            dm_turns    INTEGER NOT NULL DEFAULT 0,
            created_at  TEXT NOT NULL
        );
        CREATE TABLE games (
            id              INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id        TEXT,
            channel_id      TEXT,
            thread_id       TEXT,
            lobby_message   TEXT,
            status          TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
            creator_id      TEXT NOT NULL,
            options         TEXT NOT NULL,
            setup           TEXT,
            version         INTEGER NOT NULL DEFAULT 0,
            turn_started_at TEXT,
            reminded        INTEGER NOT NULL DEFAULT 0,
            result          TEXT,
            created_at      TEXT NOT NULL,
            updated_at      TEXT NOT NULL
        );
        CREATE INDEX games_status ON games (status);
        CREATE INDEX games_guild ON games (guild_id, status);
        CREATE TABLE seats (
            game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            user_id  TEXT NOT NULL,
            name     TEXT NOT NULL,
            seat     INTEGER,
            is_ai    INTEGER NOT NULL DEFAULT 0,
            status   TEXT NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'resigned', 'forfeited', 'kicked')),
            joined_at TEXT NOT NULL,
            PRIMARY KEY (game_id, user_id)
        );
        CREATE INDEX seats_user ON seats (user_id);
        -- The move log is append-only: the truth every game is rebuilt from.
        CREATE TABLE moves (
            game_id    INTEGER NOT NULL REFERENCES games (id),
            seq        INTEGER NOT NULL,
            user_id    TEXT NOT NULL,
            move       TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        );
        CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
            BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
        CREATE TRIGGER moves_append_only_delete BEFORE DELETE ON moves
            BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
        -- A cache: the record up to seq, written by one engine version.
        CREATE TABLE snapshots (
            game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            seq            INTEGER NOT NULL,
            engine_version TEXT NOT NULL,
            state          TEXT NOT NULL
        );
        """,
    ),
    (
        2,
        """
        CREATE TABLE leagues (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id    TEXT NOT NULL,
            name        TEXT NOT NULL,
            options     TEXT NOT NULL,
            created_by  TEXT NOT NULL,
            created_at  TEXT NOT NULL,
            UNIQUE (guild_id, name)
        );
        CREATE TABLE league_members (
            league_id  INTEGER NOT NULL REFERENCES leagues (id),
            user_id    TEXT NOT NULL,
            name       TEXT NOT NULL,
            active     INTEGER NOT NULL DEFAULT 1,
            joined_at  TEXT NOT NULL,
            PRIMARY KEY (league_id, user_id)
        );
        CREATE TABLE seasons (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            league_id   INTEGER NOT NULL REFERENCES leagues (id),
            number      INTEGER NOT NULL,
            started_at  TEXT NOT NULL,
            ended_at    TEXT,
            standings   TEXT,
            UNIQUE (league_id, number)
        );
        -- Append-only: every rated game's ranking. Ratings are derived from it.
        CREATE TABLE results (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            league_id   INTEGER NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            game_id     INTEGER NOT NULL UNIQUE REFERENCES games (id),
            ranking     TEXT NOT NULL,
            recorded_at TEXT NOT NULL
        );
        CREATE TRIGGER results_append_only_update BEFORE UPDATE ON results
            BEGIN SELECT RAISE(ABORT, 'the results log is append-only'); END;
        CREATE TRIGGER results_append_only_delete BEFORE DELETE ON results
            BEGIN SELECT RAISE(ABORT, 'the results log is append-only'); END;
        -- A cache of the ratings after the latest result; rebuildable from results.
        CREATE TABLE ratings (
            league_id  INTEGER NOT NULL REFERENCES leagues (id),
            season     INTEGER NOT NULL,
            user_id    TEXT NOT NULL,
            mu         REAL NOT NULL,
            sigma      REAL NOT NULL,
            games      INTEGER NOT NULL,
            PRIMARY KEY (league_id, season, user_id)
        );
        ALTER TABLE games ADD COLUMN league_id INTEGER REFERENCES leagues (id);
        CREATE INDEX games_league ON games (league_id);
        """,
    ),
    (
        3,
        """
        -- Who runs the deadline clock: one row, renewed by its holder at every tick. A second
        -- process over the same database sees a fresh lease held by another and does not tick.
        CREATE TABLE clock_lease (
            id         INTEGER PRIMARY KEY CHECK (id = 1),
            holder     TEXT NOT NULL,
            heartbeat  TEXT NOT NULL
        );
        """,
    ),
]
