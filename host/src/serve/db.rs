//! The database: contestants, versions and their verdicts, games from scheduled to done, sessions,
//! and the host's switches. SQLite (one WAL file in the data folder) by default; the same SQL runs
//! on PostgreSQL (`$1` placeholders, `RETURNING`, `ON CONFLICT`, no `SUM` of integers, whose
//! type differs), through sqlx's `Any` driver. Queries are checked at run time, so building needs
//! no database. Schema migrations are versioned, one folder per database with the same versions.
//!
//! A PostgreSQL database is *shared*: workers on other machines (`arena worker`, see
//! `crate::distributed`) reach it, so it also keeps what they need and what they make (agents'
//! bytes by hash, records of ladder games); with SQLite these stay files in the data folder.

use std::collections::HashSet;
use std::path::Path;
use std::str::FromStr;

use anyhow::{bail, Context};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, AssertSqlSafe, Row};

use super::auth::Name;
use crate::distributed::lease::{locked_rows, Locking};

/// The database behind the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// How the pool connects: one connection made outside the pool tells why the server refuses
    /// the pool's ([`Db::with_reason`]).
    options: sqlx::any::AnyConnectOptions,
}

/// An hour, in milliseconds (the window of `uploads.per_hour`).
pub const HOUR_MS: i64 = 3_600_000;

/// The SQLite file in the data folder.
pub const SQLITE_FILE: &str = "arena.sqlite3";

/// How the server's own workers' lease owners begin (`local:RUN:N`): at a start, the leases of
/// such owners belong to a run that is gone.
pub const LOCAL_OWNER: &str = "local:";

/// Refuses a `--database` URL that is not PostgreSQL's, saying what is expected.
pub fn check_shared_url(url: &str) -> anyhow::Result<()> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(());
    }
    bail!(
        "--database takes a PostgreSQL URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE (got {:?}); \
         without --database, `arena serve` keeps a SQLite database in its data folder",
        without_password(url)
    )
}

/// `url` with its password, if any, replaced by `***` (for messages).
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (auth, host) = match rest.rfind('@') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => return url.to_owned(),
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***{host}"),
        None => url.to_owned(),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contestant {
    pub id: i64,
    pub name: String,
    /// Taken out of the challenge by the host: out of the ladder and the final, no uploads.
    pub disabled: bool,
}

/// One upload as the database keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    pub id: i64,
    pub contestant_id: i64,
    pub number: i64,
    pub sha256: String,
    pub size: i64,
    pub uploaded_ms: i64,
    pub accepted: bool,
    pub reason: Option<String>,
    pub report: String,
    pub active: bool,
    /// Taken, not yet checked: no verdict yet.
    pub checking: bool,
    /// Uploaded as sources (which its author may download).
    pub source: bool,
}

/// An upload taken, to be recorded before its check.
pub struct NewUpload<'a> {
    pub sha256: &'a str,
    pub size: i64,
    pub now_ms: i64,
    /// The upload is sources to build (`sha256` is theirs).
    pub source: bool,
}

/// What the check said of an upload.
pub struct UploadVerdict<'a> {
    pub module_sha256: Option<&'a str>,
    /// The SHA-256 and size of the component built from the upload's sources, which the
    /// version is from now on.
    pub built: Option<(&'a str, i64)>,
    pub accepted: bool,
    pub reason: Option<&'a str>,
    pub report: &'a str,
}

/// An upload recorded and waiting for its check (or whose check a stop cut short).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingUpload {
    pub version_id: i64,
    pub contestant_id: i64,
    pub name: String,
    pub number: i64,
    pub sha256: String,
    /// Sources to build before the check (`sha256` is theirs).
    pub source: bool,
}

/// Why an upload was not recorded: the contestant's uploads of the last hour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverLimit {
    /// When the oldest upload that keeps the contestant at the limit leaves the hour.
    pub retry_at_ms: i64,
}

/// A version that plays, with its contestant's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveVersion {
    pub id: i64,
    pub contestant_id: i64,
    pub name: String,
    pub number: i64,
    pub sha256: String,
    pub placed: bool,
}

impl ActiveVersion {
    /// The version's name in games and records: the contestant's name and the version number.
    pub fn label(&self) -> String {
        label(&self.name, self.number)
    }
}

/// `alice v3`. Unique: the number is what follows the last " v".
pub fn label(name: &str, number: i64) -> String {
    format!("{name} v{number}")
}

/// One game to schedule: its place in its group's games and who sits where.
pub struct NewGame {
    pub cycle: i64,
    pub rotation: i64,
    pub seed: u64,
    /// Version ids by seat.
    pub seats: Vec<i64>,
}

/// A game a worker has leased.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimedGame {
    pub id: i64,
    pub seed: u64,
    pub key: String,
    /// Version ids by seat.
    pub seats: Vec<i64>,
}

/// A played game's result, to be written.
#[derive(Clone, Debug)]
pub struct Finished {
    pub id: i64,
    pub owner: String,
    /// The league's result line (JSON).
    pub result: String,
    /// The record file, relative to the data folder (the name the record goes by when its bytes
    /// are kept in the database).
    pub record: String,
    /// The record's bytes, when the database keeps them (a shared database); `None` when the
    /// file was written into the data folder.
    pub record_bytes: Option<Vec<u8>>,
    /// Played by a worker outside the server: the server learns of the result from the
    /// database (`finished_games`) rather than from its own workers.
    pub remote: bool,
    pub now_ms: i64,
}

/// One seat of a game, for pages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub version_id: i64,
    pub contestant_id: i64,
    pub name: String,
    pub number: i64,
}

/// A game, for pages and the API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: i64,
    pub stage: String,
    pub status: String,
    pub seats: Vec<Seat>,
    pub result: Option<String>,
    pub record: Option<String>,
    pub finished_ms: Option<i64>,
}

fn sqlite_url(path: &Path) -> anyhow::Result<String> {
    let text = path
        .to_str()
        .with_context(|| format!("{} is not UTF-8", path.display()))?;
    let mut url = String::from("sqlite://");
    for c in text.chars() {
        match c {
            '%' => url.push_str("%25"),
            '?' => url.push_str("%3F"),
            '#' => url.push_str("%23"),
            ' ' => url.push_str("%20"),
            c => url.push(c),
        }
    }
    url.push_str("?mode=rwc");
    Ok(url)
}

impl Db {
    /// Opens (creating it if needed) the SQLite database in `data`, in WAL mode, and brings its
    /// schema up to date.
    pub async fn open_sqlite(data: &Path) -> anyhow::Result<Db> {
        let path = data.join(SQLITE_FILE);
        Db::connect(&sqlite_url(&path)?).await
    }

