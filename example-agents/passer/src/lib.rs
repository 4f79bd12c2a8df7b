//! The baseline: never trades, declines every offer. With no trading nobody can win (the first
//! cow and horse must be bought), so it never wins; it only shows what doing nothing scores.
#![no_std]

use arena_agent_sdk::{export_farm_agent, FarmAgent, Offer, View};

#[derive(Default)]
pub struct Passer;

impl FarmAgent for Passer {
    fn trade(&mut self, _view: &View) -> Offer {
        Offer::PASS
    }

    fn accept(&mut self, _view: &View, _trader: usize, _offer: &Offer) -> bool {
        false
    }
}

export_farm_agent!(Passer);
