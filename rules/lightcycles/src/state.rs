//! The state machine a host plays (docs/LIGHTCYCLES.md, "The game as a state machine"): a start
//! state from the settings and the seed; the seats that must answer this tick; applying the
//! answers of a tick all at once, which yields what happened; the end and the places.

use core::fmt;

use crate::cycle::{Answers, Cycle, Seats};
use crate::geometry::{Dir, Pos};
use crate::grid::{Content, Grid, TRAIL};
use crate::layout;
use crate::settings::{Settings, SettingsError, MAX_PLAYERS, MAX_TICK_CAP, MIN_PLAYERS};
use crate::stages::{self, ApplyError, End, Step, Steps};
use crate::walls;

/// A game of light cycles between ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    grid: Grid,
    cycles: [Cycle; MAX_PLAYERS],
    players: u8,
    tick: u32,
    tick_cap: u32,
}

/// What happened in one tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tick {
    /// The tick's number, from 1.
    pub number: u32,
    /// What each cycle alive before the tick did, by seat.
    pub steps: Steps,
    /// How the game ended, when it ended with this tick.
    pub end: Option<End>,
}

/// One thing that happened in a tick, in seat order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A cycle moved from one cell to the next.
    Moved {
        seat: usize,
        from: Pos,
        to: Pos,
        heading: Dir,
    },
    /// A cycle died at `at` (its head, which stays there) trying to enter `into` (`None` off the
    /// grid, or when it was taken out).
    Died {
        seat: usize,
        at: Pos,
        into: Option<Pos>,
        cause: crate::Cause,
    },
}

impl Tick {
    /// The steps of the cycles alive before the tick, in seat order.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().flatten()
    }

    /// The moves and deaths of the tick, in seat order.
    pub fn events(&self) -> impl Iterator<Item = Event> + '_ {
        self.steps().map(|s| match (s.death, s.to) {
            (Some(cause), into) => Event::Died {
                seat: s.seat,
                at: s.from,
                into,
                cause,
            },
            (None, to) => Event::Moved {
                seat: s.seat,
                from: s.from,
                to: to.unwrap_or(s.from),
                heading: s.heading,
            },
        })
    }

    /// The seats that died in this tick.
    pub fn deaths(&self) -> Seats {
        let mut dead = Seats::NONE;
        for s in self.steps().filter(|s| s.death.is_some()) {
            dead.insert(s.seat);
        }
        dead
    }
}

/// The end of a game: how it ended and every seat's place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub end: End,
    /// Each seat's place from 1 (seats that share a place have the same number; entries from
    /// the number of players on are 0).
    pub places: [u8; MAX_PLAYERS],
}

impl Outcome {
    /// The seats in first place.
    pub fn winners(&self) -> Seats {
        let mut w = Seats::NONE;
        for (seat, &p) in self.places.iter().enumerate() {
            if p == 1 {
                w.insert(seat);
            }
        }
        w
    }
}

/// A state the rules cannot have reached (from [`State::from_parts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateError {
    /// Not 2 to 6 players.
    Players(usize),
    /// The tick cap is 0 or above the largest.
    TickCap(u32),
    /// A seat's head is off the grid.
    HeadOffGrid(usize),
    /// A seat's head is not a cell of its own trail.
    HeadOffTrail(usize),
    /// A seat died after the state's tick, or at tick 0.
    DeathTick(usize),
    /// A cell holds the trail of a seat beyond the players.
    TrailOfNoSeat(Pos),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StateError::Players(n) => {
                write!(
                    f,
                    "{n} players: the game takes {MIN_PLAYERS} to {MAX_PLAYERS}"
                )
            }
            StateError::TickCap(c) => {
                write!(f, "tick cap {c}: it must be from 1 to {MAX_TICK_CAP}")
            }
            StateError::HeadOffGrid(s) => write!(f, "the head of seat {s} is off the grid"),
            StateError::HeadOffTrail(s) => {
                write!(f, "the head of seat {s} is not on its own trail")
            }
            StateError::DeathTick(s) => {
                write!(f, "seat {s} died at tick 0 or after the state's tick")
            }
            StateError::TrailOfNoSeat(p) => write!(f, "the cell {p} holds the trail of no seat"),
        }
    }
}

impl State {
    /// The start of a game: `settings`' grid with its walls drawn from `seed` (the seed picks
    /// nothing else), `players` cycles on their start cells (each start cell is its trail's
    /// first cell), tick 0.
    pub fn start(settings: &Settings, players: usize, seed: u64) -> Result<State, SettingsError> {
        settings.validate()?;
        Settings::validate_players(players)?;
        let mut grid =
            Grid::new(settings.width, settings.height).expect("validated settings make a grid");
        let starts = layout::starts(settings.width, settings.height, players);
        walls::place(&mut grid, &starts[..players], settings.walls, seed);
        let mut cycles = [Cycle::new(Pos::new(0, 0), Dir::North); MAX_PLAYERS];
        for (seat, &(pos, dir)) in starts[..players].iter().enumerate() {
            grid.set(pos, Content::Trail(seat));
            cycles[seat] = Cycle::new(pos, dir);
        }
        Ok(State {
            grid,
            cycles,
            players: players as u8,
            tick: 0,
            tick_cap: settings.tick_cap,
        })
    }

