//! Light cycles' own settings, from the `[lightcycles]` table of a league or challenge file
//! (docs/LIGHTCYCLES.md, "Settings"): the grid (`width`, `height`, `walls`) and the fuel clock
//! (`clock`, `increment`). The tick cap is the league's `round_cap`, the per-decision cap the
//! sandbox's `fuel_per_decision`. They are kept as the game's settings in a league's journal and
//! standings, and every record's setup line states them.

use anyhow::bail;
use serde::{Deserialize, Serialize};

use crate::game::setting_keys::each_key;

/// The grid and the clock of every game of a league.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub width: u32,
    pub height: u32,
    /// Walls, in percent of the cells, placed from the seed.
    pub walls: u32,
    /// Fuel on each player's clock at the start of the game.
    pub clock: u64,
    /// Fuel added to a player's clock at the start of each of its decisions.
    pub increment: u64,
}

/// The defaults: the rules crate's grid, and a clock of 60 million fuel and 1 million a tick.
pub const DEFAULT: Settings = Settings {
    width: 30,
    height: 20,
    walls: 0,
    clock: 60_000_000,
    increment: 1_000_000,
};

crate::game::own_settings!(Settings = DEFAULT, "light cycles' settings");

impl Settings {
    /// The settings of a `[lightcycles]` table (`None`: the defaults). Unknown keys, numbers out
    /// of bounds and a clock that gives no fuel are refused, naming the key.
    pub fn from_keys(keys: Option<&toml::Table>) -> anyhow::Result<Settings> {
        let names = ["width", "height", "walls", "clock", "increment"];
        let s = each_key("lightcycles", keys, &names, DEFAULT, |s, key| {
            let number = "a number from 0";
            match key.name {
                "width" => s.width = key.small(number)?,
                "height" => s.height = key.small(number)?,
                "walls" => s.walls = key.small(number)?,
                "clock" => s.clock = key.number(number)?,
                // `increment`, the only other key `each_key` lets through.
                _ => s.increment = key.number(number)?,
            }
            Ok(())
        })?;
        s.check()?;
        Ok(s)
    }

    /// Refuses a grid the rules refuse and a clock that gives a player no fuel at all.
    pub fn check(&self) -> anyhow::Result<()> {
        self.rules(1)
            .validate()
            .map_err(|e| anyhow::anyhow!("key `lightcycles.{}`: {e}", e.key))?;
        if self.clock == 0 && self.increment == 0 {
            bail!(
                "the light cycles clock gives no fuel: `clock` and `increment` are both 0 (every \
                 first tick would be lost on time)"
            );
        }
        Ok(())
    }

    /// The rules crate's settings, with the tick cap.
    pub fn rules(&self, tick_cap: u32) -> lightcycles_rules::Settings {
        lightcycles_rules::Settings {
            width: self.width,
            height: self.height,
            walls: self.walls,
            tick_cap,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::setting_keys::from_text;
    use crate::game::GameSettings;

    #[test]
    fn keys_set_the_grid_and_clock_and_refuse_what_cannot_work() {
        assert_eq!(Settings::from_keys(None).unwrap(), DEFAULT);
        let text = "width = 12\nheight = 9\nwalls = 10\nclock = 5\nincrement = 7";
        let s = from_text(text, Settings::from_keys).unwrap();
        assert_eq!(
            (s.width, s.height, s.walls, s.clock, s.increment),
            (12, 9, 10, 5, 7)
        );
        for (text, names) in [
            ("width = 7", "lightcycles.width"),
            ("height = 65", "lightcycles.height"),
            ("walls = 26", "lightcycles.walls"),
            ("width = -1", "lightcycles.width"),
            ("clock = 'lots'", "lightcycles.clock"),
            ("speed = 3", "lightcycles.speed"),
            ("clock = 0\nincrement = 0", "no fuel"),
        ] {
            let e = from_text(text, Settings::from_keys)
                .unwrap_err()
                .to_string();
            assert!(e.contains(names), "{text}: {e}");
        }
        let map = s.to_map().unwrap();
        assert_eq!(Settings::of_map(&map).unwrap(), s);
        assert!(Settings::of_map(&GameSettings::new()).is_err());
    }
}
