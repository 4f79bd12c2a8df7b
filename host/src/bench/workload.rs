//! What the bench measures the arena on: one game's strategies, played natively in the host, as
//! sandboxed agents and as processes of their own, and one of its decisions. A game provides it
//! ([`crate::game::Game::workload`]); the bench measures the first game of the registry that does
//! (docs/PERFORMANCE.md).

use std::any::Any;
use std::path::Path;
use std::time::Duration;

use crate::game::Game;
use crate::sandbox::AgentModule;

/// Who plays in a timing.
#[derive(Clone, Copy)]
pub enum Player<'a> {
    /// A strategy of the workload, natively in the host.
    Native(&'a str),
    /// A sandboxed agent.
    Agent(&'a AgentModule),
    /// A strategy of the workload in a process of its own (`PROGRAM STRATEGY`), one per game.
    Process(&'a Path, &'a str),
}

/// A game's workload for the bench.
pub trait Workload: Sync {
    /// The game measured.
    fn game(&self) -> &'static dyn Game;
    /// The strategies, by name: natively in the host, as `NAME.wasm` in the agents' folder, and
    /// behind `arena-stdio-agent NAME`.
    fn strategies(&self) -> &'static [&'static str];
    /// The strategy that answers at once, for the per-decision timings.
    fn passer(&self) -> &'static str;
    /// The same strategy written in WebAssembly text (no compiler's code in the timing).
    fn passer_wat(&self) -> &'static str;
    /// The strategy whose per-game start is timed.
    fn starter(&self) -> &'static str;
    /// A native seat of `strategy` ([`crate::game::Seat::Native`]), told `round_cap`; `None` for
    /// a name that is not a strategy.
    fn native(&self, strategy: &str, round_cap: u32) -> Option<Box<dyn Any + Sync>>;
    /// A seat of `strategy` played by `program` in a process of its own, one per game.
    fn process(&self, program: &Path, strategy: &str, round_cap: u32) -> Box<dyn Any + Sync>;
    /// The mean time of one decision of `player` on a small fixed observation, in nanoseconds:
    /// the best of `reps` timings of `calls` decisions.
    fn decision_ns(&self, player: Player<'_>, reps: u32, calls: u32) -> anyhow::Result<f64>;
    /// Plays `games` two-player games without records over the ordered pairs of `players` (a
    /// player against itself when there is one): the time taken.
    fn games_only(&self, games: usize, players: &[Player<'_>]) -> anyhow::Result<Duration>;
    /// The process side of [`Workload::process`]: answers the host's requests on stdin with
    /// `strategy` until stdin closes (`arena-stdio-agent`).
    fn serve_process(&self, strategy: &str) -> anyhow::Result<()>;
}

/// The workload the bench measures: the first game of the registry that has one.
pub fn workload() -> anyhow::Result<&'static dyn Workload> {
    crate::games::all()
        .iter()
        .find_map(|g| g.workload())
        .ok_or_else(|| anyhow::anyhow!("no game of this arena has a workload for the bench"))
}
