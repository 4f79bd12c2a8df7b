//! Threshold: drafts the best (highest-scoring) draft, then rolls on while fewer than
//! [`THRESHOLD`] points are at risk and at least [`MIN_DICE`] dice are left (all six after hot
//! dice); otherwise it banks. It also banks as soon as the turn reaches the target, and in the
//! final round of a race it rolls on until it leads. This is the seed harness's "best draft with
//! dice-left thresholds" bot.
#![no_std]

use arena_agent_sdk::farkle::{best_draft, Action, DICE};
use arena_agent_sdk::{export_farkle_agent, FarkleAgent, FarkleAnswer, FarkleView};

/// Roll on while the turn's points are below this.
pub const THRESHOLD: u32 = 300;
/// Never roll fewer dice than this (unless the final round demands it).
pub const MIN_DICE: usize = 3;

#[derive(Default)]
pub struct Threshold;

impl FarkleAgent for Threshold {
    fn draft(&mut self, view: &FarkleView) -> FarkleAnswer {
        let Some(best) = best_draft(view.roll()) else {
            return FarkleAnswer::bank(&[]);
        };
        let points = view.turn_points + best.score;
        let left = match view.dice() - best.dice() {
            0 => DICE,
            n => n,
        };
        let total = view.my_score() + points;
        let action = if view.final_round {
            if total > view.best_opponent_score() {
                Action::Bank
            } else {
                Action::Roll
            }
        } else if total >= view.target || points >= THRESHOLD || left < MIN_DICE {
            Action::Bank
        } else {
            Action::Roll
        };
        FarkleAnswer::from_mask(action, best.mask)
    }
}

export_farkle_agent!(Threshold);
