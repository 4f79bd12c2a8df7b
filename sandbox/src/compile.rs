//! Compiling agent modules with bounded time and memory.
//!
//! wasmtime's compiler cannot be interrupted, and a hostile module can make it run for seconds
//! or minutes and use a lot of memory. So, in this order:
//!
//! 1. the module's shape is checked against [`ShapeLimits`] (one linear pass, before compiling);
//! 2. the compiled artifact is looked up in the [`ModuleCache`] (HMAC-checked);
//! 3. otherwise it is compiled in a child process (the `arena` binary itself, run with the hidden
//!    subcommand [`COMPILE_SUBCOMMAND`](crate::COMPILE_SUBCOMMAND)) under an address-space rlimit and a CPU-time rlimit (the
//!    compile deadline: CPU time, so that a busy machine does not refuse what an idle one
//!    accepts), with a wall-clock deadline far behind it after which the parent kills it; the
//!    child writes the serialized artifact to its stdout, and the parent deserializes it and
//!    stores it in the cache. The child dies with its parent (a parent-death signal), so a
//!    server that is stopped, however, leaves no compile running.
//!
//! A module or component with a megabyte of code or more (a language runtime inside it; see
//! [`FunctionCacheLimits`]) is compiled with the compiled-function cache ([`FunctionCache`], in
//! the module cache's folder): the functions another agent's compile already compiled are taken from there, so a
//! runtime is compiled once per machine, not once per agent. The child is given the cache's
//! secret on its stdin, before the module: it already makes the code the parent will run, so
//! the secret gives it nothing more.
//!
//! Without a compiler executable (unit tests, library users) step 3 runs in this process. The
//! child process and its protocol are `compile_child.rs`.

use std::path::PathBuf;
use std::sync::OnceLock;

use anyhow::anyhow;
use serde::{Deserialize, Serialize};
use wasmtime::component::Component;
use wasmtime::{Engine, Module};

use super::cache::{self, Lookup, ModuleCache};
use super::compile_child as child;
use super::config::{self, Limits};
use super::faults::one_line;
use super::function_cache::{FunctionCache, FunctionCacheLimits, FunctionCacheUse};
use super::shape::{check_shape, ShapeLimits};

/// Limits on compiling one module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompileLimits {
    pub shape: ShapeLimits,
    /// CPU time for the compiler child, in milliseconds, summed over its threads (`RLIMIT_CPU`,
    /// whole seconds): the compile deadline. The slowest agents to compile are Python and
    /// JavaScript components (their interpreter); see [`DEFAULT_COMPILE_CPU_MS`].
    pub cpu_ms: u64,
    /// Wall-clock time for the compiler child, in milliseconds: a backstop for a child that
    /// stops using CPU without ending (the CPU deadline is the one that counts).
    pub time_ms: u64,
    /// Address space of the compiler child, in bytes (`RLIMIT_AS`).
    pub memory_bytes: u64,
    /// Largest artifact accepted from the compiler child, in bytes.
    pub artifact_bytes: u64,
    /// When the compiled-function cache is used (with the module cache), and its size.
    pub functions: FunctionCacheLimits,
}

impl Default for CompileLimits {
    fn default() -> CompileLimits {
        CompileLimits {
            shape: ShapeLimits::default(),
            cpu_ms: DEFAULT_COMPILE_CPU_MS,
            time_ms: 600_000,
            memory_bytes: 2 << 30,
            artifact_bytes: 512 << 20,
            functions: FunctionCacheLimits::default(),
        }
    }
}

/// The default compile deadline, in milliseconds of CPU time. The first compile of the Python
/// climber (componentize-py 0.25.1, 18.3 MB) and of the JavaScript one (componentize-js, 12.1 MB)
/// took 19.9 s and 21.9 s of CPU time (user and system, `arena check --games 1` on an empty
/// module cache, compiler child included), on a 2-core machine whose load average was 13: 34.2 s
/// and 24.8 s of wall time (docs/PERFORMANCE.md). CPU time does not grow with the machine's load
/// as wall time does; about three times the slowest leaves room for larger programs.
pub const DEFAULT_COMPILE_CPU_MS: u64 = 60_000;

