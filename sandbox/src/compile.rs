//! Compiling agent modules with bounded time and memory.
//!
//! wasmtime's compiler cannot be interrupted, and a hostile module can make it run for seconds
//! or minutes and use a lot of memory. So, in this order:
//!
//! 1. the module's shape is checked against [`ShapeLimits`] (one linear pass, before compiling);
//! 2. the compiled artifact is looked up in the [`ModuleCache`] (HMAC-checked);
//! 3. otherwise it is compiled in a child process (the `arena` binary itself, run with the hidden
//!    subcommand [`COMPILE_SUBCOMMAND`]) under an address-space rlimit and a CPU-time rlimit (the
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
//! Without a compiler executable (unit tests, library users) step 3 runs in this process.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use serde::{Deserialize, Serialize};
use wasmtime::component::Component;
use wasmtime::{Engine, Module};

use super::cache::{self, Lookup, ModuleCache};
use super::config::{self, Limits};
use super::faults::one_line;
use super::function_cache::{FunctionCache, FunctionCacheLimits, FunctionCacheUse};
use super::host_failure::HostFailure;
use super::shape::{check_shape, ShapeLimits};

/// The hidden subcommand that makes `arena` a compiler child: `arena __compile JSON` reads a
/// module on stdin and writes the serialized artifact on stdout.
pub const COMPILE_SUBCOMMAND: &str = "__compile";

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
            Some(exe) => self.compile_in_child(exe, limits, wasm, A::WHAT, functions)?,
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

    /// Compiles `wasm` (a `what`: "module" or "component", for messages) in a child process,
    /// with the compiled-function cache of `functions` if given; and what the child did with it.
    fn compile_in_child(
        &self,
        exe: &std::path::Path,
        limits: &Limits,
        wasm: &[u8],
        what: &str,
        functions: Option<&ModuleCache>,
    ) -> anyhow::Result<(Vec<u8>, Option<FunctionCacheUse>)> {
        let request = ChildRequest {
            limits: limits.clone(),
            compile: self.limits.clone(),
            parent: Some(std::process::id()),
            functions: functions.map(|c| c.dir().to_path_buf()),
        };
        let secret = functions.map(|c| *c.secret());
        let mut child = Command::new(exe)
            // glibc gives each compiler thread that allocates concurrently its own malloc arena,
            // reserving 64 MiB of address space each: under the child's RLIMIT_AS whether an
            // ordinary module compiles would then depend on thread timing. One arena makes the
            // address space the compile uses the same from run to run.
            .env("MALLOC_ARENA_MAX", "1")
            .arg(COMPILE_SUBCOMMAND)
            .arg(serde_json::to_string(&request)?)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                HostFailure(format!(
                    "cannot start the compiler process {}: {e}",
                    exe.display()
                ))
            })?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let cap = self.limits.artifact_bytes;
        let deadline = Instant::now() + Duration::from_millis(self.limits.time_ms);
        let (status, artifact, errors) = std::thread::scope(|s| {
            s.spawn(move || {
                if let Some(secret) = secret {
                    let _ = stdin.write_all(&secret);
                }
                let _ = stdin.write_all(wasm);
            });
            let out = s.spawn(move || {
                let mut buf = Vec::new();
                let _ = (&mut stdout).take(cap + 1).read_to_end(&mut buf);
                buf
            });
            let err = s.spawn(move || {
                let mut buf = Vec::new();
                let _ = (&mut stderr).take(64 << 10).read_to_end(&mut buf);
                buf
            });
            let status = loop {
                match child.try_wait() {
                    Ok(Some(status)) => break Ok(status),
                    Ok(None) if Instant::now() >= deadline => {
                        let _ = child.kill();
                        let _ = child.wait();
                        break Err(());
                    }
                    Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                    Err(_) => {
                        let _ = child.kill();
                        let _ = child.wait();
                        break Err(());
                    }
                }
            };
            (
                status,
                out.join().unwrap_or_default(),
                err.join().unwrap_or_default(),
            )
        });
        let Ok(status) = status else {
            bail!(
                "compiling the {what} took longer than {} s, the arena's limit; the {what} is \
                 refused",
                self.limits.time_ms as f64 / 1000.0
            );
        };
        #[cfg(unix)]
        if std::os::unix::process::ExitStatusExt::signal(&status) == Some(libc::SIGXCPU) {
            bail!(
                "compiling the {what} took more than {} s of CPU time, the arena's limit; the \
                 {what} is refused",
                cpu_seconds(&self.limits)
            );
        }
        let errors = String::from_utf8_lossy(&errors);
        let errors = errors.trim();
        if !status.success() {
            #[cfg(unix)]
            if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
                // The arena kills the child only at the deadline (above), and its own limits
                // end it with other signals (SIGXCPU, SIGABRT, SIGSEGV): SIGKILL came from
                // outside, most likely the out-of-memory killer. Not the module's doing.
                if signal == libc::SIGKILL {
                    return Err(HostFailure(format!(
                        "the compiler process was killed (signal {signal}) from outside the \
                         arena, most likely by the out-of-memory killer; give the arena more \
                         memory and try again{}{}",
                        if errors.is_empty() { "" } else { ": " },
                        errors
                    ))
                    .into());
                }
                bail!(
                    "the compiler process was stopped by signal {signal} (limits: {} MiB of \
                     address space, {} s of CPU time){}{}",
                    self.limits.memory_bytes >> 20,
                    cpu_seconds(&self.limits),
                    if errors.is_empty() { "" } else { ": " },
                    errors
                );
            }
            if errors.is_empty() {
                bail!("the compiler process failed ({status})");
            }
            bail!("{errors}");
        }
        if artifact.len() as u64 > cap {
            bail!("the compiled {what} is larger than the arena's limit of {cap} bytes");
        }
        // On success the child's last line on stderr says what the function cache gave.
        let used = functions.and_then(|_| {
            errors
                .lines()
                .last()
                .and_then(|l| l.strip_prefix(FUNCTIONS_LINE))
                .and_then(|l| serde_json::from_str::<ChildFunctions>(l).ok())
                .map(|f| FunctionCacheUse {
                    hits: f.hits,
                    compiled: f.compiled,
                    stored: f.stored,
                })
        });
        Ok((artifact, used))
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

