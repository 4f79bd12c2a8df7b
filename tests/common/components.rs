//! The component example agents (Python, JavaScript, Rust), built with their real toolchains
//! into target/component-agents and rebuilt only when a source is newer than the build (a
//! componentize-py or componentize-js build takes 10 to 30 s). The arena invocations of the tests
//! share one compiled-artifact cache there too ([`component_cache`]), so each component is
//! compiled once, not once per test.
//!
//! A missing toolchain fails the test with the command that installs it
//! (scripts/install-test-tools.sh); it never skips it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

use super::{text, workspace};

/// Where the components and their compiled artifacts go.
pub fn component_dir() -> PathBuf {
    let dir = workspace().join("target").join("component-agents");
    std::fs::create_dir_all(&dir).expect("create target/component-agents");
    dir
}

/// The compiled-artifact cache the tests' `arena` runs share (set it as `ARENA_CACHE_DIR`).
pub fn component_cache() -> PathBuf {
    component_dir().join("cache")
}

/// `arena` with the shared artifact cache.
pub fn arena_cached() -> Command {
    let mut cmd = super::arena();
    cmd.env("ARENA_CACHE_DIR", component_cache());
    cmd
}

/// The newest modification time among `paths` (files, or folders' files one level down).
fn newest(paths: &[PathBuf]) -> SystemTime {
    let mut newest = SystemTime::UNIX_EPOCH;
    for p in paths {
        let mut files = vec![p.clone()];
        if p.is_dir() {
            files = std::fs::read_dir(p)
                .expect("read a source folder")
                .map(|e| e.expect("a folder entry").path())
                .filter(|f| f.is_file())
                .collect();
        }
        for f in files {
            let t = std::fs::metadata(&f)
                .and_then(|m| m.modified())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            newest = newest.max(t);
        }
    }
    newest
}

/// How an example is built: the command, and the sources it depends on.
fn recipe(name: &str, out: &Path) -> (Command, Vec<PathBuf>) {
    let ws = workspace();
    let py = ws.join("example-agents/python");
    let js = ws.join("example-agents/javascript");
    let wit = ws.join("wit");
    // A `source` is a file of the examples' folder, or the path of a copy with a bug.
    let python = |world: &str, source: &Path| {
        let mut cmd = Command::new("sh");
        cmd.arg(py.join("build.sh"))
            .arg(world)
            .arg(py.join(source))
            .arg(out);
        (cmd, vec![py.join("build.sh"), py.join(source), wit.clone()])
    };
    let javascript = |world: &str, source: &Path| {
        let mut cmd = Command::new("node");
        cmd.current_dir(&js)
            .arg("build.mjs")
            .arg(world)
            .arg(source)
            .arg(out);
        (
            cmd,
            vec![js.join("build.mjs"), js.join(source), wit.clone()],
        )
    };
    match name {
        // The climbers with a bug: an index past the herds (Python's IndexError, JavaScript's
        // TypeError on `undefined`), written next to the build from the examples.
        "py-indexerror" | "js-typeerror" => {
            let own_herd = "counts(view.herds[view.seat])";
            if name == "py-indexerror" {
                let past = "counts(view.herds[view.seat + 5])";
                let bug = with_bug(&py.join("climber.py"), own_herd, past, "py_indexerror.py");
                python("farm", &bug)
            } else {
                let past = "counts(view.herds[view.seat + 5].animals)";
                let bug = with_bug(&js.join("climber.js"), own_herd, past, "js-typeerror.js");
                javascript("farm", &bug)
            }
        }
        // The JavaScript climber logging a hash of every view it is given, built for world
        // `farm` (ARENA_FARM_WORLD=farm) and, as build.mjs builds a farm agent, for `farm-json`:
        // the same views give the same logs.
        "js-viewlog" | "js-viewlog-json" => {
            let source = with_bug(
                &js.join("climber.js"),
                "export function trade(view) {\n",
                "function logView(v) {\n  const s = JSON.stringify(v);\n  let h = 0;\n  \
                 for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;\n  \
                 log(`view ${s.length} ${h}`);\n}\nexport function trade(view) {\n  \
                 logView(view);\n",
                "js-viewlog.js",
            );
            let (mut cmd, sources) = javascript("farm", &source);
            if name == "js-viewlog" {
                cmd.env("ARENA_FARM_WORLD", "farm");
            }
            (cmd, sources)
        }
        "py-climber" => python("farm", "climber.py".as_ref()),
        "py-farkle" => python("farkle", "farkle_threshold.py".as_ref()),
        "py-jungle" => python("jungle", "jungle_random.py".as_ref()),
        "js-climber" => javascript("farm", "climber.js".as_ref()),
        "js-farkle" => javascript("farkle", "farkle-threshold.js".as_ref()),
        "rs-greedy" => {
            let dir = ws.join("example-agents/rust-component");
            let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
            cmd.current_dir(&dir).args([
                "build",
                "--release",
                "--target",
                "wasm32-wasip2",
                "--target-dir",
            ]);
            cmd.arg(component_dir().join("rust-target"));
            (
                cmd,
                vec![dir.join("src"), dir.join("Cargo.toml"), wit.clone()],
            )
        }
        hostile if hostile.starts_with("hostile-") => {
            let dir = ws.join("tests/hostile/rust-component");
            let feature = &hostile["hostile-".len()..];
            let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
            cmd.current_dir(&dir)
                .args([
                    "build",
                    "--release",
                    "--target",
                    "wasm32-wasip2",
                    "--features",
                ])
                .arg(feature)
                .arg("--target-dir")
                .arg(component_dir().join("rust-target-hostile"));
            (
                cmd,
                vec![
                    dir.join("src"),
                    dir.join("Cargo.toml"),
                    dir.join("wit"),
                    wit.clone(),
                ],
            )
        }
        other => panic!("no component example {other}"),
    }
}

