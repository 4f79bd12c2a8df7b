//! Every legal draft of a roll, as bit masks over the roll's indices.

use crate::score::{face_counts, score_counts};
use crate::DICE;

/// A legal draft: bit `i` of `mask` set means die `i` of the roll is drafted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Draft {
    pub mask: u8,
    pub score: u32,
}

impl Draft {
    /// Number of dice drafted.
    pub const fn dice(&self) -> usize {
        self.mask.count_ones() as usize
    }

    /// True when die `index` is drafted.
    pub const fn contains(&self, index: usize) -> bool {
        index < 8 && self.mask & (1 << index) != 0
    }

    /// The drafted indices, in increasing order.
    pub fn indices(&self) -> impl Iterator<Item = usize> {
        let mask = self.mask;
        (0..8).filter(move |&i| mask & (1 << i) != 0)
    }
}

/// Score of drafting the dice of `roll` whose bits are set in `mask`, or `None` when that draft is
/// illegal (empty, a bit beyond the roll, or a non-scoring die).
pub fn mask_score(roll: &[u8], mask: u8) -> Option<u32> {
    let n = roll.len().min(DICE);
    if mask == 0 || (mask as u32) >> n != 0 {
        return None;
    }
    let mut faces = [0u8; DICE];
    let mut k = 0;
    for (i, &f) in roll.iter().enumerate().take(n) {
        if mask & (1 << i) != 0 {
            faces[k] = f;
            k += 1;
        }
    }
    score_counts(&face_counts(&faces[..k]))
}

/// Every legal draft of `roll`, by increasing mask. Only the first [`DICE`] dice are considered.
/// A roll has a legal draft exactly when it is not a farkle.
pub fn legal_drafts(roll: &[u8]) -> Drafts<'_> {
    Drafts { roll, next: 1 }
}

/// Iterator returned by [`legal_drafts`].
#[derive(Clone, Debug)]
pub struct Drafts<'a> {
    roll: &'a [u8],
    next: u32,
}

impl Iterator for Drafts<'_> {
    type Item = Draft;

    fn next(&mut self) -> Option<Draft> {
        let end = 1u32 << self.roll.len().min(DICE);
        while self.next < end {
            let mask = self.next as u8;
            self.next += 1;
            if let Some(score) = mask_score(self.roll, mask) {
                return Some(Draft { mask, score });
            }
        }
        None
    }
}

/// The legal draft with the highest score; among equal scores the one with the fewest dice (more
/// dice left to roll), then the smallest mask. `None` for a farkle.
pub fn best_draft(roll: &[u8]) -> Option<Draft> {
    let mut best: Option<Draft> = None;
    for d in legal_drafts(roll) {
        let better = match best {
            None => true,
            Some(b) => d.score > b.score || (d.score == b.score && d.dice() < b.dice()),
        };
        if better {
            best = Some(d);
        }
    }
    best
}
