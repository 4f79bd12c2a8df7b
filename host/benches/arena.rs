//! Criterion benchmarks of the hot paths (docs/PERFORMANCE.md): one decision through the sandbox
//! and natively, and one game with wasm agents, native strategies and stdio processes.
//! `cargo bench -p arena`; the wasm agents are built from example-agents/ on first use.

use std::path::PathBuf;

use arena::bench::{workload, Player};
use arena::game::Player as _;
use arena::games::farm::strategies::{sample_events, sample_trade, NAMES, PASSER_WAT};
use arena::games::farm::{native, Farm};
use arena::resolve::resolve_agent;
use arena::sandbox::{AgentModule, Init, Limits, Sandbox};
use criterion::{criterion_group, criterion_main, Criterion};
use farm_rules::Position;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn decisions(c: &mut Criterion) {
    let sandbox = Sandbox::new(arena::games::registry().agents(), Limits::default()).unwrap();
    let passer = sandbox
        .load_bytes("passer.wat", PASSER_WAT.as_bytes())
        .unwrap();
    let pos = Position::new(2);
    let events = sample_events();
    let (q, asked) = sample_trade(&pos, &events);
    let init = Init {
        seat: 0,
        players: 2,
        seed: 7,
        round_cap: 0,
    };
    let mut g = c.benchmark_group("decision");
    let mut wasm = passer.player();
    // The game's start, not the sandbox's inherent one.
    arena::game::Player::<Farm>::start(&mut wasm, &Farm, &init).unwrap();
    g.bench_function("wasm_passer", |b| {
        b.iter(|| wasm.decide(&Farm, &q, &asked).answer.unwrap())
    });
    let passer_native = native::<passer::Passer>();
    let mut native = passer_native.player::<Farm>().unwrap();
    native.start(&Farm, &init).unwrap();
    g.bench_function("native_passer", |b| {
        b.iter(|| native.decide(&Farm, &q, &asked).answer.unwrap())
    });
    g.finish();
    // Keep the helper used by `arena bench` exercised too.
    let w = workload(arena::games::registry()).unwrap();
    w.decision_ns(Player::Agent(&passer), 1, 10).unwrap();
}

fn games(c: &mut Criterion) {
    let sandbox = Sandbox::new(arena::games::registry().agents(), Limits::default()).unwrap();
    let wasm: Vec<AgentModule> = NAMES
        .iter()
        .map(|s| {
            let path = resolve_agent(&workspace().join("example-agents").join(s)).unwrap();
            sandbox.load(&path).unwrap()
        })
        .collect();
    let mut g = c.benchmark_group("game");
    g.sample_size(20);
    let w = workload(arena::games::registry()).unwrap();
    let natives: Vec<Player> = NAMES.iter().map(|s| Player::Native(s)).collect();
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
