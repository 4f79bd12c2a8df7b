//! Component agents (the component model, WASI 0.2): which world of the WIT package `wit/` a
//! component plays, its checks at load, and its typed instance in a game. Everything else (the
//! budgets, faults, log and records) is the same as for a core module.

use anyhow::{anyhow, bail};
use wasmtime::component::{Component, InstancePre, Linker};
use wasmtime::{Engine, Store};

use super::config::{Limits, TABLES_PER_INSTANCE};
use super::faults::{classify, one_line, FuelScope, LimitExceeded};
use super::module::Entry;
use super::player::HostState;
use crate::farkle::component::bindings::{Farkle, FarklePre};
use crate::farm::component::bindings::{Farm, FarmPre};
use crate::game::GameKind;
use crate::games::jungle::component::bindings::{Jungle, JunglePre};

/// The first 8 bytes of a component binary: the magic, then version 0x0d and layer 1 (a core
/// module has version 1, layer 0).
pub const COMPONENT_HEADER: [u8; 8] = *b"\0asm\x0d\x00\x01\x00";

/// True when `bytes` is a WebAssembly component binary (not a core module, not text).
pub fn is_component(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && bytes[..4] == COMPONENT_HEADER[..4] && bytes[6..8] == [1, 0]
}

/// The interfaces of the WIT package that only hold types: the linker defines them empty.
const TYPE_INTERFACES: [&str; 4] = [
    "arena:games/types@1.0.0",
    "arena:games/farm-types@1.0.0",
    "arena:games/farkle-types@1.0.0",
    "arena:games/jungle-types@1.0.0",
];

/// Defines the type-only interfaces of the WIT package in `linker`.
pub(crate) fn add_type_interfaces(linker: &mut Linker<HostState>) -> anyhow::Result<()> {
    for name in TYPE_INTERFACES {
        linker.instance(name)?;
    }
    Ok(())
}

/// A component's world, with its exports checked against the WIT types.
#[derive(Clone)]
pub(crate) enum World {
    Farm(FarmPre<HostState>),
    Farkle(FarklePre<HostState>),
    Jungle(JunglePre<HostState>),
}

impl World {
    pub(crate) fn game(&self) -> GameKind {
        match self {
            World::Farm(_) => GameKind::Farm,
            World::Farkle(_) => GameKind::Farkle,
            World::Jungle(_) => GameKind::Jungle,
        }
    }

    /// The world's name in the WIT package.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            World::Farm(_) => "arena:games/farm@1.0.0",
            World::Farkle(_) => "arena:games/farkle@1.0.0",
            World::Jungle(_) => "arena:games/jungle@1.0.0",
        }
    }

    /// A fresh instance in `store`.
    pub(crate) fn instantiate(
        &self,
        store: &mut Store<HostState>,
    ) -> wasmtime::Result<WorldInstance> {
        Ok(match self {
            World::Farm(pre) => WorldInstance::Farm(pre.instantiate(store)?),
            World::Farkle(pre) => WorldInstance::Farkle(pre.instantiate(store)?),
            World::Jungle(pre) => WorldInstance::Jungle(pre.instantiate(store)?),
        })
    }
}

/// A live component instance of one world.
pub enum WorldInstance {
    Farm(Farm),
    Farkle(Farkle),
    Jungle(Jungle),
}

impl WorldInstance {
    /// The host's error when a game asks an instance of another world (the game checks the
    /// world before it starts, so this is never the agent's doing).
    pub fn wrong_world(&self, wanted: &str) -> wasmtime::Error {
        let world = match self {
            WorldInstance::Farm(_) => "farm",
            WorldInstance::Farkle(_) => "farkle",
            WorldInstance::Jungle(_) => "jungle",
        };
        wasmtime::Error::msg(format!(
            "a component of world {world} was asked a decision of world {wanted}"
        ))
    }

    /// Calls `init(setup)`: `Ok(Err(message))` when the agent refuses the game.
    pub(crate) fn init(
        &self,
        store: &mut Store<HostState>,
        seat: usize,
        players: usize,
        seed: u64,
        round_cap: u32,
    ) -> wasmtime::Result<Result<(), String>> {
        match self {
            WorldInstance::Farm(farm) => farm.call_init(
                store,
                crate::farm::component::setup(seat, players, seed, round_cap),
            ),
            WorldInstance::Farkle(farkle) => farkle.call_init(
                store,
                crate::farkle::component::setup(seat, players, seed, round_cap),
            ),
            WorldInstance::Jungle(jungle) => jungle.call_init(
                store,
                crate::games::jungle::component::setup(seat, players, seed, round_cap),
            ),
        }
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
    let not_an_agent = |why: String| {
        anyhow!(
            "not an arena agent: the component exports {} ({why}); the arena's worlds are \
             arena:games/farm (init, trade, accept-offer), arena:games/farkle (init, draft) \
             and arena:games/jungle (init, choose-move), in wit/",
            if exported.is_empty() {
                "nothing".to_owned()
            } else {
                exported.join(", ")
            }
        )
    };
    let world = if has("trade") || has("accept-offer") {
        World::Farm(
            FarmPre::new(pre).map_err(|e| not_an_agent(format!("world farm: {}", one_line(&e))))?,
        )
    } else if has("draft") {
        World::Farkle(
            FarklePre::new(pre)
                .map_err(|e| not_an_agent(format!("world farkle: {}", one_line(&e))))?,
        )
    } else if has("choose-move") {
        World::Jungle(
            JunglePre::new(pre)
                .map_err(|e| not_an_agent(format!("world jungle: {}", one_line(&e))))?,
        )
    } else {
        return Err(not_an_agent("no decision export of any world".into()));
    };
    Ok(Checked {
        world,
        imports,
        exports,
    })
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
