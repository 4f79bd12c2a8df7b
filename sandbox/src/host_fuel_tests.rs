//! Host calls are charged in fuel: every WASI function and `arena.log`, per call and per byte,
//! with the same faults as running out of fuel in WebAssembly.

use std::collections::BTreeMap;

use wasmtime::{Engine, ExternType, Linker, Store};

use super::game_for_tests::{GAMES, TEST_GAME};
use super::log::AgentLog;
use super::store::HostState;
use super::*;

fn limits(fuel_per_decision: u64) -> Limits {
    Limits {
        fuel_per_decision,
        fuel_per_game: 100 * fuel_per_decision,
        ..Limits::default()
    }
}

fn sandbox(fuel_per_decision: u64) -> Sandbox {
    Sandbox::with_compiler(GAMES, limits(fuel_per_decision), Compiler::in_process()).unwrap()
}

/// An agent whose `farm_trade` runs `body` (after `imports`) and passes; 2 pages of memory,
/// the exchange buffer at 0.
fn agent(imports: &str, body: &str, extra: &str) -> String {
    format!(
        r#"(module
  {imports}
  (memory (export "memory") 2)
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 0)
  (func (export "arena_buffer_size") (result i32) i32.const 8192)
  (func (export "farm_trade") (param $len i32) (result i32) {body} i32.const 0)
  (func (export "farm_accept") (param $len i32) (result i32) i32.const 0)
  {extra})"#
    )
}

/// One trade decision of `wat` in a fresh game: its answer or fault, the fuel it used, its log.
fn decide(sb: &Sandbox, wat: &str) -> (Result<(), Fault>, u64, String) {
    let m = sb
        .load_bytes("agent", wat.as_bytes())
        .unwrap_or_else(|e| panic!("{e:#}\n{wat}"));
    run_with_big_stack(move || {
        let mut p = m.player();
        p.start(&TEST_GAME, 0, 2, 7).expect("start");
        let before = p.fuel_used();
        let answer = trade(&mut p).map(|_| ());
        (
            answer,
            p.fuel_used() - before,
            p.take_log().unwrap_or_default(),
        )
    })
}

/// The agent's trade decision (export 0 of the test game), given no observation: these agents
/// read none.
fn trade(p: &mut WasmPlayer) -> Result<(), Fault> {
    p.call(0, |_| 0).map(|_| ())
}

const LOG: &str = r#"(import "arena" "log" (func $log (param i32 i32)))"#;

#[test]
fn arena_log_costs_its_call_and_every_byte_of_a_range_inside_memory() {
    let sb = sandbox(1_000_000);
    let call = |args: &str| decide(&sb, &agent(LOG, &format!("(call $log {args})"), "")).1;
    let empty = call("(i32.const 0) (i32.const 0)");
    assert_eq!(call("(i32.const 0) (i32.const 100)") - empty, 100);
    // Out of memory: ignored, and only the call is paid.
    assert_eq!(call("(i32.const 131000) (i32.const 1000)"), empty);
    // Bytes the log cannot keep (16 KiB per game) are paid for all the same.
    assert_eq!(call("(i32.const 0) (i32.const 100000)") - empty, 100_000);
    let none = decide(
        &sb,
        &agent(LOG, "(drop (i32.const 0)) (drop (i32.const 0))", ""),
    )
    .1;
    // The call instruction itself is one unit of wasmtime's fuel.
    assert_eq!(empty - none, CALL_FUEL + 1);
}

#[test]
fn running_out_of_fuel_in_a_host_call_is_the_fault_of_the_budget_that_ran_out() {
    let hammer = agent(
        LOG,
        "(loop $l (call $log (i32.const 0) (i32.const 4096)) (br $l))",
        "",
    );
    let sb = sandbox(1_000_000);
    let (answer, used, _) = decide(&sb, &hammer);
    let fault = answer.unwrap_err();
    assert_eq!(fault.kind, FaultKind::DecisionFuel, "{fault:?}");
    assert_eq!(fault.detail, "farm_trade used up the fuel of one decision");
    assert_eq!(
        used, 1_000_000,
        "every unit of the decision's fuel is spent"
    );
    assert_eq!(decide(&sb, &hammer).1, used, "the same on every run");

    // When the game's fuel is the smaller budget, it is a game_fuel fault.
    let sb = Sandbox::with_compiler(
        GAMES,
        Limits {
            fuel_per_decision: 1_000_000,
            fuel_per_game: 1_500_000,
            ..Limits::default()
        },
        Compiler::in_process(),
    )
    .unwrap();
    let m = sb.load_bytes("hammer", hammer.as_bytes()).unwrap();
    let (first, second) = run_with_big_stack(move || {
        let mut p = m.player();
        p.start(&TEST_GAME, 0, 2, 7).unwrap();
        (trade(&mut p).unwrap_err(), trade(&mut p).unwrap_err())
    });
    assert_eq!(first.kind, FaultKind::DecisionFuel);
    assert_eq!(second.kind, FaultKind::GameFuel, "{second:?}");
    assert!(second.detail.contains("used up the fuel left for the game"));
}

