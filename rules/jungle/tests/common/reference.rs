//! A slow, obviously correct Jungle move generator, written from the rules' text with file and
//! rank coordinates and no bitboards, to check the crate's generator against. It reads a
//! position only through its public accessors.

use jungle_rules::{Kind, Piece, Position, Side, Square};

/// Water: files b, c, e, f on ranks 4 to 6 (coordinates from 0).
pub fn is_water(file: i32, rank: i32) -> bool {
    matches!(file, 1 | 2 | 4 | 5) && (3..=5).contains(&rank)
}

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// The den of `side`.
pub fn is_den(side: Side, file: i32, rank: i32) -> bool {
    let den = match side {
        Side::First => "d1",
        Side::Second => "d9",
    };
    name(file, rank) == den
}

/// The traps around `side`'s den.
pub fn is_trap(side: Side, file: i32, rank: i32) -> bool {
    let traps = match side {
        Side::First => ["c1", "e1", "d2"],
        Side::Second => ["c9", "e9", "d8"],
    };
    traps.contains(&name(file, rank).as_str())
}

fn at(p: &Position, file: i32, rank: i32) -> Option<Piece> {
    p.piece_at(Square::new(file as u8, rank as u8).unwrap())
}

fn on_board(file: i32, rank: i32) -> bool {
    (0..7).contains(&file) && (0..9).contains(&rank)
}

/// May `attacker`, standing on (af, ar), capture `defender` standing on (df, dr)?
pub fn may_capture(attacker: Piece, af: i32, ar: i32, defender: Piece, df: i32, dr: i32) -> bool {
    // "An animal in an enemy pitfall can be captured by any other animal."
    if is_trap(attacker.side, df, dr) {
        return true;
    }
    match (attacker.kind, defender.kind) {
        // The rat kills the elephant, but not from the water.
        (Kind::Rat, Kind::Elephant) => !is_water(af, ar),
        // The elephant is weaker than the rat.
        (Kind::Elephant, Kind::Rat) => false,
        // Same or lesser value (a rat on land or in water takes a rat on land or in water).
        (a, d) => a.rank() >= d.rank(),
    }
}

/// Every legal move of the side to move, as (from, to), in no particular order.
pub fn legal_moves(p: &Position) -> Vec<(Square, Square)> {
    let us = p.side_to_move();
    let mut out = Vec::new();
    for rank in 0..9 {
        for file in 0..7 {
            let Some(piece) = at(p, file, rank) else {
                continue;
            };
            if piece.side != us {
                continue;
            }
            for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let (mut f, mut r) = (file + df, rank + dr);
                if !on_board(f, r) {
                    continue;
                }
                if is_water(f, r) {
                    match piece.kind {
                        Kind::Rat => {}
                        Kind::Lion | Kind::Tiger => {
                            // Leap in a straight line across the lake, unless a rat swims
                            // on the way.
                            let mut blocked = false;
                            while is_water(f, r) {
                                if matches!(at(p, f, r), Some(q) if q.kind == Kind::Rat) {
                                    blocked = true;
                                }
                                f += df;
                                r += dr;
                            }
                            if blocked {
                                continue;
                            }
                        }
                        _ => continue,
                    }
                }
                if is_den(us, f, r) {
                    continue;
                }
                match at(p, f, r) {
                    Some(q) if q.side == us => continue,
                    Some(q) if !may_capture(piece, file, rank, q, f, r) => continue,
                    _ => {}
                }
                out.push((
                    Square::new(file as u8, rank as u8).unwrap(),
                    Square::new(f as u8, r as u8).unwrap(),
                ));
            }
        }
    }
    out
}

/// The position after (from, to), rebuilt from scratch through the notation.
pub fn play(p: &Position, from: Square, to: Square) -> Position {
    let mut codes = *p.codes();
    let captured = codes[to.index()] != 0;
    codes[to.index()] = codes[from.index()];
    codes[from.index()] = 0;
    let quiet = if captured {
        0
    } else {
        p.plies_since_capture() + 1
    };
    Position::from_codes(&codes, p.side_to_move().opponent(), quiet, p.ply() + 1)
        .expect("a legal move gives a valid position")
}

/// Perft with the reference generator (stopping at a den entry).
pub fn perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let them = p.side_to_move().opponent();
    let entered = (0..63u8).any(|i| {
        let s = Square::from_index(i).unwrap();
        matches!(p.piece_at(s), Some(q) if q.side == them)
            && is_den(p.side_to_move(), s.file() as i32, s.rank() as i32)
    });
    if entered {
        return 0;
    }
    legal_moves(p)
        .into_iter()
        .map(|(f, t)| perft(&play(p, f, t), depth - 1))
        .sum()
}
