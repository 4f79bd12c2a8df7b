//! Budgets for one agent and the hardened wasmtime configuration that enforces them.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use wasmtime::{
    Config, Enabled, Engine, InstanceAllocationStrategy, OperatorCost, OptLevel,
    PoolingAllocationConfig, Strategy,
};

use super::host_fuel::GROW_FUEL;

/// How often the epoch ticker bumps the engine's epoch; wall-clock deadlines are counted in ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(1);

/// What one agent may use. Fuel counts WebAssembly operators (deterministic, the fair budget);
/// the wall-clock deadline is only a backstop for time spent where fuel does not count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Fuel for one decision (also for loading: instantiation, start function and `arena_init`).
    pub fuel_per_decision: u64,
    /// Fuel for a whole game, every decision included.
    pub fuel_per_game: u64,
    /// Largest linear memory, in bytes.
    pub memory_bytes: u64,
    /// Largest table, in elements.
    pub table_elements: u32,
    /// Largest module file (`.wasm` or `.wat`, or a component), in bytes. The default, 32 MiB,
    /// holds a Python component (18.3 MB: CPython is inside) and a JavaScript one (12.1 MB).
    pub module_bytes: u64,
    /// Largest WebAssembly stack, in bytes.
    pub wasm_stack_bytes: usize,
    /// Wall-clock backstop for one decision, in milliseconds.
    pub decision_wall_ms: u64,
    /// Debug log kept per agent per game (`arena.log` and WASI stdout/stderr), in bytes.
    pub log_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            fuel_per_decision: 10_000_000,
            fuel_per_game: 500_000_000,
            memory_bytes: 32 << 20,
            table_elements: 10_000,
            module_bytes: 32 << 20,
            wasm_stack_bytes: 512 << 10,
            decision_wall_ms: 2000,
            log_bytes: 16 << 10,
        }
    }
}

impl Limits {
    /// Checks that the limits make sense together.
    pub fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(self.fuel_per_decision > 0, "fuel_per_decision must be > 0");
        anyhow::ensure!(self.fuel_per_game > 0, "fuel_per_game must be > 0");
        anyhow::ensure!(
            self.memory_bytes >= 64 << 10,
            "memory_bytes must be at least one WebAssembly page (65536)"
        );
        anyhow::ensure!(
            self.memory_bytes <= 4 << 30,
            "memory_bytes must be at most 4 GiB (32-bit memories)"
        );
        anyhow::ensure!(self.module_bytes > 0, "module_bytes must be > 0");
        anyhow::ensure!(
            (16 << 10..=super::WORKER_STACK_BYTES / 2).contains(&self.wasm_stack_bytes),
            "wasm_stack_bytes must be between 16 KiB and {} bytes",
            super::WORKER_STACK_BYTES / 2
        );
        anyhow::ensure!(self.decision_wall_ms > 0, "decision_wall_ms must be > 0");
        Ok(())
    }

    /// Epoch ticks for one decision's wall-clock backstop.
    pub(crate) fn wall_ticks(&self) -> u64 {
        let tick = EPOCH_TICK.as_millis().max(1) as u64;
        self.decision_wall_ms.div_ceil(tick).max(1)
    }
}

