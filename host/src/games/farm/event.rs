use farm_rules::{FailReason, Herd, Roll};

use super::fault::{Decision, Fault};

/// One side of a transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    Stock,
    Player(usize),
}

/// Everything that happens in a game, in order. Records list them per turn; agents receive the
/// ones since their last call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A partner player answered an offer.
    Answer {
        seat: usize,
        trader: usize,
        accepted: bool,
    },
    /// The offer of `seat` failed and changed nothing.
    TradeFailed { seat: usize, reason: FailReason },
    /// Animals moved (one event per direction of a trade).
    Transfer {
        from: Party,
        to: Party,
        animals: Herd,
    },
    /// The dice thrown by `seat`.
    Rolled { seat: usize, roll: Roll },
    /// The wolf took these animals back to the stock.
    Wolf { seat: usize, lost: Herd },
    /// The fox took these animals back to the stock.
    Fox { seat: usize, lost: Herd },
    /// Breeding brought these animals from the stock.
    Bred { seat: usize, gained: Herd },
    /// A decision of `seat` failed.
    Fault {
        seat: usize,
        decision: Decision,
        fault: Fault,
    },
    /// `seat` is out of the game (fault policy `forfeit`).
    Forfeit { seat: usize },
    /// `seat` won, by completing the set or by being the last player left.
    Win { seat: usize, last_standing: bool },
    /// No winner: the round cap was reached, or every player forfeited.
    Draw { round_cap: bool },
}
