use farm_rules::{FailReason, Herd, Roll};
use serde::{Deserialize, Serialize};

use super::fault::{Decision, Fault};
use super::record::format::{herd, reason, RollFields};

/// One side of a transfer (in records `"stock"` or a seat number: `record/format.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    Stock,
    Player(usize),
}

/// Everything that happens in a game, in order. Records list them per turn, each an object
/// tagged by its `type` (docs/RECORDS.md); agents receive the ones since their last call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A partner player answered an offer.
    Answer {
        seat: usize,
        trader: usize,
        accepted: bool,
    },
    /// The offer of `seat` failed and changed nothing.
    TradeFailed {
        seat: usize,
        #[serde(flatten, with = "reason")]
        reason: FailReason,
    },
    /// Animals moved (one event per direction of a trade).
    Transfer {
        from: Party,
        to: Party,
        #[serde(with = "herd")]
        animals: Herd,
    },
    /// The dice thrown by `seat`.
    Rolled {
        seat: usize,
        #[serde(with = "RollFields")]
        roll: Roll,
    },
    /// The wolf took these animals back to the stock.
    Wolf {
        seat: usize,
        #[serde(with = "herd")]
        lost: Herd,
    },
    /// The fox took these animals back to the stock.
    Fox {
        seat: usize,
        #[serde(with = "herd")]
        lost: Herd,
    },
    /// Breeding brought these animals from the stock.
    Bred {
        seat: usize,
        #[serde(with = "herd")]
        gained: Herd,
    },
    /// A decision of `seat` failed.
    Fault {
        seat: usize,
        decision: Decision,
        #[serde(flatten)]
        fault: Fault,
    },
    /// `seat` is out of the game (fault policy `forfeit`).
    Forfeit { seat: usize },
    /// `seat` won, by completing the set or by being the last player left.
    Win { seat: usize, last_standing: bool },
    /// No winner: the round cap was reached, or every player forfeited.
    Draw { round_cap: bool },
}