/// How a sandbox compiles modules.
#[derive(Clone, Debug, Default)]
pub struct Compiler {
    /// The `arena` executable to run as the compiler child; `None` compiles in this process.
    pub executable: Option<PathBuf>,
    /// Where compiled artifacts are kept; `None` for no cache.
    pub cache: Option<ModuleCache>,
    pub limits: CompileLimits,
}

static PROCESS_DEFAULT: OnceLock<Compiler> = OnceLock::new();

/// Where a module's compiled code came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The module cache held the whole artifact: nothing was compiled.
    ModuleCache,
    /// Compiled now; `functions` says what the compiled-function cache gave (`None`: it was not
    /// used: no cache, or a small module).
    Compiled { functions: Option<FunctionCacheUse> },
}

impl Compiler {
    /// Compiles in this process, without a cache, with the default shape limits.
    pub fn in_process() -> Compiler {
        Compiler::default()
    }

    /// What the `arena` command uses: itself as the compiler child, and the cache in
    /// [`ModuleCache::default_dir`] (a cache that cannot be opened safely is skipped with a
    /// warning on stderr).
    pub fn for_command() -> Compiler {
        let executable = std::env::current_exe().ok();
        let cache = ModuleCache::default_dir().and_then(|dir| match ModuleCache::open(&dir) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("warning: compiled-module cache not used: {e:#}");
                None
            }
        });
        Compiler {
            executable,
            cache,
            limits: CompileLimits::default(),
        }
    }

    /// Makes `c` what [`Compiler::process_default`] returns (once per process; later calls are
    /// ignored). The `arena` binary calls it at start-up.
    pub fn set_process_default(c: Compiler) {
        let _ = PROCESS_DEFAULT.set(c);
    }

    /// The compiler a `Sandbox::new` uses.
    pub fn process_default() -> Compiler {
        PROCESS_DEFAULT
            .get()
            .cloned()
            .unwrap_or_else(Compiler::in_process)
    }

    /// Checks the shape of `wasm` (a validated core module) and compiles it for `engine`.
    pub fn compile(&self, engine: &Engine, limits: &Limits, wasm: &[u8]) -> anyhow::Result<Module> {
        self.compile_as(engine, limits, wasm)
            .map(|(module, _)| module)
    }

    /// [`Compiler::compile`], and where the compiled code came from.
    pub(crate) fn compile_or_reuse(
        &self,
        engine: &Engine,
        limits: &Limits,
        wasm: &[u8],
    ) -> anyhow::Result<(Module, Origin)> {
        self.compile_as(engine, limits, wasm)
    }

    /// The same for a component (`wasm` is a component binary): the same shape limits (on each
    /// of its core modules), child process, limits and caches; and where the compiled code came
    /// from.
    pub fn compile_component(
        &self,
        engine: &Engine,
        limits: &Limits,
        wasm: &[u8],
    ) -> anyhow::Result<(Component, Origin)> {
        self.compile_as(engine, limits, wasm)
    }

    fn compile_as<A: Artifact>(
        &self,
        engine: &Engine,
        limits: &Limits,
        wasm: &[u8],
    ) -> anyhow::Result<(A, Origin)> {
        let shape = check_shape(wasm, &self.limits.shape)?;
        let key = self
            .cache
            .as_ref()
            .map(|_| ModuleCache::key(engine, limits, wasm));
        if let (Some(cache), Some(key)) = (&self.cache, &key) {
            match cache.load_as::<A>(engine, key) {
                Lookup::Hit(module) => return Ok((module, Origin::ModuleCache)),
                Lookup::Miss => {}
                Lookup::Refused(why) => {
                    eprintln!("warning: cached artifact refused, compiling again: {why}")
                }
            }
        }
        // The compiled-function cache, for modules with a language runtime inside.
        let functions = self
            .cache
            .as_ref()
            .filter(|_| shape.code_bytes >= self.limits.functions.min_code_bytes);
        let (artifact, used) = match &self.executable {
            None if self.cache.is_none() => {
                return A::compile(engine, wasm)
                    .map(|module| (module, Origin::Compiled { functions: None }))
                    .map_err(|e| anyhow!("cannot compile the {}: {}", A::WHAT, one_line(&e)));
            }
            None => precompile_in_process::<A>(engine, limits, wasm, functions, &self.limits)?,
            Some(exe) => {
                child::compile_in_child(exe, &self.limits, limits, wasm, A::WHAT, functions)?
            }
        };
        // SAFETY: the artifact was made just now by this arena's own compiler (this process, or
        // the child it started from its own executable), never read from where others can write.
        let module = unsafe { A::deserialize(engine, &artifact) }
            .map_err(|e| anyhow!("cannot load the compiled {}: {}", A::WHAT, one_line(&e)))?;
        if let (Some(cache), Some(key)) = (&self.cache, &key) {
            if let Err(e) = cache.store(key, &artifact) {
                eprintln!("warning: {e:#}");
            }
        }
        Ok((module, Origin::Compiled { functions: used }))
    }
}

