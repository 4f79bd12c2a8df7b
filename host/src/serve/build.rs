//! Building a Python or JavaScript upload into a WebAssembly component, as `arena new`'s
//! templates build them (componentize-py; Node.js with @bytecodealliance/componentize-js), in a
//! confined child process:
//!
//! - an empty folder of its own, made for the build (outside the data folder) and removed after
//!   it: the sources (`src/`), the arena's WIT package (`wit/`) and, for JavaScript, the build
//!   script and a link to the `node_modules` folder of the toolchain;
//! - no network: a network namespace of its own (`unshare`), where only an unconfigured loopback
//!   exists, and a mount namespace of its own in which the data folder (the server's secret, its
//!   database, every upload) is hidden under an empty read-only file system. Where the kernel
//!   refuses namespaces (no privilege, no user namespaces), the server says so at the start and
//!   builds without them, in an environment without proxies;
//! - an environment of its own (only `PATH`, `HOME` and the temporary folder set to the build
//!   folder, and what the toolchain needs);
//! - limits on every process of it: CPU time (`uploads.build_cpu_s`), writable memory
//!   (`RLIMIT_DATA`, `uploads.build_memory_mib`: not the address space, which the toolchains'
//!   WebAssembly engines reserve by gigabytes without using it), the size of any file written
//!   (`RLIMIT_FSIZE`), open files, no core files; its output is captured up to a bound; a wall
//!   deadline (`uploads.build_wall_s`) kills its process group.
//!
//! What it can still reach: the files the server's user may read outside the data folder
//! (docs/SERVER.md says so).

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::config::Build;
use super::engine::Game;
use super::sources::{Lang, Sources};
use crate::games::farm::component::farm_json_glue;

/// Output of a build kept for its report, from stdout and stderr each (the end of it).
const OUTPUT_KEPT: usize = 16 << 10;

/// Largest file a build may write (the component: 15 to 40 MiB for the examples).
const FILE_BYTES: u64 = 256 << 20;

/// Open files of each build process.
const OPEN_FILES: u64 = 1024;

/// The toolchains found at the start, and how builds are confined.
pub struct Builds {
    python: Result<Python, String>,
    javascript: Result<JavaScript, String>,
    isolation: Isolation,
    limits: Build,
    /// The game's WIT world, if its agents may be components.
    world: Option<&'static str>,
    /// The WIT package: its files (`wit/types.wit`, every game's world).
    wit: Vec<(&'static str, &'static str)>,
    /// The data folder, hidden from builds.
    data: PathBuf,
}

struct Python {
    /// The interpreter that has componentize-py (not a shim: `sys.executable`).
    exe: PathBuf,
    version: String,
}

struct JavaScript {
    node: PathBuf,
    node_modules: PathBuf,
    version: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Isolation {
    /// Network and mount namespaces of the build's own (as root, or in a user namespace).
    Namespaces { user: bool },
    /// The kernel refused namespaces: why.
    None(String),
}

/// Why a build made no component.
#[derive(Debug)]
pub enum Failure {
    /// The sources' fault (or the toolchain's refusal): the verdict, with the toolchain's message.
    Build(String),
    /// The server's own failure (no temporary folder, no process).
    Server(anyhow::Error),
}

impl Builds {
    /// Finds the toolchains `limits` names and how this machine can confine a build; `data` is the
    /// data folder (the Python environment is made in it, and builds do not see it).
    pub fn find(limits: &Build, game: &'static dyn Game, data: &Path) -> Builds {
        let world = game.info().agent.component.map(|w| w.short_name());
        let mut wit = vec![("wit/types.wit", include_str!("../../../wit/types.wit"))];
        wit.extend(
            crate::games::registry()
                .all()
                .iter()
                .filter_map(|g| g.info().agent.component)
                .map(|w| w.wit_file()),
        );
        let data = std::fs::canonicalize(data).unwrap_or_else(|_| data.to_path_buf());
        Builds {
            python: find_python(limits),
            javascript: find_javascript(limits),
            isolation: probe_isolation(&data),
            limits: limits.clone(),
            world,
            wit,
            data,
        }
    }

