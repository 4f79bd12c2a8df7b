//! The rules of Little Animal Farm, exactly as the arena applies them.
//!
//! This crate is `no_std` and never allocates, so that the arena host and an agent compiled to
//! WebAssembly run the very same checks: an agent can ask [`check_offer`] whether a trade is legal
//! before offering it, and [`for_each_stock_trade`] lists every trade with the stock a herd can afford.
//!
//! A turn, in order: an optional trade ([`check_offer`], the partner's accept answer,
//! [`execute_trade`]), a win check ([`Herd::is_winning`]), the roll ([`apply_roll`]: wolf, fox,
//! breeding) and a second win check. The host drives turns, dice and players; this crate only judges.
#![no_std]
#![forbid(unsafe_code)]

mod animal;
mod dice;
mod enumerate;
mod herd;
mod position;
mod roll;
mod trade;

pub use animal::{Animal, ANIMALS, FARM_ANIMALS, KINDS, WORTH};
pub use dice::{FoxFace, Roll, WolfFace, DIE_FACES, FOX_DIE, WOLF_DIE};
pub use enumerate::{for_each_payment, for_each_stock_trade};
pub use herd::Herd;
pub use position::{Position, MAX_PLAYERS, MIN_PLAYERS, START_STOCK};
pub use roll::{apply_roll, RollEffect};
pub use trade::{check_offer, execute_trade, FailReason, Offer, OfferKind, Partner, Trade};

/// Version of these rules, written into every game record. Bump it whenever a change to this crate
/// could change the outcome of a recorded game.
pub const RULES_VERSION: u32 = 1;
