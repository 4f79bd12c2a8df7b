//! Which arena a database was set up by. Games are deterministic only for one arena: a worker of
//! another build could play the same game differently (other rules code, another sandbox, another
//! wasmtime), so it must not play at all. `arena serve` and `arena league` write their version
//! into the database (state key [`VERSION_KEY`]); a worker refuses to start, or stops, when it
//! differs from its own.
//!
//! The version is the crate version and the build's source hash, embedded at build time by
//! `build.rs` (`build/source_hash.rs`): the hash of the sources of every crate the binary is built
//! from, the WIT package and `Cargo.lock`. Two builds of one crate version from different sources
//! are two versions; nothing at run time changes it.

use crate::jobs::Db;

/// State key: the version of the arena that last set the database up.
pub const VERSION_KEY: &str = "arena_version";

/// The build's source hash (64 hex digits).
pub const SOURCE_HASH: &str = env!("ARENA_SOURCE_HASH");

/// This arena's version: the crate version and the first 12 hex digits of the build's source
/// hash, e.g. `0.1.0 (sources 3f9c0d1e2a4b)`.
pub fn arena_version() -> String {
    format!(
        "{} (sources {})",
        env!("CARGO_PKG_VERSION"),
        &SOURCE_HASH[..12]
    )
}

/// Writes this arena's version into the database (`arena serve` and `arena league` do, after
/// bringing its schema up to date).
pub async fn stamp(db: &Db) -> anyhow::Result<()> {
    db.set_state(VERSION_KEY, &arena_version()).await
}

/// Why a worker of this version must not play the games of a database set up by `theirs`, if it
/// must not.
pub fn mismatch(theirs: Option<&str>) -> Option<String> {
    let ours = arena_version();
    match theirs {
        None => Some(
            "the database was not set up by `arena serve --database` or `arena league --database` \
             (it holds no arena version): start one of them first"
                .to_owned(),
        ),
        Some(t) if t != ours => Some(format!(
            "the database was set up by arena {t}, and this worker is arena {ours}: games are \
             deterministic only within one version, so a worker must run the same version as the \
             server or league that set the database up (install the arena built from the same \
             sources here, or upgrade the server)"
        )),
        Some(_) => None,
    }
}

/// The hashing `build.rs` does, for the test that checks the embedded hash against the files.
#[cfg(test)]
#[path = "../../build/source_hash.rs"]
mod source_hash;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_plays_only_for_its_own_version() {
        assert_eq!(mismatch(Some(&arena_version())), None);
        let other = mismatch(Some("0.0.1")).unwrap();
        assert!(
            other.contains("set up by arena 0.0.1")
                && other.contains(&format!("this worker is arena {}", arena_version())),
            "{other}"
        );
        assert!(mismatch(None).unwrap().contains("holds no arena version"));
    }

    use super::source_hash;

    fn workspace() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_path_buf()
    }

    /// The version names the sources the binary was built from: two builds of one crate version
    /// with other rules are two versions.
    #[test]
    fn the_version_is_the_hash_of_the_sources_that_decide_a_game() {
        let root = workspace();
        let files = source_hash::hashed_files(&root);
        let names: Vec<String> = files
            .iter()
            .map(|f| f.to_string_lossy().replace('\\', "/"))
            .collect();
        for wanted in [
            "host/src/distributed/version.rs",
            "rules/farm/src/lib.rs",
            "rules/farkle/Cargo.toml",
            "rules/jungle/src/lib.rs",
            "rules/codewar/src/lib.rs",
            "sandbox/src/lib.rs",
            "abi/src/lib.rs",
            "wit/farm.wit",
            "Cargo.lock",
        ] {
            assert!(names.iter().any(|n| n == wanted), "{wanted} is not hashed");
        }
        assert!(
            !names
                .iter()
                .any(|n| n.starts_with("docs/") || n.starts_with("tests/")),
            "only sources are hashed"
        );
        assert_eq!(SOURCE_HASH, source_hash::source_hash(&root, &files));
        assert_eq!(
            arena_version(),
            format!(
                "{} (sources {})",
                env!("CARGO_PKG_VERSION"),
                &SOURCE_HASH[..12]
            )
        );

        // A copy of the sources with one byte of the rules changed has another hash.
        let copy = std::env::temp_dir().join(format!("arena-source-hash-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&copy);
        for f in &files {
            let to = copy.join(f);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(root.join(f), &to).unwrap();
        }
        assert_eq!(source_hash::hashed_files(&copy), files);
        assert_eq!(source_hash::source_hash(&copy, &files), SOURCE_HASH);
        let rules = copy.join("rules/farm/src/lib.rs");
        let mut text = std::fs::read(&rules).unwrap();
        text.push(b'\n');
        std::fs::write(&rules, text).unwrap();
        assert_ne!(source_hash::source_hash(&copy, &files), SOURCE_HASH);
        std::fs::remove_dir_all(&copy).unwrap();
    }
}
