//! {{name}}: a code war agent (docs/CODEWAR.md). It lives in a cell of the Array and runs once
//! per iteration, each time in a fresh instance: it keeps nothing between runs but its own bytes.
//!
//! This one is a crawling borg that also spreads: it claims the cell `step` ahead (a cell further
//! away at each visit, the counter kept in its own `codewar.state` section) and copies itself
//! into the next cell when that one is empty. Change `run` to change its strategy.
#![no_std]

use arena_agent_sdk::codewar::{
    facade, load_state, owner, size, store_state, Instruction,
};

// The agent's state: two bytes in its own module, read and written back every visit.
arena_agent_sdk::codewar_state!([1, 0]);

pub fn run() -> Instruction {
    // An empty next cell: copy itself there (the copy runs from the next iteration).
    if facade(1).is_none() {
        return Instruction::Copy(0, 1);
    }
    let mut state = [1, 0];
    load_state(&mut state);
    let step = u16::from_le_bytes(state).max(1);
    let next = if usize::from(step) + 1 >= size() { 1 } else { step + 1 };
    store_state(&next.to_le_bytes());
    // Leave alone a cell that shows our own player's facade; claim the others.
    if facade(i32::from(step)) == Some(owner()) {
        return Instruction::Noop;
    }
    Instruction::Claim(step as i16)
}

arena_agent_sdk::export_codewar_agent!(run);
