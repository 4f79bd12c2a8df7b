//! The text notation of positions and moves.
//!
//! A position: the ranks from the top (rank 9, the second player's side) down, separated by `/`;
//! in each rank, from file a to g, a letter per piece (`r` rat, `c` cat, `d` dog, `w` wolf, `p`
//! leopard, `t` tiger, `l` lion, `e` elephant; upper case for the first player) and a digit for a
//! run of empty squares; then a space and `w` (the first player to move) or `b`. Two optional
//! fields may follow, as in chess's FEN: the plies since the last capture (the draw counter,
//! default 0) and the move number (from 1, counting a move of each player; default 1). A move is
//! its two squares, `a3a4`.

use core::fmt::{self, Write};
use core::str::FromStr;

use crate::board::{Piece, Side, Square, FILES, RANKS, SQUARES};
use crate::error::{MoveError, PositionError};
use crate::position::{Move, Position};

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
            Some(t) => t
                .parse::<u32>()
                .map_err(|_| PositionError::BadDrawCounter)?,
        };
        let number = match fields.next() {
            None => 1,
            Some(t) => match t.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(PositionError::BadMoveNumber),
            },
        };
        if fields.next().is_some() {
            return Err(PositionError::TrailingText);
        }
        let ply = (number - 1)
            .checked_mul(2)
            .and_then(|p| p.checked_add(side.index() as u32))
            .ok_or(PositionError::BadMoveNumber)?;
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
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=7).contains(d)) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_letter(c) {
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
