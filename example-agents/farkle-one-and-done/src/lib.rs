//! One and done: drafts a single scoring thing, the one worth most (a triple if the roll has one,
//! the best triple first; else one 1; else one 5), and always banks. The weakest sensible Farkle
//! strategy: it never risks anything and scores little per turn.
#![no_std]

use arena_agent_sdk::farkle::{face_counts, legal_drafts, Action};
use arena_agent_sdk::{export_farkle_agent, FarkleAgent, FarkleAnswer, FarkleView};

#[derive(Default)]
pub struct OneAndDone;

/// Points of three dice of `face`.
fn triple_points(face: u8) -> u32 {
    if face == 1 {
        1000
    } else {
        100 * u32::from(face)
    }
}

impl FarkleAgent for OneAndDone {
    fn draft(&mut self, view: &FarkleView) -> FarkleAnswer {
        let roll = view.roll();
        let counts = face_counts(roll);
        if let Some(face) = (1..=6u8)
            .filter(|&f| counts[f as usize] >= 3)
            .max_by_key(|&f| triple_points(f))
        {
            let mut idx = [0usize; 3];
            for (slot, i) in idx
                .iter_mut()
                .zip((0..roll.len()).filter(|&i| roll[i] == face))
            {
                *slot = i;
            }
            return FarkleAnswer::bank(&idx);
        }
        for face in [1, 5] {
            if let Some(i) = roll.iter().position(|&f| f == face) {
                return FarkleAnswer::bank(&[i]);
            }
        }
        // Unreachable for a real observation (the host never sends a farkle); bank whatever is
        // legal.
        match legal_drafts(roll).next() {
            Some(d) => FarkleAnswer::from_mask(Action::Bank, d.mask),
            None => FarkleAnswer::bank(&[0]),
        }
    }
}

export_farkle_agent!(OneAndDone);