    /// What the server says at its start: one line per language, and how builds are confined.
    pub fn describe(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for lang in [Lang::Python, Lang::JavaScript] {
            lines.push(match self.unavailable(lang) {
                Some(why) => why,
                None => match lang {
                    Lang::Python => format!(
                        "builds Python uploads with componentize-py {}",
                        self.python.as_ref().map_or("", |p| p.version.as_str())
                    ),
                    Lang::JavaScript => format!(
                        "builds JavaScript uploads with componentize-js {}",
                        self.javascript.as_ref().map_or("", |j| j.version.as_str())
                    ),
                },
            });
        }
        if self.python.is_ok() || self.javascript.is_ok() {
            lines.push(match &self.isolation {
                Isolation::Namespaces { user } => format!(
                    "builds run without network and without the data folder (namespaces{})",
                    if *user { ", in a user namespace" } else { "" }
                ),
                Isolation::None(why) => format!(
                    "warning: builds run WITH the machine's network and data folder (no \
                     namespaces: {why}); only the environment (no proxies) and the limits confine \
                     them"
                ),
            });
        }
        lines
    }

    /// Why this server cannot build `lang` (`this server cannot build Python: …`), if it cannot.
    pub fn unavailable(&self, lang: Lang) -> Option<String> {
        let why = match (self.world, lang) {
            (None, _) => Some("this challenge's game has no WIT world".to_owned()),
            (_, Lang::Python) => self.python.as_ref().err().cloned(),
            (_, Lang::JavaScript) => self.javascript.as_ref().err().cloned(),
        }?;
        Some(format!("this server cannot build {}: {why}", lang.name()))
    }

    /// Builds `sources` into a component's bytes.
    pub fn build(&self, sources: &Sources) -> Result<Vec<u8>, Failure> {
        if let Some(why) = self.unavailable(sources.lang) {
            return Err(Failure::Build(why));
        }
        sources.validate().map_err(Failure::Build)?;
        let world = self.world.unwrap_or_default();
        let folder = Folder::new().map_err(Failure::Server)?;
        let dir = folder.0.clone();
        let write = |rel: &str, text: &str| -> anyhow::Result<()> {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, text)?;
            Ok(())
        };
        let prepared = (|| {
            for (path, text) in &self.wit {
                write(path, text)?;
            }
            for f in &sources.files {
                write(&format!("src/{}", f.path), &f.text)?;
            }
            std::fs::create_dir(dir.join("tmp"))?;
            anyhow::Ok(())
        })();
        prepared.map_err(Failure::Server)?;
        let mut cmd = match sources.lang {
            Lang::Python => {
                let p = self
                    .python
                    .as_ref()
                    .map_err(|e| Failure::Build(e.clone()))?;
                let module = sources.python_module().unwrap_or_default();
                // An empty virtual environment of the build's own: the component gets the
                // standard library and the agent's sources, not the packages of the machine's
                // Python (made here, not in the data folder, which the build cannot see).
                let venv = dir.join("env");
                let mut c = Command::new(&p.exe);
                c.args(["-m", "venv", "--without-pip"]).arg(&venv);
                let made = self.run(c, &dir).map_err(Failure::Server)?;
                if !made.success {
                    return Err(Failure::Server(anyhow::anyhow!(
                        "cannot make an empty Python environment: {}",
                        made.output.trim()
                    )));
                }
                let mut c = Command::new(&p.exe);
                c.arg("-c")
                    .arg(
                        "import sys; from componentize_py import script; \
                         sys.argv[0] = 'componentize-py'; sys.exit(script())",
                    )
                    .args(["-d", "wit", "-w", world, "componentize", &module])
                    .args(["-p", "src", "-o", "out.wasm"])
                    .env("VIRTUAL_ENV", &venv)
                    .env("PYTHONDONTWRITEBYTECODE", "1");
                c
            }
            Lang::JavaScript => {
                let j = self
                    .javascript
                    .as_ref()
                    .map_err(|e| Failure::Build(e.clone()))?;
                std::os::unix::fs::symlink(&j.node_modules, dir.join("node_modules"))
                    .map_err(|e| Failure::Server(e.into()))?;
                // componentize-js says only "failed to parse JS source" of a syntax error: Node
                // parses each file first (`--check` runs nothing), naming the file and line.
                write("package.json", "{\"type\": \"module\"}\n").map_err(Failure::Server)?;
                for f in &sources.files {
                    let mut c = Command::new(&j.node);
                    c.arg("--check")
                        .arg(format!("src/{}", f.path))
                        .current_dir(&dir);
                    let run = self.run(c, &dir).map_err(Failure::Server)?;
                    if !run.success {
                        let why = run.killed.unwrap_or_default();
                        return Err(Failure::Build(
                            format!("{why}\n{}", clean_output(&run.output, &dir))
                                .trim()
                                .to_owned(),
                        ));
                    }
                }
                // A farm agent is built for world farm-json through a glue module, as by the
                // templates' build.mjs.
                let (entry, world) = match world {
                    "farm" => {
                        let (glue, text) = farm_json_glue(&sources.entry);
                        write(&format!("src/{glue}"), &text).map_err(Failure::Server)?;
                        (glue, "farm-json")
                    }
                    _ => (sources.entry.clone(), world),
                };
                write("build.mjs", &js_build_script(&entry, world)).map_err(Failure::Server)?;
                let mut c = Command::new(&j.node);
                c.arg("build.mjs");
                c
            }
        };
        cmd.current_dir(&dir);
        let run = self.run(cmd, &dir).map_err(Failure::Server)?;
        let output = clean_output(&run.output, &dir);
        if let Some(why) = run.killed {
            return Err(Failure::Build(format!("{why}\n{output}")));
        }
        let out = dir.join("out.wasm");
        let is_file = std::fs::symlink_metadata(&out).is_ok_and(|m| m.file_type().is_file());
        if !run.success || !is_file {
            let output = if output.trim().is_empty() {
                format!("the {} build made no component", sources.lang.name())
            } else {
                output
            };
            return Err(Failure::Build(output));
        }
        std::fs::read(&out).map_err(|e| Failure::Server(e.into()))
    }

