//! The arena's sandbox: untrusted WebAssembly agents in wasmtime. It knows no game: a game tells
//! it, in an [`AgentInterface`], the id of its envelope, the decision exports of its core modules
//! and its WIT world for components ([`ComponentWorld`]), and plays its agents through
//! [`WasmPlayer::call`] with the bytes it encodes. What goes wrong in a decision comes back as a
//! [`Fault`], whatever the game.
//!
//! * [`Sandbox`]: one engine per process (Cranelift, fuel and epoch interruption with a ticker
//!   thread, proposals agents do not need turned off, NaN canonicalisation, no backtraces), the
//!   games it hosts, and the host functions agents may import: `arena.log`, `arena.fuel_left`
//!   and WASI preview 1 without any capability (components: `arena:games/host` and WASI 0.2).
//! * [`Sandbox::load`] reads a `.wasm`/`.wat` file (size-capped), checks it against ABI v1
//!   (exports and their types, the decision exports of at least one game, allowed imports,
//!   `arena_abi_version() == 1`) or a component against the games' worlds, and compiles it once
//!   into an [`AgentModule`].
//! * [`AgentModule::player`] gives a [`WasmPlayer`] for one game: a fresh store and instance made
//!   in [`WasmPlayer::start`], fuel per decision and per game (and per call, below the
//!   decision's, when a game allows less: a fuel clock, [`WasmPlayer::set_fuel_allowance`]), a
//!   wall-clock backstop, memory and table limits, a bounded log. Every failure becomes a
//!   [`Fault`]; a failure of the host itself is a [`HostFailure`], never the agent's fault.
//!
//! Guest code must run on threads with big native stacks (wasmtime's stack limit covers wasm
//! frames only; a native overflow aborts the process): use [`run_with_big_stack`], or create
//! worker threads with [`WORKER_STACK_BYTES`] of stack (the league does).
//!
//! [`Snippets`] host small modules that a game makes during play (agents that write agents): checked
//! and compiled in this process, bounded by their size and shape, cached by content hash, each run
//! in a fresh instance with the game's own imports.
//!
//! Compilation cannot be interrupted, so [`Compiler`] bounds it: shape limits checked before
//! compiling ([`ShapeLimits`]), then compilation in a child process with a deadline and an
//! address-space limit, and an HMAC-sealed cache of compiled artifacts ([`ModuleCache`]). See
//! docs/SECURITY.md.

mod abi_check;
mod cache;
mod capacity;
mod compile;
mod compile_child;
mod component;
mod component_linker;
mod config;
mod fault;
mod faults;
mod function_cache;
mod guest_error;
mod host_failure;
mod host_fuel;
mod interface;
mod load;
mod log;
mod module;
mod player;
mod probe;
mod random;
mod sandbox;
mod shape;
mod snippet_engine;
mod snippet_entries;
mod snippets;
mod store;
mod wasi;
mod wasi_calls;

pub use cache::{Lookup, ModuleCache, CACHE_DIR_ENV};
pub use compile::{CompileLimits, Compiler, Origin, DEFAULT_COMPILE_CPU_MS};
pub use compile_child::{child_main as compile_child_main, COMPILE_SUBCOMMAND};
pub use component::is_component;
pub use component_linker::HOST_INTERFACE;
pub use config::{
    Allocation, Limits, CORE_INSTANCES_PER_COMPONENT, DEFAULT_INSTANCES, EPOCH_TICK,
    KEEP_RESIDENT_MEMORY_BYTES,
};
pub use fault::{Fault, FaultKind};
pub use faults::LimitExceeded;
pub use function_cache::{FunctionCache, FunctionCacheLimits, FunctionCacheUse, FUNCTIONS_DIR};
pub use host_failure::HostFailure;
pub use host_fuel::{BYTE_FUEL, CALL_FUEL, GROW_FUEL};
pub use interface::{
    wrong_world, AgentInterface, ComponentWorld, Games, Init, JavaScriptGlue, SnippetInterface,
    WorldPre,
};
pub use log::AgentLog;
pub use module::{AgentModule, Entry, DEFAULT_ROUND_CAP};
pub use player::start::encode_init;
pub use player::WasmPlayer;
pub use sandbox::Sandbox;
pub use shape::{check_shape, Shape, ShapeLimits};
pub use snippet_engine::{snippet_engine, SnippetCompiler};
pub use snippets::{
    charge as charge_snippet, digest, Digest, Prepared, SnippetData, SnippetFault, SnippetLimits,
    SnippetOutcome, SnippetStats, Snippets,
};
pub use store::HostState;
pub use wasi::{MAX_RANDOM_BYTES, WASI_MODULE};
pub use wasi_calls::{WasiFunction, WASI_FUNCTIONS};

/// Lower-case hex SHA-256 of `bytes` (of a module: its identity in records and caches).
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(ring::digest::digest(&ring::digest::SHA256, bytes))
}

/// Native stack for threads that run guest code.
pub const WORKER_STACK_BYTES: usize = 16 << 20;

/// Runs `f` on a fresh thread with [`WORKER_STACK_BYTES`] of stack and returns its result
/// (a panic in `f` is resumed in the caller).
pub fn run_with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("arena-guest".into())
            .stack_size(WORKER_STACK_BYTES)
            .spawn_scoped(scope, f)
            .expect("cannot spawn a thread for guest code");
        match handle.join() {
            Ok(v) => v,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

#[cfg(test)]
mod fuel_allowance_tests;
#[cfg(test)]
mod function_cache_tests;
#[cfg(test)]
mod game_for_tests;
#[cfg(test)]
mod hardening_tests;
#[cfg(test)]
mod host_failure_tests;
#[cfg(test)]
mod host_fuel_tests;
#[cfg(test)]
mod snippets_tests;
