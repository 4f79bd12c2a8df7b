//! Load on loopback while the ladder plays: many clients load pages and the leaderboard, others
//! upload agents, and every request must succeed. It prints requests per second and latency
//! percentiles, over all pages and for each (docs/PERFORMANCE.md quotes runs); it asserts
//! outcomes, not speed. The length and the number of clients can be raised for a measurement,
//! and `ARENA_LOAD_RATE` paces the page clients at that many requests a second in all (latency
//! is then counted from when each request was due, so a server that falls behind shows it);
//! `ARENA_LOAD_PATHS` (a comma-separated list of the paths below) asks for those alone:
//!
//! ```text
//! ARENA_LOAD_SECS=60 ARENA_LOAD_READERS=32 ARENA_LOAD_UPLOADERS=4 \
//!   cargo test --release -p arena --test serve_load -- --nocapture
//! ARENA_LOAD_SECS=30 ARENA_LOAD_READERS=32 ARENA_LOAD_UPLOADERS=0 ARENA_LOAD_RATE=500 \
//!   cargo test --release -p arena --test serve_load sqlite -- --nocapture
//! ARENA_LOAD_SECS=30 ARENA_LOAD_READERS=32 ARENA_LOAD_UPLOADERS=0 ARENA_LOAD_RATE=500 \
//!   ARENA_LOAD_PATHS=/ cargo test --release -p arena --test serve_load sqlite -- --nocapture
//! ```
//!
//! It runs on both databases: SQLite in the data folder, and PostgreSQL (`database = "postgres://..."`).

mod pg_support;
mod serve_support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pg_support::Database;
use serve_support::*;

/// What the page clients ask for, in turn.
const PATHS: [&str; 5] = [
    "/",
    "/api/leaderboard",
    "/agents/1",
    "/projector",
    "/api/status",
];

