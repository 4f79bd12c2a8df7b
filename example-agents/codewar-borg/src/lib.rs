//! The crawling borg (Perlwar's `$pos = 1; s/\d+/$&+1/e; return "^$pos";`): claims the cell
//! `k` ahead, then writes itself back with `k + 1`, so that each visit claims a cell further
//! away (back to 1 past the end of the Array). The counter lives in the module's own bytes, in
//! its `codewar.state` section.
#![no_std]

use arena_agent_sdk::codewar::{load_state, size, store_state, Instruction};

arena_agent_sdk::codewar_state!([1, 0]);

pub fn run() -> Instruction {
    let mut state = [1, 0];
    load_state(&mut state);
    let k = u16::from_le_bytes(state).max(1);
    let next = if usize::from(k) + 1 >= size() {
        1
    } else {
        k + 1
    };
    store_state(&next.to_le_bytes());
    Instruction::Claim(k as i16)
}

arena_agent_sdk::export_codewar_agent!(run);

#[cfg(test)]
mod tests {
    extern crate std;
    use std::{vec, vec::Vec};

    use super::*;
    use arena_agent_sdk::codewar::native::{visit, Cell, Visit};
    use arena_agent_sdk::codewar::{find_state, with_state};

    fn module(k: u16) -> Vec<u8> {
        let mut out = vec![0u8; 64];
        let n = with_state(b"\0asm\x01\0\0\0", &k.to_le_bytes(), &mut out).unwrap();
        out.truncate(n);
        out
    }

    fn counter(m: &[u8]) -> u16 {
        let c = &m[find_state(m).unwrap().1];
        u16::from_le_bytes([c[0], c[1]])
    }

    #[test]
    fn claims_further_and_further_away() {
        let mut bytes = module(1);
        let mut claimed = Vec::new();
        for _ in 0..6 {
            let mut cells = vec![None; 5];
            cells[0] = Some(Cell {
                bytes: bytes.clone(),
                facade: 0,
            });
            let (i, after) = visit(
                Visit {
                    cells,
                    ..Visit::default()
                },
                run,
            );
            claimed.push(i);
            bytes = after.own.unwrap();
        }
        use Instruction::Claim;
        assert_eq!(
            claimed,
            [Claim(1), Claim(2), Claim(3), Claim(4), Claim(1), Claim(2)]
        );
        assert_eq!(counter(&bytes), 3);
    }
}
