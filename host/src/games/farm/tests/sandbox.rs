//! The sandbox under Little Animal Farm: hand-written WAT agents load or are refused, play, fault
//! and are bounded as the game sees them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use farm_rules::{Herd, Offer, Partner, Position, Trade};

use super::support::{play_game, FarmPlayer, SeededDice};
use crate::game::{Game, Host, Hosted, Seat, Table};
use crate::games::farm::{
    AcceptView, Event, Farm, Fault, FaultKind, FaultPolicy, GameRecord, Observation, Setup,
};
use crate::records::RecordMeta;
use crate::sandbox::*;

/// An agent module: the ABI exports around the given trade and accept bodies, plus `extra`
/// (imports must come first in WAT: put them in `imports`).
fn agent_wat(imports: &str, trade: &str, accept: &str, extra: &str) -> String {
    format!(
        r#"(module
  {imports}
  (memory (export "memory") 1)
  (global $calls (mut i32) (i32.const 0))
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 4096)
  (func (export "arena_buffer_size") (result i32) i32.const 16384)
  (func (export "farm_trade") (param $len i32) (result i32) {trade})
  (func (export "farm_accept") (param $len i32) (result i32) {accept})
  {extra}
)"#
    )
}

fn passer() -> String {
    passer_with("")
}

/// A passer with `extra` module fields (functions, tables, data, a start function).
fn passer_with(extra: &str) -> String {
    agent_wat("", "i32.const 0", "i32.const 0", extra)
}

/// An agent whose `farm_trade` runs `body` (and whose `farm_accept` declines).
fn trading(body: &str) -> String {
    agent_wat("", body, "i32.const 0", "")
}

/// Offers the stock 6 rabbits for a sheep every turn (legal only when it has the rabbits).
fn rabbit_trader() -> String {
    agent_wat(
        "",
        r#"(memory.fill (i32.const 4096) (i32.const 0) (i32.const 64))
           (i32.store (i32.const 4096) (i32.const 1))
           (i32.store (i32.const 4104) (i32.const 6))
           (i32.store (i32.const 4136) (i32.const 1))
           i32.const 64"#,
        "i32.const 1",
        "",
    )
}

fn small_limits() -> Limits {
    Limits {
        fuel_per_decision: 1_000_000,
        fuel_per_game: 100_000_000,
        ..Limits::default()
    }
}

fn sandbox() -> Sandbox {
    sandbox_with(small_limits())
}

fn sandbox_with(limits: Limits) -> Sandbox {
    Sandbox::new(crate::games::registry().agents(), limits).unwrap()
}

fn load(sb: &Sandbox, name: &str, wat: &str) -> AgentModule {
    sb.load_bytes(name, wat.as_bytes())
        .unwrap_or_else(|e| panic!("{name} should load: {e:#}"))
}

fn load_err(sb: &Sandbox, wat_or_bytes: impl AsRef<[u8]>) -> String {
    match sb.load_bytes("bad", wat_or_bytes.as_ref()) {
        Ok(_) => panic!("module should be refused"),
        Err(e) => format!("{e:#}"),
    }
}

fn play(a: &AgentModule, b: &AgentModule, seed: u64, cap: u32, policy: FaultPolicy) -> GameRecord {
    let (a, b) = (a.clone(), b.clone());
    run_with_big_stack(move || {
        let mut pa = a.player_with_round_cap(cap);
        let mut pb = b.player_with_round_cap(cap);
        let mut seats: Vec<&mut dyn FarmPlayer> = vec![&mut pa, &mut pb];
        let mut setup = Setup::standard(2, seed, cap);
        setup.policy = policy;
        play_game(&setup, &mut seats, &mut SeededDice::new(seed))
    })
}

fn all_events(r: &GameRecord) -> Vec<Event> {
    r.end
        .start_events
        .iter()
        .chain(r.turns.iter().flat_map(|t| t.events.iter()))
        .cloned()
        .collect()
}

fn faults(r: &GameRecord) -> Vec<(usize, FaultKind, String)> {
    all_events(r)
        .into_iter()
        .filter_map(|e| match e {
            Event::Fault { seat, fault, .. } => Some((seat, fault.kind, fault.detail)),
            _ => None,
        })
        .collect()
}

/// A trade observation for seat 0 of a 2-player standard start.
fn with_obs<R>(f: impl FnOnce(&Observation) -> R) -> R {
    let pos = Position::new(2);
    let obs = Observation {
        seat: 0,
        to_move: 0,
        turn: 1,
        round: 1,
        position: &pos,
        events: &[],
    };
    f(&obs)
}

