//! Failures of the host itself, which must never count against an agent.
//!
//! A game is a fact about its agents only when the host could play it properly. When the host
//! cannot set an agent up (its instance pool is exhausted, the address space or memory ran out,
//! the compiler process was killed from outside), the error is a [`HostFailure`]: loading
//! returns it instead of refusing the module, a player remembers it
//! ([`super::WasmPlayer::host_failure`]) and the game returns it instead of a record, so that
//! `arena play` and `arena check` say it is the host's failure (exit status 2) and a league stops
//! or retries rather than scoring the game.

use std::fmt;

use wasmtime::Trap;
use wasmtime_wasi::I32Exit;

use super::faults::LimitExceeded;

/// The host could not do its part; the text says what failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostFailure(pub String);

impl fmt::Display for HostFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the host failed, not the agent: {}", self.0)
    }
}

impl std::error::Error for HostFailure {}

impl HostFailure {
    /// The host failure in `err`'s chain of causes, if there is one.
    pub fn find(err: &anyhow::Error) -> Option<&HostFailure> {
        err.chain().find_map(|e| e.downcast_ref::<HostFailure>())
    }
}

/// Whether an error of instantiating a module is the module's doing: its start function trapped,
/// ran out of fuel or exited, or its own initial sizes are past the limits. Anything else comes
/// from the host (a module that passed the checks at load has nothing else that can fail while
/// it is instantiated: the pool, the memory reservation and the kernel can).
pub(crate) fn is_agents_doing(err: &wasmtime::Error) -> bool {
    err.downcast_ref::<Trap>().is_some()
        || err.downcast_ref::<LimitExceeded>().is_some()
        || err.downcast_ref::<I32Exit>().is_some()
}
