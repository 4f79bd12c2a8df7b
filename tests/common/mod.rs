//! Shared helpers of the end-to-end tests: the `arena` binary, example agents built for wasm, and
//! temporary folders.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

pub mod components;

#[path = "../scratch/mod.rs"]
mod scratch;
pub use scratch::TempDir;

pub const EXAMPLES: [&str; 5] = ["passer", "greedy", "insurance", "trader", "shepherd"];

/// The Rust Farkle example bots, weakest first (by mean turns to 10,000).
pub const FARKLE_EXAMPLES: [&str; 4] = [
    "farkle-one-and-done",
    "farkle-banker",
    "farkle-threshold",
    "farkle-planner",
];

/// The Rust Jungle example agents, weakest first.
pub const JUNGLE_EXAMPLES: [&str; 3] = ["jungle-random", "jungle-greedy", "jungle-search"];

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

pub fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena"))
}

/// Runs `arena` with `args` and returns its output.
pub fn run(args: &[&str]) -> Output {
    arena().args(args).output().expect("run arena")
}

pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The example agents compiled to wasm, built once per test binary. They go to their own target
/// folder: the outer `cargo test` may still hold the lock on the main one.
pub fn example_wasm(name: &str) -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let dir = BUILT.get_or_init(|| {
        let target = workspace().join("target").join("e2e-agents");
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.current_dir(workspace())
            .args([
                "build",
                "--release",
                "--target",
                "wasm32-unknown-unknown",
                "--target-dir",
            ])
            .arg(&target);
        for e in EXAMPLES
            .iter()
            .chain(&FARKLE_EXAMPLES)
            .chain(&JUNGLE_EXAMPLES)
        {
            cmd.args(["-p", e]);
        }
        let out = cmd.output().expect("run cargo");
        assert!(
            out.status.success(),
            "building the example agents failed:\n{}",
            text(&out)
        );
        target.join("wasm32-unknown-unknown").join("release")
    });
    let path = dir.join(format!("{}.wasm", name.replace('-', "_")));
    assert!(path.exists(), "{} was not built", path.display());
    path
}

/// A fresh, empty folder for one test, removed when the test passes (see `scratch`).
pub fn temp_dir(name: &str) -> TempDir {
    TempDir::new(&workspace(), "e2e-tmp", name)
}

/// A league file over the given example agents.
pub fn league_file(dir: &Path, agents: &[&str], extra: &str) -> PathBuf {
    let mut text = String::from(extra);
    text.push('\n');
    for a in agents {
        text.push_str(&format!(
            "[[agent]]\nname = \"{a}\"\npath = \"{}\"\n",
            example_wasm(a).display()
        ));
    }
    let path = dir.join("league.toml");
    std::fs::write(&path, text).expect("write league file");
    path
}

/// The files of a league output folder whose content must depend only on the league: standings,
/// cross-table, games list and every record.
pub fn result_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for name in [
        "standings.json",
        "standings.csv",
        "crosstable.csv",
        "games.csv",
    ] {
        out.push((
            name.to_string(),
            std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}")),
        ));
    }
    let mut records: Vec<PathBuf> = std::fs::read_dir(dir.join("records"))
        .expect("records folder")
        .map(|e| e.expect("entry").path())
        .collect();
    records.sort();
    for r in records {
        out.push((
            r.file_name().unwrap().to_string_lossy().into_owned(),
            std::fs::read(&r).unwrap(),
        ));
    }
    out
}
