-- The schema's version 2: workers on any machine (`arena worker`) and batch leagues played by
-- them (`arena league --database`). The {{ d.other }} migration of the same number creates the same
-- tables, columns and constraints; only the id and byte columns are spelled for each database.

-- The bytes of every agent a worker may load, stored once by their SHA-256: an accepted upload
-- (`versions.sha256`) or a league's agent file. Workers fetch them and compile them themselves,
-- each with its own compiled-module cache.
CREATE TABLE code (
    sha256 TEXT PRIMARY KEY,
    bytes {{ d.blob }} NOT NULL
);

-- Ladder games: who played a game last (a worker's id) and how often it was leased (more than
-- once when a lease ran out: the worker died or hung, and the game was played again).
ALTER TABLE games ADD COLUMN played_by TEXT;
ALTER TABLE games ADD COLUMN claims BIGINT NOT NULL DEFAULT 0;

-- The records of ladder games kept in the database rather than in the data folder (PostgreSQL:
-- a worker on any machine writes a game's record with its result, in one transaction).
CREATE TABLE game_records (
    game_id BIGINT PRIMARY KEY REFERENCES games(id),
    bytes {{ d.blob }} NOT NULL
);

-- Ladder games finished by workers outside the server, until the server has counted them on its
-- leaderboard (it deletes the rows it has read).
CREATE TABLE finished_games (
    game_id BIGINT PRIMARY KEY REFERENCES games(id)
);

-- Workers, with the last time each was heard of (it renews its leases then): the server keeps
-- enough games queued for all of them.
CREATE TABLE workers (
    owner TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    threads BIGINT NOT NULL,
    arena_version TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    games BIGINT NOT NULL DEFAULT 0
);

-- Batch leagues (`arena league --database`): the league's settings and agents (JSON: what a
-- worker needs to compute the schedule and play any game of it), the arena version that
-- enqueued it, and the `arena league` process that collects its results (`driver`, heard of at
-- `driver_seen_ms`). One row per league, known by the fingerprint of its settings.
CREATE TABLE leagues (
    id {{ d.id }},
    fingerprint TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    arena_version TEXT NOT NULL,
    status TEXT NOT NULL,
    driver TEXT,
    driver_seen_ms BIGINT,
    created_ms BIGINT NOT NULL
);

-- A league's games, by their number in its schedule. `status`: scheduled, running (leased by
-- `lease_owner` until `lease_expires_ms`), done (`result` and `record`, the record file's bytes,
-- written by `played_by`), collected (written into the league's output folder; the bytes are
-- dropped) or failed (`error`: the worker could not play it; the league stops).
CREATE TABLE league_games (
    league_id BIGINT NOT NULL REFERENCES leagues(id),
    game BIGINT NOT NULL,
    status TEXT NOT NULL,
    lease_owner TEXT,
    lease_expires_ms BIGINT,
    claims BIGINT NOT NULL DEFAULT 0,
    played_by TEXT,
    result TEXT,
    record {{ d.blob }},
    error TEXT,
    PRIMARY KEY (league_id, game)
);
CREATE INDEX league_games_status ON league_games (status, league_id, game);{% if d.postgres %}

-- Records are compressed by PostgreSQL as they are stored (TOAST). lz4, where the server is built
-- with it (Debian's and most others are), costs the database a fraction of the CPU time of the
-- default (pglz) per record; a server without it keeps the default.
DO $$
BEGIN
    EXECUTE 'ALTER TABLE game_records ALTER COLUMN bytes SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE league_games ALTER COLUMN record SET COMPRESSION lz4';
EXCEPTION WHEN OTHERS THEN
    NULL;
END
$$;{% endif %}
