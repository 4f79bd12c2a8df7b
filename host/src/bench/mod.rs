//! The performance figures of `arena bench` (docs/PERFORMANCE.md): the host's per-decision
//! overhead, wasm leagues against the same strategies run natively and against the conventional
//! process-per-agent JSON-lines design, parallel speed-up, league start-up with many agents, and
//! the resident memory of a long league, and the wall time of decisions that spend all their fuel
//! on host calls ([`host_calls`]). The game played is a game's [`Workload`] (`workload.rs`); the
//! figures are measured section by section (`sections.rs`; start-up and memory on child
//! processes: `children.rs`).
//!
//! Every speed target is a ratio measured in one run on one machine; no test checks a speed
//! (tests only check that every figure is produced, in `quick` mode).

mod children;
pub mod components;
pub mod host_calls;
mod sections;
mod stdio;
mod workload;

use std::path::PathBuf;

use anyhow::Context;
use serde::Serialize;

use crate::sandbox::{Limits, Sandbox};
pub use children::distinct_copy;
pub use workload::{workload, Player, Workload};

/// What to measure and with what.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Small sizes: every figure in a few seconds, numbers only indicative.
    pub quick: bool,
    /// Folder with the example agents built for wasm (`passer.wasm`, `greedy.wasm`, ...).
    pub agents: PathBuf,
    /// The `arena` binary (league start-up and memory are measured on child processes).
    pub arena: PathBuf,
    /// The `arena-stdio-agent` binary (the conventional baseline).
    pub stdio_agent: PathBuf,
    /// Scratch folder for league outputs and agent copies.
    pub scratch: PathBuf,
}

/// A bound on a figure.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    AtMost(f64),
    AtLeast(f64),
}

/// One measured figure.
#[derive(Clone, Debug, Serialize)]
pub struct Figure {
    pub key: &'static str,
    pub what: String,
    pub value: f64,
    pub unit: &'static str,
    pub target: Option<Target>,
    /// Whether the target is met (`None`: no target, the figure is context).
    pub met: Option<bool>,
}

impl Figure {
    pub(crate) fn new(
        key: &'static str,
        what: impl Into<String>,
        value: f64,
        unit: &'static str,
    ) -> Figure {
        Figure {
            key,
            what: what.into(),
            value,
            unit,
            target: None,
            met: None,
        }
    }

    pub(crate) fn target(mut self, t: Target) -> Figure {
        self.met = Some(match t {
            Target::AtMost(x) => self.value <= x,
            Target::AtLeast(x) => self.value >= x,
        });
        self.target = Some(t);
        self
    }
}

/// Every figure of one run, with the machine it ran on.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub quick: bool,
    pub machine: String,
    /// How the sandbox allocates instances on this machine (the figures depend on it).
    pub allocation: String,
    /// Where the timed leagues wrote their records.
    pub scratch: PathBuf,
    pub figures: Vec<Figure>,
}

/// Keys of every figure [`run`] produces, in order.
pub const KEYS: [&str; 24] = [
    "decision_wasm_ns",
    "decision_native_ns",
    "decision_stdio_ns",
    "decision_stdio_vs_wasm",
    "start_wasm_us",
    "game_native_us",
    "game_wasm_us",
    "games_wasm_vs_native",
    "league_native_s",
    "league_wasm_s",
    "league_wasm_vs_native",
    "league_stdio_s",
    "stdio_vs_wasm",
    "stdio_vs_native",
    "league_wasm_2_threads_s",
    "speedup_2_threads",
    "machine_speedup_2_threads",
    "startup_50_cold_s",
    "startup_50_warm_s",
    "memory_100_agents_mib",
    "memory_league_games",
    "memory_league_s",
    "host_call_decision_ms",
    "wasm_loop_decision_ms",
];

/// Runs every measurement on the workload's game. Guest code runs on this thread: call it on a
/// thread with [`crate::sandbox::WORKER_STACK_BYTES`] of stack.
pub fn run(opts: &BenchOptions, progress: &mut dyn FnMut(&str)) -> anyhow::Result<Report> {
    std::fs::create_dir_all(&opts.scratch)
        .with_context(|| format!("cannot create {}", opts.scratch.display()))?;
    let w = &workload(crate::games::registry())?;
    let sandbox = Sandbox::new(crate::games::registry().agents(), Limits::default())?;
    let mut figures = Vec::new();
    progress("per-decision overhead");
    figures.extend(sections::decisions(opts, w, &sandbox)?);
    let wasm = sections::load_strategies(opts, w, &sandbox)?;
    progress("per-game start of a wasm agent");
    figures.push(sections::start(opts, w, &wasm)?);
    progress("games without records: wasm vs native");
    figures.extend(sections::games(opts, w, &wasm)?);
    progress("leagues: native, wasm, stdio processes");
    figures.extend(sections::leagues(opts, w, &wasm)?);
    progress("league start-up with 50 agents (child process)");
    figures.extend(children::startup_figures(opts, w)?);
    let agents = if opts.quick { 6 } else { 100 };
    progress(&format!(
        "memory of a league of {agents} agents (child process)"
    ));
    figures.extend(children::memory_figures(opts, w, agents)?);
    progress("decisions that spend their fuel on host calls");
    figures.extend(sections::host_calls(opts, w, &sandbox)?);
    Ok(Report {
        quick: opts.quick,
        machine: machine(),
        allocation: sandbox.allocation().to_string(),
        scratch: opts.scratch.clone(),
        figures,
    })
}

/// Runs each timing (seconds) once per round, in turn, for `rounds` rounds, and returns the best
/// of each: both sides of a ratio are then measured in the same minutes.
pub(crate) fn best_interleaved<const N: usize>(
    rounds: usize,
    mut timings: [&mut dyn FnMut() -> anyhow::Result<f64>; N],
) -> anyhow::Result<[f64; N]> {
    let mut best = [f64::INFINITY; N];
    for _ in 0..rounds.max(1) {
        for (time, best) in timings.iter_mut().zip(&mut best) {
            *best = best.min(time()?);
        }
    }
    Ok(best)
}

/// `nproc`, CPU model and memory of this machine, from /proc.
pub fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|m| m.trim_start_matches([' ', '\t', ':']).to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem_gib = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kib| kib / (1024.0 * 1024.0));
    format!("{cpus} CPUs, {model}, {mem_gib:.1} GiB")
}

/// The report as a plain-text table.
pub fn table(report: &Report) -> String {
    let mut out = format!(
        "machine: {}{}\ninstances: {}\nleagues written in: {}\n\n",
        report.machine,
        if report.quick {
            " (quick mode: small sizes, indicative only)"
        } else {
            ""
        },
        report.allocation,
        report.scratch.display()
    );
    let key_width = report
        .figures
        .iter()
        .map(|f| f.key.len())
        .max()
        .unwrap_or(0);
    out.push_str(&format!(
        "{:<key_width$} {:>12} {:<6} {:<9} {:<5} {}\n",
        "figure", "value", "unit", "target", "met", "what"
    ));
    for f in &report.figures {
        let target = match f.target {
            Some(Target::AtMost(x)) => format!("<= {x}"),
            Some(Target::AtLeast(x)) => format!(">= {x}"),
            None => String::new(),
        };
        let met = match f.met {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "",
        };
        let value = if f.value >= 100.0 {
            format!("{:.0}", f.value)
        } else {
            format!("{:.3}", f.value)
        };
        out.push_str(&format!(
            "{:<key_width$} {:>12} {:<6} {:<9} {:<5} {}\n",
            f.key, value, f.unit, target, met, f.what
        ));
    }
    out
}
