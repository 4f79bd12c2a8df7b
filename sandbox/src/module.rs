//! A loaded agent ([`AgentModule`]): what it is made of (a core module's instance-maker, a
//! component's world, a snippet's bytes), what it imports and exports, the games it plays, and
//! the players it makes for them. Made by the [`Sandbox`] (`load.rs`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::bail;
use wasmtime::{Engine, InstancePre};

use super::compile::Origin;
use super::component::World;
use super::config::Limits;
use super::interface::AgentInterface;
use super::player::WasmPlayer;
use super::probe;
use super::sandbox::Sandbox;
use super::store::HostState;

/// Round cap announced to agents created with [`AgentModule::player`] (the league's default).
pub const DEFAULT_ROUND_CAP: u32 = 300;

/// An import or an export of an agent module: name and kind with signature.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    /// `module::name` for an import, the export name for an export.
    pub name: String,
    /// `func(i32) -> i32`, `memory(17 pages min)`...
    pub kind: String,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.kind)
    }
}

/// A validated, compiled agent. Cheap to clone; `player()` makes a fresh player for each game.
#[derive(Clone)]
pub struct AgentModule {
    pub(crate) inner: Arc<ModuleInner>,
}

pub(crate) struct ModuleInner {
    pub(crate) sandbox: Sandbox,
    pub(crate) code: Code,
    pub(crate) name: String,
    pub(crate) path: Option<PathBuf>,
    pub(crate) sha256: String,
    pub(crate) size: u64,
    pub(crate) exports: Vec<Entry>,
    pub(crate) imports: Vec<Entry>,
    pub(crate) abi_version: u32,
    pub(crate) uses_wasi: bool,
    pub(crate) has_init: bool,
    pub(crate) has_initialize: bool,
    /// The games whose decision exports the module has (a component: its world's).
    pub(crate) games: Vec<&'static AgentInterface>,
    /// Where the compiled code came from (the module cache: loading compiled nothing).
    pub(crate) origin: Origin,
}

/// What an agent is made of.
pub(crate) enum Code {
    /// A core module speaking the byte ABI.
    Core(InstancePre<HostState>),
    /// A component of one world of the WIT package.
    Component(World),
    /// A snippet agent's bytes: its game compiles and runs it ([`crate::Snippets`]).
    Snippet(Arc<[u8]>),
}

impl ModuleInner {
    pub(crate) fn limits(&self) -> &Limits {
        &self.sandbox.inner.limits
    }

    pub(crate) fn engine(&self) -> &Engine {
        &self.sandbox.inner.engine
    }
}

impl fmt::Debug for AgentModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentModule")
            .field("name", &self.inner.name)
            .field("sha256", &self.inner.sha256)
            .field("size", &self.inner.size)
            .field("uses_wasi", &self.inner.uses_wasi)
            .finish_non_exhaustive()
    }
}

impl AgentModule {
    /// Display name: the file stem, or the name given to `load_bytes`.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The file it was loaded from, if any.
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }

    /// Lower-case hex SHA-256 of the WebAssembly binary (after converting text, for `.wat`).
    pub fn sha256(&self) -> &str {
        &self.inner.sha256
    }

    /// Size of the WebAssembly binary in bytes.
    pub fn size(&self) -> u64 {
        self.inner.size
    }

    pub fn exports(&self) -> &[Entry] {
        &self.inner.exports
    }

    pub fn imports(&self) -> &[Entry] {
        &self.inner.imports
    }

    /// What `arena_abi_version()` returned (always `arena_abi::ABI_VERSION` once loaded; 0 for
    /// a component, which has no byte ABI).
    pub fn abi_version(&self) -> u32 {
        self.inner.abi_version
    }

    /// True for a component (world `arena:games/...` of the WIT package), false for a core
    /// module.
    pub fn is_component(&self) -> bool {
        matches!(self.inner.code, Code::Component(_))
    }

    /// The WIT world of a component (`arena:games/NAME@VERSION`), `None` for a core module.
    pub fn world(&self) -> Option<&'static str> {
        match &self.inner.code {
            Code::Component(world) => Some(world.name()),
            Code::Core(_) | Code::Snippet(_) => None,
        }
    }

    /// True when the module imports WASI (preview 1; a component always links WASI 0.2).
    pub fn uses_wasi(&self) -> bool {
        self.inner.uses_wasi
    }

    /// True when the module exports the optional `arena_init`.
    pub fn has_init(&self) -> bool {
        self.inner.has_init
    }

    /// True when loading read the compiled code from the module cache instead of compiling.
    pub fn compiled_from_cache(&self) -> bool {
        self.inner.origin == Origin::ModuleCache
    }

    /// Where loading found the compiled code: the module cache, or a compile (with what the
    /// compiled-function cache gave it).
    pub fn compile_origin(&self) -> Origin {
        self.inner.origin
    }

    /// Makes a fresh instance for a game and drops it: a new store, the instantiation (a start
    /// function runs) and nothing else, no `init` and no decision. What `arena bench
    /// --components` times as instantiation.
    pub fn instantiate_once(&self) -> anyhow::Result<()> {
        probe::instantiate_once(&self.inner)
    }

    /// A snippet agent's bytes (a module of a game whose agents are snippets: see
    /// [`AgentInterface::snippet`]); `None` for every other agent.
    pub fn snippet(&self) -> Option<&[u8]> {
        match &self.inner.code {
            Code::Snippet(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// The sandbox (and limits) this module was compiled for.
    pub fn sandbox(&self) -> &Sandbox {
        &self.inner.sandbox
    }

    /// A player for one game, announcing [`DEFAULT_ROUND_CAP`] to the agent's `arena_init`.
    /// The agent is instantiated when the game calls [`WasmPlayer::start`].
    pub fn player(&self) -> WasmPlayer {
        WasmPlayer::new(self.clone(), DEFAULT_ROUND_CAP)
    }

    /// The games whose decision exports the module has (a component: the game of its world).
    pub fn games(&self) -> &[&'static AgentInterface] {
        &self.inner.games
    }

    /// Whether the module has every decision export of `game`.
    pub fn plays(&self, game: &AgentInterface) -> bool {
        self.inner.games.iter().any(|g| g.abi_id == game.abi_id)
    }

    /// Fails, naming the missing exports, unless the module plays `game`.
    pub fn check_plays(&self, game: &AgentInterface) -> anyhow::Result<()> {
        if self.plays(game) {
            return Ok(());
        }
        if let Some(world) = self.world() {
            bail!(
                "the agent does not play {}: it is a component of world {world} (a component \
                 plays the one game of its world)",
                game.title
            );
        }
        let missing: Vec<String> = game
            .decisions
            .iter()
            .chain(game.snippet.as_ref().map(|s| &s.entry))
            .filter(|name| !self.inner.exports.iter().any(|e| e.name == **name))
            .map(|name| format!("`{name}`"))
            .collect();
        bail!(
            "the agent does not play {}: missing export {}",
            game.title,
            missing.join(", ")
        )
    }

    /// A player for one game whose round cap is `round_cap` (told to the agent at init).
    pub fn player_with_round_cap(&self, round_cap: u32) -> WasmPlayer {
        WasmPlayer::new(self.clone(), round_cap)
    }
}
