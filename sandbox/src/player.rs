//! `WasmPlayer`: one agent instance playing one game through ABI v1, with its budgets. It knows
//! the envelope, the init call and the exchange buffer, not any game: each game's adapter
//! encodes its observations and decodes its answers through [`WasmPlayer::call`] (a component:
//! calls its world's typed instance through [`WasmPlayer::call_component`]). Making the instance
//! for a game is `player/start.rs`; the store it lives in, `store.rs`.

use std::any::Any;

use wasmtime::{Memory, Store, TypedFunc};
use wasmtime_wasi::I32Exit;

use super::faults::{classify_after_refusal, one_line, FuelScope};
use super::host_failure::HostFailure;
use super::interface::AgentInterface;
use super::log::AgentLog;
use super::module::AgentModule;
use super::store::HostState;
use crate::fault::{Fault, FaultKind};

pub(crate) mod start;

/// Largest part of the exchange buffer the host fills (observations are a few KiB at most; a
/// bigger buffer only lets more old events through).
const MAX_WRITE: usize = 1 << 20;

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

    /// What every call starts with: an agent that faulted is not called again; the call is
    /// counted, and given its fuel (and which budget bounds it) and its wall-clock ticks.
    fn begin_call(&mut self) -> Result<(u64, FuelScope, u64), Fault> {
        if let Some(fault) = &self.dead {
            return Err(fault.clone());
        }
        self.calls += 1;
        let (allowance, scope) = self.allowance()?;
        Ok((allowance, scope, self.limits().wall_ticks()))
    }

    /// Fuel consumed since `arm(allowance)`.
    fn account(&mut self, store: &Store<HostState>, allowance: u64) {
        let left = store.get_fuel().unwrap_or(0);
        self.fuel_used = self
            .fuel_used
            .saturating_add(allowance.saturating_sub(left));
    }

    /// Text the agent logged since the last call (its debug output).
    pub fn take_log(&mut self) -> Option<String> {
        self.log.take()
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
        let (allowance, scope, ticks) = self.begin_call()?;
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
        let (allowance, scope, ticks) = self.begin_call()?;
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

/// True for the errors of a call that are the agent's trap (or exit, or limit), not an answer
/// the host could not read.
fn is_trap(e: &wasmtime::Error) -> bool {
    e.downcast_ref::<wasmtime::Trap>().is_some()
        || e.downcast_ref::<crate::faults::LimitExceeded>().is_some()
        || e.downcast_ref::<I32Exit>().is_some()
}
