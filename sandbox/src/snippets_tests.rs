//! Snippets with a game of the tests' own: the state is a counter, the one import adds to it.

use super::snippets::{digest, SnippetData, SnippetFault, SnippetLimits, Snippets};
use super::{
    charge_snippet, AgentInterface, Compiler, Games, Limits, Sandbox, SnippetInterface, CALL_FUEL,
};
use crate::game_for_tests::{GAMES, TEST_GAME};

/// Whether a fault is the one a case expects.
type IsFault = fn(&SnippetFault) -> bool;

fn limits() -> SnippetLimits {
    SnippetLimits {
        max_bytes: 4096,
        shape: SnippetLimits::snippet_shape(),
        fuel: 100_000,
        memory_bytes: 1 << 20,
        table_elements: 100,
        wall_ms: 1000,
        cache_entries: 4,
    }
}

fn snippets() -> Snippets<u64> {
    let sandbox = Sandbox::with_compiler(GAMES, Limits::default(), Compiler::in_process()).unwrap();
    Snippets::new(sandbox.engine(), limits(), |linker| {
        linker.func_wrap(
            "test",
            "add",
            |mut c: wasmtime::Caller<'_, SnippetData<u64>>, n: i64| -> wasmtime::Result<()> {
                charge_snippet(&mut c, 0)?;
                c.data_mut().state += n as u64;
                Ok(())
            },
        )?;
        Ok(())
    })
    .unwrap()
}

fn run(s: &Snippets<u64>, text: &str, state: u64) -> (u64, Result<i64, SnippetFault>, u64) {
    let bytes = wat::parse_str(text).unwrap();
    let prepared = match s.prepare(&digest(&bytes), &bytes) {
        Ok(p) => p,
        Err(f) => return (state, Err(f), 0),
    };
    let out = super::run_with_big_stack(|| s.run::<i64>(&prepared, "run", state));
    (out.state, out.result, out.fuel_used)
}

const ADDER: &str = r#"(module
    (import "test" "add" (func $add (param i64)))
    (global $g (mut i64) (i64.const 0))
    (func (export "run") (result i64)
      (call $add (i64.const 5))
      (global.set $g (i64.add (global.get $g) (i64.const 1)))
      (global.get $g)))"#;

#[test]
fn a_run_is_a_fresh_instance_that_changes_only_the_games_state() {
    let s = snippets();
    for state in [0, 10] {
        // The global starts at 0 in every run: 1 is returned each time.
        assert_eq!(run(&s, ADDER, state).0, state + 5);
        assert_eq!(run(&s, ADDER, state).1, Ok(1));
    }
    let stats = s.stats();
    assert_eq!((stats.compiled, stats.hits, stats.runs), (1, 3, 4));
}

#[test]
fn host_calls_are_charged_and_can_run_out() {
    let s = snippets();
    let (_, _, fuel) = run(&s, ADDER, 0);
    assert!(fuel > CALL_FUEL && fuel < CALL_FUEL + 50, "{fuel}");
    // A hundred calls are more than 100,000 fuel can pay for.
    let hammer = r#"(module
        (import "test" "add" (func $add (param i64)))
        (func (export "run") (result i64) (local $i i32)
          (loop $l
            (call $add (i64.const 1))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $l (i32.lt_u (local.get $i) (i32.const 1000))))
          (i64.const 0)))"#;
    let (state, result, fuel) = run(&s, hammer, 0);
    assert_eq!(result, Err(SnippetFault::Fuel));
    assert!(
        (95..100).contains(&state),
        "the calls it paid for counted: {state}"
    );
    assert_eq!(fuel, 100_000);
}

#[test]
fn failures_are_named_and_refusals_cached() {
    let s = snippets();
    let cases: [(&str, IsFault); 7] = [
        ("(module (func (export \"run\") (result i64) unreachable))", |f| {
            matches!(f, SnippetFault::Trap(m) if m.contains("unreachable"))
        }),
        (
            "(module (func (export \"run\") (result i64) (loop $l (br $l)) (i64.const 0)))",
            |f| *f == SnippetFault::Fuel,
        ),
        ("(module (func (export \"go\") (result i64) (i64.const 0)))", |f| {
            matches!(f, SnippetFault::NoEntry(_))
        }),
        (
            "(module (import \"env\" \"x\" (func)) (func (export \"run\") (result i64) (i64.const 0)))",
            |f| matches!(f, SnippetFault::BadImport(m) if m.contains("env::x")),
        ),
        (
            "(module (memory 17) (func (export \"run\") (result i64) (i64.const 0)))",
            |f| matches!(f, SnippetFault::Memory(_)),
        ),
        (
            "(module (func $f (result i64) (call $f)) (func (export \"run\") (result i64) (call $f)))",
            |f| *f == SnippetFault::Stack,
        ),
        (
            "(module (func (export \"run\") (result i64) (local i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32) (i64.const 0)))",
            |f| matches!(f, SnippetFault::Invalid(m) if m.contains("more than 64 locals")),
        ),
    ];
    for (text, expected) in cases {
        let (_, result, _) = run(&s, text, 0);
        let fault = result.unwrap_err();
        assert!(expected(&fault), "{text}: {fault:?}");
    }
    let junk = b"\0asm\x01\0\0\0\xff";
    assert!(matches!(
        s.prepare(&digest(junk), junk),
        Err(SnippetFault::Invalid(_))
    ));
    let big = vec![0u8; 4097];
    assert_eq!(
        s.prepare(&digest(&big), &big).err(),
        Some(SnippetFault::TooBig {
            bytes: 4097,
            max: 4096
        })
    );
    // The refusal is kept: asking again compiles nothing.
    let compiled = s.stats().compiled;
    assert!(s.prepare(&digest(junk), junk).is_err());
    assert_eq!(s.stats().compiled, compiled);
}

