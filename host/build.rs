//! Embeds the Rust agent SDK and the crates it depends on (the ABI layouts and the rules of every
//! game) into the `arena` binary, so that `arena new --lang rust` can write a copy of them into the
//! new project (`vendor/`): a scaffolded agent then builds on a machine that has the `arena`
//! command but not the arena's sources.
//!
//! Each crate is shipped as its `src/` and a standalone `Cargo.toml`: the workspace keys
//! (`edition.workspace = true`) are given their values, path dependencies point at the other
//! vendored crates, and what only the arena's own tests use (`[dev-dependencies]`, benches) is
//! left out.
//!
//! It also builds the example agents of every game into the binary (`builtin:NAME`):
//! `build/builtin_agents.rs`; and it embeds the build's source hash (`ARENA_SOURCE_HASH`, see
//! `build/source_hash.rs`): the hash of every source that decides how a game is played, which
//! tells a worker whether it plays as the arena that set up a database does.

#[path = "build/source_hash.rs"]
mod source_hash;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

#[path = "build/builtin_agents.rs"]
mod builtin_agents;

/// The vendored crates besides the rules: folder in the arena's workspace, and package name (the
/// vendored folder). Every crate under `rules/` is vendored too (the ABI depends on each game's
/// rules), found by listing the folder so that a new game needs no line here.
const SDK_CRATES: [(&str, &str); 2] = [("agent-sdk", "arena-agent-sdk"), ("abi", "arena-abi")];

/// Every vendored crate: folder relative to the workspace root, and package name.
fn crates(root: &Path) -> Vec<(String, String)> {
    let mut crates: Vec<(String, String)> = SDK_CRATES
        .iter()
        .map(|(dir, package)| (dir.to_string(), package.to_string()))
        .collect();
    let rules = root.join("rules");
    println!("cargo:rerun-if-changed={}", rules.display());
    let mut games = Vec::new();
    for entry in
        fs::read_dir(&rules).unwrap_or_else(|e| panic!("cannot read {}: {e}", rules.display()))
    {
        let path = entry.expect("directory entry").path();
        let manifest = path.join("Cargo.toml");
        if manifest.is_file() {
            let name = path
                .file_name()
                .expect("a folder name")
                .to_string_lossy()
                .into_owned();
            games.push((format!("rules/{name}"), package_name(&read(&manifest))));
        }
    }
    games.sort();
    crates.extend(games);
    crates
}

/// The `name` of a manifest's `[package]` table.
fn package_name(manifest: &str) -> String {
    let mut in_package = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package {
            if let Some((k, v)) = line.split_once('=') {
                if k.trim() == "name" {
                    return v.trim().trim_matches('"').to_owned();
                }
            }
        }
    }
    panic!("a rules crate's Cargo.toml has no [package] name")
}

fn main() {
    let host = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = host
        .parent()
        .expect("the workspace holds host/")
        .to_path_buf();
    let workspace = read(&root.join("Cargo.toml"));
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.toml").display()
    );
    let mut out = String::from(
        "/// The vendored crates' files: path under `vendor/`, and contents.\n\
         pub const VENDORED_SDK: &[(&str, &str)] = &[\n",
    );
    let crates = crates(&root);
    for (dir, package) in &crates {
        let dir = root.join(dir);
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("Cargo.toml").display()
        );
        println!("cargo:rerun-if-changed={}", dir.join("src").display());
        let manifest =
            standalone_manifest(&read(&dir.join("Cargo.toml")), &workspace, package, &crates);
        writeln!(
            out,
            "    ({:?}, {manifest:?}),",
            format!("{package}/Cargo.toml")
        )
        .unwrap();
        let mut files = Vec::new();
        source_files(&dir.join("src"), &mut files);
        files.sort();
        for file in files {
            let rel = file
                .strip_prefix(&dir)
                .expect("under the crate")
                .to_string_lossy();
            let rel = rel.replace('\\', "/");
            writeln!(
                out,
                "    ({:?}, include_str!({:?})),",
                format!("{package}/{rel}"),
                file.display().to_string()
            )
            .unwrap();
        }
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("vendored_sdk.rs");
    fs::write(&dest, out).expect("write vendored_sdk.rs");
    builtin_agents::build(&root, &crates, dest.parent().expect("OUT_DIR"));
    embed_source_hash(&root);
}

