//! The figures `arena bench` measures on `arena league` child processes: start-up with many
//! distinct agents (cold and warm module cache) and the resident memory of a long league.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;

use super::workload::Workload;
use super::{BenchOptions, Figure, Target};

/// Start-up of a league of 50 distinct agents, cold and warm.
pub(super) fn startup_figures(opts: &BenchOptions, w: &Workload) -> anyhow::Result<Vec<Figure>> {
    let (cold, warm) = startup(opts, w, 50)?;
    Ok(vec![
        Figure::new(
            "startup_50_cold_s",
            "50 distinct agents: `arena league` start to first game finished, empty module cache",
            cold,
            "s",
        ),
        Figure::new(
            "startup_50_warm_s",
            "same, second run (agents compiled before)",
            warm,
            "s",
        )
        .target(Target::AtMost(1.0)),
    ])
}

/// The peak resident memory of a league of `agents` distinct agents, its games and its time.
pub(super) fn memory_figures(
    opts: &BenchOptions,
    w: &Workload,
    agents: usize,
) -> anyhow::Result<Vec<Figure>> {
    let (mib, games, secs) = memory(opts, w, agents, 2)?;
    let mut fig = Figure::new(
        "memory_100_agents_mib",
        format!("peak resident memory (VmHWM) of `arena league`, {agents} agents, {games} games"),
        mib,
        "MiB",
    );
    if !opts.quick {
        fig = fig.target(Target::AtMost(300.0));
    }
    Ok(vec![
        fig,
        Figure::new(
            "memory_league_games",
            "games in that league",
            games as f64,
            "games",
        ),
        Figure::new(
            "memory_league_s",
            "wall time of that league (2 threads, compiling included)",
            secs,
            "s",
        ),
    ])
}

/// `wasm` with a custom section appended that makes its bytes (and hash) unique to `n`.
pub fn distinct_copy(wasm: &[u8], n: usize) -> Vec<u8> {
    let name = b"arena-bench-copy";
    let payload = n.to_le_bytes();
    let mut section = Vec::new();
    leb128(&mut section, name.len() as u32);
    section.extend_from_slice(name);
    section.extend_from_slice(&payload);
    let mut out = wasm.to_vec();
    out.push(0);
    leb128(&mut out, section.len() as u32);
    out.extend_from_slice(&section);
    out
}

fn leb128(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Writes `count` distinct copies of the example agents and a league file over them.
fn copies_league(
    opts: &BenchOptions,
    w: &Workload,
    dir: &Path,
    count: usize,
    per_group: u32,
    threads: usize,
) -> anyhow::Result<PathBuf> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("agents"))?;
    let mut text = format!(
        "name = \"bench\"\ngame = \"{}\"\nplayers_per_game = 2\ngames_per_group = {per_group}\n\
         seed = 3\nthreads = {threads}\noutput = \"out\"\n",
        w.game().name()
    );
    let strategies = w.strategies();
    for i in 0..count {
        let s = strategies[i % strategies.len()];
        let bytes = std::fs::read(opts.agents.join(format!("{s}.wasm")))?;
        let file = format!("agents/{s}-{i:03}.wasm");
        std::fs::write(dir.join(&file), distinct_copy(&bytes, i))?;
        text.push_str(&format!(
            "[[agent]]\nname = \"{s}-{i:03}\"\npath = \"{file}\"\n"
        ));
    }
    let path = dir.join("league.toml");
    std::fs::write(&path, text)?;
    Ok(path)
}

/// `arena league --fresh --quiet` of the league file `league`, started (its errors piped), with
/// `cache` as its compiled-module cache when given.
fn spawn_league(opts: &BenchOptions, league: &Path, cache: Option<&Path>) -> anyhow::Result<Child> {
    let mut command = Command::new(&opts.arena);
    command
        .arg("league")
        .arg("--config")
        .arg(league)
        .args(["--fresh", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(cache) = cache {
        command.env(crate::sandbox::CACHE_DIR_ENV, cache);
    }
    command
        .spawn()
        .with_context(|| format!("cannot run {}", opts.arena.display()))
}

/// Seconds from starting `arena league` over `count` distinct agents to its first game record,
/// twice: first with an empty module cache (every agent compiled), then with the agents compiled
/// by the first run. The cache is a new folder of the scratch folder: the copies' bytes are the
/// same in every bench run, so the user's cache would hold them from the last run.
fn startup(opts: &BenchOptions, w: &Workload, count: usize) -> anyhow::Result<(f64, f64)> {
    let dir = opts.scratch.join("startup");
    let league = copies_league(opts, w, &dir, count, 2, 1)?;
    let cache = dir.join("cache");
    let once = || -> anyhow::Result<f64> {
        let records = dir.join("out").join(crate::league::runner::RECORDS_DIR);
        let _ = std::fs::remove_dir_all(dir.join("out"));
        let t = Instant::now();
        let mut child = spawn_league(opts, &league, Some(&cache))?;
        loop {
            let first = std::fs::read_dir(&records)
                .map(|mut d| d.next().is_some())
                .unwrap_or(false);
            if first {
                let secs = t.elapsed().as_secs_f64();
                let _ = child.kill();
                let _ = child.wait();
                return Ok(secs);
            }
            if let Some(status) = child.try_wait()? {
                let out = child.wait_with_output()?;
                anyhow::bail!(
                    "arena league ended ({status}) before its first game: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    let cold = once()?;
    let warm = once()?;
    Ok((cold, warm))
}

/// Peak resident memory (MiB), games played and seconds of `arena league` over `count` distinct
/// agents, 2 threads.
fn memory(
    opts: &BenchOptions,
    w: &Workload,
    count: usize,
    per_group: u32,
) -> anyhow::Result<(f64, usize, f64)> {
    let dir = opts.scratch.join("memory");
    let league = copies_league(opts, w, &dir, count, per_group, 2)?;
    let t = Instant::now();
    let mut child = spawn_league(opts, &league, None)?;
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            if let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak_kib = peak_kib.max(kib);
            }
        }
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let secs = t.elapsed().as_secs_f64();
    if !status.success() {
        let out = child.wait_with_output()?;
        anyhow::bail!(
            "arena league failed ({status}): {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let games =
        std::fs::read_dir(dir.join("out").join(crate::league::runner::RECORDS_DIR))?.count();
    let _ = std::fs::remove_dir_all(&dir);
    Ok((peak_kib as f64 / 1024.0, games, secs))
}
