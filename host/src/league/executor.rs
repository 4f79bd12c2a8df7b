//! The seam between a league and whatever plays its games.
//!
//! A league is set up, journaled and finished the same way wherever its games are played
//! (`super::runner`): the agents loaded and checked, the schedule, the settings and their
//! fingerprint, the output folder with its lock and journal, resume; then the journal kept as
//! results come, and at the end the standings and files. Only the playing differs, and that is an
//! [`Executor`]: this machine's threads ([`super::local::LocalExecutor`]), or workers through a
//! database (`crate::distributed::league`, handed down by the command line: the league knows no
//! database). An executor hands back finished games, their record files already written in the
//! output folder, to a [`Sink`], which journals them; nothing is a result of the league before
//! the sink has taken it.

use std::path::Path;

use super::config::LeagueConfig;
use super::contestant::Contestant;
use super::result::GameResult;
use super::schedule::Schedule;
use crate::game::{Game, Host};

/// Everything an executor may need of the league it plays, set up by the driver.
pub struct Plan<'a> {
    pub game: &'static dyn Game,
    pub host: &'a Host<'a>,
    pub cfg: &'a LeagueConfig,
    /// `contestants[i]` plays as `cfg.agents[i]`, named `names[i]`.
    pub contestants: &'a [&'a dyn Contestant],
    pub names: &'a [String],
    pub schedule: &'a Schedule,
    /// The games the journal holds already, by id: not to be played again.
    pub done: &'a [bool],
    /// The sandbox limits, recorded with every game.
    pub limits: &'a serde_json::Value,
    /// The league's settings (`super::runner::settings_json`) and their hash, its fingerprint.
    pub settings: &'a serde_json::Value,
    pub fingerprint: &'a str,
    /// The output folder (locked by this process); records go to its `records/`.
    pub out: &'a Path,
    /// A new league (none in the folder, or `--fresh`): nothing played for an earlier run of it
    /// elsewhere counts.
    pub fresh: bool,
    /// Start the games cycle by cycle ([`Schedule::cycle_major`]): a watched league may be cut
    /// after any cycle, so the games of one cycle should end close together.
    pub cycle_major: bool,
    /// Games played at once on this machine.
    pub threads: usize,
    pub quiet: bool,
}

/// Whether the league wants more games after a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Go,
    /// The league was cut: games still arriving are dropped, and no new one should start.
    Stop,
}

/// Where an executor hands its finished games: the league's journal.
pub trait Sink {
    /// Journals `batch` (synced), whose record files are in the output folder already. An error
    /// is the journal's: the batch is not part of the league.
    fn arrived(&mut self, batch: Vec<GameResult>) -> anyhow::Result<Flow>;
    /// Games the league holds: those resumed from the journal and those arrived since.
    fn held(&self) -> usize;
    /// No more games will arrive: the progress display ends, so that what the executor says next
    /// is not drawn over.
    fn closed(&mut self);
}

/// Plays a league's games.
pub trait Executor {
    /// Whether the games are played in this process by the league's own sandbox, which then
    /// holds an instance for every seat of [`Plan::threads`] games at once.
    fn plays_here(&self) -> bool;

    /// Plays every game of `plan` not done yet, handing each to `sink` as it ends, until all
    /// have arrived, the sink says [`Flow::Stop`], the user interrupts (`super::interrupt`) or a
    /// game cannot be played. An error says what stopped the league and what was kept.
    fn play(&mut self, plan: &Plan<'_>, sink: &mut dyn Sink) -> anyhow::Result<()>;
}
