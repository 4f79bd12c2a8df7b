//! `arena-stdio-agent STRATEGY`: an example strategy behind the JSON-lines stdin/stdout protocol
//! of conventional bot arenas; the baseline `arena bench` compares the sandbox with.

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    if !arena::bench::strategies::STRATEGIES.contains(&name.as_str()) {
        eprintln!(
            "usage: arena-stdio-agent STRATEGY (one of {})",
            arena::bench::strategies::STRATEGIES.join(", ")
        );
        std::process::exit(2);
    }
    if let Err(e) = arena::bench::stdio::serve(&name) {
        eprintln!("arena-stdio-agent: {e:#}");
        std::process::exit(1);
    }
}
