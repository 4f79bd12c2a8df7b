//! Round-robin leagues: the league file, a fair schedule, parallel deterministic play, a
//! crash-safe journal, and standings.

pub mod agents;
pub mod atomic;
pub mod benchmark;
pub mod changes;
pub mod config;
pub mod contestant;
mod cut;
mod exchange;
pub mod executor;
pub mod folder;
pub mod interrupt;
pub mod journal;
pub mod local;
pub mod lock;
pub mod output;
pub mod progress;
pub mod result;
pub mod runner;
pub mod schedule;
pub mod standings;

pub use agents::{run_league, run_league_on, run_league_watched};
pub use config::LeagueConfig;
pub use contestant::{Contestant, NativeEntrant};
pub use executor::Executor;
pub use runner::{play_league, LeagueRun, RunOptions, Watcher};

#[cfg(test)]
pub(crate) mod tests;
