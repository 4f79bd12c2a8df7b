//! The sandbox: one wasmtime engine with the arena's hardened configuration, its epoch ticker,
//! the linkers of the host functions agents may import, and how many instances it holds. Loading
//! agents into it is `load.rs`; what a loaded agent is, `module.rs`.

use std::fmt;
use std::sync::Arc;

use anyhow::Context;
use wasmtime::{Engine, Linker};

use super::capacity;
use super::compile::Compiler;
use super::component;
use super::component_linker;
use super::config::{self, Allocation, Limits, DEFAULT_INSTANCES, EPOCH_TICK};
use super::interface::Games;
use super::store::{self, HostState};
use super::wasi;

/// One wasmtime engine with the arena's hardened configuration, its epoch ticker and the host
/// functions agents may import. Create one per process and clone it (clones share everything).
#[derive(Clone)]
pub struct Sandbox {
    pub(crate) inner: Arc<SandboxInner>,
}

pub(crate) struct SandboxInner {
    pub(crate) engine: Engine,
    pub(crate) allocation: Allocation,
    /// Agent instances the sandbox can hold at once.
    pub(crate) instances: u32,
    pub(crate) limits: Limits,
    pub(crate) compiler: Compiler,
    /// The games whose agents the sandbox hosts.
    pub(crate) games: Games,
    /// `arena.log` only.
    pub(crate) plain: Linker<HostState>,
    /// `arena.log` and WASI preview 1.
    pub(crate) with_wasi: Linker<HostState>,
    /// Components: `arena:games/host` and WASI 0.2.
    pub(crate) components: wasmtime::component::Linker<HostState>,
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.inner.limits)
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    /// A sandbox for the agents of `games` whose modules are compiled by
    /// [`Compiler::process_default`] (for the `arena` command: in a limited child process, with
    /// the module cache), holding up to [`DEFAULT_INSTANCES`] agent instances at once.
    pub fn new(games: Games, limits: Limits) -> anyhow::Result<Sandbox> {
        Sandbox::for_instances(games, limits, DEFAULT_INSTANCES)
    }

    /// A sandbox that holds `instances` agent instances at once (a league: threads × players per
    /// game), or as many as the address space allows ([`Sandbox::instances`]); fails when not
    /// one fits.
    pub fn for_instances(games: Games, limits: Limits, instances: u32) -> anyhow::Result<Sandbox> {
        Sandbox::build(games, limits, Compiler::process_default(), instances)
    }

    /// A sandbox whose modules are compiled by `compiler`.
    pub fn with_compiler(
        games: Games,
        limits: Limits,
        compiler: Compiler,
    ) -> anyhow::Result<Sandbox> {
        Sandbox::build(games, limits, compiler, DEFAULT_INSTANCES)
    }

    fn build(
        games: Games,
        limits: Limits,
        compiler: Compiler,
        wanted: u32,
    ) -> anyhow::Result<Sandbox> {
        limits.validate().context("invalid sandbox limits")?;
        let instances = capacity::instances_that_fit(wanted.max(1));
        if instances == 0 {
            capacity::too_few(0, 1)?;
        }
        let (engine, allocation) =
            config::engine(&limits, instances).context("cannot create the wasmtime engine")?;
        Sandbox::with_engine(games, limits, compiler, engine, allocation, instances)
    }

    /// A sandbox that allocates its `instances` slots as `allocation` says, whatever the machine
    /// would pick (tests of each way of allocating, here and in the games).
    pub fn allocating_instances(
        games: Games,
        limits: Limits,
        allocation: Allocation,
        instances: u32,
    ) -> anyhow::Result<Sandbox> {
        let engine = config::engine_allocating(&limits, allocation, instances)?;
        Sandbox::with_engine(
            games,
            limits,
            Compiler::process_default(),
            engine,
            allocation,
            instances,
        )
    }

    fn with_engine(
        games: Games,
        limits: Limits,
        compiler: Compiler,
        engine: Engine,
        allocation: Allocation,
        instances: u32,
    ) -> anyhow::Result<Sandbox> {
        let mut plain = Linker::new(&engine);
        store::add_host_functions(&mut plain)?;
        let mut with_wasi = Linker::new(&engine);
        store::add_host_functions(&mut with_wasi)?;
        wasi::add_to_linker(&mut with_wasi)?;
        let mut components = component_linker::linker(&engine)?;
        component::add_type_interfaces(&mut components, games)?;
        start_ticker(&engine)?;
        Ok(Sandbox {
            inner: Arc::new(SandboxInner {
                engine,
                allocation,
                instances,
                limits,
                compiler,
                games,
                plain,
                with_wasi,
                components,
            }),
        })
    }

    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    pub fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// How instances are allocated on this machine.
    pub fn allocation(&self) -> Allocation {
        self.inner.allocation
    }

    /// Agent instances the sandbox holds at once: what its maker asked for, or fewer when the
    /// address space is limited.
    pub fn instances(&self) -> u32 {
        self.inner.instances
    }

    /// Games of `players` agents the sandbox can play at once (at most `wanted`); fails, saying
    /// what to change, when not even one fits.
    pub fn games_at_once(&self, players: usize, wanted: usize) -> anyhow::Result<usize> {
        let games = self.inner.instances as usize / players.max(1);
        if games == 0 {
            capacity::too_few(self.inner.instances, players)?;
        }
        Ok(games.min(wanted))
    }

    /// The games whose agents the sandbox hosts.
    pub fn games(&self) -> Games {
        self.inner.games
    }

    /// How this sandbox compiles modules.
    pub fn compiler(&self) -> &Compiler {
        &self.inner.compiler
    }
}

/// One bump of the engine's epoch every [`EPOCH_TICK`], for as long as the engine lives.
pub(super) fn start_ticker(engine: &Engine) -> anyhow::Result<()> {
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("arena-epoch".into())
        .stack_size(64 << 10)
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })
        .context("cannot start the epoch ticker thread")?;
    Ok(())
}