/// The engine configuration: Cranelift, fuel and epochs, proposals that agents do not need turned
/// off, deterministic floating point, cheap traps.
///
/// Reviewed against the hardening checklist (docs/SECURITY.md):
/// * Cranelift only: the `winch` and `pulley` cargo features are not enabled.
/// * Threads, shared memories, GC and exceptions are off because their cargo features (`threads`,
///   `gc`) are not enabled (wasmtime 48 then refuses such modules at validation; a test checks
///   it); `Config::wasm_threads` and `Config::coredump_on_trap` do not even exist without those
///   features, so there is no core dump on a trap either.
/// * Guard regions, `memory_reservation` and signal-based traps keep wasmtime's defaults (the
///   configuration its fuzzing and security analysis cover).
/// * Compilation runs in a child process with a deadline (`compile_child.rs`); this engine also
///   deserializes the child's artifacts, so it must be built by this same function there.
/// * Instances are allocated from wasmtime's pooling allocator (sized by the caller, see
///   `capacity.rs`): a game
///   starts two or more fresh instances, and reusing pre-reserved slots (with the module's
///   copy-on-write memory image still mapped) is much cheaper than mapping and unmapping a
///   4 GiB reservation per instance. The pool never refuses what the on-demand allocator would
///   accept within [`Limits`] (memories up to 4 GiB, the limiter enforcing `memory_bytes`); where
///   the pool cannot be reserved (an address-space rlimit), the engine falls back to the
///   on-demand allocator, which compiles identical code.
/// * A slot given back to the pool is reset to the module's initial contents page by page, where
///   Linux's `PAGEMAP_SCAN` lists the pages the agent wrote, instead of being handed back to the
///   kernel ([`Allocation::PoolKeepingWrittenPages`]); without it, the pool hands them back.
pub(crate) fn engine(limits: &Limits, instances: u32) -> anyhow::Result<(Engine, Allocation)> {
    for allocation in [Allocation::PoolKeepingWrittenPages, Allocation::Pool] {
        if let Ok(engine) = engine_allocating(limits, allocation, instances) {
            return Ok((engine, allocation));
        }
    }
    Ok((on_demand_engine(limits)?, Allocation::OnDemand))
}

/// The engine with the given allocation and, for the pool, `instances` slots; an error when the
/// machine does not allow it.
pub(crate) fn engine_allocating(
    limits: &Limits,
    allocation: Allocation,
    instances: u32,
) -> anyhow::Result<Engine> {
    if allocation == Allocation::OnDemand {
        return on_demand_engine(limits);
    }
    let mut c = base_config(limits);
    c.allocation_strategy(InstanceAllocationStrategy::Pooling(pool_config(
        limits, allocation, instances,
    )));
    Engine::new(&c).map_err(anyhow::Error::from)
}

/// How an engine allocates instances: what the machine allowed (see [`engine`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// From the pool; when a game ends, the pages each agent wrote are copied back from the
    /// module's image (or zeroed) and stay mapped, up to [`KEEP_RESIDENT_MEMORY_BYTES`] of memory
    /// and the whole table slot; only what is beyond is handed back to the kernel. Needs
    /// `PAGEMAP_SCAN` (Linux 6.7) to find those pages.
    ///
    /// Handing pages back (`madvise`) made every dropped instance flush the TLB of every core
    /// that runs a league worker, by an interrupt, and made every game fault the same pages in
    /// again: on a 2-core VM, wasm games ran 1.5x faster on 2 threads than on 1 instead of 2x.
    PoolKeepingWrittenPages,
    /// From the pool; when a game ends, the agents' pages are handed back to the kernel.
    Pool,
    /// A fresh mapping per instance: the pool's address space could not be reserved.
    OnDemand,
}

impl fmt::Display for Allocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Allocation::PoolKeepingWrittenPages => {
                "pooling allocator, written pages reset in place (PAGEMAP_SCAN)"
            }
            Allocation::Pool => "pooling allocator, pages handed back to the kernel",
            Allocation::OnDemand => "on-demand allocator",
        })
    }
}

/// The same engine with the on-demand allocator (the compiler child, which runs under an
/// address-space limit and never instantiates). Artifacts are interchangeable: the allocation
/// strategy is not part of wasmtime's compatibility hash.
pub(crate) fn on_demand_engine(limits: &Limits) -> anyhow::Result<Engine> {
    Engine::new(&base_config(limits)).map_err(anyhow::Error::from)
}

/// The on-demand engine compiling with the compiled-function cache `store` (the compiler of a
/// module with a language runtime inside, `compile.rs`). Its artifacts are those of
/// [`on_demand_engine`]: the cache is not part of wasmtime's compatibility hash.
pub(crate) fn caching_engine(
    limits: &Limits,
    store: std::sync::Arc<dyn wasmtime::CacheStore>,
) -> anyhow::Result<Engine> {
    let mut c = base_config(limits);
    c.enable_incremental_compilation(store)?;
    Engine::new(&c).map_err(anyhow::Error::from)
}

/// Instances a sandbox holds at once unless its maker asks for more
/// ([`super::Sandbox::for_instances`]): a game of 6 plus room for 2 threads of 2-player games and
/// more. One slot reserves 4 GiB of address space plus a guard, not memory.
pub const DEFAULT_INSTANCES: u32 = 16;