/// `ARENA_SOURCE_HASH` for the crate's code, rebuilt whenever a hashed file changes (a folder
/// given to `rerun-if-changed` is scanned whole, new files included).
fn embed_source_hash(root: &Path) {
    let files = source_hash::hashed_files(root);
    let mut watched: Vec<PathBuf> = files.iter().map(|f| watched_for(f)).collect();
    watched.sort();
    watched.dedup();
    for w in watched {
        println!("cargo:rerun-if-changed={}", root.join(w).display());
    }
    println!(
        "cargo:rustc-env=ARENA_SOURCE_HASH={}",
        source_hash::source_hash(root, &files)
    );
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every file under `dir` (watched for new files too).
fn source_files(dir: &Path, files: &mut Vec<PathBuf>) {
    println!("cargo:rerun-if-changed={}", dir.display());
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
    {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            source_files(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// What to watch for a hashed file: the `src` folder it is in (`CRATE/src/...`), `wit/`, or the
/// file itself.
fn watched_for(file: &Path) -> PathBuf {
    let mut dir = PathBuf::new();
    for part in file.iter() {
        dir.push(part);
        if part == "src" || dir == Path::new("wit") {
            return dir;
        }
    }
    file.to_path_buf()
}

/// The value of `key` in the `[workspace.package]` table of the workspace manifest.
fn workspace_value(workspace: &str, key: &str) -> String {
    let mut in_table = false;
    for line in workspace.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_table = line == "[workspace.package]";
        } else if in_table {
            if let Some((k, v)) = line.split_once('=') {
                if k.trim() == key {
                    return v.trim().to_owned();
                }
            }
        }
    }
    panic!("the workspace's Cargo.toml has no [workspace.package] {key}")
}

/// `manifest` made to build outside the arena's workspace, beside the other vendored crates.
fn standalone_manifest(
    manifest: &str,
    workspace: &str,
    package: &str,
    crates: &[(String, String)],
) -> String {
    let mut out = format!(
        "# A copy of the arena's `{package}` crate, written by `arena new` (it builds without the\n\
         # arena's sources). Replace the folder to take a newer version.\n"
    );
    let mut keep = true;
    for line in manifest.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            keep = matches!(
                trimmed,
                "[package]" | "[features]" | "[dependencies]" | "[lib]"
            );
        }
        if !keep {
            continue;
        }
        if let Some((key, value)) = trimmed.split_once(".workspace") {
            if value.trim() == "= true" {
                writeln!(out, "{key} = {}", workspace_value(workspace, key)).unwrap();
                continue;
            }
        }
        match path_dependency(trimmed, crates) {
            Some((name, rest)) => writeln!(out, "{name} = {{ path = \"../{name}\"{rest}").unwrap(),
            None => writeln!(out, "{line}").unwrap(),
        }
    }
    out.trim_end().to_owned() + "\n"
}

/// `name = { path = "...", rest` → `(name, rest)` for a path dependency on a vendored crate.
fn path_dependency<'a>(line: &'a str, crates: &[(String, String)]) -> Option<(&'a str, &'a str)> {
    let (name, value) = line.split_once('=')?;
    let name = name.trim();
    crates.iter().find(|(_, p)| p == name)?;
    let value = value.trim().strip_prefix('{')?.trim_start();
    let value = value
        .strip_prefix("path")?
        .trim_start()
        .strip_prefix('=')?
        .trim_start();
    let value = value.strip_prefix('"')?;
    let end = value.find('"')?;
    Some((name, &value[end + 1..]))
}
