//! The code war with WebAssembly agents: Games::Perlwar's t/01general.t behaviours, the hostile
//! cases, whole games played, recorded, narrated and verified.
//!
//! The port's parameters are Perlwar's test's: an Array of 97 cells and 95 iterations, at
//! iteration 13. Perl's maximal size of 67 characters becomes 670 bytes: a WebAssembly module says
//! about ten times less per byte than a line of Perl (the smallest agent, one export and no
//! import, is 40 bytes; each import adds 15 to 25), and the agents that report what they saw
//! need a few imports. Where Perl's test reads an agent's return value, these agents write what
//! they saw into their own bytes (`set_self`), which the test reads from the cell.

use codewar_rules::stages::{visit_one, Round};
use codewar_rules::visit::Outcome as VisitOutcome;
use codewar_rules::{Array, Cell, Effect, Instruction, SegfaultKind, Settings, Visit};

use super::code::Snippet;
use super::executor::{snippets_for, SandboxExecutor};
use super::settings::CodewarSettings;
use super::{narrate, play};
use crate::game::json::Json;
use crate::game::record::{VerifyError, VerifySummary};
use crate::game::replay::RecordLines;
use crate::game::{Outcome, Table};
use crate::records::RecordMeta;

const NEO: usize = 0;
const SMITH: usize = 1;
const MORPHEUS: usize = 2;

fn port_settings() -> CodewarSettings {
    CodewarSettings::from_rules(Settings {
        array_size: 97,
        max_size: 670,
        iterations: 95,
        ..Settings::default()
    })
}

fn wasm(text: &str) -> Vec<u8> {
    wat::parse_str(text).unwrap()
}

fn cell(text: &str, owner: usize) -> Option<Cell<Snippet>> {
    Some(Cell::new(Snippet::new(wasm(text)), owner))
}

/// Visits `at` at iteration 13 with the port's settings, in the sandbox.
fn visit(array: &mut Array<Snippet>, at: usize) -> Option<Visit<Snippet>> {
    visit_with(array, at, &port_settings())
}

fn visit_with(
    array: &mut Array<Snippet>,
    at: usize,
    settings: &CodewarSettings,
) -> Option<Visit<Snippet>> {
    let snippets = snippets_for(settings).unwrap();
    let mut executor = SandboxExecutor::new(&snippets);
    let rules = settings.rules();
    let round = Round {
        settings: &rules,
        seed: 1,
        players: 3,
        iteration: 13,
        max_size: settings.max_size,
    };
    let v = crate::sandbox::run_with_big_stack(|| visit_one(array, round, at, &mut executor));
    assert!(executor.host_failure.is_none());
    v
}

fn segfault_of(v: &Visit<Snippet>) -> Option<SegfaultKind> {
    match &v.outcome {
        VisitOutcome::Segfault(s) => Some(s.kind),
        VisitOutcome::Ran { .. } => None,
    }
}

fn bytes_of(a: &Array<Snippet>, i: usize) -> Vec<u8> {
    a.get(i)
        .map(|c| c.code.bytes().to_vec())
        .unwrap_or_default()
}

/// An agent that writes what `body` leaves in memory at 0..`len` (i32 words it stores) into its
/// own bytes, and returns `result`.
fn reporter(imports: &str, body: &str, len: usize) -> String {
    format!(
        r#"(module
            (import "codewar" "set_self" (func $set_self (param i32 i32)))
            {imports}
            (memory (export "memory") 1)
            (func (export "codewar_run") (result i64)
              {body}
              (call $set_self (i32.const 0) (i32.const {len}))
              (i64.const 0)))"#
    )
}

