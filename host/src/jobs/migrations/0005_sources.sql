-- The schema's version 5: versions uploaded as Python or JavaScript sources, which the server
-- builds. The same statements run on SQLite and PostgreSQL.

-- The SHA-256 of the version's sources as stored in the data folder (`serve::sources`), for a
-- version uploaded as sources; NULL for a module. Until the build's component is checked,
-- `sha256` is this too (a check cut short by a stop builds again); then it is the component's.
ALTER TABLE versions ADD COLUMN source_sha256 TEXT;
