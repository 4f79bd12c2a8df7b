//! One tick as a pipeline of small stages (docs/LIGHTCYCLES.md, "A tick"), in the manner of the
//! Battlesnake rules engine: every living cycle chooses, every head moves at once, collisions are
//! judged against the grid as it was before the tick, survivors leave their trail, the dead are
//! eliminated, and the game may end. No stage looks at a seat's number except to name it, so that
//! seats are treated alike.

use core::fmt;

use crate::cycle::{Answer, Answers, Cause, Cycle, Death};
use crate::geometry::{Dir, Pos};
use crate::grid::{Content, Grid, WALL};
use crate::settings::MAX_PLAYERS;

/// What one living cycle did in a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub seat: usize,
    pub answer: Answer,
    /// Its head before the tick.
    pub from: Pos,
    /// Its heading after the answer (the old one for [`Answer::Out`]).
    pub heading: Dir,
    /// The cell it entered or tried to enter; `None` off the grid, and for [`Answer::Out`].
    pub to: Option<Pos>,
    /// How it died in this tick; `None` when it lives on.
    pub death: Option<Cause>,
}

/// The steps of a tick, by seat (`None` for seats not alive before it).
pub type Steps = [Option<Step>; MAX_PLAYERS];

/// Answers that do not fit the living seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApplyError {
    /// The game is over: no tick is played any more.
    Over,
    /// A living seat has no answer.
    Missing(usize),
    /// A seat that is not alive (dead, or beyond the players) has an answer.
    Unexpected(usize),
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::Over => write!(f, "the game is over"),
            ApplyError::Missing(s) => write!(f, "seat {s} is alive and has no answer"),
            ApplyError::Unexpected(s) => write!(f, "seat {s} is not alive and has an answer"),
        }
    }
}

/// Stage 1, choose: each living seat's answer turns its cycle (an [`Answer::Out`] keeps the
/// heading). Every living seat must have an answer, and no other seat.
pub fn choose(cycles: &[Cycle], answers: &Answers) -> Result<Steps, ApplyError> {
    let mut steps: Steps = [None; MAX_PLAYERS];
    for (seat, answer) in answers.iter().enumerate() {
        let alive = cycles.get(seat).is_some_and(Cycle::is_alive);
        match (alive, answer) {
            (true, None) => return Err(ApplyError::Missing(seat)),
            (false, Some(_)) => return Err(ApplyError::Unexpected(seat)),
            (false, None) => {}
            (true, &Some(answer)) => {
                let cycle = cycles[seat];
                let heading = match answer {
                    Answer::Turn(turn) => cycle.heading.turned(turn),
                    Answer::Out => cycle.heading,
                };
                steps[seat] = Some(Step {
                    seat,
                    answer,
                    from: cycle.head,
                    heading,
                    to: None,
                    death: None,
                });
            }
        }
    }
    Ok(steps)
}

/// Stage 2, move heads: the cell each turning or straight-going head enters, one step along
/// its heading (`None` off the grid). A cycle taken out does not move.
pub fn move_heads(grid: &Grid, steps: &mut Steps) {
    for step in steps.iter_mut().flatten() {
        if let Answer::Turn(_) = step.answer {
            step.to = grid.step(step.from, step.heading);
        }
    }
}

/// Stage 3, collide: judges every step against the grid as it was before the tick and the other
/// steps, the first cause that applies:
///
/// 1. [`Cause::Out`]: the host took the cycle out;
/// 2. [`Cause::Wall`]: the head left the grid or entered a wall;
/// 3. [`Cause::Swap`]: it entered the cell of a head that entered its cell;
/// 4. [`Cause::Trail`]: it entered any trail (a head's cell is part of its trail);
/// 5. [`Cause::SameCell`]: another head entered the same empty cell.
pub fn collide(grid: &Grid, steps: &mut Steps) {
    let seen = *steps;
    for step in steps.iter_mut().flatten() {
        step.death = fate(grid, step, &seen);
    }
}

fn fate(grid: &Grid, step: &Step, steps: &Steps) -> Option<Cause> {
    if step.answer == Answer::Out {
        return Some(Cause::Out);
    }
    let Some(to) = step.to else {
        return Some(Cause::Wall);
    };
    if grid.code(to) == WALL {
        return Some(Cause::Wall);
    }
    let others = || steps.iter().flatten().filter(|o| o.seat != step.seat);
    if others().any(|o| o.from == to && o.to == Some(step.from)) {
        return Some(Cause::Swap);
    }
    if !grid.is_free(to) {
        return Some(Cause::Trail);
    }
    if others().any(|o| o.to == Some(to)) {
        return Some(Cause::SameCell);
    }
    None
}

/// Stage 4, leave trails: every surviving head's new cell joins its trail. (The trails of the
/// dead stay as they are.)
pub fn leave_trails(grid: &mut Grid, steps: &Steps) {
    for step in steps.iter().flatten() {
        if let (None, Some(to)) = (step.death, step.to) {
            grid.set(to, Content::Trail(step.seat));
        }
    }
}

/// Stage 5, eliminate: survivors' heads move to their new cells; the dead keep their cell, take
/// their last heading and the tick and cause of their death.
pub fn eliminate(cycles: &mut [Cycle], steps: &Steps, tick: u32) {
    for step in steps.iter().flatten() {
        let cycle = &mut cycles[step.seat];
        cycle.heading = step.heading;
        match (step.death, step.to) {
            (Some(cause), _) => cycle.death = Some(Death { tick, cause }),
            (None, Some(to)) => cycle.head = to,
            (None, None) => {}
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// One cycle is left: it wins.
    LastAlive,
    /// No cycle is left: the last ones died in the same tick and share first place.
    AllDead,
    /// The tick cap was reached with two or more cycles alive: they share first place.
    TickCap,
}

impl End {
    /// The name in records and docs.
    pub const fn name(self) -> &'static str {
        match self {
            End::LastAlive => "last_alive",
            End::AllDead => "all_dead",
            End::TickCap => "tick_cap",
        }
    }
}

/// Stage 6, rank: whether the game is over after `tick` (one cycle or none left, or the cap
/// reached), and how.
pub fn end(cycles: &[Cycle], tick: u32, tick_cap: u32) -> Option<End> {
    match cycles.iter().filter(|c| c.is_alive()).count() {
        0 => Some(End::AllDead),
        1 => Some(End::LastAlive),
        _ if tick >= tick_cap => Some(End::TickCap),
        _ => None,
    }
}

/// Stage 6, rank: each seat's place, from 1. A cycle alive beats every dead one, a later death
/// beats an earlier one, and cycles that died in the same tick (or are all alive) share a place:
/// the place is 1 + the number of seats that did strictly better. Entries from the number of
/// players on are 0.
pub fn places(cycles: &[Cycle]) -> [u8; MAX_PLAYERS] {
    let lasted = |c: &Cycle| c.death.map_or(u64::MAX, |d| u64::from(d.tick));
    let mut out = [0u8; MAX_PLAYERS];
    for (seat, cycle) in cycles.iter().enumerate() {
        let better = cycles.iter().filter(|o| lasted(o) > lasted(cycle)).count();
        out[seat] = better as u8 + 1;
    }
    out
}