    /// A state from its parts (an observation, a hand-made position), checked: 2 to 6
    /// `cycles`, every head on the grid and on its own trail, no death at tick 0 or after
    /// `tick`, no trail of a seat beyond the players, a tick cap from 1 to the largest. (Whether
    /// the rules could reach it from a start is not checked.)
    pub fn from_parts(
        grid: Grid,
        cycles: &[Cycle],
        tick: u32,
        tick_cap: u32,
    ) -> Result<State, StateError> {
        let players = cycles.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(StateError::Players(players));
        }
        if !(1..=MAX_TICK_CAP).contains(&tick_cap) {
            return Err(StateError::TickCap(tick_cap));
        }
        for (seat, c) in cycles.iter().enumerate() {
            if !grid.contains(c.head) {
                return Err(StateError::HeadOffGrid(seat));
            }
            if grid.get(c.head) != Content::Trail(seat) {
                return Err(StateError::HeadOffTrail(seat));
            }
            if c.death.is_some_and(|d| d.tick == 0 || d.tick > tick) {
                return Err(StateError::DeathTick(seat));
            }
        }
        if let Some(i) = grid
            .codes()
            .iter()
            .position(|&c| c >= TRAIL + players as u8)
        {
            return Err(StateError::TrailOfNoSeat(grid.pos(i)));
        }
        let mut all = [Cycle::new(Pos::new(0, 0), Dir::North); MAX_PLAYERS];
        all[..players].copy_from_slice(cycles);
        Ok(State {
            grid,
            cycles: all,
            players: players as u8,
            tick,
            tick_cap,
        })
    }

    pub const fn players(&self) -> usize {
        self.players as usize
    }

    /// Ticks played.
    pub const fn tick(&self) -> u32 {
        self.tick
    }

    /// The game ends after this many ticks.
    pub const fn tick_cap(&self) -> u32 {
        self.tick_cap
    }

    pub const fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Every seat's cycle, in seat order.
    pub fn cycles(&self) -> &[Cycle] {
        &self.cycles[..self.players()]
    }

    /// The cycle of `seat` (which must be below the number of players).
    pub fn cycle(&self, seat: usize) -> &Cycle {
        &self.cycles()[seat]
    }

    /// The cell `seat`'s cycle enters at the next tick with `turn`; `None` off the grid.
    /// (Whether it survives depends on the grid and on the other heads: see [`stages::collide`].)
    pub fn target(&self, seat: usize, turn: crate::Turn) -> Option<Pos> {
        let c = self.cycle(seat);
        self.grid.step(c.head, c.heading.turned(turn))
    }

    /// Whether the head of a living cycle other than `seat`'s can enter `cell` at the next tick
    /// (two heads entering one cell both die).
    pub fn contested(&self, seat: usize, cell: Pos) -> bool {
        self.living().iter().filter(|&s| s != seat).any(|s| {
            crate::Turn::ALL
                .iter()
                .any(|&t| self.target(s, t) == Some(cell))
        })
    }

    /// The seats whose cycles are alive.
    pub fn living(&self) -> Seats {
        let mut s = Seats::NONE;
        for (seat, c) in self.cycles().iter().enumerate() {
            if c.is_alive() {
                s.insert(seat);
            }
        }
        s
    }

    /// The seats that must answer the next tick: every living seat, at once; none when the game
    /// is over.
    pub fn to_move(&self) -> Seats {
        if self.is_over() {
            Seats::NONE
        } else {
            self.living()
        }
    }

    /// How the game ended; `None` while it is on.
    pub fn end(&self) -> Option<End> {
        stages::end(self.cycles(), self.tick, self.tick_cap)
    }

    pub fn is_over(&self) -> bool {
        self.end().is_some()
    }

    /// Every seat's place so far (final once the game is over): see [`stages::places`].
    pub fn places(&self) -> [u8; MAX_PLAYERS] {
        stages::places(self.cycles())
    }

    /// The end and the places, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.end().map(|end| Outcome {
            end,
            places: self.places(),
        })
    }

    /// Plays one tick: the answers of every living seat at once (one each, and none for the
    /// other seats), through the stages of [`stages`]. On an error the state is unchanged.
    pub fn apply(&mut self, answers: &Answers) -> Result<Tick, ApplyError> {
        if self.is_over() {
            return Err(ApplyError::Over);
        }
        let players = self.players();
        let mut steps = stages::choose(&self.cycles[..players], answers)?;
        stages::move_heads(&self.grid, &mut steps);
        stages::collide(&self.grid, &mut steps);
        stages::leave_trails(&mut self.grid, &steps);
        self.tick += 1;
        stages::eliminate(&mut self.cycles[..players], &steps, self.tick);
        Ok(Tick {
            number: self.tick,
            steps,
            end: self.end(),
        })
    }

    /// The state after one tick (see [`State::apply`]).
    pub fn after(&self, answers: &Answers) -> Result<State, ApplyError> {
        let mut next = *self;
        next.apply(answers)?;
        Ok(next)
    }
}
