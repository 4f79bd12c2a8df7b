//! What an instruction does where the agent's own changes and the Array meet, as
//! docs/CODEWAR.md ("Instructions") states it: bytes staged for the agent's own cell against its
//! new bytes, and which effect is recorded when two apply.

use codewar_rules::stages::{visit_one, Round};
use codewar_rules::{Array, Effect, Effects, Instruction, Run, View};

mod support;
use support::{cell, effect, sized, Code};

const ME: usize = 0;
const OTHER: usize = 1;

/// Visits cell 0, whose agent sets its own bytes to `own`, stages `staged` for its own cell, and
/// returns `instruction`; gives the effect recorded.
fn visit(
    array: &mut Array<Code>,
    own: Option<&[u8]>,
    staged: Option<&[u8]>,
    instruction: Instruction,
) -> Effect {
    let s = sized(10, 64);
    let round = Round {
        settings: &s,
        seed: 1,
        players: 2,
        iteration: 1,
        max_size: s.max_size,
    };
    let mut agent = |view: &View<Code>| Run::Returned {
        returned: instruction.encode(),
        effects: Effects {
            own: own.map(<[u8]>::to_vec),
            staged: staged.map(|b| (view.absolute(0), b.to_vec())),
            facade: None,
        },
    };
    effect(visit_one(array, round, 0, &mut agent))
}

fn array_with_me() -> Array<Code> {
    let mut a = Array::new(10);
    *a.slot_mut(0) = cell("me", ME);
    a
}

fn code(a: &Array<Code>, i: usize) -> Option<&[u8]> {
    a.get(i).map(|c| c.code.as_slice())
}

#[test]
fn bytes_staged_for_its_own_cell_win_over_its_new_bytes() {
    // copy 0→1 copies the staged bytes, not the new ones; the cell keeps the new ones.
    let mut a = array_with_me();
    let copy = Instruction::Copy { x: 0, y: 1 };
    assert_eq!(
        visit(&mut a, Some(b"new"), Some(b"staged"), copy),
        Effect::Done
    );
    assert_eq!(code(&a, 0), Some(&b"new"[..]));
    assert_eq!(code(&a, 1), Some(&b"staged"[..]));
    // Without staged bytes, the copy is of the new bytes.
    let mut a = array_with_me();
    assert_eq!(visit(&mut a, Some(b"new"), None, copy), Effect::Done);
    assert_eq!(code(&a, 1), Some(&b"new"[..]));
    // update 0 writes the staged bytes over the new ones.
    let mut a = array_with_me();
    let update = Instruction::Update { x: 0 };
    assert_eq!(
        visit(&mut a, Some(b"new"), Some(b"staged"), update),
        Effect::Done
    );
    assert_eq!(code(&a, 0), Some(&b"staged"[..]));
    // An agent that emptied its cell: update 0 finds it empty, but copy 0→1 still copies the
    // bytes staged for it (the cell as the agent leaves it).
    let mut a = array_with_me();
    assert_eq!(
        visit(&mut a, Some(b""), Some(b"staged"), update),
        Effect::Empty
    );
    assert_eq!(code(&a, 0), None);
    let mut a = array_with_me();
    assert_eq!(
        visit(&mut a, Some(b""), Some(b"staged"), copy),
        Effect::Done
    );
    assert_eq!((code(&a, 0), code(&a, 1)), (None, Some(&b"staged"[..])));
    let mut a = array_with_me();
    assert_eq!(visit(&mut a, Some(b""), None, copy), Effect::Empty);
}

#[test]
fn when_two_effects_apply_the_first_in_the_documented_order_is_recorded() {
    // A copy from an empty cell (2) onto another player's agent (1): `empty`, not `occupied`.
    let mut a = array_with_me();
    *a.slot_mut(1) = cell("theirs", OTHER);
    let copy = Instruction::Copy { x: 2, y: 1 };
    assert_eq!(visit(&mut a, None, None, copy), Effect::Empty);
    // From a full cell it is `occupied`.
    *a.slot_mut(2) = cell("x", ME);
    assert_eq!(visit(&mut a, None, None, copy), Effect::Occupied);
    assert_eq!(code(&a, 1), Some(&b"theirs"[..]));
    // An update of an empty cell with nothing staged for it: `empty`, not `unstaged`.
    let mut a = array_with_me();
    let update = Instruction::Update { x: 3 };
    assert_eq!(visit(&mut a, None, None, update), Effect::Empty);
    // Of a full cell with nothing staged for it: `unstaged`.
    *a.slot_mut(3) = cell("x", OTHER);
    assert_eq!(visit(&mut a, None, None, update), Effect::Unstaged);
    assert_eq!(code(&a, 3), Some(&b"x"[..]));
}
