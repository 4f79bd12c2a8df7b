//! Why a position or a move could not be read.

use core::fmt;

use crate::board::{Piece, Side, Square};

/// Why a position (in the notation, or as piece codes) is refused. The messages name what is
/// wrong and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Nothing to read.
    Empty,
    /// The board has `found` ranks separated by `/` instead of 9.
    RankCount { found: usize },
    /// A rank (1 to 9, as on the board) describes `squares` squares instead of 7.
    RankLength { rank: u8, squares: usize },
    /// A character that is neither a piece letter nor a digit 1 to 7.
    UnknownLetter { rank: u8, letter: char },
    /// Two digits in a row in a rank (`16`): a run of empty squares is one digit.
    DigitsInARow { rank: u8 },
    /// A code that is not 0 to 16 (from piece codes).
    BadCode { square: Square, code: u8 },
    /// A second piece of the same kind and side.
    Duplicate { piece: Piece, square: Square },
    /// A piece other than a rat in the water.
    InWater { piece: Piece, square: Square },
    /// A piece on its own den.
    OwnDen { piece: Piece, square: Square },
    /// The side to move already stands in the enemy den: the game ended before its move.
    MoverInDen { side: Side },
    /// The ply count does not fit the side to move (the first player moves at even plies).
    PlyParity { ply: u32, side: Side },
    /// No side to move after the board.
    MissingSide,
    /// The side to move is not `w` or `b`.
    BadSide,
    /// The draw counter (plies since the last capture) is not a number from 0 to
    /// [`MAX_DRAW_COUNTER`](crate::notation::MAX_DRAW_COUNTER) in decimal digits.
    BadDrawCounter,
    /// The move number is not a number from 1 to
    /// [`MAX_MOVE_NUMBER`](crate::notation::MAX_MOVE_NUMBER) in decimal digits.
    BadMoveNumber,
    /// More than four fields.
    TrailingText,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::Empty => f.write_str("empty position"),
            PositionError::RankCount { found } => {
                write!(f, "the board has {found} ranks separated by '/', 9 expected")
            }
            PositionError::RankLength { rank, squares } => write!(
                f,
                "rank {rank} describes {squares} squares, 7 expected"
            ),
            PositionError::UnknownLetter { rank, letter } => write!(
                f,
                "rank {rank}: '{letter}' is not a piece letter (r c d w p t l e, upper case for the first player) or a digit 1 to 7"
            ),
            PositionError::DigitsInARow { rank } => write!(
                f,
                "rank {rank}: two digits in a row (a run of empty squares is one digit, 1 to 7)"
            ),
            PositionError::BadCode { square, code } => {
                write!(f, "{square}: {code} is not a piece code (0 to 16)")
            }
            PositionError::Duplicate { piece, square } => {
                write!(f, "{square}: the {piece} appears twice")
            }
            PositionError::InWater { piece, square } => write!(
                f,
                "{square}: the {piece} is in the water (only a rat may be)"
            ),
            PositionError::OwnDen { piece, square } => {
                write!(f, "{square}: the {piece} is on its own den")
            }
            PositionError::MoverInDen { side } => write!(
                f,
                "the {} player, to move, already stands in the enemy den (the game is over)",
                side.name()
            ),
            PositionError::PlyParity { ply, side } => write!(
                f,
                "ply {ply} is the {} player's, but the {} player is to move",
                if ply % 2 == 0 { "first" } else { "second" },
                side.name()
            ),
            PositionError::MissingSide => {
                f.write_str("the side to move ('w' or 'b') is missing after the board")
            }
            PositionError::BadSide => f.write_str("the side to move must be 'w' or 'b'"),
            PositionError::BadDrawCounter => write!(
                f,
                "the draw counter (plies since the last capture) must be a number from 0 to {}, in digits",
                crate::notation::MAX_DRAW_COUNTER
            ),
            PositionError::BadMoveNumber => write!(
                f,
                "the move number must be a number from 1 to {}, in digits",
                crate::notation::MAX_MOVE_NUMBER
            ),
            PositionError::TrailingText => f.write_str(
                "unexpected text after the move number (board, side, draw counter, move number)",
            ),
        }
    }
}

/// Why a move in the notation (`a3a4`) could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not four characters.
    Length,
    /// The first two characters are not a square `a1` to `g9`.
    From,
    /// The last two characters are not a square `a1` to `g9`.
    To,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::Length => "a move is two squares, from and to, e.g. a3a4",
            MoveError::From => "the move's first square is not a1 to g9",
            MoveError::To => "the move's second square is not a1 to g9",
        })
    }
}
