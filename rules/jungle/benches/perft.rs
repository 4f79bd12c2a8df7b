//! Criterion benchmarks of the Jungle rules: perft from the start (bulk counting, make/unmake)
//! and move generation on a middle-game position. `cargo bench -p jungle-rules`; the nodes per
//! second are perft's leaf count divided by the time (perft 5 from the start: 5,111,620 leaves).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jungle_rules::{perft, Position};

/// A middle-game position with both lions and tigers near the lakes and rats in the water.
const MIDDLE: &str = "l5t/1d3c1/2p1w1e/r6/1R1T3/3L3/E1W1P2/1C3D1/7 w 6 8";

fn perft_start(c: &mut Criterion) {
    let start = Position::start();
    let mut g = c.benchmark_group("perft");
    for depth in [4, 5] {
        let leaves = perft(&start, depth);
        g.throughput(Throughput::Elements(leaves));
        g.bench_function(format!("start_depth_{depth}"), |b| {
            b.iter(|| perft(std::hint::black_box(&start), depth))
        });
    }
    g.finish();
}

fn movegen(c: &mut Criterion) {
    let p = Position::parse(MIDDLE).expect("a valid position");
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(1));
    g.bench_function("legal_moves_middle", |b| {
        b.iter(|| std::hint::black_box(&p).legal_moves())
    });
    g.bench_function("count_moves_middle", |b| {
        b.iter(|| std::hint::black_box(&p).count_moves())
    });
    g.bench_function("make_unmake_all_middle", |b| {
        let moves = p.legal_moves();
        let mut q = p;
        b.iter(|| {
            for &mv in &moves {
                let undo = q.make(mv);
                std::hint::black_box(&q);
                q.unmake(mv, undo);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, perft_start, movegen);
criterion_main!(benches);