    /// Runs `cmd` confined (see the module's comment) in `dir`, until it ends or its deadline.
    fn run(&self, mut cmd: Command, dir: &Path) -> anyhow::Result<Run> {
        let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
        cmd.env_clear()
            .env("PATH", path)
            .env("HOME", dir)
            .env("TMPDIR", dir.join("tmp"))
            .env("LANG", "C.UTF-8")
            .env("RUST_BACKTRACE", "0")
            .env("RUST_LIB_BACKTRACE", "0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let confine = Confine::new(&self.limits, &self.isolation, &self.data)?;
        // SAFETY: the closure only makes system calls (setrlimit, unshare, mount) on memory
        // prepared before the fork; it allocates nothing.
        unsafe {
            cmd.pre_exec(move || confine.apply());
        }
        let started = Instant::now();
        let mut child = cmd.spawn()?;
        let group = child.id() as libc::pid_t;
        let out = child
            .stdout
            .take()
            .map(|s| std::thread::spawn(move || tail(s)));
        let err = child
            .stderr
            .take()
            .map(|s| std::thread::spawn(move || tail(s)));
        let deadline = Duration::from_secs(self.limits.wall_s);
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break Some(status);
            }
            if started.elapsed() > deadline {
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        // The whole process group goes: what the build started and left running, or all of it at
        // the deadline.
        // SAFETY: kill has no memory effects; the group is the build's own (process_group(0)).
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
        let status = match status {
            Some(s) => Some(s),
            None => {
                let _ = child.wait();
                None
            }
        };
        let join = |h: Option<std::thread::JoinHandle<Vec<u8>>>| {
            h.and_then(|h| h.join().ok()).unwrap_or_default()
        };
        let mut output = String::from_utf8_lossy(&join(out)).into_owned();
        let stderr = join(err);
        if !stderr.is_empty() {
            if !output.is_empty() && !output.ends_with('\n') {
                output.push('\n');
            }
            output.push_str(&String::from_utf8_lossy(&stderr));
        }
        let killed = match status {
            None => Some(format!(
                "the build took longer than {} s and was stopped",
                self.limits.wall_s
            )),
            Some(s) => {
                use std::os::unix::process::ExitStatusExt;
                match s.signal() {
                    Some(libc::SIGXCPU) | Some(libc::SIGKILL) => Some(format!(
                        "the build used more than {} s of CPU time and was stopped",
                        self.limits.cpu_s
                    )),
                    Some(libc::SIGXFSZ) => Some(format!(
                        "the build wrote a file larger than {} MiB and was stopped",
                        FILE_BYTES >> 20
                    )),
                    _ => None,
                }
            }
        };
        Ok(Run {
            success: status.is_some_and(|s| s.success()),
            killed,
            output,
        })
    }
}

struct Run {
    success: bool,
    /// Why the build was stopped, if a limit stopped it.
    killed: Option<String>,
    output: String,
}

/// The end of a stream, at most [`OUTPUT_KEPT`] bytes of it; the rest is read and dropped.
fn tail(mut r: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    let mut dropped = false;
    while let Ok(n) = r.read(&mut buf) {
        if n == 0 {
            break;
        }
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > 2 * OUTPUT_KEPT {
            kept.drain(..kept.len() - OUTPUT_KEPT);
            dropped = true;
        }
    }
    if kept.len() > OUTPUT_KEPT {
        kept.drain(..kept.len() - OUTPUT_KEPT);
        dropped = true;
    }
    if dropped {
        let mut t = b"[...]\n".to_vec();
        t.extend(kept);
        return t;
    }
    kept
}

/// The toolchain's message as the contestant reads it: the build folder's paths as their own
/// (`src/bot.py` is `bot.py`), without componentize-py's own Python traceback around the error.
fn clean_output(output: &str, dir: &Path) -> String {
    let dir = dir.display().to_string();
    let mut text = output
        .replace(&format!("{dir}/src/"), "")
        .replace(&format!("{dir}/"), "");
    // componentize-py reports an error of the agent's code as an AssertionError of its own
    // script: what follows it is the agent's error. It sees the sources' folder as `/0`.
    if text.starts_with("Traceback") {
        if let Some(i) = text.find("AssertionError: ") {
            text = text[i + "AssertionError: ".len()..].to_owned();
        }
    }
    text = text.replace("File \"/0/", "File \"");
    // Node's own stack (`at checkSyntax (node:internal/…)`) and version line say nothing of the
    // agent.
    text.lines()
        .filter(|l| !l.trim_start().starts_with("at ") || !l.contains("node:internal"))
        .filter(|l| !l.starts_with("Node.js v"))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_owned()
}

/// The JavaScript build script of an agent whose entry is `src/ENTRY` (as the templates' build.mjs).
/// It builds from inside `src/`, so that the agent's stack traces name its files as uploaded
/// (`trade@agent.js:49:23`, not `src/agent.js`).
fn js_build_script(entry: &str, world: &str) -> String {
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

/// The build's own folder in the system's temporary folder, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new() -> anyhow::Result<Folder> {
        use std::os::unix::fs::DirBuilderExt;
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        for _ in 0..100 {
            let name = format!(
                "arena-build-{}-{}-{}",
                std::process::id(),
                COUNT.fetch_add(1, Ordering::Relaxed),
                super::now_ms()
            );
            let path = base.join(name);
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(Folder(path)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => anyhow::bail!("cannot make a build folder in {}: {e}", base.display()),
            }
        }
        anyhow::bail!("cannot make a build folder in {}", base.display())
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.0) {
            eprintln!(
                "warning: cannot remove the build folder {}: {e}",
                self.0.display()
            );
        }
    }
}

