-- The schema's version 3: a sample of a league's games played twice, by workers of two different
-- names, and the two records compared byte for byte (`arena league --database`, the league
-- file's `double_play`). The PostgreSQL migration of the same number adds the same columns.
ALTER TABLE league_games ADD COLUMN check_of TEXT;
ALTER TABLE league_games ADD COLUMN check_result TEXT;
ALTER TABLE league_games ADD COLUMN check_record BLOB;
ALTER TABLE league_games ADD COLUMN check_since_ms BIGINT;