fn words(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const HOSTILE: &[(&str, &str)] = &[
    (
        "trap",
        include_str!("../../../../tests/hostile/codewar/trap.wat"),
    ),
    (
        "div_zero",
        include_str!("../../../../tests/hostile/codewar/div_zero.wat"),
    ),
    (
        "system",
        include_str!("../../../../tests/hostile/codewar/system.wat"),
    ),
    (
        "forever",
        include_str!("../../../../tests/hostile/codewar/forever.wat"),
    ),
    (
        "start_forever",
        include_str!("../../../../tests/hostile/codewar/start_forever.wat"),
    ),
    (
        "no_entry",
        include_str!("../../../../tests/hostile/codewar/no_entry.wat"),
    ),
    (
        "huge_memory",
        include_str!("../../../../tests/hostile/codewar/huge_memory.wat"),
    ),
    (
        "recursion",
        include_str!("../../../../tests/hostile/codewar/recursion.wat"),
    ),
    (
        "bad_pointer",
        include_str!("../../../../tests/hostile/codewar/bad_pointer.wat"),
    ),
    (
        "grower",
        include_str!("../../../../tests/hostile/codewar/grower.wat"),
    ),
];

const CRAWLER: &str = include_str!("../../../../example-agents/wat/codewar-crawler.wat");
const BERSERKER: &str = include_str!("../../../../example-agents/wat/codewar-berserker.wat");
const BORG: &str = include_str!("../../../../example-agents/wat/codewar-borg.wat");
const POISONER: &str = include_str!("../../../../example-agents/wat/codewar-poisoner.wat");
const SPY: &str = include_str!("../../../../example-agents/wat/codewar-spy.wat");
const FLOOD: &str = include_str!("../../../../tests/hostile/codewar/flood.wat");
const INVALID_WRITER: &str = include_str!("../../../../tests/hostile/codewar/invalid_writer.wat");
const BOMB_WRITER: &str = include_str!("../../../../tests/hostile/codewar/compile_bomb_writer.wat");

#[test]
fn crashing_agents_segfault_and_their_cell_is_cleared() {
    let expected = [
        ("trap", SegfaultKind::Trap),
        ("div_zero", SegfaultKind::Trap),
        ("system", SegfaultKind::BadImport),
        ("forever", SegfaultKind::Fuel),
        ("start_forever", SegfaultKind::Fuel),
        ("no_entry", SegfaultKind::NoEntry),
        ("huge_memory", SegfaultKind::Memory),
        ("recursion", SegfaultKind::Stack),
        ("bad_pointer", SegfaultKind::Trap),
        ("grower", SegfaultKind::WriteTooBig),
    ];
    for ((name, text), (expected_name, kind)) in HOSTILE.iter().zip(expected) {
        assert_eq!(*name, expected_name);
        let mut a = Array::new(97);
        *a.slot_mut(4) = cell(text, NEO);
        *a.slot_mut(5) = cell(CRAWLER, SMITH);
        let v = visit(&mut a, 4).unwrap();
        assert_eq!(segfault_of(&v), Some(kind), "{name}: {:?}", v.outcome);
        assert!(a.get(4).is_none(), "{name}: the cell is cleared");
        assert!(a.get(5).is_some(), "{name}: nothing else changed");
    }
    // The trap's message is kept.
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell(HOSTILE[1].1, NEO);
    let v = visit(&mut a, 0).unwrap();
    match v.outcome {
        VisitOutcome::Segfault(s) => assert_eq!(s.detail, "integer divide by zero"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bytes_that_are_no_module_and_modules_too_big_segfault() {
    let mut a = Array::new(97);
    *a.slot_mut(0) = Some(Cell::new(Snippet::new(b"tadam".to_vec()), NEO));
    assert_eq!(
        segfault_of(&visit(&mut a, 0).unwrap()),
        Some(SegfaultKind::Invalid)
    );
    // A crawler made `n` bytes long by a custom section.
    let padded = |n: usize| {
        let mut m = wasm(CRAWLER);
        let size = n - m.len() - 3;
        m.extend([0, (size & 0x7f) as u8 | 0x80, (size >> 7) as u8, 0]);
        m.extend(vec![0u8; size - 1]);
        wasmparser::Validator::new().validate_all(&m).unwrap();
        assert_eq!(m.len(), n);
        m
    };
    *a.slot_mut(0) = Some(Cell::new(Snippet::new(padded(671)), NEO));
    assert_eq!(
        segfault_of(&visit(&mut a, 0).unwrap()),
        Some(SegfaultKind::TooBig)
    );
    *a.slot_mut(0) = Some(Cell::new(Snippet::new(padded(670)), NEO));
    assert_eq!(
        segfault_of(&visit(&mut a, 0).unwrap()),
        None,
        "670 bytes run"
    );
}

#[test]
fn agents_see_the_array_around_them() {
    let mut a = Array::new(97);
    // `scalar @_`: the Array's size.
    *a.slot_mut(5) = cell(
        &reporter(
            r#"(import "codewar" "size" (func $size (result i32)))"#,
            "(i32.store (i32.const 0) (call $size))",
            4,
        ),
        NEO,
    );
    // `$_[-1]`: the previous cell's bytes, copied into itself.
    *a.slot_mut(6) = cell(
        r#"(module
            (import "codewar" "read" (func $read (param i32 i32 i32 i32) (result i32)))
            (import "codewar" "set_self" (func $set_self (param i32 i32)))
            (memory (export "memory") 1)
            (func (export "codewar_run") (result i64)
              (call $set_self (i32.const 0)
                (call $read (i32.const -1) (i32.const 0) (i32.const 0) (i32.const 65536)))
              (i64.const 0)))"#,
        SMITH,
    );
    let seen_by_5 = bytes_of(&a, 5);
    visit(&mut a, 6);
    assert_eq!(bytes_of(&a, 6), seen_by_5, "$_[-1] reads the previous cell");
    visit(&mut a, 5);
    assert_eq!(words(&bytes_of(&a, 5)), [97], "scalar @_");

    // `"$S:$I:$i"` and `$O`.
    let mut a = Array::new(97);
    *a.slot_mut(9) = cell(
        &reporter(
            r#"(import "codewar" "max_size" (func $s (result i32)))
               (import "codewar" "iterations" (func $i (result i32)))
               (import "codewar" "iteration" (func $it (result i32)))
               (import "codewar" "owner" (func $o (result i32)))
               (import "codewar" "players" (func $p (result i32)))"#,
            "(i32.store (i32.const 0) (call $s)) (i32.store (i32.const 4) (call $i))
             (i32.store (i32.const 8) (call $it)) (i32.store (i32.const 12) (call $o))
             (i32.store (i32.const 16) (call $p))",
            20,
        ),
        SMITH,
    );
    visit(&mut a, 9);
    assert_eq!(words(&bytes_of(&a, 9)), [670, 95, 13, SMITH as i32, 3]);
}

#[test]
fn the_layouts_of_the_cells_and_facades_are_relative() {
    // Perl's test puts codes 1 to 20 in cells 1 to 20 and reads `join ":",@_` from cell 0; here
    // cells 1 to 20 hold crawlers of three owners, some with another facade, and the agent at 0
    // writes, for every offset 0 to 96, its cell's length and facade (+1: 0 for an empty cell).
    let mut a = Array::new(97);
    for i in 1..=20 {
        *a.slot_mut(i) = cell(CRAWLER, i % 3);
        if i % 4 == 0 {
            a.slot_mut(i).as_mut().unwrap().facade = (i + 1) % 3;
        }
    }
    *a.slot_mut(0) = cell(
        &reporter(
            r#"(import "codewar" "len" (func $len (param i32) (result i32)))
               (import "codewar" "facade" (func $facade (param i32) (result i32)))"#,
            "(local $k i32)
             (loop $l
               (i32.store16 (i32.mul (local.get $k) (i32.const 4)) (call $len (local.get $k)))
               (i32.store16 (i32.add (i32.mul (local.get $k) (i32.const 4)) (i32.const 2))
                 (i32.add (call $facade (local.get $k)) (i32.const 1)))
               (local.set $k (i32.add (local.get $k) (i32.const 1)))
               (br_if $l (i32.lt_u (local.get $k) (i32.const 97))))",
            4 * 97,
        ),
        NEO,
    );
    let before = a.clone();
    visit(&mut a, 0);
    let seen = bytes_of(&a, 0);
    for k in 0..97 {
        let len = u16::from_le_bytes([seen[4 * k], seen[4 * k + 1]]) as usize;
        let facade = u16::from_le_bytes([seen[4 * k + 2], seen[4 * k + 3]]) as usize;
        let c = before.get(k);
        assert_eq!(len, c.map_or(0, Cell::len), "length at {k}");
        assert_eq!(facade, c.map_or(0, |c| c.facade + 1), "facade at {k}");
    }
    // Offsets wrap around the ring: the last cell is -1.
    *a.slot_mut(96) = cell(CRAWLER, MORPHEUS);
    *a.slot_mut(0) = cell(
        &reporter(
            r#"(import "codewar" "len" (func $len (param i32) (result i32)))"#,
            "(i32.store (i32.const 0) (call $len (i32.const -1)))
             (i32.store (i32.const 4) (call $len (i32.const 96)))
             (i32.store (i32.const 8) (call $len (i32.const -97)))",
            12,
        ),
        NEO,
    );
    let own = a.get(0).unwrap().len() as i32;
    visit(&mut a, 0);
    let crawler = wasm(CRAWLER).len() as i32;
    assert_eq!(words(&bytes_of(&a, 0)), [crawler, crawler, own]);
}

#[test]
fn nuke_update_and_claim() {
    let nuke13 = "(module (func (export \"codewar_run\") (result i64) (i64.const 0x2_0000_000D)))";
    let idle = "(module (func (export \"codewar_run\") (result i64) (i64.const 0)))";
    // Smith's agent at 11 rewrites cell 10 (`$_[-1] =~ s/!/#/g; "~-1"`): it stages a module
    // that does nothing for -1, then updates -1.
    let alter = format!(
        r#"(module
            (import "codewar" "stage" (func $stage (param i32 i32 i32)))
            (memory (export "memory") 1)
            (data (i32.const 0) "{}")
            (func (export "codewar_run") (result i64)
              (call $stage (i32.const -1) (i32.const 0) (i32.const {}))
              (i64.const 0x3_0000_FFFF)))"#,
        wasm(idle)
            .iter()
            .map(|b| format!("\\{b:02x}"))
            .collect::<String>(),
        wasm(idle).len()
    );
    let claim_behind =
        "(module (func (export \"codewar_run\") (result i64) (i64.const 0x4_0000_FFFF)))";
    let mut a = Array::new(97);
    *a.slot_mut(10) = cell(nuke13, NEO);
    *a.slot_mut(11) = cell(&alter, SMITH);
    *a.slot_mut(23) = cell(idle, SMITH);
    *a.slot_mut(24) = cell(idle, SMITH);
    *a.slot_mut(25) = cell(claim_behind, NEO);
    for i in 10..=25 {
        visit(&mut a, i);
    }
    assert!(a.get(23).is_none(), "nuke (!)");
    assert_eq!(a.get(10).unwrap().owner, NEO, "update (~) keeps the owner");
    assert_eq!(
        bytes_of(&a, 10),
        wasm(idle),
        "update (~) writes the staged bytes"
    );
    assert_eq!(a.get(24).unwrap().owner, NEO, "claim (^)");
    assert_eq!(bytes_of(&a, 24), wasm(idle), "a claim keeps the code");
}

/// An agent that stages `bytes` for the cell `x` cells away, then returns `instruction`.
fn stager(x: i32, bytes: &[u8], instruction: i64) -> String {
    format!(
        r#"(module
            (import "codewar" "stage" (func $stage (param i32 i32 i32)))
            (memory (export "memory") 1)
            (data (i32.const 0) "{}")
            (func (export "codewar_run") (result i64)
              (call $stage (i32.const {x}) (i32.const 0) (i32.const {}))
              (i64.const {instruction})))"#,
        bytes
            .iter()
            .map(|b| format!("\\{b:02x}"))
            .collect::<String>(),
        bytes.len()
    )
}

fn effect_of(v: &Visit<Snippet>) -> Effect {
    match &v.outcome {
        VisitOutcome::Ran { effect, .. } => *effect,
        other => panic!("{other:?}"),
    }
}

#[test]
fn stage_offsets_wrap_around_the_ring_and_instruction_offsets_do_not() {
    // docs/ABI.md, "Imports": `stage` takes any i32 around the ring, and `update` and `copy`
    // find the staged bytes when they name the same cell; an instruction offset of N or more
    // is a no-op. The Array has 97 cells; the agent is at 10, an agent of Smith at 11.
    let idle = wasm("(module (func (export \"codewar_run\") (result i64) (i64.const 0)))");
    let n = 97i64;
    let update = |x: i64| 0x3_0000_0000 | (x & 0xFFFF);
    let ring = |x: i32| i64::from(x).rem_euclid(n);
    // i32::MIN and i32::MAX are 31 and 65 cells ahead.
    for x in [1, 98, -96, 97 * 1000 + 1, i32::MIN, i32::MAX] {
        let at = (10 + ring(x) as usize) % 97;
        let mut a = Array::new(97);
        *a.slot_mut(10) = cell(&stager(x, &idle, update(ring(x))), NEO);
        *a.slot_mut(at) = cell(CRAWLER, SMITH);
        let v = visit(&mut a, 10).unwrap();
        assert_eq!(effect_of(&v), Effect::Done, "stage({x})");
        let target = a.get(at).unwrap();
        assert_eq!(target.code.bytes(), idle, "stage({x})");
        assert_eq!(target.owner, SMITH, "an update keeps the owner");
    }
    // A copy from the staged cell copies the staged bytes: staged at 98 (+1), copied from +1
    // to +2.
    let mut a = Array::new(97);
    *a.slot_mut(10) = cell(&stager(98, &idle, 0x1_0002_0001), NEO);
    *a.slot_mut(11) = cell(CRAWLER, SMITH);
    assert_eq!(effect_of(&visit(&mut a, 10).unwrap()), Effect::Done);
    assert_eq!(bytes_of(&a, 12), idle);
    assert_eq!(bytes_of(&a, 11), wasm(CRAWLER));
    // The instruction's own offset does not wrap: `update 97` (+97 = N) is a no-op, though the
    // bytes were staged for +97, that is the agent's own cell.
    let mut a = Array::new(97);
    let code = stager(97, &idle, update(97));
    *a.slot_mut(10) = cell(&code, NEO);
    let v = visit(&mut a, 10).unwrap();
    assert_eq!(effect_of(&v), Effect::Nothing);
    assert_eq!(bytes_of(&a, 10), wasm(&code));
}

#[test]
fn set_facade_accepts_the_seat_of_a_player_already_out() {
    // docs/ABI.md: only seats outside 0 to players − 1 are refused. Three players; Morpheus owns
    // no cell, so it is out at stage 2 of iteration 2; Neo's agent then shows Morpheus's
    // facade, and `set_facade(2)` returns 0.
    let settings = port_settings();
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell(
        &reporter(
            r#"(import "codewar" "set_facade" (func $f (param i32) (result i32)))"#,
            "(i32.store (i32.const 0) (call $f (i32.const 2)))",
            4,
        ),
        NEO,
    );
    *a.slot_mut(1) = cell(CRAWLER, SMITH);
    let modules = [CRAWLER, CRAWLER, CRAWLER]
        .map(|m| Snippet::new(wasm(m)))
        .to_vec();
    let mut game = codewar_rules::Game::from_array(settings.rules(), modules, 1, a, 1).unwrap();
    let snippets = snippets_for(&settings).unwrap();
    let mut executor = SandboxExecutor::new(&snippets);
    let it = crate::sandbox::run_with_big_stack(|| game.play_iteration(&mut executor)).unwrap();
    assert!(executor.host_failure.is_none());
    assert_eq!((it.iteration, it.entries.len()), (2, 0));
    assert_eq!(it.out_before, [MORPHEUS]);
    assert!(!game.in_game(MORPHEUS));
    let agent = game.array().get(0).unwrap();
    assert_eq!((agent.owner, agent.facade), (NEO, MORPHEUS));
    assert_eq!(words(agent.code.bytes()), [0]);
}

#[test]
fn a_copy_then_a_claim_leaves_the_parent_its_owner() {
    let (luigi, mario) = (0, 1);
    let copy2 = "(module (func (export \"codewar_run\") (result i64) (i64.const 0x1_0002_0000)))";
    let claim1 = "(module (func (export \"codewar_run\") (result i64) (i64.const 0x4_0000_0001)))";
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell(copy2, luigi);
    *a.slot_mut(1) = cell(claim1, mario);
    visit(&mut a, 0);
    let copy = a.get(2).unwrap();
    assert_eq!((copy.owner, copy.may_run), (luigi, false));
    assert_eq!(bytes_of(&a, 2), wasm(copy2));
    visit(&mut a, 1);
    assert_eq!(a.get(0).unwrap().owner, luigi, "parents shouldn't be 0wned");
    assert_eq!(a.get(1).unwrap().owner, mario);
    assert_eq!(a.get(2).unwrap().owner, mario, "0wning");
    assert!(
        visit(&mut a, 2).is_none(),
        "a copy runs from the next iteration"
    );
}

#[test]
fn self_modification_round_trips() {
    // `$_ = "tadam"`.
    let mut a = Array::new(97);
    *a.slot_mut(3) = cell(
        r#"(module
            (import "codewar" "set_self" (func $set_self (param i32 i32)))
            (memory (export "memory") 1)
            (data (i32.const 0) "tadam")
            (func (export "codewar_run") (result i64)
              (call $set_self (i32.const 0) (i32.const 5)) (i64.const 0)))"#,
        NEO,
    );
    visit(&mut a, 3);
    assert_eq!(bytes_of(&a, 3), b"tadam");
    assert_eq!(a.get(3).unwrap().owner, NEO);
    // The borg keeps a counter in its own bytes: each visit claims one cell further, runs from
    // the bytes the last visit wrote, and stays a valid module.
    let borg = wasm(BORG);
    assert_eq!(
        borg[8..26],
        *b"\0\x10\x0dcodewar.state\x01\0",
        "the counter is at 24"
    );
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell(BORG, NEO);
    for i in 1..=4 {
        *a.slot_mut(i) = cell(CRAWLER, SMITH);
    }
    let mut claims = Vec::new();
    for _ in 0..4 {
        let v = visit(&mut a, 0).unwrap();
        match v.outcome {
            VisitOutcome::Ran {
                instruction,
                effect,
                ..
            } => claims.push((instruction, effect)),
            other => panic!("{other:?}"),
        }
    }
    let claim = |x| (Instruction::Claim { x }, Effect::Done);
    assert_eq!(claims, [claim(1), claim(2), claim(3), claim(4)]);
    assert!((1..=4).all(|i| a.get(i).unwrap().owner == NEO));
    assert_eq!(bytes_of(&a, 0)[24..26], [5, 0], "the counter is 5 now");
    // Suicide: empty bytes empty the cell.
    *a.slot_mut(0) = cell(
        r#"(module
            (import "codewar" "set_self" (func $set_self (param i32 i32)))
            (memory (export "memory") 1)
            (func (export "codewar_run") (result i64)
              (call $set_self (i32.const 0) (i32.const 0)) (i64.const 0)))"#,
        NEO,
    );
    visit(&mut a, 0);
    assert!(a.get(0).is_none());
}

