//! `arena-stdio-agent STRATEGY`: an example strategy of the bench's game behind the JSON-lines
//! stdin/stdout protocol of conventional bot arenas; the baseline `arena bench` compares the
//! sandbox with.

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let workload = match arena::bench::workload(arena::games::registry()) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("arena-stdio-agent: {e:#}");
            std::process::exit(2);
        }
    };
    if !workload.strategies().contains(&name.as_str()) {
        eprintln!(
            "usage: arena-stdio-agent STRATEGY (one of {})",
            workload.strategies().join(", ")
        );
        std::process::exit(2);
    }
    if let Err(e) = workload.serve_process(&name) {
        eprintln!("arena-stdio-agent: {e:#}");
        std::process::exit(1);
    }
}
