//! An agent's store: its data ([`HostState`]: limiter, log, WASI context and randomness), the
//! `arena` host functions core modules may import, and the making of a fresh store (and
//! instance) for one game, with the limiter and the epoch deadline set.

use arena_abi::names;
use wasmtime::{Caller, Extern, Instance, Linker, Memory, Store};
use wasmtime_wasi::p1::WasiP1Ctx;

use super::component_linker::{self, ComponentWasi};
use super::config::CORE_INSTANCES_PER_COMPONENT;
use super::faults::Limiter;
use super::host_fuel::charge;
use super::log::AgentLog;
use super::module::{Code, ModuleInner};
use super::random::RandomBytes;
use super::wasi;

/// The data of one agent's store.
pub struct HostState {
    pub(crate) limiter: Limiter,
    pub(crate) wasi: Option<WasiP1Ctx>,
    /// What `random_get` serves (WASI agents only).
    pub(crate) random: Option<RandomBytes>,
    /// WASI 0.2 (component agents only).
    pub(crate) p2: Option<ComponentWasi>,
    pub(crate) log: AgentLog,
}

/// Which host an agent's store serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guest {
    /// A core module without WASI.
    Plain,
    /// A core module importing WASI preview 1.
    Preview1,
    /// A component (WASI 0.2).
    Component,
}

impl Guest {
    pub(crate) fn of(module: &ModuleInner) -> Guest {
        match (&module.code, module.uses_wasi) {
            (Code::Component(_), _) => Guest::Component,
            (Code::Core(_), true) => Guest::Preview1,
            (Code::Core(_), false) | (Code::Snippet(_), _) => Guest::Plain,
        }
    }
}

/// The guest's exported memory, looked up from inside a host function.
pub(crate) fn guest_memory(caller: &mut Caller<'_, HostState>) -> Option<Memory> {
    caller
        .get_export(names::MEMORY)
        .and_then(Extern::into_memory)
}

/// `arena.log(ptr, len)`: appends guest bytes to the log; out-of-bounds ranges are ignored and
/// what does not fit is dropped, so it only traps when the agent cannot pay for it (the call,
/// and every byte of a range inside memory: see `host_fuel`).
pub(crate) fn add_host_functions(linker: &mut Linker<HostState>) -> anyhow::Result<()> {
    linker.func_wrap(
        names::HOST_MODULE,
        names::LOG,
        |mut caller: Caller<'_, HostState>, ptr: i32, len: i32| -> wasmtime::Result<()> {
            let Some(memory) = guest_memory(&mut caller) else {
                return charge(&mut caller, 0);
            };
            let start = ptr as u32 as usize;
            let len = len as u32 as usize;
            let inside = start
                .checked_add(len)
                .is_some_and(|end| end <= memory.data_size(&caller));
            charge(&mut caller, if inside { len as u64 } else { 0 })?;
            if inside {
                let (data, state) = memory.data_and_store_mut(&mut caller);
                state.log.append(&data[start..start + len]);
            }
            Ok(())
        },
    )?;
    // `arena.fuel_left()`: the fuel the current call has left once this call is paid for.
    // The store's fuel is the call's allowance (the smallest of the decision's cap, the fuel the
    // game lets this call use, such as a player's clock, and what is left of the game's budget)
    // less what the call spent, so this is exactly what the agent can still spend.
    linker.func_wrap(
        names::HOST_MODULE,
        names::FUEL_LEFT,
        |mut caller: Caller<'_, HostState>| -> wasmtime::Result<i64> {
            charge(&mut caller, 0)?;
            Ok(i64::try_from(caller.get_fuel()?).unwrap_or(i64::MAX))
        },
    )?;
    Ok(())
}

impl HostState {
    /// The state of one agent in one game: its limits, its log, and for a WASI agent its WASI
    /// context and randomness, derived from `seed`.
    pub(crate) fn new(limits: &super::Limits, guest: Guest, seed: u64, log: AgentLog) -> HostState {
        let (wasi, random) = match guest {
            Guest::Preview1 => {
                let (ctx, random) = wasi::context(seed, &log);
                (Some(ctx), Some(random))
            }
            Guest::Plain | Guest::Component => (None, None),
        };
        let p2 = (guest == Guest::Component).then(|| {
            let (ctx, random) = wasi::context_p2(seed, &log);
            ComponentWasi {
                ctx,
                table: wasmtime::component::ResourceTable::new(),
                random,
            }
        });
        let instances = match guest {
            Guest::Component => CORE_INSTANCES_PER_COMPONENT as usize,
            Guest::Plain | Guest::Preview1 => 1,
        };
        HostState {
            limiter: Limiter {
                memory_bytes: usize::try_from(limits.memory_bytes).unwrap_or(usize::MAX),
                table_elements: limits.table_elements as usize,
                instantiating: false,
                refused: None,
                log: log.clone(),
                instances,
                memory_now: 0,
            },
            wasi,
            random,
            p2,
            log,
        }
    }
}

/// A fresh store for one game of `module`.
pub(crate) fn new_store(module: &ModuleInner, seed: u64, log: AgentLog) -> Store<HostState> {
    store_for(
        module.engine(),
        module.limits(),
        Guest::of(module),
        seed,
        log,
    )
}

/// A fresh store for one game of a component.
pub(crate) fn component_store(
    engine: &wasmtime::Engine,
    limits: &super::Limits,
    seed: u64,
    log: AgentLog,
) -> Store<HostState> {
    store_for(engine, limits, Guest::Component, seed, log)
}

fn store_for(
    engine: &wasmtime::Engine,
    limits: &super::Limits,
    guest: Guest,
    seed: u64,
    log: AgentLog,
) -> Store<HostState> {
    let state = HostState::new(limits, guest, seed, log);
    let mut store = Store::new(engine, state);
    store.limiter(|s| &mut s.limiter);
    store.epoch_deadline_trap();
    if guest == Guest::Component {
        component_linker::charge_host_calls(&mut store);
    }
    store
}

/// Instantiates the module in `store` (its start function runs here), with the limiter refusing
/// initial sizes past the limits rather than answering -1.
pub(crate) fn instantiate(
    pre: &wasmtime::InstancePre<HostState>,
    store: &mut Store<HostState>,
) -> wasmtime::Result<Instance> {
    store.data_mut().limiter.instantiating = true;
    let instance = pre.instantiate(&mut *store);
    store.data_mut().limiter.instantiating = false;
    instance
}
