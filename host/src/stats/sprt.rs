//! The sequential probability ratio test over game pairs (Wald's SPRT on fishtest's generalized
//! log-likelihood ratio, [`super::gsprt`]): after every pair, continue while
//! lower < LLR < upper, accept H1 (NEW is better by `elo1`) above the upper bound, accept H0 (NEW
//! is not better than `elo0`) below the lower one. Wald's bounds for error rates α (accepting H1
//! when H0 holds) and β (accepting H0 when H1 holds): lower = ln(β/(1−α)), upper = ln((1−β)/α).
//!
//! fishtest updates the LLR after batches of pairs and corrects the bounds for the overshoot of
//! a batch (Siegmund, Sequential Analysis, Corollary 8.33). A match updates after every single
//! pair, so its overshoot is one pair's step and no correction is applied: the bounds are Wald's,
//! whose real error rates are at most the nominal ones.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::gsprt::{llr_logistic, llr_normalized};
use super::pentanomial::Pentanomial;
use super::settings::{
    bound, error_rates, number, ordered, parse, SettingsError, LOGISTIC_LIMIT, NORMALIZED_LIMIT,
};

/// Wald's bounds (lower, upper) = (ln(β/(1−α)), ln((1−β)/α)).
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Between the bounds: play on.
    Continue,
    /// Below the lower bound: NEW is not better than the H0 bound.
    AcceptH0,
    /// Above the upper bound: NEW is better by the H1 bound.
    AcceptH1,
}

/// The test's state after some results.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: Decision,
}

impl SprtStatus {
    /// The status of `llr` between Wald's bounds for `alpha` and `beta` (strict comparisons, as
    /// fishtest's `update_SPRT`).
    pub fn new(llr: f64, alpha: f64, beta: f64) -> Self {
        let (lower, upper) = bounds(alpha, beta);
        let decision = if llr < lower {
            Decision::AcceptH0
        } else if llr > upper {
            Decision::AcceptH1
        } else {
            Decision::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// The scale of `elo0` and `elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EloModel {
    /// Logistic Elo: a difference of `elo` means an expected score of 1/(1 + 10^(−elo/400)).
    Logistic,
    /// fishtest's normalized Elo: (score − ½)/σ·800/ln 10, σ the standard deviation of a game's
    /// score.
    Normalized,
}

impl EloModel {
    fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
}

/// An SPRT of NEW against OLD over game pairs: H0 elo = `elo0` against H1 elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtSettings {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

impl Default for SprtSettings {
    /// elo0=0, elo1=10, alpha=0.05, beta=0.05, logistic.
    fn default() -> Self {
        SprtSettings {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        }
    }
}

impl SprtSettings {
    const KEYS: &'static [&'static str] = &["elo0", "elo1", "alpha", "beta", "model"];

    /// The GLR of the pairs for these bounds, in the settings' model.
    pub fn llr(&self, results: &Pentanomial) -> f64 {
        match self.model {
            EloModel::Logistic => llr_logistic(self.elo0, self.elo1, results),
            EloModel::Normalized => llr_normalized(self.elo0, self.elo1, results),
        }
    }

    /// The LLR of the pairs against Wald's bounds, and the decision.
    pub fn status(&self, results: &Pentanomial) -> SprtStatus {
        SprtStatus::new(self.llr(results), self.alpha, self.beta)
    }
}

/// Parses `elo0=…,elo1=…,alpha=…,beta=…,model=logistic|normalized`; missing keys take the
/// [`Default`] values. The bounds must lie within ±1000 (logistic) or ±100 (normalized) with
/// elo0 < elo1; alpha and beta strictly between 0 and 1 with alpha + beta < 1.
impl FromStr for SprtSettings {
    type Err = SettingsError;

