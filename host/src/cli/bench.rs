//! `arena bench`: the performance figures of docs/PERFORMANCE.md as a table or JSON.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::bench::{run, table, workload, BenchOptions};
use crate::resolve::resolve_agent;
use crate::sandbox::{run_with_big_stack, Limits, Sandbox};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Small sizes: every figure in a few seconds (numbers only indicative)
    #[arg(long)]
    pub quick: bool,
    /// Print the figures as JSON
    #[arg(long)]
    pub json: bool,
    /// Folder with the example agents built for wasm (passer.wasm, greedy.wasm, ...); by default
    /// the crates in example-agents/ are built
    #[arg(long)]
    pub agents: Option<PathBuf>,
    /// Scratch folder for league outputs (default: a new folder in /dev/shm where it exists, so
    /// that the leagues' record files are timed without a disk's own noise; else in the system's
    /// temporary folder)
    #[arg(long)]
    pub scratch: Option<PathBuf>,
    /// Only time decisions that spend all their fuel on one host call, each kind of call in turn
    /// (the calibration of host-call fuel, docs/SECURITY.md), and list them all
    #[arg(long)]
    pub host_calls: bool,
    /// Only measure these agents of the bench's game (components or modules, e.g. the Python,
    /// JavaScript and Rust component examples) beside the byte-ABI example it starts: load,
    /// instantiation and start time, one decision, games per second against itself on one
    /// thread, and a league against a copy of itself on every core
    #[arg(long, value_name = "AGENT", num_args = 1..)]
    pub components: Vec<PathBuf>,
}

pub fn run_cmd(args: BenchArgs) -> anyhow::Result<i32> {
    if args.host_calls {
        return host_calls(&args);
    }
    if !args.components.is_empty() {
        return components(&args);
    }
    let exe = std::env::current_exe().context("cannot find the arena binary")?;
    let dir = exe.parent().map(PathBuf::from).unwrap_or_default();
    let agents = match args.agents {
        Some(a) => a,
        None => {
            let mut dir = None;
            for s in workload(crate::games::registry())?.strategies() {
                let wasm = resolve_agent(&PathBuf::from("example-agents").join(s)).with_context(
                    || format!("cannot build example-agents/{s} (run from the workspace root, or give --agents)"),
                )?;
                dir = wasm.parent().map(PathBuf::from);
            }
            dir.context("the bench's game has no strategies")?
        }
    };
    let scratch = args.scratch.unwrap_or_else(default_scratch);
    let opts = BenchOptions {
        quick: args.quick,
        agents,
        arena: exe.clone(),
        stdio_agent: dir.join("arena-stdio-agent"),
        scratch: scratch.clone(),
    };
    let report = run_with_big_stack(|| {
        run(&opts, &mut |step| {
            if !args.json {
                eprintln!("measuring: {step}");
            }
        })
    });
    let _ = std::fs::remove_dir_all(&scratch);
    let report = report?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", table(&report));
    }
    Ok(0)
}

/// A new folder in memory (`/dev/shm`) where the machine has one, else in the temporary folder.
///
/// The timed leagues write thousands of record files. On a disk, creating files costs what the
/// file system makes it cost: on ext4 mounted without a journal, every file created within about
/// 30 s of many deletions walks the deleted inodes, and three back-to-back runs of the same binary
/// gave a wasm/native league ratio of 1.46, 1.27 and 2.53 with the leagues in /tmp, against
/// 1.32-1.34 in /dev/shm.
fn default_scratch() -> PathBuf {
    let name = format!("arena-bench-{}", std::process::id());
    let shm = PathBuf::from("/dev/shm").join(&name);
    if std::fs::create_dir_all(&shm).is_ok() {
        shm
    } else {
        std::env::temp_dir().join(name)
    }
}

/// `arena bench --host-calls`: every hammer's decision, slowest first.
fn host_calls(args: &BenchArgs) -> anyhow::Result<i32> {
    let sandbox = Sandbox::new(crate::games::registry().agents(), Limits::default())?;
    let reps = if args.quick { 1 } else { 5 };
    let game = &workload(crate::games::registry())?.game().info().agent;
    let timings = run_with_big_stack(|| crate::bench::host_calls::time_all(&sandbox, game, reps))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&timings)?);
    } else {
        outln!(
            "machine: {}\n{} fuel per decision, wall-clock backstop {} ms; each the best of {reps} decisions\n",
            crate::bench::machine(),
            sandbox.limits().fuel_per_decision,
            sandbox.limits().decision_wall_ms
        );
        out!("{}", crate::bench::host_calls::table(&timings));
    }
    Ok(0)
}

/// `arena bench --components AGENT...`: each agent's figures, and the byte-ABI starter's beside.
fn components(args: &BenchArgs) -> anyhow::Result<i32> {
    let sandbox = Sandbox::new(crate::games::registry().agents(), Limits::default())?;
    let w = &workload(crate::games::registry())?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let scratch = args.scratch.clone().unwrap_or_else(default_scratch);
    let sizes = if args.quick {
        crate::bench::components::Sizes {
            games: 3,
            reps: 1,
            league_games: 4,
            league_threads: threads,
            scratch: scratch.clone(),
        }
    } else {
        crate::bench::components::Sizes {
            games: 100,
            reps: 5,
            league_games: 400,
            league_threads: threads,
            scratch: scratch.clone(),
        }
    };
    let starter = PathBuf::from("example-agents").join(w.starter());
    let mut paths = vec![resolve_agent(&starter).with_context(|| {
        format!(
            "cannot build {} (run from the workspace root)",
            starter.display()
        )
    })?];
    for p in &args.components {
        paths.push(resolve_agent(p)?);
    }
    let measured = paths
        .iter()
        .map(|path| {
            if !args.json {
                eprintln!("measuring: {}", path.display());
            }
            let t = std::time::Instant::now();
            let module = sandbox.load(path)?;
            let load_ms = t.elapsed().as_secs_f64() * 1000.0;
            let mut figures = run_with_big_stack(|| {
                crate::bench::components::measure(w, &module, load_ms, &sizes)
            })?;
            if module.world().is_some() {
                let wasm = std::fs::read(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                figures.first_compile = Some(crate::bench::components::first_compile(
                    &sandbox,
                    module.name(),
                    &wasm,
                )?);
            }
            Ok(figures)
        })
        .collect::<anyhow::Result<Vec<_>>>();
    if args.scratch.is_none() {
        // Each league removed its own folder; the default scratch folder is left empty.
        let _ = std::fs::remove_dir(&scratch);
    }
    let all = measured?;
    if args.json {
        let report = serde_json::json!({
            "agents": all,
            "targets": crate::bench::components::targets(&all),
        });
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        outln!(
            "machine: {}\n{} ({} games per agent on one thread, best of {}; leagues of {} games \
             on {threads} threads, with records; in brackets the measuring thread's CPU time)\n",
            crate::bench::machine(),
            sandbox.allocation(),
            sizes.games,
            sizes.reps,
            sizes.league_games,
        );
        out!("{}", crate::bench::components::table(&all));
    }
    Ok(0)
}
