//! The wall time of a decision that spends all its fuel on host calls: one hostile agent per
//! way of making the host work (tests/hostile/hammer_*.wat, and every WASI function called with
//! zero arguments), each timed over one decision on the default budget. With the charges of
//! `sandbox::host_fuel`, the slowest must stay far below the wall-clock backstop
//! (`decision_wall_ms`), so that the backstop never decides a game on a sound machine. The
//! hammers are agents of the bench's game (the zoo's files are written for the registry's first
//! game; the generated ones export the game's decisions).

use std::time::Instant;

use serde::Serialize;

use crate::sandbox::{AgentInterface, Sandbox, WASI_FUNCTIONS};

/// The hostile agents of the zoo that hammer one host call each (tests/hostile/), agents of the
/// registry's first game.
pub const HAMMER_FILES: [(&str, &str); 12] = [
    (
        "arena.log, 1 byte",
        include_str!("../../../tests/hostile/hammer_log.wat"),
    ),
    (
        "arena.fuel_left",
        include_str!("../../../tests/hostile/hammer_fuel_left.wat"),
    ),
    (
        "random_get, 4 KiB",
        include_str!("../../../tests/hostile/hammer_random_get.wat"),
    ),
    (
        "fd_write, 1 byte to stdout",
        include_str!("../../../tests/hostile/hammer_fd_write.wat"),
    ),
    (
        "fd_write, 1,000,000 empty iovecs",
        include_str!("../../../tests/hostile/hammer_fd_write_iovecs.wat"),
    ),
    (
        "fd_read, 64 KiB from stdin",
        include_str!("../../../tests/hostile/hammer_fd_read.wat"),
    ),
    (
        "poll_oneoff, 1,024 subscriptions",
        include_str!("../../../tests/hostile/hammer_poll_oneoff.wat"),
    ),
    (
        "path_open, 1 MiB path",
        include_str!("../../../tests/hostile/hammer_path_open.wat"),
    ),
    (
        "clock_time_get",
        include_str!("../../../tests/hostile/hammer_clock.wat"),
    ),
    (
        "fd_fdstat_get of stdout",
        include_str!("../../../tests/hostile/hammer_fdstat.wat"),
    ),
    (
        "memory.grow, refused",
        include_str!("../../../tests/hostile/hammer_memory_grow.wat"),
    ),
    (
        "table.grow, refused",
        include_str!("../../../tests/hostile/hammer_table_grow.wat"),
    ),
];

/// A plain WebAssembly loop, for comparison: what 10,000,000 fuel of instructions costs.
const WASM_LOOP: &str = "(local $x i32)
    (loop $forever
      (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 31)) (i32.const 7)))
      (br $forever))";

/// An agent of `game` whose first decision runs `body` (after `import`) and answers 0; its other
/// decisions answer 0 at once.
fn agent(game: &AgentInterface, import: &str, body: &str) -> String {
    let mut decisions = game.decisions.iter();
    let first = decisions.next().copied().unwrap_or("decide");
    let others: String = decisions
        .map(|d| format!("\n  (func (export \"{d}\") (param $len i32) (result i32) (i32.const 0))"))
        .collect();
    format!(
        r#"(module
  {import}
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "{first}") (param $len i32) (result i32)
    {body}
    (i32.const 0)){others})"#
    )
}

/// Name of the pure-WebAssembly comparison in [`time_all`]'s timings.
pub const WASM_LOOP_NAME: &str = "no host call: a WebAssembly loop";

/// An agent of `game` that calls WASI function `f` with every argument 0, forever.
fn zero_argument_hammer(game: &AgentInterface, f: &crate::sandbox::WasiFunction) -> String {
    let body = format!("(loop $forever {} (br $forever))", f.zero_call_wat());
    agent(game, &f.import_wat(), &body)
}

/// Every hammer of `game`: its name and module text. `proc_exit` is left out (its first call ends
/// the decision).
pub fn hammers(game: &AgentInterface) -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = HAMMER_FILES
        .iter()
        .map(|(name, wat)| (name.to_string(), wat.to_string()))
        .collect();
    all.extend(
        WASI_FUNCTIONS
            .iter()
            .filter(|f| f.name != "proc_exit")
            .map(|f| {
                (
                    format!("{}, zero arguments", f.name),
                    zero_argument_hammer(game, f),
                )
            }),
    );
    all.push((WASM_LOOP_NAME.to_string(), agent(game, "", WASM_LOOP)));
    all
}

/// One hammer's decision.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    pub name: String,
    /// Wall time of one decision, in milliseconds: the best of the repetitions (the least
    /// disturbed by other work on the machine; the intrinsic cost).
    pub ms: f64,
    /// Fuel the decision used.
    pub fuel: u64,
    /// How the decision ended: the fault kind, or "answer".
    pub ended: String,
}

/// Times one decision of each hammer (the first decision of `game`, whose exports the hammers
/// have; they read no observation), `reps` times (the best is kept), on `sandbox`'s budgets.
/// Guest code runs on this thread: call it on a thread with a big stack.
pub fn time_all(
    sandbox: &Sandbox,
    game: &'static AgentInterface,
    reps: u32,
) -> anyhow::Result<Vec<Timing>> {
    let mut timings = Vec::new();
    for (name, wat) in hammers(game) {
        let module = sandbox
            .load_bytes(&name, wat.as_bytes())
            .map_err(|e| anyhow::anyhow!("the hammer {name:?} does not load: {e:#}"))?;
        let mut times = Vec::new();
        let mut last = (0, String::new());
        for _ in 0..reps.max(1) {
            let mut player = module.player();
            player
                .start(game, 0, 2, 1)
                .map_err(|f| anyhow::anyhow!("the hammer {name:?} did not start: {}", f.detail))?;
            let before = player.fuel_used();
            let t = Instant::now();
            let answer = player.call(0, |_| 0);
            times.push(t.elapsed().as_secs_f64() * 1e3);
            let ended = match answer {
                Ok(_) => "answer".to_string(),
                Err(f) => f.kind.name().to_string(),
            };
            last = (player.fuel_used() - before, ended);
        }
        timings.push(Timing {
            name,
            ms: times.iter().copied().fold(f64::INFINITY, f64::min),
            fuel: last.0,
            ended: last.1,
        });
    }
    Ok(timings)
}

/// The timings as a plain-text table, slowest first.
pub fn table(timings: &[Timing]) -> String {
    let mut sorted = timings.to_vec();
    sorted.sort_by(|a, b| b.ms.total_cmp(&a.ms));
    let width = sorted.iter().map(|t| t.name.len()).max().unwrap_or(0);
    let mut out = format!(
        "{:<width$} {:>10} {:>12} {:>9}  ended\n",
        "hammer", "ms", "fuel", "ns/fuel"
    );
    for t in &sorted {
        out.push_str(&format!(
            "{:<width$} {:>10.2} {:>12} {:>9.2}  {}\n",
            t.name,
            t.ms,
            t.fuel,
            t.ms * 1e6 / t.fuel.max(1) as f64,
            t.ended
        ));
    }
    out
}
