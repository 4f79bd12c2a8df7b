-- The schema's version 3: a sample of a league's games played twice, by workers of two different
-- names, and the two records compared byte for byte (`arena league --database`, the league
-- file's `double_play`). The {{ d.other }} migration of the same number adds the same columns.
{% if d.postgres -%}
--
-- A game sent to be played again keeps the first play here: `check_of` is the name of the worker
-- that played it (a worker of that name does not take the game again, for `check_since_ms` plus a
-- while: then any worker may), `check_result` and `check_record` its result and record.
{% endif -%}
ALTER TABLE league_games ADD COLUMN check_of TEXT;
ALTER TABLE league_games ADD COLUMN check_result TEXT;
ALTER TABLE league_games ADD COLUMN check_record {{ d.blob }};
ALTER TABLE league_games ADD COLUMN check_since_ms BIGINT;
