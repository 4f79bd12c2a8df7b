//! The text of `--sprt`: `key=value` settings separated by commas, such as
//! `elo0=0,elo1=10,alpha=0.05,beta=0.05`. Keys may come in any order; a missing key takes its
//! default; an empty text takes every default. [`super::SprtSettings`] and
//! [`super::TurnsSprtSettings`] say which keys they take.

use std::fmt;

/// What is wrong with a `--sprt` text. Every message names the key or the text at fault.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsError {
    /// A part without `=`, or with nothing before it.
    NotKeyValue(String),
    UnknownKey {
        key: String,
        known: &'static [&'static str],
    },
    DuplicateKey(String),
    /// A value that is not a finite number.
    NotANumber {
        key: String,
        value: String,
    },
    /// A value outside what the key allows; `allowed` says what is.
    OutOfRange {
        key: &'static str,
        value: String,
        allowed: &'static str,
    },
    /// The lower bound is not below the upper one.
    BoundsOrder {
        low: &'static str,
        high: &'static str,
        values: (f64, f64),
    },
    /// alpha + beta ≥ 1: the bounds would not enclose 0.
    ErrorRates {
        alpha: f64,
        beta: f64,
    },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::NotKeyValue(part) => {
                write!(f, "`{part}` is not a key=value setting (such as elo1=10)")
            }
            SettingsError::UnknownKey { key, known } => {
                write!(f, "unknown key `{key}`; the keys are {}", known.join(", "))
            }
            SettingsError::DuplicateKey(key) => write!(f, "key `{key}` is given twice"),
            SettingsError::NotANumber { key, value } => {
                write!(f, "{key}={value}: `{value}` is not a finite number")
            }
            SettingsError::OutOfRange {
                key,
                value,
                allowed,
            } => write!(f, "{key}={value}: {key} must be {allowed}"),
            SettingsError::BoundsOrder {
                low,
                high,
                values: (a, b),
            } => write!(f, "{low}={a}, {high}={b}: {low} must be below {high}"),
            SettingsError::ErrorRates { alpha, beta } => write!(
                f,
                "alpha={alpha}, beta={beta}: alpha + beta must be below 1 (each is an error rate)"
            ),
        }
    }
}

impl std::error::Error for SettingsError {}

/// The values of `keys` in `text`, in the order of `keys` (`None` for a key not given).
pub(crate) fn parse<'a>(
    text: &'a str,
    keys: &'static [&'static str],
) -> Result<Vec<Option<&'a str>>, SettingsError> {
    let mut values = vec![None; keys.len()];
    if text.trim().is_empty() {
        return Ok(values);
    }
    for part in text.split(',') {
        let Some((key, value)) = part.split_once('=') else {
            return Err(SettingsError::NotKeyValue(part.trim().to_string()));
        };
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() {
            return Err(SettingsError::NotKeyValue(part.trim().to_string()));
        }
        let Some(slot) = keys.iter().position(|k| *k == key) else {
            return Err(SettingsError::UnknownKey {
                key: key.to_string(),
                known: keys,
            });
        };
        if values[slot].replace(value).is_some() {
            return Err(SettingsError::DuplicateKey(key.to_string()));
        }
    }
    Ok(values)
}

/// `value` of `key` as a finite number, or `default` when the key was not given.
pub(crate) fn number(key: &str, value: Option<&str>, default: f64) -> Result<f64, SettingsError> {
    let Some(value) = value else {
        return Ok(default);
    };
    match value.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(SettingsError::NotANumber {
            key: key.to_string(),
            value: value.to_string(),
        }),
    }
}

/// The largest size a bound may have, and how an error message says so.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limit {
    size: f64,
    text: &'static str,
}

/// Logistic Elo: beyond ±1000 (a score of 99.7 %) a test means nothing and the fits lose their
/// precision.
pub(crate) const LOGISTIC_LIMIT: Limit = Limit {
    size: 1000.0,
    text: "between -1000 and 1000",
};

/// Normalized Elo: ±100 is a t-value of 0.29 a game, far beyond any real test (fishtest takes
/// ±10); the maximum-likelihood fit of the normalized model stops existing for many results from
/// about ±300 (`gsprt::llr_normalized`).
pub(crate) const NORMALIZED_LIMIT: Limit = Limit {
    size: 100.0,
    text: "between -100 and 100 in normalized Elo",
};

/// Turns saved a game: more than a game lasts means nothing.
pub(crate) const TURNS_LIMIT: Limit = Limit {
    size: 1000.0,
    text: "between -1000 and 1000",
};

/// Checks that the bound `value` of `key` lies within ±`limit`.
pub(crate) fn bound(key: &'static str, value: f64, limit: Limit) -> Result<f64, SettingsError> {
    if value.abs() <= limit.size {
        Ok(value)
    } else {
        Err(SettingsError::OutOfRange {
            key,
            value: value.to_string(),
            allowed: limit.text,
        })
    }
}

/// Checks the error rates: each strictly between 0 and 1, and their sum below 1 (so that the lower
/// bound ln(β/(1−α)) is below 0 and the upper one ln((1−β)/α) above).
pub(crate) fn error_rates(alpha: f64, beta: f64) -> Result<(f64, f64), SettingsError> {
    for (key, value) in [("alpha", alpha), ("beta", beta)] {
        if !(value > 0.0 && value < 1.0) {
            return Err(SettingsError::OutOfRange {
                key,
                value: value.to_string(),
                allowed: "strictly between 0 and 1",
            });
        }
    }
    if alpha + beta >= 1.0 {
        return Err(SettingsError::ErrorRates { alpha, beta });
    }
    Ok((alpha, beta))
}

/// Checks that `low` is below `high`.
pub(crate) fn ordered(
    keys: (&'static str, &'static str),
    low: f64,
    high: f64,
) -> Result<(f64, f64), SettingsError> {
    if low < high {
        Ok((low, high))
    } else {
        Err(SettingsError::BoundsOrder {
            low: keys.0,
            high: keys.1,
            values: (low, high),
        })
    }
}
