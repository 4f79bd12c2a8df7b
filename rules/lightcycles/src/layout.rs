//! Where the cycles start (docs/LIGHTCYCLES.md, "The start"). Seats come in pairs that are half a
//! turn apart, and four seats are the images of one another under both mirrors too, so that for
//! 2 and 4 players every seat has the same game:
//!
//! - 2 or 3 players: seat 0 a quarter of the way in from the left on the middle row, heading
//!   east; seat 1 its image half a turn about the centre (heading west).
//! - 4 to 6 players: seat 0 a quarter of the way in from the left and from the top, heading
//!   east; seat 1 its half-turn image, seat 2 its top-bottom mirror image, seat 3 its left-right
//!   mirror image (heading west).
//! - The seats left (the third of 3, the fifth and sixth of 5 or 6): on the middle column, at
//!   the top row heading south, then its half-turn image at the bottom row heading north.
//!
//! A rectangle has no symmetry taking one of three or five cells to each of the others, so with
//! 3, 5 or 6 players not every seat has the same game; a league rotates the seats (each agent
//! takes every seat in turn, with the same seed), which evens it out.

use crate::geometry::{Dir, Pos};
use crate::settings::MAX_PLAYERS;
use crate::symmetry::Symmetry;

/// A cycle's start: its cell and heading.
pub type Start = (Pos, Dir);

/// The start of every seat of a game of `players` (2 to 6) on a `width × height` grid (8 to 64
/// each); entries from `players` on are unused.
pub fn starts(width: u32, height: u32, players: usize) -> [Start; MAX_PLAYERS] {
    let image = |s: Symmetry, (pos, dir): Start| (s.pos(width, height, pos), s.dir(dir));
    let mut out = [(Pos::new(0, 0), Dir::North); MAX_PLAYERS];
    let quarter = (width / 4) as u8;
    let paired = if players >= 4 {
        let first = (Pos::new(quarter, (height / 4) as u8), Dir::East);
        out[0] = first;
        out[1] = image(Symmetry::HalfTurn, first);
        out[2] = image(Symmetry::MirrorTopBottom, first);
        out[3] = image(Symmetry::MirrorLeftRight, first);
        4
    } else {
        let first = (Pos::new(quarter, ((height - 1) / 2) as u8), Dir::East);
        out[0] = first;
        out[1] = image(Symmetry::HalfTurn, first);
        2
    };
    let top = (Pos::new(((width - 1) / 2) as u8, 0), Dir::South);
    for (i, slot) in out.iter_mut().enumerate().take(players).skip(paired) {
        *slot = if i == paired {
            top
        } else {
            image(Symmetry::HalfTurn, top)
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn the_default_grid() {
        let s = starts(30, 20, 2);
        assert_eq!(
            s[..2],
            [(Pos::new(7, 9), Dir::East), (Pos::new(22, 10), Dir::West)]
        );
        let s = starts(30, 20, 6);
        assert_eq!(
            s,
            [
                (Pos::new(7, 5), Dir::East),
                (Pos::new(22, 14), Dir::West),
                (Pos::new(7, 14), Dir::East),
                (Pos::new(22, 5), Dir::West),
                (Pos::new(14, 0), Dir::South),
                (Pos::new(15, 19), Dir::North),
            ]
        );
        assert_eq!(starts(30, 20, 3)[2], (Pos::new(14, 0), Dir::South));
    }

    /// On every grid and for every number of players, the start cells and the cells one step
    /// ahead of them are on the grid and all different: nobody dies at the first tick by going
    /// straight.
    #[test]
    fn starts_are_apart_on_every_grid() {
        for width in 8..=64 {
            for height in 8..=64 {
                let grid = Grid::new(width, height).unwrap();
                for players in 2..=MAX_PLAYERS {
                    let s = starts(width, height, players);
                    let mut cells = [Pos::new(0, 0); 2 * MAX_PLAYERS];
                    for (i, &(pos, dir)) in s[..players].iter().enumerate() {
                        assert!(grid.contains(pos));
                        cells[2 * i] = pos;
                        cells[2 * i + 1] = grid.step(pos, dir).expect("a cell ahead");
                    }
                    let cells = &mut cells[..2 * players];
                    cells.sort();
                    assert!(
                        cells.windows(2).all(|w| w[0] != w[1]),
                        "{width} x {height}, {players} players: {s:?}"
                    );
                }
            }
        }
    }
}
