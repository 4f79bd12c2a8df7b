//! Snippets: small modules made during play, each run once in a fresh instance.
//!
//! Some games create agents while they are played (agents that write modules into a shared
//! board, each run from nothing but its bytes). Such a
//! module cannot be compiled ahead of time in a child process as agents are ([`super::Compiler`]):
//! compilation is on the game's hot path. So a snippet is bounded by its size instead:
//!
//! 1. it is at most [`SnippetLimits::max_bytes`] long, and its shape is within
//!    [`SnippetLimits::shape`] (functions, locals, body sizes: what makes compilation slow),
//!    checked in one pass before any compiler sees it;
//! 2. it is validated and compiled in this process, once per content: compiled modules are kept
//!    by SHA-256 of their bytes (copies of one agent share one), and so are the refusals;
//! 3. each run is a fresh store and instance (nothing carries over from one run to the next),
//!    with a fuel budget, a memory and table cap, a wall-clock backstop, no WASI, and only the
//!    host functions the game adds to the [`Linker`]; the store's data holds the game's state
//!    for the run ([`SnippetData::state`]), which those functions read and change.
//!
//! Every failure is a [`SnippetFault`]: the game decides what it means (for instance that the module
//! is removed from play). The host's own failures (an instance pool exhausted) are a
//! [`HostFailure`]'s, never the snippet's. Guest code must run on a thread with a big native stack
//! ([`super::run_with_big_stack`]).
//!
//! Host functions must charge fuel for their work like every host function of the arena
//! ([`charge`]: docs/SECURITY.md, "Fuel of host calls").

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use wasmtime::{
    Caller, Engine, InstancePre, Linker, Module, ResourceLimiter, Store, Trap, WasmResults,
};

use super::config::EPOCH_TICK;
use super::faults::{one_line, LimitExceeded};
use super::host_failure::{is_agents_doing, HostFailure};
use super::shape::{check_shape, ShapeLimits};

/// SHA-256 of a snippet's bytes.
pub type Digest = [u8; 32];

/// SHA-256 of `bytes`.
pub fn digest(bytes: &[u8]) -> Digest {
    let d = ring::digest::digest(&ring::digest::SHA256, bytes);
    let mut out = [0u8; 32];
    out.copy_from_slice(d.as_ref());
    out
}

/// What one snippet may be and use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnippetLimits {
    /// Largest module, in bytes.
    pub max_bytes: usize,
    /// The shape a module may have.
    pub shape: ShapeLimits,
    /// Fuel for one run (instantiation, start function and the call).
    pub fuel: u64,
    /// Largest linear memory, in bytes.
    pub memory_bytes: usize,
    /// Largest table, in elements.
    pub table_elements: usize,
    /// Wall-clock backstop for one run, in milliseconds.
    pub wall_ms: u64,
    /// Compiled modules (and refusals) kept, the least recently used dropped first.
    pub cache_entries: usize,
}

impl SnippetLimits {
    /// The shape limits for snippets: what a small module needs, and little room for the shapes
    /// that make compilation slow (docs/PERFORMANCE.md, "Snippets", has the measurements).
    pub fn snippet_shape() -> ShapeLimits {
        ShapeLimits {
            functions: 64,
            locals_per_function: 64,
            function_body_bytes: 16 << 10,
            code_bytes: 64 << 10,
            types: 64,
            imports: 64,
            exports: 64,
            globals: 64,
            data_segments: 64,
            element_segments: 16,
        }
    }
}

/// Why a snippet could not run, or stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnippetFault {
    /// Larger than [`SnippetLimits::max_bytes`].
    TooBig { bytes: usize, max: usize },
    /// Not a valid module, or beyond the shape limits.
    Invalid(String),
    /// It imports what the game's linker does not define (or with another type).
    BadImport(String),
    /// No export of the entry's name and type.
    NoEntry(String),
    /// Its memory or a table is larger than the caps.
    Memory(String),
    /// It trapped; the trap's message.
    Trap(String),
    /// It ran out of fuel.
    Fuel,
    /// It exhausted the WebAssembly stack.
    Stack,
    /// It ran past the wall-clock backstop.
    Timeout,
    /// A host function of the game failed the call with an error of its own (the game knows
    /// its type: `downcast_ref` on [`SnippetOutcome::raised`]).
    Raised(String),
    /// The host failed, not the snippet: the game must not go on as if the snippet had failed.
    Host(HostFailure),
}

