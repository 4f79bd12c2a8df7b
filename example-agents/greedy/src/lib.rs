//! A greedy stock climber: every turn it buys from the stock the first kind in a fixed priority
//! list that it can afford (a small dog, a big dog, then the missing kinds from the most valuable
//! down), paying with its least valuable animals. It never deals with players.
#![no_std]

use arena_agent_sdk::tactics::{buy_first_lacking, finishing_stock_trade, DOGS_THEN_WORTHIEST};
use arena_agent_sdk::{export_farm_agent, FarmAgent, Offer, View};

#[derive(Default)]
pub struct Greedy;

impl FarmAgent for Greedy {
    fn trade(&mut self, view: &View) -> Offer {
        let pos = &view.position;
        finishing_stock_trade(pos, view.seat)
            .or_else(|| buy_first_lacking(pos, view.seat, &DOGS_THEN_WORTHIEST))
            .unwrap_or(Offer::PASS)
    }
}

export_farm_agent!(Greedy);
