//! The game's parameters, their defaults and their bounds. Every field is a league key of the same
//! name (docs/LIGHTCYCLES.md, "Settings") except `tick_cap`, which the host takes from the
//! league's round cap.

use rules_bounds::check;
pub use rules_bounds::SettingsError;

/// The parameters of one game of light cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    /// Columns of the grid.
    pub width: u32,
    /// Rows of the grid.
    pub height: u32,
    /// Walls inside the grid, in percent of its cells (0: none). They are placed from the seed,
    /// symmetric about both centre lines (docs/LIGHTCYCLES.md, "Walls").
    pub walls: u32,
    /// The game ends after this many ticks, the survivors sharing first place.
    pub tick_cap: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            width: 30,
            height: 20,
            walls: 0,
            tick_cap: 300,
        }
    }
}

/// Fewest columns or rows: room for six start cells apart from each other.
pub const MIN_SIDE: u32 = 8;
/// Most columns or rows: a grid of at most 4,096 cells fits the exchange buffer with room to
/// spare, and a state stays small enough to copy in a search.
pub const MAX_SIDE: u32 = 64;
/// Cells of the largest grid.
pub const MAX_CELLS: usize = (MAX_SIDE * MAX_SIDE) as usize;
/// Most walls, in percent of the cells.
pub const MAX_WALLS: u32 = 25;
/// Largest tick cap. No game on the largest grid lasts longer: every tick fills a cell.
pub const MAX_TICK_CAP: u32 = MAX_CELLS as u32;
/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players.
pub const MAX_PLAYERS: usize = 6;

impl Settings {
    /// Checks every parameter against its bounds.
    pub fn validate(&self) -> Result<(), SettingsError> {
        check("width", self.width.into(), MIN_SIDE.into(), MAX_SIDE.into())?;
        check(
            "height",
            self.height.into(),
            MIN_SIDE.into(),
            MAX_SIDE.into(),
        )?;
        check("walls", self.walls.into(), 0, MAX_WALLS.into())?;
        check("tick_cap", self.tick_cap.into(), 1, MAX_TICK_CAP.into())?;
        Ok(())
    }

    /// Checks the number of players.
    pub fn validate_players(players: usize) -> Result<(), SettingsError> {
        check(
            "players",
            players as u64,
            MIN_PLAYERS as u64,
            MAX_PLAYERS as u64,
        )
    }

    /// Cells of the grid.
    pub const fn cells(&self) -> usize {
        (self.width * self.height) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert_eq!(Settings::default().validate(), Ok(()));
        assert_eq!(Settings::default().cells(), 600);
    }

    #[test]
    fn bounds_name_the_key() {
        let s = Settings {
            height: 65,
            ..Settings::default()
        };
        let e = s.validate().unwrap_err();
        assert_eq!(e.key, "height");
        extern crate alloc;
        assert_eq!(
            alloc::format!("{e}"),
            "height = 65 is out of bounds: it must be from 8 to 64"
        );
        for (s, key) in [
            (
                Settings {
                    width: 7,
                    ..Settings::default()
                },
                "width",
            ),
            (
                Settings {
                    walls: 26,
                    ..Settings::default()
                },
                "walls",
            ),
            (
                Settings {
                    tick_cap: 0,
                    ..Settings::default()
                },
                "tick_cap",
            ),
        ] {
            assert_eq!(s.validate().unwrap_err().key, key);
        }
        assert!(Settings::validate_players(1).is_err());
        assert!(Settings::validate_players(7).is_err());
        assert!((2..=6).all(|n| Settings::validate_players(n).is_ok()));
    }
}
