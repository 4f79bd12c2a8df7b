//! Random: plays a uniformly random legal move, drawn from the seed the host gives at
//! `arena_init`, so a replay of the game repeats it.
#![no_std]

use arena_agent_sdk::jungle::{Move, Square};
use arena_agent_sdk::{export_jungle_agent, InitContext, JungleAgent, JungleView, Rng};

/// The agent's whole state: the generator, seeded at `arena_init`.
#[derive(Default)]
pub struct Random {
    rng: Rng,
}

impl JungleAgent for Random {
    fn init(&mut self, ctx: &InitContext) {
        self.rng = Rng::new(ctx.seed);
    }

    fn choose_move(&mut self, view: &JungleView) -> Move {
        // The host's list is the rules' list; fall back on the rules if it came empty.
        let own;
        let moves: &[Move] = if view.legal.is_empty() {
            own = view.position.legal_moves();
            &own
        } else {
            &view.legal
        };
        // The host never asks without a legal move; any readable answer will do.
        self.rng.choose(moves).unwrap_or_else(|| {
            let a1 = Square::from_index(0).expect("a1 is a square");
            Move::new(a1, a1)
        })
    }
}

export_jungle_agent!(Random);

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use arena_abi::jungle::{Clock, Observation};
    use arena_abi::{game, Decision, Envelope, ABI_VERSION};
    use arena_agent_sdk::jungle::Position;
    use std::vec::Vec;

    fn view(p: &Position) -> JungleView {
        let env = Envelope {
            abi_version: ABI_VERSION,
            game: game::JUNGLE,
            decision: Decision::JungleMove,
            seat: 0,
            players: 2,
            turn: 1,
            round: 1,
            payload_len: 0,
        };
        JungleView::from_observation(&env, &Observation::new(p, 400, Clock::default(), &[]))
            .unwrap()
    }

    #[test]
    fn every_legal_move_comes_up_and_the_seed_decides() {
        let start = Position::start();
        let v = view(&start);
        let mut counts = [0u32; 24];
        let mut a = Random { rng: Rng::new(11) };
        let picks: Vec<Move> = (0..2400).map(|_| a.choose_move(&v)).collect();
        for m in &picks {
            let i = v.legal.iter().position(|l| l == m).expect("a legal move");
            counts[i] += 1;
        }
        // About 100 each.
        assert!(
            counts.iter().all(|&n| (60..=140).contains(&n)),
            "{counts:?}"
        );
        let mut b = Random { rng: Rng::new(11) };
        assert!(picks.iter().all(|&m| m == b.choose_move(&v)));
        let mut c = Random { rng: Rng::new(12) };
        assert!(picks.iter().take(20).any(|&m| m != c.choose_move(&v)));
    }
}
