//! Criterion benchmark of record writing (docs/PERFORMANCE.md, "Profile"): the bytes of one
//! typical league record of each game, as the league worker writes them after every game.
//! `cargo bench -p arena --bench records` (`-- none` skips criterion and prints only the best
//! of many rounds, the steadier figure on a busy machine).
//!
//! The records are played once, natively, before timing: Little Animal Farm games between the
//! example strategies (two seats, as in arena.toml) and three-seat Farkle races (as in
//! leagues/farkle-race.toml), with the names, agent hashes and limits a league records.

use arena::game::record::write_kept;
use arena::game::{play_seeded, Native, Player};
use arena::games::farkle::Farkle;
use arena::games::farm::{strategies, Farm, Setup};
use arena::records::RecordMeta;
use arena::sandbox::{Limits, DEFAULT_ROUND_CAP};
use criterion::{criterion_group, criterion_main, Criterion};

/// Records per timed iteration: one per seed, so short and long games are both in the mix.
const GAMES: u64 = 20;

fn meta(names: &[&str]) -> RecordMeta {
    RecordMeta {
        names: names.iter().map(|n| n.to_string()).collect(),
        agent_hashes: names
            .iter()
            .map(|n| Some(arena::records::sha256_hex(n.as_bytes())))
            .collect(),
        limits: std::sync::Arc::new(serde_json::to_value(Limits::default()).unwrap()),
    }
}

fn farm_records() -> Vec<arena::games::farm::GameRecord> {
    (0..GAMES)
        .map(|seed| {
            let natives: Vec<Native> = ["greedy", "shepherd"]
                .iter()
                .map(|&n| Native::new(move || strategies::native(n).unwrap()))
                .collect();
            let mut players: Vec<Box<dyn Player<Farm>>> =
                natives.iter().map(|n| n.player().unwrap()).collect();
            let mut seats: Vec<&mut dyn Player<Farm>> =
                players.iter_mut().map(|p| &mut **p as _).collect();
            let setup = Setup {
                players: 2,
                seed: Some(seed),
                round_cap: DEFAULT_ROUND_CAP,
                policy: Default::default(),
                start: None,
            };
            play_seeded(&Farm, &setup, &mut seats).unwrap()
        })
        .collect()
}

fn farkle_records() -> Vec<arena::games::farkle::GameRecord> {
    use arena::games::farkle::native;
    (0..GAMES)
        .map(|seed| {
            let natives = [
                native::<farkle_banker::Banker>(),
                native::<farkle_threshold::Threshold>(),
                native::<farkle_planner::Planner>(),
            ];
            let mut players: Vec<Box<dyn Player<Farkle>>> =
                natives.iter().map(|n| n.player().unwrap()).collect();
            let mut seats: Vec<&mut dyn Player<Farkle>> =
                players.iter_mut().map(|p| &mut **p as _).collect();
            play_seeded(
                &Farkle,
                &arena::games::farkle::Setup::new(3, seed, 100),
                &mut seats,
            )
            .unwrap()
        })
        .collect()
}

fn records(c: &mut Criterion) {
    let mut g = c.benchmark_group("record_write");

    let farm = farm_records();
    let farm_meta = meta(&["greedy", "shepherd"]);
    g.bench_function("farm_20_records", |b| {
        b.iter(|| {
            farm.iter()
                .map(|r| write_kept(&Farm, r, &farm_meta).unwrap().len())
                .sum::<usize>()
        })
    });

    let farkle = farkle_records();
    let farkle_meta = meta(&["banker", "threshold", "planner"]);
    g.bench_function("farkle_20_records", |b| {
        b.iter(|| {
            farkle
                .iter()
                .map(|r| write_kept(&Farkle, r, &farkle_meta).unwrap().len())
                .sum::<usize>()
        })
    });
    g.finish();

    let bytes = |n: usize| n as f64 / GAMES as f64;
    let farm_bytes: usize = farm
        .iter()
        .map(|r| write_kept(&Farm, r, &farm_meta).unwrap().len())
        .sum();
    let farkle_bytes: usize = farkle
        .iter()
        .map(|r| write_kept(&Farkle, r, &farkle_meta).unwrap().len())
        .sum();
    println!(
        "mean record size: farm {:.0} bytes ({:.0} turns), farkle {:.0} bytes ({:.0} turns)",
        bytes(farm_bytes),
        bytes(farm.iter().map(|r| r.turns.len()).sum()),
        bytes(farkle_bytes),
        bytes(farkle.iter().map(|r| r.turns.len()).sum()),
    );

    // Criterion's figures are means, which other work on a small shared machine inflates; the
    // fastest of many rounds is the steadier figure to compare two builds by.
    let farm_us = best_us_per_record(|| {
        for r in &farm {
            std::hint::black_box(write_kept(&Farm, r, &farm_meta).unwrap());
        }
    });
    let farkle_us = best_us_per_record(|| {
        for r in &farkle {
            std::hint::black_box(write_kept(&Farkle, r, &farkle_meta).unwrap());
        }
    });
    println!("best of {ROUNDS} rounds, per record: farm {farm_us:.1} us, farkle {farkle_us:.1} us");
}

/// Rounds of [`best_us_per_record`].
const ROUNDS: u32 = 300;

/// The fastest of [`ROUNDS`] runs of `write_all` (which writes the [`GAMES`] records once), in
/// microseconds per record.
fn best_us_per_record(mut write_all: impl FnMut()) -> f64 {
    (0..ROUNDS)
        .map(|_| {
            let t = std::time::Instant::now();
            write_all();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
        * 1e6
        / GAMES as f64
}

criterion_group!(benches, records);
criterion_main!(benches);
