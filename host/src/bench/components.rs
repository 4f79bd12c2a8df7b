//! `arena bench --components FILE...`: the figures of component agents (docs/PERFORMANCE.md,
//! "Component agents"): for each component of the workload's game given, the time to
//! instantiate it for a game (a fresh instance from the pool, nothing called), the time to start it
//! for a game (the instance and `init`), the time of one decision on a fixed observation (beside
//! the same for the byte-ABI starter module, the host's overhead of a component call), games per
//! second of the component against itself on one thread, and a league of the component against a
//! copy of itself, with records, on every core. For a component, also the first load of a new
//! agent built by the same toolchain (its compiled code not in the module cache, its language
//! runtime's functions in the compiled-function cache), and each target of docs/PERFORMANCE.md
//! ("Component agents") as a ratio to the byte-ABI starter's figure in the same run.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use super::sections::start_us;
use super::workload::{Player, Workload};
use crate::game::Host;
use crate::league::config::{AgentEntry, Budgets, LeagueConfig};
use crate::league::{play_league, Contestant, RunOptions};
use crate::sandbox::{AgentModule, Limits, ModuleCache, Origin, Sandbox, DEFAULT_ROUND_CAP};

/// Target: a new agent's first load, when an agent of the same toolchain was compiled before, in
/// wall-clock milliseconds on an idle machine.
pub const FIRST_COMPILE_TARGET_MS: f64 = 3000.0;
/// Target: a component's instantiation, as a multiple of the starter's (CPU time).
pub const INSTANTIATE_TARGET_RATIO: f64 = 30.0;
/// Target: one game of a component against itself, as a multiple of the starter's (CPU time).
pub const GAME_TARGET_RATIO: f64 = 30.0;

/// The figures of one component.
#[derive(Clone, Debug, Serialize)]
pub struct ComponentFigures {
    pub name: String,
    pub world: String,
    pub size_bytes: u64,
    /// Load time: validate, compile (or read the cached artifact), instantiate once.
    pub load_ms: f64,
    /// Instantiation for a game: a fresh store and instance from the pool, nothing called, then
    /// dropped (mean of a batch, best of the repetitions).
    pub instantiate_us: f64,
    /// The same in CPU time of the measuring thread (what it costs on one core, however busy
    /// the machine is with other work).
    pub instantiate_cpu_us: f64,
    /// Start for a game: a fresh instance and `init`, then dropped (best of the repetitions).
    pub start_us: f64,
    /// One `trade` decision on a fixed observation of 3 events.
    pub decision_us: f64,
    /// Two-player games of the component against itself, one thread, no records.
    pub games_per_s: f64,
    pub ms_per_game: f64,
    /// The same games' CPU time of the thread, per game.
    pub cpu_ms_per_game: f64,
    /// A league of the component against a copy of itself (seat-swapped games on shared seeds,
    /// records written), on `league_threads` threads: games per second, loading excluded.
    pub league_games_per_s: f64,
    pub league_games: u32,
    pub league_threads: usize,
    /// A component's first load as a new agent (see [`first_compile`]); `None` for a module.
    pub first_compile: Option<FirstCompile>,
}

/// The first load of a new agent of the same toolchain: the component's bytes made distinct (a
/// custom section), so that the module cache does not hold its compiled code, while the
/// compiled-function cache holds its runtime's functions (a load before this one compiled them,
/// in this run or an earlier one). Validation, the compile in its child process, the probe.
#[derive(Clone, Debug, Serialize)]
pub struct FirstCompile {
    /// Wall time of the load.
    pub wall_ms: f64,
    /// CPU time of the load: this process and the compiler child, every thread.
    pub cpu_ms: f64,
    /// Functions read from the compiled-function cache, and functions compiled.
    pub functions_cached: usize,
    pub functions_compiled: usize,
}

/// A target of docs/PERFORMANCE.md for one agent, and whether this run met it.
#[derive(Clone, Debug, Serialize)]
pub struct Target {
    pub agent: String,
    /// `first_compile_ms`, `instantiate_vs_starter` or `game_vs_starter`.
    pub figure: &'static str,
    pub value: f64,
    /// At most this.
    pub target: f64,
    pub met: bool,
}

/// How much to measure.
#[derive(Clone, Debug)]
pub struct Sizes {
    /// Games on one thread.
    pub games: usize,
    /// Repetitions of the timings (the best is kept).
    pub reps: u32,
    /// Games of the league (a multiple of 2).
    pub league_games: u32,
    /// Threads of the league.
    pub league_threads: usize,
    /// Where the league writes its folder (removed afterwards).
    pub scratch: PathBuf,
}

