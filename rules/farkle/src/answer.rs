//! Judging an answer: the drafted indices and the action.

use crate::score::score_counts;
use crate::FACES;

/// What the player does after its draft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Roll the dice left (all six again after hot dice). Wire code 0.
    Roll = 0,
    /// Bank the turn's points; the turn ends. Wire code 1.
    Bank = 1,
}

impl Action {
    /// The wire code (0 roll, 1 bank).
    pub const fn code(self) -> u32 {
        self as u32
    }

    pub const fn from_code(code: u32) -> Option<Action> {
        match code {
            0 => Some(Action::Roll),
            1 => Some(Action::Bank),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Action::Roll => "roll",
            Action::Bank => "bank",
        }
    }
}

rules_bounds::coded_enum! {
    /// Why a readable answer is not legal. A rejected answer ends the turn with no points, like a
    /// farkle. [`check_answer`] checks in the order of the codes and reports the first failure.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Reject: u32 {
        /// No index at all.
        EmptyDraft = 1 => "empty_draft",
        /// An index is not below the number of dice rolled.
        IndexOutOfRange = 2 => "index_out_of_range",
        /// The same index appears twice.
        RepeatedIndex = 3 => "repeated_index",
        /// Some drafted die scores nothing within this draft.
        NonScoring = 4 => "non_scoring",
        /// The action is neither 0 (roll) nor 1 (bank).
        UnknownAction = 5 => "unknown_action",
    }
    const ALL;
    /// The reason code, 1 to 5, as records carry it.
    fn code;
    fn from_code;
    /// The reason's name in records and messages: `empty_draft`, `index_out_of_range`,
    /// `repeated_index`, `non_scoring`, `unknown_action`.
    fn name;
}

impl core::fmt::Display for Reject {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Judges an answer to `roll`: the drafted `indices` (into `roll`) and the `action` code.
/// Returns the draft's points and the action, or the first failure in this order:
/// [`Reject::EmptyDraft`], [`Reject::IndexOutOfRange`], [`Reject::RepeatedIndex`],
/// [`Reject::NonScoring`], [`Reject::UnknownAction`]. Each check looks at the whole answer
/// before the next one runs (an out-of-range index is reported even after a repeated one).
///
/// Never panics, whatever the slices hold.
pub fn check_answer(roll: &[u8], indices: &[u32], action: u32) -> Result<(u32, Action), Reject> {
    if indices.is_empty() {
        return Err(Reject::EmptyDraft);
    }
    if indices.iter().any(|&i| i as usize >= roll.len()) {
        return Err(Reject::IndexOutOfRange);
    }
    // Every index is below roll.len(), so a repeat shows up within the first len + 1 of them:
    // the quadratic scan stops early.
    for (n, &i) in indices.iter().enumerate() {
        if indices[..n].contains(&i) {
            return Err(Reject::RepeatedIndex);
        }
    }
    let mut counts = [0u8; 7];
    for &i in indices {
        let f = roll[i as usize];
        let slot = if (1..=FACES).contains(&f) {
            f as usize
        } else {
            0
        };
        counts[slot] = counts[slot].saturating_add(1);
    }
    let points = score_counts(&counts);
    let points = points.ok_or(Reject::NonScoring)?;
    let action = Action::from_code(action).ok_or(Reject::UnknownAction)?;
    Ok((points, action))
}
