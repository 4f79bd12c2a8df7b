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

/// Which way a cycle goes. The codes (the ABI's) run clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Up the grid (y − 1).
    North = 0,
    /// Right (x + 1).
    East = 1,
    /// Down (y + 1).
    South = 2,
    /// Left (x − 1).
    West = 3,
}

impl Dir {
    /// Every heading, in code order.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub const fn code(self) -> u8 {
        self as u8
    }

    pub const fn from_code(code: u8) -> Option<Dir> {
        match code {
            0 => Some(Dir::North),
            1 => Some(Dir::East),
            2 => Some(Dir::South),
            3 => Some(Dir::West),
            _ => None,
        }
    }

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

    pub const fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }
}

/// A player's answer for one tick. The codes (the ABI's) are in the order left, straight,
/// right, so that the new heading is `(heading + code + 3) mod 4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    Left = 0,
    Straight = 1,
    Right = 2,
}

impl Turn {
    /// Every turn, in code order.
    pub const ALL: [Turn; 3] = [Turn::Left, Turn::Straight, Turn::Right];

    pub const fn code(self) -> u8 {
        self as u8
    }

    pub const fn from_code(code: u8) -> Option<Turn> {
        match code {
            0 => Some(Turn::Left),
            1 => Some(Turn::Straight),
            2 => Some(Turn::Right),
            _ => None,
        }
    }

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

    pub const fn name(self) -> &'static str {
        match self {
            Turn::Left => "left",
            Turn::Straight => "straight",
            Turn::Right => "right",
        }
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