    /// Connects to `url` (`sqlite://...` or `postgres://...`) and migrates the schema.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        Db::connect_with(url, 16, true).await
    }

    /// Connects to the PostgreSQL database at `url` given with `--database` (refusing any other
    /// kind of URL with a message saying what is expected) and brings its schema up to date.
    pub async fn open_shared(url: &str) -> anyhow::Result<Db> {
        check_shared_url(url)?;
        Db::connect(url).await
    }

    /// Connects to the shared database at `url` as a worker: with `connections` at most, and
    /// without touching the schema (a worker of another version must not migrate it; see
    /// `crate::distributed::version`).
    pub async fn open_as_worker(url: &str, connections: u32) -> anyhow::Result<Db> {
        check_shared_url(url)?;
        Db::connect_with(url, connections, false).await
    }

    async fn connect_with(url: &str, connections: u32, migrate: bool) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            bail!("unsupported database URL (sqlite:// or postgres://)");
        };
        let options = sqlx::any::AnyConnectOptions::from_str(url)
            .map_err(|e| anyhow::anyhow!("bad database URL: {e}"))?;
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite {
                8
            } else {
                connections
            })
            .acquire_timeout(std::time::Duration::from_secs(10))
            .connect_with(options.clone())
            .await;
        let pool = match pool {
            Ok(pool) => pool,
            Err(e) => {
                let e = with_refusal(&options, e.into()).await;
                return Err(e.context(format!(
                    "cannot open the database {}",
                    without_password(url)
                )));
            }
        };
        let db = Db {
            pool,
            backend,
            options,
        };
        if !migrate {
            return Ok(db);
        }
        let Db { pool, .. } = &db;
        if backend == Backend::Sqlite {
            // WAL: readers never wait for the writer, and a commit is one append. The mode is
            // kept in the file. `synchronous` stays FULL (the default): a commit survives a
            // power cut, not only a killed process.
            sqlx::query("PRAGMA journal_mode=WAL")
                .execute(pool)
                .await
                .context("cannot switch the database to WAL mode")?;
        }
        let migrator = match backend {
            Backend::Sqlite => sqlx::migrate!("src/serve/migrations/sqlite"),
            Backend::Postgres => sqlx::migrate!("src/serve/migrations/postgres"),
        };
        migrator
            .run(pool)
            .await
            .context("cannot bring the database schema up to date")?;
        db.key_old_names().await?;
        Ok(db)
    }

    /// `e`, given the server's own reason when the pool timed out because the server refuses
    /// connections (PostgreSQL's "sorry, too many clients already", "too many connections for
    /// role", "the database system is starting up"): the pool retries those until it gives up, and
    /// then says only "pool timed out". For messages: it may take a connection attempt.
    pub async fn explain(&self, e: anyhow::Error) -> anyhow::Error {
        with_refusal(&self.options, e).await
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether workers on other machines reach this database (PostgreSQL): it then keeps agents'
    /// bytes and ladder records, which would otherwise be files in the data folder.
    pub fn shared(&self) -> bool {
        self.backend == Backend::Postgres
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// `FOR UPDATE SKIP LOCKED` on PostgreSQL, for a claim's inner `SELECT`: concurrent claims
    /// take different rows instead of waiting for each other. SQLite has one writer at a time
    /// (`BEGIN IMMEDIATE`) and needs nothing.
    pub(crate) fn skip_locked(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// A transaction that will write: SQLite takes the write lock at once (`BEGIN IMMEDIATE`),
    /// so that a transaction that reads first never fails when it comes to write.
    pub(crate) async fn begin_write(
        &self,
    ) -> anyhow::Result<sqlx::Transaction<'static, sqlx::Any>> {
        Ok(match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        })
    }

    /// `rows` rows of a `VALUES` list whose columns have the SQL `types`, with numbered
    /// parameters in row order. PostgreSQL needs the types spelled out (a parameter in `VALUES`
    /// is otherwise text); SQLite takes the values as bound.
    pub(crate) fn values_rows(&self, rows: usize, types: &[&str]) -> String {
        let mut out = String::new();
        let mut n = 0;
        for r in 0..rows {
            out.push_str(if r == 0 { "(" } else { ", (" });
            for (c, ty) in types.iter().enumerate() {
                n += 1;
                if c > 0 {
                    out.push_str(", ");
                }
                match self.backend {
                    Backend::Sqlite => out.push_str(&format!("${n}")),
                    Backend::Postgres => out.push_str(&format!("CAST(${n} AS {ty})")),
                }
            }
            out.push(')');
        }
        out
    }

    // ----- contestants and sessions -----

    /// Adds a contestant; a name that is taken, or looks like one that is (the same key), is
    /// refused with a message saying so.
    pub async fn add_contestant(
        &self,
        name: &Name,
        token_hash: &str,
        now_ms: i64,
    ) -> anyhow::Result<i64> {
        self.name_is_free(name, None).await?;
        let row = sqlx::query(
            "INSERT INTO contestants (name, name_key, token_hash, created_ms) \
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(&name.text)
        .bind(&name.key)
        .bind(token_hash)
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await
        .map_err(|e| taken(e, name))?;
        Ok(row.try_get("id")?)
    }

    /// Refuses a name that another contestant than `except` has, or one that looks like it. (The
    /// unique key in the database refuses the same key if two requests race.)
    async fn name_is_free(&self, name: &Name, except: Option<i64>) -> anyhow::Result<()> {
        for other in self.contestants().await? {
            if Some(other.id) == except {
                continue;
            }
            if other.name == name.text {
                bail!("the name {:?} is taken", name.text);
            }
            if super::auth::look_alike(&other.name, &name.text) {
                bail!(
                    "the name {:?} looks like {:?}, which is taken: choose another",
                    name.text,
                    other.name
                );
            }
        }
        Ok(())
    }

    /// Gives a contestant another name (checked as a new one is).
    pub async fn rename(&self, id: i64, name: &Name) -> anyhow::Result<()> {
        self.name_is_free(name, Some(id)).await?;
        let r = sqlx::query("UPDATE contestants SET name = $1, name_key = $2 WHERE id = $3")
            .bind(&name.text)
            .bind(&name.key)
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(|e| taken(e, name))?;
        anyhow::ensure!(r.rows_affected() == 1, "no contestant {id}");
        Ok(())
    }

    /// Replaces a contestant's token (the old one, and every session it opened, stop working).
    pub async fn set_token(&self, id: i64, token_hash: &str) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        let r = sqlx::query("UPDATE contestants SET token_hash = $1 WHERE id = $2")
            .bind(token_hash)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        anyhow::ensure!(r.rows_affected() == 1, "no contestant {id}");
        sqlx::query("DELETE FROM sessions WHERE contestant_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Takes a contestant out of the challenge (`disabled`), or back in. Taken out, their games
    /// not yet played are cancelled; their history stays.
    pub async fn set_disabled(&self, id: i64, disabled: bool) -> anyhow::Result<()> {
        retry_conflicts(|| self.set_disabled_once(id, disabled)).await
    }

    async fn set_disabled_once(&self, id: i64, disabled: bool) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        let r = sqlx::query("UPDATE contestants SET disabled = $1 WHERE id = $2")
            .bind(i64::from(disabled))
            .bind(id)
            .execute(&mut *tx)
            .await?;
        anyhow::ensure!(r.rows_affected() == 1, "no contestant {id}");
        if disabled {
            sqlx::query(
                "UPDATE games SET status = 'cancelled', lease_owner = NULL, lease_expires_ms = NULL \
                 WHERE status IN ('scheduled', 'running') AND id IN (SELECT s.game_id FROM \
                 game_seats s JOIN versions v ON v.id = s.version_id WHERE v.contestant_id = $1)",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The look-alike keys of names added before the database kept them (schema version 3),
    /// computed now. A name that looks like one already keyed keeps no key (and a warning says
    /// so): it stays, but cannot be matched by newer ones.
    async fn key_old_names(&self) -> anyhow::Result<()> {
        let rows =
            sqlx::query("SELECT id, name FROM contestants WHERE name_key IS NULL ORDER BY id")
                .fetch_all(&self.pool)
                .await?;
        for r in rows {
            let (id, name): (i64, String) = (r.try_get("id")?, r.try_get("name")?);
            let key = super::auth::name_key(&name);
            let set = sqlx::query("UPDATE contestants SET name_key = $1 WHERE id = $2")
                .bind(&key)
                .bind(id)
                .execute(&self.pool)
                .await;
            match set {
                Ok(_) => {}
                Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {
                    eprintln!("warning: contestant {id}'s name {name:?} looks like another's")
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    pub async fn contestant_by_token(
        &self,
        token_hash: &str,
    ) -> anyhow::Result<Option<Contestant>> {
        let row = sqlx::query("SELECT id, name, disabled FROM contestants WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| contestant(&r)).transpose()
    }

    pub async fn contestant(&self, id: i64) -> anyhow::Result<Option<Contestant>> {
        let row = sqlx::query("SELECT id, name, disabled FROM contestants WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| contestant(&r)).transpose()
    }

    pub async fn contestants(&self) -> anyhow::Result<Vec<Contestant>> {
        let rows = sqlx::query("SELECT id, name, disabled FROM contestants ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(contestant).collect()
    }

    pub async fn create_session(
        &self,
        id_hash: &str,
        contestant_id: i64,
        now_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO sessions (id_hash, contestant_id, created_ms) VALUES ($1, $2, $3)",
        )
        .bind(id_hash)
        .bind(contestant_id)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The contestant of a session that is younger than `since_ms`.
    pub async fn session(
        &self,
        id_hash: &str,
        since_ms: i64,
    ) -> anyhow::Result<Option<Contestant>> {
        let row = sqlx::query(
            "SELECT c.id, c.name, c.disabled FROM sessions s JOIN contestants c ON c.id = s.contestant_id \
             WHERE s.id_hash = $1 AND s.created_ms >= $2",
        )
        .bind(id_hash)
        .bind(since_ms)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| contestant(&r)).transpose()
    }

    pub async fn delete_session(&self, id_hash: &str) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    // ----- versions -----

    /// Whether the contestant has made fewer than `per_hour` uploads in the hour before
    /// `now_ms` (a read only: [`Db::begin_upload`] counts again as it records).
    pub async fn upload_room(
        &self,
        contestant_id: i64,
        per_hour: u32,
        now_ms: i64,
    ) -> anyhow::Result<Result<(), OverLimit>> {
        let recent = self
            .recent_uploads(&self.pool, contestant_id, per_hour, now_ms)
            .await?;
        Ok(over_limit(&recent, per_hour).map_or(Ok(()), Err))
    }

    /// The upload times of the contestant's `per_hour` newest uploads of the hour before
    /// `now_ms`, newest first.
    async fn recent_uploads<'e, E>(
        &self,
        executor: E,
        contestant_id: i64,
        per_hour: u32,
        now_ms: i64,
    ) -> anyhow::Result<Vec<i64>>
    where
        E: sqlx::Executor<'e, Database = sqlx::Any>,
    {
        let rows = sqlx::query(
            "SELECT uploaded_ms FROM versions WHERE contestant_id = $1 AND uploaded_ms > $2 \
             ORDER BY uploaded_ms DESC LIMIT $3",
        )
        .bind(contestant_id)
        .bind(now_ms - HOUR_MS)
        .bind(i64::from(per_hour))
        .fetch_all(executor)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get::<i64, _>("uploaded_ms"))
            .collect::<Result<_, _>>()?)
    }

    /// Records an upload before its check (`checking`), under the contestant's next number,
    /// if the contestant has made fewer than `per_hour` uploads in the hour before `u.now_ms`:
    /// counting and recording are one transaction, so uploads sent at once cannot all pass the
    /// count. Returns the version's id and number, or when the limit leaves room again.
    pub async fn begin_upload(
        &self,
        contestant_id: i64,
        per_hour: u32,
        u: &NewUpload<'_>,
    ) -> anyhow::Result<Result<(i64, i64), OverLimit>> {
        retry_conflicts(|| self.begin_upload_once(contestant_id, per_hour, u)).await
    }

    async fn begin_upload_once(
        &self,
        contestant_id: i64,
        per_hour: u32,
        u: &NewUpload<'_>,
    ) -> anyhow::Result<Result<(i64, i64), OverLimit>> {
        let mut tx = self.begin_write().await?;
        if self.backend == Backend::Postgres {
            // One contestant's uploads are recorded one at a time (SQLite's `BEGIN IMMEDIATE`
            // already makes every writer wait its turn).
            sqlx::query("SELECT id FROM contestants WHERE id = $1 FOR UPDATE")
                .bind(contestant_id)
                .fetch_optional(&mut *tx)
                .await?;
        }
        let recent = self
            .recent_uploads(&mut *tx, contestant_id, per_hour, u.now_ms)
            .await?;
        if let Some(over) = over_limit(&recent, per_hour) {
            tx.rollback().await?;
            return Ok(Err(over));
        }
        let row = sqlx::query(
            "INSERT INTO versions (contestant_id, number, sha256, module_sha256, size, uploaded_ms, \
             accepted, reason, report, active, placed, checking, source_sha256) \
             VALUES ($1, (SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE contestant_id = $1), \
             $2, NULL, $3, $4, 0, NULL, '', 0, 0, 1, $5) RETURNING id, number",
        )
        .bind(contestant_id)
        .bind(u.sha256)
        .bind(u.size)
        .bind(u.now_ms)
        .bind(u.source.then_some(u.sha256))
        .fetch_one(&mut *tx)
        .await?;
        let ids = (row.try_get("id")?, row.try_get("number")?);
        tx.commit().await?;
        Ok(Ok(ids))
    }

    /// Writes the verdict of an upload's check. An accepted upload becomes the contestant's
    /// active version in the same transaction (unless a newer one was accepted meanwhile): the
    /// one it replaces stops playing and its games not yet played are cancelled. Returns whether
    /// it now plays.
    pub async fn finish_upload(
        &self,
        version_id: i64,
        v: &UploadVerdict<'_>,
    ) -> anyhow::Result<bool> {
        retry_conflicts(|| self.finish_upload_once(version_id, v)).await
    }

    async fn finish_upload_once(
        &self,
        version_id: i64,
        v: &UploadVerdict<'_>,
    ) -> anyhow::Result<bool> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(
            "UPDATE versions SET checking = 0, accepted = $1, reason = $2, report = $3, \
             module_sha256 = $4, sha256 = COALESCE($6, sha256), size = COALESCE($7, size) \
             WHERE id = $5 AND checking = 1 RETURNING contestant_id, number",
        )
        .bind(i64::from(v.accepted))
        .bind(v.reason)
        .bind(v.report)
        .bind(v.module_sha256)
        .bind(version_id)
        .bind(v.built.map(|(sha, _)| sha))
        .bind(v.built.map(|(_, size)| size))
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            // Its verdict is written already (a check run twice gives the same verdict).
            tx.rollback().await?;
            return Ok(false);
        };
        let contestant_id: i64 = row.try_get("contestant_id")?;
        let number: i64 = row.try_get("number")?;
        let newer = sqlx::query(
            "SELECT COUNT(*) AS n FROM versions WHERE contestant_id = $1 AND number > $2 \
             AND accepted = 1",
        )
        .bind(contestant_id)
        .bind(number)
        .fetch_one(&mut *tx)
        .await?
        .try_get::<i64, _>("n")?;
        let plays = v.accepted && newer == 0;
        if plays {
            sqlx::query(
                "UPDATE games SET status = 'cancelled', lease_owner = NULL, lease_expires_ms = NULL \
                 WHERE status IN ('scheduled', 'running') AND id IN (SELECT s.game_id FROM \
                 game_seats s JOIN versions v ON v.id = s.version_id \
                 WHERE v.contestant_id = $1 AND v.active = 1)",
            )
            .bind(contestant_id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE versions SET active = 0 WHERE contestant_id = $1 AND active = 1")
                .bind(contestant_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE versions SET active = 1 WHERE id = $1")
                .bind(version_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(plays)
    }

    /// Forgets an upload whose check the server itself could not run (its own failure, not the
    /// upload's): it gets no verdict and does not count towards the hourly limit.
    pub async fn drop_upload(&self, version_id: i64) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM versions WHERE id = $1 AND checking = 1")
            .bind(version_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Uploads recorded and not yet checked, oldest first (checks a stop cut short).
    pub async fn pending_uploads(&self) -> anyhow::Result<Vec<PendingUpload>> {
        let rows = sqlx::query(
            "SELECT v.id, v.contestant_id, c.name, v.number, v.sha256, v.source_sha256 \
             FROM versions v JOIN contestants c ON c.id = v.contestant_id WHERE v.checking = 1 \
             ORDER BY v.id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let sha256: String = r.try_get("sha256")?;
                let source: Option<String> = r.try_get("source_sha256")?;
                Ok(PendingUpload {
                    version_id: r.try_get("id")?,
                    contestant_id: r.try_get("contestant_id")?,
                    name: r.try_get("name")?,
                    number: r.try_get("number")?,
                    source: source.as_deref() == Some(sha256.as_str()),
                    sha256,
                })
            })
            .collect()
    }

    /// The SHA-256 of the stored sources of version `version_id`, if it is `contestant_id`'s and
    /// was uploaded as sources.
    pub async fn version_source(
        &self,
        version_id: i64,
        contestant_id: i64,
    ) -> anyhow::Result<Option<String>> {
        let row =
            sqlx::query("SELECT source_sha256 FROM versions WHERE id = $1 AND contestant_id = $2")
                .bind(version_id)
                .bind(contestant_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(match row {
            Some(r) => r.try_get("source_sha256")?,
            None => None,
        })
    }

    /// A contestant's uploads, newest first.
    pub async fn versions_of(&self, contestant_id: i64) -> anyhow::Result<Vec<Version>> {
        let rows = sqlx::query(
            "SELECT id, contestant_id, number, sha256, size, uploaded_ms, accepted, reason, report, \
             active, checking, source_sha256 FROM versions WHERE contestant_id = $1 ORDER BY number DESC",
        )
        .bind(contestant_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(version).collect()
    }

    /// One upload of a contestant, by number.
    pub async fn version_of(
        &self,
        contestant_id: i64,
        number: i64,
    ) -> anyhow::Result<Option<Version>> {
        let row = sqlx::query(
            "SELECT id, contestant_id, number, sha256, size, uploaded_ms, accepted, reason, report, \
             active, checking, source_sha256 FROM versions WHERE contestant_id = $1 AND number = $2",
        )
        .bind(contestant_id)
        .bind(number)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(version).transpose()
    }

    /// Every version that plays (of a contestant not disabled), oldest first.
    pub async fn active_versions(&self) -> anyhow::Result<Vec<ActiveVersion>> {
        let rows = sqlx::query(
            "SELECT v.id, v.contestant_id, c.name, v.number, v.sha256, v.placed FROM versions v \
             JOIN contestants c ON c.id = v.contestant_id WHERE v.active = 1 AND c.disabled = 0 \
             ORDER BY v.id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ActiveVersion {
                    id: r.try_get("id")?,
                    contestant_id: r.try_get("contestant_id")?,
                    name: r.try_get("name")?,
                    number: r.try_get("number")?,
                    sha256: r.try_get("sha256")?,
                    placed: r.try_get::<i64, _>("placed")? != 0,
                })
            })
            .collect()
    }

    /// The label and stored bytes' hash of a version (workers load agents by it).
    pub async fn version_file(&self, version_id: i64) -> anyhow::Result<(String, String)> {
        let r = sqlx::query(
            "SELECT c.name, v.number, v.sha256 FROM versions v JOIN contestants c \
             ON c.id = v.contestant_id WHERE v.id = $1",
        )
        .bind(version_id)
        .fetch_one(&self.pool)
        .await?;
        Ok((
            label(&r.try_get::<String, _>("name")?, r.try_get("number")?),
            r.try_get("sha256")?,
        ))
    }

    // ----- games -----

    /// Schedules `games` of the group `key` (ON CONFLICT: a game already scheduled stays as it
    /// is) and, when `placed` is given, marks that version placed, all in one transaction.
    /// Returns how many games are new.
    pub async fn schedule(
        &self,
        stage: &str,
        key: &str,
        games: &[NewGame],
        placed: Option<i64>,
        now_ms: i64,
    ) -> anyhow::Result<usize> {
        retry_conflicts(|| self.schedule_once(stage, key, games, placed, now_ms)).await
    }

    async fn schedule_once(
        &self,
        stage: &str,
        key: &str,
        games: &[NewGame],
        placed: Option<i64>,
        now_ms: i64,
    ) -> anyhow::Result<usize> {
        let mut tx = self.begin_write().await?;
        let mut new = 0;
        // A version replaced since the caller read the active ones gets no new games.
        let mut versions: Vec<i64> = games.iter().flat_map(|g| g.seats.iter().copied()).collect();
        versions.sort_unstable();
        versions.dedup();
        for v in &versions {
            let active = sqlx::query(
                "SELECT v.active FROM versions v JOIN contestants c ON c.id = v.contestant_id \
                 WHERE v.id = $1 AND c.disabled = 0",
            )
            .bind(*v)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| r.try_get::<i64, _>("active"))
            .transpose()?;
            if active != Some(1) {
                tx.commit().await?;
                return Ok(0);
            }
        }
        for g in games {
            let row = sqlx::query(
                "INSERT INTO games (stage, group_key, cycle, rotation, seed, status, scheduled_ms) \
                 VALUES ($1, $2, $3, $4, $5, 'scheduled', $6) \
                 ON CONFLICT (group_key, cycle, rotation) DO NOTHING RETURNING id",
            )
            .bind(stage)
            .bind(key)
            .bind(g.cycle)
            .bind(g.rotation)
            .bind(g.seed as i64)
            .bind(now_ms)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else { continue };
            let id: i64 = row.try_get("id")?;
            for (seat, v) in g.seats.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO game_seats (game_id, seat, version_id) VALUES ($1, $2, $3)",
                )
                .bind(id)
                .bind(seat as i64)
                .bind(*v)
                .execute(&mut *tx)
                .await?;
            }
            new += 1;
        }
        if let Some(v) = placed {
            sqlx::query("UPDATE versions SET placed = 1 WHERE id = $1")
                .bind(v)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(new)
    }

    /// The highest cycle scheduled for the group `key`.
    pub async fn last_cycle(&self, key: &str) -> anyhow::Result<Option<i64>> {
        let row = sqlx::query("SELECT MAX(cycle) AS c FROM games WHERE group_key = $1")
            .bind(key)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("c")?)
    }

    /// Games scheduled or being played.
    pub async fn pending_games(&self) -> anyhow::Result<i64> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM games WHERE status IN ('scheduled', 'running')")
                .fetch_one(&self.pool)
                .await?;
        Ok(row.try_get("n")?)
    }

    /// Games played, being played or scheduled (not cancelled), by version id.
    pub async fn games_by_version(&self) -> anyhow::Result<std::collections::HashMap<i64, i64>> {
        let rows = sqlx::query(
            "SELECT s.version_id, COUNT(*) AS n FROM game_seats s JOIN games g ON g.id = s.game_id \
             WHERE g.status <> 'cancelled' GROUP BY s.version_id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("version_id")?, r.try_get("n")?)))
            .collect()
    }

    /// Leases up to `n` games to `owner` until `expires_ms`, placement games first: games
    /// scheduled, and games whose lease ran out before `now_ms` (their worker died or hangs;
    /// played again, they give the same record, and only one result is counted).
    pub async fn claim(
        &self,
        owner: &str,
        n: i64,
        now_ms: i64,
        expires_ms: i64,
    ) -> anyhow::Result<Vec<ClaimedGame>> {
        let mut tx = self.begin_write().await?;
        let sql = format!(
            "UPDATE games SET status = 'running', lease_owner = $1, lease_expires_ms = $2, \
             claims = claims + 1 \
             WHERE id IN (SELECT id FROM games WHERE status = 'scheduled' \
             OR (status = 'running' AND lease_expires_ms < $4) \
             ORDER BY CASE stage WHEN 'placement' THEN 0 ELSE 1 END, id LIMIT $3{}) \
             RETURNING id, seed, group_key, cycle, rotation",
            self.skip_locked()
        );
        let rows = sqlx::query(AssertSqlSafe(sql))
            .bind(owner)
            .bind(expires_ms)
            .bind(n)
            .bind(now_ms)
            .fetch_all(&mut *tx)
            .await?;
        let mut games = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: i64 = r.try_get("id")?;
            let seats =
                sqlx::query("SELECT version_id FROM game_seats WHERE game_id = $1 ORDER BY seat")
                    .bind(id)
                    .fetch_all(&mut *tx)
                    .await?
                    .iter()
                    .map(|s| s.try_get("version_id"))
                    .collect::<Result<Vec<i64>, _>>()?;
            games.push(ClaimedGame {
                id,
                seed: r.try_get::<i64, _>("seed")? as u64,
                key: format!(
                    "{}#{}.{}",
                    r.try_get::<String, _>("group_key")?,
                    r.try_get::<i64, _>("cycle")?,
                    r.try_get::<i64, _>("rotation")?
                ),
                seats,
            });
        }
        tx.commit().await?;
        games.sort_by_key(|g| g.id);
        Ok(games)
    }

    /// Extends the leases `owner` holds on ladder games to `expires_ms` (a worker does while it
    /// plays them). Returns how many it holds.
    pub async fn renew(&self, owner: &str, expires_ms: i64) -> anyhow::Result<u64> {
        retry_conflicts(|| self.renew_once(owner, expires_ms)).await
    }

    async fn renew_once(&self, owner: &str, expires_ms: i64) -> anyhow::Result<u64> {
        let sql = format!(
            "UPDATE games SET lease_expires_ms = $1 WHERE id IN ({})",
            self.game_rows(
                "status = 'running' AND lease_owner = $2",
                Locking::SkipLocked
            )
        );
        let r = sqlx::query(AssertSqlSafe(sql))
            .bind(expires_ms)
            .bind(owner)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// `SELECT id FROM games WHERE {filter}`, the rows locked in id order
    /// (`crate::distributed::lease`).
    fn game_rows(&self, filter: &str, how: Locking) -> String {
        locked_rows(
            self.backend,
            "id",
            &format!("games WHERE {filter}"),
            "id",
            how,
        )
    }

    /// Puts back in the queue the ladder games `owner` leased and will not play (a worker that
    /// stops). Returns how many.
    pub async fn release(&self, owner: &str, ids: &[i64]) -> anyhow::Result<u64> {
        let mut n = 0;
        for id in ids {
            n += sqlx::query(
                "UPDATE games SET status = 'scheduled', lease_owner = NULL, \
                 lease_expires_ms = NULL WHERE id = $1 AND status = 'running' AND lease_owner = $2",
            )
            .bind(*id)
            .bind(owner)
            .execute(&self.pool)
            .await?
            .rows_affected();
        }
        Ok(n)
    }

    /// Writes results, each only if its game is still leased to the worker that played it: a
    /// game is counted once, whatever happens to workers and leases. A record kept in the
    /// database is written in the same transaction, only with a counted result. Returns, for
    /// each result, whether it was counted.
    pub async fn finish(&self, results: &[Finished]) -> anyhow::Result<Vec<bool>> {
        retry_conflicts(|| self.finish_once(results)).await
    }

    async fn finish_once(&self, results: &[Finished]) -> anyhow::Result<Vec<bool>> {
        let mut tx = self.begin_write().await?;
        let mut counted = vec![false; results.len()];
        // One statement per table for a whole round of results, not one per result: each
        // statement is a round trip, and over TLS a large one can wait ~40 ms for the server's
        // delayed acknowledgement (docs/PERFORMANCE.md, "Many machines").
        for mut round in write_rounds(results.iter().map(|f| f.id)) {
            round.sort_by_key(|&i| results[i].id);
            // The rows locked in id order first, as every writer of the queue locks them
            // (`crate::distributed::lease`); the update then finds them held.
            if self.backend == Backend::Postgres {
                let ids = (1..=round.len())
                    .map(|i| format!("${i}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let sql = self.game_rows(&format!("id IN ({ids})"), Locking::Wait);
                let mut q = sqlx::query(AssertSqlSafe(sql));
                for &i in &round {
                    q = q.bind(results[i].id);
                }
                q.fetch_all(&mut *tx).await?;
            }
            let rows = self.values_rows(round.len(), &["BIGINT", "TEXT", "TEXT", "TEXT", "BIGINT"]);
            let sql = format!(
                "UPDATE games SET status = 'done', result = v.column3, record = v.column4, \
                 finished_ms = v.column5, played_by = v.column2, lease_owner = NULL, \
                 lease_expires_ms = NULL FROM (VALUES {rows}) AS v \
                 WHERE games.id = v.column1 AND games.status = 'running' \
                 AND games.lease_owner = v.column2 RETURNING games.id"
            );
            let mut q = sqlx::query(AssertSqlSafe(sql));
            for &i in &round {
                let f = &results[i];
                q = q
                    .bind(f.id)
                    .bind(&f.owner)
                    .bind(&f.result)
                    .bind(&f.record)
                    .bind(f.now_ms);
            }
            let done: HashSet<i64> = q
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| r.try_get::<i64, _>(0))
                .collect::<Result<_, _>>()?;
            let ok: Vec<usize> = round
                .into_iter()
                .filter(|&i| done.contains(&results[i].id))
                .collect();
            // A game played again after its record was written (the first worker's result
            // came too late) has the same record: the row may be there already.
            let records: Vec<&Finished> = ok
                .iter()
                .map(|&i| &results[i])
                .filter(|f| f.record_bytes.is_some())
                .collect();
            if !records.is_empty() {
                let rows = placeholders(records.len(), 2);
                let sql = format!(
                    "INSERT INTO game_records (game_id, bytes) VALUES {rows} \
                     ON CONFLICT (game_id) DO UPDATE SET bytes = excluded.bytes"
                );
                let mut q = sqlx::query(AssertSqlSafe(sql));
                for f in &records {
                    q = q
                        .bind(f.id)
                        .bind(f.record_bytes.as_deref().unwrap_or_default());
                }
                q.execute(&mut *tx).await?;
            }
            let remote: Vec<i64> = ok
                .iter()
                .map(|&i| &results[i])
                .filter(|f| f.remote)
                .map(|f| f.id)
                .collect();
            if !remote.is_empty() {
                let rows = placeholders(remote.len(), 1);
                let sql = format!(
                    "INSERT INTO finished_games (game_id) VALUES {rows} \
                     ON CONFLICT (game_id) DO NOTHING"
                );
                let mut q = sqlx::query(AssertSqlSafe(sql));
                for id in remote {
                    q = q.bind(id);
                }
                q.execute(&mut *tx).await?;
            }
            for i in ok {
                counted[i] = true;
            }
        }
        tx.commit().await?;
        Ok(counted)
    }

    /// The results of ladder games finished by workers outside the server since it last asked,
    /// and forgets them: the server counts each on its leaderboard once (a server that stops
    /// before counting them reads every result again at its next start).
    pub async fn take_finished(&self) -> anyhow::Result<Vec<(i64, String)>> {
        retry_conflicts(|| self.take_finished_once()).await
    }

    async fn take_finished_once(&self) -> anyhow::Result<Vec<(i64, String)>> {
        let mut tx = self.begin_write().await?;
        let rows = sqlx::query(
            "SELECT g.id, g.result FROM finished_games f JOIN games g ON g.id = f.game_id \
             ORDER BY g.id LIMIT 1000",
        )
        .fetch_all(&mut *tx)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: i64 = r.try_get("id")?;
            sqlx::query("DELETE FROM finished_games WHERE game_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            let result: Option<String> = r.try_get("result")?;
            if let Some(result) = result {
                out.push((id, result));
            }
        }
        tx.commit().await?;
        Ok(out)
    }

    /// The bytes of game `id`'s record, when the database keeps them.
    pub async fn game_record(&self, id: i64) -> anyhow::Result<Option<Vec<u8>>> {
        let row = sqlx::query("SELECT bytes FROM game_records WHERE game_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("bytes")).transpose()?)
    }

    // ----- agents' bytes, for workers -----

    /// Keeps an agent's bytes under their SHA-256 `sha256` (a no-op when they are kept already).
    pub async fn put_code(&self, sha256: &str, bytes: &[u8]) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO code (sha256, bytes) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING",
        )
        .bind(sha256)
        .bind(bytes)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The bytes kept under `sha256`, checked against it.
    pub async fn code(&self, sha256: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let row = sqlx::query("SELECT bytes FROM code WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let bytes: Vec<u8> = row.try_get("bytes")?;
        anyhow::ensure!(
            crate::records::sha256_hex(&bytes) == sha256,
            "the agent bytes kept under {sha256} have another SHA-256: the database is damaged"
        );
        Ok(Some(bytes))
    }

    /// The hashes of accepted uploads whose bytes the database does not keep (uploads accepted
    /// before it was shared, or by an older arena).
    pub async fn uploads_without_code(&self) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT DISTINCT v.sha256 FROM versions v WHERE v.accepted = 1 AND NOT EXISTS \
             (SELECT 1 FROM code c WHERE c.sha256 = v.sha256) ORDER BY v.sha256",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("sha256")?)).collect()
    }

    /// Gives up a game that cannot be played (its agent no longer loads): it is cancelled.
    pub async fn cancel(&self, id: i64, owner: &str) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE games SET status = 'cancelled', lease_owner = NULL, lease_expires_ms = NULL \
             WHERE id = $1 AND status = 'running' AND lease_owner = $2",
        )
        .bind(id)
        .bind(owner)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Cancels every ladder game not yet played (the ladder stops for the final). Returns how
    /// many.
    pub async fn cancel_scheduled(&self) -> anyhow::Result<u64> {
        retry_conflicts(|| self.cancel_scheduled_once()).await
    }

    async fn cancel_scheduled_once(&self) -> anyhow::Result<u64> {
        let r = sqlx::query("UPDATE games SET status = 'cancelled' WHERE status = 'scheduled'")
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// Puts back in the queue the games leased by the server's own workers of a run that is gone
    /// (`all`: at start-up, every lease of an owner named [`LOCAL_OWNER`]`...` is such; workers
    /// on other machines keep theirs) or whose lease ran out. Returns how many.
    pub async fn requeue(&self, all: bool, now_ms: i64) -> anyhow::Result<u64> {
        retry_conflicts(|| self.requeue_once(all, now_ms)).await
    }

    async fn requeue_once(&self, all: bool, now_ms: i64) -> anyhow::Result<u64> {
        // Rows a commit holds are being written: skipped (`crate::distributed::lease`).
        let sql = format!(
            "UPDATE games SET status = 'scheduled', lease_owner = NULL, lease_expires_ms = NULL \
             WHERE id IN ({})",
            self.game_rows(
                "status = 'running' AND (($1 = 1 AND lease_owner LIKE 'local:%') \
                 OR lease_expires_ms < $2)",
                Locking::SkipLocked
            )
        );
        let r = sqlx::query(AssertSqlSafe(sql))
            .bind(i64::from(all))
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// The results of the games whose every seat is an active version: the ones that count,
    /// each with its seats' version ids.
    pub async fn counted_results(&self) -> anyhow::Result<Vec<(i64, String, Vec<i64>)>> {
        let rows = sqlx::query(
            "SELECT g.id, g.result FROM games g WHERE g.status = 'done' AND NOT EXISTS \
             (SELECT 1 FROM game_seats s JOIN versions v ON v.id = s.version_id \
             WHERE s.game_id = g.id AND v.active = 0) ORDER BY g.id",
        )
        .fetch_all(&self.pool)
        .await?;
        let seats = sqlx::query(
            "SELECT s.game_id, s.version_id FROM game_seats s JOIN games g ON g.id = s.game_id \
             WHERE g.status = 'done' ORDER BY s.game_id, s.seat",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut by_game: std::collections::HashMap<i64, Vec<i64>> = Default::default();
        for r in &seats {
            by_game
                .entry(r.try_get("game_id")?)
                .or_default()
                .push(r.try_get("version_id")?);
        }
        rows.iter()
            .map(|r| {
                let id: i64 = r.try_get("id")?;
                let seats = by_game.remove(&id).unwrap_or_default();
                Ok((id, r.try_get("result")?, seats))
            })
            .collect()
    }

    /// The seats' version ids of games `ids`, by game.
    pub async fn seats_of(
        &self,
        ids: &[i64],
    ) -> anyhow::Result<std::collections::HashMap<i64, Vec<i64>>> {
        let mut by_game: std::collections::HashMap<i64, Vec<i64>> = Default::default();
        for chunk in ids.chunks(WRITE_ROUND) {
            let sql = format!(
                "SELECT game_id, version_id FROM game_seats WHERE game_id IN ({}) \
                 ORDER BY game_id, seat",
                (1..=chunk.len())
                    .map(|i| format!("${i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let mut q = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                q = q.bind(*id);
            }
            for r in q.fetch_all(&self.pool).await? {
                by_game
                    .entry(r.try_get("game_id")?)
                    .or_default()
                    .push(r.try_get("version_id")?);
            }
        }
        Ok(by_game)
    }

    /// The games cancelled (a version replaced or taken out before they were played), whose
    /// records, if a worker was playing them then, are not kept.
    pub async fn cancelled_games(&self) -> anyhow::Result<Vec<i64>> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = 'cancelled' ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Games done in all.
    pub async fn games_done(&self) -> anyhow::Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE status = 'done'")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    pub async fn game(&self, id: i64) -> anyhow::Result<Option<GameRow>> {
        let row = sqlx::query(
            "SELECT id, stage, status, result, record, finished_ms FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let mut games = self.with_seats(vec![row]).await?;
        Ok(games.pop())
    }

    /// The last `limit` games done, newest first; only those of `version` when given, else only
    /// those that count.
    pub async fn recent_games(
        &self,
        version: Option<i64>,
        limit: i64,
    ) -> anyhow::Result<Vec<GameRow>> {
        let rows = match version {
            Some(v) => sqlx::query(
                "SELECT g.id, g.stage, g.status, g.result, g.record, g.finished_ms FROM games g \
                     JOIN game_seats s ON s.game_id = g.id WHERE s.version_id = $1 \
                     AND g.status = 'done' ORDER BY g.id DESC LIMIT $2",
            )
            .bind(v)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?,
            None => sqlx::query(
                "SELECT g.id, g.stage, g.status, g.result, g.record, g.finished_ms FROM games g \
                     WHERE g.status = 'done' AND NOT EXISTS (SELECT 1 FROM game_seats s JOIN \
                     versions v ON v.id = s.version_id WHERE s.game_id = g.id AND v.active = 0) \
                     ORDER BY g.id DESC LIMIT $1",
            )
            .bind(limit)
            .fetch_all(&self.pool)
            .await?,
        };
        self.with_seats(rows).await
    }

    async fn with_seats(&self, rows: Vec<AnyRow>) -> anyhow::Result<Vec<GameRow>> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<i64> = rows
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?;
        let list = (1..=ids.len())
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT s.game_id, s.seat, s.version_id, v.contestant_id, c.name, v.number \
             FROM game_seats s JOIN versions v ON v.id = s.version_id \
             JOIN contestants c ON c.id = v.contestant_id WHERE s.game_id IN ({list}) \
             ORDER BY s.game_id, s.seat"
        );
        let mut q = sqlx::query(AssertSqlSafe(sql));
        for id in &ids {
            q = q.bind(*id);
        }
        let seat_rows = q.fetch_all(&self.pool).await?;
        let mut games = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: i64 = r.try_get("id")?;
            let mut seats = Vec::new();
            for s in &seat_rows {
                if s.try_get::<i64, _>("game_id")? == id {
                    seats.push(Seat {
                        version_id: s.try_get("version_id")?,
                        contestant_id: s.try_get("contestant_id")?,
                        name: s.try_get("name")?,
                        number: s.try_get("number")?,
                    });
                }
            }
            games.push(GameRow {
                id,
                stage: r.try_get("stage")?,
                status: r.try_get("status")?,
                seats,
                result: r.try_get("result")?,
                record: r.try_get("record")?,
                finished_ms: r.try_get("finished_ms")?,
            });
        }
        Ok(games)
    }

    // ----- the host's switches -----

    pub async fn state(&self, key: &str) -> anyhow::Result<Option<String>> {
        let row = sqlx::query("SELECT value FROM state WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("value")).transpose()?)
    }

    pub async fn set_state(&self, key: &str, value: &str) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO state (key, value) VALUES ($1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(key)
        .bind(value)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Whether `recent` (the newest upload times of the last hour, newest first, at most
/// `per_hour` of them) reaches the limit, and if so when there is room again: once the
/// `per_hour`-th newest is more than an hour old.
fn over_limit(recent: &[i64], per_hour: u32) -> Option<OverLimit> {
    let per_hour = per_hour as usize;
    (recent.len() >= per_hour).then(|| OverLimit {
        retry_at_ms: recent[per_hour - 1] + HOUR_MS,
    })
}

/// A name refused by the database's unique indexes (another request took it meanwhile).
fn taken(e: sqlx::Error, name: &Name) -> anyhow::Error {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            anyhow::anyhow!(
                "the name {:?} is taken, or one that looks like it",
                name.text
            )
        }
        _ => e.into(),
    }
}

/// `e`, and when it is the pool's "timed out" error, the reason the server gives for refusing a
/// connection made outside the pool (if it refuses it).
async fn with_refusal(options: &sqlx::any::AnyConnectOptions, e: anyhow::Error) -> anyhow::Error {
    let timed_out = e.chain().any(|c| {
        matches!(
            c.downcast_ref::<sqlx::Error>(),
            Some(sqlx::Error::PoolTimedOut)
        )
    });
    if !timed_out {
        return e;
    }
    use sqlx::ConnectOptions;
    let attempt = tokio::time::timeout(std::time::Duration::from_secs(10), options.connect()).await;
    match attempt {
        Ok(Err(refused)) => e.context(format!("the database refuses connections: {refused}")),
        Ok(Ok(conn)) => {
            use sqlx::Connection;
            let _ = conn.close().await;
            e
        }
        Err(_) => e.context("the database does not answer a new connection within 10 s"),
    }
}

fn contestant(r: &AnyRow) -> anyhow::Result<Contestant> {
    Ok(Contestant {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        disabled: r.try_get::<i64, _>("disabled")? != 0,
    })
}

fn version(r: &AnyRow) -> anyhow::Result<Version> {
    Ok(Version {
        id: r.try_get("id")?,
        contestant_id: r.try_get("contestant_id")?,
        number: r.try_get("number")?,
        sha256: r.try_get("sha256")?,
        size: r.try_get("size")?,
        uploaded_ms: r.try_get("uploaded_ms")?,
        accepted: r.try_get::<i64, _>("accepted")? != 0,
        reason: r.try_get("reason")?,
        report: r.try_get("report")?,
        active: r.try_get::<i64, _>("active")? != 0,
        checking: r.try_get::<i64, _>("checking")? != 0,
        source: r.try_get::<Option<String>, _>("source_sha256")?.is_some(),
    })
}

/// How many times a transaction the database aborted to break a deadlock is run again before
/// its error is returned.
const CONFLICT_RETRIES: u32 = 8;

/// Runs `op`, one whole transaction, again when PostgreSQL aborted it to break a deadlock
/// (SQLSTATE 40P01) or a serialization conflict (40001), as its documentation advises. Writers
/// that lock several rows of one table (a worker's results, the server's requeue of lapsed
/// leases, the count of remote results, an upload that cancels its contestant's games, the
/// ladder scheduling games) can meet in opposite orders whatever order each asks for, since the
/// order rows are locked in is the query plan's. The aborted transaction was
/// rolled back whole, so running it again is running it once; its lease checks hold as before.
pub(crate) async fn retry_conflicts<T, F, Fut>(mut op: F) -> anyhow::Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<T>>,
{
    let mut attempt = 0;
    loop {
        match op().await {
            Err(e) if attempt < CONFLICT_RETRIES && is_conflict(&e) => {
                attempt += 1;
                // A short pause that grows: the other transaction finishes meanwhile.
                tokio::time::sleep(std::time::Duration::from_millis(5 << attempt.min(6))).await;
            }
            other => return other,
        }
    }
}

/// Whether `e` is the database aborting a transaction to break a deadlock or a serialization
/// conflict: the transaction may simply be run again.
pub(crate) fn is_conflict(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|cause| match cause.downcast_ref::<sqlx::Error>() {
            Some(sqlx::Error::Database(d)) => {
                matches!(d.code().as_deref(), Some("40P01") | Some("40001"))
            }
            _ => false,
        })
}

/// The most results one statement writes: 5 parameters each stays far below SQLite's limit of
/// 32,766 parameters and PostgreSQL's 65,535.
const WRITE_ROUND: usize = 500;

/// Splits results, given by their game's key in order, into rounds written one statement each:
/// at most [`WRITE_ROUND`] results a round, and no game twice in one (a statement updates a row
/// once, whichever of its duplicates it takes). A game's second result goes in a later round,
/// where it is counted only if the first one was not, as if results were written one by one.
pub(crate) fn write_rounds<K: std::hash::Hash + Eq>(
    keys: impl Iterator<Item = K>,
) -> Vec<Vec<usize>> {
    let mut rounds: Vec<(HashSet<K>, Vec<usize>)> = Vec::new();
    for (i, key) in keys.enumerate() {
        // The first round that has room and lacks this game.
        let at = rounds
            .iter()
            .position(|(seen, round)| round.len() < WRITE_ROUND && !seen.contains(&key));
        let at = at.unwrap_or_else(|| {
            rounds.push((HashSet::new(), Vec::new()));
            rounds.len() - 1
        });
        rounds[at].0.insert(key);
        rounds[at].1.push(i);
    }
    rounds.into_iter().map(|(_, round)| round).collect()
}

/// `rows` rows of `columns` numbered parameters each, for a multi-row `INSERT`'s `VALUES`
/// (the columns give PostgreSQL the parameters' types).
pub(crate) fn placeholders(rows: usize, columns: usize) -> String {
    let mut out = String::new();
    for r in 0..rows {
        out.push_str(if r == 0 { "(" } else { ", (" });
        for c in 0..columns {
            if c > 0 {
                out.push_str(", ");
            }
            out.push_str(&format!("${}", r * columns + c + 1));
        }
        out.push(')');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_urls_are_checked_and_shown_without_their_password() {
        assert!(check_shared_url("postgres://arena@127.0.0.1:5432/c").is_ok());
        assert!(check_shared_url("postgresql://h/c").is_ok());
        let e = check_shared_url("sqlite://data/arena.sqlite3").unwrap_err();
        assert!(format!("{e}").contains("takes a PostgreSQL URL"), "{e}");
        let e = check_shared_url("mysql://root:hunter2@h/c").unwrap_err();
        assert!(!format!("{e}").contains("hunter2"), "{e}");
        assert_eq!(
            without_password("postgres://arena:s3cret@db:5432/c"),
            "postgres://arena:***@db:5432/c"
        );
        assert_eq!(
            without_password("postgres://arena@db/c"),
            "postgres://arena@db/c"
        );
        assert_eq!(without_password("postgres://db/c"), "postgres://db/c");
    }

    #[test]
    fn write_rounds_hold_each_game_once_and_a_later_result_in_a_later_round() {
        let rounds = write_rounds(0..1200);
        let sizes: Vec<usize> = rounds.iter().map(Vec::len).collect();
        assert_eq!(sizes, [500, 500, 200]);
        assert_eq!(rounds.concat(), (0..1200).collect::<Vec<_>>());
        // Game 7 three times, game 8 twice.
        let rounds = write_rounds([7, 8, 7, 9, 7, 8].into_iter());
        assert_eq!(rounds, [vec![0, 1, 3], vec![2, 5], vec![4]]);
    }

    /// A commit's results are written a statement per table, with the answers one statement per
    /// result gave: only a result whose game is still leased to its owner counts, once.
    #[test]
    fn finish_counts_each_leased_game_once_as_one_by_one_writes_did() {
        let dir = std::env::temp_dir().join(format!("arena-db-finish-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let counted = rt.block_on(async {
            let db = Db::open_sqlite(&dir).await.unwrap();
            for (id, owner) in [(1, "w1"), (2, "w1"), (3, "w1"), (4, "w2")] {
                sqlx::query(
                    "INSERT INTO games (id, stage, group_key, cycle, rotation, seed, status, \
                     lease_owner, lease_expires_ms, scheduled_ms) \
                     VALUES ($1, 's', 'g', 0, $1, 0, 'running', $2, 100, 0)",
                )
                .bind(id)
                .bind(owner)
                .execute(db.pool())
                .await
                .unwrap();
            }
            let f = |id: i64, owner: &str, bytes: Option<Vec<u8>>| Finished {
                id,
                owner: owner.into(),
                result: format!("r{id}{owner}"),
                record: format!("f{id}"),
                record_bytes: bytes,
                remote: true,
                now_ms: 7,
            };
            let counted = db
                .finish(&[
                    f(1, "w1", Some(vec![1, 2])),
                    f(2, "w1", None),
                    f(1, "w1", Some(vec![3])),
                    f(4, "w1", Some(vec![4])),
                    f(3, "w2", Some(vec![5])),
                    f(3, "w1", Some(vec![6])),
                ])
                .await
                .unwrap();
            let games: Vec<(i64, String, Option<String>, Option<String>)> =
                sqlx::query("SELECT id, status, result, played_by FROM games ORDER BY id")
                    .fetch_all(db.pool())
                    .await
                    .unwrap()
                    .iter()
                    .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
                    .collect();
            let done = |id: i64| {
                (
                    id,
                    "done".into(),
                    Some(format!("r{id}w1")),
                    Some("w1".into()),
                )
            };
            assert_eq!(
                games,
                [done(1), done(2), done(3), (4, "running".into(), None, None)]
            );
            assert_eq!(db.game_record(1).await.unwrap(), Some(vec![1, 2]));
            assert_eq!(db.game_record(3).await.unwrap(), Some(vec![6]));
            assert_eq!(db.game_record(4).await.unwrap(), None);
            let taken: Vec<i64> = db
                .take_finished()
                .await
                .unwrap()
                .iter()
                .map(|r| r.0)
                .collect();
            assert_eq!(taken, [1, 2, 3]);
            db.close().await;
            counted
        });
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(counted, [true, true, false, false, false, true]);
    }
}
