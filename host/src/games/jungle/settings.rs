//! Jungle's own settings: the fuel clock. A league file gives them in its `[jungle]` table,
//! `arena play` with `--clock` and `--increment`; the per-decision cap is the sandbox's
//! `fuel_per_decision`.

use anyhow::bail;
use serde::{Deserialize, Serialize};

/// The fuel clock every player starts a game with, in fuel (WebAssembly instructions as the
/// sandbox meters them: the same on every machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Fuel on each player's clock at the start of the game.
    pub clock: u64,
    /// Fuel added to a player's clock at the start of each of its decisions.
    pub increment: u64,
}

/// The default clock: 60 million fuel, plus 1 million a move. With the default cap of 10
/// million a decision, a player that spreads its clock over the game can think several times
/// longer on a hard move than on an easy one; a whole game of 150 moves a side stays well under
/// the default game budget of 500 million.
pub const DEFAULT: Settings = Settings {
    clock: 60_000_000,
    increment: 1_000_000,
};

impl Default for Settings {
    fn default() -> Settings {
        DEFAULT
    }
}

impl Settings {
    /// The settings of a league file's `[jungle]` table (`None`: no such table, the defaults).
    /// Unknown keys and a clock that gives no fuel at all are refused, naming the key.
    pub fn from_keys(keys: Option<&toml::Table>) -> anyhow::Result<Settings> {
        let Some(keys) = keys else {
            return Ok(DEFAULT);
        };
        let mut s = DEFAULT;
        for (key, value) in keys {
            let number = || match value.as_integer() {
                Some(n) if n >= 0 => Ok(n as u64),
                _ => bail!("key `jungle.{key}`: expected a number of fuel from 0, found {value}"),
            };
            match key.as_str() {
                "clock" => s.clock = number()?,
                "increment" => s.increment = number()?,
                other => bail!(
                    "unknown key `jungle.{other}` (the [jungle] table has `clock` and `increment`)"
                ),
            }
        }
        s.check()?;
        Ok(s)
    }

    /// Refuses a clock that gives a player no fuel at all.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.clock == 0 && self.increment == 0 {
            bail!(
                "the Jungle clock gives no fuel: `clock` and `increment` are both 0 (every first \
                 move would lose on time)"
            );
        }
        Ok(())
    }

    /// Adds the clock to the JSON object of a game's limits (what records keep in `limits`, and
    /// a league publishes with its settings), as `clock` and `increment`: a league's records and
    /// standings then say which clock they were played with, and `--resume` refuses another.
    pub fn add_to_limits(&self, limits: &mut serde_json::Value) {
        if let serde_json::Value::Object(m) = limits {
            m.insert("clock".into(), self.clock.into());
            m.insert("increment".into(), self.increment.into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> anyhow::Result<Settings> {
        let table: toml::Table = toml::from_str(text).unwrap();
        Settings::from_keys(Some(&table))
    }

    #[test]
    fn keys_set_the_clock_and_refuse_what_cannot_work() {
        assert_eq!(Settings::from_keys(None).unwrap(), DEFAULT);
        assert_eq!(
            keys("clock = 5\nincrement = 7").unwrap(),
            Settings {
                clock: 5,
                increment: 7
            }
        );
        assert_eq!(keys("increment = 0").unwrap().clock, DEFAULT.clock);
        let e = keys("clock = 0\nincrement = 0").unwrap_err().to_string();
        assert!(e.contains("no fuel"), "{e}");
        let e = keys("clock = -1").unwrap_err().to_string();
        assert!(e.contains("jungle.clock"), "{e}");
        let e = keys("clock = 'lots'").unwrap_err().to_string();
        assert!(e.contains("jungle.clock"), "{e}");
        let e = keys("clok = 5").unwrap_err().to_string();
        assert!(e.contains("jungle.clok"), "{e}");
    }

    #[test]
    fn the_clock_goes_into_the_limits() {
        let mut limits = serde_json::json!({"fuel_per_decision": 10});
        Settings {
            clock: 3,
            increment: 4,
        }
        .add_to_limits(&mut limits);
        assert_eq!(
            limits,
            serde_json::json!({"fuel_per_decision": 10, "clock": 3, "increment": 4})
        );
    }
}
