//! The text notation of positions and moves.
//!
//! A position: the ranks from the top (rank 9, the second player's side) down, separated by `/`;
//! in each rank, from file a to g, a letter per piece (`r` rat, `c` cat, `d` dog, `w` wolf, `p`
//! leopard, `t` tiger, `l` lion, `e` elephant; upper case for the first player) and a digit for a
//! run of empty squares; then a space and `w` (the first player to move) or `b`. Two optional
//! fields may follow, as in chess's FEN: the plies since the last capture (the draw counter,
//! default 0) and the move number (from 1, counting a move of each player; default 1). A move is
//! its two squares, `a3a4`.
//!
//! What is read, exactly (docs/JUNGLE.md, "Notation", says the same): the fields are separated by
//! any run of ASCII whitespace, and whitespace before the first or after the last is ignored (a
//! field boundary can mean nothing else, and positions are pasted from files and command lines).
//! A run of empty squares is one digit: two digits in a row (`16` for `7`) are refused, as in
//! FEN. The counters are plain decimal digits (no sign: `+1` is refused), the draw counter from 0
//! to [`MAX_DRAW_COUNTER`] and the move number from 1 to [`MAX_MOVE_NUMBER`], so that the ply count
//! fits its 32 bits. A draw counter of [`DRAW_PLIES`](crate::DRAW_PLIES) or more is read: such a
//! position is drawn before its first move ([`Position::outcome`]), but the arena writes 100 in
//! the last position of a game drawn by the rule, and the move generator and perft, which ignore
//! the draw rules, count on past it. A side to move standing in the enemy den is refused instead:
//! no sequence of moves reaches that.

use core::fmt::{self, Write};
use core::str::FromStr;

use crate::board::{Piece, Side, Square, FILES, RANKS, SQUARES};
use crate::error::{MoveError, PositionError};
use crate::position::{Move, Position};

/// The largest draw counter the notation reads: the largest 32-bit count.
pub const MAX_DRAW_COUNTER: u32 = u32::MAX;

/// The largest move number the notation reads, 2³¹: its ply count, `2 × (number − 1)` plus 1
/// for the second player, is then at most `u32::MAX`.
pub const MAX_MOVE_NUMBER: u32 = 1 << 31;

/// A counter of the notation: decimal digits only (no sign, no space), within 32 bits.
fn counter(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

impl Position {
    /// Reads a position in the notation (see the module documentation).
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let mut fields = text.split_ascii_whitespace();
        let board = fields.next().ok_or(PositionError::Empty)?;
        let codes = parse_board(board)?;
        let side = match fields.next() {
            None => return Err(PositionError::MissingSide),
            Some("w") => Side::First,
            Some("b") => Side::Second,
            Some(_) => return Err(PositionError::BadSide),
        };
        let quiet = match fields.next() {
            None => 0,
            Some(t) => counter(t).ok_or(PositionError::BadDrawCounter)?,
        };
        let number = match fields.next() {
            None => 1,
            Some(t) => counter(t)
                .filter(|n| (1..=MAX_MOVE_NUMBER).contains(n))
                .ok_or(PositionError::BadMoveNumber)?,
        };
        if fields.next().is_some() {
            return Err(PositionError::TrailingText);
        }
        // At most 2 × (2³¹ − 1) + 1 = u32::MAX.
        let ply = (number - 1) * 2 + side.index() as u32;
        Position::from_codes(&codes, side, quiet, ply)
    }

    /// The move number: 1 for the first move of each player, counting on after the second
    /// player's move (as in the notation).
    pub const fn move_number(&self) -> u32 {
        self.ply / 2 + 1
    }
}

fn parse_board(board: &str) -> Result<[u8; SQUARES], PositionError> {
    let found = board.split('/').count();
    if found != RANKS as usize {
        return Err(PositionError::RankCount { found });
    }
    let mut codes = [0u8; SQUARES];
    let mut seen = [false; 17];
    for (row, text) in board.split('/').enumerate() {
        let rank = RANKS - 1 - row as u8;
        let shown = rank + 1;
        let mut file = 0usize;
        let mut after_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=7).contains(d)) {
                if after_digit {
                    return Err(PositionError::DigitsInARow { rank: shown });
                }
                after_digit = true;
                file += d as usize;
                continue;
            }
            after_digit = false;
            if let Some(piece) = Piece::from_letter(c) {
                if file < FILES as usize {
                    let square = Square::new(file as u8, rank).expect("on the board");
                    if seen[piece.code() as usize] {
                        return Err(PositionError::Duplicate { piece, square });
                    }
                    seen[piece.code() as usize] = true;
                    codes[square.index()] = piece.code();
                }
                file += 1;
            } else {
                return Err(PositionError::UnknownLetter {
                    rank: shown,
                    letter: c,
                });
            }
        }
        if file != FILES as usize {
            return Err(PositionError::RankLength {
                rank: shown,
                squares: file,
            });
        }
    }
    Ok(codes)
}

impl FromStr for Position {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::parse(s)
    }
}

impl fmt::Display for Position {
    /// The notation. The counters are written only when they are not the defaults (draw counter
    /// 0, move number 1), so the start position prints as
    /// `l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..RANKS {
            if row > 0 {
                f.write_char('/')?;
            }
            let rank = RANKS - 1 - row;
            let mut empty = 0u8;
            for file in 0..FILES {
                let sq = Square::new(file, rank).expect("on the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            f.write_char((b'0' + empty) as char)?;
                            empty = 0;
                        }
                        f.write_char(p.letter())?;
                    }
                }
            }
            if empty > 0 {
                f.write_char((b'0' + empty) as char)?;
            }
        }
        write!(f, " {}", self.side.letter())?;
        if self.quiet != 0 || self.move_number() != 1 {
            write!(f, " {} {}", self.quiet, self.move_number())?;
        }
        Ok(())
    }
}

impl Move {
    /// Reads a move, `a3a4` (from, to). Only the squares are checked here; whether the move is
    /// legal is [`Position::check_move`]'s business.
    pub fn parse(text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        if text.len() != 4 || !text.is_ascii() {
            return Err(MoveError::Length);
        }
        let from = Square::parse(&text[..2]).ok_or(MoveError::From)?;
        let to = Square::parse(&text[2..]).ok_or(MoveError::To)?;
        Ok(Move::new(from, to))
    }
}

impl FromStr for Move {
    type Err = MoveError;
    fn from_str(s: &str) -> Result<Move, MoveError> {
        Move::parse(s)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}
