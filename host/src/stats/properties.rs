//! Property tests of the match statistics over random result counts.

use proptest::prelude::*;

use super::gsprt::{fitted_llr_logistic, fitted_llr_normalized, llr_logistic, llr_normalized};
use super::{EloEstimate, EloModel, Pentanomial, SprtSettings, TurnDifferences, Wdl};

/// An LLR without the fallback to an approximation (`None`: no fit).
type FittedLlr = fn(f64, f64, &Pentanomial) -> Option<f64>;

fn wdl() -> impl Strategy<Value = Wdl> {
    (0u64..500, 0u64..500, 0u64..500).prop_map(|(wins, draws, losses)| Wdl {
        wins,
        draws,
        losses,
    })
}

fn pentanomial() -> impl Strategy<Value = Pentanomial> {
    prop::array::uniform5(prop_oneof![Just(0u64), 0u64..5, 0u64..2000]).prop_map(Pentanomial::new)
}

/// Every figure finite; the score interval holds the score; the Elo interval, where its ends are
/// bounded, holds the Elo.
fn check_interval(e: &EloEstimate) -> Result<(), TestCaseError> {
    let figures = [
        Some(e.score),
        Some(e.score_error),
        Some(e.score_lower),
        Some(e.score_upper),
    ];
    for x in figures
        .into_iter()
        .chain([e.elo, e.elo_lower, e.elo_upper, e.los, e.margin()])
        .flatten()
    {
        prop_assert!(x.is_finite(), "{e:?}");
    }
    prop_assert!(
        e.score_lower <= e.score && e.score <= e.score_upper,
        "{e:?}"
    );
    if let Some(elo) = e.elo {
        prop_assert!(e.elo_lower.is_none_or(|l| l <= elo), "{e:?}");
        prop_assert!(e.elo_upper.is_none_or(|u| elo <= u), "{e:?}");
    }
    if let Some(los) = e.los {
        prop_assert!((0.0..=1.0).contains(&los), "{e:?}");
    }
    Ok(())
}

