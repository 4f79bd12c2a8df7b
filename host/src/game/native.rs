//! What the games' native strategies share (strategies of the host's own, played in-process for
//! tests, benchmarks and baselines): a panic is a `trap` fault, as a wasm agent's trap would be.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::{Fault, FaultKind};

/// Runs a native agent's code; a panic becomes a `trap` fault, as a wasm agent's would.
pub fn catch_panic<R>(f: impl FnOnce() -> R) -> Result<R, Fault> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|e| {
        let msg = e
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        Fault::new(FaultKind::Trap, format!("native agent panicked: {msg}"))
    })
}
