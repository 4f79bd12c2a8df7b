//! What the bench measures the arena on: one game's example strategies ([`Strategies`]), played
//! natively in the host, as sandboxed agents and as processes of their own, and one of its
//! decisions. The bench measures the first game of the registry that has them
//! (docs/PERFORMANCE.md).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::FaultPolicy;
use crate::game::Registry;
use crate::game::{Game, Host, Native, RecordMeta, Seat, Strategies, Table};
use crate::sandbox::{AgentModule, DEFAULT_ROUND_CAP};

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

/// A game's strategies, for the bench.
#[derive(Clone, Copy)]
pub struct Workload {
    game: &'static dyn Game,
    strategies: &'static Strategies,
}

/// The workload the bench measures: the first game of `registry` that has strategies.
pub fn workload(registry: &Registry) -> anyhow::Result<Workload> {
    registry
        .all()
        .iter()
        .find_map(|&game| {
            game.strategies()
                .map(|strategies| Workload { game, strategies })
        })
        .ok_or_else(|| anyhow::anyhow!("no game of this arena has strategies for the bench"))
}

impl Workload {
    /// The game measured.
    pub fn game(&self) -> &'static dyn Game {
        self.game
    }

    /// The strategies, by name: natively in the host, as `NAME.wasm` in the agents' folder, and
    /// behind `arena-stdio-agent NAME`.
    pub fn strategies(&self) -> &'static [&'static str] {
        self.strategies.names
    }

    /// The strategy that answers at once, for the per-decision timings.
    pub fn passer(&self) -> &'static str {
        self.strategies.passer
    }

    /// The same strategy written in WebAssembly text (no compiler's code in the timing).
    pub fn passer_wat(&self) -> &'static str {
        self.strategies.passer_wat
    }

    /// The strategy whose per-game start is timed.
    pub fn starter(&self) -> &'static str {
        self.strategies.starter
    }

    /// A native seat of `strategy`; `None` for a name that is not a strategy.
    pub fn native(&self, strategy: &str) -> Option<Native> {
        let make = self.strategies.native;
        make(strategy)?;
        let strategy = strategy.to_owned();
        Some(Native::new(move || {
            make(&strategy).expect("a strategy of the workload")
        }))
    }

    /// A seat of `strategy` played by `program` in a process of its own, one per game.
    pub fn process(&self, program: &Path, strategy: &str) -> Native {
        let (program, strategy) = (program.to_path_buf(), strategy.to_owned());
        Native::new(move || Box::new(super::stdio::Process::new(&program, &strategy)))
    }

    /// The mean time of one decision of `player` on a small fixed observation, in nanoseconds,
    /// asked through the game's player as the game loop asks it (for a native strategy or a
    /// process too: the observation encoded, the call, the answer decoded): the best of `reps`
    /// timings of `calls` decisions.
    pub fn decision_ns(&self, player: Player<'_>, reps: u32, calls: u32) -> anyhow::Result<f64> {
        let native = match player {
            Player::Agent(_) => None,
            Player::Native(name) => Some(
                self.native(name)
                    .ok_or_else(|| anyhow::anyhow!("no strategy named {name:?}"))?,
            ),
            Player::Process(program, name) => Some(self.process(program, name)),
        };
        let (seat, round_cap) = match (player, &native) {
            (Player::Agent(m), _) => (Seat::Agent(m), DEFAULT_ROUND_CAP),
            (_, Some(n)) => (Seat::Native(n), 0),
            (_, None) => unreachable!("a native strategy or a process has a seat"),
        };
        // An agent is told the default round cap, a native strategy none, as they always were.
        let init = crate::sandbox::Init {
            seat: 0,
            players: 2,
            seed: 7,
            round_cap,
        };
        let mut best = f64::INFINITY;
        for _ in 0..reps.max(1) {
            let t = (self.strategies.time_sample)(seat, &init, calls)?;
            best = best.min(t.as_secs_f64() * 1e9 / calls.max(1) as f64);
        }
        Ok(best)
    }

    /// Plays `games` two-player games without records over the ordered pairs of `players` (a
    /// player against itself when there is one): the time taken.
    pub fn games_only(&self, games: usize, players: &[Player<'_>]) -> anyhow::Result<Duration> {
        let mut pairs = Vec::new();
        for a in 0..players.len() {
            for b in 0..players.len() {
                if a != b || players.len() == 1 {
                    pairs.push((a, b));
                }
            }
        }
        anyhow::ensure!(!pairs.is_empty(), "no players to play games");
        let natives: Vec<Option<Native>> = players
            .iter()
            .map(|p| match *p {
                Player::Native(name) => self.native(name),
                Player::Process(program, name) => Some(self.process(program, name)),
                Player::Agent(_) => None,
            })
            .collect();
        let seat = |i: usize| -> anyhow::Result<Seat<'_>> {
            Ok(match (players[i], &natives[i]) {
                (Player::Agent(m), _) => Seat::Agent(m),
                (_, Some(n)) => Seat::Native(n),
                (Player::Native(name), None) => anyhow::bail!("no strategy named {name:?}"),
                _ => unreachable!("a process has a seat"),
            })
        };
        let settings = Arc::new(crate::game::GameSettings::new());
        let limits = Arc::new(serde_json::Value::Null);
        let t = Instant::now();
        for g in 0..games {
            let (a, b) = pairs[g % pairs.len()];
            let table = Table {
                seed: 1000 + g as u64,
                round_cap: DEFAULT_ROUND_CAP,
                policy: FaultPolicy::Forfeit,
                settings: settings.clone(),
                meta: RecordMeta {
                    names: vec!["a".into(), "b".into()],
                    agent_hashes: vec![None, None],
                    limits: limits.clone(),
                },
            };
            let summary =
                self.game
                    .play_unrecorded(&Host::default(), &table, &[seat(a)?, seat(b)?])?;
            std::hint::black_box(summary);
        }
        Ok(t.elapsed())
    }

    /// The process side of [`Workload::process`]: answers the host's requests on stdin with
    /// `strategy` until stdin closes (`arena-stdio-agent`).
    pub fn serve_process(&self, strategy: &str) -> anyhow::Result<()> {
        let agent = (self.strategies.native)(strategy)
            .ok_or_else(|| anyhow::anyhow!("no strategy named {strategy:?}"))?;
        super::stdio::serve(agent)
    }
}
