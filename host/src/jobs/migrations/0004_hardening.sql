-- The schema's version 4: names that cannot impersonate each other, contestants the host can
-- take out of the challenge, and uploads recorded before they are checked. The same statements
-- run on SQLite and PostgreSQL.

-- A name's look-alike key (its confusable skeleton, case left out; `auth::name_key`): one name
-- per key. The server computes the keys of names added before this version at its start.
ALTER TABLE contestants ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX contestants_look_alike ON contestants (name_key);

-- Set by `arena serve admin disable`: the contestant's versions leave the ladder and the final,
-- and their uploads are refused; their history stays.
ALTER TABLE contestants ADD COLUMN disabled BIGINT NOT NULL DEFAULT 0;

-- An upload is a row from the moment it is taken, before its check (`checking` = 1): it counts
-- towards `uploads.per_hour` whatever its client does, and a check cut short by a stop is run
-- again at the next start. The verdict (`accepted`, `reason`, `report`) is written when the
-- check ends.
ALTER TABLE versions ADD COLUMN checking BIGINT NOT NULL DEFAULT 0;
CREATE INDEX versions_recent ON versions (contestant_id, uploaded_ms);
