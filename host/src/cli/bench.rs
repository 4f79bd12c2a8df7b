//! `arena bench`: the performance figures of docs/PERFORMANCE.md as a table or JSON.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::bench::{run, table, BenchOptions};
use crate::sandbox::{resolve_agent, run_with_big_stack};

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
}

pub fn run_cmd(args: BenchArgs) -> anyhow::Result<i32> {
    let exe = std::env::current_exe().context("cannot find the arena binary")?;
    let dir = exe.parent().map(PathBuf::from).unwrap_or_default();
    let agents = match args.agents {
        Some(a) => a,
        None => {
            let mut dir = None;
            for s in crate::bench::strategies::STRATEGIES {
                let wasm = resolve_agent(&PathBuf::from("example-agents").join(s)).with_context(
                    || format!("cannot build example-agents/{s} (run from the workspace root, or give --agents)"),
                )?;
                dir = wasm.parent().map(PathBuf::from);
            }
            dir.expect("five strategies")
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
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", table(&report));
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
