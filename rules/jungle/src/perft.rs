//! Perft: the number of move sequences of a given length, the standard check of a move
//! generator.

use crate::position::{Move, Position};

/// The number of leaf nodes of the game tree `depth` plies deep from `position`. A game that is
/// won by a den entry stops there (its position has no children); the draw rules are ignored,
/// as in chess perft. Counts the moves of the last ply without playing them (bulk counting).
///
/// From the start: 24, 576, 12,240 and 260,099 for depths 1 to 4.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut p = *position;
    walk(&mut p, depth)
}

fn walk(p: &mut Position, depth: u32) -> u64 {
    if p.den_entered() {
        return 0;
    }
    if depth == 1 {
        return p.count_moves() as u64;
    }
    let moves = p.legal_moves();
    let mut n = 0;
    for &mv in &moves {
        let undo = p.make(mv);
        n += walk(p, depth - 1);
        p.unmake(mv, undo);
    }
    n
}

/// Perft split by the first move: calls `each` with every legal move of `position` and the leaf
/// count under it (`depth` ≥ 1), in move generation order. Returns the total.
pub fn perft_divide(position: &Position, depth: u32, mut each: impl FnMut(Move, u64)) -> u64 {
    if depth == 0 {
        return 1;
    }
    if position.den_entered() {
        return 0;
    }
    let mut total = 0;
    for &mv in &position.legal_moves() {
        let n = perft(&position.after(mv), depth - 1);
        each(mv, n);
        total += n;
    }
    total
}
