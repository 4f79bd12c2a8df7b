//! The generalized log-likelihood ratio (GLR) of pentanomial results, as fishtest computes it
//! (`server/fishtest/stats/LLRcalc.py`, by Michel Van den Bergh; the theory is in his notes
//! "support_MLE_multinomial.pdf" and "normalized_elo_practical.pdf").
//!
//! The pairs are a sample of a distribution p over the five pair scores a = 0, ¼, ½, ¾, 1 (the
//! pair's points / 2). H0 and H1 fix one statistic of p: its mean s (logistic Elo: s = L(elo) =
//! 1/(1 + 10^(−elo/400))) or its t-value (μ − ½)/σ (normalized Elo: t = √2·nelo/(800/ln 10)). For
//! each hypothesis the maximum-likelihood p with that statistic is found, and
//! LLR = N·Σ p̂ₖ·(ln p₁ₖ − ln p₀ₖ), with p̂ the observed frequencies and N the pairs.
//!
//! The maximum-likelihood p with mean s is p̂ₖ/(1 + x(aₖ − s)), x the root of the secular equation
//! Σ p̂ₖ(aₖ − s)/(1 + x(aₖ − s)) = 0 (Proposition 1.1 of the first note). For the t-value the same
//! form is iterated, the constraint linearized around the current estimate (section 4.1 of the
//! second note; at most 10 steps, as fishtest).
//!
//! Empty counts are replaced by 10⁻³ first (fishtest's `regularize`), so that every hypothesis can
//! be fitted. A consequence, inherited from fishtest: the LLR can drop by about 10⁻⁵ when a pair
//! lands in a count that was empty; away from empty counts it grows with every better pair.

use super::elo::elo_to_score;
use super::pentanomial::{Pentanomial, NELO_PER_T};

/// The pseudo-count of an empty result (fishtest's `regularize`).
const EMPTY_COUNT: f64 = 1e-3;

/// The pair scores (points / 2) of the five counts.
const VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

type Pdf = [f64; 5];

/// The regularized frequencies p̂ and their total N (fishtest's `results_to_pdf`).
fn regularized(results: &Pentanomial) -> (f64, Pdf) {
    let counts = results
        .counts
        .map(|c| if c == 0 { EMPTY_COUNT } else { c as f64 });
    let n: f64 = counts.iter().sum();
    (n, counts.map(|c| c / n))
}

fn mean_and_variance(values: &[f64; 5], pdf: &Pdf) -> (f64, f64) {
    let mean: f64 = values.iter().zip(pdf).map(|(a, p)| a * p).sum();
    let var = values
        .iter()
        .zip(pdf)
        .map(|(a, p)| p * (a - mean).powi(2))
        .sum();
    (mean, var)
}