/// The core type of every function `linker` defines, by `module::name`.
fn types(linker: &Linker<HostState>, store: &mut Store<HostState>) -> BTreeMap<String, String> {
    let found: Vec<(String, wasmtime::Extern)> = linker
        .iter(&mut *store)
        .map(|(m, n, e)| (format!("{m}::{n}"), e))
        .collect();
    found
        .into_iter()
        .map(|(name, e)| {
            let ty = e.ty(&*store);
            let ExternType::Func(f) = ty else {
                return (name, "not a function".into());
            };
            let list = |it: &mut dyn Iterator<Item = wasmtime::ValType>| {
                it.map(|t| t.to_string()).collect::<Vec<_>>().join(" ")
            };
            (
                name,
                format!(
                    "({}) -> ({})",
                    list(&mut f.params()),
                    list(&mut f.results())
                ),
            )
        })
        .collect()
}

/// wasmtime-wasi's own preview1 functions, and the arena's that replace them (and charge fuel),
/// each in a linker of their own, to compare the two.
fn original_and_charged(engine: &Engine) -> (Linker<HostState>, Linker<HostState>) {
    let mut original: Linker<HostState> = Linker::new(engine);
    wasmtime_wasi::p1::add_to_linker_sync(&mut original, |s: &mut HostState| {
        s.wasi.as_mut().unwrap()
    })
    .unwrap();
    let mut charged: Linker<HostState> = Linker::new(engine);
    wasi::add_to_linker(&mut charged).unwrap();
    (original, charged)
}

#[test]
fn every_wasi_function_of_wasmtime_wasi_is_replaced_with_its_own_type() {
    let sb = sandbox(1_000_000);
    let engine = sb.engine();
    let (original, charged) = original_and_charged(engine);
    let state = HostState::new(
        &Limits::default(),
        super::store::Guest::Preview1,
        1,
        AgentLog::new(64),
    );
    let mut store = Store::new(engine, state);
    let original = types(&original, &mut store);
    assert_eq!(types(&charged, &mut store), original);
    let ours: Vec<String> = WASI_FUNCTIONS
        .iter()
        .map(|f| format!("{WASI_MODULE}::{}", f.name))
        .collect();
    let mut sorted = ours.clone();
    sorted.sort();
    assert_eq!(sorted, original.keys().cloned().collect::<Vec<_>>());
    // The table's types are the linker's.
    for f in WASI_FUNCTIONS {
        let ty = &original[&format!("{WASI_MODULE}::{}", f.name)];
        let want = format!(
            "({}) -> ({})",
            f.params.join(" "),
            if f.returns_errno { "i32" } else { "" }
        );
        assert_eq!(ty, &want, "{}", f.name);
    }
}

#[test]
fn every_wasi_function_costs_its_call_and_hammering_it_ends_within_the_fuel() {
    let sb = sandbox(200_000);
    for f in WASI_FUNCTIONS {
        let (import, call) = (f.import_wat(), f.zero_call_wat());
        let once = decide(&sb, &agent(&import, &call, ""));
        // The same constants without the call.
        let consts: String = f
            .params
            .iter()
            .map(|t| format!("(drop ({t}.const 0))"))
            .collect();
        let without = decide(&sb, &agent(&import, &consts, ""));
        if f.name == "proc_exit" {
            let fault = once.0.unwrap_err();
            assert!(fault.detail.contains("proc_exit(0)"), "{fault:?}");
            continue;
        }
        assert_eq!(
            once.1 - without.1,
            CALL_FUEL + 1,
            "{}: {:?}",
            f.name,
            once.0
        );
        let hammer = agent(&import, &format!("(loop $l {call} (br $l))"), "");
        let (answer, used, _) = decide(&sb, &hammer);
        let fault = answer.unwrap_err();
        assert_eq!(fault.kind, FaultKind::DecisionFuel, "{}: {fault:?}", f.name);
        assert_eq!(used, 200_000, "{}", f.name);
    }
}

