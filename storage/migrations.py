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
# Migration 3 belongs to another branch (storage reliability); this one is numbered 4
# so that the two merge without renumbering. ``migrate`` applies the list in order and
# skips what the database already has, so the gap is harmless.
MIGRATIONS.append(
    (
        4,
        """
        -- A season run as a competition (divisions or Swiss); a season without a row is a rating ladder.
        CREATE TABLE competitions (
            league_id   INTEGER NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            rules       TEXT NOT NULL,
            guild_id    TEXT,
            channel_id  TEXT,
            created_at  TEXT NOT NULL,
            PRIMARY KEY (league_id, season)
        );
        -- Who plays the season, in which division (1 = top) and with which seed; set before kick-off.
        CREATE TABLE entrants (
            league_id   INTEGER NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            user_id     TEXT NOT NULL,
            name        TEXT NOT NULL,
            division    INTEGER NOT NULL,
            seed        INTEGER NOT NULL,
            PRIMARY KEY (league_id, season, user_id)
        );
        -- Append-only: the pairings of each round, written when the round opens.
        CREATE TABLE fixtures (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            league_id   INTEGER NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            round       INTEGER NOT NULL,
            division    INTEGER NOT NULL,
            home        TEXT NOT NULL,
            away        TEXT,
            sets        TEXT NOT NULL,
            opens_at    TEXT NOT NULL,
            deadline    TEXT NOT NULL,
            UNIQUE (league_id, season, round, home)
        );
        CREATE INDEX fixtures_season ON fixtures (league_id, season, round);
        CREATE TRIGGER fixtures_append_only_update BEFORE UPDATE ON fixtures
            BEGIN SELECT RAISE(ABORT, 'fixtures are append-only'); END;
        CREATE TRIGGER fixtures_append_only_delete BEFORE DELETE ON fixtures
            BEGIN SELECT RAISE(ABORT, 'fixtures are append-only'); END;
        CREATE TABLE fixture_games (
            fixture_id  INTEGER NOT NULL REFERENCES fixtures (id),
            number      INTEGER NOT NULL,
            game_id     INTEGER NOT NULL UNIQUE REFERENCES games (id),
            PRIMARY KEY (fixture_id, number)
        );
        -- Append-only: how each match was decided, entry by entry (a game's score, a bye,
        -- a deadline ruling, an organiser's override with its reason). Tables are computed from it.
        CREATE TABLE match_log (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            fixture_id  INTEGER NOT NULL REFERENCES fixtures (id),
            kind        TEXT NOT NULL CHECK (kind IN ('game', 'bye', 'deadline', 'override')),
            game_id     INTEGER UNIQUE REFERENCES games (id),  -- a game counts once
            body        TEXT NOT NULL,
            by_user     TEXT NOT NULL,
            recorded_at TEXT NOT NULL
        );
        CREATE INDEX match_log_fixture ON match_log (fixture_id);
        CREATE TRIGGER match_log_append_only_update BEFORE UPDATE ON match_log
            BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END;
        CREATE TRIGGER match_log_append_only_delete BEFORE DELETE ON match_log
            BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END;
        """,
    )
)

# The language a player's direct messages are written in (Discord's locale when they asked for them).
MIGRATIONS.append((5, "ALTER TABLE players ADD COLUMN language TEXT NOT NULL DEFAULT 'en';"))

# A snapshot's state is bytes (a short JSON head, then the pickled engine state: see
# GameService), no longer base64 in JSON text. Snapshots are a cache the log rebuilds, so
# the old ones are dropped: each game's next load replays its log and writes a new one.
MIGRATIONS.append(
    (
        6,
        """
        DROP TABLE snapshots;
        CREATE TABLE snapshots (
            game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            seq            INTEGER NOT NULL,
            engine_version TEXT NOT NULL,
            state          BLOB NOT NULL
        );
        """,
    )
)

# Who is handling a game's deadline right now, and until when (several processes tick the clock
# over one PostgreSQL database: each due game is claimed by one of them; a claim expires, so a
# process that dies mid-tick holds nothing for long).
MIGRATIONS.append(
    (
        7,
        """
        ALTER TABLE games ADD COLUMN clock_holder TEXT;
        ALTER TABLE games ADD COLUMN clock_until TEXT;
        """,
    )
)

# Every change to a game's row or seats counts one more revision (Store._BUMP): a process sharing
# the database checks its cached game with one read of it.
MIGRATIONS.append((8, "ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;"))

