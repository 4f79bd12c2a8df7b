//! The search's own board and its evaluation, one 64-bit word a row (bit x of row y set when the
//! cell (x, y) is free), so that a breadth-first search moves a whole row's frontier with a few
//! shifts: fuel counts WebAssembly instructions, and a search that visits cell by cell spent
//! about 310 fuel a cell visited under the sandbox.

use arena_agent_sdk::lightcycles::{Dir, Grid, Pos, MAX_SIDE};

/// Rows of the tallest grid.
const ROWS: usize = MAX_SIDE as usize;

/// Free cells, a word a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    free: [u64; ROWS],
}

/// A set of cells of the board, a word a row.
type Rows = [u64; ROWS];

impl Board {
    pub fn new(grid: &Grid) -> Board {
        let mut free = [0u64; ROWS];
        for (i, &code) in grid.codes().iter().enumerate() {
            if code == 0 {
                let p = grid.pos(i);
                free[p.y as usize] |= 1 << p.x;
            }
        }
        Board {
            width: grid.width() as usize,
            height: grid.height() as usize,
            free,
        }
    }

    /// The cell one step from `p` toward `dir`; `None` off the grid.
    #[inline]
    pub fn step(&self, p: Pos, dir: Dir) -> Option<Pos> {
        let (x, y) = (p.x as usize, p.y as usize);
        match dir {
            Dir::North if y > 0 => Some(Pos::new(p.x, p.y - 1)),
            Dir::East if x + 1 < self.width => Some(Pos::new(p.x + 1, p.y)),
            Dir::South if y + 1 < self.height => Some(Pos::new(p.x, p.y + 1)),
            Dir::West if x > 0 => Some(Pos::new(p.x - 1, p.y)),
            _ => None,
        }
    }

    #[inline]
    pub fn is_free(&self, p: Pos) -> bool {
        self.free[p.y as usize & (ROWS - 1)] >> (p.x & 63) & 1 == 1
    }

    #[inline]
    pub fn take(&mut self, p: Pos) {
        self.free[p.y as usize & (ROWS - 1)] &= !(1 << (p.x & 63));
    }

    #[inline]
    pub fn release(&mut self, p: Pos) {
        self.free[p.y as usize & (ROWS - 1)] |= 1 << (p.x & 63);
    }

    /// The cells next to the cells of `set` in row `y` (whatever they hold).
    #[inline]
    fn around(&self, set: &Rows, y: usize) -> u64 {
        around(set, y, self.height - 1)
    }

    /// Free cells next to `p`, the grid's edge, walls and trails not counted.
    pub fn free_around(&self, p: Pos) -> u32 {
        let mut one = [0u64; ROWS];
        one[p.y as usize] = 1 << p.x;
        let y = p.y as usize;
        let lo = y.saturating_sub(1);
        let hi = (y + 1).min(self.height - 1);
        (lo..=hi)
            .map(|r| (self.around(&one, r) & self.free[r]).count_ones())
            .sum()
    }

    /// The free cells reachable from `start` (a free cell, counted) through free cells, added
    /// to `seen`; `steps` counts the rows the search went over, step by step (what it cost).
    /// Written for the fuel meter as [`territory`] is.
    fn flood(&self, start: Pos, seen: &mut Rows, steps: &mut u32) -> u32 {
        let last = self.height - 1;
        let mut front = [[0u64; ROWS]; 2];
        let mut open = self.free;
        let sy = start.y as usize & (ROWS - 1);
        front[0][sy] = 1 << (start.x & 63);
        open[sy] &= !(1 << (start.x & 63));
        let mut count = 1;
        let (mut lo, mut hi, mut cur) = (sy, sy, 0);
        loop {
            let next = cur ^ 1;
            let (from, to) = (lo.saturating_sub(1), (hi + 1).min(last));
            let (mut new_lo, mut new_hi, mut grew) = (usize::MAX, 0, false);
            for y in from..=to {
                let y = y & (ROWS - 1);
                let n = around(&front[cur], y, last) & open[y];
                front[next][y] = n;
                open[y] &= !n;
                if n != 0 {
                    count += n.count_ones();
                    grew = true;
                    new_lo = new_lo.min(y);
                    new_hi = y;
                }
            }
            *steps += (to - from + 1) as u32;
            for y in lo..=hi {
                front[cur][y & (ROWS - 1)] = 0;
            }
            if !grew {
                break;
            }
            (cur, lo, hi) = (next, new_lo, new_hi);
        }
        for y in 0..self.height {
            seen[y] |= self.free[y] & !open[y];
        }
        count
    }