/// The estimate seen from OLD's side: the score mirrored, the Elo and its interval negated, the
/// LOS complemented.
fn check_mirrored(e: &EloEstimate, m: &EloEstimate) -> Result<(), TestCaseError> {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + a.abs());
    let neg = |x: Option<f64>| x.map(|x| -x);
    prop_assert!(close(m.score, 1.0 - e.score), "{e:?} {m:?}");
    for (a, b) in [
        (m.elo, neg(e.elo)),
        (m.elo_lower, neg(e.elo_upper)),
        (m.elo_upper, neg(e.elo_lower)),
        (m.los, e.los.map(|l| 1.0 - l)),
    ] {
        prop_assert_eq!(a.is_some(), b.is_some(), "{:?} {:?}", e, m);
        if let (Some(a), Some(b)) = (a, b) {
            prop_assert!(close(a, b), "{e:?} {m:?}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn game_intervals_hold_their_estimate_and_mirror(counts in wdl()) {
        match (counts.estimate(), counts.swapped().estimate()) {
            (Some(e), Some(m)) => {
                check_interval(&e)?;
                check_mirrored(&e, &m)?;
            }
            (e, m) => prop_assert!(counts.games() == 0 && e.is_none() && m.is_none()),
        }
    }

    #[test]
    fn pair_intervals_hold_their_estimate_and_mirror(counts in pentanomial()) {
        match (counts.estimate(), counts.swapped().estimate()) {
            (Some(e), Some(m)) => {
                check_interval(&e)?;
                check_mirrored(&e, &m)?;
            }
            (e, m) => prop_assert!(counts.pairs() == 0 && e.is_none() && m.is_none()),
        }
        if let Some(n) = counts.normalized_elo() {
            let m = counts.swapped().normalized_elo().unwrap();
            prop_assert!(n.nelo.is_finite() && n.margin.is_finite() && n.margin >= 0.0);
            prop_assert!((n.nelo + m.nelo).abs() <= 1e-9 * (1.0 + n.nelo.abs()));
        }
    }

    /// One pair moved up a step (a loss turned into a draw, a draw into a win) never lowers the
    /// LLR. The counts stay non-empty, away from fishtest's pseudo-counts (gsprt.rs docs).
    #[test]
    fn llr_grows_with_the_score(
        counts in prop::array::uniform5(1u64..300),
        from in 0usize..4,
        elo0 in -30.0f64..30.0,
        width in 0.5f64..30.0,
    ) {
        let mut counts = counts;
        counts[from] += 1;
        let before = Pentanomial::new(counts);
        counts[from] -= 1;
        counts[from + 1] += 1;
        let after = Pentanomial::new(counts);
        for llr in [llr_logistic, llr_normalized] {
            let (a, b) = (llr(elo0, elo0 + width, &before), llr(elo0, elo0 + width, &after));
            prop_assert!(b >= a - 1e-9 * (1.0 + a.abs()), "{before:?} → {after:?}: {a} → {b}");
        }
    }

    /// Within the bounds `--sprt` accepts (±1000 logistic, ±100 normalized), both models fit
    /// without falling back to an approximation, the LLR is finite, and swapping NEW and OLD
    /// with the hypotheses mirrored negates it.
    #[test]
    fn llr_is_fitted_finite_and_antisymmetric(
        counts in pentanomial(),
        low in -1.0f64..0.999,
        width in 0.0001f64..0.2,
    ) {
        let models: [(FittedLlr, f64); 2] =
            [(fitted_llr_logistic, 1000.0), (fitted_llr_normalized, 100.0)];
        for (llr, limit) in models {
            let (elo0, elo1) = (low * limit, (low + width).min(1.0) * limit);
            let direct = llr(elo0, elo1, &counts);
            let mirrored = llr(-elo1, -elo0, &counts.swapped());
            let (Some(direct), Some(mirrored)) = (direct, mirrored) else {
                return Err(TestCaseError::fail(format!("no fit: {counts:?} {elo0} {elo1}")));
            };
            prop_assert!(direct.is_finite(), "{counts:?} {elo0} {elo1}: {direct}");
            prop_assert!(
                (direct + mirrored).abs() <= 1e-6 * (1.0 + direct.abs()),
                "{counts:?} {elo0} {elo1}: {direct} vs {mirrored}"
            );
        }
    }

    #[test]
    fn settings_read_back_what_they_print(
        low in -1.0f64..0.0,
        high in 0.000_01f64..1.0,
        alpha in 0.001f64..0.5,
        beta in 0.001f64..0.499,
        normalized: bool,
    ) {
        let (model, limit) = if normalized {
            (EloModel::Normalized, 100.0)
        } else {
            (EloModel::Logistic, 1000.0)
        };
        let settings = SprtSettings {
            elo0: low * limit,
            elo1: high * limit,
            alpha,
            beta,
            model,
        };
        prop_assert_eq!(settings.to_string().parse::<SprtSettings>(), Ok(settings));
    }

    /// The figures of the paired differences do not depend on the order of the seeds, and the
    /// interval holds the mean.
    #[test]
    fn paired_figures_ignore_the_order(
        turns in prop::collection::vec((1u32..300, 1u32..300), 1..60),
        rotate in 0usize..60,
    ) {
        let mut a = TurnDifferences::default();
        let mut b = TurnDifferences::default();
        for &(new, old) in &turns {
            a.push(new, old);
        }
        let mut rotated = turns.clone();
        rotated.rotate_left(rotate % turns.len());
        for &(new, old) in rotated.iter().rev() {
            b.push(new, old);
        }
        prop_assert_eq!(a.summary(), b.summary());
        prop_assert_eq!(a.llr(0.0, 0.5).to_bits(), b.llr(0.0, 0.5).to_bits());
        let s = a.summary().unwrap();
        if let (Some(lower), Some(upper)) = (s.lower, s.upper) {
            prop_assert!(lower <= s.mean && s.mean <= upper);
        }
    }
}
