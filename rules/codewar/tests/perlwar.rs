//! The behaviours Games::Perlwar's own test file (t/01general.t) checks, ported to the code war
//! with native agents: the code of a cell is a short text that the test's executor interprets,
//! so that these tests are about the rules alone (the same behaviours with WebAssembly agents
//! are tested in the host). The test's parameters are Perlwar's: an Array of 97 cells, a maximal
//! size of 67 and 95 iterations, at iteration 13.

use std::cell::RefCell;

use codewar_rules::stages::{visit_one, Round};
use codewar_rules::visit::Outcome;
use codewar_rules::{
    Array, Effect, Effects, Instruction, Run, Segfault, SegfaultKind, Settings, View,
};

mod support;
use support::{cell, effect, sized, Code};

const NEO: usize = 0;
const SMITH: usize = 1;
const MORPHEUS: usize = 2;

fn settings() -> Settings {
    Settings {
        iterations: 95,
        ..sized(97, 67)
    }
}

fn round(s: &Settings) -> Round<'_> {
    Round {
        settings: s,
        seed: 1,
        players: 3,
        iteration: 13,
        max_size: 67,
    }
}

fn code_of(a: &Array<Code>, i: usize) -> Option<String> {
    a.get(i).map(|c| String::from_utf8(c.code.clone()).unwrap())
}

fn returned(i: Instruction) -> Run<Code> {
    Run::Returned {
        returned: i.encode(),
        effects: Effects::default(),
    }
}

/// The test's agents: `name` or `name:argument`.
fn agents(view: &View<Code>) -> Run<Code> {
    let own = String::from_utf8(view.own().code.clone()).unwrap();
    let (name, arg) = own.split_once(':').unwrap_or((&own, ""));
    let n = |s: &str| s.trim().parse::<i16>().unwrap();
    match name {
        "die" => Run::Segfault(Segfault::new(SegfaultKind::Trap)),
        "div0" => Run::Segfault(Segfault::with_detail(
            SegfaultKind::Trap,
            "integer divide by zero",
        )),
        "system" => Run::Segfault(Segfault::new(SegfaultKind::BadImport)),
        "forever" => Run::Segfault(Segfault::new(SegfaultKind::Fuel)),
        "nuke" => returned(Instruction::Nuke { x: n(arg) }),
        "claim" => returned(Instruction::Claim { x: n(arg) }),
        "copy" => {
            let (x, y) = arg.split_once(',').unwrap();
            returned(Instruction::Copy { x: n(x), y: n(y) })
        }
        // `$_[x] =~ s/!/#/g; "~x"`: stage the cell's code with `!` replaced, then update it.
        "alter" => {
            let x = n(arg);
            let target = view.cell(x.into()).unwrap();
            let altered: Code = target
                .code
                .iter()
                .map(|&b| if b == b'!' { b'#' } else { b })
                .collect();
            Run::Returned {
                returned: Instruction::Update { x }.encode(),
                effects: Effects {
                    staged: Some((view.absolute(x.into()), altered)),
                    ..Effects::default()
                },
            }
        }
        // `$_ = "..."`: rewrite itself.
        "become" => Run::Returned {
            returned: 0,
            effects: Effects {
                own: Some(arg.as_bytes().to_vec()),
                ..Effects::default()
            },
        },
        // `$o = ...`: change its own facade.
        "facade" => Run::Returned {
            returned: 0,
            effects: Effects {
                facade: Some(n(arg) as usize),
                ..Effects::default()
            },
        },
        _ => returned(Instruction::Noop),
    }
}

fn run(a: &mut Array<Code>, s: &Settings, i: usize) -> Option<codewar_rules::Visit<Code>> {
    visit_one(a, round(s), i, &mut agents)
}

#[test]
fn crashing_agents_segfault_and_their_cell_is_cleared() {
    let s = settings();
    for code in ["die", "div0", "system", "forever"] {
        let mut a = Array::new(97);
        *a.slot_mut(4) = cell(code, NEO);
        let v = run(&mut a, &s, 4).unwrap();
        assert!(
            matches!(v.outcome, Outcome::Segfault(_)),
            "{code}: {:?}",
            v.outcome
        );
        assert!(a.get(4).is_none(), "{code}: the cell is empty");
    }
}

