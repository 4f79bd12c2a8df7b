//! Where things are on the grid and which way they go: cells as (x, y) with y growing downward
//! (row 0 is the top row, as the grid is drawn and sent), the four headings and the three turns.

/// A cell of the grid: `x` from 0 (the left column), `y` from 0 (the top row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub x: u8,
    pub y: u8,
}

impl Pos {
    pub const fn new(x: u8, y: u8) -> Pos {
        Pos { x, y }
    }
}

impl core::fmt::Display for Pos {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

rules_bounds::coded_enum! {
    /// Which way a cycle goes. The codes (the ABI's) run clockwise from north.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Dir: u8 {
        /// Up the grid (y − 1).
        North = 0 => "north",
        /// Right (x + 1).
        East = 1 => "east",
        /// Down (y + 1).
        South = 2 => "south",
        /// Left (x − 1).
        West = 3 => "west",
    }
    /// Every heading, in code order.
    const ALL;
    fn code;
    fn from_code;
    fn name;
}

impl Dir {
    /// The heading after `turn`: a quarter turn counterclockwise (left), none, or clockwise
    /// (right).
    pub const fn turned(self, turn: Turn) -> Dir {
        match Dir::from_code((self.code() + turn.code() + 3) % 4) {
            Some(d) => d,
            None => unreachable!(),
        }
    }

    /// The heading half a turn away.
    pub const fn opposite(self) -> Dir {
        match Dir::from_code((self.code() + 2) % 4) {
            Some(d) => d,
            None => unreachable!(),
        }
    }

    /// The step of one cell: (dx, dy).
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }
}

rules_bounds::coded_enum! {
    /// A player's answer for one tick. The codes (the ABI's) are in the order left, straight,
    /// right, so that the new heading is `(heading + code + 3) mod 4`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Turn: u8 {
        Left = 0 => "left",
        Straight = 1 => "straight",
        Right = 2 => "right",
    }
    /// Every turn, in code order.
    const ALL;
    fn code;
    fn from_code;
    fn name;
}

impl Turn {
    /// The same turn seen in a mirror: left and right swap.
    pub const fn mirrored(self) -> Turn {
        match self {
            Turn::Left => Turn::Right,
            Turn::Straight => Turn::Straight,
            Turn::Right => Turn::Left,
        }
    }

    /// The turn that takes `from` to `to`, if one does (not half a turn).
    pub fn between(from: Dir, to: Dir) -> Option<Turn> {
        Turn::ALL.into_iter().find(|&t| from.turned(t) == to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_go_round() {
        assert_eq!(Dir::North.turned(Turn::Left), Dir::West);
        assert_eq!(Dir::North.turned(Turn::Right), Dir::East);
        assert_eq!(Dir::West.turned(Turn::Right), Dir::North);
        assert_eq!(Dir::South.turned(Turn::Straight), Dir::South);
        for d in Dir::ALL {
            assert_eq!(d.turned(Turn::Left).turned(Turn::Right), d);
            assert_eq!(d.opposite().opposite(), d);
            assert_ne!(d.opposite(), d);
            for t in Turn::ALL {
                assert_eq!(Turn::between(d, d.turned(t)), Some(t));
                assert_eq!(Turn::from_code(t.code()), Some(t));
            }
            assert_eq!(Turn::between(d, d.opposite()), None);
            assert_eq!(Dir::from_code(d.code()), Some(d));
        }
        assert_eq!(Dir::from_code(4), None);
        assert_eq!(Turn::from_code(3), None);
    }
}
