//! The bench's strategies of Little Animal Farm (`arena bench`, docs/PERFORMANCE.md): the five
//! example strategies, played natively through the ABI bytes, as wasm agents and as processes of
//! their own, and the trade decision on a small fixed observation.

use farm_rules::{Herd, Position};

use super::abi::encode_observation;
use super::native::Sdk;
use super::rules::{Asked, Observation, TRADE};
use super::Farm;
use super::{Event, Party};
use crate::game::{Fault, NativeAgent, Player, Question, Strategies};
use crate::sandbox::WasmPlayer;

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
    sample,
    decide_sample,
};

/// A native agent of the strategy `name`.
pub fn native(name: &str) -> Option<Box<dyn NativeAgent>> {
    Some(match name {
        "passer" => Box::new(Sdk(passer::Passer)),
        "greedy" => Box::new(Sdk(greedy::Greedy)),
        "insurance" => Box::new(Sdk(insurance::Insurance)),
        "trader" => Box::new(Sdk(trader::Trader)),
        "shepherd" => Box::new(Sdk(shepherd::Shepherd)),
        _ => return None,
    })
}

/// The trade decision on a small fixed observation (the start of a two-player game, a few events,
/// as a decision typically carries), handed to `f`.
fn with_sample<T>(f: impl FnOnce(&Question, &Observation<'_>) -> T) -> T {
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
    let q = Question {
        seat: 0,
        decision: TRADE,
        allowance: None,
    };
    f(&q, &obs)
}

/// The sample decision as bytes.
fn sample(buf: &mut [u8]) -> (Question, usize) {
    with_sample(|q, obs| (*q, encode_observation(obs, None, buf)))
}

/// The sample decision asked of a sandboxed agent through the farm's player.
fn decide_sample(player: &mut WasmPlayer) -> Result<(), Fault> {
    with_sample(|q, obs| {
        let asked = Asked {
            observation: *obs,
            offer: None,
        };
        let reply = <WasmPlayer as Player<Farm>>::decide(player, &Farm, q, &asked);
        reply.answer.map(|_| ())
    })
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
