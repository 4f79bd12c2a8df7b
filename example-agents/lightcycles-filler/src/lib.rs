//! Filler: fills space. Of the turns into a free cell it takes the one that leaves the most
//! room (the cells it could still fill: the largest region next to the new cell, that cell
//! counted as taken, so that it never cuts itself off from the larger side; counted up to
//! [`ROOM_CAP`] cells), then one no other head can enter in the same tick, then the one with the
//! most walls and trails around the new cell (it hugs them, which leaves no holes behind), then
//! straight on.
//!
//! [`Filler::choose`] is the whole decision, on the rules' state.
#![no_std]

use arena_agent_sdk::lightcycles::{Dir, Grid, Pos, State, Turn, MAX_CELLS};
use arena_agent_sdk::{export_lightcycles_agent, LightcyclesAgent, LightcyclesView};

/// Regions are counted up to this many cells: beyond, any side is room enough, and counting
/// costs fuel (about 200 a cell under the sandbox; a region of the largest grid has 4,096).
pub const ROOM_CAP: usize = 400;

/// Regions of free cells, counted by flood fill. The marks are stamped rather than cleared, so a
/// fill costs the cells it visits, not the grid.
pub struct Flood {
    mark: [u32; MAX_CELLS],
    stamp: u32,
    stack: [u16; MAX_CELLS],
}

impl Default for Flood {
    fn default() -> Flood {
        Flood {
            mark: [0; MAX_CELLS],
            stamp: 0,
            stack: [0; MAX_CELLS],
        }
    }
}

impl Flood {
    /// Starts a new count: nothing is marked.
    fn begin(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark = [0; MAX_CELLS];
            self.stamp = 1;
        }
    }

    /// Marks `cell` as seen (so that fills go round it).
    fn block(&mut self, grid: &Grid, cell: Pos) {
        self.mark[grid.index(cell)] = self.stamp;
    }

    /// The free cells reachable from `from` (free itself, unmarked) through free unmarked cells,
    /// marking them; it stops counting at [`ROOM_CAP`].
    fn fill(&mut self, grid: &Grid, from: Pos) -> usize {
        let mut top = 0;
        let mut count = 0;
        let first = grid.index(from);
        self.mark[first] = self.stamp;
        self.stack[top] = first as u16;
        top += 1;
        while top > 0 && count < ROOM_CAP {
            top -= 1;
            let cell = grid.pos(self.stack[top] as usize);
            count += 1;
            for dir in Dir::ALL {
                if let Some(next) = grid.step(cell, dir) {
                    let i = grid.index(next);
                    if self.mark[i] != self.stamp && grid.is_free(next) {
                        self.mark[i] = self.stamp;
                        self.stack[top] = i as u16;
                        top += 1;
                    }
                }
            }
        }
        count
    }

    /// The room a cycle has after entering `cell`: 1 (the cell) + the largest region of free
    /// cells next to it, with `cell` taken, counted up to [`ROOM_CAP`].
    pub fn room(&mut self, grid: &Grid, cell: Pos) -> usize {
        self.begin();
        self.block(grid, cell);
        let mut largest = 0;
        for dir in Dir::ALL {
            if let Some(next) = grid.step(cell, dir) {
                if grid.is_free(next) && self.mark[grid.index(next)] != self.stamp {
                    largest = largest.max(self.fill(grid, next));
                }
            }
        }
        1 + largest
    }

    /// The free cells reachable from `from`'s free neighbours (`from` itself not counted), each
    /// region counted up to [`ROOM_CAP`].
    pub fn reach(&mut self, grid: &Grid, from: Pos) -> usize {
        self.begin();
        self.block(grid, from);
        let mut total = 0;
        for dir in Dir::ALL {
            if let Some(next) = grid.step(from, dir) {
                if grid.is_free(next) && self.mark[grid.index(next)] != self.stamp {
                    total += self.fill(grid, next);
                }
            }
        }
        total
    }
}

/// Walls, trails and the grid's edge around `cell`.
fn hugged(grid: &Grid, cell: Pos) -> usize {
    Dir::ALL
        .into_iter()
        .filter(|&d| grid.step(cell, d).is_none_or(|p| !grid.is_free(p)))
        .count()
}

#[derive(Default)]
pub struct Filler {
    flood: Flood,
}

impl Filler {
    /// The turn of `seat`'s cycle in `state` (see the crate's header); straight on when every
    /// turn dies.
    pub fn choose(&mut self, state: &State, seat: usize) -> Turn {
        let grid = state.grid();
        let mut best: Option<((usize, bool, usize, bool), Turn)> = None;
        for turn in Turn::ALL {
            let Some(cell) = state.target(seat, turn).filter(|&c| grid.is_free(c)) else {
                continue;
            };
            let key = (
                self.flood.room(grid, cell),
                !state.contested(seat, cell),
                hugged(grid, cell),
                turn == Turn::Straight,
            );
            if best.is_none_or(|(k, _)| key > k) {
                best = Some((key, turn));
            }
        }
        best.map_or(Turn::Straight, |(_, t)| t)
    }
}

impl LightcyclesAgent for Filler {
    fn choose_turn(&mut self, view: &LightcyclesView) -> Turn {
        self.choose(&view.state, view.seat)
    }
}

export_lightcycles_agent!(Filler, Filler::default());

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use arena_agent_sdk::lightcycles::picture::parse;
    use std::boxed::Box;

    fn choose(picture: &str, headings: &[Dir]) -> Turn {
        let state = parse(picture, headings, 300).expect("a picture");
        Box::<Filler>::default().choose(&state, 0)
    }

    #[test]
    fn never_into_the_smaller_side() {
        // Seat 0 heads north into a wall. The left (west) leads into a pocket of 3 cells, hugged
        // by walls; the right (east) to the rest of the grid: room comes first.
        let t = choose(
            "
            ........
            ........
            ########
            #...A...
            ####a...
            ####a...
            ........
            B.......",
            &[Dir::North, Dir::North],
        );
        assert_eq!(t, Turn::Right);
    }

    #[test]
    fn hugs_walls_and_trails() {
        // In the open, next to its own trail: turning toward the trail's side keeps close.
        let t = choose(
            "
            ........
            ........
            ..aA....
            ..a.....
            ........
            ........
            ........
            .......B",
            &[Dir::East, Dir::North],
        );
        // Heading east, every turn keeps the same room; around straight on (4, 2) and left
        // (3, 1) there is only its own head, around right (3, 3) the trail at (2, 3) too.
        assert_eq!(t, Turn::Right);
    }

    #[test]
    fn rooms_count_the_largest_side() {
        let state = parse(
            "
            ..#.....
            ..#.....
            ..#.....
            ..A.....
            ..#.....
            ..#.....
            ..#.....
            ..#....B",
            &[Dir::North, Dir::North],
            300,
        )
        .unwrap();
        let mut f = Box::<Flood>::default();
        let grid = state.grid();
        // From (2, 3): 16 free cells to the west, 39 to the east (seat 1's head takes one).
        assert_eq!(f.reach(grid, Pos::new(2, 3)), 16 + 39);
        // Entering (3, 3) leaves the other 38 of the east; (1, 3) the other 15 of the west.
        assert_eq!(f.room(grid, Pos::new(3, 3)), 1 + 38);
        assert_eq!(f.room(grid, Pos::new(1, 3)), 1 + 15);
    }
}