    /// The room a head has after entering the free cell `cell`: 1 (the cell) + the largest
    /// region of free cells next to it, with `cell` taken (so that a cell that cuts a region in
    /// two counts only the larger side). Also the rows the floods went over.
    pub fn room(&mut self, cell: Pos) -> (u32, u32) {
        self.take(cell);
        let (mut largest, mut steps) = (0, 0);
        let mut seen = [0u64; ROWS];
        for dir in Dir::ALL {
            let Some(n) = self.step(cell, dir) else {
                continue;
            };
            if !self.is_free(n) || seen[n.y as usize] >> n.x & 1 == 1 {
                continue;
            }
            largest = largest.max(self.flood(n, &mut seen, &mut steps));
        }
        self.release(cell);
        (1 + largest, steps)
    }
}

/// How the free cells divide between two heads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Territory {
    /// Free cells the first head reaches strictly before the second.
    pub mine: i32,
    /// Free cells the second head reaches strictly before the first.
    pub theirs: i32,
    /// Whether the two regions touch (a cell both reach at once, or a cell of one next to a cell
    /// or the head of the other): when they do not, each head is cut off from the other and
    /// `mine` and `theirs` are the whole regions they can fill.
    pub contact: bool,
    /// Rows the search went over, step by step (what it cost).
    pub steps: u32,
}

/// The cells of row `y` next to the cells of `f` (left and right in the row, and the rows above
/// and below, up to row `last`), whatever they hold. The masks let the compiler drop the bounds
/// checks (fuel).
#[inline(always)]
fn around(f: &Rows, y: usize, last: usize) -> u64 {
    let up = if y > 0 { f[(y - 1) & (ROWS - 1)] } else { 0 };
    let down = if y < last { f[(y + 1) & (ROWS - 1)] } else { 0 };
    f[y] << 1 | f[y] >> 1 | up | down
}

