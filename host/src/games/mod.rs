//! The games the arena hosts. Each game lives in its own folder here (its rules as the arena plays
//! them, its records' lines, narration, smoke games, replay viewer and templates; its rules crate
//! in `rules/<game>/`, its ABI layouts in `abi/`) and becomes a [`Game`] by the host's services
//! ([`Hosted`]); this file is the one place outside a game's folder that names it, and makes the
//! [`Registry`] the command line hands down. Adding a game: its folder, a line in [`ALL`], a line
//! in [`AGENTS`].

pub mod codewar;
pub mod farkle;
pub mod farm;
pub mod jungle;
pub mod lightcycles;

use crate::game::{Game, Hosted, Registry};
use crate::sandbox::Games;

/// Every game, in the order they are listed (the first is the default of league files).
static ALL: [&dyn Game; 5] = [
    &Hosted(farm::Farm),
    &Hosted(farkle::Farkle),
    &Hosted(jungle::Jungle),
    &Hosted(lightcycles::Lightcycles),
    &codewar::CodewarGame,
];

/// What the sandbox is told about every game, in the registry's order.
static AGENTS: Games = &[
    &farm::INFO.agent,
    &farkle::INFO.agent,
    &jungle::INFO.agent,
    &lightcycles::INFO.agent,
    &codewar::INFO.agent,
];

static REGISTRY: Registry = Registry::new(&ALL, AGENTS);

/// The registry of the games this arena hosts: the command line builds its commands with it and
/// hands it down.
pub fn registry() -> &'static Registry {
    &REGISTRY
}

/// A game named on the command line (`--game`): for `clap`.
pub fn parse(name: &str) -> Result<&'static dyn Game, String> {
    REGISTRY.parse(name)
}

/// A game as its name in JSON and TOML: `#[serde(with = "crate::games::serde_name")]`.
pub mod serde_name {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::game::Game;

    pub fn serialize<S: Serializer>(game: &&'static dyn Game, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(game.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static dyn Game, D::Error> {
        let name = String::deserialize(d)?;
        super::parse(&name).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_ids_and_interfaces_are_unique_and_agree() {
        for (i, g) in ALL.iter().enumerate() {
            assert!(std::ptr::eq(AGENTS[i], &g.info().agent), "{}", g.name());
            assert_eq!(REGISTRY.of_agent(AGENTS[i]).name(), g.name());
            assert_eq!(REGISTRY.by_name(g.name()).unwrap().name(), g.name());
            for h in &ALL[..i] {
                assert_ne!(g.name(), h.name());
                assert_ne!(g.info().agent.abi_id, h.info().agent.abi_id);
                assert_ne!(g.viewer().page, h.viewer().page);
            }
        }
        let e = REGISTRY.by_name("chess").unwrap_err().to_string();
        assert!(e.contains("unknown game \"chess\" (known: "), "{e}");
    }

    /// Source files below `dir` (Rust, scripts, pages and style sheets), but tests: a file of
    /// tests, a `tests/` folder, and a file's `#[cfg(test)] mod tests` at its end.
    fn sources(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name != "tests" {
                    sources(&path, out);
                }
                continue;
            }
            let code = [".rs", ".js", ".html", ".css"]
                .iter()
                .any(|e| name.ends_with(e));
            // A bundle of npm packages vendored beside its `package.json` (the page editor's)
            // is not the arena's code: its words are its own.
            let vendored = name.ends_with(".js")
                && path.with_file_name("package.json").is_file()
                && name != "entry.js";
            if !code || vendored || name.ends_with("tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let text = match text.find("\n#[cfg(test)]\nmod tests") {
                Some(i) => text[..i].to_owned(),
                None => text,
            };
            out.push((path, text));
        }
    }

    /// No module outside a game's folder names that game (its name, title or world), but this
    /// registry; the sandbox names none.
    #[test]
    fn only_a_games_folder_and_the_registry_name_the_game() {
        let host = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        sources(&host.join("src"), &mut files);
        sources(&host.join("../sandbox/src"), &mut files);
        sources(&host.join("../game/src"), &mut files);
        let registry = host.join("src/games/mod.rs");
        let mut found = Vec::new();
        for g in ALL {
            let info = g.info();
            let folder = host.join("src/games").join(
                info.agent
                    .component
                    .map(|w| w.short_name())
                    .unwrap_or(info.name),
            );
            let mut words = vec![info.name.to_lowercase(), info.title.to_lowercase()];
            if let Some(w) = info.agent.component {
                words.push(w.short_name().to_lowercase());
            }
            for (path, text) in &files {
                if path.starts_with(&folder) || *path == registry {
                    continue;
                }
                for (n, line) in text.lines().enumerate() {
                    let line = line.to_lowercase();
                    if let Some(w) = words.iter().find(|w| line.contains(w.as_str())) {
                        found.push(format!("{}:{}: {w}", path.display(), n + 1));
                    }
                }
            }
        }
        assert!(
            found.is_empty(),
            "games named outside their folders:\n{}",
            found.join("\n")
        );
    }
}
