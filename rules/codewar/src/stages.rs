//! One iteration as a pipeline of stages (docs/CODEWAR.md, "An iteration"): newcomers enter,
//! players without a cell are eliminated, every cell is visited in order, and the iteration ends
//! with another elimination.

use alloc::vec::Vec;

use crate::array::{Array, Cell, Code, Seat};
use crate::random::Stream;
use crate::settings::Settings;
use crate::visit::{self, Executor, View, Visit};

/// Where a player's module entered the Array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    pub seat: Seat,
    /// The cell it went to; `None` when it was discarded (no empty cell, and no cell of the
    /// player to replace).
    pub cell: Option<usize>,
    /// True when the Array was full and it replaced one of the player's own agents.
    pub replaced: bool,
}

/// Stage 1: the modules of the players still in the game enter the Array, in seat order, each at
/// a random empty cell; when none is empty, in place of a random agent of the player's own; when
/// the player has none, it is discarded. A newcomer runs in this iteration.
pub fn enter<C: Code>(
    array: &mut Array<C>,
    modules: &[C],
    in_game: &[bool],
    rng: &mut Stream,
) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (seat, module) in modules.iter().enumerate() {
        if !in_game[seat] {
            continue;
        }
        let empty = array.empty_cells();
        let (cell, replaced) = if !empty.is_empty() {
            (Some(empty[rng.below(empty.len() as u32) as usize]), false)
        } else {
            let own = array.cells_of(seat);
            if own.is_empty() {
                (None, false)
            } else {
                (Some(own[rng.below(own.len() as u32) as usize]), true)
            }
        };
        if let Some(c) = cell {
            *array.slot_mut(c) = Some(Cell::new(module.clone(), seat));
        }
        entries.push(Entry {
            seat,
            cell,
            replaced,
        });
    }
    entries
}

/// Stages 2 and 4: the players still in the game who own no cell are out, in seat order.
pub fn eliminate<C: Code>(array: &Array<C>, in_game: &mut [bool]) -> Vec<Seat> {
    let counts = array.counts(in_game.len());
    let mut out = Vec::new();
    for (seat, playing) in in_game.iter_mut().enumerate() {
        if *playing && counts[seat] == 0 {
            *playing = false;
            out.push(seat);
        }
    }
    out
}

/// What every visit of an iteration shares.
#[derive(Clone, Copy, Debug)]
pub struct Round<'a> {
    pub settings: &'a Settings,
    pub seed: u64,
    pub players: usize,
    /// From 1.
    pub iteration: u32,
    /// The maximal agent size of this iteration.
    pub max_size: u32,
}

/// Stage 3: visits every cell in order, 0 to N − 1; empty cells and agents copied during this
/// iteration are skipped.
pub fn visit_all<C: Code>(
    array: &mut Array<C>,
    round: Round<'_>,
    executor: &mut impl Executor<C>,
) -> Vec<Visit<C>> {
    let mut visits = Vec::new();
    for cell in 0..array.size() {
        if let Some(v) = visit_one(array, round, cell, executor) {
            visits.push(v);
        }
    }
    visits
}

/// Visits one cell (nothing when it is empty or may not run).
pub fn visit_one<C: Code>(
    array: &mut Array<C>,
    round: Round<'_>,
    cell: usize,
    executor: &mut impl Executor<C>,
) -> Option<Visit<C>> {
    let make_view = |cells, owner| View {
        cells,
        position: cell,
        owner,
        players: round.players,
        max_size: round.max_size,
        iterations: round.settings.iterations,
        iteration: round.iteration,
        random: Stream::visit(round.seed, round.iteration, cell as u32),
    };
    visit::visit(array, cell, round.max_size, make_view, executor)
}
