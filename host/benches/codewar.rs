//! The code war's speed, for each compiler wasmtime offers (docs/PERFORMANCE.md, "Code war"):
//! compile time of the example agents and of mutated modules, time and fuel of a visit, visits
//! per second when no code changes, compiles per second of mutated modules, and a 100-cell,
//! 100-iteration game of the example agents.
//!
//! `cargo bench -p arena --bench codewar [-- --quick]`. The process pins itself to one core
//! (`sched_setaffinity`) so that parallel compilation does not hide the cost of compiling. The
//! Rust example agents are measured when they are built
//! (`cargo build --profile wasm-agent --target wasm32-unknown-unknown -p codewar-crawler ...`);
//! Winch and Pulley when the arena is built with `--features snippet-compilers`.

use std::path::Path;
use std::time::Instant;

use arena::game::{FaultPolicy, Table};
use arena::games::codewar::imports::{self, VisitState};
use arena::games::codewar::{play_in, CodewarSettings, Snippet};
use arena::records::RecordMeta;
use arena::sandbox::{
    digest, run_with_big_stack, snippet_engine, Limits, SnippetCompiler, Snippets,
};
use codewar_rules::{Array, Cell, Game, Settings, Stream, View};

const WAT: [(&str, &str); 5] = [
    (
        "crawler",
        include_str!("../../example-agents/wat/codewar-crawler.wat"),
    ),
    (
        "berserker",
        include_str!("../../example-agents/wat/codewar-berserker.wat"),
    ),
    (
        "borg",
        include_str!("../../example-agents/wat/codewar-borg.wat"),
    ),
    (
        "poisoner",
        include_str!("../../example-agents/wat/codewar-poisoner.wat"),
    ),
    (
        "spy",
        include_str!("../../example-agents/wat/codewar-spy.wat"),
    ),
];

const IDLE: &str = "(module (func (export \"codewar_run\") (result i64) (i64.const 0)))";

fn pin_to_one_core() {
    // SAFETY: a zeroed cpu_set_t is valid; CPU_SET writes inside it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(0, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            eprintln!("(could not pin to one core: figures may use several)");
        }
    }
}

fn rust_examples() -> Vec<(String, Vec<u8>)> {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/wasm32-unknown-unknown/wasm-agent");
    WAT.iter()
        .filter_map(|(name, _)| {
            let bytes = std::fs::read(dir.join(format!("codewar_{name}.wasm"))).ok()?;
            Some((format!("{name} (Rust)"), bytes))
        })
        .collect()
}

/// A module whose code differs by a constant: the berserker nuking at 1 + random(size - k).
fn code_mutant(k: usize) -> Vec<u8> {
    let text = WAT[1]
        .1
        .replace(
            "(i32.sub (call $size) (i32.const 1))",
            &format!("(i32.sub (call $size) (i32.const {}))", 1 + k % 50),
        )
        .replace(
            "(i32.const 1) (call $random",
            &format!("(i32.const {}) (call $random", 1 + k / 50),
        );
    wat::parse_str(text).unwrap()
}

/// The borg with another counter: only its custom section differs.
fn state_mutant(k: usize) -> Vec<u8> {
    let mut m = wat::parse_str(WAT[2].1).unwrap();
    m[24] = (k & 0xff) as u8;
    m[25] = (k >> 8) as u8;
    m
}

