//! The static evaluation, in points from the side to move's point of view: material, and how
//! close each piece stands to the enemy den. Tactics (captures, den threats) are the
//! quiescence search's business, not this function's.

use arena_agent_sdk::jungle::{Kind, Position, Side, Square, DENS, SQUARES, STEPS};

/// Piece values, rat to elephant. The rat is worth more than its rank: it alone takes the
/// elephant, and it blocks lake jumps.
pub const VALUE: [i32; 8] = [350, 200, 300, 400, 500, 800, 900, 1000];

/// Bonus by distance (in steps, ignoring water) to the enemy den: it grows quickly near the den,
/// where a piece threatens to enter.
const ADVANCE: [i32; 15] = [0, 120, 60, 40, 28, 20, 14, 10, 7, 5, 3, 2, 1, 0, 0];

/// `DISTANCE[side][square]`: steps from the square to the den `side` attacks.
const DISTANCE: [[u8; SQUARES]; 2] = {
    let mut t = [[0u8; SQUARES]; 2];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % 7) as i32, (sq / 7) as i32);
        let df = if file > 3 { file - 3 } else { 3 - file };
        t[0][sq] = (df + (8 - rank)) as u8;
        t[1][sq] = (df + rank) as u8;
        sq += 1;
    }
    t
};

/// Squares next to each side's den (its three traps): a piece of the other side there enters the
/// den on its next move.
pub const DEN_DOORS: [u64; 2] = [STEPS[3], STEPS[59]];
const _: () = assert!(DENS[0] == 1 << 3 && DENS[1] == 1 << 59);

/// Material and advancement of `side`.
fn side_score(p: &Position, side: Side) -> i32 {
    let mut s = 0;
    for kind in Kind::ALL {
        if let Some(sq) = p.square_of(side, kind) {
            s += VALUE[kind as usize] + ADVANCE[DISTANCE[side.index()][sq.index()] as usize];
        }
    }
    s
}

/// The evaluation of `p` for its side to move.
pub fn evaluate(p: &Position) -> i32 {
    let us = p.side_to_move();
    side_score(p, us) - side_score(p, us.opponent())
}

/// Steps from `sq` to the den `side` attacks.
pub fn den_distance(sq: Square, side: Side) -> u32 {
    DISTANCE[side.index()][sq.index()] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_even_and_advancing_pays() {
        let start = Position::start();
        assert_eq!(evaluate(&start), 0);
        let p = start.after(arena_agent_sdk::jungle::Move::parse("a3a4").unwrap());
        // The second player to move sees the first player one step further.
        assert!(evaluate(&p) < 0);
        let d9 = Square::parse("d9").unwrap();
        assert_eq!(den_distance(d9, Side::First), 0);
        assert_eq!(den_distance(Square::parse("a1").unwrap(), Side::First), 11);
        assert_eq!(den_distance(Square::parse("c1").unwrap(), Side::Second), 1);
        assert_eq!(DEN_DOORS[1].count_ones(), 3);
    }
}
