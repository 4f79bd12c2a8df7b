//! The server's tables: contestants, versions and their verdicts, sessions, the games scheduled
//! and what pages show of them. The connection, the migrations and the ladder's queue of leased
//! games are `crate::jobs`'s (shared with `arena worker`); these files add the queries only the
//! server makes, on the same [`Db`]: [`contestants`] (and their sessions), [`versions`] (uploads
//! and their checks), [`games`] (scheduling the ladder's games, and what pages show of them).

mod contestants;
mod games;
mod versions;

use std::path::Path;

use crate::jobs::db::{Backend, Db};

/// An hour, in milliseconds (the window of `uploads.per_hour`).
pub const HOUR_MS: i64 = 3_600_000;

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

impl Db {
    /// Opens (creating it if needed) the SQLite database in `data`, in WAL mode, and brings its
    /// schema up to date, keying the names of contestants added before the schema kept keys.
    pub async fn open_sqlite(data: &Path) -> anyhow::Result<Db> {
        let db = Db::connect_sqlite(data).await?;
        db.key_old_names().await?;
        Ok(db)
    }

    /// Connects to the PostgreSQL database at `url` given with `--database` (refusing any other
    /// kind of URL with a message saying what is expected) and brings its schema up to date, as
    /// [`Db::open_sqlite`] does.
    pub async fn open_shared(url: &str) -> anyhow::Result<Db> {
        let db = Db::connect_shared(url).await?;
        db.key_old_names().await?;
        Ok(db)
    }
}
