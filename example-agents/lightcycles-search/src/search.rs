//! Alpha-beta over Voronoi territory, for two cycles. The ticks are simultaneous, but the search
//! lets the opponent answer knowing this cycle's turn (a cautious reading: what it finds holds
//! whatever the opponent does). A pair of turns is one level; a level resolves both moves at
//! once with the rules' collisions (a wall or a trail, the same cell, a swap), and a leaf is
//! scored by [`territory`]: the cells this cycle reaches first less the opponent's (its Voronoi
//! region), eight times that once the two are cut off from each other.

use arena_agent_sdk::fuel;
use arena_agent_sdk::lightcycles::{Dir, Pos, State, Turn};

use crate::board::{territory, Board};

/// A won (or lost) position's score, less the levels it takes.
pub const WIN: i32 = 1_000_000;
/// Weight of a cell of territory once the cycles are cut off from each other (it is then theirs
/// to fill, not merely nearer).
pub const CUT_OFF: i32 = 8;
/// Native stand-in for the fuel of a level (both moves made and unmade, collisions judged).
pub const NODE_FUEL: i64 = 350;
/// Native stand-in for the fuel of a leaf's evaluation, besides [`ROW_FUEL`] per row and step.
pub const EVAL_FUEL: i64 = 1_000;
/// Native stand-in for the fuel of one row at one step of an evaluation's breadth-first search.
pub const ROW_FUEL: i64 = 240;

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub turn: Turn,
    pub score: i32,
    /// The depth, in levels, of the last iteration the turn comes from.
    pub depth: u32,
}

/// A cycle: its head and its heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Head {
    at: Pos,
    heading: Dir,
}

pub struct Search {
    board: Board,
    me: Head,
    them: Head,
    /// Levels searched in the last decision.
    pub nodes: u64,
    /// Leaves evaluated in the last decision.
    pub leaves: u64,
    /// Rows the evaluations of the last decision went over, step by step.
    pub rows: u64,
    /// Stop when `fuel_left()` falls below this.
    stop_below: i64,
    out_of_fuel: bool,
}

impl Default for Search {
    fn default() -> Search {
        let empty = arena_agent_sdk::lightcycles::Grid::new(8, 8).expect("a grid");
        let nowhere = Head {
            at: Pos::new(0, 0),
            heading: Dir::North,
        };
        Search {
            board: Board::new(&empty),
            me: nowhere,
            them: nowhere,
            nodes: 0,
            leaves: 0,
            rows: 0,
            stop_below: i64::MIN,
            out_of_fuel: false,
        }
    }
}

impl Search {
    /// Sets the board up for `seat` against `opponent` in `state` (the other cycles' trails are
    /// walls to it).
    pub fn set(&mut self, state: &State, seat: usize, opponent: usize) {
        self.board = Board::new(state.grid());
        let head = |s: usize| {
            let c = state.cycle(s);
            Head {
                at: c.head,
                heading: c.heading,
            }
        };
        self.me = head(seat);
        self.them = head(opponent);
    }

    /// Whether the two cycles are cut off from each other.
    pub fn cut_off(&mut self) -> bool {
        let t = territory(&self.board, self.me.at, self.them.at);
        fuel::spend(EVAL_FUEL + ROW_FUEL * i64::from(t.steps));
        !t.contact
    }

