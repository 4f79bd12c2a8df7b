//! Faults: a decision that gave no usable answer, whatever the game. The sandbox turns every
//! failure of an agent into one; a game records it and applies its fault policy.

use serde::{Deserialize, Serialize};

/// Why an agent's decision produced no usable answer. Names are stable: they appear in records,
/// in standings and in the ABI's event stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The guest trapped (unreachable, divide by zero, out-of-bounds access, bad indirect call,
    /// a panic compiled to a trap, an exit call).
    Trap,
    /// The guest exhausted the call stack.
    StackOverflow,
    /// The decision used up its fuel budget.
    DecisionFuel,
    /// The game's whole fuel budget is used up.
    GameFuel,
    /// The guest asked for more memory or table space than allowed.
    MemoryLimit,
    /// The wall-clock backstop fired (only possible if fuel somehow did not stop the guest).
    Timeout,
    /// The answer could not be read: a length or offset outside the exchange buffer.
    BadAnswer,
    /// The agent could not be instantiated or initialised for this game.
    LoadFailed,
    /// The agent had already forfeited; not a new fault (never recorded, used internally).
    Forfeited,
}

impl FaultKind {
    pub const fn name(self) -> &'static str {
        match self {
            FaultKind::Trap => "trap",
            FaultKind::StackOverflow => "stack_overflow",
            FaultKind::DecisionFuel => "decision_fuel",
            FaultKind::GameFuel => "game_fuel",
            FaultKind::MemoryLimit => "memory_limit",
            FaultKind::Timeout => "timeout",
            FaultKind::BadAnswer => "bad_answer",
            FaultKind::LoadFailed => "load_failed",
            FaultKind::Forfeited => "forfeited",
        }
    }

    /// Code used in the ABI event stream.
    pub const fn code(self) -> u8 {
        match self {
            FaultKind::Trap => 1,
            FaultKind::StackOverflow => 2,
            FaultKind::DecisionFuel => 3,
            FaultKind::GameFuel => 4,
            FaultKind::MemoryLimit => 5,
            FaultKind::Timeout => 6,
            FaultKind::BadAnswer => 7,
            FaultKind::LoadFailed => 8,
            FaultKind::Forfeited => 9,
        }
    }
}

/// A decision that failed, with a human-readable detail (the trap message, the bad length...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}