/// `example` with `from` replaced by `to`, written to `file` in [`component_dir`] (only when it
/// changed: its time tells whether the component is older than its source).
fn with_bug(example: &Path, from: &str, to: &str, file: &str) -> PathBuf {
    let text = std::fs::read_to_string(example).expect("read the example");
    assert!(text.contains(from), "{} has no {from}", example.display());
    let text = text.replace(from, to);
    let path = component_dir().join(file);
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(&path, text).expect("write the source with a bug");
    }
    path
}

/// The component example `name` (py-climber, py-farkle, py-jungle, js-climber, js-farkle,
/// js-viewlog, js-viewlog-json, rs-greedy), or
/// a hostile component of tests/hostile/rust-component (`hostile-FEATURE`), built if it is
/// missing or older than a source.
pub fn component(name: &str) -> PathBuf {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    let _one_build_at_a_time = LOCK
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let out = component_dir().join(format!("{name}.wasm"));
    let (mut cmd, sources) = recipe(name, &out);
    let built = std::fs::metadata(&out).and_then(|m| m.modified()).ok();
    if built.is_some_and(|t| t >= newest(&sources)) {
        return out;
    }
    if name.starts_with("js-") {
        let js = workspace().join("example-agents/javascript");
        if !js
            .join("node_modules/@bytecodealliance/componentize-js")
            .exists()
        {
            run_build(
                Command::new("npm")
                    .args(["ci", "--no-audit", "--no-fund"])
                    .current_dir(&js),
                "npm ci in example-agents/javascript",
            );
        }
    }
    run_build(&mut cmd, &format!("building the component example {name}"));
    let rust_output = match name {
        "rs-greedy" => Some("rust-target/wasm32-wasip2/release/greedy_component.wasm".to_owned()),
        hostile if hostile.starts_with("hostile-") => {
            Some("rust-target-hostile/wasm32-wasip2/release/hostile_component.wasm".to_owned())
        }
        _ => None,
    };
    if let Some(built) = rust_output {
        let wasm = component_dir().join(built);
        std::fs::copy(&wasm, &out).unwrap_or_else(|e| panic!("{}: {e}", wasm.display()));
    }
    assert!(out.exists(), "{} was not built", out.display());
    out
}

fn run_build(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!(
            "{what}: cannot run {:?} ({e}); scripts/install-test-tools.sh installs the \
             toolchains (componentize-py, componentize-js, the wasm32-wasip2 target)",
            cmd.get_program()
        )
    });
    assert!(out.status.success(), "{what} failed:\n{}", text(&out));
}
