//! Criterion benchmarks of the hot paths (docs/PERFORMANCE.md): one decision through the sandbox
//! and natively, and one game with wasm agents, native strategies and stdio processes.
//! `cargo bench -p arena`; the wasm agents are built from example-agents/ on first use.

use std::path::PathBuf;

use arena::bench::{workload, Player};
use arena::games::farm::bench::{decision_ns, sample_events, strategies, PASSER_WAT};
use arena::games::farm::{FarmPlayer, Observation};
use arena::resolve::resolve_agent;
use arena::sandbox::{AgentModule, Limits, Sandbox};
use criterion::{criterion_group, criterion_main, Criterion};
use farm_rules::Position;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn decisions(c: &mut Criterion) {
    let sandbox = Sandbox::new(arena::games::AGENTS, Limits::default()).unwrap();
    let passer = sandbox
        .load_bytes("passer.wat", PASSER_WAT.as_bytes())
        .unwrap();
    let pos = Position::new(2);
    let events = sample_events();
    let obs = Observation {
        seat: 0,
        to_move: 0,
        turn: 3,
        round: 2,
        position: &pos,
        events: &events,
    };
    let mut g = c.benchmark_group("decision");
    let mut wasm = passer.player();
    wasm.start(&arena::games::farm::INFO.agent, 0, 2, 7)
        .unwrap();
    g.bench_function("wasm_passer", |b| b.iter(|| wasm.trade(&obs).unwrap()));
    let mut native = strategies::native_player("passer", 0).unwrap();
    native.start(0, 2, 7).unwrap();
    g.bench_function("native_passer", |b| b.iter(|| native.trade(&obs).unwrap()));
    g.finish();
    // Keep the helper used by `arena bench` exercised too.
    decision_ns(&mut passer.player(), 1, 10).unwrap();
}

fn games(c: &mut Criterion) {
    let sandbox = Sandbox::new(arena::games::AGENTS, Limits::default()).unwrap();
    let wasm: Vec<AgentModule> = strategies::STRATEGIES
        .iter()
        .map(|s| {
            let path = resolve_agent(&workspace().join("example-agents").join(s)).unwrap();
            sandbox.load(&path).unwrap()
        })
        .collect();
    let mut g = c.benchmark_group("game");
    g.sample_size(20);
    let w = workload().unwrap();
    let natives: Vec<Player> = strategies::STRATEGIES
        .iter()
        .map(|s| Player::Native(s))
        .collect();
    let agents: Vec<Player> = wasm.iter().map(Player::Agent).collect();
    g.bench_function("native_20_games", |b| {
        b.iter(|| w.games_only(20, &natives).unwrap())
    });
    g.bench_function("wasm_20_games", |b| {
        b.iter(|| w.games_only(20, &agents).unwrap())
    });
    g.finish();
}

criterion_group!(benches, decisions, games);
criterion_main!(benches);
