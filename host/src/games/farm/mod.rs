//! Little Animal Farm as the arena plays it: the game loop over the rules crate, the players'
//! interface, dice, events and the fault policy.

pub mod abi_events;
pub(crate) mod component;
pub mod dice;
pub mod event;
pub mod fault;
pub mod game;
pub mod league;
pub mod player;
mod wasm;

use arena_abi::names;

use crate::sandbox::AgentInterface;

pub use dice::{DiceSource, ExplicitDice, SeededDice};
pub use event::{Event, Party};
pub use fault::{Decision, Fault, FaultKind, FaultPolicy};
pub use game::{
    play_game, play_game_into, AgentLog, GameEnd, GameRecord, GameSink, Outcome, Setup,
    StartPosition, TurnRecord,
};
pub use league::FarmGame;
pub use player::{AcceptView, FarmPlayer, Observation};

/// What the sandbox is told about Little Animal Farm.
pub static AGENT: AgentInterface = AgentInterface {
    title: "Little Animal Farm",
    abi_id: arena_abi::game::LITTLE_ANIMAL_FARM,
    decisions: &[names::FARM_TRADE, names::FARM_ACCEPT],
    component: Some(&component::FarmWorld),
};

#[cfg(test)]
mod tests;
