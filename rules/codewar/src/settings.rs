//! The game's parameters, their defaults and their bounds.

use rules_bounds::check;
pub use rules_bounds::SettingsError;

/// The parameters of one code war. Every field is a league key of the same name (docs/CODEWAR.md,
/// "Parameters").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    /// Cells of the Array (Perlwar's size of the Array).
    pub array_size: u32,
    /// Largest agent, in bytes of its WebAssembly module, at the first iteration (Perlwar's `$S`).
    pub max_size: u32,
    /// Iterations of the game (Perlwar's `$I`).
    pub iterations: u32,
    /// The Mambo variant: the maximal size decreases by this many bytes after every iteration
    /// (0: the classic game, the size stays).
    pub mambo_step: u32,
    /// A player's module enters the Array again every `reentry_every` iterations (at iterations
    /// 1, 1 + K, 1 + 2K, ...) while the player is in the game; 0: only at iteration 1.
    pub reentry_every: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            array_size: 100,
            max_size: 4096,
            iterations: 100,
            mambo_step: 0,
            reentry_every: 10,
        }
    }
}

/// Most cells an Array may have: relative offsets are 16-bit in the instruction, and an
/// iteration's record line holds every cell.
pub const MAX_ARRAY_SIZE: u32 = 1000;

/// Largest maximal agent size, in bytes (a module is written into a record as one line).
pub const MAX_AGENT_BYTES: u32 = 65536;

/// Most iterations a game may have.
pub const MAX_ITERATIONS: u32 = 100_000;

/// Most players in one game (a facade and an owner are seat numbers).
pub const MAX_PLAYERS: usize = 16;

impl Settings {
    /// Checks every parameter against its bounds.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let bounded =
            |key, value: u32, min: u32, max: u32| check(key, value.into(), min.into(), max.into());
        bounded("array_size", self.array_size, 2, MAX_ARRAY_SIZE)?;
        bounded("max_size", self.max_size, 1, MAX_AGENT_BYTES)?;
        bounded("iterations", self.iterations, 1, MAX_ITERATIONS)?;
        bounded("mambo_step", self.mambo_step, 0, MAX_AGENT_BYTES)?;
        bounded("reentry_every", self.reentry_every, 0, MAX_ITERATIONS)?;
        Ok(())
    }

    /// The maximal agent size during iteration `i` (from 1): `max_size − mambo_step × (i − 1)`,
    /// never below 0.
    pub fn max_size_at(&self, iteration: u32) -> u32 {
        let steps = u64::from(iteration.saturating_sub(1));
        let less = u64::from(self.mambo_step) * steps;
        u64::from(self.max_size).saturating_sub(less) as u32
    }

    /// Whether the players' modules enter the Array at the start of iteration `i` (from 1).
    pub fn entry_due(&self, iteration: u32) -> bool {
        iteration == 1
            || (self.reentry_every > 0 && (iteration - 1).is_multiple_of(self.reentry_every))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert_eq!(Settings::default().validate(), Ok(()));
    }

    #[test]
    fn bounds_name_the_key() {
        let s = Settings {
            array_size: 1,
            ..Settings::default()
        };
        let e = s.validate().unwrap_err();
        assert_eq!(e.key, "array_size");
        let text = alloc::format!("{e}");
        assert_eq!(
            text,
            "array_size = 1 is out of bounds: it must be from 2 to 1000"
        );
    }

    #[test]
    fn mambo_decreases_and_stops_at_zero() {
        let s = Settings {
            max_size: 100,
            mambo_step: 30,
            ..Settings::default()
        };
        assert_eq!(s.max_size_at(1), 100);
        assert_eq!(s.max_size_at(2), 70);
        assert_eq!(s.max_size_at(4), 10);
        assert_eq!(s.max_size_at(5), 0);
        assert_eq!(s.max_size_at(u32::MAX), 0);
    }

    #[test]
    fn entries_every_k_iterations() {
        let s = Settings {
            reentry_every: 10,
            ..Settings::default()
        };
        let due: alloc::vec::Vec<u32> = (1..=35).filter(|&i| s.entry_due(i)).collect();
        assert_eq!(due, [1, 11, 21, 31]);
        let once = Settings {
            reentry_every: 0,
            ..Settings::default()
        };
        assert!((2..100).all(|i| !once.entry_due(i)));
        assert!(once.entry_due(1));
    }
}
