//! `WasmPlayer`: one agent instance playing one game through ABI v1, with its budgets. It knows
//! the envelope, the init call and the exchange buffer, not any game: each game's adapter
//! encodes its observations and decodes its answers through [`WasmPlayer::call`] (a component:
//! calls its world's typed instance through [`WasmPlayer::call_component`]).

use std::any::Any;

use arena_abi::names;
use wasmtime::{Caller, Extern, Instance, Linker, Memory, Store, TypedFunc};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::I32Exit;

use super::component_linker::{self, ComponentWasi};
use super::config::CORE_INSTANCES_PER_COMPONENT;
use super::faults::{classify, classify_after_refusal, one_line, FuelScope, Limiter};
use super::host_failure::{is_agents_doing, HostFailure};
use super::host_fuel::charge;
use super::interface::{AgentInterface, Init};
use super::log::AgentLog;
use super::module::{AgentModule, Code, ModuleInner};
use super::random::RandomBytes;
use super::wasi;
use crate::fault::{Fault, FaultKind};

/// Largest part of the exchange buffer the host fills (observations are a few KiB at most; a
/// bigger buffer only lets more old events through).
const MAX_WRITE: usize = 1 << 20;

/// The data of one agent's store.
pub struct HostState {
    limiter: Limiter,
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
fn new_store(module: &ModuleInner, seed: u64, log: AgentLog) -> Store<HostState> {
    store_for(
        module.engine(),
        module.limits(),
        Guest::of(module),
        seed,
        log,
    )
}

/// A fresh store for one game of a component.
fn component_store(
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

/// The core module's instance-maker (the caller knows the agent is a core module).
fn core_pre(module: &ModuleInner) -> &wasmtime::InstancePre<HostState> {
    match &module.code {
        Code::Core(pre) => pre,
        Code::Component(_) | Code::Snippet(_) => {
            unreachable!("only a byte-ABI module has a core instance-maker")
        }
    }
}

/// Instantiates the module in `store` (its start function runs here), with the limiter refusing
/// initial sizes past the limits rather than answering -1.
fn instantiate(
    pre: &wasmtime::InstancePre<HostState>,
    store: &mut Store<HostState>,
) -> wasmtime::Result<Instance> {
    store.data_mut().limiter.instantiating = true;
    let instance = pre.instantiate(&mut *store);
    store.data_mut().limiter.instantiating = false;
    instance
}

/// Instantiates `module` in a fresh store (the start function runs here), runs `_initialize` if
/// it has one and calls `arena_abi_version`, on the budget of one decision. Used once at load
/// time: a module whose start function or `_initialize` fails here is refused, since it would
/// fail the same way in every game (they get the same inputs, except WASI randomness and
/// clocks, which follow the game's seed). An instantiation that fails through the host is a
/// [`HostFailure`], not a refusal.
pub(crate) fn probe_abi_version(module: &ModuleInner) -> anyhow::Result<u32> {
    super::run_with_big_stack(|| {
        let limits = module.limits();
        let mut store = new_store(module, 0, AgentLog::new(limits.log_bytes));
        store.set_fuel(limits.fuel_per_decision)?;
        store.set_epoch_deadline(limits.wall_ticks());
        let instance = instantiate(core_pre(module), &mut store).map_err(|e| {
            if !is_agents_doing(&e) {
                return anyhow::Error::new(HostFailure(format!(
                    "cannot instantiate the module: {}",
                    one_line(&e)
                )));
            }
            let f = classify(&e, "instantiation", FuelScope::Decision);
            anyhow::anyhow!("cannot instantiate the module: {}", f.detail)
        })?;
        if module.has_initialize {
            instance
                .get_typed_func::<(), ()>(&mut store, "_initialize")?
                .call(&mut store, ())
                .map_err(|e| {
                    let f = classify(&e, "_initialize", FuelScope::Decision);
                    anyhow::anyhow!("{}", f.detail)
                })?;
        }
        let version = instance
            .get_typed_func::<(), i32>(&mut store, names::ABI_VERSION)?
            .call(&mut store, ())
            .map_err(|e| {
                let f = classify(&e, names::ABI_VERSION, FuelScope::Decision);
                anyhow::anyhow!("{}", f.detail)
            })?;
        Ok(version as u32)
    })
}

/// A fresh store and instance of `module`, dropped at once (see
/// [`AgentModule::instantiate_once`]), on the budget of one decision.
pub(crate) fn instantiate_once(module: &ModuleInner) -> anyhow::Result<()> {
    let limits = module.limits();
    let mut store = new_store(module, 0, AgentLog::new(limits.log_bytes));
    store.set_fuel(limits.fuel_per_decision)?;
    store.set_epoch_deadline(limits.wall_ticks());
    match &module.code {
        Code::Core(pre) => {
            instantiate(pre, &mut store).map_err(|e| anyhow::anyhow!("{}", one_line(&e)))?;
        }
        Code::Component(world) => {
            store.data_mut().limiter.instantiating = true;
            let made = world.instantiate(&mut store);
            store.data_mut().limiter.instantiating = false;
            made.map_err(|e| anyhow::anyhow!("{}", one_line(&e)))?;
        }
        Code::Snippet(_) => anyhow::bail!("a snippet agent is instantiated by its game"),
    }
    Ok(())
}

/// Instantiates a component once at load, on the budget of one decision: one that cannot be
/// instantiated (a start function that loops, memory past the limits) is refused rather than
/// failing in every game.
pub(crate) fn probe_component(
    engine: &wasmtime::Engine,
    limits: &super::Limits,
    pre: &wasmtime::component::InstancePre<HostState>,
) -> anyhow::Result<()> {
    super::run_with_big_stack(|| {
        let mut store = component_store(engine, limits, 0, AgentLog::new(limits.log_bytes));
        store.set_fuel(limits.fuel_per_decision)?;
        store.set_epoch_deadline(limits.wall_ticks());
        store.data_mut().limiter.instantiating = true;
        let made = pre.instantiate(&mut store);
        store.data_mut().limiter.instantiating = false;
        match made {
            Ok(_) => Ok(()),
            Err(e) if !is_agents_doing(&e) => Err(anyhow::Error::new(HostFailure(format!(
                "cannot instantiate the component: {}",
                one_line(&e)
            )))),
            Err(e) => {
                let refused = store.data_mut().limiter.refused.take();
                let f = classify_after_refusal(&e, "instantiation", FuelScope::Decision, refused);
                anyhow::bail!("cannot instantiate the component: {}", f.detail)
            }
        }
    })
}

/// The parts of a live instance a decision needs.
struct Live {
    store: Store<HostState>,
    game: &'static AgentInterface,
    agent: LiveAgent,
}

enum LiveAgent {
    Core(LiveCore),
    /// The world's typed instance, which the game's calls downcast.
    Component(Box<dyn Any + Send>),
}

/// A core module's instance: its memory, exchange buffer and decision exports.
struct LiveCore {
    memory: Memory,
    buf_ptr: usize,
    buf_size: usize,
    /// The game's decision exports, in the order of [`AgentInterface::decisions`].
    decisions: Vec<TypedFunc<i32, i32>>,
}

/// One agent in one game. Created by [`AgentModule::player`]; the instance is made by
/// [`WasmPlayer::start`] (a new one at every call, so a player can also be reused for another game).
pub struct WasmPlayer {
    module: AgentModule,
    round_cap: u32,
    live: Option<Live>,
    /// Fuel used in this game, every call included.
    fuel_used: u64,
    /// Decisions answered (or failed) in this game.
    calls: u64,
    /// The most fuel one decision used in this game.
    max_call_fuel: u64,
    /// Set when the instance must not be called again (it exited, the game's fuel is gone, it
    /// failed to load): every later decision fails at once with this fault.
    dead: Option<Fault>,
    /// This game's log (shared with the store; the cursor of `take_log` is here).
    log: AgentLog,
    /// Set when the host could not set the agent up for this game (see [`HostFailure`]).
    host_failure: Option<HostFailure>,
    /// Fuel the game allows each call from now on, below the per-decision budget (a game's fuel
    /// clock): see [`WasmPlayer::set_fuel_allowance`].
    call_fuel: Option<u64>,
}

impl WasmPlayer {
    pub(crate) fn new(module: AgentModule, round_cap: u32) -> WasmPlayer {
        WasmPlayer {
            module,
            round_cap,
            live: None,
            fuel_used: 0,
            calls: 0,
            max_call_fuel: 0,
            dead: Some(Fault::new(
                FaultKind::LoadFailed,
                "the agent was asked to decide before the game started",
            )),
            log: AgentLog::new(0),
            host_failure: None,
            call_fuel: None,
        }
    }

    /// Lets the following calls (decisions, and the loading of the next game) use at most
    /// `fuel`, when that is less than the per-decision budget; `None` gives them the whole
    /// budget again. A game with a fuel clock sets it before each decision to what the player's
    /// clock holds. A call that runs out of it is a `decision_fuel` fault that says so, and
    /// `arena.fuel_left()` counts down from it.
    pub fn set_fuel_allowance(&mut self, fuel: Option<u64>) {
        self.call_fuel = fuel;
    }

    /// The host's own failure in the current game, if it had one: the agent's fault in the game
    /// (a `load_failed`) is then not the agent's doing, and the game must not be scored.
    pub fn host_failure(&self) -> Option<&HostFailure> {
        self.host_failure.as_ref()
    }

    pub fn module(&self) -> &AgentModule {
        &self.module
    }

    /// Round cap told to the agent at init.
    pub fn round_cap(&self) -> u32 {
        self.round_cap
    }

    pub fn set_round_cap(&mut self, round_cap: u32) {
        self.round_cap = round_cap;
    }

    /// Fuel used in the current game so far (loading included).
    pub fn fuel_used(&self) -> u64 {
        self.fuel_used
    }

    /// Fuel left for the current game.
    pub fn fuel_left(&self) -> u64 {
        self.limits().fuel_per_game.saturating_sub(self.fuel_used)
    }

    /// Decisions asked of the agent in the current game.
    pub fn decisions(&self) -> u64 {
        self.calls
    }

    /// The most fuel one decision used in the current game (loading aside).
    pub fn max_decision_fuel(&self) -> u64 {
        self.max_call_fuel
    }

    /// Size of the agent's linear memory now, in bytes (0 before the game starts).
    pub fn memory_bytes(&self) -> usize {
        self.live.as_ref().map_or(0, |l| match &l.agent {
            LiveAgent::Core(core) => core.memory.data_size(&l.store),
            LiveAgent::Component(_) => l.store.data().limiter.memory_now,
        })
    }

    fn limits(&self) -> &super::Limits {
        self.module.inner.limits()
    }

    /// The fuel for the next call and which budget bounds it; a `game_fuel` fault when none is left.
    fn allowance(&mut self) -> Result<(u64, FuelScope), Fault> {
        let per_decision = self.limits().fuel_per_decision;
        let left = self.fuel_left();
        if left == 0 {
            let fault = Fault::new(FaultKind::GameFuel, "no fuel left for the game");
            self.dead = Some(fault.clone());
            return Err(fault);
        }
        let allowed = self.call_fuel.filter(|&f| f < per_decision);
        match allowed {
            _ if left <= allowed.unwrap_or(per_decision) => Ok((left, FuelScope::Game)),
            Some(fuel) => Ok((fuel, FuelScope::Allowance(fuel))),
            None => Ok((per_decision, FuelScope::Decision)),
        }
    }

    /// Sets the budgets on `store` for one call.
    fn arm(store: &mut Store<HostState>, fuel: u64, ticks: u64) {
        // Cannot fail: fuel consumption is always on in the sandbox's engine.
        let _ = store.set_fuel(fuel);
        store.set_epoch_deadline(ticks);
        store.data_mut().limiter.refused = None;
    }

    /// Fuel consumed since `arm(allowance)`.
    fn account(&mut self, store: &Store<HostState>, allowance: u64) {
        let left = store.get_fuel().unwrap_or(0);
        self.fuel_used = self
            .fuel_used
            .saturating_add(allowance.saturating_sub(left));
    }

    /// Instantiates and initialises the agent; on failure returns the fault (the caller forfeits).
    fn load(
        &mut self,
        game: &'static AgentInterface,
        seat: usize,
        players: usize,
        seed: u64,
    ) -> Result<Live, Fault> {
        let inner = self.module.inner.clone();
        let ticks = inner.limits().wall_ticks();
        let (allowance, scope) = self.allowance()?;
        self.log = AgentLog::new(inner.limits().log_bytes);
        let mut store = new_store(&inner, seed, self.log.clone());
        Self::arm(&mut store, allowance, ticks);
        let init = Init {
            seat,
            players,
            seed,
            round_cap: self.round_cap,
        };
        let result = match &inner.code {
            Code::Core(pre) => Self::init_instance(pre, &inner, &mut store, game, &init).map(
                |(memory, buf_ptr, buf_size, decisions)| {
                    LiveAgent::Core(LiveCore {
                        memory,
                        buf_ptr,
                        buf_size,
                        decisions,
                    })
                },
            ),
            Code::Component(world) => {
                Self::init_component(world, &mut store, game, &init).map(LiveAgent::Component)
            }
            Code::Snippet(_) => Err(InitError::Abi(format!(
                "a snippet agent is run by its own game, not as a player of {}",
                game.title
            ))),
        };
        self.account(&store, allowance);
        match result {
            Ok(agent) => Ok(Live { store, game, agent }),
            Err(InitError::Wasm("instantiation", e)) if !is_agents_doing(&e) => {
                let failure = HostFailure(format!(
                    "cannot instantiate agent {}: {}",
                    self.module.name(),
                    one_line(&e)
                ));
                let fault = Fault::new(FaultKind::LoadFailed, failure.to_string());
                self.host_failure = Some(failure);
                Err(fault)
            }
            Err(InitError::Wasm(what, e)) => {
                let refused = store.data_mut().limiter.refused.take();
                let mut fault = classify_after_refusal(&e, what, scope, refused);
                if !is_trap(&e) {
                    fault = Fault::new(FaultKind::LoadFailed, format!("{what}: {}", one_line(&e)));
                }
                if matches!(inner.code, Code::Component(_)) {
                    in_guest_language(&mut fault, what, &self.log, 0);
                }
                Err(fault)
            }
            Err(InitError::Abi(detail)) => Err(Fault::new(FaultKind::LoadFailed, detail)),
        }
    }

    /// Instantiates a component and calls its `init`; an `err` answer refuses the game (the
    /// message goes to the agent's log).
    fn init_component(
        world: &super::component::World,
        store: &mut Store<HostState>,
        game: &AgentInterface,
        init: &Init,
    ) -> Result<Box<dyn Any + Send>, InitError> {
        store.data_mut().limiter.instantiating = true;
        let instance = world.instantiate(store);
        store.data_mut().limiter.instantiating = false;
        let instance = instance.map_err(|e| InitError::Wasm("instantiation", e))?;
        if world.game.abi_id != game.abi_id {
            return Err(InitError::Abi(format!(
                "the component is of world {}, not a {} agent",
                world.name(),
                game.title
            )));
        }
        let answer = world
            .init(&*instance, store, init)
            .map_err(|e| InitError::Wasm("init", e))?;
        match answer {
            Ok(()) => Ok(instance),
            Err(message) => {
                let log = &store.data().log;
                log.append(message.as_bytes());
                log.append(b"\n");
                Err(InitError::Abi(format!(
                    "init refused the game: {}",
                    excerpt(&message)
                )))
            }
        }
    }

    #[allow(clippy::type_complexity)]
    fn init_instance(
        pre: &wasmtime::InstancePre<HostState>,
        inner: &ModuleInner,
        store: &mut Store<HostState>,
        game: &AgentInterface,
        init: &Init,
    ) -> Result<(Memory, usize, usize, Vec<TypedFunc<i32, i32>>), InitError> {
        let wasm = |what: &'static str| move |e: wasmtime::Error| InitError::Wasm(what, e);
        let instance = instantiate(pre, store).map_err(wasm("instantiation"))?;
        let memory = instance
            .get_memory(&mut *store, names::MEMORY)
            .ok_or_else(|| InitError::Abi("the module exports no memory".into()))?;
        let typed = |store: &mut Store<HostState>, name: &'static str| {
            instance
                .get_typed_func::<i32, i32>(&mut *store, name)
                .map_err(wasm(name))
        };
        let decisions = game
            .decisions
            .iter()
            .map(|name| typed(store, name))
            .collect::<Result<Vec<_>, _>>()?;
        if inner.has_initialize {
            instance
                .get_typed_func::<(), ()>(&mut *store, "_initialize")
                .map_err(wasm("_initialize"))?
                .call(&mut *store, ())
                .map_err(wasm("_initialize"))?;
        }
        let (mut ptr, mut size) = buffer(&instance, store, memory)?;
        if inner.has_init {
            let init_fn = typed(store, names::INIT)?;
            let mut buf = [0u8; 64];
            let len = encode_init(game, init, &mut buf);
            memory
                .write(&mut *store, ptr, &buf[..len])
                .map_err(|e| InitError::Abi(format!("cannot write the init payload: {e}")))?;
            let code = init_fn
                .call(&mut *store, len as i32)
                .map_err(wasm(names::INIT))?;
            if code != 0 {
                return Err(InitError::Abi(format!(
                    "{}() returned {code} (nonzero: the agent refused to start)",
                    names::INIT
                )));
            }
            (ptr, size) = buffer(&instance, store, memory)?;
        }
        Ok((memory, ptr, size, decisions))
    }

    /// Text the agent logged since the last call (its debug output).
    pub fn take_log(&mut self) -> Option<String> {
        self.log.take()
    }

    /// Instantiates the agent for a new game of `game` (everything from an earlier game is
    /// dropped) and calls its `arena_init`. A fault here forfeits the game, whatever the policy.
    pub fn start(
        &mut self,
        game: &'static AgentInterface,
        seat: usize,
        players: usize,
        seed: u64,
    ) -> Result<(), Fault> {
        self.live = None;
        self.fuel_used = 0;
        self.calls = 0;
        self.max_call_fuel = 0;
        self.dead = None;
        self.host_failure = None;
        match self.load(game, seat, players, seed) {
            Ok(live) => {
                self.live = Some(live);
                Ok(())
            }
            Err(fault) => {
                self.dead = Some(Fault::new(
                    FaultKind::LoadFailed,
                    format!("the agent failed to load: {}", fault.detail),
                ));
                Err(fault)
            }
        }
    }

    /// One decision: `encode` writes the envelope and payload into the given buffer and returns
    /// the length written; then the game's decision export number `decision` (in the order of
    /// [`AgentInterface::decisions`]) is called on its budgets. Returns the export's return
    /// value and the exchange buffer as the agent left it, for the game to decode.
    pub fn call(
        &mut self,
        decision: usize,
        encode: impl FnOnce(&mut [u8]) -> usize,
    ) -> Result<(i32, &[u8]), Fault> {
        if let Some(fault) = &self.dead {
            return Err(fault.clone());
        }
        self.calls += 1;
        let (allowance, scope) = self.allowance()?;
        let ticks = self.limits().wall_ticks();
        let live = self.live.as_mut().expect("a live instance when not dead");
        let LiveAgent::Core(core) = &live.agent else {
            unreachable!("a component agent is called through `call_component`")
        };
        let room = core.buf_size.min(MAX_WRITE);
        // Encoded straight into the guest's memory (no copy through a host buffer): the exchange
        // buffer was checked to be inside memory at load, and memory never shrinks, so this
        // cannot fail; if it did, it would be the host's bug, not the agent's doing.
        let Some(buf) = core
            .memory
            .data_mut(&mut live.store)
            .get_mut(core.buf_ptr..core.buf_ptr + room)
        else {
            let failure = HostFailure(format!(
                "the exchange buffer of agent {} ({room} bytes at {}) is outside its memory",
                self.module.name(),
                core.buf_ptr
            ));
            let fault = Fault::new(FaultKind::LoadFailed, failure.to_string());
            self.host_failure = Some(failure);
            self.dead = Some(fault.clone());
            return Err(fault);
        };
        let len = encode(buf);
        // Borrowed, not cloned: cloning a `TypedFunc` clones its registered type (an atomic
        // reference count) on every decision.
        let func = &core.decisions[decision];
        let what = live.game.decisions[decision];
        Self::arm(&mut live.store, allowance, ticks);
        let result = func.call(&mut live.store, len as i32);
        let left = live.store.get_fuel().unwrap_or(0);
        let used = allowance.saturating_sub(left);
        self.fuel_used = self.fuel_used.saturating_add(used);
        self.max_call_fuel = self.max_call_fuel.max(used);
        match result {
            Ok(answer) => {
                let live = self.live.as_ref().expect("live");
                let LiveAgent::Core(core) = &live.agent else {
                    unreachable!("checked above")
                };
                let data = core.memory.data(&live.store);
                Ok((answer, &data[core.buf_ptr..core.buf_ptr + core.buf_size]))
            }
            Err(e) => {
                let refused = live.store.data_mut().limiter.refused.take();
                let fault = classify_after_refusal(&e, what, scope, refused);
                if fault.kind == FaultKind::GameFuel || e.downcast_ref::<I32Exit>().is_some() {
                    self.dead = Some(Fault::new(
                        fault.kind,
                        format!("{} (the agent is not called again)", fault.detail),
                    ));
                }
                Err(fault)
            }
        }
    }
}

impl WasmPlayer {
    /// One decision of a component agent: `decide` calls the export (named `what` in faults)
    /// on the instance (the world's typed instance, which the game downcasts), on the same
    /// budgets as a core module's decision. An answer the canonical ABI cannot lift is a
    /// `bad_answer` fault. After any fault the instance is not called again in this game:
    /// wasmtime refuses to enter a component instance that trapped.
    pub fn call_component<R>(
        &mut self,
        what: &'static str,
        decide: impl FnOnce(&mut Store<HostState>, &(dyn Any + Send)) -> wasmtime::Result<R>,
    ) -> Result<R, Fault> {
        if let Some(fault) = &self.dead {
            return Err(fault.clone());
        }
        self.calls += 1;
        let (allowance, scope) = self.allowance()?;
        let ticks = self.limits().wall_ticks();
        let live = self.live.as_mut().expect("a live instance when not dead");
        let LiveAgent::Component(instance) = &live.agent else {
            unreachable!("a core module is called through `call`")
        };
        Self::arm(&mut live.store, allowance, ticks);
        let log_start = self.log.len();
        let result = decide(&mut live.store, &**instance);
        let left = live.store.get_fuel().unwrap_or(0);
        let used = allowance.saturating_sub(left);
        self.fuel_used = self.fuel_used.saturating_add(used);
        self.max_call_fuel = self.max_call_fuel.max(used);
        let e = match result {
            Ok(answer) => return Ok(answer),
            Err(e) => e,
        };
        let refused = live.store.data_mut().limiter.refused.take();
        let mut fault = classify_after_refusal(&e, what, scope, refused);
        if fault.kind == FaultKind::Trap && !is_trap(&e) {
            fault = Fault::new(
                FaultKind::BadAnswer,
                format!("{what}: the answer cannot be read: {}", one_line(&e)),
            );
        }
        in_guest_language(&mut fault, what, &self.log, log_start);
        self.dead = Some(Fault::new(
            fault.kind,
            format!("{} (the component is not called again)", fault.detail),
        ));
        Err(fault)
    }
}

/// A component's trap told as its language told it: when the guest printed an error it did not
/// catch (a Python traceback, a JavaScript exception, a Rust panic) during the failed call (from
/// byte `log_start` of its log), the fault's detail is that error instead of wasmtime's
/// "`unreachable` instruction executed" (`guest_error`). Other faults keep their detail.
fn in_guest_language(fault: &mut Fault, what: &str, log: &AgentLog, log_start: usize) {
    if fault.kind != FaultKind::Trap {
        return;
    }
    if let Some(error) = super::guest_error::language_error(&log.text_since(log_start)) {
        fault.detail = format!("{what}: {error}");
    }
}

/// The start of an agent's message for a fault detail (the whole message is in its log).
fn excerpt(message: &str) -> String {
    const MAX: usize = 200;
    match message.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}...", &message[..end]),
        None => message.to_owned(),
    }
}

