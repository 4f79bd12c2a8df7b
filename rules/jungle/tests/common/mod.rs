//! Helpers shared by the rules tests: positions from a list of pieces, moves as text.
#![allow(dead_code)]

pub mod reference;

use jungle_rules::{Move, Position, Square};

/// The notation of a position with `pieces` (square name, notation letter) and `side` to move
/// (`'w'` or `'b'`); the board is built square by square so that tests name squares, not runs.
pub fn notation(pieces: &[(&str, char)], side: char) -> String {
    let mut grid = [[None::<char>; 7]; 9];
    for &(sq, letter) in pieces {
        let s = Square::parse(sq).unwrap_or_else(|| panic!("bad square {sq}"));
        assert!(
            grid[s.rank() as usize][s.file() as usize].is_none(),
            "{sq} twice"
        );
        grid[s.rank() as usize][s.file() as usize] = Some(letter);
    }
    let mut out = String::new();
    for (rank, row) in grid.iter().enumerate().rev() {
        let mut empty = 0;
        for &cell in row {
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(side);
    out
}

/// The position with `pieces` and `side` to move; panics if it is refused.
pub fn pos(pieces: &[(&str, char)], side: char) -> Position {
    let text = notation(pieces, side);
    Position::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn mv(text: &str) -> Move {
    Move::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves of the piece on `from`, as `to` squares, sorted.
pub fn targets(p: &Position, from: &str) -> Vec<String> {
    let from = Square::parse(from).unwrap();
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from == from)
        .map(|m| m.to.to_string())
        .collect();
    v.sort();
    v
}
