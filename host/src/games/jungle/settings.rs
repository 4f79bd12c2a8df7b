//! Jungle's own settings: the fuel clock, and the position games start from. A league or
//! challenge file gives them in its `[jungle]` table, `arena play` with `--set clock=N`,
//! `--set increment=N` and `--position`; the per-decision cap is the sandbox's
//! `fuel_per_decision`. They are kept (as the game's settings) in a league's journal and
//! standings, and every record's setup line states the clock and the start position.

use anyhow::bail;
use jungle_rules::Position;
use serde::{Deserialize, Serialize};

use crate::game::setting_keys::each_key;

/// The fuel clock every player starts a game with, in fuel (WebAssembly instructions as the
/// sandbox meters them: the same on every machine), and the start position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Fuel on each player's clock at the start of the game.
    pub clock: u64,
    /// Fuel added to a player's clock at the start of each of its decisions.
    pub increment: u64,
    /// The position every game starts from, in the notation (`None`: the start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

/// The default clock: 60 million fuel, plus 1 million a move. With the default cap of 10
/// million a decision, a player that spreads its clock over the game can think several times
/// longer on a hard move than on an easy one; a whole game of 150 moves a side stays well under
/// the default game budget of 500 million.
pub const DEFAULT: Settings = Settings {
    clock: 60_000_000,
    increment: 1_000_000,
    position: None,
};

crate::game::own_settings!(Settings = DEFAULT, "Jungle's settings");

impl Settings {
    /// The settings of a league file's `[jungle]` table (`None`: no such table, the defaults).
    /// Unknown keys, a clock that gives a player no fuel at all and a position the rules refuse
    /// are refused, naming the key.
    pub fn from_keys(keys: Option<&toml::Table>) -> anyhow::Result<Settings> {
        let names = ["clock", "increment", "position"];
        let mut s = each_key("jungle", keys, &names, DEFAULT, |s, key| {
            let fuel = "a number of fuel from 0";
            match key.name {
                "clock" => s.clock = key.number(fuel)?,
                "increment" => s.increment = key.number(fuel)?,
                // `position`, the only other key `each_key` lets through.
                _ => s.position = Some(key.text("a position in the notation")?.to_owned()),
            }
            Ok(())
        })?;
        if s.clock == 0 && s.increment == 0 {
            bail!(
                "the Jungle clock gives no fuel: `clock` and `increment` are both 0 (every first \
                 move would lose on time)"
            );
        }
        // The usual start given in full is no setting: the same league as without it (and a
        // position the rules refuse is refused here).
        if s.start()? == Position::start() {
            s.position = None;
        }
        Ok(s)
    }

    /// The position games start from.
    pub fn start(&self) -> anyhow::Result<Position> {
        match &self.position {
            None => Ok(Position::start()),
            Some(text) => Position::parse(text).map_err(|e| {
                anyhow::anyhow!(
                    "position {}: {e}",
                    crate::terminal::line(&format!("{text:?}"))
                )
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::setting_keys::from_text;
    use crate::game::GameSettings;

    #[test]
    fn keys_set_the_clock_and_refuse_what_cannot_work() {
        assert_eq!(Settings::from_keys(None).unwrap(), DEFAULT);
        let keys = |text: &str| from_text(text, Settings::from_keys);
        assert_eq!(
            keys("clock = 5\nincrement = 7").unwrap(),
            Settings {
                clock: 5,
                increment: 7,
                position: None,
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
        let e = keys("position = '7/7 w'").unwrap_err().to_string();
        assert!(
            e.contains("position \"7/7 w\"") && e.contains("9 expected"),
            "{e}"
        );
        let e = keys("position = 3").unwrap_err().to_string();
        assert!(e.contains("jungle.position"), "{e}");
    }

    #[test]
    fn settings_go_to_json_and_back() {
        let s = from_text("clock = 3\nincrement = 4", Settings::from_keys).unwrap();
        let map = s.to_map().unwrap();
        assert_eq!(
            serde_json::Value::Object(map.clone()),
            serde_json::json!({"clock": 3, "increment": 4})
        );
        assert_eq!(Settings::of_map(&map).unwrap(), s);
        let text = Position::start().to_string();
        let s = Settings {
            position: Some(text.clone()),
            ..DEFAULT
        };
        let map = s.to_map().unwrap();
        assert_eq!(map["position"], serde_json::Value::String(text));
        assert_eq!(Settings::of_map(&map).unwrap(), s);
        assert!(Settings::of_map(&GameSettings::new()).is_err());
    }
}
