//! One and done: drafts a single scoring thing (one 1, else one 5, else the first triple of the
//! roll) and always banks. The weakest sensible Farkle strategy: it never risks anything and
//! scores little per turn.
#![no_std]

use arena_agent_sdk::farkle::{face_counts, legal_drafts, Action};
use arena_agent_sdk::{export_farkle_agent, FarkleAgent, FarkleAnswer, FarkleView};

#[derive(Default)]
pub struct OneAndDone;

impl FarkleAgent for OneAndDone {
    fn draft(&mut self, view: &FarkleView) -> FarkleAnswer {
        let roll = view.roll();
        for face in [1, 5] {
            if let Some(i) = roll.iter().position(|&f| f == face) {
                return FarkleAnswer::bank(&[i]);
            }
        }
        // No 1 and no 5: the roll has a triple (the host never sends a farkle). Take the three
        // first dice of the face of the first die that belongs to one.
        let counts = face_counts(roll);
        if let Some(&face) = roll.iter().find(|&&f| counts[f as usize] >= 3) {
            let mut idx = [0usize; 3];
            for (slot, i) in idx
                .iter_mut()
                .zip((0..roll.len()).filter(|&i| roll[i] == face))
            {
                *slot = i;
            }
            return FarkleAnswer::bank(&idx);
        }
        // Unreachable for a real observation; bank whatever is legal.
        match legal_drafts(roll).next() {
            Some(d) => FarkleAnswer::from_mask(Action::Bank, d.mask),
            None => FarkleAnswer::bank(&[0]),
        }
    }
}

export_farkle_agent!(OneAndDone);
