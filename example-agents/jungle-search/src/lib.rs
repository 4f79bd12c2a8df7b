//! Search: alpha-beta with iterative deepening under Jungle's fuel clock.
//!
//! Each decision gets a share of the clock, `clock / 25 + 3/4 × increment`, never more than
//! what the decision may use (`fuel_left()` at its start, the smaller of the per-decision cap
//! and the clock) less an eighth and a reserve. The search deepens one ply at a time while less
//! than half the share is spent (the next iteration would rarely finish), and stops in the
//! middle of an iteration once the share is spent, keeping the best move of the moves it
//! finished. How much is left is asked with `fuel_left()` every 64 nodes: on wasm32 the host's
//! meter, natively a stand-in charged [`search::NODE_FUEL`] per node.
//!
//! The search itself is in [`search`], the evaluation in [`eval`].
#![no_std]

pub mod eval;
pub mod search;

use arena_agent_sdk::jungle::{Move, MoveList, Square};
use arena_agent_sdk::{
    export_jungle_agent, fuel, log, InitContext, JungleAgent, JungleClock, JungleView, Rng,
};

use search::{Search, CHECK_EVERY, NODE_FUEL};

/// Fuel kept aside beyond the share: what can be spent between two looks at the meter, twice,
/// and the answer.
pub const RESERVE: i64 = 2 * CHECK_EVERY as i64 * NODE_FUEL + 50_000;
/// The clock is spread as if this many moves were left.
pub const MOVES_TO_GO: u64 = 25;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 30;

/// The fuel this decision aims to spend: a share of the clock, within what `fuel_left` allows.
pub fn budget(clock: &JungleClock, fuel_left: i64) -> i64 {
    let share = clock.mine / MOVES_TO_GO + clock.increment / 4 * 3;
    let share = i64::try_from(share).unwrap_or(i64::MAX);
    let allowed = fuel_left - fuel_left / 8 - RESERVE;
    share.min(allowed)
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

    /// Nodes searched for the last decision.
    pub fn nodes(&self) -> u64 {
        self.search.nodes
    }
}

impl Default for SearchAgent {
    fn default() -> Self {
        SearchAgent::new(0)
    }
}

impl JungleAgent for SearchAgent {
    fn init(&mut self, ctx: &InitContext) {
        self.rng = Rng::new(ctx.seed);
    }

    fn choose_move(&mut self, view: &JungleView) -> Move {
        let start = fuel::fuel_left();
        let budget = budget(&view.clock, start);
        let p = view.position;
        // A seeded shuffle, so that equal moves are chosen at random (the search keeps the first
        // of equal moves).
        let mut order: MoveList = p.legal_moves();
        let moves = order.as_mut_slice();
        self.rng.shuffle(moves);
        let found = if start < RESERVE {
            // Almost out of fuel: the first move in search order (den entries and captures
            // first), without a search.
            self.search
                .run(&p, &order, view.ply_cap, 0, i64::MAX, i64::MAX)
        } else if moves.len() == 1 || budget <= 0 {
            // Nothing to think about, or little fuel: a one-ply look, within half of it.
            self.search
                .run(&p, &order, view.ply_cap, 1, i64::MAX, start / 2)
        } else {
            self.search.run(
                &p,
                &order,
                view.ply_cap,
                self.max_depth,
                start - budget / 2,
                start - budget,
            )
        };
        match found {
            Some(f) => {
                log!(
                    "ply {} depth {} nodes {} score {} fuel {}",
                    p.ply(),
                    f.depth,
                    self.search.nodes,
                    f.score,
                    start - fuel::fuel_left()
                );
                f.best
            }
            // The host never asks without a legal move; any readable answer will do.
            None => {
                let a1 = Square::from_index(0).expect("a1 is a square");
                Move::new(a1, a1)
            }
        }
    }
}

export_jungle_agent!(SearchAgent);