impl fmt::Display for SnippetFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnippetFault::TooBig { bytes, max } => {
                write!(f, "the module is {bytes} bytes, more than {max}")
            }
            SnippetFault::Invalid(d) => write!(f, "invalid module: {d}"),
            SnippetFault::BadImport(d) => write!(f, "import not provided: {d}"),
            SnippetFault::NoEntry(d) => write!(f, "no entry: {d}"),
            SnippetFault::Memory(d) => write!(f, "memory: {d}"),
            SnippetFault::Trap(d) => write!(f, "trap: {d}"),
            SnippetFault::Fuel => f.write_str("out of fuel"),
            SnippetFault::Stack => f.write_str("stack exhausted"),
            SnippetFault::Timeout => f.write_str("ran past the wall-clock backstop"),
            SnippetFault::Raised(d) => write!(f, "{d}"),
            SnippetFault::Host(h) => write!(f, "{h}"),
        }
    }
}

/// The data of a snippet's store: the caps, and the game's state for this run.
pub struct SnippetData<T> {
    limiter: SnippetLimiter,
    /// The game's state for the run: what its host functions read and change.
    pub state: T,
}

/// Refuses memories and tables past the caps: at instantiation with an error (the module's own
/// sizes are too big), afterwards by answering -1 to the `grow`.
struct SnippetLimiter {
    memory_bytes: usize,
    table_elements: usize,
    instantiating: bool,
}

impl SnippetLimiter {
    fn allow(&self, what: &'static str, desired: usize, limit: usize) -> wasmtime::Result<bool> {
        if desired <= limit {
            Ok(true)
        } else if self.instantiating {
            Err(wasmtime::Error::new(LimitExceeded {
                what,
                desired,
                limit,
            }))
        } else {
            Ok(false)
        }
    }
}

impl ResourceLimiter for SnippetLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.allow("memory", desired, self.memory_bytes)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.allow("table", desired, self.table_elements)
    }

    fn instances(&self) -> usize {
        1
    }

    fn tables(&self) -> usize {
        super::config::TABLES_PER_INSTANCE as usize
    }

    fn memories(&self) -> usize {
        1
    }
}

/// A compiled and linked snippet (cheap to clone), or why it cannot run.
pub type Prepared<T> = Result<InstancePre<SnippetData<T>>, SnippetFault>;

/// What one run gave.
pub struct SnippetOutcome<T, R> {
    /// The game's state as the run left it.
    pub state: T,
    pub result: Result<R, SnippetFault>,
    /// Fuel used (instantiation included).
    pub fuel_used: u64,
    /// The error a host function failed the call with, when `result` is [`SnippetFault::Raised`].
    pub raised: Option<wasmtime::Error>,
}

/// Counters since the [`Snippets`] was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnippetStats {
    /// Modules compiled (or refused while compiling).
    pub compiled: u64,
    /// Lookups answered from the cache.
    pub hits: u64,
    /// Runs.
    pub runs: u64,
}

struct Cached<T: 'static> {
    prepared: Prepared<T>,
    last_used: u64,
}

/// Compiles, caches and runs snippets whose store data is `SnippetData<T>`; see the module
/// documentation. Shared by the threads of a league (`Sync` when `T` is `Send`).
pub struct Snippets<T: 'static> {
    engine: Engine,
    linker: Linker<SnippetData<T>>,
    limits: SnippetLimits,
    cache: Mutex<HashMap<Digest, Cached<T>>>,
    clock: AtomicU64,
    compiled: AtomicU64,
    hits: AtomicU64,
    runs: AtomicU64,
}

