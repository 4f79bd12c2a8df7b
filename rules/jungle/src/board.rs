//! The board: squares, sides, pieces, and the fixed geometry (water, traps, dens, jumps) as
//! bitboards over the 63 squares.

use core::fmt;

/// Files (columns) a to g.
pub const FILES: u8 = 7;
/// Ranks (rows) 1 to 9; the first player starts on ranks 1 to 3.
pub const RANKS: u8 = 9;
/// Squares on the board.
pub const SQUARES: usize = 63;

/// Bitboard of every square: bit i is the square of index i.
pub const BOARD: u64 = (1 << SQUARES) - 1;

/// A square, by index: `rank × 7 + file`, with a1 = 0, b1 = 1, …, g1 = 6, a2 = 7, …, g9 = 62
/// (file and rank from 0). This is also the order of the ABI's board bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square of `file` (0 = a … 6 = g) and `rank` (0 = rank 1 … 8 = rank 9).
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square of index `i` (0 to 62).
    pub const fn from_index(i: u8) -> Option<Square> {
        if (i as usize) < SQUARES {
            Some(Square(i))
        } else {
            None
        }
    }

    /// Index 0 to 62.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File from 0 (a) to 6 (g).
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank from 0 (rank 1) to 8 (rank 9).
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The square's bit in a bitboard.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// True on the twelve water squares (the two lakes).
    pub const fn is_water(self) -> bool {
        WATER & self.bit() != 0
    }

    /// True on one of `side`'s three traps (around its den).
    pub const fn is_trap_of(self, side: Side) -> bool {
        TRAPS[side as usize] & self.bit() != 0
    }

    /// True on `side`'s den.
    pub const fn is_den_of(self, side: Side) -> bool {
        DENS[side as usize] & self.bit() != 0
    }

    /// Parses `a1` … `g9`.
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'a'..=b'g', r @ b'1'..=b'9'] => Square::new(f - b'a', r - b'1'),
            _ => None,
        }
    }

    /// The file letter, `a` to `g`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, `1` to `9`.
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.file_char())?;
        f.write_char(self.rank_char())
    }
}

/// A player. The first player starts at the bottom (ranks 1 to 3), is written in upper case and
/// is `w` in the notation; the second starts at the top and is `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    First = 0,
    Second = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second (the ABI's code).
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Option<Side> {
        match i {
            0 => Some(Side::First),
            1 => Some(Side::Second),
            _ => None,
        }
    }

    /// The notation's letter: `w` (first) or `b` (second).
    pub const fn letter(self) -> char {
        match self {
            Side::First => 'w',
            Side::Second => 'b',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

/// The eight animals, weakest first. [`Kind::rank`] is 1 (rat) to 8 (elephant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Rat = 0,
    Cat = 1,
    Dog = 2,
    Wolf = 3,
    Leopard = 4,
    Tiger = 5,
    Lion = 6,
    Elephant = 7,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Rat,
        Kind::Cat,
        Kind::Dog,
        Kind::Wolf,
        Kind::Leopard,
        Kind::Tiger,
        Kind::Lion,
        Kind::Elephant,
    ];

    /// The rank, 1 (rat) to 8 (elephant).
    pub const fn rank(self) -> u8 {
        self as u8 + 1
    }

    /// The kind of rank 1 to 8.
    pub const fn from_rank(rank: u8) -> Option<Kind> {
        if rank >= 1 && rank <= 8 {
            Some(Kind::ALL[rank as usize - 1])
        } else {
            None
        }
    }

    /// The notation's letter (lower case): `r c d w p t l e`.
    pub const fn letter(self) -> char {
        [b'r', b'c', b'd', b'w', b'p', b't', b'l', b'e'][self as usize] as char
    }

    /// The kind of a notation letter (either case).
    pub const fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_lowercase() {
            'r' => Some(Kind::Rat),
            'c' => Some(Kind::Cat),
            'd' => Some(Kind::Dog),
            'w' => Some(Kind::Wolf),
            'p' => Some(Kind::Leopard),
            't' => Some(Kind::Tiger),
            'l' => Some(Kind::Lion),
            'e' => Some(Kind::Elephant),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        [
            "rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant",
        ][self as usize]
    }

    /// True for the lion and the tiger, which jump the lakes.
    pub const fn jumps(self) -> bool {
        matches!(self, Kind::Lion | Kind::Tiger)
    }
}

/// A piece: a kind and its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }

    /// The ABI's code: 1 to 8 for the first player's rat to elephant, 9 to 16 for the second's
    /// (0 is an empty square).
    pub const fn code(self) -> u8 {
        self.kind.rank() + 8 * self.side as u8
    }

    /// The piece of code 1 to 16.
    pub const fn from_code(code: u8) -> Option<Piece> {
        match code {
            1..=8 => Some(Piece::new(Side::First, Kind::ALL[code as usize - 1])),
            9..=16 => Some(Piece::new(Side::Second, Kind::ALL[code as usize - 9])),
            _ => None,
        }
    }

    /// The notation's letter: upper case for the first player.
    pub const fn letter(self) -> char {
        match self.side {
            Side::First => self.kind.letter().to_ascii_uppercase(),
            Side::Second => self.kind.letter(),
        }
    }

    /// The piece of a notation letter.
    pub const fn from_letter(c: char) -> Option<Piece> {
        let side = if c.is_ascii_uppercase() {
            Side::First
        } else {
            Side::Second
        };
        match Kind::from_letter(c) {
            Some(kind) => Some(Piece::new(side, kind)),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} player's {}", self.side.name(), self.kind.name())
    }
}

