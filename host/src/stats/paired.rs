//! A game's solo benchmark as a match: NEW and OLD each play alone on the same seeds, and each
//! seed gives one paired difference d = NEW's turns to 10,000 − OLD's (negative: NEW was faster).
//!
//! - The mean difference with its paired 95 % interval: d̄ ± t₀.₉₇₅(n−1)·s/√n, s the sample
//!   standard deviation of the differences (the textbook paired t interval).
//! - The sequential test on the turns NEW saves a game, g = −E[d]: H0 g = `turns0` against H1
//!   g = `turns1`. Its statistic is the generalized likelihood ratio of a normal model with unknown
//!   variance: under each hypothesis the variance is fitted to the data given the hypothesised
//!   mean, σ̂²(μ) = Σ(dᵢ − μ)²/n, which gives LLR = n/2·ln(σ̂²(μ₀)/σ̂²(μ₁)), μₖ = −turnsₖ. This
//!   is the statistic of fishtest's `LLRcalc.LLR_alt` (there over pair scores), used the same way:
//!   Wald's bounds on a GLR (a GSPRT), checked after every seed ([`super::sprt`]).
//! - The turn counts are whole numbers, so a difference is only known to ±½ turn: each σ̂² gets the
//!   variance of a uniform error of one turn's width, 1/12. This keeps the LLR finite when every
//!   difference is the same (an agent against itself differs by 0 on every seed).
//! - No decision before [`MIN_PAIRS`] seeds. The normal model is fitted to the data, variance
//!   included, and a few seeds can show far less spread than there is: two versions that play
//!   alike on most seeds give runs of zero differences, broken now and then by a large one. The
//!   simulations of `simulation.rs` (400 matches a case, α = β = 0.05, H0 0 turns, H1 ½ turn):
//!   with differences 0 on 90 % of the seeds and −5 on the others (so H1 holds), a test allowed
//!   to decide from the first seed accepted H0 in 59.5 % of the runs, one that waits for 30 seeds
//!   in 11.5 %; with normal differences (sd 4) the wrong verdicts were 3.75 % at H0 and 4 % at H1,
//!   the same with or without the wait. The 5 % a normal model promises holds when the
//!   differences are not that lopsided.
//! - A property of this statistic: the evidence a seed adds grows with the turns saved until they
//!   pass the middle of turns0 and turns1 by about one standard deviation of the differences, then
//!   shrinks slowly (both hypotheses fit such data badly). A version far faster than `turns1` is
//!   still accepted, a little later than a moderately faster one would be.
//!
//! The sums are kept in integers, so the figures do not depend on the order of the seeds.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::settings::{bound, error_rates, number, ordered, parse, SettingsError, TURNS_LIMIT};
use super::sprt::{Decision, SprtStatus};
use super::student_t::t_95;

/// The variance of a uniform error over one turn (module docs).
const TURN_RESOLUTION_VARIANCE: f64 = 1.0 / 12.0;

/// The seeds the sequential test waits for before it may decide (module docs).
pub const MIN_PAIRS: u64 = 30;

/// The running sums of the paired differences NEW − OLD in turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnDifferences {
    pairs: u64,
    sum: i128,
    sum_of_squares: i128,
}

/// The mean difference NEW − OLD in turns with its paired 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DifferenceSummary {
    pub pairs: u64,
    /// Mean of NEW's turns − OLD's (negative: NEW is faster).
    pub mean: f64,
    /// Sample standard deviation (n − 1) of the differences; `None` for a single pair.
    pub sd: Option<f64>,
    /// The paired 95 % t interval of the mean; `None` for a single pair.
    pub lower: Option<f64>,
    pub upper: Option<f64>,
}

impl TurnDifferences {
    /// Adds one seed: NEW took `new_turns` to reach the target, OLD `old_turns`. (A difference is
    /// below 2³² in size, its square below 2⁶⁴: the sums cannot overflow before 2⁶³ pairs.)
    pub fn push(&mut self, new_turns: u32, old_turns: u32) {
        let d = i128::from(new_turns) - i128::from(old_turns);
        self.pairs += 1;
        self.sum += d;
        self.sum_of_squares += d * d;
    }

    pub fn pairs(&self) -> u64 {
        self.pairs
    }

    /// Σ(dᵢ − d̄)², from the integer sums: (n·Σd² − (Σd)²)/n, exact up to the last division
    /// (in floating point should the integers overflow, far beyond any real match).
    fn centred_sum_of_squares(&self) -> f64 {
        let n = i128::from(self.pairs);
        let exact = n
            .checked_mul(self.sum_of_squares)
            .zip(self.sum.checked_mul(self.sum))
            .and_then(|(a, b)| a.checked_sub(b));
        match exact {
            Some(numerator) => numerator as f64 / n as f64,
            None => {
                let mean = self.sum as f64 / n as f64;
                (self.sum_of_squares as f64 - mean * self.sum as f64).max(0.0)
            }
        }
    }

