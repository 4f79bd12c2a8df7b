//! The rules of the code war, exactly as the arena applies them (docs/CODEWAR.md).
//!
//! The code war is Perlwar (Games::Perlwar, the game the arena is named after) with WebAssembly
//! modules as the agents: the players' agents live in the cells of a ring called the Array, are
//! run one after another every iteration, each in a fresh instance that knows nothing but its
//! own bytes, and copy themselves, nuke, rewrite or claim other cells. The player who owns the
//! most cells at the end wins.
//!
//! This crate is `no_std` (with `alloc`) and knows nothing of WebAssembly: running an agent is
//! an [`Executor`]'s job (the arena's sandbox; native closures in tests). It holds:
//! * [`Settings`]: the Array's size, the maximal agent size in bytes, the iterations, the Mambo
//!   step and the re-entry period, with their bounds;
//! * [`Array`] and [`Cell`]: bytes, owner, facade, and whether the agent may run this iteration;
//! * [`Instruction`]: the 64-bit value an agent returns, decoded;
//! * [`visit`]: one visit (the size check, the run, the agent's changes, its instruction);
//! * [`stages`]: an iteration's stages (newcomers, eliminations, visits);
//! * [`Game`]: the iterations, the end and the [`Outcome`];
//! * [`random`]: the seeded streams (newcomers' cells, the agents' `random`).
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod array;
pub mod game;
pub mod instruction;
pub mod random;
pub mod settings;
pub mod stages;
pub mod visit;

pub use array::{Array, Cell, Code, Seat};
pub use game::{Game, GameError, Iteration, Outcome};
pub use instruction::Instruction;
pub use random::Stream;
pub use settings::{Settings, SettingsError};
pub use stages::Entry;
pub use visit::{Effect, Effects, Executor, Run, Segfault, SegfaultKind, View, Visit};

/// Version of these rules, written into every code war record. Bump it whenever a change to this
/// crate could change a recorded game.
pub const RULES_VERSION: u32 = 1;
