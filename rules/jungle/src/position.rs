//! A position: where every piece stands, whose move it is, and the counters of the draw rule.

use crate::board::{Kind, Piece, Side, Square, DENS, SQUARES};
use crate::error::PositionError;

/// Square index standing for "not on the board" (a captured piece). Its bit (63) lies outside
/// every board mask, so it never shows up among a move's targets.
pub(crate) const OFF: u8 = 63;

/// A move: one piece from `from` to `to` (a step, or a lion's or tiger's lake jump). Written
/// `a3a4` in the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

/// What [`Position::make`] needs to be undone by [`Position::unmake`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    quiet: u32,
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
}

/// A Jungle position. Each side has at most one piece of each kind; the position keeps, for each
/// side, the square of each kind (for move generation), a bitboard of each side's pieces, and a
/// board of piece codes (for the piece on a square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// `at[side][kind]`: square index, or [`OFF`] once captured.
    pub(crate) at: [[u8; 8]; 2],
    pub(crate) occ: [u64; 2],
    /// Piece code per square (0 empty), see [`Piece::code`].
    pub(crate) board: [u8; SQUARES],
    pub(crate) side: Side,
    /// Plies played since the last capture (or since the position was set up).
    pub(crate) quiet: u32,
    /// Plies played since the start of the game.
    pub(crate) ply: u32,
}

/// The start position, `l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w`.
pub const START: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w";

impl Position {
    /// The start position (first player to move, ply 0).
    pub fn start() -> Position {
        const S: [(u8, u8, Kind); 8] = [
            (0, 0, Kind::Tiger),
            (6, 0, Kind::Lion),
            (1, 1, Kind::Cat),
            (5, 1, Kind::Dog),
            (0, 2, Kind::Elephant),
            (2, 2, Kind::Wolf),
            (4, 2, Kind::Leopard),
            (6, 2, Kind::Rat),
        ];
        let mut codes = [0u8; SQUARES];
        for &(file, rank, kind) in &S {
            codes[(rank * 7 + file) as usize] = Piece::new(Side::First, kind).code();
            // The second player's set is the first's turned half a turn about the centre.
            codes[((8 - rank) * 7 + 6 - file) as usize] = Piece::new(Side::Second, kind).code();
        }
        match Position::from_codes(&codes, Side::First, 0, 0) {
            Ok(p) => p,
            Err(_) => unreachable!("the start position is valid"),
        }
    }

    /// A position from a piece code per square (0 empty, 1–16 as [`Piece::code`]), the side to
    /// move, the plies since the last capture and the plies played. Refuses what no game can
    /// reach: an unknown code, two pieces of one kind and side, a piece other than a rat in the
    /// water, a piece on its own den, the side to move already in the enemy den (the game
    /// ended when it entered), and a ply count of the wrong parity (the first player moves at
    /// even plies, the second at odd ones).
    pub fn from_codes(
        codes: &[u8; SQUARES],
        side: Side,
        quiet: u32,
        ply: u32,
    ) -> Result<Position, PositionError> {
        let mut p = Position {
            at: [[OFF; 8]; 2],
            occ: [0; 2],
            board: [0; SQUARES],
            side,
            quiet,
            ply,
        };
        for (i, &code) in codes.iter().enumerate() {
            let square = Square::from_index(i as u8).expect("i < 63");
            if code == 0 {
                continue;
            }
            let piece = Piece::from_code(code).ok_or(PositionError::BadCode { square, code })?;
            p.put(square, piece)?;
        }
        if p.occ[side.index()] & DENS[side.opponent().index()] != 0 {
            return Err(PositionError::MoverInDen { side });
        }
        if ply % 2 != side.index() as u32 {
            return Err(PositionError::PlyParity { ply, side });
        }
        Ok(p)
    }

    /// Places `piece` on the empty `square`, checking the placement rules.
    pub(crate) fn put(&mut self, square: Square, piece: Piece) -> Result<(), PositionError> {
        let (s, k) = (piece.side.index(), piece.kind as usize);
        if self.at[s][k] != OFF {
            return Err(PositionError::Duplicate { piece, square });
        }
        if square.is_water() && piece.kind != Kind::Rat {
            return Err(PositionError::InWater { piece, square });
        }
        if square.is_den_of(piece.side) {
            return Err(PositionError::OwnDen { piece, square });
        }
        self.at[s][k] = square.index() as u8;
        self.occ[s] |= square.bit();
        self.board[square.index()] = piece.code();
        Ok(())
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// Plies played since the start of the game (0 before the first move).
    pub const fn ply(&self) -> u32 {
        self.ply
    }

    /// Plies played since the last capture (the draw rule's counter).
    pub const fn plies_since_capture(&self) -> u32 {
        self.quiet
    }

    /// The piece on `square`.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        Piece::from_code(self.board[square.index()])
    }

    /// The ABI's board: a piece code per square, in square order (a1, b1, …, g9).
    pub const fn codes(&self) -> &[u8; SQUARES] {
        &self.board
    }

    /// Where `side`'s piece of `kind` stands, if it is still on the board.
    pub fn square_of(&self, side: Side, kind: Kind) -> Option<Square> {
        Square::from_index(self.at[side.index()][kind as usize])
    }

    /// Bitboard of `side`'s pieces (bit i = square of index i).
    pub const fn pieces(&self, side: Side) -> u64 {
        self.occ[side.index()]
    }

    /// Number of pieces `side` has left.
    pub const fn count(&self, side: Side) -> u32 {
        self.occ[side.index()].count_ones()
    }

    /// Plays `mv`, which must be legal here (see [`Position::is_legal`]; an illegal move leaves
    /// the position inconsistent), and returns what [`Position::unmake`] needs.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let (from, to) = (mv.from.index(), mv.to.index());
        let us = self.side.index();
        let them = us ^ 1;
        let code = self.board[from];
        let captured = self.board[to];
        let undo = Undo {
            captured,
            quiet: self.quiet,
        };
        if captured != 0 {
            self.at[them][((captured - 1) & 7) as usize] = OFF;
            self.occ[them] ^= 1 << to;
            self.quiet = 0;
        } else {
            // The counters wrap past 2³² − 1 (the notation reads them up to there): the same
            // code as `+= 1` in a release build, and no overflow panic in a debug one.
            self.quiet = self.quiet.wrapping_add(1);
        }
        self.at[us][((code - 1) & 7) as usize] = to as u8;
        self.occ[us] ^= (1 << from) | (1 << to);
        self.board[to] = code;
        self.board[from] = 0;
        self.side = self.side.opponent();
        self.ply = self.ply.wrapping_add(1);
        undo
    }

    /// Takes back `mv`, made by [`Position::make`] which returned `undo`.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        let (from, to) = (mv.from.index(), mv.to.index());
        self.side = self.side.opponent();
        self.ply = self.ply.wrapping_sub(1);
        self.quiet = undo.quiet;
        let us = self.side.index();
        let code = self.board[to];
        self.at[us][((code - 1) & 7) as usize] = from as u8;
        self.occ[us] ^= (1 << from) | (1 << to);
        self.board[from] = code;
        self.board[to] = undo.captured;
        if undo.captured != 0 {
            self.at[us ^ 1][((undo.captured - 1) & 7) as usize] = to as u8;
            self.occ[us ^ 1] |= 1 << to;
        }
    }

    /// The position after `mv` (copy-make); `mv` must be legal here.
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        let mut p = *self;
        p.make(mv);
        p
    }
}
