//! The rules of Farkle ("Greed" scoring), exactly as the arena applies them.
//!
//! This crate is `no_std`, never allocates and has no unsafe code, so that the arena host and an
//! agent compiled to WebAssembly run the very same checks: an agent can score a draft
//! ([`score_draft`]), list every legal draft of a roll ([`legal_drafts`]), take the best one
//! ([`best_draft`]) and judge its answer exactly as the host will ([`check_answer`]).
//!
//! A turn: roll all [`DICE`] dice; a roll with no scoring die is a farkle ([`is_farkle`]) and ends
//! the turn with no points. Otherwise the player drafts some scoring dice and either banks the
//! turn's points or rolls the dice left (all six again when every die was drafted: *hot dice*).
//! Each draft is scored on its own. The host drives turns, dice and players; this crate only
//! judges.
#![no_std]
#![forbid(unsafe_code)]

mod answer;
mod draft;
mod score;

pub use answer::{check_answer, Action, Reject};
pub use draft::{best_draft, legal_drafts, mask_score, Draft, Drafts};
pub use score::{face_counts, is_farkle, score_counts, score_draft};

/// Version of these rules, written into every game record. Bump it whenever a change to this crate
/// could change the outcome of a recorded game.
pub const RULES_VERSION: u32 = 1;

/// Points a player needs to reach.
pub const TARGET: u32 = 10_000;

/// Dice rolled at the start of a turn (and again after hot dice).
pub const DICE: usize = 6;

/// Faces of a die: 1 to `FACES`.
pub const FACES: u8 = 6;