    fn from_str(text: &str) -> Result<Self, SettingsError> {
        let values = parse(text, Self::KEYS)?;
        let default = SprtSettings::default();
        let model = match values[4] {
            None => default.model,
            Some("logistic") => EloModel::Logistic,
            Some("normalized") => EloModel::Normalized,
            Some(other) => {
                return Err(SettingsError::OutOfRange {
                    key: "model",
                    value: other.to_string(),
                    allowed: "logistic or normalized",
                })
            }
        };
        let limit = match model {
            EloModel::Logistic => LOGISTIC_LIMIT,
            EloModel::Normalized => NORMALIZED_LIMIT,
        };
        let elo0 = bound("elo0", number("elo0", values[0], default.elo0)?, limit)?;
        let elo1 = bound("elo1", number("elo1", values[1], default.elo1)?, limit)?;
        let (elo0, elo1) = ordered(("elo0", "elo1"), elo0, elo1)?;
        let (alpha, beta) = error_rates(
            number("alpha", values[2], default.alpha)?,
            number("beta", values[3], default.beta)?,
        )?;
        Ok(SprtSettings {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }
}

/// The settings in the form [`FromStr`] reads back.
impl fmt::Display for SprtSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.model.name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::assert_close;

    #[test]
    fn wald_bounds() {
        // ln(0.05/0.95) and ln(0.95/0.05); fishtest's SPRT() gives the same.
        let (lower, upper) = bounds(0.05, 0.05);
        assert_close("lower", lower, -2.944_438_979_166_440_3, 1e-15);
        assert_close("upper", upper, 2.944_438_979_166_440_3, 1e-15);
        let (lower, upper) = bounds(0.05, 0.1);
        assert_close("lower", lower, -2.251_291_798_606_495, 1e-15);
        assert_close("upper", upper, 2.890_371_757_896_164_5, 1e-15);
    }

    /// LLRs from fishtest's `LLR_logistic` (gsprt.rs tests); the first is the `update_SPRT`
    /// self-test of fishtest's `stat_util.py`, which leaves that test running.
    #[test]
    fn decisions_follow_the_llr() {
        let settings = |elo0, elo1| SprtSettings {
            elo0,
            elo1,
            ..SprtSettings::default()
        };
        for (counts, elo0, elo1, llr, decision) in [
            (
                [10789, 19328, 33806, 19402, 10543],
                -3.0,
                1.0,
                2.131_067_811_794_080_7,
                Decision::Continue,
            ),
            (
                [5, 30, 80, 60, 25],
                0.0,
                10.0,
                3.581_689_657_400_138_2,
                Decision::AcceptH1,
            ),
            (
                [25, 60, 80, 30, 5],
                0.0,
                10.0,
                -4.073_117_379_103_048,
                Decision::AcceptH0,
            ),
        ] {
            let status = settings(elo0, elo1).status(&Pentanomial::new(counts));
            assert_close("llr", status.llr, llr, 1e-8);
            assert_eq!(status.decision, decision, "{counts:?}");
        }
        assert_eq!(
            SprtStatus::new(2.9, 0.05, 0.05).decision,
            Decision::Continue
        );
        assert_eq!(
            SprtStatus::new(-2.9, 0.05, 0.05).decision,
            Decision::Continue
        );
    }

    /// The normalized model reaches fishtest's `LLR_normalized` through the settings.
    #[test]
    fn the_normalized_model_is_used_when_asked() {
        let settings: SprtSettings = "elo0=0.764,elo1=3.439,model=normalized".parse().unwrap();
        let counts = Pentanomial::new([39, 2226, 31451, 2412, 40]);
        assert_close("llr", settings.llr(&counts), 2.162_940_869_584_568, 1e-8);
        assert_eq!(settings.status(&counts).decision, Decision::Continue);
    }

    #[test]
    fn missing_keys_take_the_defaults() {
        let all: SprtSettings = "".parse().unwrap();
        assert_eq!(all, SprtSettings::default());
        assert_eq!(
            (all.elo0, all.elo1, all.alpha, all.beta, all.model),
            (0.0, 10.0, 0.05, 0.05, EloModel::Logistic)
        );
        let some: SprtSettings = " elo1 = 5 , beta=0.1".parse().unwrap();
        assert_eq!(
            (some.elo0, some.elo1, some.alpha, some.beta),
            (0.0, 5.0, 0.05, 0.1)
        );
        let full: SprtSettings = "beta=0.2,alpha=0.01,elo1=3,elo0=-2,model=normalized"
            .parse()
            .unwrap();
        assert_eq!(
            full,
            SprtSettings {
                elo0: -2.0,
                elo1: 3.0,
                alpha: 0.01,
                beta: 0.2,
                model: EloModel::Normalized
            }
        );
        assert_eq!(full.to_string().parse::<SprtSettings>().unwrap(), full);
        assert_eq!(
            full.to_string(),
            "elo0=-2,elo1=3,alpha=0.01,beta=0.2,model=normalized"
        );
    }

    /// Each bad text gives its error, and the message names the key or the text at fault.
    #[test]
    fn bad_settings_are_named() {
        for (text, error, named) in [
            (
                "elo0=0,elo2=5",
                SettingsError::UnknownKey {
                    key: "elo2".into(),
                    known: SprtSettings::KEYS,
                },
                "elo2",
            ),
            (
                "elo1=5,elo1=6",
                SettingsError::DuplicateKey("elo1".into()),
                "elo1",
            ),
            ("elo1", SettingsError::NotKeyValue("elo1".into()), "elo1"),
            (
                "elo0=0,",
                SettingsError::NotKeyValue("".into()),
                "key=value",
            ),
            ("=3", SettingsError::NotKeyValue("=3".into()), "=3"),
            (
                "elo1=ten",
                SettingsError::NotANumber {
                    key: "elo1".into(),
                    value: "ten".into(),
                },
                "ten",
            ),
            (
                "alpha=nan",
                SettingsError::NotANumber {
                    key: "alpha".into(),
                    value: "nan".into(),
                },
                "alpha",
            ),
            (
                "elo1=inf",
                SettingsError::NotANumber {
                    key: "elo1".into(),
                    value: "inf".into(),
                },
                "elo1",
            ),
            (
                "elo0=10,elo1=10",
                SettingsError::BoundsOrder {
                    low: "elo0",
                    high: "elo1",
                    values: (10.0, 10.0),
                },
                "elo0 must be below elo1",
            ),
            (
                "elo1=1500",
                SettingsError::OutOfRange {
                    key: "elo1",
                    value: "1500".into(),
                    allowed: "between -1000 and 1000",
                },
                "elo1",
            ),
            (
                "model=normalized,elo1=150",
                SettingsError::OutOfRange {
                    key: "elo1",
                    value: "150".into(),
                    allowed: "between -100 and 100 in normalized Elo",
                },
                "elo1=150: elo1 must be between -100 and 100 in normalized Elo",
            ),
            (
                "alpha=0",
                SettingsError::OutOfRange {
                    key: "alpha",
                    value: "0".into(),
                    allowed: "strictly between 0 and 1",
                },
                "alpha",
            ),
            (
                "beta=1",
                SettingsError::OutOfRange {
                    key: "beta",
                    value: "1".into(),
                    allowed: "strictly between 0 and 1",
                },
                "beta",
            ),
            (
                "alpha=0.6,beta=0.4",
                SettingsError::ErrorRates {
                    alpha: 0.6,
                    beta: 0.4,
                },
                "alpha + beta",
            ),
            (
                "model=bayes",
                SettingsError::OutOfRange {
                    key: "model",
                    value: "bayes".into(),
                    allowed: "logistic or normalized",
                },
                "model=bayes",
            ),
        ] {
            let got = text.parse::<SprtSettings>().unwrap_err();
            assert_eq!(got, error, "{text}");
            let message = got.to_string();
            assert!(message.contains(named), "{text}: {message}");
        }
    }
}
