//! The database side of workers and batch leagues (schema version 2, `migrations/`): the
//! workers' register, the leagues and their games as a queue of leases. Ladder games have their
//! own table and queries ([`super::ladder_queue`]); both follow the same rules:
//!
//! - A worker *claims* a batch of games in one transaction: it leases them (`lease_owner`,
//!   `lease_expires_ms`) rather than taking them. On PostgreSQL the claim's inner `SELECT` skips
//!   rows other claims have locked (`FOR UPDATE SKIP LOCKED`), so workers never wait for each
//!   other.
//! - While it plays, the worker *renews* its leases. A lease that runs out (the worker died, hangs
//!   or lost the database for too long) makes the game claimable again.
//! - A result is written with the lease check in the same transaction (`WHERE lease_owner = me
//!   AND status = 'running'`): a game is counted once, whoever played it how often. Since games
//!   are deterministic, a game played twice gives the same record.
//! - The lease owner is unique to a worker process, and rows are locked in key order
//!   ([`super::lease`]).

use sqlx::Row;

mod claims;
mod collecting;
mod leagues;
mod workers;

/// Column `column` of `r`, or the empty value when it is NULL (a game not yet played has no
/// result, record or player).
fn or_empty<T>(r: &sqlx::any::AnyRow, column: &str) -> anyhow::Result<T>
where
    T: Default + for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    Ok(r.try_get::<Option<T>, _>(column)?.unwrap_or_default())
}

/// A league's game on its way to a worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeagueGame {
    pub league: i64,
    /// Its number in the league's schedule.
    pub game: i64,
}

/// A league game a worker played, to be written.
#[derive(Clone, Debug)]
pub struct LeagueFinished {
    pub game: LeagueGame,
    pub owner: String,
    /// The league's result line (JSON), naming the record file.
    pub result: String,
    /// The record file's bytes, as the league's output folder keeps them.
    pub record: Vec<u8>,
}

/// A finished game, as the league collects it.
#[derive(Clone, Debug)]
pub struct Collected {
    pub game: i64,
    pub result: String,
    pub record: Vec<u8>,
    /// The lease owner of the worker that wrote it.
    pub played_by: String,
    /// A game played twice (`double_play`): the first play, to be compared with this one.
    pub first: Option<FirstPlay>,
}

/// The first play of a game sent to be played again by a worker of another name.
#[derive(Clone, Debug)]
pub struct FirstPlay {
    /// The name of the worker that played it.
    pub by: String,
    pub result: String,
    pub record: Vec<u8>,
}

/// A league as the database keeps it.
#[derive(Clone, Debug)]
pub struct LeagueRow {
    pub id: i64,
    pub status: String,
    pub settings: String,
    pub arena_version: String,
    pub driver: Option<String>,
    pub driver_seen_ms: Option<i64>,
}

/// How many games of a league are in each state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub scheduled: i64,
    pub running: i64,
    pub done: i64,
    pub collected: i64,
    pub failed: i64,
}

/// How long a game to be played again as a check waits for a worker of another name than the one
/// that played it first; then any worker may play it (the check then only shows that the worker
/// plays the same game twice).
pub const CHECK_WAIT_MS: i64 = 30_000;

/// A worker heard of (its register row renewed) within this long is playing.
pub const WORKER_HEARD_MS: i64 = 60_000;

/// Rows written by one statement at most (multi-row `VALUES`, `IN` lists): well under SQLite's
/// and PostgreSQL's limits on parameters.
const CHUNK: usize = 500;

/// `$first, $first+1, ...` for `n` parameters.
fn params(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn league_row(r: &sqlx::any::AnyRow) -> anyhow::Result<LeagueRow> {
    Ok(LeagueRow {
        id: r.try_get("id")?,
        status: r.try_get("status")?,
        settings: r.try_get("settings")?,
        arena_version: r.try_get("arena_version")?,
        driver: r.try_get("driver")?,
        driver_seen_ms: r.try_get("driver_seen_ms")?,
    })
}
