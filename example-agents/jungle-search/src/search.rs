//! Alpha-beta (negamax) with iterative deepening, a quiescence search over captures and den
//! threats, and move ordering (the previous iteration's principal variation, den entries,
//! captures by most valuable victim / least valuable attacker, killer moves, history). It stops
//! when the fuel left for the decision falls below a mark, checked every [`CHECK_EVERY`] nodes.

use arena_agent_sdk::fuel;
use arena_agent_sdk::jungle::{Move, MoveList, Position, DRAW_PLIES, MAX_MOVES};

use crate::eval::{evaluate, DEN_DOORS, VALUE};

/// A won game's score at the root; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = MATE + 1;
/// Deepest ply the search reaches (main search and quiescence together).
pub const MAX_PLY: usize = 64;
/// Most plies of quiescence below the main search's leaves (den-threat answers go on).
const QUIESCENCE_DEPTH: u32 = 8;
/// Nodes between two looks at the fuel left.
pub const CHECK_EVERY: u64 = 64;
/// What one node is charged natively, standing in for its fuel on wasm32 (see `fuel::spend`):
/// about what a node costs in the sandbox (2,337 on average over a self-play game of the
/// `wasm-agent` build under wasmtime 48's fuel metering; see the README).
pub const NODE_FUEL: i64 = 2_400;

/// The search's state across one decision (and its tables across decisions).
pub struct Search {
    /// Nodes searched in this decision.
    pub nodes: u64,
    stop_below: i64,
    stopped: bool,
    ply_cap: u32,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: [[u32; 63]; 63],
    pv: [[Option<Move>; MAX_PLY]; MAX_PLY],
    pv_len: [usize; MAX_PLY],
    /// The previous iteration's principal variation, followed first.
    prev_pv: [Option<Move>; MAX_PLY],
    prev_pv_len: usize,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            nodes: 0,
            stop_below: i64::MIN,
            stopped: false,
            ply_cap: u32::MAX,
            killers: [[None; 2]; MAX_PLY],
            history: [[0; 63]; 63],
            pv: [[None; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            prev_pv: [None; MAX_PLY],
            prev_pv_len: 0,
        }
    }
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub best: Move,
    pub score: i32,
    /// The deepest iteration completed (0 if none was).
    pub depth: u32,
}

impl Search {
    /// Searches `root` by iterative deepening until `max_depth`, a forced result, or the fuel
    /// left falls below `stop_below` (checked every [`CHECK_EVERY`] nodes), and stops deepening
    /// once `deepen_below` is passed (a new iteration would not finish in time). `order` is the
    /// root moves in the order to try first (a seeded shuffle breaks ties between equal moves).
    /// `None` only without a legal move.
    pub fn run(
        &mut self,
        root: &Position,
        order: &MoveList,
        ply_cap: u32,
        max_depth: u32,
        deepen_below: i64,
        stop_below: i64,
    ) -> Option<Found> {
        let mut moves = *order;
        let p = *root;
        // Root order: the tactical ones first, the seeded order otherwise.
        self.order(&p, moves.as_mut_slice(), 0, None);
        let mut found = Found {
            best: *moves.first()?,
            score: 0,
            depth: 0,
        };
        self.nodes = 0;
        self.stopped = false;
        self.stop_below = stop_below;
        self.ply_cap = ply_cap;
        self.killers = [[None; 2]; MAX_PLY];
        self.prev_pv_len = 0;
        for h in self.history.iter_mut().flatten() {
            *h /= 8;
        }
        let mut p = p;
        for depth in 1..=max_depth.min(MAX_PLY as u32 / 2) {
            let Some((best, score)) = self.root(&mut p, moves.as_mut_slice(), depth) else {
                break;
            };
            found.best = best;
            found.score = score;
            if self.stopped {
                break;
            }
            found.depth = depth;
            self.prev_pv = self.pv[0];
            self.prev_pv_len = self.pv_len[0];
            if score.abs() > MATE_BOUND || fuel::fuel_left() < deepen_below {
                break;
            }
        }
        Some(found)
    }

