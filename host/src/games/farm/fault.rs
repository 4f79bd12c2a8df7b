use serde::{Deserialize, Serialize};

/// The decision an agent was asked for when something went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Loading the agent for this game: instantiation, the start function, the optional init.
    Init,
    /// The trade-or-pass decision before the roll.
    Trade,
    /// The accept-or-deny decision on another player's offer.
    Accept,
}

pub use crate::game::fault::{Fault, FaultKind, FaultPolicy};