#[derive(Serialize, Deserialize)]
struct ChildRequest {
    limits: Limits,
    compile: CompileLimits,
    /// The parent's process id: the child ends at once if it is no longer its parent (the
    /// parent died before the child asked to die with it).
    #[serde(default)]
    parent: Option<u32>,
    /// The module cache's folder, whose compiled-function cache the child uses; its secret comes
    /// first on stdin.
    #[serde(default)]
    functions: Option<PathBuf>,
}

/// The CPU time of the compile deadline in whole seconds (the rlimit's unit), at least 1.
fn cpu_seconds(c: &CompileLimits) -> u64 {
    c.cpu_ms.div_ceil(1000).max(1)
}

/// The start of the child's last line on stderr when it used the compiled-function cache.
const FUNCTIONS_LINE: &str = "compiled-function cache: ";

#[derive(Serialize, Deserialize)]
struct ChildFunctions {
    hits: usize,
    compiled: usize,
    stored: bool,
}

/// The compiler child: `arena __compile JSON`. Limits itself, reads the module on stdin, writes
/// the artifact on stdout. Returns the exit status.
pub fn child_main(args: &[String]) -> i32 {
    match child(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e:#}");
            1
        }
    }
}

fn child(args: &[String]) -> anyhow::Result<()> {
    let [json] = args else {
        bail!("usage: arena {COMPILE_SUBCOMMAND} REQUEST_JSON < module.wasm > artifact");
    };
    let req: ChildRequest = serde_json::from_str(json).context("bad compile request")?;
    die_with_parent(req.parent);
    limit_self(&req.compile);
    let mut stdin = std::io::stdin().lock();
    let mut secret = [0u8; 32];
    if req.functions.is_some() {
        stdin
            .read_exact(&mut secret)
            .context("cannot read the cache's secret")?;
    }
    let mut wasm = Vec::new();
    stdin
        .take(req.limits.module_bytes + 1)
        .read_to_end(&mut wasm)
        .context("cannot read the module")?;
    if wasm.len() as u64 > req.limits.module_bytes {
        bail!("the module is larger than the limit");
    }
    check_shape(&wasm, &req.compile.shape)?;
    let mut engine = config::on_demand_engine(&req.limits)?;
    let store = req.functions.as_deref().and_then(|dir| {
        match FunctionCache::open(
            dir,
            secret,
            &cache::engine_key(&engine),
            &req.compile.functions,
        ) {
            Ok(s) => Some(std::sync::Arc::new(s)),
            Err(e) => {
                eprintln!("warning: compiled-function cache not used: {e:#}");
                None
            }
        }
    });
    if let Some(store) = &store {
        engine = config::caching_engine(&req.limits, store.clone())?;
    }
    let artifact = if super::component::is_component(&wasm) {
        engine.precompile_component(&wasm)
    } else {
        engine.precompile_module(&wasm)
    }
    .map_err(|e| anyhow!("cannot compile the module: {}", one_line(&e)))?;
    let mut out = std::io::stdout().lock();
    out.write_all(&artifact)?;
    out.flush()?;
    drop(out);
    if let Some(store) = store {
        let used = store.finish();
        let line = serde_json::to_string(&ChildFunctions {
            hits: used.hits,
            compiled: used.compiled,
            stored: used.stored,
        })?;
        eprintln!("{FUNCTIONS_LINE}{line}");
    }
    Ok(())
}

/// Asks the kernel to kill this child when the thread that started it ends (the parent waits for
/// it on that thread: so when the parent process dies, however it is stopped), and ends at once
/// if the parent is already gone.
#[cfg(target_os = "linux")]
fn die_with_parent(parent: Option<u32>) {
    use rustix::process::{set_parent_process_death_signal, Signal};
    if set_parent_process_death_signal(Some(Signal::KILL)).is_err() {
        return;
    }
    if parent.is_some_and(|p| p != std::os::unix::process::parent_id()) {
        std::process::exit(1);
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_parent: Option<u32>) {}

/// Address space, CPU time and core dumps of the compiler child.
#[cfg(unix)]
fn limit_self(c: &CompileLimits) {
    let set = |resource, soft: u64, hard: u64| {
        let lim = libc::rlimit {
            rlim_cur: soft as libc::rlim_t,
            rlim_max: hard as libc::rlim_t,
        };
        // SAFETY: setrlimit reads a valid rlimit struct; failure leaves the old limit.
        unsafe { libc::setrlimit(resource, &lim) };
    };
    set(libc::RLIMIT_AS, c.memory_bytes, c.memory_bytes);
    // CPU time is summed over the compiler's threads. SIGXCPU at the soft limit ends the child
    // (the parent names it the compile deadline); SIGKILL a second later, should it not.
    let cpu = cpu_seconds(c);
    set(libc::RLIMIT_CPU, cpu, cpu + 1);
    set(libc::RLIMIT_CORE, 0, 0);
}

#[cfg(not(unix))]
fn limit_self(_c: &CompileLimits) {}

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