/// True for the errors of a call that are the agent's trap (or exit, or limit), not an answer
/// the host could not read.
fn is_trap(e: &wasmtime::Error) -> bool {
    e.downcast_ref::<wasmtime::Trap>().is_some()
        || e.downcast_ref::<super::faults::LimitExceeded>().is_some()
        || e.downcast_ref::<I32Exit>().is_some()
}

enum InitError {
    Wasm(&'static str, wasmtime::Error),
    Abi(String),
}

/// Reads and checks the exchange buffer's place: at least `MIN_BUFFER_SIZE` bytes inside memory.
fn buffer(
    instance: &Instance,
    store: &mut Store<HostState>,
    memory: Memory,
) -> Result<(usize, usize), InitError> {
    let get = |store: &mut Store<HostState>, name: &'static str| -> Result<i32, InitError> {
        instance
            .get_typed_func::<(), i32>(&mut *store, name)
            .and_then(|f| f.call(&mut *store, ()))
            .map_err(|e| InitError::Wasm(name, e))
    };
    let ptr = get(store, names::BUFFER)? as u32 as usize;
    let size_raw = get(store, names::BUFFER_SIZE)?;
    if size_raw < arena_abi::MIN_BUFFER_SIZE as i32 {
        return Err(InitError::Abi(format!(
            "{}() returned {size_raw}: the exchange buffer must be at least {} bytes",
            names::BUFFER_SIZE,
            arena_abi::MIN_BUFFER_SIZE
        )));
    }
    let size = size_raw as usize;
    let mem = memory.data_size(&*store);
    if ptr.checked_add(size).is_none_or(|end| end > mem) {
        return Err(InitError::Abi(format!(
            "the exchange buffer ({size} bytes at {ptr}) is not inside the memory ({mem} bytes)"
        )));
    }
    Ok((ptr, size))
}

/// Writes the envelope and payload of `arena_init` for a game of `game` into `buf`; returns the
/// length written.
pub fn encode_init(game: &AgentInterface, init: &Init, buf: &mut [u8]) -> usize {
    use arena_abi::{
        Decision, Envelope, InitPayload, ABI_VERSION, ENVELOPE_SIZE, INIT_PAYLOAD_SIZE,
    };
    Envelope {
        abi_version: ABI_VERSION,
        game: game.abi_id,
        decision: Decision::Init,
        seat: init.seat as u32,
        players: init.players as u32,
        turn: 0,
        round: 0,
        payload_len: INIT_PAYLOAD_SIZE as u32,
    }
    .encode(buf);
    InitPayload {
        seed: init.seed,
        round_cap: init.round_cap,
    }
    .encode(&mut buf[ENVELOPE_SIZE..ENVELOPE_SIZE + INIT_PAYLOAD_SIZE]);
    ENVELOPE_SIZE + INIT_PAYLOAD_SIZE
}