fn accept_view() -> AcceptView {
    let give = Herd::of(farm_rules::Animal::Sheep, 1);
    let get = Herd::of(farm_rules::Animal::Rabbit, 6);
    AcceptView {
        trader: 1,
        offer: Offer::with_player(0, give, get),
        trade: Trade {
            partner: Partner::Player(0),
            give,
            get,
        },
    }
}

/// The fault of `m`'s first trade (seed 1), which must fail.
fn first_trade_fault(m: &AgentModule) -> Fault {
    with_player(m, 1, |p| with_obs(|o| p.trade(o).unwrap_err()))
}

/// Starts a player for seat 0 and runs `f` on a big stack.
fn with_player<R: Send>(
    m: &AgentModule,
    seed: u64,
    f: impl FnOnce(&mut WasmPlayer) -> R + Send,
) -> R {
    let m = m.clone();
    run_with_big_stack(move || {
        let mut p = m.player();
        p.start(&crate::games::farm::INFO.agent, 0, 2, seed)
            .expect("start");
        f(&mut p)
    })
}

#[test]
fn minimal_agents_play_a_whole_game() {
    let sb = sandbox();
    let a = load(&sb, "passer", &passer());
    let b = load(&sb, "trader", &rabbit_trader());
    assert_eq!(a.abi_version(), 1);
    assert!(!a.uses_wasi());
    assert_eq!(a.sha256().len(), 64);
    assert!(a.exports().iter().any(|e| e.name == "farm_trade"));
    let r = play(&a, &b, 7, 200, FaultPolicy::Forfeit);
    assert!(faults(&r).is_empty(), "{:?}", faults(&r));
    assert!(!r.turns.is_empty());
    // The trader's legal trades went through at least once in 200 rounds.
    let transfers = all_events(&r)
        .iter()
        .filter(|e| matches!(e, Event::Transfer { .. }))
        .count();
    assert!(
        transfers > 0,
        "the trader never traded: {:?} {:?} {:?}",
        r.end.outcome,
        r.end.rounds,
        r.end.final_position
    );
}

