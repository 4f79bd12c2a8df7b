//! Hostile test agent: passes for two rounds, logs a line, then panics in round 3 (an index out
//! of bounds, as a real bug would). With the SDK's panic handler a panic is a wasm `unreachable`,
//! so the arena must record a `trap` fault on the trade decision, keep the logged line, and let
//! the game go on without the agent.
#![no_std]

use arena_agent_sdk::{export_farm_agent, log, FarmAgent, Offer, View};

#[derive(Default)]
pub struct Panicker {
    table: [u32; 3],
}

impl FarmAgent for Panicker {
    fn trade(&mut self, view: &View) -> Offer {
        if view.round >= 3 {
            log!(
                "round {}: about to index past the end of a table",
                view.round
            );
            let i = view.round as usize + view.seat;
            self.table[0] = self.table[i];
        }
        Offer::PASS
    }

    fn accept(&mut self, _view: &View, _trader: usize, _offer: &Offer) -> bool {
        false
    }
}

export_farm_agent!(Panicker);
