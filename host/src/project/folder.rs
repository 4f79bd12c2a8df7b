//! A folder made by `arena new`, named wherever an agent is expected (`arena play my-bot/`,
//! `check`, league files): its language is known from the files it holds, it is built with the
//! command `arena new` printed, and the build is kept until a source changes. (A Rust crate
//! folder is built by cargo: `crate::resolve`.)

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use anyhow::{bail, Context};

use super::{build_command, Lang};
use crate::activity::{Activity, Shown};
use crate::game::Game;

/// Folders a build makes or fills, not sources.
pub(super) const NOT_SOURCES: [&str; 8] = [
    "node_modules",
    ".venv",
    "__pycache__",
    "target",
    "build",
    ".zig-cache",
    "zig-out",
    ".git",
];

/// The language of the project in `dir`, from its files; `None` when it is no project of
/// `arena new` (Rust crates excepted).
pub(super) fn language(dir: &Path) -> Option<Lang> {
    let has = |f: &str| dir.join(f).is_file();
    if has("agent.py") {
        Some(Lang::Python)
    } else if has("agent.js") && has("build.mjs") {
        Some(Lang::JavaScript)
    } else if has("package.json") && has("assembly/index.ts") {
        Some(Lang::AssemblyScript)
    } else if has("agent.c") {
        Some(Lang::C)
    } else if has("agent.zig") {
        Some(Lang::Zig)
    } else if the_wat_file(dir).is_some() {
        Some(Lang::Wat)
    } else {
        None
    }
}

/// The one `.wat` file of a WAT project (named after the project when `arena new` made it);
/// `None` when there is none or more than one.
fn the_wat_file(dir: &Path) -> Option<PathBuf> {
    let mut found = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "wat"));
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The module a build left in `output`'s folder when it is not `output` itself (the project was
/// made under another name, so a template wrote the old one): the only `.wasm` there.
fn the_built_module(output: &Path) -> Option<PathBuf> {
    let mut found = std::fs::read_dir(output.parent()?)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "wasm"));
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The game a Python project plays: the one whose world's WIT types `agent.py` imports (the build
/// must name the world); the first game when it names none.
fn python_game(dir: &Path) -> anyhow::Result<&'static dyn Game> {
    let source = std::fs::read_to_string(dir.join("agent.py"))
        .with_context(|| format!("cannot read {}", dir.join("agent.py").display()))?;
    let imports = |g: &&'static dyn Game| {
        g.info()
            .agent
            .component
            .is_some_and(|w| source.contains(&format!("{}_types", w.short_name())))
    };
    Ok(crate::games::registry()
        .all()
        .iter()
        .copied()
        .find(imports)
        .unwrap_or_else(|| crate::games::registry().first()))
}

/// The newest modification time of the sources under `dir` (every file but what builds make).
fn newest_source(dir: &Path, output: &Path) -> anyhow::Result<SystemTime> {
    let mut newest = SystemTime::UNIX_EPOCH;
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)
            .with_context(|| format!("cannot read {}", folder.display()))?
        {
            let entry = entry?;
            let path = entry.path();
            let kind = entry.file_type()?;
            if kind.is_dir() {
                let name = entry.file_name();
                if !NOT_SOURCES.iter().any(|n| name == *n) {
                    folders.push(path);
                }
            } else if path != output && path.extension().is_none_or(|e| e != "wasm" && e != "o") {
                newest = newest.max(entry.metadata()?.modified()?);
            }
        }
    }
    Ok(newest)
}

/// The agent module of the `arena new` project in `dir`, built first unless the last build is
/// newer than every source; `Ok(None)` when `dir` is not such a project.
pub fn build_folder(dir: &Path) -> anyhow::Result<Option<PathBuf>> {
    let Some(lang) = language(dir) else {
        return Ok(None);
    };
    if lang == Lang::Wat {
        return Ok(the_wat_file(dir));
    }
    // Named after the folder, as `arena new` names a project's module.
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "agent".to_owned());
    let lib = name.replace('-', "_");
    let game = match lang {
        Lang::Python => python_game(dir)?,
        _ => crate::games::registry().first(),
    };
    let (mut command, module) = build_command(lang, game, &name, &lib);
    if lang == Lang::Zig && !on_path("zig") {
        // Zig from PyPI (`pip install ziglang`, what scripts/install-test-tools.sh and
        // docs/languages/zig.md install) has no `zig` command: the same build through Python.
        command = Some(super::zig_build(&name, "python3 -m ziglang"));
    }
    let output = dir.join(&module);
    let Some(command) = command else {
        return Ok(Some(output));
    };
    if let Ok(built) = std::fs::metadata(&output).and_then(|m| m.modified()) {
        if built >= newest_source(dir, &output)? {
            return Ok(Some(output));
        }
    }
    let _activity = Activity::start(
        format!(
            "building {} ({lang}: `{command}`; {})",
            crate::terminal::line(&dir.display().to_string()),
            usual_build_time(lang)
        ),
        Shown::Always,
    );
    let run = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(dir)
        // componentize-py is written in Rust: its backtrace would bury the Python error.
        .env("RUST_BACKTRACE", "0")
        .env("RUST_LIB_BACKTRACE", "0")
        .output()
        .with_context(|| format!("cannot run sh to build {}", dir.display()))?;
    if !run.status.success() {
        let stderr = String::from_utf8_lossy(&run.stderr);
        let stdout = String::from_utf8_lossy(&run.stdout);
        let said = if stderr.trim().is_empty() {
            stdout
        } else {
            stderr
        };
        let hint = match (run.status.code(), lang) {
            (Some(127), Lang::Python | Lang::JavaScript) => {
                " (a tool is missing: scripts/install-test-tools.sh installs componentize-py and \
                 Node.js's componentize-js)"
            }
            (Some(127), _) => " (a tool is missing: see docs/languages/)",
            _ => "",
        };
        bail!(
            "cannot build the {lang} agent in {}: `{command}` failed ({}){hint}:\n{}",
            dir.display(),
            run.status,
            last_lines(&said, 30)
        );
    }
    if !output.is_file() {
        if let Some(module) = the_built_module(&output) {
            return Ok(Some(module));
        }
        bail!(
            "built the {lang} agent in {} with `{command}`, but it made no {module}",
            dir.display()
        );
    }
    Ok(Some(output))
}

/// How long a build in `lang` usually takes (measured on a 2-core machine).
fn usual_build_time(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "usually 10 to 30 s",
        Lang::JavaScript => "the first npm install takes about a minute, a build 5 to 20 s",
        Lang::AssemblyScript => "the first npm install takes about a minute, a build seconds",
        _ => "usually seconds",
    }
}

/// True when an executable file named `program` is in one of the PATH's folders.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| is_executable(&dir.join(program)))
    })
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// The last `n` lines of a tool's output (the error is at the end).
fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}
