//! Starting an agent for one game: a fresh store and instance, `_initialize`, the exchange
//! buffer checked to lie inside memory, and `arena_init` with its envelope (a component: its
//! world's `init`). A fault here forfeits the game; a failure of the host is a [`HostFailure`].

use std::any::Any;

use arena_abi::names;
use wasmtime::{Instance, Memory, Store, TypedFunc};

use super::{in_guest_language, is_trap, Live, LiveAgent, LiveCore, WasmPlayer};
use crate::fault::{Fault, FaultKind};
use crate::faults::{classify_after_refusal, one_line};
use crate::host_failure::{is_agents_doing, HostFailure};
use crate::interface::{AgentInterface, Init};
use crate::log::AgentLog;
use crate::module::{Code, ModuleInner};
use crate::store::{instantiate, new_store, HostState};

impl WasmPlayer {
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
        world: &crate::component::World,
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
}

/// The start of an agent's message for a fault detail (the whole message is in its log).
fn excerpt(message: &str) -> String {
    const MAX: usize = 200;
    match message.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}...", &message[..end]),
        None => message.to_owned(),
    }
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
