//! Instantiations at load time, on the budget of one decision: a module or component that
//! cannot be instantiated (or whose `arena_abi_version` is wrong) is refused once rather than
//! failing in every game; a failure of the host there is a [`HostFailure`], not a refusal.

use arena_abi::names;

use super::faults::{classify, classify_after_refusal, one_line, FuelScope};
use super::host_failure::{is_agents_doing, HostFailure};
use super::log::AgentLog;
use super::module::{Code, ModuleInner};
use super::store::{component_store, instantiate, new_store, HostState};

/// The core module's instance-maker (the caller knows the agent is a core module).
fn core_pre(module: &ModuleInner) -> &wasmtime::InstancePre<HostState> {
    match &module.code {
        Code::Core(pre) => pre,
        Code::Component(_) | Code::Snippet(_) => {
            unreachable!("only a byte-ABI module has a core instance-maker")
        }
    }
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