    /// The mean difference and its paired 95 % interval; `None` without pairs.
    pub fn summary(&self) -> Option<DifferenceSummary> {
        if self.pairs == 0 {
            return None;
        }
        let n = self.pairs as f64;
        let mean = self.sum as f64 / n;
        let sd = (self.pairs >= 2).then(|| (self.centred_sum_of_squares() / (n - 1.0)).sqrt());
        let half_width = t_95(self.pairs - 1)
            .zip(sd)
            .map(|(t, sd)| t * sd / n.sqrt());
        Some(DifferenceSummary {
            pairs: self.pairs,
            mean,
            sd,
            lower: half_width.map(|h| mean - h),
            upper: half_width.map(|h| mean + h),
        })
    }

    /// The GLR of H1 "NEW saves `saved1` turns a game" against H0 "NEW saves `saved0`" (module
    /// docs). 0 without pairs.
    pub fn llr(&self, saved0: f64, saved1: f64) -> f64 {
        if self.pairs == 0 {
            return 0.0;
        }
        let n = self.pairs as f64;
        let mean = self.sum as f64 / n;
        let spread = self.centred_sum_of_squares() / n;
        // Under "NEW saves g turns" the mean difference is −g.
        let variance = |saved: f64| spread + (mean + saved).powi(2) + TURN_RESOLUTION_VARIANCE;
        n / 2.0 * (variance(saved0) / variance(saved1)).ln()
    }
}

