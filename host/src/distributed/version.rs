//! Which arena a database was set up by. Games are deterministic only for one arena: a worker of
//! another version could play the same game differently (other rules code, another sandbox), so
//! it must not play at all. `arena serve` and `arena league` write their version into the
//! database (state key [`VERSION_KEY`]); a worker refuses to start, or stops, when it differs
//! from its own.

use super::super::serve::db::Db;

/// State key: the version of the arena that last set the database up.
pub const VERSION_KEY: &str = "arena_version";

/// This arena's version: the crate version, and the build id given at build time in
/// `ARENA_BUILD_ID` (e.g. a commit), which tells apart builds of one version.
pub fn arena_version() -> String {
    match option_env!("ARENA_BUILD_ID") {
        Some(id) if !id.is_empty() => format!("{} ({id})", env!("CARGO_PKG_VERSION")),
        _ => env!("CARGO_PKG_VERSION").to_owned(),
    }
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
             server or league that set the database up (install arena {t} here, or upgrade the \
             server)"
        )),
        Some(_) => None,
    }
}

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
}