#[test]
fn an_agent_changes_only_its_own_facade() {
    // The spy shows the next seat's facade; its copy shows it too.
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell(SPY, NEO);
    visit(&mut a, 0);
    let spy = a.get(0).unwrap();
    assert_eq!((spy.owner, spy.facade), (NEO, SMITH), "its own facade");
    let copy = a.get(1).unwrap();
    assert_eq!((copy.owner, copy.facade), (NEO, SMITH), "its copy's");
    // Smith's agent at 1 asks for seats that do not exist: refused, nothing changes; and no
    // import changes another cell's facade.
    *a.slot_mut(1) = cell(
        &reporter(
            r#"(import "codewar" "set_facade" (func $f (param i32) (result i32)))"#,
            "(i32.store (i32.const 0) (call $f (i32.const 3)))
             (i32.store (i32.const 4) (call $f (i32.const -1)))",
            8,
        ),
        SMITH,
    );
    *a.slot_mut(2) = cell(CRAWLER, MORPHEUS);
    visit(&mut a, 1);
    assert_eq!(words(&bytes_of(&a, 1)), [-1, -1]);
    assert_eq!(a.get(1).unwrap().facade, SMITH);
    assert_eq!(
        a.get(2).unwrap().facade,
        MORPHEUS,
        "not the facade of another agent"
    );
}