/// The root x of Σ pₖaₖ/(1 + x·aₖ) = 0 between −1/max a and −1/min a (where every 1 + x·aₖ > 0),
/// by bisection: the sum falls strictly with x there. `None` when the aₖ do not straddle 0 (no such
/// root). fishtest solves it with `scipy.optimize.brentq` on the same bracket narrowed by 10⁻⁹.
fn secular(values: &[f64; 5], pdf: &Pdf) -> Option<f64> {
    let (min, max) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &a| {
            (lo.min(a), hi.max(a))
        });
    if min >= 0.0 || max <= 0.0 {
        return None;
    }
    let f = |x: f64| -> f64 {
        values
            .iter()
            .zip(pdf)
            .map(|(a, p)| p * a / (1.0 + x * a))
            .sum()
    };
    let epsilon = 1e-9;
    let (mut lo, mut hi) = (-1.0 / max + epsilon, -1.0 / min - epsilon);
    if !(f(lo) > 0.0 && f(hi) < 0.0) {
        return None;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The maximum-likelihood distribution with mean `s` (fishtest's `MLE_expected`).
fn mle_expected(pdf: &Pdf, s: f64) -> Option<Pdf> {
    let shifted = VALUES.map(|a| a - s);
    let x = secular(&shifted, pdf)?;
    Some(std::array::from_fn(|k| pdf[k] / (1.0 + x * shifted[k])))
}

/// The maximum-likelihood distribution with t-value (μ − `reference`)/σ = `t` (fishtest's
/// `MLE_t_value`).
fn mle_t_value(pdf: &Pdf, reference: f64, t: f64) -> Option<Pdf> {
    let mut mle = [0.2; 5];
    for _ in 0..10 {
        let previous = mle;
        let (mu, var) = mean_and_variance(&VALUES, &mle);
        let sigma = var.sqrt();
        let shifted =
            VALUES.map(|a| a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0);
        let x = secular(&shifted, pdf)?;
        mle = std::array::from_fn(|k| pdf[k] / (1.0 + x * shifted[k]));
        let change = (0..5)
            .map(|k| (previous[k] - mle[k]).abs())
            .fold(0.0, f64::max);
        if change < 1e-9 {
            break;
        }
    }
    mle.iter().all(|p| p.is_finite() && *p > 0.0).then_some(mle)
}

/// N·Σ p̂ₖ(ln p₁ₖ − ln p₀ₖ).
fn llr(n: f64, pdf: &Pdf, pdf0: &Pdf, pdf1: &Pdf) -> f64 {
    n * (0..5)
        .map(|k| pdf[k] * (pdf1[k].ln() - pdf0[k].ln()))
        .sum::<f64>()
}

/// The GLR of H1: elo = `elo1` against H0: elo = `elo0`, logistic Elo (fishtest's
/// `LLR_logistic`). 0 without pairs (no evidence; fishtest would give about 10⁻⁶ from the
/// pseudo-counts). Should the fit fail (it cannot for scores strictly between 0 and 1), the
/// approximation of [`llr_logistic_approximation`] is returned.
pub fn llr_logistic(elo0: f64, elo1: f64, results: &Pentanomial) -> f64 {
    fitted_llr_logistic(elo0, elo1, results)
        .unwrap_or_else(|| llr_logistic_approximation(elo0, elo1, results))
}

/// [`llr_logistic`] without the fallback: `None` when a hypothesis cannot be fitted.
pub(crate) fn fitted_llr_logistic(elo0: f64, elo1: f64, results: &Pentanomial) -> Option<f64> {
    if results.pairs() == 0 {
        return Some(0.0);
    }
    let (n, pdf) = regularized(results);
    let pdf0 = mle_expected(&pdf, elo_to_score(elo0))?;
    let pdf1 = mle_expected(&pdf, elo_to_score(elo1))?;
    Some(llr(n, &pdf, &pdf0, &pdf1))
}

/// The GLR of H1: nelo = `nelo1` against H0: nelo = `nelo0`, normalized Elo (fishtest's
/// `LLR_normalized`: for pairs the t-values are √2·nelo/(800/ln 10)). 0 without pairs.
///
/// The fit exists for moderate bounds only: fishtest's own code raises an error for about a third
/// of random results once the bounds reach ±300, and none within ±100 (the range `--sprt` accepts
/// for this model, where the property tests find no failure here either). Should it fail,
/// fishtest's closed-form approximation [`llr_normalized_approximation`] is returned instead.
pub fn llr_normalized(nelo0: f64, nelo1: f64, results: &Pentanomial) -> f64 {
    fitted_llr_normalized(nelo0, nelo1, results)
        .unwrap_or_else(|| llr_normalized_approximation(nelo0, nelo1, results))
}

/// [`llr_normalized`] without the fallback: `None` when a hypothesis cannot be fitted.
pub(crate) fn fitted_llr_normalized(nelo0: f64, nelo1: f64, results: &Pentanomial) -> Option<f64> {
    if results.pairs() == 0 {
        return Some(0.0);
    }
    let (n, pdf) = regularized(results);
    let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
    let pdf0 = mle_t_value(&pdf, 0.5, t(nelo0))?;
    let pdf1 = mle_t_value(&pdf, 0.5, t(nelo1))?;
    Some(llr(n, &pdf, &pdf0, &pdf1))
}

/// fishtest's `LLR_alt` (times N): the GLR when the pair scores are taken as normal with unknown
/// variance, N/2·ln(Σ p̂ₖ(aₖ − s₀)² / Σ p̂ₖ(aₖ − s₁)²).
pub fn llr_logistic_approximation(elo0: f64, elo1: f64, results: &Pentanomial) -> f64 {
    if results.pairs() == 0 {
        return 0.0;
    }
    let (n, pdf) = regularized(results);
    let spread = |s: f64| -> f64 { (0..5).map(|k| pdf[k] * (VALUES[k] - s).powi(2)).sum() };
    n / 2.0 * (spread(elo_to_score(elo0)) / spread(elo_to_score(elo1))).ln()
}

/// fishtest's `LLR_normalized_alt` (section 4.2 of the normalized-Elo note): with nt the observed
/// (μ − ½)/σ_game, σ_game = √(2σ²) for pairs, and nt₀, nt₁ the bounds over 800/ln 10,
/// LLR = games/2·ln((1 + (nt − nt₀)²)/(1 + (nt − nt₁)²)), games = 2·pairs.
pub fn llr_normalized_approximation(nelo0: f64, nelo1: f64, results: &Pentanomial) -> f64 {
    if results.pairs() == 0 {
        return 0.0;
    }
    let (n, pdf) = regularized(results);
    let (mu, var) = mean_and_variance(&VALUES, &pdf);
    let nt = (mu - 0.5) / (2.0 * var).sqrt();
    let (nt0, nt1) = (nelo0 / NELO_PER_T, nelo1 / NELO_PER_T);
    n * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::assert_close;

    fn counts(c: [u64; 5]) -> Pentanomial {
        Pentanomial::new(c)
    }

    /// Expected LLRs: fishtest's `LLRcalc.LLR_logistic` and `LLR_alt` (times N) run on these
    /// counts (scipy 1.17). The first two cases are the pentanomial self-tests of fishtest's
    /// `stat_util.py` (`update_SPRT` with elo0=-3, elo1=1; `SPRT_elo` with elo0=0.2, elo1=0.9); the
    /// fourth has empty counts (regularized), the last a single pair.
    const LOGISTIC: [LlrCase; 7] = [
        (
            [10789, 19328, 33806, 19402, 10543],
            -3.0,
            1.0,
            2.131_067_811_794_080_7,
            2.131_028_413_607_471_5,
        ),
        (
            [39, 2226, 31451, 2412, 40],
            0.2,
            0.9,
            2.162_542_580_048_359_3,
            2.162_275_544_727_494_4,
        ),
        (
            [3, 12, 30, 18, 7],
            0.0,
            10.0,
            0.696_067_445_860_246_7,
            0.696_654_798_091_777,
        ),
        (
            [0, 3, 10, 6, 1],
            0.0,
            10.0,
            0.438_740_785_433_698_54,
            0.399_317_726_199_363_9,
        ),
        (
            [5, 30, 80, 60, 25],
            0.0,
            10.0,
            3.581_689_657_400_138_2,
            3.584_655_386_144_729_7,
        ),
        (
            [25, 60, 80, 30, 5],
            0.0,
            10.0,
            -4.073_117_379_103_048,
            -4.068_115_969_507_894,
        ),
        (
            [1, 0, 0, 0, 0],
            0.0,
            10.0,
            -0.029_255_446_370_397_95,
            -0.028_414_470_679_668_59,
        ),
    ];

    /// A case of fishtest's LLRs: counts, the two hypotheses, the exact LLR and its approximation.
    type LlrCase = ([u64; 5], f64, f64, f64, f64);

    /// Each case's LLR by `exact` and by `approximation` is fishtest's.
    fn assert_llrs(
        cases: &[LlrCase],
        exact: fn(f64, f64, &Pentanomial) -> f64,
        approximation: fn(f64, f64, &Pentanomial) -> f64,
    ) {
        for &(c, h0, h1, want_exact, want_approximation) in cases {
            let what = format!("{c:?} {h0}..{h1}");
            assert_close(&what, exact(h0, h1, &counts(c)), want_exact, 1e-8);
            let got = approximation(h0, h1, &counts(c));
            assert_close(&what, got, want_approximation, 1e-8);
        }
    }

    #[test]
    fn logistic_llr_matches_fishtest() {
        assert_llrs(&LOGISTIC, llr_logistic, llr_logistic_approximation);
    }

    /// Expected LLRs: fishtest's `LLRcalc.LLR_normalized` and `LLR_normalized_alt` run on these
    /// counts (scipy 1.17). The first is the normalized self-test of fishtest's `stat_util.py`
    /// (`SPRT_elo` with elo0=0.764, elo1=3.439).
    #[test]
    fn normalized_llr_matches_fishtest() {
        let cases = [
            (
                [39, 2226, 31451, 2412, 40],
                0.764,
                3.439,
                2.162_940_869_584_568,
                2.162_843_458_458_039_6,
            ),
            (
                [3, 12, 30, 18, 7],
                0.0,
                10.0,
                0.512_910_562_336_460_2,
                0.514_824_542_607_564_9,
            ),
            (
                [0, 3, 10, 6, 1],
                0.0,
                10.0,
                0.250_676_463_782_842_3,
                0.237_655_819_082_655_7,
            ),
            (
                [10789, 19328, 33806, 19402, 10543],
                0.0,
                2.0,
                -6.070_429_067_588_585,
                -6.070_282_774_714_087,
            ),
        ];
        assert_llrs(&cases, llr_normalized, llr_normalized_approximation);
    }

    #[test]
    fn no_pairs_is_no_evidence() {
        let none = Pentanomial::default();
        assert_eq!(llr_logistic(0.0, 10.0, &none), 0.0);
        assert_eq!(llr_normalized(0.0, 10.0, &none), 0.0);
        assert_eq!(llr_logistic_approximation(0.0, 10.0, &none), 0.0);
        assert_eq!(llr_normalized_approximation(0.0, 10.0, &none), 0.0);
    }

    /// The fitted distributions have the hypothesised statistic (fishtest asserts the same).
    #[test]
    fn fits_meet_their_constraint() {
        let (_, pdf) = regularized(&counts([3, 12, 30, 18, 7]));
        let fit = mle_expected(&pdf, 0.53).unwrap();
        assert_close("mean", mean_and_variance(&VALUES, &fit).0, 0.53, 1e-9);
        let fit = mle_t_value(&pdf, 0.5, 0.1).unwrap();
        let (mu, var) = mean_and_variance(&VALUES, &fit);
        assert_close("t", (mu - 0.5) / var.sqrt(), 0.1, 1e-5);
    }

    #[test]
    fn secular_needs_values_on_both_sides_of_zero() {
        let pdf = [0.2; 5];
        assert_eq!(secular(&[0.1, 0.2, 0.3, 0.4, 0.5], &pdf), None);
        assert_eq!(secular(&[-0.5, -0.4, -0.3, -0.2, 0.0], &pdf), None);
        // Symmetric values: the root is x = 0.
        assert_close(
            "x",
            secular(&[-0.5, -0.25, 0.0, 0.25, 0.5], &pdf).unwrap(),
            0.0,
            1e-12,
        );
    }
}
