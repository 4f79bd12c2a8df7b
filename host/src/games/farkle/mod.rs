//! Farkle as the arena plays it: the solo benchmark of the seed's harness (turns to reach 10,000
//! alone) and a race for 2 to 6 players. Scoring and answer checks are in the `farkle-rules`
//! crate; this module brings the game loop, dice, the ABI adapter and records.

pub mod abi;
pub(crate) mod component;
pub mod dice;
pub mod game;
pub mod league;
pub mod native;
pub mod player;
pub mod record;
mod wasm;

use arena_abi::names;

use crate::sandbox::AgentInterface;

pub use game::{
    play_game, play_game_into, GameEnd, GameRecord, GameSink, LoadFault, RollRecord, Setup,
    TurnEnd, TurnRecord,
};
pub use league::FarkleGame;
pub use player::{Answer, FarklePlayer, Observation};

/// What the sandbox is told about Farkle.
pub static AGENT: AgentInterface = AgentInterface {
    title: "Farkle",
    abi_id: arena_abi::game::FARKLE,
    decisions: &[names::FARKLE_DRAFT],
    component: Some(&component::FarkleWorld),
};

#[cfg(test)]
mod tests;
