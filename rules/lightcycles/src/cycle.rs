//! The players' cycles: where each head is, which way it goes, and how and when it died. Also
//! [`Seats`], a set of seats, and [`Answer`], what the host hands the rules for a seat at a tick.

use crate::geometry::{Dir, Pos, Turn};
use crate::settings::MAX_PLAYERS;

rules_bounds::coded_enum! {
    /// Why a cycle died. The codes are the ABI's.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Cause: u8 {
        /// It left the grid or entered a wall.
        Wall = 1 => "wall",
        /// It entered a trail: its own, another cycle's (a living head's cell included, even when
        /// that head moves on in the same tick), or a dead cycle's.
        Trail = 2 => "trail",
        /// Another head entered the same empty cell in the same tick (both, or all, die).
        SameCell = 3 => "same_cell",
        /// It and another head swapped cells: each entered the cell the other left.
        Swap = 4 => "swap",
        /// The host took it out of the game ([`Answer::Out`]: a fault, or its clock ran out).
        Out = 5 => "out",
    }
    const ALL;
    fn code;
    fn from_code;
    /// The name in records and docs.
    fn name;
}

/// How and when a cycle died.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Death {
    /// The tick it died in (from 1).
    pub tick: u32,
    pub cause: Cause,
}

/// One player's cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cycle {
    /// The head's cell: the last cell of its trail. A dead cycle's head stays where it was when
    /// it died (it never entered the cell that killed it).
    pub head: Pos,
    /// The way it goes: the heading it last chose (a dead cycle keeps the one it died with).
    pub heading: Dir,
    /// `None` while it is alive.
    pub death: Option<Death>,
}

impl Cycle {
    pub const fn new(head: Pos, heading: Dir) -> Cycle {
        Cycle {
            head,
            heading,
            death: None,
        }
    }

    pub const fn is_alive(&self) -> bool {
        self.death.is_none()
    }
}

/// What the host hands the rules for a living seat at a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// The player's answer.
    Turn(Turn),
    /// The player is out of the game: its cycle dies in this tick ([`Cause::Out`]), where it
    /// stands, and its trail stays.
    Out,
}

/// The answers of one tick, by seat: one for each living seat, none for the others.
pub type Answers = [Option<Answer>; MAX_PLAYERS];

/// A set of seats (bit s for seat s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats(u8);

impl Seats {
    pub const NONE: Seats = Seats(0);

    /// Seats 0 to `n − 1`.
    pub const fn first(n: usize) -> Seats {
        Seats(((1u16 << n) - 1) as u8)
    }

    pub const fn contains(self, seat: usize) -> bool {
        seat < MAX_PLAYERS && self.0 & (1 << seat) != 0
    }

    pub fn insert(&mut self, seat: usize) {
        self.0 |= 1 << seat;
    }

    pub fn remove(&mut self, seat: usize) {
        self.0 &= !(1 << seat);
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..MAX_PLAYERS).filter(move |&s| self.contains(s))
    }

    /// Bit s for seat s.
    pub const fn bits(self) -> u8 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_sets() {
        let mut s = Seats::first(3);
        assert_eq!(s.len(), 3);
        s.remove(1);
        assert!(s.contains(0) && !s.contains(1) && s.contains(2) && !s.contains(9));
        s.insert(5);
        assert!(s.iter().eq([0, 2, 5]));
        assert_eq!(Seats::first(6).bits(), 0b11_1111);
        assert!(Seats::NONE.is_empty());
    }

    #[test]
    fn cause_codes() {
        for (i, c) in Cause::ALL.into_iter().enumerate() {
            assert_eq!(c.code() as usize, i + 1);
            assert_eq!(Cause::from_code(c.code()), Some(c));
        }
        assert_eq!(Cause::from_code(0), None);
        assert_eq!(Cause::from_code(6), None);
    }
}
