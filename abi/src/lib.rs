//! The byte layouts of the arena's agent ABI, version 1: the single source of truth for the host
//! (which encodes observations and decodes answers) and the agent SDK (which does the reverse).
//! `docs/ABI.md` describes the same layouts for authors in other languages.
//!
//! Every call has the same shape: the host writes an [`Envelope`] header (game-independent)
//! followed by a game-specific payload into the agent's exchange buffer, then calls one export per
//! decision with the number of bytes written. All integers are little-endian.
#![no_std]
#![forbid(unsafe_code)]

mod bytes;
pub mod codewar;
mod envelope;
pub mod farkle;
pub mod farm;
pub mod jungle;
pub mod lightcycles;

pub use bytes::DecodeError;
pub use envelope::{Decision, Envelope, InitPayload, ENVELOPE_SIZE, INIT_PAYLOAD_SIZE};

/// The ABI version this crate describes; agents export `arena_abi_version` returning it.
pub const ABI_VERSION: u32 = 1;

/// Smallest exchange buffer an agent may export, in bytes.
pub const MIN_BUFFER_SIZE: usize = 8192;

/// Names of the exports and imports, as the host looks them up.
pub mod names {
    pub const MEMORY: &str = "memory";
    pub const ABI_VERSION: &str = "arena_abi_version";
    pub const BUFFER: &str = "arena_buffer";
    pub const BUFFER_SIZE: &str = "arena_buffer_size";
    pub const INIT: &str = "arena_init";
    pub const FARM_TRADE: &str = "farm_trade";
    pub const FARM_ACCEPT: &str = "farm_accept";
    /// Farkle: `farkle_draft(len: i32) -> i32`, the draft answer's length.
    pub const FARKLE_DRAFT: &str = "farkle_draft";
    /// Jungle: `jungle_move(len: i32) -> i32`, the answer's length (2).
    pub const JUNGLE_MOVE: &str = "jungle_move";
    /// Light cycles: `lightcycles_turn(len: i32) -> i32`, the answer's length (1).
    pub const LIGHTCYCLES_TURN: &str = "lightcycles_turn";
    /// Module name of the host's own imports.
    pub const HOST_MODULE: &str = "arena";
    /// `arena.log(ptr: i32, len: i32)`: append bytes to the agent's debug log.
    pub const LOG: &str = "log";
    /// `arena.fuel_left() -> i64`: fuel left for the current decision (the fuel clocks of Jungle
    /// and light cycles).
    pub const FUEL_LEFT: &str = "fuel_left";
}

/// Game identifiers carried in the envelope.
pub mod game {
    pub const LITTLE_ANIMAL_FARM: u32 = 1;
    pub const FARKLE: u32 = 2;
    pub const JUNGLE: u32 = 3;
    /// The code war's agents are snippets, not byte-ABI agents: the id only names the game.
    pub const CODEWAR: u32 = 4;
    pub const LIGHTCYCLES: u32 = 5;
}
