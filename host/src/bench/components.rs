//! `arena bench --components FILE...`: the figures of component agents (docs/PERFORMANCE.md,
//! "Components"): for each Little Animal Farm component given, the time to start it for a game
//! (a fresh instance from the pool, and `init`), the time of one decision on a fixed observation
//! (beside the same for the byte-ABI greedy module, the host's overhead of a component call), and
//! games per second of the component against itself on one thread.

use std::time::Instant;

use serde::Serialize;

use super::{decision_ns, start_us};
use crate::farm::{play_game, FarmPlayer, SeededDice, Setup};
use crate::sandbox::{AgentModule, DEFAULT_ROUND_CAP};

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

/// Measures `module` (loaded in `load_ms`); `games` games, `reps` repetitions of the timings.
pub fn measure(
    module: &AgentModule,
    load_ms: f64,
    games: usize,
    reps: u32,
) -> anyhow::Result<ComponentFigures> {
    let start = start_us(module, reps, 20)?;
    let mut player = module.player();
    let decision = decision_ns(&mut player, reps, 50)? / 1000.0;
    let t = Instant::now();
    for g in 0..games {
        let seed = 5000 + g as u64;
        let setup = Setup::standard(2, seed, DEFAULT_ROUND_CAP);
        let (mut a, mut b) = (module.player(), module.player());
        let mut seats: Vec<&mut dyn FarmPlayer> = vec![&mut a, &mut b];
        std::hint::black_box(play_game(&setup, &mut seats, &mut SeededDice::new(seed)));
    }
    let secs = t.elapsed().as_secs_f64();
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
