//! {{name}}: a light cycles agent (made by `arena new --game lightcycles`).
//!
//! At every tick it looks at the three cells its turns lead to: it drops those that kill it at
//! once (off the grid, a wall, a trail), prefers those no other head can enter in the same tick
//! (two heads entering one cell both die), then the one with the most room behind it (the free
//! cells it can still reach from there), then the one that hugs walls and trails most, so that it
//! fills its space without leaving holes. Edit `choose_turn` to make it yours: `view.state` is
//! the rules' state before the tick (`grid`, `cycles`, and `after`, which plays a tick with every
//! seat's answer exactly as the host does), and `fuel::fuel_left()` says how much fuel this
//! decision has left, for a search that deepens until its share of the fuel clock is spent
//! (docs/ABI.md, "The fuel clock").
//!
//! Build: cargo build --release --target wasm32-unknown-unknown
//! Check: arena check target/wasm32-unknown-unknown/release/{{lib}}.wasm
#![no_std]

use arena_agent_sdk::lightcycles::{Dir, Grid, Pos, State, Turn, MAX_CELLS};
use arena_agent_sdk::{export_lightcycles_agent, LightcyclesAgent, LightcyclesView};

/// Room is counted up to this many cells: beyond, any side is room enough, and every cell counted
/// costs fuel.
const ROOM_CAP: usize = 400;

pub struct Agent {
    /// Cells seen by the current flood fill (a stamp per fill, so that nothing is cleared).
    seen: [u32; MAX_CELLS],
    stamp: u32,
    stack: [u16; MAX_CELLS],
}

impl Default for Agent {
    fn default() -> Agent {
        Agent {
            seen: [0; MAX_CELLS],
            stamp: 0,
            stack: [0; MAX_CELLS],
        }
    }
}

impl Agent {
    /// The free cells reachable from `cell`'s free neighbours, `cell` counted as taken (up to
    /// `ROOM_CAP`).
    fn room(&mut self, grid: &Grid, cell: Pos) -> usize {
        self.stamp += 1;
        self.seen[grid.index(cell)] = self.stamp;
        let mut top = 0;
        let mut count = 0;
        for dir in Dir::ALL {
            if let Some(next) = grid.step(cell, dir).filter(|&p| grid.is_free(p)) {
                if self.seen[grid.index(next)] != self.stamp {
                    self.seen[grid.index(next)] = self.stamp;
                    self.stack[top] = grid.index(next) as u16;
                    top += 1;
                }
            }
        }
        while top > 0 && count < ROOM_CAP {
            top -= 1;
            count += 1;
            let here = grid.pos(self.stack[top] as usize);
            for dir in Dir::ALL {
                if let Some(next) = grid.step(here, dir).filter(|&p| grid.is_free(p)) {
                    if self.seen[grid.index(next)] != self.stamp {
                        self.seen[grid.index(next)] = self.stamp;
                        self.stack[top] = grid.index(next) as u16;
                        top += 1;
                    }
                }
            }
        }
        count
    }
}

/// Whether the head of another living cycle can enter `cell` in this tick.
fn contested(state: &State, seat: usize, cell: Pos) -> bool {
    let grid = state.grid();
    state.living().iter().filter(|&s| s != seat).any(|s| {
        let c = state.cycle(s);
        Turn::ALL
            .into_iter()
            .any(|t| grid.step(c.head, c.heading.turned(t)) == Some(cell))
    })
}

impl LightcyclesAgent for Agent {
    fn choose_turn(&mut self, view: &LightcyclesView) -> Turn {
        let (state, me) = (&view.state, view.me());
        let grid = state.grid();
        let mut best: Option<((bool, usize, usize), Turn)> = None;
        for turn in [Turn::Straight, Turn::Left, Turn::Right] {
            let Some(cell) = grid.step(me.head, me.heading.turned(turn)) else {
                continue;
            };
            if !grid.is_free(cell) {
                continue;
            }
            let walls = Dir::ALL
                .into_iter()
                .filter(|&d| grid.step(cell, d).is_none_or(|p| !grid.is_free(p)))
                .count();
            let key = (
                !contested(state, view.seat, cell),
                self.room(grid, cell),
                walls,
            );
            if best.is_none_or(|(k, _)| key > k) {
                best = Some((key, turn));
            }
        }
        // Every turn dies: straight on.
        best.map_or(Turn::Straight, |(_, turn)| turn)
    }
}

export_lightcycles_agent!(Agent);