#[test]
fn an_agent_larger_than_the_maximal_size_segfaults_without_running() {
    let s = settings();
    let mut a = Array::new(97);
    let big = "nuke:1".to_string() + &" ".repeat(62); // 68 bytes > 67
    *a.slot_mut(0) = cell(&big, NEO);
    *a.slot_mut(1) = cell("x", SMITH);
    let mut ran = false;
    let v = visit_one(&mut a, round(&s), 0, &mut |view: &View<Code>| {
        ran = true;
        agents(view)
    })
    .unwrap();
    assert!(!ran);
    assert_eq!(
        v.outcome,
        Outcome::Segfault(Segfault::new(SegfaultKind::TooBig))
    );
    assert!(a.get(0).is_none() && a.get(1).is_some());
    // 67 bytes is allowed.
    *a.slot_mut(0) = cell(&big[..67], NEO);
    run(&mut a, &s, 0).unwrap();
    assert!(a.get(1).is_none(), "the 67-byte agent ran and nuked +1");
}

#[test]
fn the_view_is_the_array_around_the_agent() {
    let s = settings();
    let mut a = Array::new(97);
    *a.slot_mut(5) = cell("size", NEO);
    *a.slot_mut(6) = cell("prev", SMITH);
    for i in 20..=40 {
        *a.slot_mut(i) = cell(&i.to_string(), MORPHEUS);
        a.slot_mut(i).as_mut().unwrap().facade = i % 3;
    }
    let seen = RefCell::new(Vec::new());
    let mut look = |view: &View<Code>| {
        let mut seen = seen.borrow_mut();
        seen.push(format!("size {}", view.size()));
        seen.push(format!(
            "-1 {}",
            String::from_utf8_lossy(&view.cell(-1).map(|c| c.code.clone()).unwrap_or_default())
        ));
        seen.push(format!(
            "S:I:i {}:{}:{} O {}",
            view.max_size, view.iterations, view.iteration, view.owner
        ));
        Run::Returned {
            returned: 0,
            effects: Effects::default(),
        }
    };
    visit_one(&mut a, round(&s), 5, &mut look);
    visit_one(&mut a, round(&s), 6, &mut look);
    assert_eq!(
        *seen.borrow(),
        [
            "size 97",
            "-1 ",
            "S:I:i 67:95:13 O 0",
            "size 97",
            "-1 size",
            "S:I:i 67:95:13 O 1"
        ]
    );
    // `@_` and `@o`: every offset, both ways, is the cell that far around the ring.
    let mut b = a.clone();
    for at in [0, 5, 30, 96] {
        *b.slot_mut(at) = b.get(at).cloned().or_else(|| cell("x", NEO));
        let before = b.clone();
        let mut layout = |view: &View<Code>| {
            for k in -200i64..200 {
                let expected = before.get((at as i64 + k).rem_euclid(97) as usize);
                assert_eq!(view.cell(k), expected, "offset {k} from {at}");
            }
            Run::Returned {
                returned: 0,
                effects: Effects::default(),
            }
        };
        visit_one(&mut b, round(&s), at, &mut layout).unwrap();
    }
}

#[test]
fn nuke_update_and_claim() {
    // t/01general.t: neo's "!13" at 10, smith's alter of cell 10 at 11, neo's "^-1" at 25.
    let s = settings();
    let mut a = Array::new(97);
    *a.slot_mut(10) = cell("nuke:13", NEO);
    *a.slot_mut(11) = cell("alter:-1", SMITH);
    *a.slot_mut(23) = cell("1", SMITH);
    *a.slot_mut(24) = cell("join", SMITH);
    *a.slot_mut(25) = cell("claim:-1", NEO);
    for i in 10..=25 {
        run(&mut a, &s, i);
    }
    assert!(a.get(23).is_none(), "nuke (!)");
    assert_eq!(a.get(10).unwrap().owner, NEO, "update (~) keeps the owner");
    assert_eq!(code_of(&a, 10).unwrap(), "nuke:13".replace('!', "#"));
    let mut b = Array::new(97);
    *b.slot_mut(10) = cell("nuke!13", NEO);
    *b.slot_mut(11) = cell("alter:-1", SMITH);
    run(&mut b, &s, 11);
    assert_eq!(code_of(&b, 10).unwrap(), "nuke#13", "update (~)");
    assert_eq!(b.get(10).unwrap().owner, NEO);
    assert_eq!(a.get(24).unwrap().owner, NEO, "claim (^)");
    assert_eq!(code_of(&a, 24).unwrap(), "join", "a claim keeps the code");
    assert_eq!(a.get(24).unwrap().facade, SMITH, "and the facade");
}

