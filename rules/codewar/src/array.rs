//! The Array: a ring of cells, each empty or holding an agent.

use alloc::sync::Arc;
use alloc::vec::Vec;

/// What the rules need of an agent's code: its bytes (a WebAssembly module for the arena; any
/// bytes for a native executor). Cloning must be cheap: copies share one code.
pub trait Code: Clone + AsRef<[u8]> {}
impl<T: Clone + AsRef<[u8]>> Code for T {}

/// A seat number: who owns a cell, whom it claims to belong to.
pub type Seat = usize;

/// An agent in a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell<C> {
    /// The module's bytes; never empty (empty bytes empty the cell).
    pub code: C,
    /// The player the agent really belongs to (Perlwar's `$O`).
    pub owner: Seat,
    /// The player it claims to belong to (Perlwar's `$o`); its owner when it enters.
    pub facade: Seat,
    /// False for an agent copied into the cell during this iteration: it runs from the next.
    pub may_run: bool,
}

impl<C: Code> Cell<C> {
    /// A newcomer of `owner`, which may run in this iteration.
    pub fn new(code: C, owner: Seat) -> Cell<C> {
        Cell {
            code,
            owner,
            facade: owner,
            may_run: true,
        }
    }

    /// The code's length in bytes.
    pub fn len(&self) -> usize {
        self.code.as_ref().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The cells, `None` for an empty one. Shared with the executor during a visit (an agent reads
/// the Array as it is when its visit begins); changed copy-on-write afterwards, which copies
/// nothing once the executor has let go of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array<C> {
    cells: Arc<Vec<Option<Cell<C>>>>,
}

impl<C: Code> Array<C> {
    /// An Array of `size` empty cells.
    pub fn new(size: usize) -> Array<C> {
        Array {
            cells: Arc::new((0..size).map(|_| None).collect()),
        }
    }

    /// An Array with the given cells.
    pub fn from_cells(cells: Vec<Option<Cell<C>>>) -> Array<C> {
        Array {
            cells: Arc::new(cells),
        }
    }

    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// The cells, in order.
    pub fn cells(&self) -> &[Option<Cell<C>>] {
        &self.cells
    }

    /// The cells, shared (what an executor keeps during a visit).
    pub fn shared(&self) -> Arc<Vec<Option<Cell<C>>>> {
        Arc::clone(&self.cells)
    }

    pub fn get(&self, index: usize) -> Option<&Cell<C>> {
        self.cells.get(index).and_then(Option::as_ref)
    }

    /// The cell at `index`, to change (copies the cells if an executor still shares them).
    pub fn slot_mut(&mut self, index: usize) -> &mut Option<Cell<C>> {
        &mut Arc::make_mut(&mut self.cells)[index]
    }

    /// The absolute index of the cell `offset` cells from `from`, around the ring.
    pub fn wrap(&self, from: usize, offset: i64) -> usize {
        let n = self.cells.len() as i64;
        (from as i64 + offset).rem_euclid(n) as usize
    }

    /// Cells owned by `seat`.
    pub fn owned_by(&self, seat: Seat) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|c| c.owner == seat)
            .count()
    }

    /// Cells owned by each of `players` seats.
    pub fn counts(&self, players: usize) -> Vec<u32> {
        let mut counts = alloc::vec![0u32; players];
        for c in self.cells.iter().flatten() {
            if let Some(n) = counts.get_mut(c.owner) {
                *n += 1;
            }
        }
        counts
    }

    /// Indexes of the empty cells, in order.
    pub fn empty_cells(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i].is_none())
            .collect()
    }

    /// Indexes of the cells `seat` owns, in order.
    pub fn cells_of(&self, seat: Seat) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i].as_ref().is_some_and(|c| c.owner == seat))
            .collect()
    }

    /// Every cell may run again (the start of an iteration).
    pub fn allow_all(&mut self) {
        if self.cells.iter().flatten().all(|c| c.may_run) {
            return;
        }
        for c in Arc::make_mut(&mut self.cells).iter_mut().flatten() {
            c.may_run = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn wraps_both_ways() {
        let a: Array<Vec<u8>> = Array::new(97);
        assert_eq!(a.wrap(0, -1), 96);
        assert_eq!(a.wrap(96, 1), 0);
        assert_eq!(a.wrap(10, 13), 23);
        assert_eq!(a.wrap(90, 13), 6);
        assert_eq!(a.wrap(5, -96), 6);
    }

    #[test]
    fn shared_cells_are_copied_on_write() {
        let mut a: Array<Vec<u8>> = Array::new(3);
        let seen = a.shared();
        *a.slot_mut(1) = Some(Cell::new(vec![1], 0));
        assert!(seen[1].is_none(), "the executor's view did not change");
        assert_eq!(a.owned_by(0), 1);
        assert_eq!(a.counts(2), [1, 0]);
        assert_eq!(a.empty_cells(), [0, 2]);
        assert_eq!(a.cells_of(0), [1]);
    }
}
