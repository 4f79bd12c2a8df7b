//! The rules of leases, shared by both queues of games (ladder games in [`super::ladder_queue`],
//! league games in [`super::league_queue`]): who holds a lease, and the order rows are locked in.
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

use super::Backend;

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
