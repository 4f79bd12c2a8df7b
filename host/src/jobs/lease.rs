//! The rules of leases, shared by both queues of games (ladder games in [`super::ladder_queue`],
//! league games in [`super::league_queue`]): who holds a lease, the order rows are locked in, and
//! the statements that keep leases, written once over both tables ([`Queue`]).
//!
//! **Who.** A lease names one process, not one machine: [`LeaseOwner`] is the worker's name (the
//! register's, `--name`, fixed per machine under systemd) and a tag drawn when the process starts.
//! A worker started again under the same name does not hold the leases of the process it
//! replaces: those run out and their games are played again, instead of being renewed by a process
//! that never plays them.
//!
//! **Lock order.** PostgreSQL locks the rows a statement updates in the order its plan visits
//! them; two transactions that lock some of the same rows in opposite orders deadlock, and one is
//! aborted after `deadlock_timeout` (1 s). So every statement that locks several rows of a queue
//! locks them in key order (`ORDER BY key FOR UPDATE` before it writes them), and the background
//! ones that keep leases (renewals, the server's return of lapsed leases) skip the rows another
//! transaction holds (`SKIP LOCKED`) rather than wait: a row held by a commit is being written, and
//! the next renewal comes a quarter of a lease later. A claim already takes only unlocked rows.

use sqlx::AssertSqlSafe;

use super::retry::retry_conflicts;
use super::{Backend, Db};

/// A table of leased games and its key: what the lease statements written once for both queues
/// need to know of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queue {
    /// The table.
    pub table: &'static str,
    /// Its key columns, in the order rows are locked in.
    pub key: &'static str,
}

/// The ladder's games (`arena serve`'s table `games`).
pub const LADDER: Queue = Queue {
    table: "games",
    key: "id",
};

/// The leagues' games.
pub const LEAGUE: Queue = Queue {
    table: "league_games",
    key: "league_id, game",
};

impl Queue {
    /// `SELECT {key} FROM {table} WHERE {filter}`, the rows locked in key order ([`locked_rows`]).
    pub fn rows(self, backend: Backend, filter: &str, how: Locking) -> String {
        let rest = format!("{} WHERE {filter}", self.table);
        locked_rows(backend, self.key, &rest, self.key, how)
    }
}

impl Db {
    /// Extends the leases `owner` holds in `queue` to `expires_ms` (a worker does while it plays
    /// their games); rows a commit holds are being written and are skipped. Returns how many.
    pub(crate) async fn renew_leases(
        &self,
        queue: Queue,
        owner: &str,
        expires_ms: i64,
    ) -> anyhow::Result<u64> {
        // One statement: retried in place (a transaction of several is a method of its own).
        retry_conflicts(|| async move {
            let sql = format!(
                "UPDATE {} SET lease_expires_ms = $1 WHERE ({}) IN ({})",
                queue.table,
                queue.key,
                queue.rows(
                    self.backend(),
                    "status = 'running' AND lease_owner = $2",
                    Locking::SkipLocked
                )
            );
            let r = sqlx::query(AssertSqlSafe(sql))
                .bind(expires_ms)
                .bind(owner)
                .execute(self.pool())
                .await?;
            Ok(r.rows_affected())
        })
        .await
    }

    /// Puts the game whose key columns hold `key` back in `queue`, if `owner` leased it (a worker
    /// that stops without playing it). Returns how many games it put back (0 or 1).
    pub(crate) async fn release_lease(
        &self,
        queue: Queue,
        owner: &str,
        key: &[i64],
    ) -> anyhow::Result<u64> {
        let values = (1..=key.len())
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "UPDATE {} SET status = 'scheduled', lease_owner = NULL, lease_expires_ms = NULL \
             WHERE ({}) = ({values}) AND status = 'running' AND lease_owner = ${}",
            queue.table,
            queue.key,
            key.len() + 1
        );
        let mut q = sqlx::query(AssertSqlSafe(sql));
        for k in key {
            q = q.bind(*k);
        }
        Ok(q.bind(owner).execute(self.pool()).await?.rows_affected())
    }
}

/// The lease owner of a process: `NAME#PID-RANDOM`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseOwner {
    name: String,
    owner: String,
}

impl LeaseOwner {
    /// A lease owner for this process, named `name` in the register.
    pub fn new(name: &str) -> anyhow::Result<LeaseOwner> {
        let random = super::new_token()?;
        Ok(LeaseOwner {
            name: name.to_owned(),
            owner: format!("{name}#{}-{}", std::process::id(), &random[..8]),
        })
    }

    /// The worker's name, as the register and the operator know it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the queue's `lease_owner` (and then `played_by`) holds.
    pub fn as_str(&self) -> &str {
        &self.owner
    }

    /// The worker's name in a lease owner (or in a `played_by`) written by [`LeaseOwner::as_str`];
    /// the whole text for an owner without a tag (the server's own workers).
    pub fn name_of(owner: &str) -> &str {
        match owner.rsplit_once('#') {
            Some((name, tag)) if is_tag(tag) => name,
            _ => owner,
        }
    }
}