/// The shapes that make compilers slow, as large as the snippet limits allow within `max_bytes`:
/// functions full of 64 live locals, blocks nested thousands deep, a `br_table` of thousands of
/// targets, 64 functions calling each other.
fn bombs(max_bytes: usize) -> Vec<(String, Vec<u8>)> {
    let budget = max_bytes.saturating_sub(200);
    let per_function = budget.min(15 << 10);
    let functions = (budget / per_function).clamp(1, 60);
    let fit = |make: &dyn Fn(usize) -> String| {
        // The largest size parameter whose module fits.
        let (mut low, mut high) = (1usize, 1 << 16);
        while low + 1 < high {
            let mid = (low + high) / 2;
            match wat::parse_str(make(mid)) {
                Ok(m) if m.len() <= max_bytes => low = mid,
                _ => high = mid,
            }
        }
        wat::parse_str(make(low)).unwrap()
    };
    let locals = |n: usize| {
        let mut body = String::new();
        for i in 0..n {
            body += &format!(
                "(local.set {} (i64.mul (local.get {}) (i64.add (local.get {}) (i64.const {i}))))",
                i % 64,
                (i * 7 + 3) % 64,
                (i * 13 + 5) % 64
            );
        }
        let f = |k: usize| {
            format!(
                "(func $f{k} (result i64) (local {}) {body} (local.get 0))",
                "i64 ".repeat(64)
            )
        };
        format!(
            "(module {} (func (export \"codewar_run\") (result i64) (call $f0)))",
            (0..functions).map(f).collect::<String>()
        )
    };
    let nesting = |n: usize| {
        format!(
            "(module (func (export \"codewar_run\") (result i64) {} (i64.const 0)))",
            "(block ".repeat(n) + &")".repeat(n)
        )
    };
    let br_table = |n: usize| {
        let targets: String = (0..n).map(|i| format!("{} ", i % 60)).collect();
        format!(
            "(module (func (export \"codewar_run\") (result i64) {} (br_table {targets} 0 (i32.const 0)) {} (i64.const 0)))",
            "(block ".repeat(60),
            ")".repeat(60)
        )
    };
    let calls = |n: usize| {
        let f = |k: usize| {
            let body: String = (0..n)
                .map(|i| format!("(drop (call $f{} (i32.const {i})))", (k + i + 1) % 60))
                .collect();
            format!("(func $f{k} (param i32) (result i64) {body} (i64.const 0))")
        };
        format!(
            "(module {} (func (export \"codewar_run\") (result i64) (call $f0 (i32.const 0))))",
            (0..60).map(f).collect::<String>()
        )
    };
    vec![
        (
            format!("{functions} function(s) of 64 live locals"),
            fit(&locals),
        ),
        ("nested blocks".into(), fit(&nesting)),
        ("a br_table".into(), fit(&br_table)),
        ("60 functions calling each other".into(), fit(&calls)),
    ]
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn new_snippets(engine: &wasmtime::Engine, settings: &CodewarSettings) -> Snippets<VisitState> {
    Snippets::new(engine, settings.snippet_limits(), imports::add_imports).unwrap()
}

/// Milliseconds to compile each module into a fresh cache, the median of `rounds`.
fn compile_ms(
    engine: &wasmtime::Engine,
    settings: &CodewarSettings,
    modules: &[Vec<u8>],
    rounds: usize,
) -> Vec<f64> {
    modules
        .iter()
        .map(|m| {
            median(
                (0..rounds)
                    .map(|_| {
                        let s = new_snippets(engine, settings);
                        let t = Instant::now();
                        // A refusal (a bomb beyond the shape limits) is timed too.
                        let _ = s.prepare(&digest(m), m);
                        t.elapsed().as_secs_f64() * 1e3
                    })
                    .collect(),
            )
        })
        .collect()
}

/// The view of an agent at cell 0 of a 100-cell Array with agents around it.
fn view_of(code: &[u8]) -> View<Snippet> {
    let mut cells = Array::new(100);
    *cells.slot_mut(0) = Some(Cell::new(Snippet::new(code.to_vec()), 0));
    for i in [1usize, 5, 50, 99] {
        *cells.slot_mut(i) = Some(Cell::new(Snippet::new(wat::parse_str(IDLE).unwrap()), 1));
    }
    View {
        cells: cells.shared(),
        position: 0,
        owner: 0,
        players: 2,
        max_size: 4096,
        iterations: 100,
        iteration: 1,
        random: Stream::visit(1, 1, 0),
    }
}

/// Microseconds per visit (a fresh instance and the call, compiled module cached) and the fuel
/// of one visit.
fn visit_us(snippets: &Snippets<VisitState>, code: &[u8], visits: usize) -> (f64, u64) {
    let pre = snippets.prepare(&digest(code), code).unwrap();
    let view = view_of(code);
    let mut fuel = 0;
    let t = Instant::now();
    for _ in 0..visits {
        let out = snippets.run::<i64>(&pre, imports::ENTRY, VisitState::new(view.clone()));
        out.result.expect("the example runs");
        fuel = out.fuel_used;
    }
    (t.elapsed().as_secs_f64() * 1e6 / visits as f64, fuel)
}

/// Visits per second in a 100-cell Array of idle agents (one module, never changing).
fn idle_visits_per_second(snippets: &Snippets<VisitState>, iterations: u32) -> f64 {
    let idle = Snippet::new(wat::parse_str(IDLE).unwrap());
    let rules = Settings {
        iterations,
        reentry_every: 0,
        ..Settings::default()
    };
    let cells = (0..100)
        .map(|i| Some(Cell::new(idle.clone(), i % 2)))
        .collect();
    let mut game = Game::from_array(
        rules,
        vec![idle.clone(), idle],
        1,
        Array::from_cells(cells),
        0,
    )
    .unwrap();
    let mut executor = arena::games::codewar::executor::SandboxExecutor::new(snippets);
    let t = Instant::now();
    let mut visits = 0;
    while let Some(it) = game.play_iteration(&mut executor) {
        visits += it.visits.len();
    }
    visits as f64 / t.elapsed().as_secs_f64()
}

/// Seconds for one 100-cell, 100-iteration game of `modules` (a fresh cache: every module is
/// compiled in the game), and with the cache of an earlier game.
fn game_seconds(
    engine: &wasmtime::Engine,
    settings: &CodewarSettings,
    modules: &[Vec<u8>],
    runs: usize,
) -> (f64, f64, u64, u64, usize) {
    let table = Table {
        seed: 7,
        round_cap: 0,
        policy: FaultPolicy::Forfeit,
        settings: Default::default(),
        meta: RecordMeta::anonymous(modules.len()),
    };
    let mut cold = Vec::new();
    let mut warm = Vec::new();
    let mut stats = Default::default();
    let mut compiled = 0;
    let mut bytes = 0;
    for _ in 0..runs {
        let s = new_snippets(engine, settings);
        let t = Instant::now();
        let r = play_in(&s, &table, settings, modules).unwrap();
        cold.push(t.elapsed().as_secs_f64());
        compiled = s.stats().compiled;
        bytes = r.played.record.len();
        let t = Instant::now();
        play_in(&s, &table, settings, modules).unwrap();
        warm.push(t.elapsed().as_secs_f64());
        stats = r.stats;
    }
    let arena::games::codewar::PlayStats { visits, .. } = stats;
    (median(cold), median(warm), visits, compiled, bytes)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    pin_to_one_core();
    let settings = CodewarSettings::default();
    let (rounds, mutants, visits, runs) = if quick {
        (3, 50, 300, 1)
    } else {
        (7, 300, 3000, 5)
    };
    let wat: Vec<(String, Vec<u8>)> = WAT
        .iter()
        .map(|(n, t)| (n.to_string(), wat::parse_str(t).unwrap()))
        .collect();
    let rust = rust_examples();
    if rust.is_empty() {
        println!("(the Rust example agents are not built: only the WAT ones are measured)");
    }
    let examples: Vec<(String, Vec<u8>)> = wat.iter().chain(&rust).cloned().collect();
    let code_mutants: Vec<Vec<u8>> = (0..mutants).map(code_mutant).collect();
    let state_mutants: Vec<Vec<u8>> = (0..mutants).map(state_mutant).collect();
    println!(
        "code war, one core, {} rounds per compile figure, {visits} visits per visit figure{}",
        rounds,
        if quick { " (quick)" } else { "" }
    );
    for compiler in SnippetCompiler::ALL {
        let engine = match snippet_engine(&Limits::default(), compiler, 4) {
            Ok(e) => e,
            Err(e) => {
                println!("\n## {compiler}: not measured ({e:#})");
                continue;
            }
        };
        run_with_big_stack(|| {
            println!("\n## {compiler}");
            let modules: Vec<Vec<u8>> = examples.iter().map(|e| e.1.clone()).collect();
            let ms = compile_ms(&engine, &settings, &modules, rounds);
            let snippets = new_snippets(&engine, &settings);
            println!("agent | bytes | compile ms | visit µs | fuel per visit");
            for ((name, code), ms) in examples.iter().zip(&ms) {
                let (us, fuel) = visit_us(&snippets, code, visits);
                println!("{name} | {} | {ms:.2} | {us:.1} | {fuel}", code.len());
            }
            for (what, set) in [("code", &code_mutants), ("state section", &state_mutants)] {
                let s = new_snippets(&engine, &settings);
                let t = Instant::now();
                for m in set {
                    s.prepare(&digest(m), m).expect("the mutant compiles");
                }
                let per_s = set.len() as f64 / t.elapsed().as_secs_f64();
                println!("compiles per second, modules mutated in their {what}: {per_s:.0}");
            }
            {
                // A visit that spends all of its fuel in a loop and then returns.
                let spender = wat::parse_str(format!(
                    "(module (func (export \"codewar_run\") (result i64) (local $i i64)
                       (loop $l (local.set $i (i64.add (local.get $i) (i64.const 1)))
                         (br_if $l (i64.lt_u (local.get $i) (i64.const {}))))
                       (i64.const 0)))",
                    settings.visit_fuel / 10
                ))
                .unwrap();
                let (us, fuel) = visit_us(&snippets, &spender, visits / 10);
                println!("a visit that spends {fuel} fuel in a loop: {us:.0} µs");
            }
            for max_bytes in [settings.max_size as usize, 65536] {
                let mut big = settings;
                big.max_size = max_bytes as u32;
                for (name, bomb) in bombs(max_bytes) {
                    let ms = compile_ms(&engine, &big, std::slice::from_ref(&bomb), rounds.min(3));
                    let refused = new_snippets(&engine, &big)
                        .prepare(&digest(&bomb), &bomb)
                        .err()
                        .map_or(String::new(), |e| format!(", refused: {e}"));
                    println!(
                        "compile-time bomb within {max_bytes} bytes, {name} ({} bytes): {:.1} \
                         ms{refused}",
                        bomb.len(),
                        ms[0]
                    );
                }
            }
            let per_s = idle_visits_per_second(&snippets, if quick { 20 } else { 100 });
            println!("visits per second, 100 idle agents of one module: {per_s:.0}");
            for (what, set) in [("WAT", &wat), ("Rust", &rust)] {
                if set.is_empty() {
                    continue;
                }
                let modules: Vec<Vec<u8>> = set.iter().map(|e| e.1.clone()).collect();
                let (cold, warm, visits, compiled, bytes) =
                    game_seconds(&engine, &settings, &modules, runs);
                println!(
                    "game of the 5 {what} examples, 100 cells, 100 iterations: {:.0} ms with \
                     {compiled} compiles, {:.0} ms compiled already ({visits} visits, a record \
                     of {bytes} bytes)",
                    cold * 1e3,
                    warm * 1e3
                );
            }
        });
    }
}
