//! The rules of Jungle (Dou Shou Qi, "the Animal Game"), exactly as the arena applies them.
//!
//! This crate is `no_std`, never allocates and has no unsafe code, so that the arena host and an
//! agent compiled to WebAssembly run the very same rules: an agent can generate the legal moves
//! of a [`Position`] ([`Position::legal_moves`]), play them ([`Position::make`] /
//! [`Position::unmake`], or [`Position::after`]), and tell when the game is over
//! ([`Position::outcome`]). `docs/JUNGLE.md` states the rules in words.
//!
//! The board has 7 files (a–g) and 9 ranks (1–9); the first player starts at the bottom. Squares
//! are numbered `rank × 7 + file` (a1 = 0 … g9 = 62) and sets of squares are bitboards (`u64`,
//! bit i = square i). Positions and moves read and print in the notation public engines use
//! (see [`notation`]): the start is [`START`].
#![no_std]
#![forbid(unsafe_code)]

mod board;
mod error;
mod legality;
mod movegen;
pub mod notation;
mod outcome;
mod perft;
mod position;

pub use board::{
    Jump, Kind, Piece, Side, Square, BOARD, DENS, FILES, JUMPS, RANKS, SQUARES, STEPS, TRAPS, WATER,
};
pub use error::{MoveError, PositionError};
pub use legality::Illegal;
pub use movegen::{MoveList, MAX_MOVES};
pub use outcome::{DrawReason, Outcome, WinReason, DRAW_PLIES};
pub use perft::{perft, perft_divide};
pub use position::{Move, Position, Undo, START};

/// Version of these rules, written into every game record. Bump it whenever a change to this crate
/// could change the outcome of a recorded game.
pub const RULES_VERSION: u32 = 1;
