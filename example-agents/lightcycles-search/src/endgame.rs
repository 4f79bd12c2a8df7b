//! Once the two cycles are cut off from each other there is nothing left to fight for: each
//! fills its own region, and the one that fills more lasts longer. The search then takes, of the
//! turns into a free cell, the one that leaves it the most room (the larger side, when the cell
//! parts its region in two), then one no other head can enter in the same tick, then the one
//! that hugs walls and trails most (so that it leaves no holes), then straight on.

use arena_agent_sdk::fuel;
use arena_agent_sdk::lightcycles::{State, Turn};

use crate::board::Board;
use crate::search::{Search, EVAL_FUEL, ROW_FUEL};

impl Search {
    /// The space-filling turn of `seat` in `state` (see the module's header); straight on when
    /// every turn dies.
    pub fn fill(&mut self, state: &State, seat: usize) -> Turn {
        let mut board = Board::new(state.grid());
        let mut best: Option<((u32, bool, u32, bool), Turn)> = None;
        for turn in [Turn::Straight, Turn::Left, Turn::Right] {
            let Some(cell) = state
                .target(seat, turn)
                .filter(|&c| state.grid().is_free(c))
            else {
                continue;
            };
            let (room, steps) = board.room(cell);
            fuel::spend(EVAL_FUEL + ROW_FUEL * i64::from(steps));
            let hugged = 4 - board.free_around(cell);
            let key = (
                room,
                !state.contested(seat, cell),
                hugged,
                turn == Turn::Straight,
            );
            if best.is_none_or(|(k, _)| key > k) {
                best = Some((key, turn));
            }
        }
        best.map_or(Turn::Straight, |(_, t)| t)
    }
}
