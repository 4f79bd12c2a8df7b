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

pub use game::{
    play_game, play_game_into, GameEnd, GameRecord, GameSink, LoadFault, RollRecord, Setup,
    TurnEnd, TurnRecord,
};
pub use league::FarkleGame;
pub use player::{Answer, FarklePlayer, Observation};

#[cfg(test)]
mod tests;
