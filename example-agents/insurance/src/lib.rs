//! "Insurance first": the original challenge's best-known entry ("Naive").
//! 1. If one trade with the stock completes the set, make it.
//! 2. Otherwise buy every dog the stock has, paying with the least valuable surplus.
//! 3. Otherwise buy the cheapest missing kind, never giving up dogs.
//!
//! It never offers trades to players and declines every offer.
#![no_std]

use arena_agent_sdk::rules::{Animal, FARM_ANIMALS};
use arena_agent_sdk::tactics::{
    acquire_from_stock, buy_from_stock, finishing_stock_trade, keep_set_cost,
};
use arena_agent_sdk::{export_farm_agent, FarmAgent, Herd, Offer, View};

#[derive(Default)]
pub struct Insurance;

/// Never pay with a dog, never with the last animal of a kind.
fn cost(herd: &Herd, p: &Herd) -> u64 {
    if p.get(Animal::SmallDog) > 0 || p.get(Animal::BigDog) > 0 {
        return u64::MAX;
    }
    keep_set_cost(herd, p)
}

impl FarmAgent for Insurance {
    fn trade(&mut self, view: &View) -> Offer {
        let pos = &view.position;
        let herd = view.my_herd();
        if let Some(o) = finishing_stock_trade(pos, view.seat) {
            return o;
        }
        let surplus_only = |p: &Herd| match cost(&herd, p) {
            c if c >= 1_000_000 => u64::MAX,
            c => c,
        };
        for dog in [Animal::BigDog, Animal::SmallDog] {
            if let Some((offer, c)) = buy_from_stock(pos, view.seat, dog, &surplus_only) {
                if c != u64::MAX {
                    return offer;
                }
            }
        }
        for target in FARM_ANIMALS {
            if herd.get(target) > 0 {
                continue;
            }
            if let Some((offer, _)) = acquire_from_stock(pos, view.seat, target, &surplus_only) {
                return offer;
            }
        }
        Offer::PASS
    }
}

export_farm_agent!(Insurance);