fn is_tag(tag: &str) -> bool {
    tag.split_once('-').is_some_and(|(pid, random)| {
        !pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && random.len() == 8
            && random.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// How a statement that locks several rows of a queue takes them: waits for rows other
/// transactions hold, or skips them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Locking {
    /// Every row asked for, waiting for those held (writes of results and of the collector).
    Wait,
    /// Only rows no other transaction holds (renewals, returns of lapsed leases, claims).
    SkipLocked,
}

/// `SELECT {columns} FROM {rest}`, with the rows locked in the order of `key` (a list of columns)
/// on PostgreSQL. SQLite has one writer at a time (`BEGIN IMMEDIATE`): the rows need no lock.
pub fn locked_rows(backend: Backend, columns: &str, rest: &str, key: &str, how: Locking) -> String {
    match backend {
        Backend::Sqlite => format!("SELECT {columns} FROM {rest}"),
        Backend::Postgres => format!(
            "SELECT {columns} FROM {rest} ORDER BY {key} FOR UPDATE{}",
            match how {
                Locking::Wait => "",
                Locking::SkipLocked => " SKIP LOCKED",
            }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_owner_is_the_name_and_a_tag_of_the_process() {
        let a = LeaseOwner::new("w1").unwrap();
        let b = LeaseOwner::new("w1").unwrap();
        assert_eq!(a.name(), "w1");
        assert_ne!(a.as_str(), b.as_str(), "two processes of one name");
        assert!(a
            .as_str()
            .starts_with(&format!("w1#{}-", std::process::id())));
        assert_eq!(LeaseOwner::name_of(a.as_str()), "w1");
        // A name with `#` of its own, and owners without a tag.
        let odd = LeaseOwner::new("rack#2").unwrap();
        assert_eq!(LeaseOwner::name_of(odd.as_str()), "rack#2");
        assert_eq!(LeaseOwner::name_of("rack#2"), "rack#2");
        assert_eq!(LeaseOwner::name_of("local:abc:0"), "local:abc:0");
    }

    /// Renewal and release are one statement each over both tables: each touches the rows of
    /// the owner's leases in its own table and nothing else.
    #[test]
    fn leases_are_renewed_and_released_alike_in_both_queues() {
        let dir = std::env::temp_dir().join(format!("arena-db-leases-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let db = Db::connect_sqlite(&dir).await.unwrap();
            for sql in [
                "INSERT INTO games (id, stage, group_key, cycle, rotation, seed, status, \
                 lease_owner, lease_expires_ms, scheduled_ms) VALUES \
                 (1, 's', 'g', 0, 0, 0, 'running', 'w1', 100, 0), \
                 (2, 's', 'g', 0, 1, 0, 'running', 'w2', 100, 0)",
                "INSERT INTO leagues (id, fingerprint, name, settings, arena_version, status, \
                 created_ms) VALUES (1, 'a', 'a', '{}', 'v', 'playing', 0)",
                "INSERT INTO league_games (league_id, game, status, lease_owner, \
                 lease_expires_ms) VALUES (1, 0, 'running', 'w1', 100), \
                 (1, 1, 'running', 'w2', 100)",
            ] {
                sqlx::query(sql).execute(db.pool()).await.unwrap();
            }
            let rows = |queue: Queue| {
                let db = &db;
                async move {
                    let sql = format!(
                        "SELECT status, lease_owner, lease_expires_ms FROM {} ORDER BY {}",
                        queue.table, queue.key
                    );
                    sqlx::query(AssertSqlSafe(sql))
                        .fetch_all(db.pool())
                        .await
                        .unwrap()
                        .iter()
                        .map(|r| {
                            let status: String = sqlx::Row::get(r, 0);
                            let owner: Option<String> = sqlx::Row::get(r, 1);
                            let expires: Option<i64> = sqlx::Row::get(r, 2);
                            (status, owner, expires)
                        })
                        .collect::<Vec<_>>()
                }
            };
            let running = |owner: &str, expires| {
                ("running".to_owned(), Some(owner.to_owned()), Some(expires))
            };
            let scheduled = ("scheduled".to_owned(), None, None);
            let ladder: (Queue, &[i64], &[i64]) = (LADDER, &[1], &[2]);
            let league: (Queue, &[i64], &[i64]) = (LEAGUE, &[1, 0], &[1, 1]);
            for (queue, first, second) in [ladder, league] {
                assert_eq!(db.renew_leases(queue, "w1", 500).await.unwrap(), 1);
                assert_eq!(rows(queue).await, [running("w1", 500), running("w2", 100)]);
                assert_eq!(db.release_lease(queue, "w2", first).await.unwrap(), 0);
                assert_eq!(db.release_lease(queue, "w1", second).await.unwrap(), 0);
                assert_eq!(db.release_lease(queue, "w1", first).await.unwrap(), 1);
                assert_eq!(rows(queue).await, [scheduled.clone(), running("w2", 100)]);
                assert_eq!(db.renew_leases(queue, "w1", 900).await.unwrap(), 0);
            }
            db.close().await;
        });
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rows_are_locked_in_key_order_on_postgresql_only() {
        let sql = locked_rows(
            Backend::Postgres,
            "id",
            "games WHERE status = 'running'",
            "id",
            Locking::SkipLocked,
        );
        assert_eq!(
            sql,
            "SELECT id FROM games WHERE status = 'running' ORDER BY id FOR UPDATE SKIP LOCKED"
        );
        assert_eq!(
            locked_rows(Backend::Sqlite, "id", "games", "id", Locking::Wait),
            "SELECT id FROM games"
        );
    }
}
