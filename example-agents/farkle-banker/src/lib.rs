//! Banker: drafts every scoring die of the roll (every 1, every 5, every triple; the highest
//! score the roll offers) and always banks after its first roll.
#![no_std]

use arena_agent_sdk::farkle::{best_draft, Action};
use arena_agent_sdk::{export_farkle_agent, FarkleAgent, FarkleAnswer, FarkleView};

#[derive(Default)]
pub struct Banker;

impl FarkleAgent for Banker {
    fn draft(&mut self, view: &FarkleView) -> FarkleAnswer {
        // The host never sends a farkle; an empty draft would only be rejected.
        let mask = best_draft(view.roll()).map_or(0, |d| d.mask);
        FarkleAnswer::from_mask(Action::Bank, mask)
    }
}

export_farkle_agent!(Banker);