# Who is handling a periodic job of the clock (a competition's deadlines: "league:ID:SEASON") and
# until when, where several processes tick over one database (Store.claim).
MIGRATIONS.append(
    (
        9,
        """
        CREATE TABLE claims (
            name    TEXT PRIMARY KEY,
            holder  TEXT NOT NULL,
            until   TEXT NOT NULL
        );
        """,
    )
)

# Each bot process's last clock tick and what it says of itself (its worker processes): what
# ``bot.py health`` reports, one line a process.
MIGRATIONS.append(
    (
        10,
        """
        CREATE TABLE instances (
            id         TEXT PRIMARY KEY,
            heartbeat  TEXT NOT NULL,
            info       TEXT NOT NULL
        );
        """,
    )
)

# Vacations: until when a player's turns wait for them, and the days they took, by year.
MIGRATIONS.append(
    (
        11,
        """
        ALTER TABLE players ADD COLUMN vacation_until TEXT;
        ALTER TABLE players ADD COLUMN vacation_days TEXT NOT NULL DEFAULT '{}';
        """,
    )
)

# Time banks: each player's bank and whose turn it is ({"left": [seconds...], "actor": i}); NULL for
# a per-turn game (service/timecontrol.py).
MIGRATIONS.append((12, "ALTER TABLE games ADD COLUMN clocks TEXT;"))

# Playoffs: a season's knockout bracket (its rules and seeds; its matches are fixtures whose round
# is 1000 + the match's number, so the bracket follows from the match log: service/leagues/playoffs.py).
MIGRATIONS.append((13, """
        CREATE TABLE playoffs (
            league_id   INTEGER NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            rules       TEXT NOT NULL,
            seeds       TEXT NOT NULL,
            created_at  TEXT NOT NULL,
            PRIMARY KEY (league_id, season)
        );
"""))

# The outbox: what players are to be told after a committed change (a timeout, a reminder, an
# automatic move, a turn played), written in the transaction that changes the game, posted by a
# front end and then marked posted. A row a dead process left unposted is claimed (holder, until)
# by the next process's tick and posted once (service/clock.py, Store.claim_notices).
# games.due_at: when the deadline clock must next look at an active game (NULL: changed since it
# last looked), so a tick reads only the games due (Store.turn_clocks) through an index.
MIGRATIONS.append((14, """
        CREATE TABLE outbox (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id     INTEGER NOT NULL REFERENCES games (id),
            version     INTEGER NOT NULL,
            kind        TEXT NOT NULL,
            body        TEXT NOT NULL,
            created_at  TEXT NOT NULL,
            holder      TEXT,
            until       TEXT,
            tries       INTEGER NOT NULL DEFAULT 0,
            posted_at   TEXT
        );
        CREATE INDEX outbox_pending ON outbox (id) WHERE posted_at IS NULL;
        CREATE INDEX outbox_posted ON outbox (posted_at);
        ALTER TABLE games ADD COLUMN due_at TEXT;
        CREATE INDEX games_due ON games (due_at) WHERE status = 'active';
"""))


# A league's announcements join the outbox (a round opened, a match decided, the champion): a row
# is a game's (game_id) or a league's (league_id), never both. SQLite cannot drop NOT NULL from a
# column: the table is rebuilt, its AUTOINCREMENT counter carried over (ids, and the nonces made
# from them, never repeat, even those of rows already deleted).
MIGRATIONS.append((15, """
        CREATE TABLE outbox_15 (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id     INTEGER REFERENCES games (id),
            league_id   INTEGER REFERENCES leagues (id),
            version     INTEGER NOT NULL,
            kind        TEXT NOT NULL,
            body        TEXT NOT NULL,
            created_at  TEXT NOT NULL,
            holder      TEXT,
            until       TEXT,
            tries       INTEGER NOT NULL DEFAULT 0,
            posted_at   TEXT,
            CHECK ((game_id IS NULL) <> (league_id IS NULL))
        );
        INSERT INTO outbox_15 (id, game_id, version, kind, body, created_at, holder, until, tries, posted_at)
            SELECT id, game_id, version, kind, body, created_at, holder, until, tries, posted_at FROM outbox;
        DELETE FROM sqlite_sequence WHERE name = 'outbox_15';
        INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_15', seq FROM sqlite_sequence WHERE name = 'outbox';
        DROP TABLE outbox;
        ALTER TABLE outbox_15 RENAME TO outbox;
        CREATE INDEX outbox_pending ON outbox (id) WHERE posted_at IS NULL;
        CREATE INDEX outbox_posted ON outbox (posted_at);
"""))