const FD_WRITE: &str = r#"(import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))"#;

#[test]
fn fd_write_pays_for_the_iovecs_it_reads_and_the_buffer_it_writes() {
    let sb = sandbox(1_000_000);
    // Iovecs at 1000: two empty ones, then 100 bytes at 2000, then 50 more the call never reads.
    let iovecs = r#"(data (i32.const 1000) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\d0\07\00\00\64\00\00\00\d0\07\00\00\32\00\00\00")"#;
    let write = |count: i32| {
        decide(
            &sb,
            &agent(
                FD_WRITE,
                &format!(
                    "(drop (call $fd_write (i32.const 1) (i32.const 1000) (i32.const {count}) (i32.const 3000)))"
                ),
                iovecs,
            ),
        )
    };
    let (answer, nothing, _) = write(0);
    answer.unwrap();
    let (_, two_empty, log) = write(2);
    assert_eq!(log, "");
    assert_eq!(two_empty - nothing, 16);
    let (_, one_buffer, log) = write(4);
    assert_eq!(log.len(), 100, "one buffer per call");
    assert_eq!(one_buffer - nothing, 3 * 8 + 100);
}

const RANDOM_GET: &str = r#"(import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))"#;

/// A module that fills memory with `random_get` requests of the given sizes, one after the other
/// from address 0, and exports `run`.
fn random_requests(sizes: &[u32]) -> String {
    let mut body = String::new();
    let mut at = 0;
    for n in sizes {
        body.push_str(&format!(
            "(if (call $random_get (i32.const {at}) (i32.const {n})) (then unreachable))\n"
        ));
        at += n;
    }
    format!(
        r#"(module {RANDOM_GET}
  (memory (export "memory") 2)
  (func (export "run") {body}))"#
    )
}

#[test]
fn random_get_serves_the_bytes_wasmtime_wasi_served() {
    // Requests of every size class, 24 KiB in all: past the 16 KiB cycle.
    let sizes: Vec<u32> = [0, 1, 3, 4, 4096, 7, 4000, 4096, 4096, 4096, 2048, 1024, 999]
        .into_iter()
        .collect();
    let total: u32 = sizes.iter().sum();
    let sb = sandbox(100_000_000);
    let engine = sb.engine();
    let module = wasmtime::Module::new(engine, random_requests(&sizes)).unwrap();
    let bytes = |linker: &Linker<HostState>| {
        let state = HostState::new(
            &Limits::default(),
            super::store::Guest::Preview1,
            42,
            AgentLog::new(64),
        );
        let mut store = Store::new(engine, state);
        store.set_fuel(u64::MAX).unwrap();
        store.set_epoch_deadline(1 << 40);
        let instance = linker.instantiate(&mut store, &module).unwrap();
        instance
            .get_typed_func::<(), ()>(&mut store, "run")
            .unwrap()
            .call(&mut store, ())
            .unwrap();
        let memory = instance.get_memory(&mut store, "memory").unwrap();
        memory.data(&store)[..total as usize].to_vec()
    };
    let (original, charged) = original_and_charged(engine);
    let want = bytes(&original);
    assert!(want.iter().any(|&b| b != 0));
    assert_eq!(bytes(&charged), want);
}

#[test]
fn random_get_pays_per_byte_and_refuses_more_than_4_kib() {
    let sb = sandbox(1_000_000);
    let call = |n: u32| {
        decide(
            &sb,
            &agent(
                RANDOM_GET,
                &format!("(drop (call $random_get (i32.const 0) (i32.const {n})))"),
                "",
            ),
        )
    };
    let (_, none, _) = call(0);
    assert_eq!(call(4096).1 - none, 4096);
    let (answer, _, _) = call(4097);
    let fault = answer.unwrap_err();
    assert_eq!(fault.kind, FaultKind::Trap);
    assert!(fault.detail.contains("at most 4096"), "{fault:?}");
}
