//! The build's source hash: the SHA-256 of the sources of every crate the `arena` binary is built
//! from in the workspace (the host, the rules of every game, the sandbox, the ABI, ...: the host's
//! path dependencies, followed from crate to crate), of the WIT package the game interfaces are
//! generated from, and of `Cargo.lock` (the version of wasmtime and of every other dependency).
//! Two builds with the same hash play every game the same way; two builds that differ in any of
//! those files get different hashes, so a worker of one refuses a database set up by the other
//! (`crate::distributed::version`).
//!
//! Used by `build.rs` (which embeds the hash) and by the host's tests (which check it against the
//! files). Only files are read: it works from a clean checkout, a source archive or
//! `cargo install --path host`, with or without `.git`.

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// What is hashed: files under `root` (the workspace), by path relative to it, sorted.
pub fn hashed_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for krate in crates(root) {
        files.push(krate.join("Cargo.toml"));
        walk(&krate.join("src"), &mut files);
    }
    walk(&root.join("wit"), &mut files);
    files.push(root.join("Cargo.toml"));
    files.push(root.join("Cargo.lock"));
    files.retain(|f| f.is_file());
    let mut relative: Vec<PathBuf> = files
        .into_iter()
        .map(|f| f.strip_prefix(root).map(Path::to_path_buf).unwrap_or(f))
        .collect();
    relative.sort();
    relative.dedup();
    relative
}

/// The hash (64 hex digits) of `files` under `root`: each file's path (with `/` separators), its
/// length and its bytes.
pub fn source_hash(root: &Path, files: &[PathBuf]) -> String {
    let mut h = Sha256::new();
    for f in files {
        let path = f.to_string_lossy().replace('\\', "/");
        let bytes = fs::read(root.join(f))
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.join(f).display()));
        h.update((path.len() as u64).to_le_bytes());
        h.update(path.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The host crate and its path dependencies, followed from crate to crate: the folders of the
/// workspace's crates the `arena` binary is built from.
fn crates(root: &Path) -> Vec<PathBuf> {
    let mut found = vec![root.join("host")];
    let mut i = 0;
    while i < found.len() {
        let manifest = fs::read_to_string(found[i].join("Cargo.toml")).unwrap_or_default();
        for dep in path_dependencies(&manifest) {
            let dir = normalize(&found[i].join(dep));
            if !found.contains(&dir) {
                found.push(dir);
            }
        }
        i += 1;
    }
    found
}

/// The `path = "..."` of every entry of a manifest's `[dependencies]` table (not its dev- or
/// build-dependencies: those are not in the binary).
fn path_dependencies(manifest: &str) -> Vec<String> {
    let mut in_table = false;
    let mut out = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_table = line == "[dependencies]";
            continue;
        }
        if !in_table || line.starts_with('#') {
            continue;
        }
        // `name = { path = "dir", ... }`: the key `path` inside the inline table.
        let Some((_, table)) = line.split_once('{') else {
            continue;
        };
        for item in table.split(',') {
            let Some((key, value)) = item.split_once('=') else {
                continue;
            };
            if key.trim() != "path" {
                continue;
            }
            let value = value.trim().trim_end_matches('}').trim();
            if let Some(value) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
                out.push(value.to_owned());
            }
        }
    }
    out
}

/// `path` without its `..` and `.` components (the folders exist; no link is followed).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Every file under `dir`, if it is a folder.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}
