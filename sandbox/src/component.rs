//! Component agents (the component model, WASI 0.2): which world of the WIT package `wit/` a
//! component plays, its checks at load, and its instance in a game. The worlds are the games'
//! ([`ComponentWorld`]); everything else (the budgets, faults, log and records) is the same as for
//! a core module.

use std::any::Any;

use anyhow::{anyhow, bail};
use wasmtime::component::{Component, InstancePre, Linker};
use wasmtime::{Engine, Store};

use super::config::{Limits, TABLES_PER_INSTANCE};
use super::faults::{classify, one_line, FuelScope, LimitExceeded};
use super::interface::{AgentInterface, ComponentWorld, Games, Init, WorldPre};
use super::module::Entry;
use super::store::HostState;

/// The first 8 bytes of a component binary: the magic, then version 0x0d and layer 1 (a core
/// module has version 1, layer 0).
pub const COMPONENT_HEADER: [u8; 8] = *b"\0asm\x0d\x00\x01\x00";

/// True when `bytes` is a WebAssembly component binary (not a core module, not text).
pub fn is_component(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && bytes[..4] == COMPONENT_HEADER[..4] && bytes[6..8] == [1, 0]
}

/// The interface of the WIT package that every world's types build on: the linker defines it
/// empty, as each world's own type-only interfaces.
const SHARED_TYPES: &str = "arena:games/types@1.0.0";

/// Defines the type-only interfaces of the WIT package (those of `games`' worlds) in `linker`.
pub(crate) fn add_type_interfaces(
    linker: &mut Linker<HostState>,
    games: Games,
) -> anyhow::Result<()> {
    linker.instance(SHARED_TYPES)?;
    for world in games.iter().filter_map(|g| g.component) {
        for name in world.type_interfaces() {
            linker.instance(name)?;
        }
    }
    Ok(())
}

/// A component's world, with its exports checked against the WIT types: the game it plays and
/// its instance-maker.
pub(crate) struct World {
    pub(crate) game: &'static AgentInterface,
    pub(crate) world: &'static dyn ComponentWorld,
    pre: Box<dyn WorldPre>,
}

impl World {
    /// The world's name in the WIT package: the one the component was taken for.
    pub(crate) fn name(&self) -> &'static str {
        self.pre.world_name().unwrap_or_else(|| self.world.name())
    }

    /// A fresh instance in `store`.
    pub(crate) fn instantiate(
        &self,
        store: &mut Store<HostState>,
    ) -> wasmtime::Result<Box<dyn Any + Send>> {
        self.pre.instantiate(store)
    }

    /// Calls `init(setup)`: `Ok(Err(message))` when the agent refuses the game.
    pub(crate) fn init(
        &self,
        instance: &(dyn Any + Send),
        store: &mut Store<HostState>,
        init: &Init,
    ) -> wasmtime::Result<Result<(), String>> {
        self.pre.init(instance, store, init)
    }
}

/// What loading found in a component.
pub(crate) struct Checked {
    pub(crate) world: World,
    pub(crate) imports: Vec<Entry>,
    pub(crate) exports: Vec<Entry>,
}

