//! The end of a game: wins (den, every piece captured, no legal move) and draws (the no-capture
//! rule and the ply cap).

use crate::board::{Side, DENS};
use crate::position::Position;

/// Plies without a capture after which the game is a draw: 100 (50 moves of each player), as
/// chess's fifty-move rule.
pub const DRAW_PLIES: u32 = 100;

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The winner's piece entered the loser's den.
    Den,
    /// The loser has no piece left.
    AllCaptured,
    /// The loser, to move, has no legal move.
    NoMoves,
}

impl WinReason {
    /// `den`, `all_captured`, `no_moves`.
    pub const fn name(self) -> &'static str {
        match self {
            WinReason::Den => "den",
            WinReason::AllCaptured => "all_captured",
            WinReason::NoMoves => "no_moves",
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// [`DRAW_PLIES`] plies in a row without a capture.
    NoCapture,
    /// The ply cap was reached.
    PlyCap,
}

impl DrawReason {
    /// `no_capture`, `ply_cap`.
    pub const fn name(self) -> &'static str {
        match self {
            DrawReason::NoCapture => "no_capture",
            DrawReason::PlyCap => "ply_cap",
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win { winner: Side, reason: WinReason },
    Draw(DrawReason),
}

impl Outcome {
    /// The winner, if the game was won.
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }
}

impl Position {
    /// True when the player who just moved stands in the den of the side to move: the game is
    /// over.
    #[inline]
    pub const fn den_entered(&self) -> bool {
        let us = self.side.index();
        self.occ[us ^ 1] & DENS[us] != 0
    }

    /// Whether the game is over in this position, and how, with `ply_cap` the most plies a game
    /// may last (`u32::MAX` for no cap). The checks, in order: the player who just moved
    /// stands in the den of the side to move (it wins); the side to move has no piece left, or
    /// no legal move (it loses); [`DRAW_PLIES`] plies have passed without a capture (a draw);
    /// `ply_cap` plies have been played (a draw). So a win on the last ply before a draw stands.
    pub fn outcome(&self, ply_cap: u32) -> Option<Outcome> {
        let winner = self.side.opponent();
        if self.den_entered() {
            return Some(Outcome::Win {
                winner,
                reason: WinReason::Den,
            });
        }
        if self.count(self.side) == 0 {
            return Some(Outcome::Win {
                winner,
                reason: WinReason::AllCaptured,
            });
        }
        if !self.has_moves() {
            return Some(Outcome::Win {
                winner,
                reason: WinReason::NoMoves,
            });
        }
        if self.quiet >= DRAW_PLIES {
            return Some(Outcome::Draw(DrawReason::NoCapture));
        }
        if self.ply >= ply_cap {
            return Some(Outcome::Draw(DrawReason::PlyCap));
        }
        None
    }
}