/// Measures `module` (loaded in `load_ms`) in the workload's game.
pub fn measure(
    w: &Workload,
    module: &AgentModule,
    load_ms: f64,
    sizes: &Sizes,
) -> anyhow::Result<ComponentFigures> {
    let reps = sizes.reps;
    let (instantiate, instantiate_cpu) = instantiate_us(module, reps, 20)?;
    let start = start_us(w, module, reps, 20)?;
    let decision = w.decision_ns(Player::Agent(module), reps, 50)? / 1000.0;
    let games = sizes.games;
    let cpu = thread_cpu_s();
    let secs = w.games_only(games, &[Player::Agent(module)])?.as_secs_f64();
    let cpu_secs = thread_cpu_s() - cpu;
    let league_secs = time_league_against_itself(w, module, sizes)?;
    Ok(ComponentFigures {
        name: module.name().to_owned(),
        world: module.world().unwrap_or("(a core module)").to_owned(),
        size_bytes: module.size(),
        load_ms,
        instantiate_us: instantiate,
        instantiate_cpu_us: instantiate_cpu,
        start_us: start,
        decision_us: decision,
        games_per_s: games as f64 / secs,
        ms_per_game: secs * 1000.0 / games as f64,
        cpu_ms_per_game: cpu_secs * 1000.0 / games as f64,
        league_games_per_s: f64::from(sizes.league_games) / league_secs,
        league_games: sizes.league_games,
        league_threads: sizes.league_threads,
        first_compile: None,
    })
}

/// Measures [`FirstCompile`] for the component `wasm` named `name`. When the load found its
/// runtime's functions missing (they were compiled and stored just now: the first agent of this
/// toolchain on the machine), a second new copy is loaded and measured. The copies' artifacts are
/// removed from the module cache afterwards.
pub fn first_compile(sandbox: &Sandbox, name: &str, wasm: &[u8]) -> anyhow::Result<FirstCompile> {
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as usize)
        ^ std::process::id() as usize;
    let mut measured = None;
    for attempt in 0..2 {
        let copy = super::distinct_copy(wasm, nonce.wrapping_add(attempt));
        let (t, cpu) = (Instant::now(), process_cpu_s());
        let module = sandbox.load_bytes(name, &copy);
        let (wall_ms, cpu_ms) = (
            t.elapsed().as_secs_f64() * 1000.0,
            (process_cpu_s() - cpu) * 1000.0,
        );
        if let Some(cache) = &sandbox.compiler().cache {
            let key = ModuleCache::key(sandbox.engine(), sandbox.limits(), &copy);
            let _ = std::fs::remove_file(cache.path(&key));
        }
        let functions = match module?.compile_origin() {
            Origin::Compiled { functions } => functions,
            Origin::ModuleCache => None,
        };
        measured = Some(FirstCompile {
            wall_ms,
            cpu_ms,
            functions_cached: functions.map_or(0, |f| f.hits),
            functions_compiled: functions.map_or(0, |f| f.compiled),
        });
        if !functions.is_some_and(|f| f.stored) {
            break;
        }
    }
    Ok(measured.expect("one attempt at least"))
}

