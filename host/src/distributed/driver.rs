//! Who drives a league in the database, and how `arena league --database` puts its league there
//! or takes it over.
//!
//! One run drives a league at a time: its row names the driver, which tells the database it is
//! alive every few seconds. Another run may take the league over once the driver has not been
//! heard of for [`DRIVER_STALE_MS`], or at once when it is proven dead: a driver's name says its
//! host and output folder, and a `--resume` on the same host into the same folder holds the
//! folder's lock, which a live driver would hold. Taking a league over, the games the journal
//! holds are marked collected and those the journal lost are played again.

use std::path::Path;

use anyhow::bail;

use super::version;
use super::worker;
use crate::jobs::league_queue::LeagueRow;
use crate::jobs::now_ms;
use crate::jobs::Db;

/// A driver not heard of for this long has stopped: another `arena league` may take its league.
const DRIVER_STALE_MS: i64 = 30_000;

/// Who drives a league (the `driver` of its row): `league:PID:RANDOM:FOLDER@HOST`, FOLDER being
/// the first 12 hex digits of the SHA-256 of the output folder's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Driver {
    pid: u32,
    random: String,
    folder: String,
    host: String,
}

impl Driver {
    /// The driver of this process, whose output folder is `out`.
    pub(super) fn this(out: &Path) -> anyhow::Result<Driver> {
        Ok(Driver {
            pid: std::process::id(),
            random: crate::jobs::new_token()?[..8].to_owned(),
            folder: folder_key(out),
            host: worker::host_name(),
        })
    }

    fn parse(text: &str) -> Option<Driver> {
        let (rest, host) = text.rsplit_once('@')?;
        let mut parts = rest.split(':');
        let (tag, pid, random, folder) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if tag != "league" || parts.next().is_some() {
            return None;
        }
        Some(Driver {
            pid: pid.parse().ok()?,
            random: random.to_owned(),
            folder: folder.to_owned(),
            host: host.to_owned(),
        })
    }

    /// Whether `other`, which drove the league into the same output folder on this host, is
    /// proven dead by this driver holding the folder's lock: a live one would hold it.
    fn proves_dead(&self, other: &Driver) -> bool {
        other != self && other.host == self.host && other.folder == self.folder
    }
}

impl std::fmt::Display for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "league:{}:{}:{}@{}",
            self.pid, self.random, self.folder, self.host
        )
    }
}

/// The key of an output folder in a driver's name: its absolute path's hash.
fn folder_key(out: &Path) -> String {
    let path = std::fs::canonicalize(out).unwrap_or_else(|_| out.to_path_buf());
    crate::records::sha256_hex(path.to_string_lossy().as_bytes())[..12].to_owned()
}

pub(super) struct Enqueue<'a> {
    pub(super) fingerprint: &'a str,
    pub(super) name: &'a str,
    pub(super) settings: &'a str,
    pub(super) driver: &'a str,
    pub(super) total: usize,
    /// Games the journal holds already.
    pub(super) done: &'a [bool],
    /// A new league (`--fresh` or none in the folder): games an earlier run left in the
    /// database are played again. Resuming, they are collected.
    pub(super) fresh: bool,
}

/// Puts the league into the database (or takes over the one already there) with every game the
/// journal does not hold yet to be played. Returns the league's id.
pub(super) async fn enqueue(db: &Db, e: &Enqueue<'_>) -> anyhow::Result<i64> {
    let now = now_ms();
    let version = version::arena_version();
    let existing = db.league_by_fingerprint(e.fingerprint).await?;
    let mut dead = None;
    if let Some(LeagueRow {
        driver: Some(other),
        driver_seen_ms: Some(seen),
        ..
    }) = &existing
    {
        let ours = Driver::parse(e.driver);
        let theirs = Driver::parse(other);
        if let (Some(ours), Some(theirs)) = (&ours, &theirs) {
            if ours.proves_dead(theirs) {
                // It ran on this host into this output folder, whose lock this process holds.
                dead = Some(other.clone());
            }
        }
        if other != e.driver && dead.is_none() && seen + DRIVER_STALE_MS > now {
            let free_in = (seen + DRIVER_STALE_MS - now + 999) / 1000;
            bail!(
                "this league is being run by another `arena league` on the same database ({other}, \
                 heard of {} s ago): one run per league at a time. If that one has stopped, the \
                 league is free once it has not been heard of for {} s: run this again in {free_in} s",
                (now - seen) / 1000,
                DRIVER_STALE_MS / 1000
            );
        }
    }
    let fresh = e.fresh;
    let id = match existing {
        // Another league's settings (a changed `compress_records_over`) or a fresh start: the
        // old rows go, results and all.
        Some(row) if fresh || row.settings != e.settings => {
            db.delete_league(row.id).await?;
            None
        }
        Some(row) => {
            if !db
                .take_league(
                    row.id,
                    e.driver,
                    dead.as_deref(),
                    &version,
                    now,
                    now - DRIVER_STALE_MS,
                )
                .await?
            {
                bail!("another `arena league` took this league over as this one started");
            }
            Some(row.id)
        }
        None => None,
    };
    let id = match id {
        Some(id) => id,
        None => {
            db.create_league(e.fingerprint, e.name, e.settings, &version, e.driver, now)
                .await?
        }
    };
    let statuses = db.league_game_statuses(id).await?;
    let mut missing = Vec::new();
    let mut again = Vec::new();
    let mut journaled = Vec::new();
    for (game, &in_journal) in e.done.iter().enumerate().take(e.total) {
        let game = game as i64;
        match (statuses.get(&game).map(String::as_str), in_journal) {
            (None, false) => missing.push(game),
            (Some("collected" | "failed"), false) => again.push(game),
            (Some(s), true) if s != "collected" => journaled.push(game),
            _ => {}
        }
    }
    db.enqueue_league_games(id, &missing).await?;
    db.set_league_games(id, &again, "scheduled").await?;
    db.set_league_games(id, &journaled, "collected").await?;
    Ok(id)
}
