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

pub use dice::{DiceSource, ExplicitDice, SeededDice};
pub use event::{Event, Party};
pub use fault::{Decision, Fault, FaultKind, FaultPolicy};
pub use game::{
    play_game, play_game_into, AgentLog, GameEnd, GameRecord, GameSink, Outcome, Setup,
    StartPosition, TurnRecord,
};
pub use league::FarmGame;
pub use player::{AcceptView, FarmPlayer, Observation};