#[test]
fn no_state_leaks_between_agents_or_visits() {
    // A global and memory that a visit sets: an agent that finds them set rewrites itself to
    // "leak". Two copies of one module (one compiled module, two instances), each visited twice.
    let snoop = r#"(module
        (import "codewar" "set_self" (func $set_self (param i32 i32)))
        (memory (export "memory") 1)
        (global $g (mut i32) (i32.const 0))
        (data (i32.const 100) "leak")
        (func (export "codewar_run") (result i64)
          (if (i32.or (global.get $g) (i32.load (i32.const 0)))
            (then (call $set_self (i32.const 100) (i32.const 4))))
          (global.set $g (i32.const 1))
          (i32.store (i32.const 0) (i32.const 1))
          (i64.const 0)))"#;
    let mut a = Array::new(97);
    *a.slot_mut(0) = cell(snoop, NEO);
    *a.slot_mut(1) = cell(snoop, NEO);
    for _ in 0..2 {
        visit(&mut a, 0);
        visit(&mut a, 1);
    }
    assert_eq!(bytes_of(&a, 0), wasm(snoop));
    assert_eq!(bytes_of(&a, 1), wasm(snoop));
}

#[test]
fn hostile_writers_make_their_victims_segfault() {
    for (writer, victim_kind) in [
        (INVALID_WRITER, SegfaultKind::Invalid),
        (BOMB_WRITER, SegfaultKind::Invalid),
    ] {
        let settings = CodewarSettings::default();
        let mut a = Array::new(100);
        *a.slot_mut(0) = cell(writer, NEO);
        *a.slot_mut(1) = cell(CRAWLER, SMITH);
        *a.slot_mut(10) = cell(writer, NEO);
        let started = std::time::Instant::now();
        let v = visit_with(&mut a, 0, &settings).unwrap();
        assert!(matches!(
            v.outcome,
            VisitOutcome::Ran {
                instruction: Instruction::Update { x: 1 },
                effect: Effect::Done,
                ..
            }
        ));
        assert_eq!(a.get(1).unwrap().owner, SMITH, "an update keeps the owner");
        let v = visit_with(&mut a, 1, &settings).unwrap();
        assert_eq!(segfault_of(&v), Some(victim_kind));
        assert!(a.get(1).is_none());
        // Into an empty cell it copies the bytes as its own: they segfault at their first run.
        visit_with(&mut a, 10, &settings);
        assert_eq!(a.get(11).unwrap().owner, NEO);
        a.slot_mut(11).as_mut().unwrap().may_run = true;
        assert_eq!(
            segfault_of(&visit_with(&mut a, 11, &settings).unwrap()),
            Some(victim_kind)
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }
}

fn table(names: &[&str], seed: u64) -> Table {
    Table {
        seed,
        round_cap: 0,
        policy: crate::game::FaultPolicy::Forfeit,
        settings: Default::default(),
        meta: RecordMeta {
            names: names.iter().map(|n| n.to_string()).collect(),
            agent_hashes: vec![None; names.len()],
            limits: std::sync::Arc::new(serde_json::Value::Null),
        },
    }
}

fn play_wat(agents: &[(&str, &str)], seed: u64, settings: &CodewarSettings) -> Vec<u8> {
    let names: Vec<&str> = agents.iter().map(|a| a.0).collect();
    let modules: Vec<Vec<u8>> = agents.iter().map(|a| wasm(a.1)).collect();
    play(&table(&names, seed), settings, &modules)
        .unwrap()
        .record
}

/// Verifies a record's text as `arena verify` does, on a big stack (guest code runs there).
pub(super) fn verify_record(text: &str) -> Result<VerifySummary, VerifyError> {
    crate::sandbox::run_with_big_stack(|| crate::games::registry().verify_record(text))
}

fn verify(record: &[u8]) -> VerifySummary {
    verify_record(std::str::from_utf8(record).unwrap()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_game_of_the_example_agents_is_recorded_and_verifies() {
    let settings = CodewarSettings::default();
    let agents = [
        ("crawler", CRAWLER),
        ("berserker", BERSERKER),
        ("borg", BORG),
        ("poisoner", POISONER),
        ("spy", SPY),
    ];
    let record = play_wat(&agents, 7, &settings);
    let v = verify(&record);
    assert_eq!(v.names, ["crawler", "berserker", "borg", "poisoner", "spy"]);
    assert!(v.turns > 100, "{v:?}");
    // The same seed: the same record, byte for byte; another seed: another game.
    assert_eq!(play_wat(&agents, 7, &settings), record);
    assert_ne!(play_wat(&agents, 8, &settings), record);
    // And the same on another thread while this one plays.
    let other = std::thread::spawn(move || play_wat(&agents, 7, &settings));
    assert_eq!(play_wat(&agents, 7, &settings), record);
    assert_eq!(other.join().unwrap(), record);
    // Narration and replay data come from the record.
    let mut text = Vec::new();
    narrate(&record, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.starts_with("Code war: 5 players, an Array of 100 cells"),
        "{text}"
    );
    assert!(text.contains("\n    1 "), "{text}");
    assert!(text.contains("Result after"), "{text}");
    let text = std::str::from_utf8(&record).unwrap();
    let lines: Vec<Json> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let r = RecordLines {
        id: 0,
        record: "game.jsonl",
        setup: lines[0].as_object().unwrap(),
        lines: &lines,
    };
    let replay: serde_json::Value =
        serde_json::from_slice(&super::replay::replay(&r).unwrap()).unwrap();
    assert_eq!(replay["game"], "codewar");
    assert_eq!(
        replay["iterations"].as_array().unwrap().len() as u32,
        v.rounds
    );
    assert_eq!(replay["end"]["cells"], serde_json::json!(v.scores.unwrap()));
}

#[test]
fn floods_and_facade_games() {
    // A flood fills the empty cells fast.
    let settings = CodewarSettings::from_rules(Settings {
        iterations: 12,
        reentry_every: 0,
        ..Settings::default()
    });
    let record = play_wat(&[("flood", FLOOD), ("crawler", CRAWLER)], 3, &settings);
    let v = verify(&record);
    let cells = v.scores.unwrap();
    assert!(cells[0] > 3 * cells[1], "{cells:?}");
    assert_eq!(
        v.outcome,
        Outcome::Win {
            seat: 0,
            last_standing: false
        }
    );
    // The poisoner spares what shows its own facade: the spy, showing the poisoner's (the next
    // seat's) facade, is never poisoned, while a crawler is.
    let mut a = Array::new(100);
    *a.slot_mut(0) = cell(POISONER, NEO);
    *a.slot_mut(1) = cell(SPY, MORPHEUS);
    a.slot_mut(1).as_mut().unwrap().facade = NEO;
    let v = visit_with(&mut a, 0, &settings).unwrap();
    assert!(matches!(
        v.outcome,
        VisitOutcome::Ran {
            instruction: Instruction::Noop,
            ..
        }
    ));
    a.slot_mut(1).as_mut().unwrap().facade = MORPHEUS;
    visit_with(&mut a, 0, &settings);
    let victim = visit_with(&mut a, 1, &settings).unwrap();
    assert!(
        matches!(
            victim.outcome,
            VisitOutcome::Ran {
                instruction: Instruction::Nuke { x: 0 },
                effect: Effect::Done,
                ..
            }
        ),
        "{victim:?}"
    );
    assert!(a.get(1).is_none(), "the poisoned neighbour nuked itself");
}

#[test]
fn verification_refuses_a_changed_record() {
    let settings = CodewarSettings::from_rules(Settings {
        iterations: 10,
        ..Settings::default()
    });
    let record = play_wat(
        &[("crawler", CRAWLER), ("berserker", BERSERKER)],
        5,
        &settings,
    );
    let text = String::from_utf8(record).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let fails = |changed: &str| -> String {
        match verify_record(changed) {
            Ok(v) => panic!("a changed record verified: {v:?}"),
            Err(e) => e.to_string(),
        }
    };
    let with_line = |i: usize, line: String| -> String {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        l[i] = line;
        l.join("\n") + "\n"
    };
    // A visit's instruction changed.
    let i = lines
        .iter()
        .position(|l| l.contains("\"copy\",0,1"))
        .unwrap();
    let e = fails(&with_line(
        i,
        lines[i].replacen("\"copy\",0,1", "\"copy\",0,2", 1),
    ));
    assert!(e.starts_with(&format!("line {}: visits", i + 1)), "{e}");
    // A player's module changed (its hash no longer the agent's).
    let e = fails(&with_line(1, lines[1].replacen("AGFzbQ", "AGFzbR", 1)));
    assert!(e.starts_with("line 2:"), "{e}");
    // Truncated; an extra line; the digest.
    let e = fails(&(lines[..lines.len() - 1].join("\n") + "\n"));
    assert!(e.contains("truncated"), "{e}");
    let e = fails(&(text.clone() + lines[2] + "\n"));
    assert!(e.contains("extra line"), "{e}");
    let last = lines.len() - 1;
    let e = fails(&with_line(
        last,
        lines[last].replacen("\"digest\":\"", "\"digest\":\"0", 1),
    ));
    assert!(e.contains("digest"), "{e}");
    // A record that claims a timeout where the agent ran: the replay trusts the timeout, and the
    // cells that follow differ.
    let i = lines
        .iter()
        .position(|l| l.contains("\"type\":\"iteration\""))
        .unwrap();
    let changed = lines[i].replacen("\"copy\",0,1,\"done\"", "\"segfault\",\"timeout\"", 1);
    assert_ne!(changed, lines[i]);
    let e = fails(&with_line(i, changed));
    assert!(e.starts_with(&format!("line {}:", i + 1)), "{e}");
}

#[test]
fn module_lines_are_written_once_and_the_table_stays_small() {
    // The borg writes a new module every visit: each one gets a line, and the table forgets the
    // old ones. Alone in the Array (a game of one player), it lives the whole game.
    let settings = CodewarSettings::from_rules(Settings {
        iterations: 30,
        reentry_every: 0,
        ..Settings::default()
    });
    let snippets = super::executor::snippets_for(&settings).unwrap();
    let report = super::play_in(&snippets, &table(&["borg"], 2), &settings, &[wasm(BORG)]).unwrap();
    let text = String::from_utf8(report.played.record.clone()).unwrap();
    let modules = text
        .lines()
        .filter(|l| l.contains("\"type\":\"module\""))
        .count();
    assert_eq!(
        modules,
        1 + 30,
        "the player's module and one borg per iteration"
    );
    assert_eq!(report.stats.iterations, 30);
    assert!(report.stats.modules_held <= 3, "{:?}", report.stats);
    verify(&report.played.record);
}

/// The rows of the first markdown table after the heading `heading` in `doc`: its cells, trimmed.
fn table_rows(doc: &str, heading: &str) -> Vec<Vec<String>> {
    let start = doc
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?}"));
    doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

#[test]
fn the_docs_say_what_the_code_does() {
    let abi = include_str!("../../../../docs/ABI.md");
    let codewar = include_str!("../../../../docs/CODEWAR.md");
    // ABI.md's imports are the linker's, in order, with their types.
    let rows = table_rows(abi, "### Imports (module `codewar`)");
    let names: Vec<String> = rows
        .iter()
        .map(|r| r[0].trim_matches('`').to_owned())
        .collect();
    assert_eq!(names, super::imports::IMPORTS);
    let snippets = snippets_for(&CodewarSettings::default()).unwrap();
    let mut linker = wasmtime::Linker::new(snippets.engine());
    super::imports::add_imports(&mut linker).unwrap();
    for r in &rows {
        let name = r[0].trim_matches('`');
        let ty = r[1].trim_matches('`');
        let module = format!(
            "(module (import \"codewar\" \"{name}\" (func {})) (func (export \"codewar_run\") (result i64) (i64.const 0)))",
            wat_signature(ty)
        );
        let m = wasmtime::Module::new(snippets.engine(), wat::parse_str(&module).unwrap()).unwrap();
        linker
            .instantiate_pre(&m)
            .unwrap_or_else(|e| panic!("{name}: {ty}: {e}"));
    }
    // The instruction examples.
    for (text, expected) in [
        (
            "`0x1_0001_0000` copy itself (0) to the next cell (+1)",
            Instruction::Copy { x: 0, y: 1 },
        ),
        ("`0x2_0000_000D` nuke +13", Instruction::Nuke { x: 13 }),
        ("`0x4_0000_FFFF` claim −1", Instruction::Claim { x: -1 }),
        ("`0x3_0000_0001` update +1", Instruction::Update { x: 1 }),
    ] {
        assert!(abi.contains(text), "{text}");
        let hex = text[3..].split('`').next().unwrap().replace('_', "");
        let value = i64::from_str_radix(&hex, 16).unwrap();
        assert_eq!(Instruction::decode(value, 100), expected);
        assert_eq!(expected.encode(), value);
    }
    // CODEWAR.md's parameters: names, defaults and bounds.
    let defaults = serde_json::Value::Object(CodewarSettings::default().to_map().unwrap());
    let rows = table_rows(codewar, "## Parameters");
    let keys: Vec<&str> = rows.iter().map(|r| r[0].trim_matches('`')).collect();
    let mut documented: Vec<&str> = keys.clone();
    documented.sort_unstable();
    let mut actual: Vec<&String> = defaults.as_object().unwrap().keys().collect();
    actual.sort_unstable();
    assert_eq!(documented, actual);
    let number = |s: &str| s.replace(',', "").parse::<u64>().unwrap();
    for r in &rows {
        let key = r[0].trim_matches('`');
        assert_eq!(
            number(&r[2]),
            defaults[key].as_u64().unwrap(),
            "default of {key}"
        );
        let (low, high) = r[3].split_once(" to ").unwrap();
        let mut table = toml::Table::new();
        for (v, ok) in [
            (number(low), true),
            (number(high), true),
            (number(high) + 1, false),
        ] {
            table.insert(key.to_owned(), toml::Value::Integer(v as i64));
            assert_eq!(
                CodewarSettings::from_toml(Some(&table)).is_ok(),
                ok,
                "{key} = {v}"
            );
        }
        if number(low) > 0 {
            table.insert(key.to_owned(), toml::Value::Integer(number(low) as i64 - 1));
            assert!(
                CodewarSettings::from_toml(Some(&table)).is_err(),
                "{key} below"
            );
        }
    }
    // The segfault kinds.
    let kinds: Vec<String> = table_rows(codewar, "An agent **segfaults**")
        .iter()
        .map(|r| r[0].trim_matches('`').to_owned())
        .collect();
    let all: Vec<&str> = SegfaultKind::ALL.iter().map(|k| k.name()).collect();
    let mut sorted = kinds.clone();
    sorted.sort();
    let mut expected: Vec<String> = all.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(sorted, expected);
    // The randomness check values.
    assert!(codewar.contains("917049789, 1028093740, 2467265186"));
    assert!(codewar.contains("89, 40, 86, 99, 61"));
    let mut g = codewar_rules::Stream::game(1);
    assert_eq!(
        [g.next_u32(), g.next_u32(), g.next_u32()],
        [917049789, 1028093740, 2467265186]
    );
}

/// `(param i32 i32) (result i32)` from `(x: i32, y: i32) -> i32`.
fn wat_signature(ty: &str) -> String {
    let (params, result) = match ty.split_once(" -> ") {
        Some((p, r)) => (p, Some(r)),
        None => (ty, None),
    };
    let params: Vec<&str> = params
        .trim_matches(|c| c == '(' || c == ')')
        .split(", ")
        .filter(|p| !p.is_empty())
        .map(|p| p.rsplit(": ").next().unwrap())
        .collect();
    let mut out = String::new();
    if !params.is_empty() {
        out += &format!("(param {})", params.join(" "));
    }
    if let Some(r) = result {
        out += &format!(" (result {r})");
    }
    out
}

#[test]
fn play_refuses_what_it_cannot_record() {
    let settings = CodewarSettings::default();
    let huge = vec![0u8; 65537];
    let e = play(
        &table(&["huge", "crawler"], 1),
        &settings,
        &[huge, wasm(CRAWLER)],
    )
    .err()
    .unwrap();
    assert_eq!(
        e.to_string(),
        "seat 0 (huge): the module is 65537 bytes; a code war agent has at most 65536"
    );
    let mut t = table(&["a", "b"], 1);
    t.meta.agent_hashes[1] = Some("0".repeat(64));
    let e = play(&t, &settings, &[wasm(CRAWLER), wasm(SPY)])
        .err()
        .unwrap();
    assert!(
        e.to_string()
            .starts_with("seat 1 (b): the table names the agent 000"),
        "{e}"
    );
    let e = play(&table(&["a"], 1), &settings, &[]).err().unwrap();
    assert_eq!(e.to_string(), "0 players: a code war has 1 to 16");
    let bad = CodewarSettings {
        array_size: 1,
        ..settings
    };
    let e = play(&table(&["a"], 1), &bad, &[wasm(CRAWLER)])
        .err()
        .unwrap();
    assert!(
        format!("{e:#}").contains("array_size = 1 is out of bounds"),
        "{e:#}"
    );
}
