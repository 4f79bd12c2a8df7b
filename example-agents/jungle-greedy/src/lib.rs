//! Greedy: looks one move ahead, and one reply.
//!
//! 1. A move that wins at once (into the enemy den, taking the last enemy piece, leaving the
//!    opponent no legal move) is played.
//! 2. Moves after which the opponent can win at once are dropped, unless every move is such.
//! 3. Of the rest, the capture of the highest-ranked piece (elephant 8 … rat 1), with the
//!    lowest-ranked attacker on a tie;
//! 4. otherwise the move that brings its piece closest to the enemy den (the largest drop in
//!    distance, counted in steps as if there were no water).
//!
//! Ties left are broken at random from the agent's seed.
#![no_std]

use arena_agent_sdk::jungle::{Move, MoveList, Outcome, Position, Side, Square};
use arena_agent_sdk::{export_jungle_agent, InitContext, JungleAgent, JungleView, Rng};

pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    pub const fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::new(seed),
        }
    }
}

impl Default for Greedy {
    fn default() -> Self {
        Greedy::new(0)
    }
}

/// True if the side that just moved into `after` has won.
fn won(after: &Position, ply_cap: u32) -> bool {
    matches!(after.outcome(ply_cap), Some(Outcome::Win { winner, .. }) if winner != after.side_to_move())
}

/// True if the side to move in `p` has a move that wins at once.
pub fn can_win_now(p: &Position, ply_cap: u32) -> bool {
    p.legal_moves().iter().any(|&m| won(&p.after(m), ply_cap))
}

/// Steps from `sq` to the den `side` attacks, ignoring the water.
pub fn den_distance(sq: Square, side: Side) -> u32 {
    let (den_file, den_rank) = match side {
        Side::First => (3, 8),
        Side::Second => (3, 0),
    };
    (sq.file() as i32 - den_file).unsigned_abs() + (sq.rank() as i32 - den_rank).unsigned_abs()
}

/// The greedy choice in `p` (see the crate documentation); `None` without a legal move.
pub fn choose(p: &Position, ply_cap: u32, rng: &mut Rng) -> Option<Move> {
    let moves = p.legal_moves();
    if let Some(&m) = moves.iter().find(|&&m| won(&p.after(m), ply_cap)) {
        return Some(m);
    }
    let mut safe = MoveList::new();
    for &m in &moves {
        if !can_win_now(&p.after(m), ply_cap) {
            safe.push(m);
        }
    }
    let pool = if safe.is_empty() { &moves } else { &safe };
    let side = p.side_to_move();
    // Scores compare as tuples: (captured rank, -attacker rank) for captures, which beat every
    // quiet move; (distance gained, -distance left) for quiet moves.
    let score = |m: Move| -> (i32, i32, i32) {
        let mover = p.piece_at(m.from).map_or(0, |q| q.kind.rank() as i32);
        match p.piece_at(m.to) {
            Some(victim) => (1, victim.kind.rank() as i32 * 16 - mover, 0),
            None => {
                let before = den_distance(m.from, side) as i32;
                let after = den_distance(m.to, side) as i32;
                (0, before - after, -after)
            }
        }
    };
    let best = pool.iter().map(|&m| score(m)).max()?;
    let ties = pool.iter().filter(|&&m| score(m) == best).count();
    let pick = rng.below(ties as u64) as usize;
    pool.iter().copied().filter(|&m| score(m) == best).nth(pick)
}

impl JungleAgent for Greedy {
    fn init(&mut self, ctx: &InitContext) {
        self.rng = Rng::new(ctx.seed);
    }

    fn choose_move(&mut self, view: &JungleView) -> Move {
        match choose(&view.position, view.ply_cap, &mut self.rng) {
            Some(m) => m,
            // The host never asks without a legal move; any readable answer will do.
            None => {
                let a1 = Square::from_index(0).expect("a1 is a square");
                Move::new(a1, a1)
            }
        }
    }
}

export_jungle_agent!(Greedy);

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(text: &str) -> Move {
        let p = Position::parse(text).unwrap();
        choose(&p, u32::MAX, &mut Rng::new(1)).unwrap()
    }

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap()
    }

    #[test]
    fn wins_at_once() {
        // The wolf on d8 enters the den rather than take the cat on c8.
        assert_eq!(pick("6t/2cW3/7/7/7/7/7/7/L6 w"), mv("d8d9"));
        // With the cat the last enemy piece, taking it wins too (and comes first in the list).
        assert_eq!(pick("7/2cW3/7/7/7/7/7/7/L6 w"), mv("d8c8"));
    }

    #[test]
    fn takes_the_most_valuable_piece() {
        // The lion on d2, between the second player's dog (c2) and leopard (e2), takes the
        // leopard.
        assert_eq!(pick("7/7/7/7/7/7/7/2dLp2/T5t w"), mv("d2e2"));
        // The tiger (c3) and the lion (d2) may both take the leopard on c2: the tiger does.
        assert_eq!(pick("7/7/7/7/7/7/2T4/2pL3/6t w"), mv("c3c2"));
    }

    #[test]
    fn avoids_an_immediate_loss() {
        // The second player's cat stands on d2 next to the first player's den; the first
        // player's dog on c2 must take it, although its lion could take the wolf on g5.
        assert_eq!(pick("6t/7/7/7/6w/6L/7/2Dc3/7 w"), mv("c2d2"));
    }

    #[test]
    fn walks_toward_the_den() {
        // Nothing to take: the elephant on a3 steps up or toward file d (either brings it one
        // step closer to d9); the seed picks one of them.
        let p = Position::parse("6t/7/7/7/7/7/E6/7/7 w").unwrap();
        let m = choose(&p, u32::MAX, &mut Rng::new(3)).unwrap();
        assert!(m == mv("a3a4") || m == mv("a3b3"), "{m}");
        // The lion prefers the jump (four steps at once).
        let p = Position::parse("6t/7/7/7/7/7/1L5/7/7 w").unwrap();
        assert_eq!(choose(&p, u32::MAX, &mut Rng::new(3)), Some(mv("b3b7")));
    }
}
