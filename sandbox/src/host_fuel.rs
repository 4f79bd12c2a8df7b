//! What a host call costs in fuel.
//!
//! Fuel is the arena's real limit, so it must bound the wall time of a decision on any machine.
//! WebAssembly instructions are metered by wasmtime; the work the host does for an agent is not,
//! so every host function an agent can import charges for it before doing it: [`CALL_FUEL`] per
//! call plus [`BYTE_FUEL`] per byte of guest memory the call hands to the host or asks the host
//! to fill (the price wasmtime asks per byte of `memory.copy`). The table of what each import
//! counts as its bytes is in docs/ABI.md ("Fuel of host calls"); `arena bench` measures the
//! wall time of decisions that spend their whole fuel on each import.
//!
//! Every host function goes through [`charge`]: a call that cannot pay empties the fuel and
//! fails with wasmtime's own out-of-fuel trap, so it is the same `decision_fuel` or `game_fuel`
//! fault as running out in WebAssembly, at the same call on every machine.

use wasmtime::{Caller, Trap};

use super::store::HostState;

/// Fuel of one host call, whatever it does. At this price a decision of 10,000,000 fuel makes
/// at most 10,000 calls; the slowest calls without bytes (WASI calls that go through
/// wasmtime-wasi's async layer, such as `fd_write` and `fd_pread`) took 1 to 2 µs each on a
/// loaded 2-core EPYC VM, so such a decision takes 10 to 20 ms, against 2 ms for a WebAssembly
/// loop and the 2,000 ms backstop (`arena bench --host-calls`).
pub const CALL_FUEL: u64 = 1_000;

/// Fuel per byte of guest memory a host call reads or writes.
pub const BYTE_FUEL: u64 = 1;

/// Flat fuel of `memory.grow` and `table.grow` (an instruction that calls into the host and the
/// resource limiter; wasmtime's own price is 1, and its operator costs are at most 255).
pub const GROW_FUEL: u8 = 250;

/// Fuel per entry of an iovec array a WASI call reads (8 bytes each).
pub const IOVEC_FUEL: u64 = 8 * BYTE_FUEL;

/// Fuel per `poll_oneoff` subscription: a 48-byte subscription read, a 32-byte event written.
pub const SUBSCRIPTION_FUEL: u64 = (48 + 32) * BYTE_FUEL;

/// Takes [`CALL_FUEL`] plus `bytes` × [`BYTE_FUEL`] from the calling agent. When it has less
/// left, its fuel is emptied and the call fails with [`Trap::OutOfFuel`], which the player reports
/// as the fault of the budget that ran out. Any store's data: snippets charge the same way.
pub(crate) fn charge<T>(caller: &mut Caller<'_, T>, bytes: u64) -> wasmtime::Result<()> {
    let price = CALL_FUEL.saturating_add(bytes.saturating_mul(BYTE_FUEL));
    // Fuel is always on in the arena's engine, so neither call can fail.
    let left = caller.get_fuel()?;
    if price > left {
        caller.set_fuel(0)?;
        return Err(Trap::OutOfFuel.into());
    }
    caller.set_fuel(left - price)?;
    Ok(())
}

/// Bytes a WASI call that takes an iovec array counts: WASI preview 1 in wasmtime moves one
/// buffer per call, the first non-empty one, so the host reads the entries up to it (8 bytes
/// each) and moves that buffer's bytes. Entries are not read past what the agent's fuel could
/// pay for, nor outside memory.
pub(crate) fn iovec_bytes(caller: &mut Caller<'_, HostState>, iovs: i32, count: i32) -> u64 {
    let affordable = caller.get_fuel().unwrap_or(0) / IOVEC_FUEL + 1;
    let Some(memory) = super::store::guest_memory(caller) else {
        return 0;
    };
    let data = memory.data(&*caller);
    let start = iovs as u32 as usize;
    let mut bytes = 0u64;
    for i in 0..(count as u32 as u64).min(affordable) as usize {
        bytes += 8;
        let at = start + 8 * i;
        let Some(entry) = data.get(at..at + 8) else {
            break;
        };
        let len = u32::from_le_bytes([entry[4], entry[5], entry[6], entry[7]]);
        if len != 0 {
            return bytes + u64::from(len);
        }
    }
    bytes
}

/// The bytes of a `(ptr, len)` buffer argument.
pub(crate) fn buffer_bytes(len: i32) -> u64 {
    u64::from(len as u32)
}
