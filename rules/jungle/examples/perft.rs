//! `cargo run --release -p jungle-rules --example perft -- DEPTH [POSITION]`: prints the perft
//! count of POSITION (default: the start) at DEPTH, the time and the nodes per second.

use std::process::ExitCode;
use std::time::Instant;

use jungle_rules::{perft, Position};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("usage: perft DEPTH [POSITION]");
        return ExitCode::from(2);
    };
    let position = match args.get(1) {
        None => Position::start(),
        Some(text) => match Position::parse(text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad position: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let t = Instant::now();
    let n = perft(&position, depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {n} in {:.3} s ({:.1} M nodes/s)",
        s,
        n as f64 / s / 1e6
    );
    ExitCode::SUCCESS
}
