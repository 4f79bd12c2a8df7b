//! {{name}}: a Little Animal Farm agent (made by `arena new`).
//!
//! Each turn it completes the set if one trade can, otherwise it buys a small dog if it has none,
//! otherwise the cheapest farm animal it is missing, paying with spare animals. Edit `trade` and
//! `accept` to make it yours.
//!
//! Build: cargo build --release --target wasm32-unknown-unknown
//! Check: arena check target/wasm32-unknown-unknown/release/{{lib}}.wasm
#![no_std]

use arena_agent_sdk::rules::{Animal, FARM_ANIMALS};
use arena_agent_sdk::tactics::{buy_from_stock, finishing_stock_trade, keep_set_cost};
use arena_agent_sdk::{export_farm_agent, log, FarmAgent, Herd, Offer, View};

#[derive(Default)]
pub struct Agent;

/// What paying with `payment` costs us: the last animal of a kind or a dog costs "too much".
fn cost(herd: &Herd, payment: &Herd) -> u64 {
    match keep_set_cost(herd, payment) {
        c if c >= 10_000 => u64::MAX,
        c => c,
    }
}

impl FarmAgent for Agent {
    fn trade(&mut self, view: &View) -> Offer {
        let (pos, seat, herd) = (&view.position, view.seat, view.my_herd());
        if let Some(offer) = finishing_stock_trade(pos, seat) {
            return offer;
        }
        let mut wishes = [Animal::SmallDog; 6];
        wishes[1..].copy_from_slice(&FARM_ANIMALS);
        for target in wishes {
            if herd.get(target) > 0 {
                continue;
            }
            if let Some((offer, c)) = buy_from_stock(pos, seat, target, &|p| cost(&herd, p)) {
                if c != u64::MAX {
                    log!("round {}: buying a {}", view.round, target.name());
                    return offer;
                }
            }
        }
        Offer::PASS
    }

    /// Another player (`trader`) offers `offer`; its `give` is what we would receive.
    fn accept(&mut self, _view: &View, _trader: usize, _offer: &Offer) -> bool {
        false
    }
}

export_farm_agent!(Agent);
