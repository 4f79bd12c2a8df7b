//! Search: alpha-beta over Voronoi territory with iterative deepening under the fuel clock.
//!
//! Against the nearest living opponent (the others' trails and heads are walls to it), it
//! searches pairs of turns, this cycle's and the opponent's reply ([`search`]), and scores the
//! leaves by territory ([`board`]): the free cells it reaches before the opponent less those the
//! opponent reaches first. Once the two are cut off from each other there is nothing left to
//! fight for, and it fills its own region ([`endgame`]).
//!
//! Each decision gets a share of the clock, `clock / 40 + 3/4 × increment`, never more than what
//! the decision may use (`fuel_left()` at its start) less an eighth and a reserve. It deepens
//! while less than half the share is spent and stops, in the middle of an iteration if need be,
//! once the share is spent; it asks `fuel_left()` at every leaf. On wasm32 that is the host's
//! meter; natively, a stand-in charged [`search::NODE_FUEL`] a level and [`search::EVAL_FUEL`]
//! plus [`search::ROW_FUEL`] a row and step of distance a leaf.
#![no_std]

pub mod board;
pub mod endgame;
pub mod search;

use arena_agent_sdk::lightcycles::{State, Turn};
use arena_agent_sdk::{
    export_lightcycles_agent, fuel, log, InitContext, LightcyclesAgent, LightcyclesClock,
    LightcyclesView, Rng,
};

use search::{Search, EVAL_FUEL, ROW_FUEL};

/// Fuel kept aside beyond the share on a grid of `width` × `height`: twice what an evaluation
/// going `2 × (width + height)` steps of distance costs (one evaluation is spent between two
/// looks at the meter), and the answer.
pub fn reserve(width: u32, height: u32) -> i64 {
    let steps = 2 * i64::from(width + height);
    2 * (EVAL_FUEL + ROW_FUEL * i64::from(height) * steps) + 50_000
}

/// The clock is spread as if this many decisions were left.
pub const TICKS_TO_GO: u64 = 40;
/// Deepest iteration, in levels (a turn of each cycle).
pub const MAX_DEPTH: u32 = 64;

/// The fuel this decision aims to spend: a share of the clock, `clock / 40 + 3/4 × increment`,
/// within what `fuel_left` allows less an eighth and `reserve`.
pub fn budget(clock: &LightcyclesClock, fuel_left: i64, reserve: i64) -> i64 {
    let share = clock.mine / TICKS_TO_GO + clock.increment / 4 * 3;
    let share = i64::try_from(share).unwrap_or(i64::MAX);
    let allowed = fuel_left - fuel_left / 8 - reserve;
    share.min(allowed)
}

/// The living opponent whose head is nearest to `seat`'s (in steps, as if the grid were open;
/// the lowest seat on a tie).
pub fn nearest_opponent(state: &State, seat: usize) -> Option<usize> {
    let me = state.cycle(seat).head;
    state
        .living()
        .iter()
        .filter(|&s| s != seat)
        .min_by_key(|&s| {
            let p = state.cycle(s).head;
            (p.x as i32 - me.x as i32).abs() + (p.y as i32 - me.y as i32).abs()
        })
}

pub struct SearchAgent {
    rng: Rng,
    search: Search,
    /// Cap on the iterations (tests use it to search to a fixed depth).
    pub max_depth: u32,
}

impl SearchAgent {
    pub fn new(seed: u64) -> SearchAgent {
        SearchAgent {
            rng: Rng::new(seed),
            search: Search::default(),
            max_depth: MAX_DEPTH,
        }
    }

    /// Levels searched for the last decision.
    pub fn nodes(&self) -> u64 {
        self.search.nodes
    }

    /// The turn of `seat`'s cycle in `state`, searching while `fuel::fuel_left()` stays above
    /// `start - budget`.
    pub fn decide(&mut self, state: &State, seat: usize, start: i64, budget: i64) -> Turn {
        let Some(opponent) = nearest_opponent(state, seat) else {
            return self.search.fill(state, seat);
        };
        self.search.set(state, seat, opponent);
        if self.search.cut_off() || budget <= 0 {
            // Nothing to fight for (or no fuel to think): fill space.
            return self.search.fill(state, seat);
        }
        // A seeded shuffle, so that equal turns are chosen at random (the search keeps the
        // first of equal turns).
        let mut order = [Turn::Straight, Turn::Left, Turn::Right];
        self.rng.shuffle(&mut order);
        let found = self
            .search
            .run(order, self.max_depth, start - budget / 2, start - budget);
        match found {
            Some(f) => {
                log!(
                    "tick {} depth {} levels {} leaves {} rows {} score {} fuel {}",
                    state.tick() + 1,
                    f.depth,
                    self.search.nodes,
                    self.search.leaves,
                    self.search.rows,
                    f.score,
                    start - fuel::fuel_left()
                );
                f.turn
            }
            None => self.search.fill(state, seat),
        }
    }
}

impl Default for SearchAgent {
    fn default() -> Self {
        SearchAgent::new(0)
    }
}

impl LightcyclesAgent for SearchAgent {
    fn init(&mut self, ctx: &InitContext) {
        self.rng = Rng::new(ctx.seed);
    }

    fn choose_turn(&mut self, view: &LightcyclesView) -> Turn {
        let start = fuel::fuel_left();
        let grid = view.state.grid();
        let budget = budget(&view.clock, start, reserve(grid.width(), grid.height()));
        self.decide(&view.state, view.seat, start, budget)
    }
}

export_lightcycles_agent!(SearchAgent);
