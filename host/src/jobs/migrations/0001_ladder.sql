-- The ladder's schema, version 1. The {{ d.other }} migration of the same number creates the same
-- tables, columns and constraints; only the id columns are spelled for each database.

-- People who take part. Tokens are random; only their SHA-256 is kept.
CREATE TABLE contestants (
    id {{ d.id }},
    name TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    created_ms BIGINT NOT NULL
);

-- Every upload, accepted or refused, numbered per contestant from 1. The bytes of accepted ones
-- are kept on disk under agents/, named by their SHA-256 (`sha256`). `active` marks the one
-- version per contestant that plays (the newest accepted); `placed` that its placement games
-- have been scheduled.
CREATE TABLE versions (
    id {{ d.id }},
    contestant_id BIGINT NOT NULL REFERENCES contestants(id),
    number BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    module_sha256 TEXT,
    size BIGINT NOT NULL,
    uploaded_ms BIGINT NOT NULL,
    accepted BIGINT NOT NULL,
    reason TEXT,
    report TEXT NOT NULL,
    active BIGINT NOT NULL DEFAULT 0,
    placed BIGINT NOT NULL DEFAULT 0,
    UNIQUE (contestant_id, number)
);
CREATE INDEX versions_active ON versions (active);

-- Games, from scheduled to done. A game is one rotation of one cycle of a group of versions;
-- the unique key makes scheduling the same game twice impossible. `status`: scheduled, running
-- (leased by `lease_owner` until `lease_expires_ms`), done (`result` and `record` set) or
-- cancelled (a version of it was replaced before it was played).
CREATE TABLE games (
    id {{ d.id }},
    stage TEXT NOT NULL,
    group_key TEXT NOT NULL,
    cycle BIGINT NOT NULL,
    rotation BIGINT NOT NULL,
    seed BIGINT NOT NULL,
    status TEXT NOT NULL,
    lease_owner TEXT,
    lease_expires_ms BIGINT,
    scheduled_ms BIGINT NOT NULL,
    finished_ms BIGINT,
    result TEXT,
    record TEXT,
    UNIQUE (group_key, cycle, rotation)
);
CREATE INDEX games_status ON games (status, id);

-- Who sits where in each game.
CREATE TABLE game_seats (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    version_id BIGINT NOT NULL REFERENCES versions(id),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_version ON game_seats (version_id);

-- Logged-in browsers: the SHA-256 of the session cookie's value.
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    contestant_id BIGINT NOT NULL REFERENCES contestants(id),
    created_ms BIGINT NOT NULL
);

-- Settings the host changes while the server runs (`frozen`) and the final's progress.
CREATE TABLE state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
