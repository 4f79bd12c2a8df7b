//! The spy: shows the next player's facade (its true owner stays, and counts), then copies
//! itself one cell ahead; its copies show the same facade. Agents that spare cells showing their
//! own player's facade (the poisoner) spare it.
#![no_std]

use arena_agent_sdk::codewar::{owner, players, set_facade, Instruction};

pub fn run() -> Instruction {
    let n = players();
    if n > 1 {
        set_facade((owner() + 1) % n);
    }
    Instruction::Copy(0, 1)
}

arena_agent_sdk::export_codewar_agent!(run);

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec;

    use super::*;
    use arena_agent_sdk::codewar::native::{visit, Visit};

    #[test]
    fn shows_the_next_players_facade() {
        let v = Visit {
            cells: vec![None; 3],
            owner: 2,
            players: 3,
            ..Visit::default()
        };
        let (i, after) = visit(v, run);
        assert_eq!((i, after.facade), (Instruction::Copy(0, 1), Some(0)));
    }
}
