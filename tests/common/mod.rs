//! Shared helpers of the end-to-end tests: the `arena` binary, example agents built for wasm, and
//! temporary folders.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

pub mod components;
// Not every test binary reads a league folder back.
#[allow(unused_imports)]
pub use arena_test_support::folders::{result_files, snapshot};

#[path = "../scratch/mod.rs"]
mod scratch;
pub use scratch::{workspace, TempDir};

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

pub fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena"))
}

/// Runs `arena` with `args` and returns its output.
pub fn run(args: &[impl AsRef<OsStr>]) -> Output {
    arena().args(args).output().expect("run arena")
}

/// The arguments of `arena league` playing the league file `file` into the folder `out`, then
/// `extra` (say `--quiet` there when the standings table is not wanted).
pub fn league_args(file: &Path, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["league".to_owned(), "--config".to_owned()];
    args.push(file.display().to_string());
    args.push("--output".to_owned());
    args.push(out.display().to_string());
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

/// Runs `arena` with `args`, typing `input` on its standard input.
pub fn run_typing(args: &[&str], input: &str) -> Output {
    let mut child = arena()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A path as an argument (the tests' folders have UTF-8 names).
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
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

/// A core-module agent in WAT: one page of memory, ABI version 1, an 8 KiB buffer at 0, and
/// `fields` (the game's exports and whatever they need).
pub fn wat_agent(fields: &str) -> String {
    format!(
        r#"(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  {fields})"#
    )
}

/// A fresh, empty folder for one test, removed when the test passes (see `scratch`).
pub fn temp_dir(name: &str) -> TempDir {
    TempDir::new(&workspace(), "e2e-tmp", name)
}

/// A league file over the given example agents.
pub fn league_file(dir: &Path, agents: &[&str], extra: &str) -> PathBuf {
    let agents: Vec<_> = agents.iter().map(|a| (a, example_wasm(a))).collect();
    named_league_file(dir, extra, &agents)
}

/// The league file `dir/league.toml`: the league's keys `head`, then the agents (name, file).
pub fn named_league_file<N: AsRef<str>, P: AsRef<Path>>(
    dir: &Path,
    head: &str,
    agents: &[(N, P)],
) -> PathBuf {
    let mut text = format!("{head}\n");
    for (name, path) in agents {
        text.push_str(&format!(
            "[[agent]]\nname = \"{}\"\npath = \"{}\"\n",
            name.as_ref(),
            path.as_ref().display()
        ));
    }
    let path = dir.join("league.toml");
    std::fs::write(&path, text).expect("write league file");
    path
}

/// A league output folder's `standings.json`.
pub fn standings(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("standings.json")).expect("standings.json"))
        .expect("standings.json is JSON")
}

/// `arena verify` of every record of the league output folder `out` passes (each record alone).
pub fn records_verify(out: &Path) {
    let records: Vec<String> = std::fs::read_dir(out.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["verify"];
    args.extend(records.iter().map(String::as_str));
    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o));
}

/// `arena verify --league` of the output folder `out` passes, and its report holds the game's
/// viewer `viewer` (`VIEWER.html` and `VIEWER.js`).
pub fn verifies_with_its_viewer(out: &Path, viewer: &str) {
    let o = run(&["verify", "--league", s(out)]);
    assert!(o.status.success(), "{}", text(&o));
    let report = out.join("report");
    assert!(report.join(format!("{viewer}.html")).is_file());
    assert!(report.join(format!("{viewer}.js")).is_file());
}
