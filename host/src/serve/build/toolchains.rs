//! The toolchains found at the server's start: a Python with componentize-py, Node.js with
//! @bytecodealliance/componentize-js (and the build script it runs); or why each is missing, in
//! words that say how to install it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::serve::config::Build;

pub(super) struct Python {
    /// The interpreter that has componentize-py (not a shim: `sys.executable`).
    pub(super) exe: PathBuf,
    pub(super) version: String,
}

pub(super) struct JavaScript {
    pub(super) node: PathBuf,
    pub(super) node_modules: PathBuf,
    pub(super) version: String,
}

/// The JavaScript build script of an agent whose entry is `src/ENTRY` (as the templates' build.mjs).
/// It builds from inside `src/`, so that the agent's stack traces name its files as uploaded
/// (`trade@agent.js:49:23`, not `src/agent.js`).
pub(super) fn js_build_script(entry: &str, world: &str) -> String {
    let source = serde_json::to_string(entry).expect("a string");
    format!(
        "import {{ writeFile }} from 'node:fs/promises';\n\
         import {{ componentize }} from '@bytecodealliance/componentize-js';\n\
         process.chdir('src');\n\
         let component;\n\
         try {{\n\
           ({{ component }} = await componentize({{ sourcePath: {source}, witPath: '../wit', \
         worldName: '{world}', disableFeatures: ['http', 'fetch-event'] }}));\n\
         }} catch (e) {{\n\
           console.error(e.message);\n\
           process.exit(1);\n\
         }}\n\
         await writeFile('../out.wasm', component);\n"
    )
}

/// A program named `name` (a path, or a name looked up on `PATH`).
fn on_path(name: &Path) -> Option<PathBuf> {
    if name.components().count() > 1 {
        return name.is_file().then(|| name.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A short command's stdout, or why it failed (the first line of its stderr).
fn output_of(cmd: &mut Command) -> Result<String, String> {
    let o = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if o.status.success() {
        Ok(String::from_utf8_lossy(&o.stdout).trim().to_owned())
    } else {
        let err = String::from_utf8_lossy(&o.stderr);
        Err(err
            .lines()
            .rfind(|l| !l.trim().is_empty())
            .unwrap_or("failed")
            .trim()
            .to_owned())
    }
}

pub(super) fn find_python(b: &Build) -> Result<Python, String> {
    let install = "pip install componentize-py==0.25.1";
    let python = on_path(&b.python).ok_or_else(|| {
        format!(
            "no Python interpreter {} (uploads.python); then {install}",
            b.python.display()
        )
    })?;
    let found = output_of(Command::new(&python).args([
        "-c",
        "import sys, importlib.metadata as m, componentize_py; \
         print(sys.executable); print(m.version('componentize-py'))",
    ]))
    .map_err(|e| {
        format!(
            "componentize-py is not installed for {} ({e}): {install}",
            python.display()
        )
    })?;
    let mut lines = found.lines();
    let exe = PathBuf::from(lines.next().unwrap_or_default());
    let version = lines.next().unwrap_or_default().to_owned();
    Ok(Python { exe, version })
}

pub(super) fn find_javascript(b: &Build) -> Result<JavaScript, String> {
    let node = on_path(&b.node)
        .ok_or_else(|| format!("no Node.js ({} on PATH, uploads.node)", b.node.display()))?;
    let checkout =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-agents/javascript/node_modules");
    let node_modules = b.node_modules.clone().unwrap_or(checkout);
    let package = node_modules.join("@bytecodealliance/componentize-js/package.json");
    let text = std::fs::read_to_string(&package).map_err(|_| {
        format!(
            "no @bytecodealliance/componentize-js in {} (uploads.node_modules; `npm ci` in \
             example-agents/javascript installs it)",
            node_modules.display()
        )
    })?;
    let version = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("version")?.as_str().map(str::to_owned))
        .unwrap_or_default();
    let node_modules = std::fs::canonicalize(&node_modules).unwrap_or(node_modules);
    Ok(JavaScript {
        node,
        node_modules,
        version,
    })
}