#[test]
fn the_cache_keeps_the_most_recently_used() {
    let s = snippets();
    let module = |n: i64| format!("(module (func (export \"run\") (result i64) (i64.const {n})))");
    for n in 0..4 {
        assert_eq!(run(&s, &module(n), 0).1, Ok(n));
    }
    assert_eq!(run(&s, &module(0), 0).1, Ok(0)); // 0 is now the most recent; 1 the least
    assert_eq!(run(&s, &module(4), 0).1, Ok(4)); // evicts 1
    let before = s.stats().compiled;
    assert_eq!(run(&s, &module(0), 0).1, Ok(0));
    assert_eq!(s.stats().compiled, before, "0 was kept");
    assert_eq!(run(&s, &module(1), 0).1, Ok(1));
    assert_eq!(s.stats().compiled, before + 1, "1 was dropped");
    assert_eq!(run(&s, &module(3), 0).1, Ok(3));
}

/// A game whose agents are snippets: they export `run` and import from `test` only.
static SNIPPET_GAME: AgentInterface = AgentInterface {
    title: "the snippet game",
    abi_id: 99,
    decisions: &[],
    component: None,
    snippet: Some(SnippetInterface {
        entry: "run",
        import_module: "test",
    }),
};

static BOTH: Games = &[&TEST_GAME, &SNIPPET_GAME];

#[test]
fn a_snippet_agent_loads_as_its_bytes_and_is_no_player() {
    let sandbox = Sandbox::with_compiler(BOTH, Limits::default(), Compiler::in_process()).unwrap();
    let text = r#"(module (import "test" "add" (func (param i64)))
        (func (export "run") (result i64) (i64.const 7)))"#;
    let m = sandbox.load_bytes("s", text.as_bytes()).unwrap();
    assert_eq!(m.snippet(), Some(&wat::parse_str(text).unwrap()[..]));
    assert!(m.plays(&SNIPPET_GAME) && !m.plays(&TEST_GAME));
    assert_eq!(m.imports()[0].name, "test::add");
    assert_eq!(m.imports()[0].kind, "func(i64)");
    let e = m.check_plays(&TEST_GAME).unwrap_err().to_string();
    assert!(e.contains("missing export `farm_trade`"), "{e}");
    // A player of it is a fault at the start, not a panic.
    let mut player = m.player();
    let fault = player.start(&TEST_GAME, 0, 2, 1).unwrap_err();
    assert!(fault.detail.contains("run by its own game"), "{fault:?}");
    assert!(m.instantiate_once().is_err());

    // Imports from elsewhere, and invalid modules, are refused when loading.
    let other = r#"(module (import "arena" "log" (func (param i32 i32)))
        (func (export "run") (result i64) (i64.const 0)))"#;
    let e = format!(
        "{:#}",
        sandbox.load_bytes("o", other.as_bytes()).unwrap_err()
    );
    assert!(e.contains("imports only from `test`"), "{e}");
    let mut invalid = wat::parse_str(text).unwrap();
    let at = invalid.len() - 3;
    invalid[at] = 0xff;
    let e = format!("{:#}", sandbox.load_bytes("i", &invalid).unwrap_err());
    assert!(e.contains("invalid WebAssembly module"), "{e}");

    // A snippet agent needs a sandbox that hosts its game: elsewhere it is a byte-ABI module
    // whose imports are refused.
    let farm_only =
        Sandbox::with_compiler(GAMES, Limits::default(), Compiler::in_process()).unwrap();
    let e = format!(
        "{:#}",
        farm_only.load_bytes("s", text.as_bytes()).unwrap_err()
    );
    assert!(e.contains("which the arena does not provide"), "{e}");
}