#[test]
fn loads_text_and_binary_alike_and_hashes_the_binary() {
    let sb = sandbox();
    let text = passer();
    let bin = wat::parse_str(&text).unwrap();
    let a = sb.load_bytes("t", text.as_bytes()).unwrap();
    let b = sb.load_bytes("b", &bin).unwrap();
    assert_eq!(a.sha256(), b.sha256());
    assert_eq!(a.size(), bin.len() as u64);
    let dir = std::env::temp_dir().join(format!("arena-sandbox-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("passer.wat");
    std::fs::write(&path, &text).unwrap();
    let m = sb.load(&path).unwrap();
    assert_eq!(m.name(), "passer");
    let path = dir.join("passer.wasm");
    std::fs::write(&path, &bin).unwrap();
    assert_eq!(sb.load(&path).unwrap().sha256(), a.sha256());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn refuses_modules_without_the_exports() {
    let sb = sandbox();
    let e = load_err(&sb, r#"(module (memory (export "memory") 1))"#);
    assert!(e.contains("missing export `farm_trade`"), "{e}");
    assert!(e.contains("missing export `arena_abi_version`"), "{e}");
    let e = load_err(
        &sb,
        passer().replace(r#"(memory (export "memory") 1)"#, "(memory 1)"),
    );
    assert!(e.contains("missing export `memory`"), "{e}");
}

#[test]
fn refuses_wrong_export_signatures() {
    let sb = sandbox();
    let wat = passer().replace(
        r#"(func (export "farm_accept") (param $len i32) (result i32) i32.const 0)"#,
        r#"(func (export "farm_accept") (param i64) (result i32) i32.const 0)"#,
    );
    let e = load_err(&sb, wat);
    assert!(
        e.contains("export `farm_accept` has type func(i64) -> i32, expected func(i32) -> i32"),
        "{e}"
    );
}

#[test]
fn refuses_foreign_imports_naming_them() {
    let sb = sandbox();
    for (import, named) in [
        (
            r#"(import "env" "system" (func (param i32) (result i32)))"#,
            "env::system",
        ),
        (
            r#"(import "arena" "log" (func (param i32) (result i32)))"#,
            "arena::log",
        ),
        (
            r#"(import "wasi_snapshot_preview1" "no_such_call" (func))"#,
            "no_such_call",
        ),
    ] {
        let e = load_err(&sb, agent_wat(import, "i32.const 0", "i32.const 0", ""));
        assert!(e.contains(named), "{e}");
    }
}

#[test]
fn refuses_the_wrong_abi_version() {
    let sb = sandbox();
    let wat = passer().replace(
        r#"(func (export "arena_abi_version") (result i32) i32.const 1)"#,
        r#"(func (export "arena_abi_version") (result i32) i32.const 2)"#,
    );
    let e = load_err(&sb, wat);
    assert!(e.contains("arena_abi_version() returned 2"), "{e}");
}

#[test]
fn refuses_non_wasm_truncated_and_components() {
    let sb = sandbox();
    let e = load_err(&sb, b"hello, I am not wasm");
    assert!(e.contains("not a WebAssembly module"), "{e}");
    let bin = wat::parse_str(passer()).unwrap();
    let e = load_err(&sb, &bin[..bin.len() / 2]);
    assert!(e.contains("invalid WebAssembly module"), "{e}");
    let e = load_err(&sb, &bin[..6]);
    assert!(e.contains("truncated"), "{e}");
    let e = load_err(&sb, b"\0asm\x0d\0\x01\0");
    assert!(e.contains("component"), "{e}");
    let e = load_err(&sb, b"(module (func $oops");
    assert!(e.contains("invalid WebAssembly text"), "{e}");
}

#[test]
fn refuses_files_over_the_size_cap_before_reading_them() {
    let sb = sandbox_with(Limits {
        module_bytes: 100,
        ..small_limits()
    });
    let dir = std::env::temp_dir().join(format!("arena-sandbox-cap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.wat");
    std::fs::write(&path, passer()).unwrap();
    let e = format!("{:#}", sb.load(&path).unwrap_err());
    assert!(
        e.contains("big.wat") && e.contains("larger than the module size limit"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_infinite_loop_is_a_decision_fuel_fault_and_the_game_goes_on() {
    let sb = sandbox();
    let looper = load(&sb, "looper", &trading("(loop $l br $l) i32.const 0"));
    let passer = load(&sb, "passer", &passer());
    let r = play(&looper, &passer, 3, 5, FaultPolicy::LoseMove);
    let f = faults(&r);
    assert_eq!(f.len(), 5, "one fault per round: {f:?}");
    assert!(
        f.iter()
            .all(|(seat, kind, _)| *seat == 0 && *kind == FaultKind::DecisionFuel),
        "{f:?}"
    );
    assert_eq!(r.end.rounds, 5);
    // Under the default policy the looper forfeits and the passer wins as last standing.
    let r = play(&looper, &passer, 3, 5, FaultPolicy::Forfeit);
    assert_eq!(r.end.outcome.winner(), Some(1));
}

#[test]
fn the_wall_clock_backstop_is_a_timeout_that_says_it_depends_on_the_machine() {
    // More fuel than the backstop lets it burn.
    let sb = sandbox_with(Limits {
        fuel_per_decision: u64::MAX / 4,
        fuel_per_game: u64::MAX / 2,
        decision_wall_ms: 20,
        ..Limits::default()
    });
    let looper = load(&sb, "looper", &trading("(loop $l (br $l)) i32.const 0"));
    let fault = first_trade_fault(&looper);
    assert_eq!(fault.kind, FaultKind::Timeout);
    assert_eq!(
        fault.detail,
        "farm_trade ran past the wall-clock backstop before its fuel ran out; a timeout depends \
         on the machine and its load, so this result may not reproduce"
    );
}

#[test]
fn the_game_budget_ends_with_game_fuel_and_no_more_calls() {
    let sb = sandbox_with(Limits {
        fuel_per_decision: 1_000_000,
        fuel_per_game: 2_500_000,
        ..Limits::default()
    });
    let looper = load(&sb, "looper", &trading("(loop $l br $l) i32.const 0"));
    let kinds = with_player(&looper, 1, |p| {
        let kinds: Vec<_> = (0..5)
            .map(|_| with_obs(|o| p.trade(o).unwrap_err().kind))
            .collect();
        (kinds, p.fuel_used(), p.fuel_left())
    });
    let (kinds, used, left) = kinds;
    use FaultKind::*;
    assert_eq!(
        kinds,
        [DecisionFuel, DecisionFuel, GameFuel, GameFuel, GameFuel]
    );
    assert_eq!(left, 0);
    assert!(used >= 2_500_000, "{used}");
}

/// `farm_trade` grows the memory 16 pages at a time until `memory.grow` answers -1, then runs
/// `after` and passes.
fn grow_until_refused(after: &str) -> String {
    trading(&format!(
        "(loop $l (br_if $l (i32.ne (memory.grow (i32.const 16)) (i32.const -1)))) {after} i32.const 0"
    ))
}

#[test]
fn memory_grow_past_the_limit_answers_minus_one_and_is_logged() {
    let sb = sandbox();
    let m = load(&sb, "grower", &grow_until_refused(""));
    let (answer, log, size) = with_player(&m, 1, |p| {
        let answer = with_obs(|o| p.trade(o));
        (answer, p.take_log(), p.memory_bytes())
    });
    assert_eq!(answer, Ok(Offer::PASS), "{log:?}");
    assert_eq!(size, 497 << 16, "the memory kept what it could grow");
    assert_eq!(
        log.as_deref(),
        Some(
            "arena: memory.grow refused: linear memory of 33619968 bytes requested, \
             the limit is 33554432 bytes\n"
        )
    );
}

#[test]
fn a_trap_after_a_refused_grow_in_the_same_decision_is_a_memory_limit_fault() {
    let sb = sandbox();
    // After the refusal, a load one byte past the end of the memory it has.
    let bomb = load(
        &sb,
        "bomb",
        &grow_until_refused("(drop (i32.load8_u (i32.mul (memory.size) (i32.const 65536))))"),
    );
    let fault = first_trade_fault(&bomb);
    assert_eq!(fault.kind, FaultKind::MemoryLimit, "{fault:?}");
    assert_eq!(
        fault.detail,
        "farm_trade trapped (out of bounds memory access) after memory.grow was refused: \
         linear memory of 33619968 bytes requested, the limit is 33554432 bytes"
    );

    // A refusal in an earlier decision does not change what a later trap is.
    let late = load(
        &sb,
        "late",
        &trading(
            "(if (global.get $calls) (then unreachable))
             (global.set $calls (i32.const 1))
             (drop (memory.grow (i32.const 1000)))
             i32.const 0",
        ),
    );
    let (first, second) = with_player(&late, 1, |p| {
        (
            with_obs(|o| p.trade(o)),
            with_obs(|o| p.trade(o).unwrap_err()),
        )
    });
    assert_eq!(first, Ok(Offer::PASS));
    assert_eq!(second.kind, FaultKind::Trap, "{second:?}");
}

#[test]
fn table_grow_past_the_limit_answers_minus_one_and_is_logged() {
    let sb = sandbox();
    let m = load(
        &sb,
        "tables",
        &agent_wat(
            "",
            "(if (i32.ne (table.grow $t (ref.null func) (i32.const 20000)) (i32.const -1))
               (then unreachable))
             i32.const 0",
            "i32.const 0",
            "(table $t 1 funcref)",
        ),
    );
    let (answer, log) = with_player(&m, 1, |p| (with_obs(|o| p.trade(o)), p.take_log()));
    assert_eq!(answer, Ok(Offer::PASS));
    assert_eq!(
        log.as_deref(),
        Some("arena: table.grow refused: table of 20001 elements requested, the limit is 10000 elements\n")
    );
}

#[test]
fn a_module_whose_initial_memory_is_past_the_limit_is_refused_at_load() {
    let sb = sandbox();
    let big = load_err(
        &sb,
        passer().replace(
            r#"(memory (export "memory") 1)"#,
            r#"(memory (export "memory") 1000)"#,
        ),
    );
    assert!(
        big.contains("linear memory of 65536000 bytes requested, the limit is 33554432 bytes"),
        "{big}"
    );
}

#[test]
fn unreachable_is_a_trap_with_its_message() {
    let sb = sandbox();
    let fault = first_trade_fault(&load(&sb, "crash", &trading("unreachable")));
    assert_eq!(fault.kind, FaultKind::Trap);
    assert!(fault.detail.contains("unreachable"), "{fault:?}");
}

#[test]
fn deep_recursion_is_a_stack_overflow() {
    let sb = sandbox();
    let m = load(
        &sb,
        "deep",
        &agent_wat(
            "",
            "(call $down (i32.const 0))",
            "i32.const 0",
            r#"(func $down (param i32) (result i32) (call $down (i32.add (local.get 0) (i32.const 1))))"#,
        ),
    );
    let fault = first_trade_fault(&m);
    assert_eq!(fault.kind, FaultKind::StackOverflow, "{fault:?}");
}

#[test]
fn bad_answers_are_bad_answer_faults() {
    let sb = sandbox();
    for ret in ["17", "-1", "1000000"] {
        let m = load(
            &sb,
            "bad",
            &agent_wat("", &format!("i32.const {ret}"), "i32.const 7", ""),
        );
        let (t, a) = with_player(&m, 1, |p| {
            let t = with_obs(|o| p.trade(o).unwrap_err());
            let a = with_obs(|o| p.accept(o, &accept_view()).unwrap_err());
            (t, a)
        });
        assert_eq!(t.kind, FaultKind::BadAnswer, "{t:?}");
        assert!(t.detail.contains(ret), "{t:?}");
        assert_eq!(a.kind, FaultKind::BadAnswer, "{a:?}");
        assert!(a.detail.contains("returned 7"), "{a:?}");
    }
}

#[test]
fn answers_are_read_from_the_buffer() {
    let sb = sandbox();
    let m = load(&sb, "trader", &rabbit_trader());
    let (offer, accepted) = with_player(&m, 1, |p| {
        let o = with_obs(|o| p.trade(o).unwrap());
        let a = with_obs(|o| p.accept(o, &accept_view()).unwrap());
        (o, a)
    });
    assert_eq!(offer.kind, 1);
    assert_eq!(offer.give[0], 6);
    assert_eq!(offer.get[1], 1);
    assert!(accepted);
}

#[test]
fn the_observation_arrives_in_the_buffer() {
    // The agent checks the envelope (ABI 1, game 1, decision 1, 2 players) and traps otherwise.
    let sb = sandbox();
    let m = load(
        &sb,
        "reader",
        &trading(
            r#"(if (i32.ne (i32.load (i32.const 4096)) (i32.const 1)) (then unreachable))
               (if (i32.ne (i32.load (i32.const 4100)) (i32.const 1)) (then unreachable))
               (if (i32.ne (i32.load (i32.const 4104)) (i32.const 1)) (then unreachable))
               (if (i32.ne (i32.load (i32.const 4112)) (i32.const 2)) (then unreachable))
               (if (i32.lt_u (local.get $len) (i32.const 312)) (then unreachable))
               i32.const 0"#,
        ),
    );
    let offer = with_player(&m, 1, |p| with_obs(|o| p.trade(o)));
    assert_eq!(offer, Ok(Offer::PASS));
}

#[test]
fn init_gets_the_seed_and_a_nonzero_return_fails_the_load() {
    let sb = sandbox();
    // arena_init checks decision 0 and a round cap of 300, then returns the low seed byte's parity.
    let init = r#"(func (export "arena_init") (param $len i32) (result i32)
        (if (i32.ne (i32.load (i32.const 4104)) (i32.const 0)) (then unreachable))
        (if (i32.ne (i32.load (i32.const 4136)) (i32.const 300)) (then unreachable))
        (if (i32.ne (local.get $len) (i32.const 48)) (then unreachable))
        (i32.and (i32.load8_u (i32.const 4128)) (i32.const 1)))"#;
    let m = load(&sb, "init", &passer_with(init));
    assert!(m.has_init());
    let results = run_with_big_stack(|| {
        (0..2u64)
            .map(|seed| {
                m.player()
                    .start(&crate::games::farm::INFO.agent, 0, 2, seed)
                    .map_err(|f| f.kind)
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(results, [Ok(()), Err(FaultKind::LoadFailed)]);
}

#[test]
fn a_start_function_loop_fails_the_load_not_the_host() {
    let sb = sandbox();
    let looping = load_err(
        &sb,
        passer_with(r#"(func $start (loop $l br $l)) (start $start)"#),
    );
    assert!(looping.contains("fuel"), "{looping}");
}

#[test]
fn a_failing_initialize_refuses_the_module_at_load() {
    let sb = sandbox();
    let e = load_err(
        &sb,
        passer_with(r#"(func (export "_initialize") unreachable)"#),
    );
    assert!(e.contains("_initialize"), "{e}");
    assert!(e.contains("unreachable"), "{e}");
}

#[test]
fn a_start_function_that_fails_in_one_game_is_a_load_fault_of_that_game() {
    // The start function traps when the first random byte of the game is odd (or even): the
    // variant that passes the load probe (seed 0) fails in some games and not in others.
    let variant = |test: &str| {
        agent_wat(
            r#"(import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))"#,
            "i32.const 0",
            "i32.const 0",
            &format!(
                "(func $start
                   (drop (call $random_get (i32.const 0) (i32.const 1)))
                   (if ({test} (i32.and (i32.load8_u (i32.const 0)) (i32.const 1)))
                     (then unreachable)))
                 (start $start)"
            ),
        )
    };
    let sb = sandbox();
    let m = [variant(""), variant("i32.eqz")]
        .iter()
        .find_map(|wat| sb.load_bytes("start", wat.as_bytes()).ok())
        .expect("one variant passes the load probe");
    let outcomes: Vec<Result<(), Fault>> = run_with_big_stack(move || {
        (1..=20)
            .map(|seed| {
                m.player()
                    .start(&crate::games::farm::INFO.agent, 0, 2, seed)
            })
            .collect()
    });
    assert!(outcomes.iter().any(|o| o.is_ok()), "{outcomes:?}");
    let failed: Vec<&Fault> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
    assert!(!failed.is_empty(), "no seed made the start function fail");
    for f in failed {
        assert_eq!(f.kind, FaultKind::Trap, "{f:?}");
        assert!(f.detail.starts_with("instantiation"), "{f:?}");
    }
}

#[test]
fn more_than_four_tables_are_refused_at_load() {
    let sb = sandbox();
    let e = load_err(&sb, passer_with(&"(table 1 funcref)".repeat(5)));
    assert!(e.contains("defines 5 tables; the arena allows 4"), "{e}");
}

#[test]
fn every_game_gets_a_fresh_instance() {
    // farm_trade counts its calls in a global and logs the count as a digit.
    let sb = sandbox();
    let counter = agent_wat(
        r#"(import "arena" "log" (func $log (param i32 i32)))"#,
        r#"(global.set $calls (i32.add (global.get $calls) (i32.const 1)))
           (i32.store8 (i32.const 0) (i32.add (i32.const 48) (global.get $calls)))
           (call $log (i32.const 0) (i32.const 1))
           i32.const 0"#,
        "i32.const 0",
        "",
    );
    let m = load(&sb, "counter", &counter);
    let logs = run_with_big_stack(|| {
        let mut p = m.player();
        let mut out = Vec::new();
        for game in 0..3 {
            p.start(&crate::games::farm::INFO.agent, 0, 2, game)
                .unwrap();
            for _ in 0..2 {
                with_obs(|o| p.trade(o).unwrap());
                out.push(p.take_log().unwrap_or_default());
            }
        }
        let mut fresh = m.player();
        fresh
            .start(&crate::games::farm::INFO.agent, 0, 2, 9)
            .unwrap();
        with_obs(|o| fresh.trade(o).unwrap());
        out.push(fresh.take_log().unwrap_or_default());
        out
    });
    assert_eq!(logs, ["1", "2", "1", "2", "1", "2", "1"]);
}

/// Checks at `arena_init` that it sees the module as instantiated, not as any earlier game left
/// it: 2 pages of memory, its data segment, zeros elsewhere (also in pages it grows), an empty
/// table slot. Then it writes over all of that: its data segment, a word in every 4 KiB of 3 MiB of
/// grown memory (more than the pool keeps resident, so both ways of resetting a slot are used),
/// and the table slot. `arena_init` returns the number of the first check that failed;
/// `farm_trade` logs "dirty" when it sees its own writes, so the test knows they happened.
const SCRIBBLER: &str = r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 2)
  (table $t 4 funcref)
  (elem (i32.const 0) $noop)
  (data (i32.const 1024) "pristine")
  (data (i32.const 2048) "dirty")
  (func $noop)
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 4096)
  (func (export "arena_buffer_size") (result i32) i32.const 16384)
  (func (export "arena_init") (param $len i32) (result i32)
    (local $p i32)
    (if (i32.ne (memory.size) (i32.const 2)) (then (return (i32.const 1))))
    (if (i64.ne (i64.load (i32.const 1024)) (i64.const 0x656e697473697270))
      (then (return (i32.const 2))))
    (if (i32.ne (i32.load (i32.const 65544)) (i32.const 0)) (then (return (i32.const 3))))
    (if (i32.eqz (ref.is_null (table.get $t (i32.const 1)))) (then (return (i32.const 4))))
    (if (i32.eq (memory.grow (i32.const 48)) (i32.const -1)) (then (return (i32.const 5))))
    (i64.store (i32.const 1024) (i64.const -1))
    (local.set $p (i32.const 65536))
    (loop $l
      (if (i32.ne (i32.load offset=8 (local.get $p)) (i32.const 0)) (then (return (i32.const 6))))
      (i32.store offset=8 (local.get $p) (i32.const 0xdeadbeef))
      (local.set $p (i32.add (local.get $p) (i32.const 4096)))
      (br_if $l (i32.lt_u (local.get $p) (i32.const 3276800))))
    (table.set $t (i32.const 1) (ref.func $noop))
    i32.const 0)
  (func (export "farm_trade") (param $len i32) (result i32)
    (if (i32.and
          (i64.eq (i64.load (i32.const 1024)) (i64.const -1))
          (i32.eq (i32.load (i32.const 3272712)) (i32.const 0xdeadbeef)))
      (then (call $log (i32.const 2048) (i32.const 5))))
    i32.const 0)
  (func (export "farm_accept") (param $len i32) (result i32) i32.const 0)
)"#;

#[test]
fn a_game_never_sees_what_an_earlier_game_wrote() {
    // The allocation this machine gives, and the two every machine has.
    scribble_games(&sandbox());
    for allocation in [Allocation::Pool, Allocation::OnDemand] {
        scribble_games(
            &Sandbox::allocating_instances(
                crate::games::registry().agents(),
                small_limits(),
                allocation,
                DEFAULT_INSTANCES,
            )
            .unwrap(),
        );
    }
}

/// Pool slots are reset and reused: the scribbler plays with the same player over many games,
/// with new players, and on two threads at once (each slot used by both in turn).
fn scribble_games(sb: &Sandbox) {
    let m = load(sb, "scribbler", SCRIBBLER);
    let games = |m: &AgentModule| {
        let mut logs = Vec::new();
        let mut p = m.player();
        for game in 0..40 {
            if game % 4 == 0 {
                p = m.player();
            }
            p.start(&crate::games::farm::INFO.agent, 0, 2, game)
                .unwrap_or_else(|f| panic!("game {game}: {}", f.detail));
            with_obs(|o| p.trade(o).unwrap());
            logs.push(p.take_log().unwrap_or_default());
        }
        logs
    };
    let per_thread = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let m = m.clone();
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(s, move || games(&m))
                    .unwrap()
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap())
            .collect::<Vec<_>>()
    });
    for logs in per_thread {
        assert_eq!(logs, vec!["dirty"; 40], "{}", sb.allocation());
    }
}

#[test]
fn the_log_is_bounded_and_out_of_bounds_logs_are_ignored() {
    let sb = sandbox_with(Limits {
        log_bytes: 10,
        ..small_limits()
    });
    let m = load(
        &sb,
        "chatty",
        &agent_wat(
            r#"(import "arena" "log" (func $log (param i32 i32)))"#,
            r#"(call $log (i32.const 100) (i32.const 6))
               (call $log (i32.const 65530) (i32.const 100))
               (call $log (i32.const -1) (i32.const -1))
               (call $log (i32.const 100) (i32.const 6))
               i32.const 0"#,
            "i32.const 0",
            r#"(data (i32.const 100) "hello ")"#,
        ),
    );
    let (first, second) = with_player(&m, 1, |p| {
        with_obs(|o| p.trade(o).unwrap());
        let first = p.take_log();
        with_obs(|o| p.trade(o).unwrap());
        (first, p.take_log())
    });
    assert_eq!(first.as_deref(), Some("hello hell"));
    assert_eq!(second, None);
}

/// A WASI agent: farm_trade prints "hi from wasi\n" to stdout, logs 8 random bytes (as hex) and
/// the monotonic clock, sleeps 5 s through poll_oneoff, and traps on any nonzero errno.
fn wasi_agent() -> String {
    agent_wat(
        r#"(import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
           (import "wasi_snapshot_preview1" "clock_time_get" (func $clock_time_get (param i32 i64 i32) (result i32)))
           (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll_oneoff (param i32 i32 i32 i32) (result i32)))
           (import "arena" "log" (func $log (param i32 i32)))"#,
        r#"(local $i i32)
           ;; iovec at 200: {ptr 100, len 13}
           (i32.store (i32.const 200) (i32.const 100))
           (i32.store (i32.const 204) (i32.const 13))
           (call $check (call $fd_write (i32.const 1) (i32.const 200) (i32.const 1) (i32.const 208)))
           (call $check (call $random_get (i32.const 300) (i32.const 8)))
           ;; hex of the 8 random bytes at 400..416
           (loop $l
             (call $hex (i32.add (i32.const 400) (i32.shl (local.get $i) (i32.const 1)))
                        (i32.load8_u (i32.add (i32.const 300) (local.get $i))))
             (local.set $i (i32.add (local.get $i) (i32.const 1)))
             (br_if $l (i32.lt_u (local.get $i) (i32.const 8))))
           (call $log (i32.const 400) (i32.const 16))
           (call $check (call $clock_time_get (i32.const 1) (i64.const 1) (i32.const 504)))
           (call $check (call $clock_time_get (i32.const 0) (i64.const 1) (i32.const 512)))
           ;; subscription at 600: userdata 42, tag 0 (clock), clock id 1, timeout 5 s, relative
           (i64.store (i32.const 600) (i64.const 42))
           (i32.store8 (i32.const 608) (i32.const 0))
           (i32.store (i32.const 616) (i32.const 1))
           (i64.store (i32.const 624) (i64.const 5000000000))
           (call $check (call $poll_oneoff (i32.const 600) (i32.const 700) (i32.const 1) (i32.const 800)))
           (if (i32.ne (i32.load (i32.const 800)) (i32.const 1)) (then unreachable))
           (if (i64.ne (i64.load (i32.const 700)) (i64.const 42)) (then unreachable))
           i32.const 0"#,
        "i32.const 0",
        r#"(data (i32.const 100) "hi from wasi\n")
           (data (i32.const 900) "0123456789abcdef")
           (func $check (param i32) (if (local.get 0) (then unreachable)))
           (func $hex (param $at i32) (param $b i32)
             (i32.store8 (local.get $at) (i32.load8_u (i32.add (i32.const 900) (i32.shr_u (local.get $b) (i32.const 4)))))
             (i32.store8 (i32.add (local.get $at) (i32.const 1)) (i32.load8_u (i32.add (i32.const 900) (i32.and (local.get $b) (i32.const 15))))))"#,
    )
}

#[test]
fn wasi_agents_log_stdout_get_seeded_randomness_and_do_not_sleep() {
    let sb = sandbox();
    let m = load(&sb, "wasi", &wasi_agent());
    assert!(m.uses_wasi());
    let run = |seed| {
        with_player(&m, seed, |p| {
            let t = Instant::now();
            let r = with_obs(|o| p.trade(o));
            (r, t.elapsed(), p.take_log().unwrap_or_default())
        })
    };
    let (r, took, log1) = run(5);
    assert_eq!(r, Ok(Offer::PASS), "{log1}");
    assert!(
        took < Duration::from_secs(1),
        "the sleep blocked for {took:?}"
    );
    assert!(log1.starts_with("hi from wasi\n"), "{log1:?}");
    assert_eq!(log1.len(), 13 + 16, "{log1:?}");
    let (_, _, log2) = run(5);
    assert_eq!(log1, log2, "same seed, same random bytes");
    let (_, _, log3) = run(6);
    assert_ne!(log1, log3, "another seed, other random bytes");
}

#[test]
fn proc_exit_is_a_trap_and_the_agent_is_not_called_again() {
    let sb = sandbox();
    let m = load(
        &sb,
        "exit",
        &agent_wat(
            r#"(import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))"#,
            "(call $exit (i32.const 3)) i32.const 0",
            "i32.const 0",
            "",
        ),
    );
    let (first, second) = with_player(&m, 1, |p| {
        let a = with_obs(|o| p.trade(o).unwrap_err());
        let b = with_obs(|o| p.trade(o).unwrap_err());
        (a, b)
    });
    assert_eq!(first.kind, FaultKind::Trap);
    assert!(first.detail.contains("proc_exit(3)"), "{first:?}");
    assert_eq!(second.kind, FaultKind::Trap);
    assert!(second.detail.contains("not called again"), "{second:?}");
}

#[test]
fn a_small_buffer_or_one_outside_memory_fails_the_load() {
    let sb = sandbox();
    for (size, needle) in [("100", "at least 8192"), ("65536", "not inside the memory")] {
        let wat = passer().replace(
            r#"(func (export "arena_buffer_size") (result i32) i32.const 16384)"#,
            &format!(r#"(func (export "arena_buffer_size") (result i32) i32.const {size})"#),
        );
        let m = load(&sb, "buf", &wat);
        let fault = run_with_big_stack(|| {
            m.player()
                .start(&crate::games::farm::INFO.agent, 0, 2, 1)
                .unwrap_err()
        });
        assert_eq!(fault.kind, FaultKind::LoadFailed);
        assert!(fault.detail.contains(needle), "{fault:?}");
    }
}

#[test]
fn limits_round_trip_through_json_with_defaults() {
    let l: Limits = serde_json::from_str(r#"{"fuel_per_decision": 5}"#).unwrap();
    assert_eq!(l.fuel_per_decision, 5);
    assert_eq!(l.fuel_per_game, Limits::default().fuel_per_game);
    let back: Limits = serde_json::from_value(serde_json::to_value(&l).unwrap()).unwrap();
    assert_eq!(back, l);
}
#[test]
fn a_game_the_host_could_not_set_up_is_an_error_not_a_record() {
    // A sandbox whose pool holds one instance: the second seat cannot be set up.
    let one_slot = Sandbox::allocating_instances(
        crate::games::registry().agents(),
        Limits::default(),
        Allocation::Pool,
        1,
    )
    .unwrap();
    let passer = include_str!("../../../../../example-agents/wat/passer.wat");
    let m = one_slot.load_bytes("passer", passer.as_bytes()).unwrap();
    let err = run_with_big_stack(move || {
        let seats = [Seat::Agent(&m), Seat::Agent(&m)];
        let table = Table {
            seed: 5,
            round_cap: 50,
            policy: FaultPolicy::Forfeit,
            settings: Default::default(),
            meta: RecordMeta {
                names: vec!["a".into(), "b".into()],
                agent_hashes: vec![None, None],
                limits: Arc::new(serde_json::Value::Null),
            },
        };
        match Hosted(Farm).play(&Host::default(), &table, &seats) {
            Ok(_) => panic!("a game with a seat the host could not set up was recorded"),
            Err(e) => e,
        }
    });
    let failure = HostFailure::find(&err).expect("the error is a host failure");
    assert!(failure.0.contains("seat 1 (b)"), "{failure}");
    assert!(failure.0.contains("maximum concurrent limit"), "{failure}");
}
