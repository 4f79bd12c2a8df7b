//! The games the arena hosts, each in its own folder, and their registry.

pub mod farkle;
pub mod farm;

use crate::sandbox::Games;

/// What the sandbox is told about every game, in the registry's order.
pub static AGENTS: Games = &[&farm::AGENT, &farkle::AGENT];
