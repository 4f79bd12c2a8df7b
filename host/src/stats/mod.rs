//! The statistics of a match between two versions of an agent, NEW and OLD (`arena match`): pure
//! functions over result counts, no I/O.
//!
//! - [`elo`]: the logistic Elo scale; game results (wins, draws, losses) to score, Elo difference
//!   with its 95 % interval and likelihood of superiority, with cutechess-cli's formulas.
//! - [`pentanomial`]: game pairs (the seats swapped on one seed) to the five pair counts, and the
//!   estimate from the pairs (fishtest's), whose interval shows what the pairing saves.
//! - [`gsprt`]: fishtest's generalized log-likelihood ratio over pairs, logistic and normalized Elo.
//! - [`sprt`]: Wald's bounds from α and β, the decision, and the `--sprt` settings.
//! - [`paired`]: a game's solo benchmark: paired differences in turns, their t interval and a
//!   sequential test on the turns saved.
//! - [`settings`]: the `key=value,…` text of `--sprt`.
//! - [`normal`], [`student_t`]: the distribution functions these need.
//!
//! # The Elo model of `arena match`: logistic
//!
//! Both of fishtest's models are implemented ([`EloModel`]); `arena match` should use the
//! logistic one by default and offer the normalized one as `model=normalized`:
//!
//! - Its bounds are in the unit the match reports. "elo1=10" means "NEW scores at least 51.4 %
//!   against OLD", the same scale as the printed Elo difference and its interval, so a verdict
//!   and the estimate beside it can be read together. A normalized Elo divides the score's
//!   distance from ½ by the standard deviation of a game's score, which depends on the game, on
//!   the two agents and on how much of the luck the shared dice remove; "nelo1=10" therefore asks
//!   for a different gain in points on every game and every pair of agents.
//! - It keeps the saving of the pairing. The GLR estimates the spread of the pair scores from the
//!   data: when the identical dice of a pair make the pair scores less spread, a test with the
//!   same logistic bounds ends in fewer pairs, which is the saving the match is to show.
//! - What the normalized model buys is that the expected length of a test depends on the bounds
//!   alone, not on the draw ratio or the spread: fishtest needs that to budget a server's worth of
//!   tests across time controls with very different draw ratios. A contestant testing a change
//!   has no such budget to plan (and `--games` caps a match anyway).
//!
//! # Figures that would be infinite
//!
//! Nothing here returns NaN or an infinity. An estimate without games is `None`; an Elo
//! difference at a score of 0 or 1 (all lost, all won) is `None`, as is an interval end whose
//! score reaches 0 or 1 (that end is unbounded); the score interval is always given.

pub mod elo;
pub mod gsprt;
pub mod normal;
pub mod paired;
pub mod pentanomial;
pub mod settings;
pub mod sprt;
pub mod student_t;

#[cfg(test)]
mod properties;
#[cfg(test)]
mod simulation;

pub use elo::{elo_to_score, score_to_elo, EloEstimate, Outcome, Wdl};
pub use paired::{DifferenceSummary, TurnDifferences, TurnsSprtSettings};
pub use pentanomial::{NormalizedElo, Pentanomial};
pub use settings::SettingsError;
pub use sprt::{bounds, Decision, EloModel, SprtSettings, SprtStatus};

/// Asserts that `got` is within `tolerance` of `expected`, naming `what` when not.
#[cfg(test)]
pub(crate) fn assert_close(what: &str, got: f64, expected: f64, tolerance: f64) {
    assert!(
        (got - expected).abs() <= tolerance,
        "{what}: got {got}, expected {expected} (±{tolerance})"
    );
}
