//! The database and its queues of games, beneath both `arena serve` and the workers
//! (`arena worker`, `arena league --database`).
//!
//! The database is the meeting point of every process that plays games for another: the server
//! schedules ladder games, `arena league --database` puts a league's games, and workers on any
//! machine lease them in batches, renew their leases while they play, and write each result back
//! with the lease check in the same transaction. A lease that runs out returns its game to the
//! queue; games are deterministic, so a game played again gives the same record, and a result is
//! counted once.
//!
//! The parts: [`db`] (the pool of SQLite or PostgreSQL connections, the migrations in
//! `migrations/`, the dialects' differences), [`retry`] (transactions run again after a deadlock,
//! results written in rounds), [`lease`] (who holds a lease, and the order rows are locked in),
//! [`ladder_queue`] and [`league_queue`] (the two tables of leased games and their statements),
//! [`code`] (agents' bytes by content hash) and [`storage`] (the data folder's files). It knows
//! no game and no page: the server's own tables are `serve::db`'s, the worker loops
//! `distributed`'s.

pub mod code;
pub mod db;
pub mod ladder_queue;
pub mod league_queue;
pub mod lease;
pub mod retry;
pub mod schema;
pub mod storage;

use std::time::{SystemTime, UNIX_EPOCH};

pub use db::{Backend, Db};

/// Milliseconds since the Unix epoch: the clock of leases, schedules and results.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// `N` bytes from the operating system's random source.
pub fn random_bytes<const N: usize>() -> anyhow::Result<[u8; N]> {
    let mut b = [0u8; N];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut b)
        .map_err(|_| anyhow::anyhow!("the system's random source failed"))?;
    Ok(b)
}

/// A new token (a contestant's, a session id, a lease owner's tag): 32 random bytes as 64 hex
/// digits.
pub fn new_token() -> anyhow::Result<String> {
    Ok(hex::encode(random_bytes::<32>()?))
}