/// What the child does between fork and exec, prepared beforehand (no allocation after fork).
struct Confine {
    cpu_s: u64,
    data_bytes: u64,
    isolation: Isolation,
    data: std::ffi::CString,
}

impl Confine {
    fn new(b: &Build, isolation: &Isolation, data: &Path) -> anyhow::Result<Confine> {
        Ok(Confine {
            cpu_s: b.cpu_s,
            data_bytes: b.memory_mib << 20,
            isolation: isolation.clone(),
            data: std::ffi::CString::new(data.as_os_str().as_encoded_bytes())?,
        })
    }

    fn apply(&self) -> std::io::Result<()> {
        macro_rules! limit {
            ($resource:expr, $value:expr) => {{
                let lim = libc::rlimit {
                    rlim_cur: $value as libc::rlim_t,
                    rlim_max: $value as libc::rlim_t,
                };
                // SAFETY: setrlimit reads `lim` only.
                if unsafe { libc::setrlimit($resource, &lim) } != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }};
        }
        limit!(libc::RLIMIT_CPU, self.cpu_s);
        limit!(libc::RLIMIT_DATA, self.data_bytes);
        limit!(libc::RLIMIT_FSIZE, FILE_BYTES);
        limit!(libc::RLIMIT_NOFILE, OPEN_FILES);
        limit!(libc::RLIMIT_CORE, 0u64);
        if let Isolation::Namespaces { user } = self.isolation {
            isolate(user, &self.data)?;
        }
        Ok(())
    }
}

