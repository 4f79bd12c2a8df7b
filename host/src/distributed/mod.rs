//! Many machines: the ladder and big leagues played by workers anywhere, through PostgreSQL.
//!
//! The database (`crate::jobs`) is the only meeting point: `arena serve --database` and `arena
//! league --database` put games, agents' bytes (by content hash) and the rules into it; `arena
//! worker` processes on any machine that reaches it claim games in batches (leases, renewed while they play), play
//! them in the sandbox, and write each result and record back with the lease check in the same
//! transaction. A lease that runs out returns its game to the queue; games are deterministic, so
//! a game played again gives the same record, and a result is counted once.
//!
//! The queues' statements and the rules of leases are `crate::jobs`'s. The parts here:
//! [`double_play`] (a sample of a league's games played twice by two workers and compared),
//! [`worker`] (`arena worker`), [`league`] (the executor of `arena league --database`, its
//! collector in `collect`, its driver's name and take-over in `driver`) and [`version`] (a worker
//! plays only for the arena version that set the database up). docs/SERVER.md ("Many machines")
//! describes the deployment; docs/PERFORMANCE.md the throughput and the database's limits.

mod collect;
pub mod double_play;
mod driver;
pub mod league;
pub mod version;
pub mod worker;