/// A sequential test on the turns NEW saves a game in the solo benchmark: H0 `turns0` against H1
/// `turns1` (turns saved: positive is NEW faster).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TurnsSprtSettings {
    pub turns0: f64,
    pub turns1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Default for TurnsSprtSettings {
    /// turns0=0, turns1=0.5, alpha=0.05, beta=0.05: "does NEW save at least half a turn a game?"
    fn default() -> Self {
        TurnsSprtSettings {
            turns0: 0.0,
            turns1: 0.5,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl TurnsSprtSettings {
    const KEYS: &'static [&'static str] = &["turns0", "turns1", "alpha", "beta"];

    /// The LLR of the differences against Wald's bounds, and the decision, which is
    /// [`Decision::Continue`] before [`MIN_PAIRS`] seeds whatever the LLR.
    pub fn status(&self, differences: &TurnDifferences) -> SprtStatus {
        let mut status = SprtStatus::new(
            differences.llr(self.turns0, self.turns1),
            self.alpha,
            self.beta,
        );
        if differences.pairs() < MIN_PAIRS {
            status.decision = Decision::Continue;
        }
        status
    }
}

/// Parses `turns0=…,turns1=…,alpha=…,beta=…`; missing keys take the [`Default`] values. The bounds
/// must lie within ±1000 with turns0 < turns1; alpha and beta strictly between 0 and 1 with
/// alpha + beta < 1.
impl FromStr for TurnsSprtSettings {
    type Err = SettingsError;

    fn from_str(text: &str) -> Result<Self, SettingsError> {
        let values = parse(text, Self::KEYS)?;
        let default = TurnsSprtSettings::default();
        let turns0 = number("turns0", values[0], default.turns0)?;
        let turns1 = number("turns1", values[1], default.turns1)?;
        let turns0 = bound("turns0", turns0, TURNS_LIMIT)?;
        let turns1 = bound("turns1", turns1, TURNS_LIMIT)?;
        let (turns0, turns1) = ordered(("turns0", "turns1"), turns0, turns1)?;
        let (alpha, beta) = error_rates(
            number("alpha", values[2], default.alpha)?,
            number("beta", values[3], default.beta)?,
        )?;
        Ok(TurnsSprtSettings {
            turns0,
            turns1,
            alpha,
            beta,
        })
    }
}

/// The settings in the form [`FromStr`] reads back.
impl fmt::Display for TurnsSprtSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "turns0={},turns1={},alpha={},beta={}",
            self.turns0, self.turns1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::assert_close;

    fn differences(new: &[u32], old: &[u32]) -> TurnDifferences {
        let mut d = TurnDifferences::default();
        for (&n, &o) in new.iter().zip(old) {
            d.push(n, o);
        }
        d
    }

    const NEW: [u32; 10] = [18, 22, 25, 19, 30, 21, 17, 24, 20, 23];
    const OLD: [u32; 10] = [20, 21, 27, 22, 29, 25, 18, 24, 23, 26];

    /// Differences −2, 1, −2, −3, 1, −4, −1, 0, −3, −3. Expected: numpy's mean and std(ddof=1),
    /// and scipy.stats.t.interval(0.95, 9, loc=mean, scale=sd/√10) (scipy 1.17).
    #[test]
    fn paired_interval_matches_scipy() {
        let s = differences(&NEW, &OLD).summary().unwrap();
        assert_eq!(s.pairs, 10);
        assert_close("mean", s.mean, -1.6, 1e-12);
        assert_close("sd", s.sd.unwrap(), 1.776_388_345_929_897_3, 1e-12);
        assert_close("lower", s.lower.unwrap(), -2.870_751_670_946_758, 1e-9);
        assert_close("upper", s.upper.unwrap(), -0.329_248_329_053_242_2, 1e-9);
    }

    /// Expected: n/2·ln((Σ(d + g₀)²/n + 1/12)/(Σ(d + g₁)²/n + 1/12)) computed with numpy on the
    /// same differences.
    #[test]
    fn llr_matches_the_normal_model() {
        let d = differences(&NEW, &OLD);
        assert_close("0 vs 0.5", d.llr(0.0, 0.5), 1.413_145_023_001_949_6, 1e-9);
        assert_close("0 vs 2", d.llr(0.0, 2.0), 2.878_509_628_435_235, 1e-9);
        assert_close(
            "swapped hypotheses",
            d.llr(0.5, 0.0),
            -1.413_145_023_001_949_6,
            1e-9,
        );
    }

    /// An agent against itself: 0 on every seed. The LLR per seed is ½·ln((1/12)/(¼ + 1/12)) =
    /// −ln 2, below the lower bound from the 5th seed, but the test waits for 30.
    #[test]
    fn an_agent_against_itself_is_not_better_after_the_wait() {
        let settings = TurnsSprtSettings::default();
        let mut d = TurnDifferences::default();
        for pair in 1..=MIN_PAIRS {
            d.push(20, 20);
            let status = settings.status(&d);
            assert_close(
                "llr",
                status.llr,
                -(pair as f64) * std::f64::consts::LN_2,
                1e-9,
            );
            let expected = if pair < MIN_PAIRS {
                Decision::Continue
            } else {
                Decision::AcceptH0
            };
            assert_eq!(status.decision, expected, "pair {pair}");
        }
        let s = d.summary().unwrap();
        assert_eq!(
            (s.mean, s.sd, s.lower, s.upper),
            (0.0, Some(0.0), Some(0.0), Some(0.0))
        );
    }

    /// NEW 3 turns faster, differences −1, −3, −5, −2, −4 over and over: accepted as better at
    /// seed 30, the first seed a decision is allowed.
    #[test]
    fn a_clearly_faster_agent_is_accepted() {
        let settings = TurnsSprtSettings::default();
        let mut d = TurnDifferences::default();
        let mut decided = None;
        for pair in 1..=100u64 {
            let saved = [1, 3, 5, 2, 4][(pair as usize - 1) % 5];
            d.push(20, 20 + saved);
            if settings.status(&d).decision != Decision::Continue {
                decided = Some((pair, settings.status(&d).decision));
                break;
            }
        }
        assert_eq!(decided, Some((MIN_PAIRS, Decision::AcceptH1)));
    }

    #[test]
    fn one_pair_has_no_interval_and_no_pairs_no_summary() {
        let one = differences(&[18], &[20]).summary().unwrap();
        assert_eq!(
            (one.mean, one.sd, one.lower, one.upper),
            (-2.0, None, None, None)
        );
        assert_eq!(TurnDifferences::default().summary(), None);
        assert_eq!(TurnDifferences::default().llr(0.0, 0.5), 0.0);
    }

    #[test]
    fn turns_settings_parse_with_defaults_and_name_bad_keys() {
        let all: TurnsSprtSettings = "".parse().unwrap();
        assert_eq!(all, TurnsSprtSettings::default());
        let some: TurnsSprtSettings = "turns1=1.5,alpha=0.01".parse().unwrap();
        assert_eq!(
            (some.turns0, some.turns1, some.alpha, some.beta),
            (0.0, 1.5, 0.01, 0.05)
        );
        assert_eq!(some.to_string().parse::<TurnsSprtSettings>().unwrap(), some);

        // An Elo bound given to the solo benchmark is refused, not read as turns.
        let error = "elo0=0,elo1=10".parse::<TurnsSprtSettings>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown key `elo0`; the keys are turns0, turns1, alpha, beta"
        );
        let error = "turns0=1,turns1=0.5"
            .parse::<TurnsSprtSettings>()
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "turns0=1, turns1=0.5: turns0 must be below turns1"
        );
    }
}
