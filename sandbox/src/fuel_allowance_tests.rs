//! A game may allow a call less fuel than a decision's budget (a fuel clock:
//! [`WasmPlayer::set_fuel_allowance`]), and an agent may ask how much its call has left
//! (`arena.fuel_left`), paying for it like every host call.

use super::game_for_tests::{GAMES, TEST_GAME};
use super::*;

const CAP: u64 = 1_000_000;

fn sandbox() -> Sandbox {
    Sandbox::with_compiler(
        GAMES,
        Limits {
            fuel_per_decision: CAP,
            fuel_per_game: 100 * CAP,
            ..Limits::default()
        },
        Compiler::in_process(),
    )
    .unwrap()
}

/// An agent whose `farm_trade` runs `body` after importing `arena.fuel_left` (and `log`).
fn agent(body: &str) -> String {
    format!(
        r#"(module
  (import "arena" "fuel_left" (func $fuel_left (result i64)))
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 0)
  (func (export "arena_buffer_size") (result i32) i32.const 8192)
  (func (export "farm_trade") (param $len i32) (result i32) {body} i32.const 0)
  (func (export "farm_accept") (param $len i32) (result i32) i32.const 0))"#
    )
}

/// Stores what `fuel_left` returns, twice, at buffer offsets 100 and 108.
const TWICE: &str = "(i64.store (i32.const 100) (call $fuel_left)) \
                     (i64.store (i32.const 108) (call $fuel_left))";

/// Burns fuel until none is left.
const SPIN: &str = "(loop $l (br $l))";

/// One decision of `wat` with the allowance `fuel`: the two numbers `fuel_left` stored (or the
/// fault), and the fuel the call used.
fn decide(wat: &str, fuel: Option<u64>) -> (Result<(i64, i64), Fault>, u64) {
    let m = sandbox().load_bytes("agent", wat.as_bytes()).unwrap();
    run_with_big_stack(move || {
        let mut p = m.player();
        p.start(&TEST_GAME, 0, 2, 1).unwrap();
        let before = p.fuel_used();
        p.set_fuel_allowance(fuel);
        let got = p.call(0, |_| 0).map(|(_, buf)| {
            let at = |o: usize| i64::from_le_bytes(buf[o..o + 8].try_into().unwrap());
            (at(100), at(108))
        });
        (got, p.fuel_used() - before)
    })
}

#[test]
fn fuel_left_counts_down_from_the_allowance_and_costs_a_host_call() {
    let (left, used) = decide(&agent(TWICE), Some(50_000));
    let (first, second) = left.unwrap();
    // The first call paid CALL_FUEL and the few instructions before it.
    assert!(
        (50_000 - CALL_FUEL as i64 - 5..50_000 - CALL_FUEL as i64).contains(&first),
        "{first}"
    );
    // Between the two: the second call, and the instructions that store the first result.
    let between = first - second;
    assert!(
        (CALL_FUEL as i64..CALL_FUEL as i64 + 10).contains(&between),
        "{between}"
    );
    assert!(used > 2 * CALL_FUEL && used < 2 * CALL_FUEL + 20, "{used}");
    // Without an allowance (or one above the cap), the decision's cap bounds it.
    for fuel in [None, Some(5 * CAP)] {
        let (left, _) = decide(&agent(TWICE), fuel);
        let (first, _) = left.unwrap();
        assert!(
            first < CAP as i64 - CALL_FUEL as i64 && first > CAP as i64 - 2_000,
            "{first}"
        );
    }
}

#[test]
fn running_out_of_the_allowance_is_a_decision_fuel_fault_that_names_it() {
    let (fault, used) = decide(&agent(SPIN), Some(30_000));
    let fault = fault.unwrap_err();
    assert_eq!(fault.kind, FaultKind::DecisionFuel);
    assert_eq!(
        fault.detail,
        "farm_trade used up the 30000 fuel the game allowed it (less than the fuel of one \
         decision)"
    );
    assert_eq!(used, 30_000, "all of the allowance and no more");
    // Out of the cap itself, the usual fault.
    let (fault, used) = decide(&agent(SPIN), Some(CAP));
    assert_eq!(
        fault.unwrap_err().detail,
        "farm_trade used up the fuel of one decision"
    );
    assert_eq!(used, CAP);
    // An allowance of nothing: the first instruction runs out.
    let (fault, used) = decide(&agent(TWICE), Some(0));
    assert_eq!(fault.unwrap_err().kind, FaultKind::DecisionFuel);
    assert_eq!(used, 0);
    // A call to fuel_left that cannot pay is where the fuel runs out.
    let (fault, used) = decide(&agent(TWICE), Some(CALL_FUEL + 2));
    assert_eq!(fault.unwrap_err().kind, FaultKind::DecisionFuel);
    assert_eq!(used, CALL_FUEL + 2);
}

#[test]
fn fuel_left_must_have_its_type() {
    let wat = r#"(module
  (import "arena" "fuel_left" (func $f (result i32)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 0)
  (func (export "arena_buffer_size") (result i32) i32.const 8192)
  (func (export "farm_trade") (param $len i32) (result i32) i32.const 0)
  (func (export "farm_accept") (param $len i32) (result i32) i32.const 0))"#;
    let e = format!(
        "{:#}",
        sandbox().load_bytes("bad", wat.as_bytes()).unwrap_err()
    );
    assert!(
        e.contains("`arena::fuel_left` has type func() -> i32, expected func() -> i64"),
        "{e}"
    );
    // With its type, an agent that imports it loads and plays its game.
    let good = wat.replace("(result i32)))", "(result i64)))");
    let m = sandbox().load_bytes("good", good.as_bytes()).unwrap();
    assert_eq!(m.games().len(), 1);
    assert_eq!(m.games()[0].title, TEST_GAME.title);
    assert!(m.imports().iter().any(|i| i.name == "arena::fuel_left"));
}
