//! Why a move is illegal, in words: for refusing a human's or an agent's move with the reason.
//! Move generation ([`Position::is_legal`]) is the fast path; this is the explaining one, and the
//! tests hold the two to the same answer on every move.

use core::fmt;

use crate::board::{Kind, Piece, Square, JUMPS, STEPS, TRAPS};
use crate::position::{Move, Position};

rules_bounds::coded_enum! {
    /// Why a move is not legal. [`Position::check_move`] checks in the order of the codes and
    /// reports the first failure.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Illegal: u32 {
        /// No piece on the from square.
        Empty = 1 => "empty",
        /// The piece on the from square is the opponent's.
        NotYours = 2 => "not_yours",
        /// The to square is not next to the from square (and not across a lake for a lion or
        /// tiger).
        NotAStep = 3 => "not_a_step",
        /// A rat in the water is on the lion's or tiger's way across the lake.
        JumpBlocked = 4 => "jump_blocked",
        /// The to square holds one of the mover's own pieces.
        OwnPiece = 5 => "own_piece",
        /// The to square is the mover's own den.
        OwnDen = 6 => "own_den",
        /// Only the rat may enter the water.
        Water = 7 => "water",
        /// The elephant may not capture the rat (unless the rat stands in the elephant's trap).
        ElephantTakesRat = 8 => "elephant_takes_rat",
        /// A rat in the water may not capture the elephant.
        RatFromWater = 9 => "rat_from_water",
        /// The piece on the to square outranks the mover.
        Outranked = 10 => "outranked",
    }
    const ALL;
    /// The code, 1 to 10, as records may carry it.
    fn code;
    fn from_code;
    /// The reason's name in records and messages (`empty`, `not_yours`, …).
    fn name;
}

impl Illegal {
    /// A sentence for a person.
    pub const fn message(self) -> &'static str {
        match self {
            Illegal::Empty => "there is no piece on that square",
            Illegal::NotYours => "that piece is not yours",
            Illegal::NotAStep => {
                "a piece moves one square up, down, left or right (a lion or tiger may also jump a lake in a straight line)"
            }
            Illegal::JumpBlocked => "a rat in the water blocks the jump",
            Illegal::OwnPiece => "one of your own pieces stands there",
            Illegal::OwnDen => "a piece may not enter its own den",
            Illegal::Water => "only the rat may enter the water",
            Illegal::ElephantTakesRat => "the elephant may not capture the rat",
            Illegal::RatFromWater => "a rat may not capture the elephant from the water",
            Illegal::Outranked => "that piece outranks yours",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl Position {
    /// Checks `mv` for the side to move: `Ok` exactly when [`Position::is_legal`] is true,
    /// otherwise the first reason in the order of [`Illegal`]'s codes. Like move generation, it
    /// does not look at whether the game is over.
    pub fn check_move(&self, mv: Move) -> Result<(), Illegal> {
        let us = self.side;
        let mover = self.piece_at(mv.from).ok_or(Illegal::Empty)?;
        if mover.side != us {
            return Err(Illegal::NotYours);
        }
        let step = STEPS[mv.from.index()] & mv.to.bit() != 0;
        if !step {
            let jump = JUMPS[mv.from.index()]
                .iter()
                .flatten()
                .find(|j| j.to as usize == mv.to.index());
            match jump {
                Some(j) if mover.kind.jumps() => {
                    let rats = [us, us.opponent()]
                        .iter()
                        .filter_map(|&s| self.square_of(s, Kind::Rat))
                        .fold(0u64, |m, s| m | s.bit());
                    if j.over & rats != 0 {
                        return Err(Illegal::JumpBlocked);
                    }
                }
                _ => return Err(Illegal::NotAStep),
            }
        }
        let target = self.piece_at(mv.to);
        if matches!(target, Some(p) if p.side == us) {
            return Err(Illegal::OwnPiece);
        }
        if mv.to.is_den_of(us) {
            return Err(Illegal::OwnDen);
        }
        if mv.to.is_water() && mover.kind != Kind::Rat {
            return Err(Illegal::Water);
        }
        match target {
            None => Ok(()),
            Some(defender) => capture_allowed(mover, mv.from, defender, mv.to),
        }
    }
}

/// The capture rule, for an attacker on `from` and an enemy defender on `to`.
fn capture_allowed(
    attacker: Piece,
    from: Square,
    defender: Piece,
    to: Square,
) -> Result<(), Illegal> {
    // A piece in its enemy's trap has rank 0: any piece of the trap's owner takes it.
    if TRAPS[attacker.side.index()] & to.bit() != 0 {
        return Ok(());
    }
    match (attacker.kind, defender.kind) {
        (Kind::Rat, Kind::Elephant) if from.is_water() => Err(Illegal::RatFromWater),
        (Kind::Rat, Kind::Elephant) => Ok(()),
        (Kind::Elephant, Kind::Rat) => Err(Illegal::ElephantTakesRat),
        (a, d) if a.rank() >= d.rank() => Ok(()),
        _ => Err(Illegal::Outranked),
    }
}
