//! From what a user names (a module file, an agent crate, a folder made by `arena new`, a
//! built-in agent) to a module file.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context};

use crate::activity::{Activity, Shown};

/// The Rust target agents are built for.
pub const AGENT_TARGET: &str = "wasm32-unknown-unknown";

/// The cargo profile for agents, when the crate's workspace defines it (the arena's own does: no
/// debug information, link-time optimization, `panic = "abort"`); otherwise `release`.
pub const AGENT_PROFILE: &str = "wasm-agent";

/// Resolves an agent named on the command line or in a league file:
/// * `builtin:NAME` is the built-in agent NAME (`crate::builtin`), written to a file of its own;
/// * a `.wasm` or `.wat` file is used as it is;
/// * a directory holding a `Cargo.toml` (an agent crate) is built with
///   `cargo build --release --target wasm32-unknown-unknown` (`--profile wasm-agent` when its
///   workspace defines that profile, as the arena's does for its example agents) and its `.wasm`
///   is returned;
/// * another folder made by `arena new` (Python, JavaScript, C, Zig, AssemblyScript, WAT) is
///   built with its toolchain unless its last build is newer than its sources
///   (`project::folder`).
pub fn resolve_agent(path: &Path) -> anyhow::Result<PathBuf> {
    if let Some(name) = crate::builtin::name_of(path) {
        return crate::builtin::file(crate::builtin::find(name)?);
    }
    let meta = std::fs::metadata(path)
        .with_context(|| format!("agent {}: no such file or directory", path.display()))?;
    if meta.is_file() {
        if path.file_name().is_some_and(|n| n == "Cargo.toml") {
            let dir = path.parent().unwrap_or(Path::new("."));
            return build_crate(dir);
        }
        return Ok(path.to_path_buf());
    }
    if path.join("Cargo.toml").is_file() {
        return build_crate(path);
    }
    if let Some(module) = crate::project::folder::build_folder(path)? {
        return Ok(module);
    }
    bail!(
        "agent {}: expected a .wasm or .wat file, an agent crate directory (with Cargo.toml) or \
         a folder made by `arena new`",
        path.display()
    )
}

/// Checks, before anything is built or loaded, that every agent named is there: a file or folder
/// that exists, or a built-in agent's name. The error names the first that is not (a usage error:
/// exit status 2). `skip` tells names that are no agent (`human` in `arena play`).
pub fn check_agents_exist<'a>(
    paths: impl IntoIterator<Item = &'a PathBuf>,
    skip: impl Fn(&Path) -> bool,
) -> anyhow::Result<()> {
    for path in paths {
        if skip(path) {
            continue;
        }
        if let Some(name) = crate::builtin::name_of(path) {
            crate::builtin::find(name)?;
        } else if !path.exists() {
            bail!(
                "agent {}: no such file or directory (an agent is a .wasm or .wat file, an agent \
                 crate, a folder made by `arena new`, or a built-in agent such as \
                 builtin:greedy: `arena agents` lists them)",
                path.display()
            );
        }
    }
    Ok(())
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Builds the agent crate in `dir` for wasm and returns the produced module.
pub fn build_crate(dir: &Path) -> anyhow::Result<PathBuf> {
    let manifest = dir.join("Cargo.toml");
    let (package, target_dir, profile) = crate_info(&manifest)?;
    // Quick when nothing changed; a first build compiles the crate and its dependencies.
    let _activity = Activity::start(
        format!(
            "building {} with cargo for {AGENT_TARGET} (a first build takes up to a minute; \
             later ones seconds)",
            crate::terminal::line(&dir.display().to_string())
        ),
        Shown::IfSlow(std::time::Duration::from_secs(1)),
    );
    let output = Command::new(cargo())
        .args([
            "build",
            "--quiet",
            "--target",
            AGENT_TARGET,
            "--profile",
            &profile,
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .output()
        .with_context(|| format!("cannot run cargo to build {}", dir.display()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("target may not be installed")
            || stderr.contains("can't find crate for `core`") && stderr.contains(AGENT_TARGET)
        {
            bail!(
                "cannot build agent crate {}: the Rust target {AGENT_TARGET} is not installed; \
                 run `rustup target add {AGENT_TARGET}`",
                dir.display()
            );
        }
        bail!(
            "cannot build agent crate {} for {AGENT_TARGET}:\n{}",
            dir.display(),
            stderr.trim_end()
        );
    }
    let wasm = target_dir
        .join(AGENT_TARGET)
        .join(&profile)
        .join(format!("{}.wasm", package.replace('-', "_")));
    if !wasm.is_file() {
        bail!(
            "built agent crate {} but found no {}: is it a cdylib (crate-type = [\"cdylib\"])?",
            dir.display(),
            wasm.display()
        );
    }
    Ok(wasm)
}

/// The package name of `manifest`, the target directory cargo uses for it, and the profile to
/// build it with.
fn crate_info(manifest: &Path) -> anyhow::Result<(String, PathBuf, String)> {
    let output = Command::new(cargo())
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .arg("--manifest-path")
        .arg(manifest)
        .output()
        .with_context(|| format!("cannot run cargo metadata for {}", manifest.display()))?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed for {}:\n{}",
            manifest.display(),
            String::from_utf8_lossy(&output.stderr).trim_end()
        );
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&output.stdout).context("cannot parse cargo metadata")?;
    let target_dir = meta["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .context("cargo metadata gave no target directory")?;
    let manifest = std::fs::canonicalize(manifest).unwrap_or_else(|_| manifest.to_path_buf());
    let packages = meta["packages"].as_array().cloned().unwrap_or_default();
    let package = packages
        .iter()
        .find(|p| {
            p["manifest_path"]
                .as_str()
                .is_some_and(|m| Path::new(m) == manifest)
        })
        .or(packages.first())
        .context("the manifest defines no package")?;
    let targets = package["targets"].as_array().cloned().unwrap_or_default();
    // The library target's name is the module's file stem (a cdylib named by `[lib] name`).
    let name = targets
        .iter()
        .find(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "cdylib"))
        })
        .and_then(|t| t["name"].as_str())
        .or(package["name"].as_str())
        .context("the package has no name")?;
    let profile = meta["workspace_root"]
        .as_str()
        .filter(|root| defines_agent_profile(&Path::new(root).join("Cargo.toml")))
        .map_or("release", |_| AGENT_PROFILE);
    Ok((name.to_owned(), target_dir, profile.to_owned()))
}

/// True when the manifest `path` defines the profile [`AGENT_PROFILE`].
fn defines_agent_profile(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .is_some_and(|t| {
            t.get("profile")
                .and_then(|p| p.get(AGENT_PROFILE))
                .is_some()
        })
}
