//! {{name}}: a Jungle agent (made by `arena new --game jungle`).
//!
//! It looks one move ahead: it enters the enemy den when it can, otherwise it takes the most
//! valuable piece it can, otherwise it steps a piece toward the enemy den (the nearest first),
//! and it avoids squares where the opponent could take the piece at once; ties are broken at
//! random. Edit `choose_move` to make it yours: `view.position`
//! is the rules' position (`legal_moves`, `make`, `unmake`, `outcome`, the same rules as the
//! host's), and `fuel::fuel_left()` says how much fuel this decision has left, for a search
//! that deepens until its share of the fuel clock is spent (docs/ABI.md, "The fuel clock").
//!
//! Build: cargo build --release --target wasm32-unknown-unknown
//! Check: arena check target/wasm32-unknown-unknown/release/{{lib}}.wasm
#![no_std]

use arena_agent_sdk::jungle::{Move, Position, Side, Square, DENS};
use arena_agent_sdk::{export_jungle_agent, log, InitContext, JungleAgent, JungleView, Rng};

pub struct Agent {
    rng: Rng,
}

impl Default for Agent {
    fn default() -> Agent {
        Agent { rng: Rng::new(0) }
    }
}

/// Steps from `sq` to the den of the side `defender` (as if there were no water).
fn distance(sq: Square, defender: Side) -> i32 {
    let den = Square::from_index(DENS[defender.index()].trailing_zeros() as u8).expect("a den");
    (sq.file() as i32 - den.file() as i32).abs() + (sq.rank() as i32 - den.rank() as i32).abs()
}

/// True when the opponent, to move in `after`, can take the piece on `sq`.
fn attacked(after: &Position, sq: Square) -> bool {
    after.legal_moves().iter().any(|m| m.to == sq)
}

impl JungleAgent for Agent {
    fn init(&mut self, ctx: &InitContext) {
        self.rng = Rng::new(ctx.seed);
    }

    fn choose_move(&mut self, view: &JungleView) -> Move {
        let pos = view.position;
        let me = pos.side_to_move();
        let mut best = (i32::MIN, view.legal[0]);
        for &mv in view.legal.iter() {
            let after = pos.after(mv);
            if after.outcome(u32::MAX).is_some_and(|o| o.winner() == Some(me)) {
                log!("winning with {}", mv);
                return mv;
            }
            let rank = |sq| pos.piece_at(sq).map_or(0, |p| p.kind.rank() as i32);
            let (before, now) = (distance(mv.from, me.opponent()), distance(mv.to, me.opponent()));
            // Captures first, then steps toward the den (the nearer the piece, the better).
            let mut score = 100 * rank(mv.to) + 10 * (before - now) - now;
            if attacked(&after, mv.to) {
                score -= 100 * rank(mv.from);
            }
            // A little noise breaks ties at random.
            score = score * 4 + self.rng.below(4) as i32;
            if score > best.0 {
                best = (score, mv);
            }
        }
        best.1
    }
}

export_jungle_agent!(Agent);