impl<T: Send + 'static> Snippets<T> {
    /// Snippets compiled for `engine` (fuel and epoch interruption must be on, as in the
    /// sandbox's engine), whose imports are what `imports` adds to the linker.
    pub fn new(
        engine: &Engine,
        limits: SnippetLimits,
        imports: impl FnOnce(&mut Linker<SnippetData<T>>) -> anyhow::Result<()>,
    ) -> anyhow::Result<Snippets<T>> {
        let mut linker = Linker::new(engine);
        imports(&mut linker)?;
        Ok(Snippets {
            engine: engine.clone(),
            linker,
            limits,
            cache: Mutex::new(HashMap::new()),
            clock: AtomicU64::new(0),
            compiled: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            runs: AtomicU64::new(0),
        })
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn limits(&self) -> &SnippetLimits {
        &self.limits
    }

    pub fn stats(&self) -> SnippetStats {
        SnippetStats {
            compiled: self.compiled.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
            runs: self.runs.load(Ordering::Relaxed),
        }
    }

    /// The compiled snippet of `bytes` (whose SHA-256 is `digest`), from the cache or compiled
    /// now; or why it cannot run (also kept).
    pub fn prepare(&self, digest: &Digest, bytes: &[u8]) -> Prepared<T> {
        let now = self.clock.fetch_add(1, Ordering::Relaxed);
        if let Some(hit) = self.lock().get_mut(digest) {
            hit.last_used = now;
            self.hits.fetch_add(1, Ordering::Relaxed);
            return hit.prepared.clone();
        }
        // Compiled without holding the lock: two threads may compile the same module at once,
        // which only costs time.
        let prepared = self.compile(bytes);
        self.compiled.fetch_add(1, Ordering::Relaxed);
        if matches!(prepared, Err(SnippetFault::Host(_))) {
            return prepared;
        }
        let mut cache = self.lock();
        if cache.len() >= self.limits.cache_entries.max(1) {
            if let Some(oldest) = cache
                .iter()
                .min_by_key(|(_, c)| c.last_used)
                .map(|(k, _)| *k)
            {
                cache.remove(&oldest);
            }
        }
        cache.insert(
            *digest,
            Cached {
                prepared: prepared.clone(),
                last_used: now,
            },
        );
        prepared
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Digest, Cached<T>>> {
        // A panic while the lock was held leaves nothing half-done in a map of finished entries.
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Size, shape, validation and compilation, then linking against the game's imports.
    fn compile(&self, bytes: &[u8]) -> Prepared<T> {
        if bytes.len() > self.limits.max_bytes {
            return Err(SnippetFault::TooBig {
                bytes: bytes.len(),
                max: self.limits.max_bytes,
            });
        }
        check_shape(bytes, &self.limits.shape)
            .map_err(|e| SnippetFault::Invalid(format!("{e:#}")))?;
        let module =
            Module::new(&self.engine, bytes).map_err(|e| SnippetFault::Invalid(one_line(&e)))?;
        self.linker
            .instantiate_pre(&module)
            .map_err(|e| SnippetFault::BadImport(one_line(&e)))
    }

    /// Runs `entry` (an export taking nothing and returning `R`) of a fresh instance of
    /// `prepared`, with `state` as the game's state; returns the state as the run left it.
    pub fn run<R: WasmResults>(
        &self,
        prepared: &InstancePre<SnippetData<T>>,
        entry: &str,
        state: T,
    ) -> SnippetOutcome<T, R> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let data = SnippetData {
            limiter: SnippetLimiter {
                memory_bytes: self.limits.memory_bytes,
                table_elements: self.limits.table_elements,
                instantiating: true,
            },
            state,
        };
        let mut store = Store::new(&self.engine, data);
        store.limiter(|d| &mut d.limiter);
        // Cannot fail: fuel is on in the engine.
        let _ = store.set_fuel(self.limits.fuel);
        store.epoch_deadline_trap();
        let tick = EPOCH_TICK.as_millis().max(1) as u64;
        store.set_epoch_deadline(self.limits.wall_ms.div_ceil(tick).max(1));
        let mut raised = None;
        let result = match prepared.instantiate(&mut store) {
            Err(e) if !is_agents_doing(&e) => Err(SnippetFault::Host(HostFailure(format!(
                "cannot instantiate a snippet: {}",
                one_line(&e)
            )))),
            Err(e) => Err(classify(e, &mut raised)),
            Ok(instance) => {
                store.data_mut().limiter.instantiating = false;
                match instance.get_typed_func::<(), R>(&mut store, entry) {
                    Err(e) => Err(SnippetFault::NoEntry(one_line(&e))),
                    Ok(f) => f.call(&mut store, ()).map_err(|e| classify(e, &mut raised)),
                }
            }
        };
        let fuel_used = self
            .limits
            .fuel
            .saturating_sub(store.get_fuel().unwrap_or(0));
        SnippetOutcome {
            state: store.into_data().state,
            result,
            fuel_used,
            raised,
        }
    }
}

/// The fault of a failed instantiation or call; an error of a host function is kept in `raised`.
fn classify(e: wasmtime::Error, raised: &mut Option<wasmtime::Error>) -> SnippetFault {
    if let Some(trap) = e.downcast_ref::<Trap>() {
        return match trap {
            Trap::OutOfFuel => SnippetFault::Fuel,
            Trap::Interrupt => SnippetFault::Timeout,
            Trap::StackOverflow => SnippetFault::Stack,
            other => {
                let text = other.to_string();
                let text = text.strip_prefix("wasm trap: ").unwrap_or(&text);
                SnippetFault::Trap(text.to_owned())
            }
        };
    }
    if let Some(limit) = e.downcast_ref::<LimitExceeded>() {
        return SnippetFault::Memory(limit.to_string());
    }
    let text = one_line(&e);
    *raised = Some(e);
    SnippetFault::Raised(text)
}

/// What a host function of a snippet charges for its work: [`super::CALL_FUEL`] per call plus
/// [`super::BYTE_FUEL`] per byte it moves, like every host function of the arena.
pub fn charge<T>(caller: &mut Caller<'_, SnippetData<T>>, bytes: u64) -> wasmtime::Result<()> {
    super::host_fuel::charge(caller, bytes)
}
