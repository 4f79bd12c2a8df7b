//! What a component agent may import: WASI 0.2 with no capability (the same context as a core
//! module's WASI preview 1: no files, no network, no environment, stdout and stderr into the
//! bounded log, randomness and clocks from the game seed), sleeps that are ready at once, and
//! `arena:games/host` (`log`, `fuel-left`). Every host call is charged in fuel, as for a core module: the call
//! itself, and the bytes of the calls whose host work grows with an argument (docs/ABI.md, "Fuel
//! of host calls").

use wasmtime::component::{Linker, Resource, ResourceTable, Val};
use wasmtime::{CallHook, StoreContextMut, Trap};
use wasmtime_wasi::p2::{subscribe, DynPollable, Pollable};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use super::host_fuel::{BYTE_FUEL, CALL_FUEL};
use super::random::SharedCycle;
use super::store::HostState;
use super::wasi::{ComponentRandom, MAX_RANDOM_BYTES};

/// The interface of `log`, as the WIT package `wit/` names it.
pub const HOST_INTERFACE: &str = "arena:games/host@1.0.0";

/// The WASI 0.2 version wasmtime-wasi defines; a component importing any 0.2.x version is linked
/// to it (the linker matches semver-compatible versions).
const WASI_VERSION: &str = "0.2.12";

/// The WASI 0.2 state of one component agent in one game.
pub struct ComponentWasi {
    pub(crate) ctx: WasiCtx,
    pub(crate) table: ResourceTable,
    /// The context's random sources, which `get-random-bytes` reads.
    pub(crate) random: ComponentRandom,
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        let wasi = self
            .p2
            .as_mut()
            .expect("a WASI 0.2 context exists for every component agent");
        WasiCtxView {
            ctx: &mut wasi.ctx,
            table: &mut wasi.table,
        }
    }
}

/// The linker of component agents.
pub(crate) fn linker(engine: &wasmtime::Engine) -> anyhow::Result<Linker<HostState>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    linker.allow_shadowing(true);
    let mut clocks = linker.instance(&format!("wasi:clocks/monotonic-clock@{WASI_VERSION}"))?;
    clocks.func_wrap(
        "subscribe-duration",
        |store: StoreContextMut<'_, HostState>, (_,): (u64,)| ready(store),
    )?;
    clocks.func_wrap(
        "subscribe-instant",
        |store: StoreContextMut<'_, HostState>, (_,): (u64,)| ready(store),
    )?;
    // Host work that grows with an argument is charged by the byte, as for a core module. Random
    // bytes are served straight from the context's cycle: wasmtime-wasi draws a word per byte
    // through a boxed generator (about 25 ns a byte), so that 1,000 fuel bought 100 µs.
    linker
        .instance(&format!("wasi:random/random@{WASI_VERSION}"))?
        .func_wrap(
            "get-random-bytes",
            |mut store: StoreContextMut<'_, HostState>, (len,): (u64,)| {
                random_bytes(&mut store, len, |r| &r.secure)
            },
        )?;
    linker
        .instance(&format!("wasi:random/insecure@{WASI_VERSION}"))?
        .func_wrap(
            "get-insecure-random-bytes",
            |mut store: StoreContextMut<'_, HostState>, (len,): (u64,)| {
                random_bytes(&mut store, len, |r| &r.insecure)
            },
        )?;
    // Name lookups are refused (no network), but the name is copied out of the agent's memory
    // first: an 8 MiB name cost 0.4 ms a call, so 1,000 fuel a call ran into the backstop. The
    // answer is wasmtime-wasi's when lookups are not allowed.
    linker
        .instance(&format!("wasi:sockets/ip-name-lookup@{WASI_VERSION}"))?
        .func_new("resolve-addresses", |mut store, _, params, results| {
            // The network is only borrowed, and a borrow given to a host function by value
            // must be ended by it.
            if let Some(Val::Resource(network)) = params.first() {
                network.resource_drop(&mut store)?;
            }
            let name = match params.get(1) {
                Some(Val::String(name)) => name.len() as u64,
                _ => 0,
            };
            charge(&mut store, name * BYTE_FUEL)?;
            results[0] = Val::Result(Err(Some(Box::new(Val::Enum(
                "permanent-resolver-failure".into(),
            )))));
            Ok(())
        })?;
    linker.allow_shadowing(false);
    let mut host = linker.instance(HOST_INTERFACE)?;
    host.func_wrap(
        "log",
        |mut store: StoreContextMut<'_, HostState>, (message,): (String,)| {
            // The call itself was charged by the call hook; the bytes are charged here.
            charge(&mut store, message.len() as u64 * BYTE_FUEL)?;
            store.data().log.append(message.as_bytes());
            Ok(())
        },
    )?;
    // As `arena.fuel_left` for a core module: the fuel the current call has left, its price
    // (the call) already taken by the call hook.
    host.func_wrap(
        "fuel-left",
        |store: StoreContextMut<'_, HostState>, (): ()| -> wasmtime::Result<(i64,)> {
            Ok((i64::try_from(store.get_fuel()?).unwrap_or(i64::MAX),))
        },
    )?;
    Ok(linker)
}

/// `len` bytes of one of the context's random sources, for `len` fuel (the call itself was
/// charged by the call hook). Past [`MAX_RANDOM_BYTES`] the call fails as wasmtime-wasi's does.
fn random_bytes(
    store: &mut StoreContextMut<'_, HostState>,
    len: u64,
    source: fn(&ComponentRandom) -> &SharedCycle,
) -> wasmtime::Result<(Vec<u8>,)> {
    if len > MAX_RANDOM_BYTES {
        wasmtime::bail!("requested len {len} exceeds limit {MAX_RANDOM_BYTES}");
    }
    charge(store, len * BYTE_FUEL)?;
    let random = &store
        .data()
        .p2
        .as_ref()
        .expect("a WASI 0.2 context exists for every component agent")
        .random;
    Ok((source(random).low_bytes(len as usize),))
}

/// A pollable that is always ready: a sleep (a monotonic-clock subscription) returns at once, so
/// that no agent can hold a host thread with a sleep (its fuel still bounds how often it asks).
struct Ready;

#[wasmtime_wasi::async_trait]
impl Pollable for Ready {
    async fn ready(&mut self) {}
}

fn ready(mut store: StoreContextMut<'_, HostState>) -> wasmtime::Result<(Resource<DynPollable>,)> {
    let table = &mut store
        .data_mut()
        .p2
        .as_mut()
        .expect("a WASI 0.2 context exists for every component agent")
        .table;
    let pollable = table.push(Ready)?;
    Ok((subscribe(table, pollable)?,))
}

/// Charges [`CALL_FUEL`] for every call from the component into the host (WASI and `log`),
/// before the host does anything, as every host function of a core module does.
pub(crate) fn charge_host_calls(store: &mut wasmtime::Store<HostState>) {
    store.call_hook(|mut store, hook| match hook {
        CallHook::CallingHost => charge(&mut store, CALL_FUEL),
        _ => Ok(()),
    });
}

/// Takes `price` fuel; when less is left, empties it and fails with the out-of-fuel trap (the
/// fault of the budget that ran out, as for WebAssembly instructions).
fn charge(store: &mut StoreContextMut<'_, HostState>, price: u64) -> wasmtime::Result<()> {
    let left = store.get_fuel()?;
    if price > left {
        store.set_fuel(0)?;
        return Err(Trap::OutOfFuel.into());
    }
    store.set_fuel(left - price)?;
    Ok(())
}
