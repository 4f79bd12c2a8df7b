//! `arena bench --quick --json` runs and produces every figure (no speed is checked here: speed
//! targets live in the benchmarks, see docs/PERFORMANCE.md).

mod common;

use common::{example_wasm, run, temp_dir, text};

#[test]
fn quick_bench_produces_every_figure() {
    let agents = example_wasm("passer");
    let agents = agents.parent().expect("agents folder");
    let scratch = temp_dir("bench");
    let out = run(&[
        "bench",
        "--quick",
        "--json",
        "--agents",
        agents.to_str().unwrap(),
        "--scratch",
        scratch.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "arena bench failed:\n{}", text(&out));
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("arena bench --json prints JSON");
    assert_eq!(report["quick"], true);
    let figures = report["figures"].as_array().expect("figures");
    let keys: Vec<&str> = figures.iter().map(|f| f["key"].as_str().unwrap()).collect();
    assert_eq!(keys, arena::bench::KEYS);
    for f in figures {
        let v = f["value"].as_f64().expect("a number");
        assert!(v.is_finite() && v > 0.0, "figure {f} has no positive value");
    }
    assert!(report["machine"].as_str().unwrap().contains("CPU"));
    assert!(report["allocation"].as_str().unwrap().contains("allocator"));
    // Each timed league plays into a folder of its own; none is left behind.
    assert!(
        !scratch.join("leagues").exists(),
        "the timed leagues' folders were not removed"
    );
}