/// The indices in [`PATHS`] of the paths asked for: `ARENA_LOAD_PATHS`, or all.
fn chosen_paths() -> Vec<usize> {
    let wanted = std::env::var("ARENA_LOAD_PATHS").unwrap_or_default();
    let chosen: Vec<usize> = (0..PATHS.len())
        .filter(|&k| wanted.split(',').any(|w| w.trim() == PATHS[k]))
        .collect();
    assert!(
        wanted.is_empty() || !chosen.is_empty(),
        "ARENA_LOAD_PATHS={wanted:?} names none of {PATHS:?}"
    );
    if chosen.is_empty() {
        (0..PATHS.len()).collect()
    } else {
        chosen
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

fn report(what: &str, mut lat: Vec<Duration>, secs: f64) {
    lat.sort();
    println!(
        "{what:<20} {:>7} requests {:>8.1}/s   p50 {:>7.1} ms  p90 {:>7.1} ms  p99 {:>7.1} ms  max {:>7.1} ms",
        lat.len(),
        lat.len() as f64 / secs,
        percentile(&lat, 0.5),
        percentile(&lat, 0.9),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0),
    );
}

mod pages_and_uploads_stay_quick_and_correct_while_the_ladder_plays {
    #[test]
    fn sqlite() {
        super::load_while_the_ladder_plays(super::Database::sqlite())
    }

    #[test]
    fn postgres() {
        super::load_while_the_ladder_plays(super::Database::postgres("serve_load"))
    }
}

fn load_while_the_ladder_plays(db: Database) {
    let secs = env("ARENA_LOAD_SECS", 8);
    let readers = env("ARENA_LOAD_READERS", 16);
    let uploaders = env("ARENA_LOAD_UPLOADERS", 4);
    let rate = env("ARENA_LOAD_RATE", 0);
    let dir = temp_dir(&format!("load-{}", db.name()));
    // Every core plays ladder games (the default worker count), and the ladder never runs dry.
    let server = Server::start(
        &dir,
        &(db.challenge_line() + "round_cap = 100\n[ladder]\ntarget_interval = 0.001\nmax_games_per_version = 1000000\n[uploads]\nper_hour = 1000000\ncheck_games = 1\nchecks_at_once = 2\n"),
    );
    let mut tokens = Vec::new();
    for i in 0..uploaders.max(2) {
        let token = server.add_contestant(&format!("load{i}"));
        let file = write(
            &dir,
            &format!("seed{i}.wat"),
            &climber(&format!("seed-{i:06}")),
        );
        assert_eq!(server.submit(&token, &file).status.code(), Some(0));
        tokens.push(token);
    }
    server.wait_for("/api/status", 60, |s| s["games_done"].as_i64() > Some(10));
    let done_at_start = server.json("/api/status")["games_done"].as_i64().unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let pages = Arc::new(Mutex::new(Vec::new()));
    let uploads = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let mut threads = Vec::new();
    let chosen = Arc::new(chosen_paths());
    for r in 0..readers {
        let (stop, pages, url) = (Arc::clone(&stop), Arc::clone(&pages), server.url.clone());
        let chosen = Arc::clone(&chosen);
        threads.push(std::thread::spawn(move || {
            let mut mine = Vec::new();
            let mut i = r as usize;
            // Paced: this client's share of `rate`, its first request at its own offset.
            let every = (rate > 0).then(|| Duration::from_secs_f64(readers as f64 / rate as f64));
            let mut due =
                Instant::now() + every.map_or(Duration::ZERO, |e| e * r as u32 / readers as u32);
            while !stop.load(Ordering::Relaxed) {
                let k = chosen[i % chosen.len()];
                let path = PATHS[k];
                if every.is_some() {
                    std::thread::sleep(due.saturating_duration_since(Instant::now()));
                }
                let t = if every.is_some() { due } else { Instant::now() };
                let (status, body) = request(&format!("{url}{path}"), None, None, &[]);
                mine.push((k, t.elapsed()));
                assert_eq!(status, 200, "GET {path}: {body}");
                i += 1;
                if let Some(every) = every {
                    due += every;
                }
            }
            pages.lock().unwrap().extend(mine);
        }));
    }
    for (u, token) in tokens.iter().take(uploaders as usize).enumerate() {
        let (stop, uploads, url, token) = (
            Arc::clone(&stop),
            Arc::clone(&uploads),
            server.url.clone(),
            token.clone(),
        );
        threads.push(std::thread::spawn(move || {
            let mut mine = Vec::new();
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                let wat = climber(&format!("u{u:02}n{i:06}z"));
                let t = Instant::now();
                let (status, body) = request(
                    &format!("{url}/api/submissions"),
                    Some(&token),
                    Some(("application/wasm", wat.as_bytes())),
                    &[],
                );
                mine.push(t.elapsed());
                assert_eq!(status, 201, "upload: {body}");
                i += 1;
            }
            uploads.lock().unwrap().extend(mine);
        }));
    }
    std::thread::sleep(Duration::from_secs(secs));
    stop.store(true, Ordering::SeqCst);
    for t in threads {
        t.join().unwrap();
    }
    let elapsed = started.elapsed().as_secs_f64();
    let done = server.json("/api/status")["games_done"].as_i64().unwrap() - done_at_start;
    let machine = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "\n{secs} s, {readers} page clients, {uploaders} uploaders, {machine} cores; the ladder played {done} games meanwhile ({:.0}/s)",
        done as f64 / elapsed
    );
    let by_path = pages.lock().unwrap().clone();
    let pages: Vec<Duration> = by_path.iter().map(|p| p.1).collect();
    let uploads = uploads.lock().unwrap().clone();
    report("pages", pages.clone(), elapsed);
    for &k in chosen.iter() {
        let path = PATHS[k];
        let lat = by_path.iter().filter(|p| p.0 == k).map(|p| p.1).collect();
        report(&format!("  {path}"), lat, elapsed);
    }
    report("uploads", uploads.clone(), elapsed);
    assert_eq!(pages.is_empty(), readers == 0);
    assert_eq!(uploads.is_empty(), uploaders == 0);
    assert!(done > 0, "the workers were busy playing");
    server.finish();
}
