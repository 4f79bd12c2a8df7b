//! The bench's workload (`crate::bench`): the five example strategies of Little Animal Farm,
//! natively, as wasm agents and as processes of their own, and its trade decision on a small
//! fixed observation.

pub mod stdio;
pub mod strategies;

use std::any::Any;
use std::path::Path;
use std::time::{Duration, Instant};

use farm_rules::{Herd, Position};

use super::{play_game, Event, FarmPlayer, Native, Observation, Party, SeededDice, Setup};
use crate::bench::{Player, Workload};
use crate::game::Game;
use crate::sandbox::DEFAULT_ROUND_CAP;
use strategies::{native_player, STRATEGIES};

/// The example agent in WebAssembly text that passes every decision.
pub const PASSER_WAT: &str = include_str!("../../../../../example-agents/wat/passer.wat");

/// Little Animal Farm's workload.
pub struct FarmWorkload;

pub static WORKLOAD: FarmWorkload = FarmWorkload;

impl Workload for FarmWorkload {
    fn game(&self) -> &'static dyn Game {
        &super::FarmGame
    }

    fn strategies(&self) -> &'static [&'static str] {
        &STRATEGIES
    }

    fn passer(&self) -> &'static str {
        "passer"
    }

    fn passer_wat(&self) -> &'static str {
        PASSER_WAT
    }

    fn starter(&self) -> &'static str {
        "greedy"
    }

    fn native(&self, strategy: &str, round_cap: u32) -> Option<Box<dyn Any + Sync>> {
        native_player(strategy, round_cap)?;
        let strategy = strategy.to_owned();
        Some(Box::new(Native::new(move || {
            native_player(&strategy, round_cap).expect("a strategy of the workload")
        })))
    }

    fn process(&self, program: &Path, strategy: &str, round_cap: u32) -> Box<dyn Any + Sync> {
        let (program, strategy) = (program.to_path_buf(), strategy.to_owned());
        Box::new(Native::new(move || {
            Box::new(stdio::StdioPlayer::new(
                &program,
                std::slice::from_ref(&strategy),
                round_cap,
            ))
        }))
    }

    fn decision_ns(&self, player: Player<'_>, reps: u32, calls: u32) -> anyhow::Result<f64> {
        // An agent is told the default round cap, a native strategy none, as they always were.
        let round_cap = match player {
            Player::Agent(_) => DEFAULT_ROUND_CAP,
            Player::Native(_) | Player::Process(..) => 0,
        };
        decision_ns(&mut *player_of(player, round_cap)?, reps, calls)
    }

    fn games_only(&self, games: usize, players: &[Player<'_>]) -> anyhow::Result<Duration> {
        let mut pairs = Vec::new();
        for a in 0..players.len() {
            for b in 0..players.len() {
                if a != b || players.len() == 1 {
                    pairs.push((a, b));
                }
            }
        }
        anyhow::ensure!(!pairs.is_empty(), "no players to play games");
        let t = Instant::now();
        for g in 0..games {
            let (a, b) = pairs[g % pairs.len()];
            let seed = 1000 + g as u64;
            let setup = Setup::standard(2, seed, DEFAULT_ROUND_CAP);
            let mut pa = player_of(players[a], DEFAULT_ROUND_CAP)?;
            let mut pb = player_of(players[b], DEFAULT_ROUND_CAP)?;
            let mut seats: Vec<&mut dyn FarmPlayer> = vec![&mut *pa, &mut *pb];
            let record = play_game(&setup, &mut seats, &mut SeededDice::new(seed));
            std::hint::black_box(record);
        }
        Ok(t.elapsed())
    }

    fn serve_process(&self, strategy: &str) -> anyhow::Result<()> {
        stdio::serve(strategy)
    }
}

/// A player of `player` for one game, told `round_cap`.
fn player_of(player: Player<'_>, round_cap: u32) -> anyhow::Result<Box<dyn FarmPlayer>> {
    Ok(match player {
        Player::Native(name) => native_player(name, round_cap)
            .ok_or_else(|| anyhow::anyhow!("no strategy named {name:?}"))?,
        Player::Agent(module) => Box::new(module.player_with_round_cap(round_cap)),
        Player::Process(program, name) => Box::new(stdio::StdioPlayer::new(
            program,
            &[name.to_owned()],
            round_cap,
        )),
    })
}

/// Best of `reps` timings of `calls` decisions: mean time of one trade decision of `player` on a
/// small fixed observation.
pub fn decision_ns(player: &mut dyn FarmPlayer, reps: u32, calls: u32) -> anyhow::Result<f64> {
    let pos = Position::new(2);
    let events = sample_events();
    let obs = Observation {
        seat: 0,
        to_move: 0,
        turn: 3,
        round: 2,
        position: &pos,
        events: &events,
    };
    let mut best = f64::INFINITY;
    for _ in 0..reps.max(1) {
        player
            .start(0, 2, 7)
            .map_err(|f| anyhow::anyhow!("the player did not start: {}", f.detail))?;
        let t = Instant::now();
        for _ in 0..calls {
            let offer = player
                .trade(std::hint::black_box(&obs))
                .map_err(|f| anyhow::anyhow!("the player did not answer: {}", f.detail))?;
            std::hint::black_box(offer);
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / calls as f64);
    }
    Ok(best)
}

/// A few events, as a decision typically carries.
pub fn sample_events() -> Vec<Event> {
    vec![
        Event::Transfer {
            from: Party::Stock,
            to: Party::Player(1),
            animals: Herd([1, 0, 0, 0, 0, 0, 0]),
        },
        Event::Bred {
            seat: 1,
            gained: Herd([1, 0, 0, 0, 0, 0, 0]),
        },
        Event::Answer {
            seat: 1,
            trader: 0,
            accepted: false,
        },
    ]
}
