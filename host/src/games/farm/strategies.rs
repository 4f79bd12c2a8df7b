//! The bench's strategies of Little Animal Farm (`arena bench`, docs/PERFORMANCE.md): the five
//! example strategies, played natively through the ABI bytes, as wasm agents and as processes of
//! their own, and the trade decision on a small fixed observation.

use std::time::Duration;

use farm_rules::{Herd, Position};

use super::native::sdk;
use super::rules::TRADE;
use super::turn::{Asked, Observation};
use super::Farm;
use super::{Event, Party};
use crate::game::{time_decisions, NativeAgent, Question, Seat, Strategies};
use crate::sandbox::Init;

/// The example agent in WebAssembly text that passes every decision.
pub const PASSER_WAT: &str = include_str!("../../../../example-agents/wat/passer.wat");

/// Names of the example strategies, as their crates and wasm files are named.
pub const NAMES: [&str; 5] = ["passer", "greedy", "insurance", "trader", "shepherd"];

/// Little Animal Farm's strategies for the bench.
pub static STRATEGIES: Strategies = Strategies {
    names: &NAMES,
    passer: "passer",
    passer_wat: PASSER_WAT,
    starter: "greedy",
    native,
    time_sample,
};

/// A native agent of the strategy `name`.
pub fn native(name: &str) -> Option<Box<dyn NativeAgent>> {
    Some(match name {
        "passer" => Box::new(sdk(passer::Passer)),
        "greedy" => Box::new(sdk(greedy::Greedy)),
        "insurance" => Box::new(sdk(insurance::Insurance)),
        "trader" => Box::new(sdk(trader::Trader)),
        "shepherd" => Box::new(sdk(shepherd::Shepherd)),
        _ => return None,
    })
}

/// The trade decision on a small fixed observation (the start of a two-player game, a few events,
/// as a decision typically carries), built once and asked `calls` times of a player of `seat`.
fn time_sample(seat: Seat<'_>, init: &Init, calls: u32) -> anyhow::Result<Duration> {
    let pos = Position::new(2);
    let events = sample_events();
    let (q, asked) = sample_trade(&pos, &events);
    time_decisions(&Farm, seat, init, &q, &asked, calls)
}

/// The trade decision the timings ask: seat 0 to move at turn 3 of round 2 of `pos`, shown
/// `events`.
pub fn sample_trade<'a>(pos: &'a Position, events: &'a [Event]) -> (Question, Asked<'a>) {
    let observation = Observation {
        seat: 0,
        to_move: 0,
        turn: 3,
        round: 2,
        position: pos,
        events,
    };
    let q = Question::new(0, TRADE);
    let asked = Asked {
        observation,
        offer: None,
    };
    (q, asked)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Native, NativeReply};

    /// A strategy that answers every trade with a length no offer has.
    struct BadLength;

    impl NativeAgent for BadLength {
        fn init(&mut self, _buf: &mut [u8], _len: usize) -> i32 {
            0
        }

        fn decide(&mut self, _q: &Question, _buf: &mut [u8], _len: usize) -> NativeReply {
            NativeReply::ret(-1)
        }
    }

    fn init() -> Init {
        Init {
            seat: 0,
            players: 2,
            seed: 7,
            round_cap: 0,
        }
    }

    #[test]
    fn the_timed_native_decision_is_asked_and_read_as_the_game_loop_does() {
        let passer = crate::games::farm::native::<passer::Passer>();
        (STRATEGIES.time_sample)(Seat::Native(&passer), &init(), 100)
            .expect("the passer answers every time");
        // The answer is decoded and checked, as in a game: an unreadable one fails the timing
        // instead of being timed as if it were an answer.
        let bad = Native::new(|| Box::new(BadLength));
        let err = (STRATEGIES.time_sample)(Seat::Native(&bad), &init(), 1)
            .expect_err("a length no offer has is not an answer");
        assert!(
            err.to_string().contains("farm_trade returned length -1"),
            "{err}"
        );
    }
}
