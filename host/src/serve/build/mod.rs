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
//!
//! This file finds the toolchains and prepares each build; `toolchains.rs` finds Python and
//! Node.js, `confine.rs` is the confinement, `run.rs` runs one confined command, `folder.rs` is the
//! build's folder and the messages read from it.

mod confine;
mod folder;
mod run;
mod toolchains;

use std::path::{Path, PathBuf};
use std::process::Command;

use self::confine::{probe_isolation, Isolation};
use self::folder::{clean_output, Folder};
use self::toolchains::{find_javascript, find_python, js_build_script, JavaScript, Python};
use super::config::Build;
use super::sources::{Lang, Sources};
use crate::game::Game;
use crate::sandbox::ComponentWorld;

/// The toolchains found at the start, and how builds are confined.
pub struct Builds {
    python: Result<Python, String>,
    javascript: Result<JavaScript, String>,
    isolation: Isolation,
    limits: Build,
    /// The game's WIT world, if its agents may be components.
    component: Option<&'static dyn ComponentWorld>,
    /// Its name without package and version.
    world: Option<&'static str>,
    /// The WIT package: its files (`wit/types.wit`, every game's world).
    wit: Vec<(&'static str, &'static str)>,
    /// The data folder, hidden from builds.
    data: PathBuf,
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
        let component = game.info().agent.component;
        let world = component.map(|w| w.short_name());
        let mut wit = vec![("wit/types.wit", include_str!("../../../../wit/types.wit"))];
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
            component,
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

    /// Builds `sources` into a component's bytes: the build folder prepared, the language's
    /// command made and run confined, the component read.
    pub fn build(&self, sources: &Sources) -> Result<Vec<u8>, Failure> {
        if let Some(why) = self.unavailable(sources.lang) {
            return Err(Failure::Build(why));
        }
        sources.validate().map_err(Failure::Build)?;
        let folder = Folder::new().map_err(Failure::Server)?;
        let dir = folder.0.clone();
        self.prepare(&dir, sources).map_err(Failure::Server)?;
        let mut cmd = match sources.lang {
            Lang::Python => self.python_command(&dir, sources)?,
            Lang::JavaScript => self.javascript_command(&dir, sources)?,
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

    /// The build folder's contents: the WIT package, the sources under `src/`, and `tmp/`.
    fn prepare(&self, dir: &Path, sources: &Sources) -> anyhow::Result<()> {
        for (path, text) in &self.wit {
            write(dir, path, text)?;
        }
        for f in &sources.files {
            write(dir, &format!("src/{}", f.path), &f.text)?;
        }
        std::fs::create_dir(dir.join("tmp"))?;
        Ok(())
    }

    /// componentize-py's command, in an empty virtual environment of the build's own: the
    /// component gets the standard library and the agent's sources, not the packages of the
    /// machine's Python (made here, not in the data folder, which the build cannot see).
    fn python_command(&self, dir: &Path, sources: &Sources) -> Result<Command, Failure> {
        let p = self
            .python
            .as_ref()
            .map_err(|e| Failure::Build(e.clone()))?;
        let world = self.world.unwrap_or_default();
        let module = sources.python_module().unwrap_or_default();
        let venv = dir.join("env");
        let mut c = Command::new(&p.exe);
        c.args(["-m", "venv", "--without-pip"]).arg(&venv);
        let made = self.run(c, dir).map_err(Failure::Server)?;
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
        Ok(c)
    }

    /// componentize-js's command (the build script), after Node has checked each file's syntax:
    /// componentize-js says only "failed to parse JS source" of a syntax error, Node names the
    /// file and line (`--check` runs nothing).
    fn javascript_command(&self, dir: &Path, sources: &Sources) -> Result<Command, Failure> {
        let j = self
            .javascript
            .as_ref()
            .map_err(|e| Failure::Build(e.clone()))?;
        std::os::unix::fs::symlink(&j.node_modules, dir.join("node_modules"))
            .map_err(|e| Failure::Server(e.into()))?;
        write(dir, "package.json", "{\"type\": \"module\"}\n").map_err(Failure::Server)?;
        for f in &sources.files {
            let mut c = Command::new(&j.node);
            c.arg("--check")
                .arg(format!("src/{}", f.path))
                .current_dir(dir);
            let run = self.run(c, dir).map_err(Failure::Server)?;
            if !run.success {
                let why = run.killed.unwrap_or_default();
                return Err(Failure::Build(
                    format!("{why}\n{}", clean_output(&run.output, dir))
                        .trim()
                        .to_owned(),
                ));
            }
        }
        // A game with a leaner world for JavaScript (the view as JSON text) has the agent built
        // for it through a glue module, as the templates' build.mjs does.
        let glue = self
            .component
            .and_then(|w| w.javascript_glue(&sources.entry));
        let (entry, world) = match glue {
            Some(g) => {
                write(dir, &format!("src/{}", g.path), &g.text).map_err(Failure::Server)?;
                (g.path, g.world)
            }
            None => (sources.entry.clone(), self.world.unwrap_or_default()),
        };
        write(dir, "build.mjs", &js_build_script(&entry, world)).map_err(Failure::Server)?;
        let mut c = Command::new(&j.node);
        c.arg("build.mjs");
        Ok(c)
    }
}

/// Writes `text` at `rel` in the build folder `dir`, making the folders on the way.
fn write(dir: &Path, rel: &str, text: &str) -> anyhow::Result<()> {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&path, text)?;
    Ok(())
}
