//! The rules of light cycles (the Tron game), exactly as the arena applies them
//! (docs/LIGHTCYCLES.md).
//!
//! Two to six cycles ride a rectangular grid, every one at the same time: at each tick every
//! living player turns left, goes straight or turns right, all heads move one cell together, and
//! each leaves a trail that stays. A cycle dies when it leaves the grid or enters a wall, any
//! trail (its own included), a cell another head enters in the same tick, or when two heads swap
//! cells. Players are ranked by the tick they died in, later being better; the last one alive
//! wins, and the tick cap ends the game with the survivors sharing first place.
//!
//! This crate is `no_std`, never allocates and has no unsafe code, so that the arena host and an
//! agent compiled to WebAssembly run the very same rules. It holds:
//! * [`Settings`]: the grid's width and height, the share of walls, the tick cap, their bounds;
//! * [`Grid`], [`Pos`], [`Dir`], [`Turn`]: cells, headings and the three answers;
//! * [`layout`]: the start cells, and [`walls`]: the walls the seed places, both symmetric;
//! * [`stages`]: a tick as a pipeline of small stages (choose, move heads, collide, leave
//!   trails, eliminate, rank);
//! * [`State`]: the state machine a host plays (start, who answers, apply a tick, the end and
//!   the places), and [`picture`]: a state drawn as text and read back.
#![no_std]
#![forbid(unsafe_code)]

mod cycle;
mod geometry;
mod grid;
pub mod layout;
pub mod picture;
mod random;
mod settings;
pub mod stages;
mod state;
mod symmetry;
pub mod walls;

pub use cycle::{Answer, Answers, Cause, Cycle, Death, Seats};
pub use geometry::{Dir, Pos, Turn};
pub use grid::{Content, Grid, EMPTY, TRAIL, WALL};
pub use random::{Stream, WALL_SALT};
pub use settings::{
    Settings, SettingsError, MAX_CELLS, MAX_PLAYERS, MAX_SIDE, MAX_TICK_CAP, MAX_WALLS,
    MIN_PLAYERS, MIN_SIDE,
};
pub use stages::{ApplyError, End, Step, Steps};
pub use state::{Event, Outcome, State, StateError, Tick};
pub use symmetry::Symmetry;

/// Version of these rules, written into every game record. Bump it whenever a change to this
/// crate could change the outcome of a recorded game.
pub const RULES_VERSION: u32 = 1;
