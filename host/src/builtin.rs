//! The built-in agents: the example agents of every game, built for wasm when the arena is built
//! (`host/build/builtin_agents.rs`) and embedded into the binary, so that `builtin:greedy` names
//! an opponent wherever an agent is expected (`arena play`, `match`, `check`, league and
//! challenge files), outside the arena's checkout too.
//!
//! A built-in agent is an ordinary module: it is written to a file (under the module cache's
//! folder, named after the agent, at a path of its hash) and loaded from there like any other,
//! so it runs in the same sandbox, with the same budgets, and its hash goes into the records.

use std::path::{Path, PathBuf};

use anyhow::Context;

// `BUILTIN_AGENTS`: name, game, summary and bytes of each, written by build.rs.
include!(concat!(env!("OUT_DIR"), "/builtin_agents.rs"));

/// What names a built-in agent: `builtin:NAME`.
pub const PREFIX: &str = "builtin:";

/// One built-in agent.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// Its name (the example crate's): `greedy`.
    pub name: &'static str,
    /// The game it plays (the game's name).
    pub game: &'static str,
    /// What it does, in one line.
    pub summary: &'static str,
    /// The module.
    pub bytes: &'static [u8],
}

impl Builtin {
    /// How it is named: `builtin:greedy`.
    pub fn spelled(&self) -> String {
        format!("{PREFIX}{}", self.name)
    }

    /// The SHA-256 of its module (the hash records give its seat).
    pub fn sha256(&self) -> String {
        crate::records::sha256_hex(self.bytes)
    }
}

/// Every built-in agent, game by game.
pub fn all() -> impl Iterator<Item = Builtin> {
    BUILTIN_AGENTS
        .iter()
        .map(|&(name, game, summary, bytes)| Builtin {
            name,
            game,
            summary,
            bytes,
        })
}

/// The name after `builtin:` when `path` is spelled that way.
pub fn name_of(path: &Path) -> Option<&str> {
    path.to_str()?.strip_prefix(PREFIX)
}

/// The built-in agent `name`, or an error that lists them.
pub fn find(name: &str) -> anyhow::Result<Builtin> {
    all().find(|b| b.name == name).with_context(|| {
        let names: Vec<String> = all().map(|b| b.name.to_owned()).collect();
        format!(
            "there is no built-in agent {name:?} (`arena agents` lists them: {})",
            names.join(", ")
        )
    })
}

/// The built-in agent whose module has the hash `sha256`, if any.
pub fn by_hash(sha256: &str) -> Option<Builtin> {
    all().find(|b| b.sha256() == sha256)
}

/// The file of the built-in agent `b`, written first when it is not there with its bytes:
/// `DIR/builtin/HASH/NAME.wasm`, DIR the module cache's folder (or a folder of the user's own in
/// the temporary folder when there is no cache).
pub fn file(b: Builtin) -> anyhow::Result<PathBuf> {
    let base = crate::sandbox::ModuleCache::default_dir().unwrap_or_else(private_temp_dir);
    let dir = base.join("builtin").join(&b.sha256()[..16]);
    let path = dir.join(format!("{}.wasm", b.name));
    if std::fs::read(&path).is_ok_and(|bytes| bytes == b.bytes) {
        return Ok(path);
    }
    create_private_dir(&dir)
        .with_context(|| format!("cannot create {} for the built-in agents", dir.display()))?;
    // Written beside, then renamed over: a concurrent reader sees the whole module or none.
    let partial = dir.join(format!(".{}.{}.partial", b.name, std::process::id()));
    std::fs::write(&partial, b.bytes)
        .and_then(|()| std::fs::rename(&partial, &path))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// `TMP/arena-builtin-UID`: a folder of this user's only.
fn private_temp_dir() -> PathBuf {
    #[cfg(unix)]
    let user = unsafe { libc::getuid() }.to_string();
    #[cfg(not(unix))]
    let user = std::env::var("USERNAME").unwrap_or_default();
    std::env::temp_dir().join(format!("arena-builtin-{user}"))
}

/// Creates `dir` and its parents, readable and writable by this user only (Unix).
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_built_in_agents_and_they_load() {
        let sandbox = crate::sandbox::Sandbox::new(
            crate::games::registry().agents(),
            crate::sandbox::Limits::default(),
        )
        .unwrap();
        for game in crate::games::registry().all() {
            let agents: Vec<Builtin> = all().filter(|b| b.game == game.name()).collect();
            assert!(
                !agents.is_empty(),
                "no built-in agent plays {}",
                game.name()
            );
            for b in agents {
                let path = file(b).unwrap();
                assert_eq!(path.file_stem().unwrap().to_str(), Some(b.name));
                let module = sandbox.load(&path).unwrap();
                assert_eq!(module.name(), b.name);
                assert_eq!(module.sha256(), b.sha256());
                module.check_plays(&game.info().agent).unwrap();
            }
        }
        assert!(all().all(|b| crate::games::registry().by_name(b.game).is_ok()));
    }

    #[test]
    fn names_are_found_and_unknown_ones_listed() {
        assert_eq!(name_of(Path::new("builtin:greedy")), Some("greedy"));
        assert_eq!(name_of(Path::new("greedy")), None);
        assert_eq!(find("greedy").unwrap().game, "little-animal-farm");
        let err = find("greedier").unwrap_err().to_string();
        assert!(err.contains("no built-in agent \"greedier\""), "{err}");
        assert!(err.contains("jungle-search"), "{err}");
        let b = find("farkle-banker").unwrap();
        assert_eq!(by_hash(&b.sha256()).map(|b| b.name), Some("farkle-banker"));
    }
}
