//! `arena bench --components FILE...`: the figures of component agents (docs/PERFORMANCE.md,
//! "Components"): for each component of the workload's game given, the time to start it for a game
//! (a fresh instance from the pool, and `init`), the time of one decision on a fixed observation
//! (beside the same for the byte-ABI greedy module, the host's overhead of a component call), and
//! games per second of the component against itself on one thread.

use serde::Serialize;

use super::sections::start_us;
use super::workload::{Player, Workload};
use crate::sandbox::AgentModule;

/// The figures of one component.
#[derive(Clone, Debug, Serialize)]
pub struct ComponentFigures {
    pub name: String,
    pub world: String,
    pub size_bytes: u64,
    /// Load time: validate, compile (or read the cached artifact), instantiate once.
    pub load_ms: f64,
    /// Start for a game: a fresh instance and `init`, then dropped (best of the repetitions).
    pub start_us: f64,
    /// One `trade` decision on a fixed observation of 3 events.
    pub decision_us: f64,
    /// Two-player games of the component against itself, one thread.
    pub games_per_s: f64,
    pub ms_per_game: f64,
}

/// Measures `module` (loaded in `load_ms`) in the workload's game; `games` games, `reps`
/// repetitions of the timings.
pub fn measure(
    w: &dyn Workload,
    module: &AgentModule,
    load_ms: f64,
    games: usize,
    reps: u32,
) -> anyhow::Result<ComponentFigures> {
    let start = start_us(w, module, reps, 20)?;
    let decision = w.decision_ns(Player::Agent(module), reps, 50)? / 1000.0;
    let secs = w.games_only(games, &[Player::Agent(module)])?.as_secs_f64();
    Ok(ComponentFigures {
        name: module.name().to_owned(),
        world: module.world().unwrap_or("(a core module)").to_owned(),
        size_bytes: module.size(),
        load_ms,
        start_us: start,
        decision_us: decision,
        games_per_s: games as f64 / secs,
        ms_per_game: secs * 1000.0 / games as f64,
    })
}

/// The figures as a table.
pub fn table(all: &[ComponentFigures]) -> String {
    let mut out = format!(
        "{:<16} {:>10} {:>10} {:>10} {:>12} {:>9} {:>9}  world\n",
        "agent", "size (MB)", "load (ms)", "start (µs)", "decision (µs)", "games/s", "ms/game"
    );
    for f in all {
        out.push_str(&format!(
            "{:<16} {:>10.1} {:>10.0} {:>10.1} {:>12.1} {:>9.1} {:>9.2}  {}\n",
            f.name,
            f.size_bytes as f64 / 1e6,
            f.load_ms,
            f.start_us,
            f.decision_us,
            f.games_per_s,
            f.ms_per_game,
            f.world
        ));
    }
    out
}