/// The territory of the heads at `me` and `them` on `board`: one breadth-first search from both
/// at once, a step of distance at a time; a cell both reach at the same step is nobody's and the
/// search goes no further from it.
///
/// Written for the fuel meter: the arrays are zeroed once, a step goes over the rows next to
/// the frontier only, and the frontiers are two buffers used in turn (a copy of an array costs
/// a unit of fuel a byte).
pub fn territory(board: &Board, me: Pos, them: Pos) -> Territory {
    let h = board.height;
    let last = h - 1;
    let mut front_m = [[0u64; ROWS]; 2];
    let mut front_t = [[0u64; ROWS]; 2];
    let mut own_m = [0u64; ROWS];
    let mut own_t = [0u64; ROWS];
    let mut open = board.free;
    let (my, ty) = (me.y as usize & (ROWS - 1), them.y as usize & (ROWS - 1));
    front_m[0][my] = 1 << (me.x & 63);
    front_t[0][ty] = 1 << (them.x & 63);
    let (mut lo, mut hi) = (my.min(ty), my.max(ty));
    let (mut cur, mut steps, mut contact) = (0, 0u32, false);
    loop {
        let next = cur ^ 1;
        let (from, to) = (lo.saturating_sub(1), (hi + 1).min(last));
        let (mut new_lo, mut new_hi, mut grew) = (usize::MAX, 0, false);
        for y in from..=to {
            let y = y & (ROWS - 1);
            let m = around(&front_m[cur], y, last) & open[y];
            let t = around(&front_t[cur], y, last) & open[y];
            let both = m & t;
            front_m[next][y] = m ^ both;
            front_t[next][y] = t ^ both;
            own_m[y] |= m ^ both;
            own_t[y] |= t ^ both;
            open[y] &= !(m | t);
            contact |= both != 0;
            if m | t != 0 {
                grew = true;
                new_lo = new_lo.min(y);
                new_hi = y;
            }
        }
        steps += (to - from + 1) as u32;
        // The old frontier's rows are cleared, so that the buffer reads as empty when its turn
        // comes again.
        for y in lo..=hi {
            front_m[cur][y & (ROWS - 1)] = 0;
            front_t[cur][y & (ROWS - 1)] = 0;
        }
        if !grew {
            break;
        }
        (cur, lo, hi) = (next, new_lo, new_hi);
    }
    let count = |own: &[u64; ROWS]| own[..h].iter().map(|r| r.count_ones() as i32).sum();
    let (mine, theirs) = (count(&own_m), count(&own_t));
    // Regions that touch: a cell (or the head) of one next to a cell (or the head) of the other.
    if !contact {
        own_m[my] |= 1 << (me.x & 63);
        own_t[ty] |= 1 << (them.x & 63);
        contact = (0..h).any(|y| board.around(&own_m, y) & own_t[y] != 0);
    }
    Territory {
        mine,
        theirs,
        contact,
        steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_agent_sdk::lightcycles::picture::parse;

    fn split(picture: &str) -> Territory {
        let s = parse(picture, &[Dir::North, Dir::North], 100).unwrap();
        let board = Board::new(s.grid());
        territory(&board, s.cycle(0).head, s.cycle(1).head)
    }

    #[test]
    fn territory_by_distance() {
        // The heads on one row of an open grid: each gets the columns nearer to it, and
        // column 4, as near to both, is nobody's.
        let t = split(
            "
            ........
            ........
            ........
            ..A...B.
            ........
            ........
            ........
            ........",
        );
        assert_eq!((t.mine, t.theirs, t.contact), (4 * 8 - 1, 3 * 8 - 1, true));
    }

    #[test]
    fn a_cell_nobody_owns_stops_the_search() {
        // Both heads reach (3, 3) at the same step: it is nobody's, and the pocket behind it,
        // (3, 2), is reached by nobody.
        let t = split(
            "
            ########
            ########
            ###.####
            A.....B#
            ########
            ########
            ########
            ########",
        );
        assert_eq!((t.mine, t.theirs, t.contact), (2, 2, true));
    }

    #[test]
    fn cut_off_regions_are_counted_whole() {
        let t = split(
            "
            ...#....
            ...#....
            ...#....
            .A.#..B.
            ...#....
            ...#....
            ...#....
            ...#....",
        );
        assert_eq!((t.mine, t.theirs, t.contact), (3 * 8 - 1, 4 * 8 - 1, false));
        // Heads side by side across nothing but each other: in contact.
        let t = split(
            "
            ........
            ........
            ........
            ...AB...
            ...a#...
            ...a#...
            ...a#...
            ...a#...",
        );
        assert!(t.contact);
    }

    #[test]
    fn room_counts_the_larger_side() {
        let s = parse(
            "
            ........
            ........
            ####.###
            #..A....
            ####a###
            ....a...
            ....a...
            ...B....",
            &[Dir::North, Dir::North],
            100,
        )
        .unwrap();
        let mut board = Board::new(s.grid());
        // The head at (3, 3), its trail below the wall of row 4 (a picture need not be a
        // game's). (2, 3), west of the head, leads only to (1, 3).
        assert_eq!(board.room(Pos::new(2, 3)).0, 1 + 1);
        // (4, 2), the gap, parts the top two rows (16 cells) from the east of row 3 (4).
        assert_eq!(board.room(Pos::new(4, 2)).0, 1 + 16);
        // (4, 3), east of the head, parts the gap and the top rows (17) from row 3's east (3).
        assert_eq!(board.room(Pos::new(4, 3)).0, 1 + 17);
        // The board is as it was.
        assert_eq!(board, Board::new(s.grid()));
        assert_eq!(board.free_around(Pos::new(4, 3)), 2);
    }
}
