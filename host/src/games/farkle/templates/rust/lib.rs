//! {{name}}: a Farkle agent (made by `arena new --game farkle`).
//!
//! Each roll it drafts the best-scoring dice, then rolls on while fewer than 300 points are at
//! risk and at least 3 dice are left (all six again after hot dice); it banks otherwise, and as
//! soon as banking reaches the target. In the final round of a race it rolls on until it is
//! ahead. Edit `draft` to make it yours: `farkle::legal_drafts` lists every legal draft of a roll
//! and `farkle::check_answer` judges an answer exactly as the host does.
//!
//! Build: cargo build --release --target wasm32-unknown-unknown
//! Check: arena check target/wasm32-unknown-unknown/release/{{lib}}.wasm
#![no_std]

use arena_agent_sdk::farkle::{best_draft, Action, DICE};
use arena_agent_sdk::{export_farkle_agent, log, FarkleAgent, FarkleAnswer, FarkleView};

/// Points at risk from which the agent banks.
const ENOUGH: u32 = 300;
/// Fewest dice left worth rolling.
const FEWEST_DICE: usize = 3;

#[derive(Default)]
pub struct Agent;

impl FarkleAgent for Agent {
    fn draft(&mut self, view: &FarkleView) -> FarkleAnswer {
        // The host never asks about a farkle, so the roll has a legal draft.
        let Some(best) = best_draft(view.roll()) else {
            return FarkleAnswer::bank(&[0]);
        };
        let at_risk = view.turn_points + best.score;
        let mut left = view.dice() - best.dice();
        if left == 0 {
            left = DICE; // hot dice
        }
        let total = view.my_score() + at_risk;
        let roll_on = if total >= view.target && !view.final_round {
            false
        } else if view.final_round && view.players > 1 {
            total <= view.best_opponent_score()
        } else {
            at_risk < ENOUGH && left >= FEWEST_DICE
        };
        if !roll_on {
            log!("turn {}: banking {at_risk}", view.turns_done + 1);
        }
        let action = if roll_on { Action::Roll } else { Action::Bank };
        FarkleAnswer::from_mask(action, best.mask)
    }
}

export_farkle_agent!(Agent);