    /// One iteration at the root; moves the best move to the front. `None` if stopped before
    /// the first move was searched to the end.
    fn root(&mut self, p: &mut Position, moves: &mut [Move], depth: u32) -> Option<(Move, i32)> {
        let mut alpha = -INFINITY;
        let mut best: Option<(usize, i32)> = None;
        self.pv_len[0] = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let undo = p.make(mv);
            let score = -self.negamax(p, depth as i32 - 1, -INFINITY, -alpha, 1);
            p.unmake(mv, undo);
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some((i, score));
                self.set_pv(0, mv);
            }
        }
        let (i, score) = best?;
        // Best first for the next iteration, the others keep their order.
        moves[..=i].rotate_right(1);
        Some((moves[0], score))
    }

    fn set_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = Some(mv);
        let next = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..next {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = next;
    }

    /// Counts a node and looks at the fuel now and then.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        fuel::spend(NODE_FUEL);
        if self.nodes.is_multiple_of(CHECK_EVERY) && fuel::fuel_left() < self.stop_below {
            self.stopped = true;
        }
    }

    /// The score of a finished game, or of a draw by the rules, for the side to move at `ply`.
    fn terminal(&self, p: &Position, ply: usize) -> Option<i32> {
        let us = p.side_to_move();
        if p.den_entered() || p.count(us) == 0 {
            return Some(-(MATE - ply as i32));
        }
        if p.plies_since_capture() >= DRAW_PLIES || p.ply() >= self.ply_cap {
            return Some(0);
        }
        // A piece next to the enemy den walks in.
        if p.pieces(us) & DEN_DOORS[us.opponent().index()] != 0 {
            return Some(MATE - ply as i32 - 1);
        }
        None
    }

    fn negamax(
        &mut self,
        p: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = ply;
        self.tick();
        if self.stopped {
            return 0;
        }
        if let Some(score) = self.terminal(p, ply) {
            return score;
        }
        if depth <= 0 || ply + 1 >= MAX_PLY {
            return self.quiesce(p, alpha, beta, ply, 0);
        }
        let mut moves = p.legal_moves();
        if moves.is_empty() {
            return -(MATE - ply as i32);
        }
        let pv_move = if ply < self.prev_pv_len {
            self.prev_pv[ply]
        } else {
            None
        };
        self.order(p, moves.as_mut_slice(), ply, pv_move);
        let mut best = -INFINITY;
        for &mv in &moves {
            let capture = p.piece_at(mv.to).is_some();
            let undo = p.make(mv);
            let score = -self.negamax(p, depth - 1, -beta, -alpha, ply + 1);
            p.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if alpha >= beta {
                        if !capture {
                            self.remember_quiet(mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        best
    }

    fn quiesce(&mut self, p: &mut Position, mut alpha: i32, beta: i32, ply: usize, q: u32) -> i32 {
        self.pv_len[ply] = ply;
        self.tick();
        if self.stopped {
            return 0;
        }
        if let Some(score) = self.terminal(p, ply) {
            return score;
        }
        let us = p.side_to_move();
        // Enemy pieces next to our den: only taking them can stop the den being entered.
        let threats = p.pieces(us.opponent()) & DEN_DOORS[us.index()];
        let mut moves = p.legal_moves();
        if moves.is_empty() {
            return -(MATE - ply as i32);
        }
        let mut best;
        let mut tactical = MoveList::new();
        if threats != 0 {
            for &mv in &moves {
                if threats & mv.to.bit() != 0 {
                    tactical.push(mv);
                }
            }
            if tactical.is_empty() {
                return -(MATE - ply as i32 - 1);
            }
            best = -INFINITY;
        } else {
            best = evaluate(p);
            if best >= beta || q >= QUIESCENCE_DEPTH || ply + 1 >= MAX_PLY {
                return best;
            }
            alpha = alpha.max(best);
            for &mv in &moves {
                if p.piece_at(mv.to).is_some() {
                    tactical.push(mv);
                }
            }
        }
        if ply + 1 >= MAX_PLY {
            return evaluate(p);
        }
        moves = tactical;
        self.order(p, moves.as_mut_slice(), ply, None);
        for &mv in &moves {
            let undo = p.make(mv);
            let score = -self.quiesce(p, -beta, -alpha, ply + 1, q + 1);
            p.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn remember_quiet(&mut self, mv: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let h = &mut self.history[mv.from.index()][mv.to.index()];
        *h = h.saturating_add((depth * depth) as u32);
    }

    /// Sorts `moves` best first: the principal variation's move, den entries, captures (most
    /// valuable victim, then least valuable attacker), killers, then by history. The sort is
    /// stable, so equal moves keep their order.
    fn order(&self, p: &Position, moves: &mut [Move], ply: usize, pv_move: Option<Move>) {
        let them = p.side_to_move().opponent();
        let den = if them.index() == 0 { 3 } else { 59 };
        let mut keyed = [(0i64, None::<Move>); MAX_MOVES];
        for (slot, &mv) in keyed.iter_mut().zip(moves.iter()) {
            let key = if Some(mv) == pv_move {
                4_000_000
            } else if mv.to.index() == den {
                3_000_000
            } else if let Some(victim) = p.piece_at(mv.to) {
                let attacker = p.piece_at(mv.from).map_or(0, |a| VALUE[a.kind as usize]);
                2_000_000 + 1_000 * VALUE[victim.kind as usize] as i64 - attacker as i64
            } else if self.killers[ply][0] == Some(mv) {
                1_500_000
            } else if self.killers[ply][1] == Some(mv) {
                1_400_000
            } else {
                self.history[mv.from.index()][mv.to.index()].min(1_000_000) as i64
            };
            *slot = (key, Some(mv));
        }
        let keyed = &mut keyed[..moves.len()];
        // Insertion sort: a few dozen moves at most, and stable.
        for i in 1..keyed.len() {
            let mut j = i;
            while j > 0 && keyed[j - 1].0 < keyed[j].0 {
                keyed.swap(j - 1, j);
                j -= 1;
            }
        }
        for (mv, &(_, k)) in moves.iter_mut().zip(keyed.iter()) {
            if let Some(k) = k {
                *mv = k;
            }
        }
    }
}