/// Compiles `wasm` in this process into an artifact for `engine`, with the compiled-function
/// cache of `functions` if given.
fn precompile_in_process<A: Artifact>(
    engine: &Engine,
    limits: &Limits,
    wasm: &[u8],
    functions: Option<&ModuleCache>,
    compile: &CompileLimits,
) -> anyhow::Result<(Vec<u8>, Option<FunctionCacheUse>)> {
    let failed = |e: wasmtime::Error| anyhow!("cannot compile the {}: {}", A::WHAT, one_line(&e));
    let Some(cache) = functions else {
        return Ok((A::precompile(engine, wasm).map_err(failed)?, None));
    };
    let store = FunctionCache::open(
        cache.dir(),
        *cache.secret(),
        &cache::engine_key(engine),
        &compile.functions,
    )
    .map(std::sync::Arc::new);
    let store = match store {
        Ok(s) => s,
        Err(e) => {
            eprintln!("warning: compiled-function cache not used: {e:#}");
            return Ok((A::precompile(engine, wasm).map_err(failed)?, None));
        }
    };
    let caching = config::caching_engine(limits, store.clone())?;
    let artifact = A::precompile(&caching, wasm).map_err(failed)?;
    Ok((artifact, Some(store.finish())))
}

/// What the compiler makes: a core module or a component, compiled in one process and loaded in
/// another.
pub(crate) trait Artifact: Sized {
    /// "module" or "component", for messages.
    const WHAT: &'static str;
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self>;
    fn precompile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Vec<u8>>;
    /// # Safety
    /// `artifact` must come from this arena's own compiler (see `cache.rs`).
    unsafe fn deserialize(engine: &Engine, artifact: &[u8]) -> wasmtime::Result<Self>;
}

impl Artifact for Module {
    const WHAT: &'static str = "module";
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self> {
        Module::new(engine, wasm)
    }
    fn precompile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Vec<u8>> {
        engine.precompile_module(wasm)
    }
    unsafe fn deserialize(engine: &Engine, artifact: &[u8]) -> wasmtime::Result<Self> {
        Module::deserialize(engine, artifact)
    }
}

impl Artifact for Component {
    const WHAT: &'static str = "component";
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self> {
        Component::new(engine, wasm)
    }
    fn precompile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Vec<u8>> {
        engine.precompile_component(wasm)
    }
    unsafe fn deserialize(engine: &Engine, artifact: &[u8]) -> wasmtime::Result<Self> {
        Component::deserialize(engine, artifact)
    }
}