/// Checks a compiled component: its sizes against the limits, its imports against what the
/// arena links, then `probe` (an instantiation), then its exports against one world of the WIT
/// package.
pub(crate) fn check(
    engine: &Engine,
    linker: &Linker<HostState>,
    games: Games,
    component: &Component,
    limits: &Limits,
    probe: impl FnOnce(&InstancePre<HostState>) -> anyhow::Result<()>,
) -> anyhow::Result<Checked> {
    check_resources(component, limits)?;
    let ty = component.component_type();
    let imports: Vec<Entry> = ty
        .imports(engine)
        .map(|(name, item)| Entry {
            name: name.to_owned(),
            kind: kind(&item.ty).into(),
        })
        .collect();
    let exports: Vec<Entry> = ty
        .exports(engine)
        .map(|(name, item)| Entry {
            name: name.to_owned(),
            kind: kind(&item.ty).into(),
        })
        .collect();
    let has = |name: &str| exports.iter().any(|e| e.name == name);
    let pre: InstancePre<HostState> = linker.instantiate_pre(component).map_err(|e| {
        anyhow!(
            "cannot link the component's imports (the arena provides arena:games/host and WASI \
             0.2 without capabilities): {}",
            one_line(&e)
        )
    })?;
    probe(&pre)?;
    let exported: Vec<&str> = exports.iter().map(|e| e.name.as_str()).collect();
    let worlds: Vec<(&'static AgentInterface, &'static dyn ComponentWorld)> = games
        .iter()
        .filter_map(|g| g.component.map(|w| (*g, w)))
        .collect();
    let not_an_agent = |why: String| {
        let known: Vec<String> = worlds
            .iter()
            .flat_map(|(_, w)| {
                let exports = w.exports().join(", ");
                std::iter::once(w.name())
                    .chain(w.other_worlds())
                    .map(move |full| {
                        let name = full.split_once('@').map_or(full, |(n, _)| n);
                        format!("{name} ({exports})")
                    })
            })
            .collect();
        anyhow!(
            "not an arena agent: the component exports {} ({why}); the arena's worlds are {}, in \
             wit/",
            if exported.is_empty() {
                "nothing".to_owned()
            } else {
                exported.join(", ")
            },
            join_and(&known)
        )
    };
    // A component plays the first world whose decisions it exports.
    let Some((game, world)) = worlds
        .iter()
        .copied()
        .find(|(_, w)| w.decisions().any(&has))
    else {
        return Err(not_an_agent("no decision export of any world".into()));
    };
    let pre = world
        .prepare(pre)
        .map_err(|e| not_an_agent(format!("world {}: {}", world.short_name(), one_line(&e))))?;
    Ok(Checked {
        world: World { game, world, pre },
        imports,
        exports,
    })
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn kind(item: &wasmtime::component::types::ComponentItem) -> &'static str {
    use wasmtime::component::types::ComponentItem as I;
    match item {
        I::ComponentFunc(_) => "func",
        I::CoreFunc(_) => "core func",
        I::Module(_) => "module",
        I::Component(_) => "component",
        I::ComponentInstance(_) => "instance",
        I::Type(_) => "type",
        I::Resource(_) => "resource",
    }
}

/// Refuses, before any instance is made, a component whose memories or tables the limits could
/// never hold (the pool's slots are sized by them and would refuse it with a message of its
/// own): more than one memory, more tables than a core module may have, an initial memory or
/// table past the limits.
fn check_resources(component: &Component, limits: &Limits) -> anyhow::Result<()> {
    let Some(needs) = component.resources_required() else {
        bail!("the component imports a memory or a table, which the arena does not provide");
    };
    if needs.num_memories > 1 {
        bail!(
            "the component defines {} memories; the arena allows 1",
            needs.num_memories
        );
    }
    if needs.num_tables > TABLES_PER_INSTANCE {
        bail!(
            "the component defines {} tables; the arena allows {TABLES_PER_INSTANCE}",
            needs.num_tables
        );
    }
    let refused = |what: &'static str, desired: u64, limit: u64| {
        let e = wasmtime::Error::new(LimitExceeded {
            what,
            desired: usize::try_from(desired).unwrap_or(usize::MAX),
            limit: usize::try_from(limit).unwrap_or(usize::MAX),
        });
        let f = classify(&e, "instantiation", FuelScope::Decision);
        anyhow!("cannot instantiate the component: {}", f.detail)
    };
    if let Some(pages) = needs.max_initial_memory_size {
        let bytes = pages.saturating_mul(64 << 10);
        if bytes > limits.memory_bytes {
            return Err(refused("memory", bytes, limits.memory_bytes));
        }
    }
    if let Some(elements) = needs.max_initial_table_size {
        if elements > u64::from(limits.table_elements) {
            return Err(refused("table", elements, limits.table_elements.into()));
        }
    }
    Ok(())
}