/// CPU time of this process and of its children that ended (the compiler child), in seconds.
fn process_cpu_s() -> f64 {
    let of = |who| {
        // SAFETY: `usage` is a valid rusage for getrusage to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(who, &mut usage) };
        let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
        t(usage.ru_utime) + t(usage.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

/// The targets of each component of `all` (the first entry is the starter, the reference of the
/// ratios): the first load of a new agent, instantiation and one game as multiples of the
/// starter's, in CPU time of the measuring thread.
pub fn targets(all: &[ComponentFigures]) -> Vec<Target> {
    let Some((starter, rest)) = all.split_first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for f in rest {
        let mut add = |figure, value: f64, target| {
            out.push(Target {
                agent: f.name.clone(),
                figure,
                value,
                target,
                met: value <= target,
            })
        };
        if let Some(c) = &f.first_compile {
            add("first_compile_ms", c.wall_ms, FIRST_COMPILE_TARGET_MS);
        }
        add(
            "instantiate_vs_starter",
            f.instantiate_cpu_us / starter.instantiate_cpu_us,
            INSTANTIATE_TARGET_RATIO,
        );
        add(
            "game_vs_starter",
            f.cpu_ms_per_game / starter.cpu_ms_per_game,
            GAME_TARGET_RATIO,
        );
    }
    out
}

/// Best of `reps` timings of `count` instantiations: the mean time to make a fresh instance of
/// `module` for a game (a new store, the pool's slot, the memory image) and to drop it, in wall
/// time and in the thread's CPU time (µs).
pub fn instantiate_us(module: &AgentModule, reps: u32, count: u32) -> anyhow::Result<(f64, f64)> {
    let (mut best, mut best_cpu) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..reps.max(1) {
        let (t, cpu) = (Instant::now(), thread_cpu_s());
        for _ in 0..count {
            module.instantiate_once().map_err(|e| {
                anyhow::anyhow!("{} could not be instantiated: {e:#}", module.name())
            })?;
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / f64::from(count));
        best_cpu = best_cpu.min((thread_cpu_s() - cpu) * 1e6 / f64::from(count));
    }
    Ok((best, best_cpu))
}

/// CPU time used by the calling thread so far, in seconds: unlike wall time, it does not count
/// the time the thread waited for a core that other processes held.
fn thread_cpu_s() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for clock_gettime to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Seconds to play a league of `module` against a copy of itself (agents `a` and `b`,
/// `sizes.league_games` games with records) into a new folder under `sizes.scratch`, which is
/// removed afterwards.
fn time_league_against_itself(
    w: &Workload,
    module: &AgentModule,
    sizes: &Sizes,
) -> anyhow::Result<f64> {
    let output = sizes.scratch.join(format!("league-{}", module.sha256()));
    let cfg = LeagueConfig {
        name: format!("{} against itself", module.name()),
        game: w.game(),
        settings: Default::default(),
        players_per_game: 2,
        games_per_group: sizes.league_games.max(2).next_multiple_of(2),
        seed: 11,
        round_cap: DEFAULT_ROUND_CAP,
        fault_policy: Default::default(),
        output: output.clone(),
        threads: sizes.league_threads,
        compress_records_over: 256 * 1024,
        double_play: 0.0,
        budgets: Budgets::default(),
        agents: ["a", "b"]
            .iter()
            .map(|n| AgentEntry {
                name: (*n).to_owned(),
                path: Path::new(n).with_extension("wasm"),
            })
            .collect(),
    };
    let contestants: [&dyn Contestant; 2] = [module, module];
    let opts = RunOptions {
        fresh: true,
        threads: Some(sizes.league_threads),
        quiet: true,
        ..Default::default()
    };
    let limits = serde_json::to_value(Limits::default())?;
    let t = Instant::now();
    let run = play_league(
        w.game(),
        &Host::default(),
        &cfg,
        &contestants,
        &limits,
        &opts,
    );
    let secs = t.elapsed().as_secs_f64();
    // The run (and the folder's lock) is dropped before the folder is removed.
    let complete = run.map(|r| r.played == r.results.len());
    let _ = std::fs::remove_dir_all(&output);
    anyhow::ensure!(complete?, "the league was not complete");
    Ok(secs)
}

/// The figures as a table (wall time; CPU time of the measuring thread in brackets), then the
/// first loads of new agents and the targets.
pub fn table(all: &[ComponentFigures]) -> String {
    let mut out = format!(
        "{:<16} {:>9} {:>9} {:>18} {:>10} {:>12} {:>16} {:>11}  world\n",
        "agent",
        "size (MB)",
        "load (ms)",
        "instantiate (µs)",
        "start (µs)",
        "decision (µs)",
        "ms/game, 1 thr.",
        "league g/s"
    );
    for f in all {
        out.push_str(&format!(
            "{:<16} {:>9.1} {:>9.0} {:>18} {:>10.1} {:>12.1} {:>16} {:>11.1}  {}\n",
            f.name,
            f.size_bytes as f64 / 1e6,
            f.load_ms,
            format!("{:.1} ({:.1})", f.instantiate_us, f.instantiate_cpu_us),
            f.start_us,
            f.decision_us,
            format!("{:.2} ({:.2})", f.ms_per_game, f.cpu_ms_per_game),
            f.league_games_per_s,
            f.world
        ));
    }
    let firsts: Vec<_> = all
        .iter()
        .filter_map(|f| f.first_compile.as_ref().map(|c| (f, c)))
        .collect();
    if !firsts.is_empty() {
        out.push_str(
            "\nfirst load of a new agent of the same toolchain (not in the module cache; \
             its runtime's functions compiled before):\n",
        );
        for (f, c) in firsts {
            out.push_str(&format!(
                "  {:<16} {:.2} s wall, {:.2} s CPU (arena and compiler child); {} of {} \
                 functions from the compiled-function cache\n",
                f.name,
                c.wall_ms / 1000.0,
                c.cpu_ms / 1000.0,
                c.functions_cached,
                c.functions_cached + c.functions_compiled
            ));
        }
    }
    let targets = targets(all);
    if let (false, Some(starter)) = (targets.is_empty(), all.first()) {
        out.push_str(&format!(
            "\ntargets (ratios to {} in this run, CPU time of the measuring thread):\n",
            starter.name
        ));
        for t in &targets {
            let (value, target) = match t.figure {
                "first_compile_ms" => (
                    format!("{:.2} s wall", t.value / 1000.0),
                    format!("≤ {:.0} s", t.target / 1000.0),
                ),
                _ => (format!("{:.1}×", t.value), format!("≤ {:.0}×", t.target)),
            };
            out.push_str(&format!(
                "  {:<16} {:<24} {:>12}  {:<7} {}\n",
                t.agent,
                t.figure,
                value,
                target,
                if t.met { "met" } else { "not met" }
            ));
        }
    }
    out
}