/// Tables per instance: more is refused at load (`load.rs`), and the limiter allows no more.
pub(crate) const TABLES_PER_INSTANCE: u32 = 4;

/// Core instances one component may create (its modules and the shims between them): the
/// componentize-py example has 14, componentize-js 4, a Rust `wasm32-wasip2` component 5. More
/// is refused at load. Each is a small record in the pool, not a memory.
pub const CORE_INSTANCES_PER_COMPONENT: u32 = 32;

/// Largest runtime record of one component instance with its core instances (the Python
/// example needs 390 KiB, JavaScript 204 KiB).
const COMPONENT_INSTANCE_BYTES: usize = 4 << 20;

/// Largest part of an agent's linear memory reset by copying rather than handed back to the
/// kernel. The example agents write less than 32 KiB in a game: with a 32 KiB cap, as with this
/// one, 1,600 games made 15 `madvise` calls in all, none of them per game. An agent that writes
/// more than this pays for the rest as before.
pub const KEEP_RESIDENT_MEMORY_BYTES: usize = 1 << 20;

pub(super) fn pool_config(
    limits: &Limits,
    allocation: Allocation,
    instances: u32,
) -> PoolingAllocationConfig {
    let mut p = PoolingAllocationConfig::new();
    if allocation == Allocation::PoolKeepingWrittenPages {
        let memory = usize::try_from(limits.memory_bytes).unwrap_or(usize::MAX);
        p.pagemap_scan(Enabled::Yes)
            .linear_memory_keep_resident(memory.min(KEEP_RESIDENT_MEMORY_BYTES))
            .table_keep_resident(limits.table_elements as usize * std::mem::size_of::<usize>());
    }
    // A component is several core instances (a Python agent 14, a JavaScript one 4) sharing
    // one memory: each slot of the pool holds a component or a core module.
    p.total_component_instances(instances)
        .max_core_instances_per_component(CORE_INSTANCES_PER_COMPONENT)
        .max_memories_per_component(1)
        .max_tables_per_component(TABLES_PER_INSTANCE)
        .max_component_instance_size(COMPONENT_INSTANCE_BYTES)
        .total_core_instances(instances * CORE_INSTANCES_PER_COMPONENT)
        .total_memories(instances)
        .total_tables(instances * TABLES_PER_INSTANCE)
        .max_memories_per_module(1)
        .max_tables_per_module(TABLES_PER_INSTANCE)
        // The limiter enforces `memory_bytes` (with its own fault); the pool only needs to hold
        // any 32-bit memory, so that it never refuses a module the limiter would accept.
        .max_memory_size(1 << 32)
        // Tables above `table_elements` are refused before compiling (`load.rs`).
        .table_elements(limits.table_elements as usize)
        .max_core_instance_size(4 << 20);
    p
}

/// wasmtime's fuel price of each operator, except `memory.grow` and `table.grow`: they call into
/// the host and the resource limiter, and since growth past the limits answers -1 an agent
/// can repeat them at will, so they cost [`GROW_FUEL`] (wasmtime's default price is 1).
fn operator_cost() -> OperatorCost {
    let mut cost = OperatorCost::new();
    cost.MemoryGrow = GROW_FUEL;
    cost.TableGrow = GROW_FUEL;
    cost
}

pub(super) fn base_config(limits: &Limits) -> Config {
    let mut c = Config::new();
    c.operator_cost(operator_cost());
    c.strategy(Strategy::Cranelift)
        .cranelift_opt_level(OptLevel::Speed)
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(limits.wasm_stack_bytes)
        .wasm_shared_everything_threads(false)
        .wasm_gc(false)
        .wasm_memory64(false)
        .wasm_multi_memory(false)
        .wasm_component_model(true)
        .wasm_relaxed_simd(false)
        .relaxed_simd_deterministic(true)
        .wasm_stack_switching(false)
        .wasm_custom_page_sizes(false)
        .wasm_wide_arithmetic(false)
        .cranelift_nan_canonicalization(true)
        .wasm_backtrace_max_frames(None)
        .debug_info(false)
        .cranelift_debug_verifier(false)
        .signals_based_traps(true)
        .parallel_compilation(true);
    c
}
