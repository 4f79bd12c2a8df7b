//! The code war's league keys: the rules' parameters and each visit's budgets
//! (docs/CODEWAR.md, "Parameters").

use anyhow::{bail, Context};
use codewar_rules::Settings;
use serde::{Deserialize, Serialize};

use crate::sandbox::SnippetLimits;

/// Everything a code war is played with besides its players and seed. Written in the record's
/// setup line as `settings`, with these names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CodewarSettings {
    pub array_size: u32,
    pub max_size: u32,
    pub iterations: u32,
    pub mambo_step: u32,
    pub reentry_every: u32,
    /// Fuel for one visit (instantiation, start function and `codewar_run`).
    pub visit_fuel: u64,
    /// Largest linear memory of an agent, in KiB.
    pub visit_memory_kib: u32,
}

crate::game::own_settings!(
    CodewarSettings = CodewarSettings::from_rules(Settings::default()),
    "code war settings"
);

/// Bounds of the visit budgets.
pub const MAX_VISIT_FUEL: u64 = 100_000_000;
pub const MAX_VISIT_MEMORY_KIB: u32 = 64 << 10;

/// Default fuel for one visit: ten times what the hungriest example agent spends (the crawling
/// borg reading and rewriting its own bytes), docs/PERFORMANCE.md.
pub const DEFAULT_VISIT_FUEL: u64 = 500_000;

/// Default memory cap: a Rust agent's default memory (17 pages, a 1 MiB stack) fits.
pub const DEFAULT_VISIT_MEMORY_KIB: u32 = 2048;

/// Wall-clock backstop of one visit.
pub const VISIT_WALL_MS: u64 = 1000;

/// Compiled modules kept by the sandbox between visits (and games).
pub const CACHED_MODULES: usize = 1024;

/// Largest table of an agent, in elements.
pub const TABLE_ELEMENTS: usize = 1000;

impl CodewarSettings {
    pub fn from_rules(rules: Settings) -> CodewarSettings {
        CodewarSettings {
            array_size: rules.array_size,
            max_size: rules.max_size,
            iterations: rules.iterations,
            mambo_step: rules.mambo_step,
            reentry_every: rules.reentry_every,
            visit_fuel: DEFAULT_VISIT_FUEL,
            visit_memory_kib: DEFAULT_VISIT_MEMORY_KIB,
        }
    }

    /// The rules' part.
    pub fn rules(&self) -> Settings {
        Settings {
            array_size: self.array_size,
            max_size: self.max_size,
            iterations: self.iterations,
            mambo_step: self.mambo_step,
            reentry_every: self.reentry_every,
        }
    }

    /// Checks every key against its bounds, naming the key.
    pub fn validate(&self) -> anyhow::Result<()> {
        self.rules()
            .validate()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        if !(1..=MAX_VISIT_FUEL).contains(&self.visit_fuel) {
            bail!(
                "visit_fuel = {} is out of bounds: it must be from 1 to {MAX_VISIT_FUEL}",
                self.visit_fuel
            );
        }
        if !(64..=MAX_VISIT_MEMORY_KIB).contains(&self.visit_memory_kib) {
            bail!(
                "visit_memory_kib = {} is out of bounds: it must be from 64 (one page) to \
                 {MAX_VISIT_MEMORY_KIB}",
                self.visit_memory_kib
            );
        }
        Ok(())
    }

    /// The settings of a league file's `[game]` table (none: the defaults). Unknown keys and
    /// values out of bounds are refused with a message naming them.
    pub fn from_toml(keys: Option<&toml::Table>) -> anyhow::Result<CodewarSettings> {
        let Some(keys) = keys else {
            return Ok(CodewarSettings::default());
        };
        let settings: CodewarSettings = toml::Value::Table(keys.clone())
            .try_into()
            .context("code war settings")?;
        settings.validate().context("code war settings")?;
        Ok(settings)
    }

    /// What the sandbox allows one visit: a module of at most `max_size` bytes (the largest the
    /// game ever allows: Mambo only lowers it), the visit's fuel and memory.
    pub fn snippet_limits(&self) -> SnippetLimits {
        SnippetLimits {
            max_bytes: self.max_size as usize,
            shape: SnippetLimits::snippet_shape(),
            fuel: self.visit_fuel,
            memory_bytes: self.visit_memory_kib as usize * 1024,
            table_elements: TABLE_ELEMENTS,
            wall_ms: VISIT_WALL_MS,
            cache_entries: CACHED_MODULES,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> toml::Table {
        text.parse().unwrap()
    }

    #[test]
    fn keys_override_the_defaults() {
        let s = CodewarSettings::from_toml(Some(&table(
            "array_size = 97\nmax_size = 67\niterations = 95\nmambo_step = 1",
        )))
        .unwrap();
        assert_eq!(
            (s.array_size, s.max_size, s.iterations, s.mambo_step),
            (97, 67, 95, 1)
        );
        assert_eq!(s.reentry_every, 10);
        assert_eq!(
            CodewarSettings::from_toml(None).unwrap(),
            CodewarSettings::default()
        );
    }

    #[test]
    fn bad_keys_are_named() {
        let e = CodewarSettings::from_toml(Some(&table("arraysize = 3"))).unwrap_err();
        let text = format!("{e:#}");
        assert!(text.contains("unknown field `arraysize`"), "{text}");
        let e = CodewarSettings::from_toml(Some(&table("array_size = 1"))).unwrap_err();
        assert!(
            format!("{e:#}").contains("array_size = 1 is out of bounds"),
            "{e:#}"
        );
        let e = CodewarSettings::from_toml(Some(&table("visit_fuel = 0"))).unwrap_err();
        assert!(format!("{e:#}").contains("visit_fuel = 0"), "{e:#}");
        let e = CodewarSettings::from_toml(Some(&table("iterations = -4"))).unwrap_err();
        assert!(format!("{e:#}").contains("iterations"), "{e:#}");
        let e = CodewarSettings::from_toml(Some(&table("max_size = \"big\""))).unwrap_err();
        assert!(format!("{e:#}").contains("max_size"), "{e:#}");
    }
}
