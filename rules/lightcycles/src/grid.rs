//! The grid: what each cell holds, as the byte codes the ABI sends (0 empty, 1 wall, 2 + s the
//! trail of seat s, its head included). Stored row by row from the top-left, in a fixed array so
//! that the crate needs no allocator and a state can be copied.

use crate::geometry::{Dir, Pos};
use crate::settings::{MAX_CELLS, MAX_PLAYERS, MAX_SIDE, MIN_SIDE};

/// Code of an empty cell.
pub const EMPTY: u8 = 0;
/// Code of a wall.
pub const WALL: u8 = 1;
/// Code of the trail of seat 0; seat s is `TRAIL + s`.
pub const TRAIL: u8 = 2;

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Content {
    Empty,
    Wall,
    /// The trail of a seat (its head included; a dead cycle's trail stays).
    Trail(usize),
}

impl Content {
    pub const fn code(self) -> u8 {
        match self {
            Content::Empty => EMPTY,
            Content::Wall => WALL,
            Content::Trail(seat) => TRAIL + seat as u8,
        }
    }

    /// The content of a code; `None` above the last seat's trail.
    pub const fn from_code(code: u8) -> Option<Content> {
        match code {
            EMPTY => Some(Content::Empty),
            WALL => Some(Content::Wall),
            c if c < TRAIL + MAX_PLAYERS as u8 => Some(Content::Trail((c - TRAIL) as usize)),
            _ => None,
        }
    }
}

/// A rectangular grid of `width × height` cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    width: u8,
    height: u8,
    cells: [u8; MAX_CELLS],
}

impl core::fmt::Debug for Grid {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Grid")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("codes", &self.codes())
            .finish()
    }
}

impl Grid {
    /// An empty grid; `None` when a side is out of bounds (`MIN_SIDE` to `MAX_SIDE`).
    pub fn new(width: u32, height: u32) -> Option<Grid> {
        let sides = MIN_SIDE..=MAX_SIDE;
        if !sides.contains(&width) || !sides.contains(&height) {
            return None;
        }
        Some(Grid {
            width: width as u8,
            height: height as u8,
            cells: [EMPTY; MAX_CELLS],
        })
    }

    /// A grid of the given codes, row by row from the top-left; `None` when a side is out of
    /// bounds, `codes` is not `width × height` long, or a code is above the last seat's trail.
    pub fn from_codes(width: u32, height: u32, codes: &[u8]) -> Option<Grid> {
        let mut grid = Grid::new(width, height)?;
        if codes.len() != grid.len() || codes.iter().any(|&c| Content::from_code(c).is_none()) {
            return None;
        }
        grid.cells[..codes.len()].copy_from_slice(codes);
        Some(grid)
    }

    pub const fn width(&self) -> u32 {
        self.width as u32
    }

    pub const fn height(&self) -> u32 {
        self.height as u32
    }

    /// Cells of the grid.
    pub const fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Never: a grid has at least 64 cells.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The codes of every cell, row by row from the top-left (the ABI's grid).
    pub fn codes(&self) -> &[u8] {
        &self.cells[..self.len()]
    }

    /// Whether `pos` is on the grid.
    pub const fn contains(&self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// The index of `pos` in [`Grid::codes`]: `y × width + x`.
    pub const fn index(&self, pos: Pos) -> usize {
        pos.y as usize * self.width as usize + pos.x as usize
    }

    /// The cell at `index`.
    pub const fn pos(&self, index: usize) -> Pos {
        Pos::new(
            (index % self.width as usize) as u8,
            (index / self.width as usize) as u8,
        )
    }

    /// The cell one step from `pos` toward `dir`; `None` off the grid.
    pub fn step(&self, pos: Pos, dir: Dir) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        let x = pos.x as i32 + dx;
        let y = pos.y as i32 + dy;
        if x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            None
        } else {
            Some(Pos::new(x as u8, y as u8))
        }
    }

    /// The code of the cell at `pos` (which must be on the grid).
    pub fn code(&self, pos: Pos) -> u8 {
        self.cells[self.index(pos)]
    }

    /// What the cell at `pos` holds (which must be on the grid).
    pub fn get(&self, pos: Pos) -> Content {
        Content::from_code(self.code(pos)).unwrap_or(Content::Wall)
    }

    /// Whether a cycle may enter `pos`: on the grid and empty.
    pub fn is_free(&self, pos: Pos) -> bool {
        self.contains(pos) && self.code(pos) == EMPTY
    }

    /// Puts `content` at `pos` (which must be on the grid).
    pub fn set(&mut self, pos: Pos, content: Content) {
        let i = self.index(pos);
        self.cells[i] = content.code();
    }

    /// How many cells hold `content`.
    pub fn count(&self, content: Content) -> usize {
        let code = content.code();
        self.codes().iter().filter(|&&c| c == code).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_indices() {
        let mut g = Grid::new(30, 20).unwrap();
        assert_eq!(g.len(), 600);
        let p = Pos::new(29, 19);
        assert_eq!(g.index(p), 599);
        assert_eq!(g.pos(599), p);
        assert_eq!(g.step(p, Dir::East), None);
        assert_eq!(g.step(p, Dir::South), None);
        assert_eq!(g.step(p, Dir::North), Some(Pos::new(29, 18)));
        assert_eq!(g.step(Pos::new(0, 0), Dir::West), None);
        assert_eq!(g.step(Pos::new(0, 0), Dir::North), None);
        g.set(Pos::new(3, 4), Content::Trail(5));
        assert_eq!(g.code(Pos::new(3, 4)), 7);
        assert_eq!(g.get(Pos::new(3, 4)), Content::Trail(5));
        assert!(!g.is_free(Pos::new(3, 4)));
        assert!(g.is_free(Pos::new(4, 4)));
        assert!(!g.is_free(Pos::new(30, 4)));
        assert_eq!(g.count(Content::Trail(5)), 1);
        assert_eq!(g.codes()[4 * 30 + 3], 7);
        assert!(Grid::new(7, 20).is_none());
        assert!(Grid::new(30, 65).is_none());
    }

    #[test]
    fn codes_round_trip_and_are_checked() {
        let mut codes = [0u8; 64];
        codes[9] = 1;
        codes[10] = 7;
        let g = Grid::from_codes(8, 8, &codes).unwrap();
        assert_eq!(g.codes(), &codes);
        assert_eq!(g.get(Pos::new(1, 1)), Content::Wall);
        codes[10] = 8;
        assert!(Grid::from_codes(8, 8, &codes).is_none());
        assert!(Grid::from_codes(8, 8, &codes[..63]).is_none());
        for c in 0..8 {
            assert_eq!(Content::from_code(c).map(Content::code), Some(c));
        }
    }
}
