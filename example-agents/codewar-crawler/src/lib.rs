//! The crawler (Perlwar's `return ":1"`): copies itself into the next cell. A copy runs from the
//! next iteration, so a row of crawlers grows by one cell per iteration at its front, and a copy
//! onto another player's agent fails.
#![no_std]

use arena_agent_sdk::codewar::Instruction;

pub fn run() -> Instruction {
    Instruction::Copy(0, 1)
}

arena_agent_sdk::export_codewar_agent!(run);
