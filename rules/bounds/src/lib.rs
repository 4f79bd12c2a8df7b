//! What the rules crates share, written once here rather than in each: a setting of a game's
//! rules out of its bounds ([`SettingsError`]), checked by [`check`] (the same type and message
//! for every rules crate whose settings are league keys), and [`coded_enum!`], their enums of
//! wire codes. `no_std`, without allocation, so that agents compiled to WebAssembly use it too.
#![no_std]
#![forbid(unsafe_code)]

mod coded;

use core::fmt;

/// A setting out of its bounds (or a number of players the game does not take).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsError {
    /// The league key (`players` for the number of players).
    pub key: &'static str,
    pub value: u64,
    pub min: u64,
    pub max: u64,
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {} is out of bounds: it must be from {} to {}",
            self.key, self.value, self.min, self.max
        )
    }
}

/// `value`, the setting `key`, is from `min` to `max`.
pub fn check(key: &'static str, value: u64, min: u64, max: u64) -> Result<(), SettingsError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(SettingsError {
            key,
            value,
            min,
            max,
        })
    }
}
