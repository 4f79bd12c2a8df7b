//! The five example strategies, played natively (in-process through the ABI bytes) by name.

use crate::games::farm::{FarmPlayer, NativePlayer};

/// Names of the example strategies, as their crates and wasm files are named.
pub const STRATEGIES: [&str; 5] = ["passer", "greedy", "insurance", "trader", "shepherd"];

/// A native player of the strategy `name`, told `round_cap` at init.
pub fn native_player(name: &str, round_cap: u32) -> Option<Box<dyn FarmPlayer>> {
    Some(match name {
        "passer" => Box::new(NativePlayer::<passer::Passer>::new().round_cap(round_cap)),
        "greedy" => Box::new(NativePlayer::<greedy::Greedy>::new().round_cap(round_cap)),
        "insurance" => Box::new(NativePlayer::<insurance::Insurance>::new().round_cap(round_cap)),
        "trader" => Box::new(NativePlayer::<trader::Trader>::new().round_cap(round_cap)),
        "shepherd" => Box::new(NativePlayer::<shepherd::Shepherd>::new().round_cap(round_cap)),
        _ => return None,
    })
}
