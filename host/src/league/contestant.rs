//! Who enters a league: anything that can take a seat in a fresh game of the league's game.

use std::path::Path;

use crate::game::{Native, Seat};
use crate::sandbox::AgentModule;

/// A league entrant. Sandboxed agents are the real thing; native strategies enter too (tests,
/// benchmarks).
pub trait Contestant: Sync {
    /// Its seat in a new game: nothing may carry over from earlier games (the game makes a fresh
    /// player of it for every game).
    fn seat(&self) -> Seat<'_>;
    /// SHA-256 of the agent's code, when it has code.
    fn code_hash(&self) -> Option<String>;
    /// The file its code was loaded from, when it has one: what workers elsewhere are sent.
    fn code_path(&self) -> Option<&Path> {
        None
    }
}

impl Contestant for AgentModule {
    fn seat(&self) -> Seat<'_> {
        Seat::Agent(self)
    }

    fn code_hash(&self) -> Option<String> {
        Some(self.sha256().to_owned())
    }

    fn code_path(&self) -> Option<&Path> {
        self.path()
    }
}

/// A native strategy in a league ([`Seat::Native`]), with no code to hash.
pub struct NativeEntrant(pub Native);

impl Contestant for NativeEntrant {
    fn seat(&self) -> Seat<'_> {
        Seat::Native(&self.0)
    }

    fn code_hash(&self) -> Option<String> {
        None
    }
}
