//! The symmetries of a rectangle: half a turn about the centre and the two mirrors (with the
//! identity, the Klein four-group). Start cells are images of one another under them, and walls
//! are placed in whole orbits, so that seats that are images of one another have the same game
//! (docs/LIGHTCYCLES.md, "Fairness").

use crate::geometry::{Dir, Pos, Turn};

/// A symmetry of a `width × height` grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    /// Half a turn about the centre: (x, y) → (w − 1 − x, h − 1 − y).
    HalfTurn,
    /// The mirror about the vertical centre line: (x, y) → (w − 1 − x, y).
    MirrorLeftRight,
    /// The mirror about the horizontal centre line: (x, y) → (x, h − 1 − y).
    MirrorTopBottom,
}

impl Symmetry {
    pub const ALL: [Symmetry; 4] = [
        Symmetry::Identity,
        Symmetry::HalfTurn,
        Symmetry::MirrorLeftRight,
        Symmetry::MirrorTopBottom,
    ];

    /// The image of `pos` on a `width × height` grid (which must hold `pos`).
    pub const fn pos(self, width: u32, height: u32, pos: Pos) -> Pos {
        let (fx, fy) = self.flips();
        let x = if fx { width as u8 - 1 - pos.x } else { pos.x };
        let y = if fy { height as u8 - 1 - pos.y } else { pos.y };
        Pos::new(x, y)
    }

    /// The image of a heading.
    pub const fn dir(self, dir: Dir) -> Dir {
        let (fx, fy) = self.flips();
        match dir {
            Dir::East | Dir::West if fx => dir.opposite(),
            Dir::North | Dir::South if fy => dir.opposite(),
            _ => dir,
        }
    }

    /// The image of a turn: a mirror swaps left and right, half a turn keeps them.
    pub const fn turn(self, turn: Turn) -> Turn {
        if self.reflects() {
            turn.mirrored()
        } else {
            turn
        }
    }

    /// Whether the symmetry is a mirror (it reverses left and right).
    pub const fn reflects(self) -> bool {
        matches!(self, Symmetry::MirrorLeftRight | Symmetry::MirrorTopBottom)
    }

    /// Whether x and y are reversed.
    const fn flips(self) -> (bool, bool) {
        match self {
            Symmetry::Identity => (false, false),
            Symmetry::HalfTurn => (true, true),
            Symmetry::MirrorLeftRight => (true, false),
            Symmetry::MirrorTopBottom => (false, true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_move_with_their_headings() {
        let (w, h) = (30, 20);
        let p = Pos::new(7, 5);
        for s in Symmetry::ALL {
            let q = s.pos(w, h, p);
            assert_eq!(s.pos(w, h, q), p, "{s:?} is its own inverse");
            for d in Dir::ALL {
                // The step's image is the image's step.
                let (dx, dy) = d.delta();
                let next = Pos::new((p.x as i32 + dx) as u8, (p.y as i32 + dy) as u8);
                let (ex, ey) = s.dir(d).delta();
                let image = Pos::new((q.x as i32 + ex) as u8, (q.y as i32 + ey) as u8);
                assert_eq!(s.pos(w, h, next), image, "{s:?} {d:?}");
                for t in Turn::ALL {
                    assert_eq!(s.dir(d.turned(t)), s.dir(d).turned(s.turn(t)), "{s:?}");
                }
            }
        }
        assert_eq!(Symmetry::HalfTurn.pos(w, h, p), Pos::new(22, 14));
    }
}
