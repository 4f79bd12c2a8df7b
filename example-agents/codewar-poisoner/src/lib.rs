//! The neighbour poisoner (Perlwar's `$_[1] =~ s//return "!"/; return "~1";`): when the next
//! cell shows another player's facade, it stages a module that empties its own cell and updates
//! the neighbour with it, which then dies at its next run (in this very iteration, since it comes
//! next); into an empty next cell it copies itself; a neighbour showing its own player's facade
//! (a friend, or an enemy in disguise) is left alone.
#![no_std]

use arena_agent_sdk::codewar::{facade, owner, stage, Instruction};

/// `(module (func (export "codewar_run") (result i64) i64.const 0x2_0000_0000))`: an agent
/// that nukes its own cell.
pub const SUICIDE: [u8; 48] = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // header
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7e, // type section: () -> i64
    0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
    0x07, 0x0f, 0x01, 0x0b, b'c', b'o', b'd', b'e', b'w', b'a', b'r', b'_', b'r', b'u', b'n', 0x00,
    0x00, // export section: "codewar_run", function 0
    0x0a, 0x0a, 0x01, 0x08, 0x00, 0x42, 0x80, 0x80, 0x80, 0x80, 0x20,
    0x0b, // code section: i64.const 0x2_0000_0000, end
];

pub fn run() -> Instruction {
    match facade(1) {
        None => Instruction::Copy(0, 1),
        Some(f) if f != owner() => {
            stage(1, &SUICIDE);
            Instruction::Update(1)
        }
        Some(_) => Instruction::Noop,
    }
}

arena_agent_sdk::export_codewar_agent!(run);

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec;

    use super::*;
    use arena_agent_sdk::codewar::native::{visit, Cell, Visit};

    fn around(next: Option<usize>) -> Visit {
        let mut cells = vec![None; 4];
        cells[0] = Some(Cell {
            bytes: vec![1],
            facade: 0,
        });
        cells[1] = next.map(|facade| Cell {
            bytes: vec![2],
            facade,
        });
        Visit {
            cells,
            owner: 0,
            players: 2,
            ..Visit::default()
        }
    }

    #[test]
    fn poisons_enemies_spreads_into_empty_cells_and_spares_friends() {
        let (i, v) = visit(around(Some(1)), run);
        assert_eq!(i, Instruction::Update(1));
        assert_eq!(v.staged, Some((1, SUICIDE.to_vec())));
        assert_eq!(visit(around(None), run).0, Instruction::Copy(0, 1));
        let (i, v) = visit(around(Some(0)), run);
        assert_eq!((i, v.staged), (Instruction::Noop, None));
    }
}
