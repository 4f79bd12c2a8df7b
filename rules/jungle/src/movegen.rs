//! Move generation: which squares each piece of the side to move may enter, as bitboards.
//!
//! For every kind the squares it may enter are computed once per position (`Targets`): not its
//! own pieces, not its own den, not the water (but for the rat), and among the enemy's pieces
//! only those it can capture. A piece's moves are then its neighbours (and a lion's or tiger's
//! unblocked jumps) within that set, so counting the moves of a position is eight popcounts.

use crate::board::{Kind, Square, BOARD, DENS, JUMPS, JUMP_FROM, STEPS, TRAPS, WATER};
use crate::position::{Move, Position, OFF};

/// Most moves a position can have: eight pieces, four directions, at most one move each.
pub const MAX_MOVES: usize = 32;

/// A fixed-capacity list of moves (no allocation).
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub const fn new() -> MoveList {
        const A1: Square = match Square::from_index(0) {
            Some(s) => s,
            None => unreachable!(),
        };
        MoveList {
            moves: [Move::new(A1, A1); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends `mv`; ignored when the list is full (never, for a list of legal moves).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub const fn len(&self) -> usize {
        self.len
    }

    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[inline(always)]
const fn bit(sq: u8) -> u64 {
    // OFF (63) gives bit 63, outside the board: a captured piece is nowhere.
    1 << sq
}

/// The squares each kind of the side to move may enter (before adjacency).
struct Targets {
    /// Per kind; for the rat, when it stands on land.
    land: [u64; 8],
    /// The rat's, when it stands in the water (it may not capture the elephant from there).
    rat_in_water: u64,
    /// Water squares holding a rat (either side's): they block lake jumps.
    rats_in_water: u64,
}

impl Position {
    #[inline(always)]
    fn targets(&self) -> Targets {
        let us = self.side.index();
        let them = us ^ 1;
        let enemy = self.occ[them];
        let e = &self.at[them];
        // Any enemy piece on one of our traps has rank 0: anything of ours captures it.
        let trapped = enemy & TRAPS[us];
        let free = BOARD & !self.occ[us] & !DENS[us];
        let quiet = free & !enemy;
        let land = free & !WATER;
        let enemy_rat = bit(e[Kind::Rat as usize]);
        let rat_in_water = quiet | (free & (enemy_rat | trapped));
        let rat_on_land = rat_in_water | (free & bit(e[Kind::Elephant as usize]));
        let mut t = [0u64; 8];
        t[0] = rat_on_land;
        // Enemy pieces of rank at most k's.
        let mut weaker = enemy_rat | trapped;
        let mut k = 1;
        while k < 8 {
            weaker |= bit(e[k]);
            t[k] = land & (!enemy | weaker);
            k += 1;
        }
        // The elephant never captures the rat, unless the rat stands in our trap.
        t[7] = land & (!enemy | (weaker & !enemy_rat) | trapped);
        Targets {
            land: t,
            rat_in_water,
            rats_in_water: (bit(self.at[0][0]) | bit(self.at[1][0])) & WATER,
        }
    }

    /// Squares the piece of `kind` on `from` may move to, given the position's targets.
    #[inline(always)]
    fn moves_of(t: &Targets, kind: usize, from: u8) -> u64 {
        let f = from as usize;
        if kind == Kind::Rat as usize {
            let allowed = if WATER & bit(from) != 0 {
                t.rat_in_water
            } else {
                t.land[0]
            };
            return STEPS[f] & allowed;
        }
        let allowed = t.land[kind];
        let mut to = STEPS[f] & allowed;
        if (kind == Kind::Tiger as usize || kind == Kind::Lion as usize)
            && JUMP_FROM & bit(from) != 0
        {
            for j in JUMPS[f].iter().flatten() {
                if j.over & t.rats_in_water == 0 {
                    to |= bit(j.to) & allowed;
                }
            }
        }
        to
    }

    /// Every legal move of the side to move, by piece (rat first, elephant last), then by
    /// destination square (in square order: a1, b1, …, g9). This is pure move generation: it
    /// does not look at whether the game is over (see [`Position::outcome`]).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Like [`Position::legal_moves`], into `list` (cleared first).
    #[inline]
    pub fn generate(&self, list: &mut MoveList) {
        list.clear();
        let t = self.targets();
        for (kind, &from) in self.at[self.side.index()].iter().enumerate() {
            if from == OFF {
                continue;
            }
            let from_sq = Square::from_index(from).expect("on the board");
            let mut to = Self::moves_of(&t, kind, from);
            while to != 0 {
                let sq = to.trailing_zeros() as u8;
                to &= to - 1;
                list.push(Move::new(
                    from_sq,
                    Square::from_index(sq).expect("targets are on the board"),
                ));
            }
        }
    }

    /// The number of legal moves (what [`Position::legal_moves`] would list), without listing
    /// them.
    #[inline]
    pub fn count_moves(&self) -> u32 {
        let t = self.targets();
        let mut n = 0;
        for (kind, &from) in self.at[self.side.index()].iter().enumerate() {
            if from != OFF {
                n += Self::moves_of(&t, kind, from).count_ones();
            }
        }
        n
    }

    /// True if the side to move has at least one legal move.
    pub fn has_moves(&self) -> bool {
        let t = self.targets();
        self.at[self.side.index()]
            .iter()
            .enumerate()
            .any(|(kind, &from)| from != OFF && Self::moves_of(&t, kind, from) != 0)
    }

    /// True if `mv` is a legal move of the side to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        let code = self.board[mv.from.index()];
        if code == 0 || (code > 8) != (self.side.index() == 1) {
            return false;
        }
        let kind = ((code - 1) & 7) as usize;
        Self::moves_of(&self.targets(), kind, mv.from.index() as u8) & mv.to.bit() != 0
    }

    /// Bitboard of the squares the piece on `from` may move to (0 if it is not a piece of the
    /// side to move).
    pub fn moves_from(&self, from: Square) -> u64 {
        let code = self.board[from.index()];
        if code == 0 || (code > 8) != (self.side.index() == 1) {
            return 0;
        }
        Self::moves_of(
            &self.targets(),
            ((code - 1) & 7) as usize,
            from.index() as u8,
        )
    }
}