const fn bit(file: u8, rank: u8) -> u64 {
    1 << (rank * FILES + file)
}

/// The two lakes: files b–c and e–f, ranks 4–6.
pub const WATER: u64 = {
    let mut m = 0;
    let mut rank = 3;
    while rank <= 5 {
        m |= bit(1, rank) | bit(2, rank) | bit(4, rank) | bit(5, rank);
        rank += 1;
    }
    m
};

/// Each side's den: d1 (first), d9 (second).
pub const DENS: [u64; 2] = [bit(3, 0), bit(3, 8)];

/// Each side's traps: c1 e1 d2 (first), c9 e9 d8 (second).
pub const TRAPS: [u64; 2] = [
    bit(2, 0) | bit(4, 0) | bit(3, 1),
    bit(2, 8) | bit(4, 8) | bit(3, 7),
];

/// Directions in generation order: up (toward rank 9), right, down, left.
pub const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

const fn neighbour(sq: u8, dir: usize) -> Option<u8> {
    let file = (sq % FILES) as i8 + DIRECTIONS[dir].0;
    let rank = (sq / FILES) as i8 + DIRECTIONS[dir].1;
    if file < 0 || rank < 0 || file >= FILES as i8 || rank >= RANKS as i8 {
        None
    } else {
        Some(rank as u8 * FILES + file as u8)
    }
}

/// The orthogonal neighbours of each square.
pub const STEPS: [u64; SQUARES] = {
    let mut t = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 4 {
            if let Some(n) = neighbour(sq as u8, d) {
                t[sq] |= 1 << n;
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// A lake jump from a square: where it lands and the water squares it crosses (a rat on any of
/// them blocks it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    pub to: u8,
    pub over: u64,
}

/// The lake jumps from each square, in direction order; unused entries are `None`. Only the
/// squares next to a lake have any: vertically rank 3 ↔ 7 on files b, c, e, f; horizontally a ↔ d
/// and d ↔ g on ranks 4 to 6.
pub const JUMPS: [[Option<Jump>; 4]; SQUARES] = {
    let mut t = [[None; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        if WATER & (1 << sq) == 0 {
            let mut d = 0;
            while d < 4 {
                let mut over = 0u64;
                let mut at = neighbour(sq as u8, d);
                while let Some(n) = at {
                    if WATER & (1 << n) == 0 {
                        break;
                    }
                    over |= 1 << n;
                    at = neighbour(n, d);
                }
                if over != 0 {
                    if let Some(to) = at {
                        t[sq][d] = Some(Jump { to, over });
                    }
                }
                d += 1;
            }
        }
        sq += 1;
    }
    t
};

/// Squares from which a lion or tiger may have a jump (for a quick test before the table).
pub const JUMP_FROM: u64 = {
    let mut m = 0;
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 4 {
            if JUMPS[sq][d].is_some() {
                m |= 1 << sq;
            }
            d += 1;
        }
        sq += 1;
    }
    m
};

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn geometry() {
        assert_eq!(WATER.count_ones(), 12);
        for name in ["b4", "c4", "b5", "c6", "e4", "f5", "f6"] {
            assert!(sq(name).is_water(), "{name}");
        }
        for name in ["a4", "d5", "g6", "b3", "c7"] {
            assert!(!sq(name).is_water(), "{name}");
        }
        assert!(sq("d1").is_den_of(Side::First) && sq("d9").is_den_of(Side::Second));
        for name in ["c1", "e1", "d2"] {
            assert!(sq(name).is_trap_of(Side::First));
        }
        for name in ["c9", "e9", "d8"] {
            assert!(sq(name).is_trap_of(Side::Second));
        }
        assert_eq!(STEPS[sq("a1").index()].count_ones(), 2);
        assert_eq!(STEPS[sq("d5").index()].count_ones(), 4);
        // 4 files × 2 (up and down) vertical jumps, 3 ranks × 4 horizontal ones.
        let jumps: usize = JUMPS.iter().flatten().filter(|j| j.is_some()).count();
        assert_eq!(jumps, 8 + 12);
        let j = JUMPS[sq("b3").index()][0].unwrap();
        assert_eq!(j.to as usize, sq("b7").index());
        assert_eq!(j.over.count_ones(), 3);
        let j = JUMPS[sq("d5").index()][3].unwrap();
        assert_eq!(j.to as usize, sq("a5").index());
        assert_eq!(j.over, sq("b5").bit() | sq("c5").bit());
        assert!(JUMP_FROM & sq("d4").bit() != 0 && JUMP_FROM & sq("d3").bit() == 0);
    }

    #[test]
    fn codes_and_letters() {
        for code in 1..=16 {
            let p = Piece::from_code(code).unwrap();
            assert_eq!(p.code(), code);
            assert_eq!(Piece::from_letter(p.letter()), Some(p));
        }
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_code(17), None);
        assert_eq!(Piece::from_letter('x'), None);
        for i in 0..63u8 {
            let s = Square::from_index(i).unwrap();
            let mut text = [0u8; 2];
            text[0] = s.file_char() as u8;
            text[1] = s.rank_char() as u8;
            assert_eq!(Square::parse(core::str::from_utf8(&text).unwrap()), Some(s));
        }
        assert_eq!(Square::parse("h1"), None);
        assert_eq!(Square::parse("a0"), None);
        assert_eq!(Square::parse("a10"), None);
    }
}
