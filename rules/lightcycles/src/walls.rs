//! Walls placed from the seed (docs/LIGHTCYCLES.md, "Walls"). They come in orbits of the
//! rectangle's symmetries (four cells, two on a centre line of an odd side, one at the centre of
//! a grid with both sides odd), so that the grid looks the same from every seat that is an image
//! of another, and they keep away from the start cells and the two cells ahead of each.

use crate::geometry::Pos;
use crate::grid::{Content, Grid};
use crate::layout::Start;
use crate::random::Stream;
use crate::settings::MAX_CELLS;
use crate::symmetry::Symmetry;

/// Cells of the top-left quarter, centre lines included: one cell of each orbit.
const MAX_ORBITS: usize = MAX_CELLS / 4;

/// Puts walls on about `percent` % of the cells of `grid` (an empty grid), drawn with the seed's
/// stream: the orbits, listed by their cell in the top-left quarter in row order, are shuffled
/// (Fisher–Yates, from the last down), then taken in that order, skipping those that touch a
/// start cell or the two cells ahead of one, until the walls reach `cells × percent / 100`
/// (rounded down; the last orbit may go past it by up to three cells).
pub fn place(grid: &mut Grid, starts: &[Start], percent: u32, seed: u64) {
    let target = grid.len() * percent as usize / 100;
    if target == 0 {
        return;
    }
    let (w, h) = (grid.width(), grid.height());
    let mut orbits = [0u16; MAX_ORBITS];
    let mut n = 0;
    for y in 0..h.div_ceil(2) {
        for x in 0..w.div_ceil(2) {
            orbits[n] = grid.index(Pos::new(x as u8, y as u8)) as u16;
            n += 1;
        }
    }
    let orbits = &mut orbits[..n];
    let mut rng = Stream::walls(seed);
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        orbits.swap(i, j);
    }
    let mut walls = 0;
    for &cell in orbits.iter() {
        let cell = grid.pos(cell as usize);
        let images = Symmetry::ALL.map(|s| s.pos(w, h, cell));
        if images.iter().any(|&p| near_a_start(grid, starts, p)) {
            continue;
        }
        for (i, &p) in images.iter().enumerate() {
            if !images[..i].contains(&p) {
                grid.set(p, Content::Wall);
                walls += 1;
            }
        }
        if walls >= target {
            break;
        }
    }
}

/// Whether `pos` is a start cell or one of the two cells ahead of one.
fn near_a_start(grid: &Grid, starts: &[Start], pos: Pos) -> bool {
    starts.iter().any(|&(start, dir)| {
        let one = grid.step(start, dir);
        let two = one.and_then(|p| grid.step(p, dir));
        pos == start || one == Some(pos) || two == Some(pos)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::starts;

    fn walled(w: u32, h: u32, players: usize, percent: u32, seed: u64) -> Grid {
        let mut g = Grid::new(w, h).unwrap();
        let s = starts(w, h, players);
        place(&mut g, &s[..players], percent, seed);
        g
    }

    #[test]
    fn about_the_share_asked_and_symmetric() {
        for (w, h) in [(30, 20), (31, 21), (8, 8), (64, 9)] {
            for percent in [0, 5, 10, 25] {
                for seed in 0..20 {
                    let g = walled(w, h, 6, percent, seed);
                    let walls = g.count(Content::Wall);
                    let target = g.len() * percent as usize / 100;
                    assert!(
                        walls >= target && walls <= target + 3,
                        "{w}x{h} {percent}%: {walls}"
                    );
                    for i in 0..g.len() {
                        let p = g.pos(i);
                        for s in Symmetry::ALL {
                            assert_eq!(g.get(p), g.get(s.pos(w, h, p)), "{w}x{h} {p}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn walls_keep_off_the_starts() {
        for players in 2..=6 {
            for seed in 0..50 {
                let g = walled(30, 20, players, 25, seed);
                for &(start, dir) in &starts(30, 20, players)[..players] {
                    let one = g.step(start, dir).unwrap();
                    assert!(g.is_free(start) && g.is_free(one));
                    if let Some(two) = g.step(one, dir) {
                        assert!(g.is_free(two));
                    }
                }
            }
        }
    }

    #[test]
    fn the_seed_picks_them() {
        assert_eq!(walled(30, 20, 2, 10, 5), walled(30, 20, 2, 10, 5));
        assert_ne!(walled(30, 20, 2, 10, 5), walled(30, 20, 2, 10, 6));
        assert_eq!(walled(30, 20, 2, 0, 5), walled(30, 20, 2, 0, 6));
        assert_eq!(walled(30, 20, 2, 0, 5).count(Content::Wall), 0);
    }
}