    /// Iterative deepening from one level up to `max_depth`, over the turns in `order` (the
    /// first kept on ties): a deeper iteration starts only while `fuel_left()` is at least
    /// `deepen_above`, and the search stops, in the middle of an iteration if need be, when it
    /// falls below `stop_below`. The result is the best turn of the last iteration that
    /// finished, or of the unfinished one when it finished its first turn (the previous best)
    /// and found a better one. `None` when not even the first level finished.
    pub fn run(
        &mut self,
        order: [Turn; 3],
        max_depth: u32,
        deepen_above: i64,
        stop_below: i64,
    ) -> Option<Found> {
        self.nodes = 0;
        self.leaves = 0;
        self.rows = 0;
        self.stop_below = stop_below;
        self.out_of_fuel = false;
        let mut order = order;
        let mut found: Option<Found> = None;
        for depth in 1..=max_depth {
            if depth > 1 && fuel::fuel_left() < deepen_above {
                break;
            }
            let mut best: Option<Found> = None;
            let mut alpha = -WIN - 1;
            for &turn in order.iter() {
                let score = self.reply(turn, depth, 1, alpha, WIN + 1);
                if self.out_of_fuel {
                    break;
                }
                if best.is_none_or(|b| score > b.score) {
                    best = Some(Found { turn, score, depth });
                    alpha = alpha.max(score);
                }
            }
            // An unfinished iteration counts once it has finished its first turn, the previous
            // iteration's best, against which the others were measured. The first iteration has
            // no such turn: it counts only when finished (a turn that dies at once finishes
            // first and fastest, and must not win for lack of fuel to look at the others).
            if self.out_of_fuel && depth == 1 {
                break;
            }
            if let Some(b) = best {
                found = Some(b);
                let at = order.iter().position(|&t| t == b.turn).unwrap_or(0);
                order[..=at].rotate_right(1);
            }
            let decided = found.is_some_and(|f| f.score.abs() >= WIN - 1_000);
            if self.out_of_fuel || decided {
                break;
            }
        }
        found
    }

    /// This cycle's `turn`, then the opponent's best reply: the lowest score over its turns.
    fn reply(&mut self, turn: Turn, depth: u32, level: u32, alpha: i32, mut beta: i32) -> i32 {
        let my_heading = self.me.heading.turned(turn);
        let mine = self.board.step(self.me.at, my_heading);
        let mut best = WIN + 1;
        for their_turn in Turn::ALL {
            let their_heading = self.them.heading.turned(their_turn);
            let theirs = self.board.step(self.them.at, their_heading);
            self.nodes += 1;
            fuel::spend(NODE_FUEL);
            // A head leaving the grid or entering a taken cell dies (a swap is entering the
            // other's head); two heads entering one cell both die.
            let same = mine.is_some() && mine == theirs;
            let i_die = same || !mine.is_some_and(|c| self.board.is_free(c));
            let they_die = same || !theirs.is_some_and(|c| self.board.is_free(c));
            let score = if i_die || they_die {
                match (i_die, they_die) {
                    (true, true) => 0,
                    (true, false) => -WIN + level as i32,
                    _ => WIN - level as i32,
                }
            } else if let (Some(mine), Some(theirs)) = (mine, theirs) {
                let (me, them) = (self.me, self.them);
                self.board.take(mine);
                self.board.take(theirs);
                self.me = Head {
                    at: mine,
                    heading: my_heading,
                };
                self.them = Head {
                    at: theirs,
                    heading: their_heading,
                };
                let score = if depth == 1 {
                    self.evaluate()
                } else {
                    self.best(depth - 1, level + 1, alpha, beta)
                };
                self.me = me;
                self.them = them;
                self.board.release(mine);
                self.board.release(theirs);
                score
            } else {
                unreachable!("a head off the grid dies")
            };
            if self.out_of_fuel {
                return 0;
            }
            best = best.min(score);
            beta = beta.min(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The best of this cycle's turns at `depth` more levels.
    fn best(&mut self, depth: u32, level: u32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -WIN - 1;
        for turn in [Turn::Straight, Turn::Left, Turn::Right] {
            let score = self.reply(turn, depth, level, alpha, beta);
            if self.out_of_fuel {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// A leaf's score: the territory difference, weighted when the cycles are cut off.
    fn evaluate(&mut self) -> i32 {
        self.leaves += 1;
        let t = territory(&self.board, self.me.at, self.them.at);
        self.rows += u64::from(t.steps);
        fuel::spend(EVAL_FUEL + ROW_FUEL * i64::from(t.steps));
        if fuel::fuel_left() < self.stop_below {
            self.out_of_fuel = true;
        }
        let diff = t.mine - t.theirs;
        if t.contact {
            diff
        } else {
            CUT_OFF * diff
        }
    }
}