#[test]
fn a_copy_then_a_claim_leaves_the_parent_its_owner() {
    // luigi's ':2' at 0 and mario's '^1' at 1.
    let (luigi, mario) = (0, 1);
    let s = settings();
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell("copy:0,2", luigi);
    *a.slot_mut(1) = cell("claim:1", mario);
    assert_eq!(effect(run(&mut a, &s, 0)), Effect::Done);
    assert_eq!(a.get(2).unwrap().owner, luigi);
    assert!(
        !a.get(2).unwrap().may_run,
        "a copy runs from the next iteration"
    );
    run(&mut a, &s, 1);
    assert_eq!(a.get(0).unwrap().owner, luigi, "parents shouldn't be 0wned");
    assert_eq!(a.get(1).unwrap().owner, mario);
    assert_eq!(a.get(2).unwrap().owner, mario, "0wning");
    assert_eq!(
        run(&mut a, &s, 2),
        None,
        "the copy does not run this iteration"
    );
}

#[test]
fn a_copy_onto_another_players_agent_fails() {
    let s = settings();
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell("copy:0,1", NEO);
    *a.slot_mut(1) = cell("x", SMITH);
    assert_eq!(effect(run(&mut a, &s, 0)), Effect::Occupied);
    assert_eq!(code_of(&a, 1).unwrap(), "x");
    // Onto its own player's agent it succeeds.
    a.slot_mut(1).as_mut().unwrap().owner = NEO;
    run(&mut a, &s, 0);
    assert_eq!(code_of(&a, 1).unwrap(), "copy:0,1");
}

#[test]
fn self_modification() {
    let s = settings();
    let mut a = Array::new(97);
    *a.slot_mut(3) = cell("become:tadam", NEO);
    run(&mut a, &s, 3);
    assert_eq!(code_of(&a, 3).unwrap(), "tadam");
    assert_eq!(a.get(3).unwrap().owner, NEO);
    // Empty bytes: suicide, the cell is cleared.
    *a.slot_mut(3) = cell("become:", NEO);
    run(&mut a, &s, 3);
    assert!(a.get(3).is_none());
}

#[test]
fn an_agent_changes_only_its_own_facade() {
    let s = settings();
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell("facade:2", NEO);
    *a.slot_mut(2) = cell("1", SMITH);
    run(&mut a, &s, 0);
    assert_eq!(a.get(0).unwrap().facade, MORPHEUS);
    assert_eq!(a.get(0).unwrap().owner, NEO, "the true owner stays");
    assert_eq!(a.get(2).unwrap().facade, SMITH);
}

#[test]
fn nothing_an_agent_does_counts_when_it_segfaults() {
    let s = settings();
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell("a", NEO);
    *a.slot_mut(1) = cell("b", SMITH);
    // It staged bytes, rewrote itself and wrote more than the maximal size: a segfault.
    let mut exec = |view: &View<Code>| Run::Returned {
        returned: Instruction::Update { x: 1 }.encode(),
        effects: Effects {
            own: Some(vec![b'z'; 68]),
            staged: Some((view.absolute(1), b"poison".to_vec())),
            facade: Some(SMITH),
        },
    };
    let v = visit_one(&mut a, round(&s), 0, &mut exec).unwrap();
    assert_eq!(
        v.outcome,
        Outcome::Segfault(Segfault::new(SegfaultKind::WriteTooBig))
    );
    assert!(a.get(0).is_none());
    assert_eq!(code_of(&a, 1).unwrap(), "b");
}
