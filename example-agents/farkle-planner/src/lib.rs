//! Planner: plays the policy that maximizes the expected points banked per turn, computed exactly
//! by dynamic programming over the rules (see `dp.rs`; `build.rs` runs it at build time and the
//! agent carries the table, 401 × 6 values).
//!
//! For every legal draft of the roll it compares banking the turn's points with the expected
//! points of rolling the dice left (the table), and takes the best pair. On top of that:
//! it banks as soon as its score plus the turn's points reaches the target (more points are
//! worth nothing), and in the final round of a race it rolls on until it leads.
#![no_std]

use arena_agent_sdk::farkle::{legal_drafts, Action, DICE};
use arena_agent_sdk::{export_farkle_agent, FarkleAgent, FarkleAnswer, FarkleView};

#[allow(clippy::excessive_precision, clippy::approx_constant)]
mod table {
    include!(concat!(env!("OUT_DIR"), "/table.rs"));
}

/// Expected points banked at the end of the turn when `points` are at risk and `dice` are about
/// to be rolled, playing this policy (beyond the table: the points themselves).
pub fn expected_turn_points(points: u32, dice: usize) -> f32 {
    let u = (points / table::UNIT) as usize;
    if u > table::MAX_UNITS || !(1..=DICE).contains(&dice) {
        return points as f32;
    }
    table::VALUE[u][dice - 1]
}

#[derive(Default)]
pub struct Planner;

impl FarkleAgent for Planner {
    fn draft(&mut self, view: &FarkleView) -> FarkleAnswer {
        let roll = view.roll();
        let mine = view.my_score();
        let rival = view.best_opponent_score();
        // (value, mask, action) of the best choice so far.
        let mut best: Option<(f32, u8, Action)> = None;
        for d in legal_drafts(roll) {
            let points = view.turn_points.saturating_add(d.score);
            let left = match roll.len() - d.dice() {
                0 => DICE,
                n => n,
            };
            let total = mine.saturating_add(points);
            let (value, action) = if view.final_round {
                // Last turn: only passing the leader counts; more points are a tie-break.
                if total > rival {
                    (f32::MAX, Action::Bank)
                } else {
                    (points as f32, Action::Roll)
                }
            } else if total >= view.target {
                (f32::MAX, Action::Bank)
            } else {
                let roll_on = expected_turn_points(points, left);
                if roll_on > points as f32 {
                    (roll_on, Action::Roll)
                } else {
                    (points as f32, Action::Bank)
                }
            };
            if best.is_none_or(|(v, m, _)| {
                value > v || (value == v && d.mask.count_ones() < m.count_ones())
            }) {
                best = Some((value, d.mask, action));
            }
        }
        match best {
            Some((_, mask, action)) => FarkleAnswer::from_mask(action, mask),
            None => FarkleAnswer::bank(&[]),
        }
    }
}

export_farkle_agent!(Planner);