/// In the calling (child) process: a network namespace of its own, and a mount namespace in
/// which `data` is covered by an empty read-only tmpfs. `user`: in a user namespace (needed
/// without root).
#[cfg(target_os = "linux")]
fn isolate(user: bool, data: &std::ffi::CStr) -> std::io::Result<()> {
    let err = std::io::Error::last_os_error;
    let mut flags = libc::CLONE_NEWNET | libc::CLONE_NEWNS;
    if user {
        flags |= libc::CLONE_NEWUSER;
    }
    // SAFETY: system calls on static strings and `data`, a valid C string.
    unsafe {
        if libc::unshare(flags) != 0 {
            return Err(err());
        }
        if libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ) != 0
        {
            return Err(err());
        }
        if libc::mount(
            c"arena-hidden".as_ptr(),
            data.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            c"size=4k,mode=000".as_ptr().cast(),
        ) != 0
        {
            return Err(err());
        }
    }
    Ok(())
}

/// Namespaces are Linux's: elsewhere builds are confined by their environment and limits only.
#[cfg(not(target_os = "linux"))]
fn isolate(_user: bool, _data: &std::ffi::CStr) -> std::io::Result<()> {
    Err(std::io::Error::other("namespaces are Linux's"))
}

/// How this machine can confine builds: namespaces as the server's user, else in a user
/// namespace, else none (and why), tried on a child that does nothing.
fn probe_isolation(data: &Path) -> Isolation {
    let Ok(data) = std::ffi::CString::new(data.as_os_str().as_encoded_bytes()) else {
        return Isolation::None("the data folder's path is not a C string".into());
    };
    let mut last = String::new();
    for user in [false, true] {
        let data = data.clone();
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", "exit 0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: system calls only, on memory prepared before the fork.
        unsafe {
            cmd.pre_exec(move || isolate(user, &data));
        }
        match cmd.status() {
            Ok(s) if s.success() => return Isolation::Namespaces { user },
            Ok(s) => last = format!("a confined process ended with {s}"),
            Err(e) => last = e.to_string(),
        }
    }
    Isolation::None(last)
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

fn find_python(b: &Build) -> Result<Python, String> {
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

fn find_javascript(b: &Build) -> Result<JavaScript, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn componentize_py_s_traceback_is_left_out_of_the_message() {
        let dir = Path::new("/tmp/arena-build-1");
        let raw = "Traceback (most recent call last):\n  File \"/x/componentize-py\", line 8\n\
                   AssertionError:   File \"/0/bot.py\", line 2\n    def f(:\n\
                   SyntaxError: invalid syntax\n";
        let text = clean_output(raw, dir);
        assert!(text.starts_with("File \"bot.py\", line 2"), "{text}");
        assert!(text.contains("SyntaxError"));
    }

    #[test]
    fn long_output_keeps_its_end() {
        let mut text = vec![b'a'; 100_000];
        text.extend_from_slice(b"the error");
        let kept = tail(&text[..]);
        assert!(kept.len() <= OUTPUT_KEPT + 10);
        assert!(kept.starts_with(b"[...]") && kept.ends_with(b"the error"));
    }
}
