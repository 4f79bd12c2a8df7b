//! `--agents DIR`: the published agent files, whose hashes the league's settings (and so every
//! record's seats) must have. Only module files are read (`.wasm`, and `.wat` turned into its
//! binary as the arena does before hashing); nothing is built. `--rerun` plays the games again
//! with them ([`published_modules`]).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;

use super::published::PublishedAgent;
use crate::records::sha256_hex;

/// A published agent file: its name, its hash, and the module's bytes (a `.wat` file's binary).
struct File {
    name: String,
    hash: String,
    wasm: Vec<u8>,
}

/// The module files of `dir`, by file stem.
fn read_files(dir: &Path) -> anyhow::Result<BTreeMap<String, File>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry
            .with_context(|| format!("cannot read {}", dir.display()))?
            .path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !path.is_file() || !(ext == "wasm" || ext == "wat") {
            continue;
        }
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let wasm = match wat::parse_bytes(&bytes) {
            Ok(wasm) => wasm.into_owned(),
            Err(e) => anyhow::bail!("{}: not a WebAssembly module: {e}", path.display()),
        };
        let stem = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let hash = sha256_hex(&wasm);
        files.insert(stem, File { name, hash, wasm });
    }
    Ok(files)
}

/// The module bytes of each agent, in league order: the file named after it if it has the
/// league's hash, else any file of `dir` with that hash, else the built-in agent with it. Fails
/// naming the first agent without one.
pub fn published_modules(dir: &Path, agents: &[PublishedAgent]) -> anyhow::Result<Vec<Vec<u8>>> {
    let files = read_files(dir)?;
    agents
        .iter()
        .map(|a| {
            let want = a.sha256.as_deref().with_context(|| {
                format!("agent {:?}: the league publishes no hash for it", a.name)
            })?;
            files
                .get(&a.name)
                .filter(|f| f.hash == want)
                .or_else(|| files.values().find(|f| f.hash == want))
                .map(|f| f.wasm.clone())
                // A built-in agent of this arena (`builtin:NAME`): the binary holds its module.
                .or_else(|| crate::builtin::by_hash(want).map(|b| b.bytes.to_vec()))
                .with_context(|| {
                    format!(
                        "agent {:?}: no file in {} has its hash {want}",
                        a.name,
                        dir.display()
                    )
                })
        })
        .collect()
}

/// Problems with the published agents: an agent whose file (named after it, or any file with its
/// hash) is not in `dir`, or whose file has another hash than the league's. An agent with no file
/// in `dir` whose hash is that of one of this arena's built-in agents (`builtin:NAME`, `arena
/// agents`) is found in the binary; `arena agents --export DIR` writes those files, for a
/// verifier whose arena was built from other sources.
pub fn check_published(dir: &Path, agents: &[PublishedAgent]) -> anyhow::Result<Vec<String>> {
    let files = read_files(dir)?;
    let mut problems = Vec::new();
    for a in agents {
        let Some(want) = &a.sha256 else {
            problems.push(format!(
                "agent {:?}: the league publishes no hash for it, so no file can be checked",
                a.name
            ));
            continue;
        };
        match files.get(&a.name) {
            Some(File { name, hash, .. }) if hash != want => problems.push(format!(
                "agent {:?}: {}/{name} has hash {hash}, the league's agent has {want}",
                a.name,
                dir.display()
            )),
            Some(_) => {}
            None if files.values().any(|f| &f.hash == want) => {}
            // A built-in agent of this arena (`builtin:NAME`): the binary holds its module.
            None if crate::builtin::by_hash(want).is_some() => {}
            None => problems.push(format!(
                "agent {:?}: no file in {} has its hash {want}",
                a.name,
                dir.display()
            )),
        }
    }
    Ok(problems)
}