# PostgreSQL's schema: the same tables, columns and append-only rules as SQLite's at the same
# version, in PostgreSQL's types (identity keys, bytea, double precision; times stay ISO text and
# JSON stays text, so both backends store the same values). A new SQLite migration gets its
# PostgreSQL twin here under the same number (tests/test_storage.py checks both reach LATEST).
POSTGRES_MIGRATIONS: list[tuple[int, str]] = [
    (
        7,
        """
        CREATE FUNCTION append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the % log is append-only', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
        END $$;
        CREATE TABLE players (
            user_id     TEXT PRIMARY KEY,
            name        TEXT NOT NULL,
            dm_turns    INTEGER NOT NULL DEFAULT 0,
            created_at  TEXT NOT NULL,
            language    TEXT NOT NULL DEFAULT 'en'
        );
        CREATE TABLE leagues (
            id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            guild_id    TEXT NOT NULL,
            name        TEXT NOT NULL,
            options     TEXT NOT NULL,
            created_by  TEXT NOT NULL,
            created_at  TEXT NOT NULL,
            UNIQUE (guild_id, name)
        );
        CREATE TABLE games (
            id              BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
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
            updated_at      TEXT NOT NULL,
            league_id       BIGINT REFERENCES leagues (id),
            clock_holder    TEXT,
            clock_until     TEXT
        );
        CREATE INDEX games_status ON games (status);
        CREATE INDEX games_guild ON games (guild_id, status);
        CREATE INDEX games_league ON games (league_id);
        CREATE INDEX games_thread ON games (thread_id);
        CREATE TABLE seats (
            game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            user_id   TEXT NOT NULL,
            name      TEXT NOT NULL,
            seat      INTEGER,
            is_ai     INTEGER NOT NULL DEFAULT 0,
            status    TEXT NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'resigned', 'forfeited', 'kicked')),
            joined_at TEXT NOT NULL,
            rowid     BIGINT GENERATED ALWAYS AS IDENTITY,  -- the join order, as SQLite's rowid
            PRIMARY KEY (game_id, user_id)
        );
        CREATE INDEX seats_user ON seats (user_id);
        CREATE TABLE moves (
            game_id    BIGINT NOT NULL REFERENCES games (id),
            seq        INTEGER NOT NULL,
            user_id    TEXT NOT NULL,
            move       TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        );
        CREATE TRIGGER moves_append_only BEFORE UPDATE OR DELETE ON moves
            FOR EACH ROW EXECUTE FUNCTION append_only();
        CREATE TABLE snapshots (
            game_id        BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            seq            INTEGER NOT NULL,
            engine_version TEXT NOT NULL,
            state          BYTEA NOT NULL
        );
        CREATE TABLE league_members (
            league_id  BIGINT NOT NULL REFERENCES leagues (id),
            user_id    TEXT NOT NULL,
            name       TEXT NOT NULL,
            active     INTEGER NOT NULL DEFAULT 1,
            joined_at  TEXT NOT NULL,
            PRIMARY KEY (league_id, user_id)
        );
        CREATE TABLE seasons (
            id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            league_id   BIGINT NOT NULL REFERENCES leagues (id),
            number      INTEGER NOT NULL,
            started_at  TEXT NOT NULL,
            ended_at    TEXT,
            standings   TEXT,
            UNIQUE (league_id, number)
        );
        CREATE TABLE results (
            id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            league_id   BIGINT NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            game_id     BIGINT NOT NULL UNIQUE REFERENCES games (id),
            ranking     TEXT NOT NULL,
            recorded_at TEXT NOT NULL
        );
        CREATE TRIGGER results_append_only BEFORE UPDATE OR DELETE ON results
            FOR EACH ROW EXECUTE FUNCTION append_only();
        CREATE TABLE ratings (
            league_id  BIGINT NOT NULL REFERENCES leagues (id),
            season     INTEGER NOT NULL,
            user_id    TEXT NOT NULL,
            mu         DOUBLE PRECISION NOT NULL,
            sigma      DOUBLE PRECISION NOT NULL,
            games      INTEGER NOT NULL,
            PRIMARY KEY (league_id, season, user_id)
        );
        CREATE TABLE clock_lease (
            id         INTEGER PRIMARY KEY CHECK (id = 1),
            holder     TEXT NOT NULL,
            heartbeat  TEXT NOT NULL
        );
        CREATE TABLE competitions (
            league_id   BIGINT NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            rules       TEXT NOT NULL,
            guild_id    TEXT,
            channel_id  TEXT,
            created_at  TEXT NOT NULL,
            PRIMARY KEY (league_id, season)
        );
        CREATE TABLE entrants (
            league_id   BIGINT NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            user_id     TEXT NOT NULL,
            name        TEXT NOT NULL,
            division    INTEGER NOT NULL,
            seed        INTEGER NOT NULL,
            PRIMARY KEY (league_id, season, user_id)
        );
        CREATE TABLE fixtures (
            id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            league_id   BIGINT NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            round       INTEGER NOT NULL,
            division    INTEGER NOT NULL,
            home        TEXT NOT NULL,
            away        TEXT,
            sets        TEXT NOT NULL,
            opens_at    TEXT NOT NULL,
            deadline    TEXT NOT NULL,
            UNIQUE (league_id, season, round, home)
        );
        CREATE INDEX fixtures_season ON fixtures (league_id, season, round);
        CREATE TRIGGER fixtures_append_only BEFORE UPDATE OR DELETE ON fixtures
            FOR EACH ROW EXECUTE FUNCTION append_only();
        CREATE TABLE fixture_games (
            fixture_id  BIGINT NOT NULL REFERENCES fixtures (id),
            number      INTEGER NOT NULL,
            game_id     BIGINT NOT NULL UNIQUE REFERENCES games (id),
            PRIMARY KEY (fixture_id, number)
        );
        CREATE TABLE match_log (
            id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            fixture_id  BIGINT NOT NULL REFERENCES fixtures (id),
            kind        TEXT NOT NULL CHECK (kind IN ('game', 'bye', 'deadline', 'override')),
            game_id     BIGINT UNIQUE REFERENCES games (id),
            body        TEXT NOT NULL,
            by_user     TEXT NOT NULL,
            recorded_at TEXT NOT NULL
        );
        CREATE INDEX match_log_fixture ON match_log (fixture_id);
        CREATE TRIGGER match_log_append_only BEFORE UPDATE OR DELETE ON match_log
            FOR EACH ROW EXECUTE FUNCTION append_only();
        """,
    )
]
POSTGRES_MIGRATIONS.append((8, "ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;"))
POSTGRES_MIGRATIONS.append(
    (
        9,
        """
        CREATE TABLE claims (
            name    TEXT PRIMARY KEY,
            holder  TEXT NOT NULL,
            until   TEXT NOT NULL
        );
        """,
    )
)
POSTGRES_MIGRATIONS.append(
    (
        10,
        """
        CREATE TABLE instances (
            id         TEXT PRIMARY KEY,
            heartbeat  TEXT NOT NULL,
            info       TEXT NOT NULL
        );
        """,
    )
)
POSTGRES_MIGRATIONS.append(
    (
        11,
        """
        ALTER TABLE players ADD COLUMN vacation_until TEXT;
        ALTER TABLE players ADD COLUMN vacation_days TEXT NOT NULL DEFAULT '{}';
        """,
    )
)
POSTGRES_MIGRATIONS.append((12, "ALTER TABLE games ADD COLUMN clocks TEXT;"))
POSTGRES_MIGRATIONS.append((13, """
        CREATE TABLE playoffs (
            league_id   BIGINT NOT NULL REFERENCES leagues (id),
            season      INTEGER NOT NULL,
            rules       TEXT NOT NULL,
            seeds       TEXT NOT NULL,
            created_at  TEXT NOT NULL,
            PRIMARY KEY (league_id, season)
        );
"""))
POSTGRES_MIGRATIONS.append((14, """
        CREATE TABLE outbox (
            id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            game_id     BIGINT NOT NULL REFERENCES games (id),
            version     INTEGER NOT NULL,
            kind        TEXT NOT NULL,
            body        TEXT NOT NULL,
            created_at  TEXT NOT NULL,
            holder      TEXT,
            until       TEXT,
            tries       INTEGER NOT NULL DEFAULT 0,
            posted_at   TEXT
        );
        CREATE INDEX outbox_pending ON outbox (id) WHERE posted_at IS NULL;
        CREATE INDEX outbox_posted ON outbox (posted_at);
        ALTER TABLE games ADD COLUMN due_at TEXT;
        CREATE INDEX games_due ON games (due_at) WHERE status = 'active';
"""))
POSTGRES_MIGRATIONS.append((15, """
        ALTER TABLE outbox ALTER COLUMN game_id DROP NOT NULL;
        ALTER TABLE outbox ADD COLUMN league_id BIGINT REFERENCES leagues (id);
        ALTER TABLE outbox ADD CONSTRAINT outbox_game_or_league CHECK ((game_id IS NULL) <> (league_id IS NULL));
"""))
