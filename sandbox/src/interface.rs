//! What the sandbox is told about a game, and nothing more: the id its envelope carries, the
//! decision exports a core module has, and its WIT world for components. A game's own code
//! (observations, answers, rules) stays in the game: it calls [`WasmPlayer::call`] with the bytes
//! it encodes, or [`WasmPlayer::call_component`] with its world's typed instance.
//!
//! [`WasmPlayer::call`]: crate::WasmPlayer::call
//! [`WasmPlayer::call_component`]: crate::WasmPlayer::call_component

use std::any::Any;
use std::fmt;

use wasmtime::component::InstancePre;
use wasmtime::Store;

use crate::store::HostState;

/// What the sandbox needs to host an agent of a game.
pub struct AgentInterface {
    /// The game's name for people, in the messages of refused modules.
    pub title: &'static str,
    /// The game's id in the ABI envelope (`arena_init` and every decision).
    pub abi_id: u32,
    /// The decision exports of a core module, each `(i32) -> i32`, in the order
    /// [`crate::WasmPlayer::call`] numbers them. A module plays the game when it has them all.
    pub decisions: &'static [&'static str],
    /// The game's world in the WIT package (`wit/`), when components may play it.
    pub component: Option<&'static dyn ComponentWorld>,
    /// For a game whose agents are snippets ([`crate::Snippets`]: modules the game itself
    /// compiles and runs, one fresh instance per call, with its own imports), what makes a module
    /// one of its agents; `None` for a game of byte-ABI agents. Such a module is kept as bytes
    /// when loaded ([`crate::AgentModule::snippet`]), not compiled, and cannot be a
    /// [`crate::WasmPlayer`].
    pub snippet: Option<SnippetInterface>,
}

/// What a snippet agent of a game is: a core module that exports `entry` and imports only from
/// `import_module`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnippetInterface {
    /// The function every agent of the game exports.
    pub entry: &'static str,
    /// The only module its imports may come from (the game's host functions).
    pub import_module: &'static str,
}

impl fmt::Debug for AgentInterface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentInterface")
            .field("title", &self.title)
            .field("abi_id", &self.abi_id)
            .field("decisions", &self.decisions)
            .field("component", &self.component.map(|w| w.name()))
            .field("snippet", &self.snippet)
            .finish()
    }
}

/// The games a sandbox hosts, in the order their names are listed in messages.
pub type Games = &'static [&'static AgentInterface];

/// What `arena_init` (or a component's `init`) is told at the start of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Init {
    pub seat: usize,
    pub players: usize,
    /// The seed of the agent's own randomness.
    pub seed: u64,
    pub round_cap: u32,
}

/// A game's world of the WIT package (`wit/`): the typed side of its component agents. The game
/// implements it with the bindings wasmtime generates from its world; the sandbox links,
/// instantiates and budgets the component without knowing those types.
pub trait ComponentWorld: Send + Sync + 'static {
    /// The world's name in the WIT package: `arena:games/NAME@VERSION`.
    fn name(&self) -> &'static str;
    /// The functions the world exports, `init` first (a component is taken for an agent of the
    /// first world whose decisions it exports; messages list them).
    fn exports(&self) -> &'static [&'static str];
    /// The interfaces of the world that only hold types: the linker defines them empty.
    fn type_interfaces(&self) -> &'static [&'static str];
    /// The world's file in the WIT package (`wit/NAME.wit`) and its text, which component
    /// projects copy.
    fn wit_file(&self) -> (&'static str, &'static str);
    /// Checks a linked component's exports against the world's types: the instance-maker of the
    /// agent's games, or why the component is not an agent of this world.
    fn prepare(&self, pre: InstancePre<HostState>) -> wasmtime::Result<Box<dyn WorldPre>>;
    /// How a JavaScript agent whose module is `entry` is built when the game has a leaner world
    /// of the same decisions for it (the view as JSON text, say): the world and the glue module
    /// the build adds. `None`: the agent is built for this world as it is.
    fn javascript_glue(&self, _entry: &str) -> Option<JavaScriptGlue> {
        None
    }
    /// The game's other worlds of the same exports that [`ComponentWorld::prepare`] also takes
    /// (a leaner view for one language, say), by full name: a refusal lists them with this one.
    fn other_worlds(&self) -> Vec<&'static str> {
        Vec::new()
    }
}

/// A glue module a JavaScript agent's build adds ([`ComponentWorld::javascript_glue`]).
pub struct JavaScriptGlue {
    /// The world built for, without package and version.
    pub world: &'static str,
    /// The glue module's path in the sources' folder, the build's entry.
    pub path: String,
    /// Its text.
    pub text: String,
}

/// A component's instance-maker for its world, made by [`ComponentWorld::prepare`].
pub trait WorldPre: Send + Sync {
    /// A fresh instance in `store` (its start functions run here): the world's typed instance,
    /// which the game's calls downcast.
    fn instantiate(&self, store: &mut Store<HostState>) -> wasmtime::Result<Box<dyn Any + Send>>;
    /// Calls the instance's `init`: `Ok(Err(message))` when the agent refuses the game.
    fn init(
        &self,
        instance: &(dyn Any + Send),
        store: &mut Store<HostState>,
        init: &Init,
    ) -> wasmtime::Result<Result<(), String>>;
    /// The world the component was taken for when it is not [`ComponentWorld::name`] (a game
    /// with a second world of the same decisions, its view as JSON text, say).
    fn world_name(&self) -> Option<&'static str> {
        None
    }
}

impl dyn ComponentWorld {
    /// The world's name without its package and version (`NAME` of `arena:games/NAME@1.0.0`).
    pub fn short_name(&self) -> &'static str {
        let name = self.name();
        let name = name.rsplit_once('/').map_or(name, |(_, n)| n);
        name.split_once('@').map_or(name, |(n, _)| n)
    }

    /// The world's decision exports: its exports but `init`.
    pub fn decisions(&self) -> impl Iterator<Item = &'static str> {
        self.exports().iter().copied().filter(|e| *e != "init")
    }
}

/// The host's error when a game's call finds an instance of another world (the sandbox checks
/// the world when the game starts, so it is never the agent's doing).
pub fn wrong_world(wanted: &str) -> wasmtime::Error {
    wasmtime::Error::msg(format!(
        "a component was asked a decision of world {wanted}, which it is not of"
    ))
}
