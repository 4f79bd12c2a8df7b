//! The berserker (Perlwar's `return '!'.1+int(rand(@_))`, without its precedence bug): nukes a
//! random cell other than its own, friend or foe.
#![no_std]

use arena_agent_sdk::codewar::{random, size, Instruction};

pub fn run() -> Instruction {
    let others = size().saturating_sub(1).max(1) as u32;
    Instruction::Nuke((1 + random(others)) as i16)
}

arena_agent_sdk::export_codewar_agent!(run);

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec;

    use super::*;
    use arena_agent_sdk::codewar::native::{visit, Visit};

    #[test]
    fn nukes_a_cell_other_than_its_own() {
        for r in [0, 5, 98] {
            let v = Visit {
                cells: vec![None; 100],
                randoms: vec![r],
                ..Visit::default()
            };
            let (i, _) = visit(v, run);
            assert_eq!(i, Instruction::Nuke(1 + r as i16));
        }
    }
}
