//! Faults, whatever the game: the sandbox's vocabulary of what went wrong in a decision
//! ([`Fault`], [`FaultKind`]), and what a game does with the agent afterwards ([`FaultPolicy`]).

use serde::{Deserialize, Serialize};

pub use arena_sandbox::{Fault, FaultKind};

/// What the game does with an agent after a fault.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultPolicy {
    /// The agent forfeits: it takes no more turns and ranks below every player still in the game
    /// (each game says what becomes of what it held). The default: a broken agent cannot stall a
    /// game.
    #[default]
    Forfeit,
    /// The agent only loses the move and plays on (a fault at load time still forfeits). Each game
    /// says what a lost move is.
    LoseMove,
}
