//! A greedy stock climber: every turn it buys from the stock the first kind in a fixed priority
//! list that it can afford (a small dog, a big dog, then the missing kinds from the most valuable
//! down), paying with its least valuable animals. It never deals with players.
#![no_std]

use arena_agent_sdk::rules::Animal;
use arena_agent_sdk::tactics::{buy_from_stock, finishing_stock_trade, keep_set_cost};
use arena_agent_sdk::{export_farm_agent, FarmAgent, Herd, Offer, View};

#[derive(Default)]
pub struct Greedy;

const PRIORITY: [Animal; 6] = [
    Animal::SmallDog,
    Animal::BigDog,
    Animal::Horse,
    Animal::Cow,
    Animal::Pig,
    Animal::Sheep,
];

impl FarmAgent for Greedy {
    fn trade(&mut self, view: &View) -> Offer {
        let pos = &view.position;
        let herd = view.my_herd();
        if let Some(o) = finishing_stock_trade(pos, view.seat) {
            return o;
        }
        let cost = |p: &Herd| keep_set_cost(&herd, p);
        for target in PRIORITY {
            if herd.get(target) > 0 {
                continue;
            }
            if let Some((offer, _)) = buy_from_stock(pos, view.seat, target, &cost) {
                return offer;
            }
        }
        Offer::PASS
    }
}

export_farm_agent!(Greedy);
