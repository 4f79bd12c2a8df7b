//! Random: a uniformly random turn among those that do not die at once, drawn from the seed the
//! host gives at `arena_init`, so a replay of the game repeats it.
//!
//! A turn "dies at once" when the cell it enters is off the grid, a wall or a trail. Among the
//! turns that do not, it prefers those into a cell no other head can enter in the same tick (two
//! heads entering one cell both die); when every turn dies, it goes straight.
#![no_std]

use arena_agent_sdk::lightcycles::Turn;
use arena_agent_sdk::{
    export_lightcycles_agent, InitContext, LightcyclesAgent, LightcyclesView, Rng,
};

/// The agent's whole state: the generator, seeded at `arena_init`.
#[derive(Default)]
pub struct Random {
    rng: Rng,
}

impl LightcyclesAgent for Random {
    fn init(&mut self, ctx: &InitContext) {
        self.rng = Rng::new(ctx.seed);
    }

    fn choose_turn(&mut self, view: &LightcyclesView) -> Turn {
        let (state, seat) = (&view.state, view.seat);
        let mut safe = [Turn::Straight; 3];
        let mut free = [Turn::Straight; 3];
        let (mut n_safe, mut n_free) = (0, 0);
        for turn in Turn::ALL {
            let target = state.target(seat, turn);
            if let Some(cell) = target.filter(|&c| state.grid().is_free(c)) {
                free[n_free] = turn;
                n_free += 1;
                if !state.contested(seat, cell) {
                    safe[n_safe] = turn;
                    n_safe += 1;
                }
            }
        }
        let list = if n_safe > 0 {
            &safe[..n_safe]
        } else {
            &free[..n_free]
        };
        self.rng.choose(list).unwrap_or(Turn::Straight)
    }
}

export_lightcycles_agent!(Random);

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use arena_agent_sdk::lightcycles::picture::parse;
    use arena_agent_sdk::lightcycles::Dir;
    use arena_agent_sdk::LightcyclesClock;

    fn view(picture: &str, headings: &[Dir], seat: usize) -> LightcyclesView {
        let state = parse(picture, headings, 300).expect("a picture");
        LightcyclesView {
            seat,
            players: headings.len(),
            tick: 1,
            state,
            clock: LightcyclesClock::default(),
        }
    }

    #[test]
    fn never_into_a_wall_or_trail_when_a_cell_is_free() {
        // Seat 0 heads north: the wall is ahead and seat 1's trail to its left: only the right
        // is free.
        let v = view(
            "
            ........
            ...#....
            ..bA....
            ..b.....
            ..B.....
            ........
            ........
            ........",
            &[Dir::North, Dir::South],
            0,
        );
        let mut a = Random { rng: Rng::new(3) };
        for _ in 0..100 {
            assert_eq!(a.choose_turn(&v), Turn::Right);
        }
    }

    #[test]
    fn away_from_a_cell_another_head_can_enter_and_the_seed_decides() {
        // Seat 0 heads east; seat 1's head can enter the cell ahead of it (turning left): left
        // and right are chosen, about half each, never straight.
        let v = view(
            "
            ........
            ........
            ........
            ..A.B...
            ........
            ........
            ........
            ........",
            &[Dir::East, Dir::North],
            0,
        );
        let mut a = Random { rng: Rng::new(11) };
        let picks: std::vec::Vec<Turn> = (0..400).map(|_| a.choose_turn(&v)).collect();
        let lefts = picks.iter().filter(|&&t| t == Turn::Left).count();
        assert!(picks.iter().all(|&t| t != Turn::Straight));
        assert!((150..=250).contains(&lefts), "{lefts}");
        let mut b = Random { rng: Rng::new(11) };
        assert!(picks.iter().all(|&t| t == b.choose_turn(&v)));
    }

    #[test]
    fn straight_on_when_every_turn_dies() {
        let v = view(
            "
            ........
            ..###...
            ..#A#...
            ..#a#...
            ..#.....
            ........
            ......B.
            ........",
            &[Dir::North, Dir::North],
            0,
        );
        assert_eq!(Random { rng: Rng::new(0) }.choose_turn(&v), Turn::Straight);
    }
}
