//! The figures `arena bench` measures in its own process, section by section: one decision,
//! one agent's start for a game, games without records, and leagues of the workload's strategies
//! natively, as wasm agents and as processes of their own.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;

use super::workload::{Player, Workload};
use super::{best_interleaved, host_calls, BenchOptions, Figure, Target};
use crate::game::Host;
use crate::league::config::{AgentEntry, Budgets, LeagueConfig};
use crate::league::{play_league, Contestant, NativeEntrant, RunOptions};
use crate::sandbox::{AgentModule, Limits, Sandbox, DEFAULT_ROUND_CAP};

/// Rounds of the interleaved timings: the machine's speed drifts from minute to minute (a shared
/// VM), so the two sides of each ratio are timed in turn, round after round, and the best time of
/// each side is kept.
fn rounds(opts: &BenchOptions) -> usize {
    if opts.quick {
        1
    } else {
        15
    }
}

/// The host's overhead of one decision: the WAT passer in the sandbox, the same strategy native
/// and in a process of its own.
pub(super) fn decisions(
    opts: &BenchOptions,
    w: &Workload,
    sandbox: &Sandbox,
) -> anyhow::Result<Vec<Figure>> {
    let passer = sandbox.load_bytes("passer.wat", w.passer_wat().as_bytes())?;
    // Many short timings rather than a few long ones: the best of them is the least disturbed
    // by the other tenants of a shared VM.
    let (reps, calls) = if opts.quick {
        (3, 20_000)
    } else {
        (15, 200_000)
    };
    let wasm_ns = w.decision_ns(Player::Agent(&passer), reps, calls)?;
    let native_ns = w.decision_ns(Player::Native(w.passer()), reps, calls)?;
    let (stdio_reps, stdio_calls) = if opts.quick { (3, 2_000) } else { (5, 10_000) };
    let stdio_ns = w
        .decision_ns(
            Player::Process(&opts.stdio_agent, w.passer()),
            stdio_reps,
            stdio_calls,
        )
        .with_context(|| {
            format!(
                "the stdio baseline agent {} did not play",
                opts.stdio_agent.display()
            )
        })?;
    Ok(vec![
        Figure::new(
            "decision_wasm_ns",
            "host overhead per decision (WAT passer: encode, write, call, read, check)",
            wasm_ns,
            "ns",
        )
        .target(Target::AtMost(100.0)),
        Figure::new(
            "decision_native_ns",
            "same decision, the SDK passer native in-process (same ABI bytes)",
            native_ns,
            "ns",
        ),
        Figure::new(
            "decision_stdio_ns",
            "same decision to the SDK passer in a separate process (one JSON line each way)",
            stdio_ns,
            "ns",
        ),
        Figure::new(
            "decision_stdio_vs_wasm",
            "per decision: stdio process time / wasm time",
            stdio_ns / wasm_ns,
            "x",
        ),
    ])
}

/// The workload's strategies built for wasm (`opts.agents/NAME.wasm`), loaded.
pub(super) fn load_strategies(
    opts: &BenchOptions,
    w: &Workload,
    sandbox: &Sandbox,
) -> anyhow::Result<Vec<AgentModule>> {
    w.strategies()
        .iter()
        .map(|s| {
            let path = opts.agents.join(format!("{s}.wasm"));
            sandbox
                .load(&path)
                .with_context(|| format!("cannot load {}", path.display()))
        })
        .collect()
}

/// The per-game cost of one wasm agent: a fresh store and instance, its init, then dropped.
pub(super) fn start(
    opts: &BenchOptions,
    w: &Workload,
    wasm: &[AgentModule],
) -> anyhow::Result<Figure> {
    let (reps, starts) = if opts.quick { (3, 200) } else { (10, 1_000) };
    let starter = w.starter();
    let module = wasm
        .get(
            w.strategies()
                .iter()
                .position(|s| *s == starter)
                .unwrap_or(0),
        )
        .expect("the example agents are loaded");
    Ok(Figure::new(
        "start_wasm_us",
        format!("per-game cost of one wasm agent: fresh store and instance, arena_init, then dropped ({starter})"),
        start_us(w, module, reps, starts)?,
        "µs",
    ))
}

/// Best of `reps` timings of `players` starts: mean time to start a fresh player of `module` for
/// a game of the workload (a new store and instance, its init) and to drop it.
pub fn start_us(
    w: &Workload,
    module: &AgentModule,
    reps: u32,
    players: u32,
) -> anyhow::Result<f64> {
    let agent = &w.game().info().agent;
    let mut best = f64::INFINITY;
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        for i in 0..players {
            let mut player = module.player();
            player
                .start(agent, 0, 2, i as u64)
                .map_err(|f| anyhow::anyhow!("{} did not start: {}", module.name(), f.detail))?;
            std::hint::black_box(&mut player);
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / players as f64);
    }
    Ok(best)
}

/// Two-player games without records: the strategies natively, then as wasm agents.
pub(super) fn games(
    opts: &BenchOptions,
    w: &Workload,
    wasm: &[AgentModule],
) -> anyhow::Result<Vec<Figure>> {
    let rounds = rounds(opts);
    let games = if opts.quick { 20 } else { 400 };
    let natives: Vec<Player> = w.strategies().iter().map(|s| Player::Native(s)).collect();
    let agents: Vec<Player> = wasm.iter().map(Player::Agent).collect();
    let [native_game, wasm_game] = best_interleaved(
        rounds,
        [
            &mut || Ok(w.games_only(games, &natives)?.as_secs_f64()),
            &mut || Ok(w.games_only(games, &agents)?.as_secs_f64()),
        ],
    )?;
    Ok(vec![
        Figure::new(
            "game_native_us",
            format!(
                "one 2-player game, native strategies (mean of {games}, best of {rounds} rounds)"
            ),
            native_game * 1e6 / games as f64,
            "µs",
        ),
        Figure::new(
            "game_wasm_us",
            format!("one 2-player game, wasm agents (mean of {games}, best of {rounds} rounds)"),
            wasm_game * 1e6 / games as f64,
            "µs",
        ),
        Figure::new(
            "games_wasm_vs_native",
            "games alone (no records): wasm time / native time",
            wasm_game / native_game,
            "x",
        ),
    ])
}

/// Leagues of the strategies with records: native, wasm on one and two threads, and processes;
/// beside them, what the machine gives a second thread for native games.
pub(super) fn leagues(
    opts: &BenchOptions,
    w: &Workload,
    wasm: &[AgentModule],
) -> anyhow::Result<Vec<Figure>> {
    let rounds = rounds(opts);
    let per_group = if opts.quick { 2 } else { 40 };
    let cfg = league_config(w, &opts.scratch, "league", per_group);
    let n = w.strategies().len();
    let league_games = n * (n - 1) / 2 * per_group as usize;
    let native_c: Vec<NativeEntrant> = w
        .strategies()
        .iter()
        .map(|s| NativeEntrant(w.native(s).expect("a strategy")))
        .collect();
    let stdio_c: Vec<NativeEntrant> = w
        .strategies()
        .iter()
        .map(|s| NativeEntrant(w.process(&opts.stdio_agent, s)))
        .collect();
    let natives = as_dyn(&native_c);
    let agents: Vec<&dyn Contestant> = wasm.iter().map(|m| m as &dyn Contestant).collect();
    let stdio = as_dyn(&stdio_c);
    // Every league plays into a folder of its own, deleted only after the last one: on a file
    // system without a journal (ext4 as this VM mounts it), creating files soon after deleting
    // many costs about a millisecond each, which would be timed as part of the next league.
    let leagues = LeagueFolders::new(&opts.scratch.join("leagues"));
    // Native games without records on 1 and 2 threads, in the same minutes as the leagues: what
    // the machine itself gives to a second thread running this kind of code (a shared VM, shared
    // caches), against which the league's speed-up can be read.
    let control_games = if opts.quick { 20 } else { 400 };
    let [t_native, t_wasm, t_wasm2, t_control1, t_control2] = best_interleaved(
        rounds,
        [
            &mut || time_league(w, &leagues.next(&cfg), &natives, 1),
            &mut || time_league(w, &leagues.next(&cfg), &agents, 1),
            &mut || time_league(w, &leagues.next(&cfg), &agents, 2),
            &mut || native_games_split(w, control_games, 1),
            &mut || native_games_split(w, control_games, 2),
        ],
    )?;
    // Five times slower than the wasm league: fewer rounds are enough for its ratio.
    let stdio_rounds = if opts.quick { 1 } else { 3 };
    let [t_stdio] = best_interleaved(
        stdio_rounds,
        [&mut || time_league(w, &leagues.next(&cfg), &stdio, 1)],
    )?;
    drop(leagues);
    let times = LeagueTimes {
        native: t_native,
        wasm: t_wasm,
        wasm2: t_wasm2,
        stdio: t_stdio,
        control1: t_control1,
        control2: t_control2,
        rounds,
        stdio_rounds,
    };
    Ok(league_figures(&times, n, league_games))
}

/// The best times of [`leagues`], in seconds, and the rounds they are the best of.
struct LeagueTimes {
    native: f64,
    wasm: f64,
    wasm2: f64,
    stdio: f64,
    /// Native games without records on 1 thread, and split over 2.
    control1: f64,
    control2: f64,
    rounds: usize,
    stdio_rounds: usize,
}

/// The figures of the leagues of `n` strategies (`league_games` games each) timed as `t`.
fn league_figures(t: &LeagueTimes, n: usize, league_games: usize) -> Vec<Figure> {
    let what = |who: &str, threads: usize, rounds: usize| {
        format!("league of the {n} strategies, {league_games} games with records, {who}, {threads} thread(s), best of {rounds}")
    };
    vec![
        Figure::new("league_native_s", what("native", 1, t.rounds), t.native, "s"),
        Figure::new("league_wasm_s", what("wasm", 1, t.rounds), t.wasm, "s"),
        Figure::new(
            "league_wasm_vs_native",
            "league: wasm time / native time",
            t.wasm / t.native,
            "x",
        )
        .target(Target::AtMost(1.5)),
        Figure::new(
            "league_stdio_s",
            what("a JSON-lines process per agent per game", 1, t.stdio_rounds),
            t.stdio,
            "s",
        ),
        Figure::new(
            "stdio_vs_wasm",
            "league: stdio processes time / wasm time",
            t.stdio / t.wasm,
            "x",
        )
        .target(Target::AtLeast(100.0)),
        Figure::new(
            "stdio_vs_native",
            "league: stdio processes time / native time (the most any in-process design could reach with these strategies)",
            t.stdio / t.native,
            "x",
        ),
        Figure::new(
            "league_wasm_2_threads_s",
            what("wasm", 2, t.rounds),
            t.wasm2,
            "s",
        ),
        Figure::new(
            "speedup_2_threads",
            "league: 1-thread time / 2-thread time (wasm)",
            t.wasm / t.wasm2,
            "x",
        )
        .target(Target::AtLeast(1.8)),
        Figure::new(
            "machine_speedup_2_threads",
            "control: native games without records on 1 thread / split over 2 threads, timed with the leagues",
            t.control1 / t.control2,
            "x",
        ),
        ]
}

/// The wall time of decisions that spend all their fuel on host calls, and on a plain loop.
pub(super) fn host_calls(
    opts: &BenchOptions,
    w: &Workload,
    sandbox: &Sandbox,
) -> anyhow::Result<Vec<Figure>> {
    let reps = if opts.quick { 1 } else { 5 };
    let timings = host_calls::time_all(sandbox, &w.game().info().agent, reps)?;
    let (loop_timings, calls): (Vec<_>, Vec<_>) = timings
        .into_iter()
        .partition(|t| t.name == host_calls::WASM_LOOP_NAME);
    let worst = calls
        .iter()
        .max_by(|a, b| a.ms.total_cmp(&b.ms))
        .context("no host-call timing")?;
    let limits = sandbox.limits();
    let wall_ms = limits.decision_wall_ms as f64;
    Ok(vec![
        Figure::new(
            "host_call_decision_ms",
            format!(
                "slowest decision spending {} fuel on one host call ({}; best of {reps}); `arena bench --host-calls` lists all",
                limits.fuel_per_decision, worst.name,
            ),
            worst.ms,
            "ms",
        )
        .target(Target::AtMost(wall_ms / 10.0)),
        Figure::new(
            "wasm_loop_decision_ms",
            format!(
                "same decision spent on a plain WebAssembly loop ({} fuel)",
                limits.fuel_per_decision
            ),
            loop_timings.first().context("no loop timing")?.ms,
            "ms",
        ),
    ])
}

fn as_dyn(c: &[NativeEntrant]) -> Vec<&dyn Contestant> {
    c.iter().map(|c| c as &dyn Contestant).collect()
}

/// A 2-player round robin of the workload's strategies.
fn league_config(w: &Workload, scratch: &Path, name: &str, per_group: u32) -> LeagueConfig {
    LeagueConfig {
        name: name.into(),
        game: w.game(),
        settings: Default::default(),
        players_per_game: 2,
        games_per_group: per_group,
        seed: 11,
        round_cap: DEFAULT_ROUND_CAP,
        fault_policy: Default::default(),
        output: scratch.join(name),
        threads: 1,
        compress_records_over: 256 * 1024,
        double_play: 0.0,
        budgets: Budgets::default(),
        agents: w
            .strategies()
            .iter()
            .map(|s| AgentEntry {
                name: s.to_string(),
                path: PathBuf::from(format!("{s}.wasm")),
            })
            .collect(),
    }
}

/// Output folders for the timed leagues, one per league, under one parent that is deleted when
/// this is dropped (also when a league fails).
struct LeagueFolders {
    parent: PathBuf,
    count: std::cell::Cell<usize>,
}

impl LeagueFolders {
    fn new(parent: &Path) -> LeagueFolders {
        let _ = std::fs::remove_dir_all(parent);
        LeagueFolders {
            parent: parent.to_path_buf(),
            count: std::cell::Cell::new(0),
        }
    }

    /// `cfg` with a new, empty output folder.
    fn next(&self, cfg: &LeagueConfig) -> LeagueConfig {
        let n = self.count.get();
        self.count.set(n + 1);
        LeagueConfig {
            output: self.parent.join(format!("{}-{n}", cfg.name)),
            ..cfg.clone()
        }
    }
}

impl Drop for LeagueFolders {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.parent);
    }
}

/// Seconds for `threads` threads to play `games` native games without records between them:
/// how well this machine runs the strategies' kind of code on that many cores, with no league,
/// records, sandbox or locks involved.
fn native_games_split(w: &Workload, games: usize, threads: usize) -> anyhow::Result<f64> {
    let natives: Vec<Player> = w.strategies().iter().map(|s| Player::Native(s)).collect();
    let t = Instant::now();
    std::thread::scope(|s| -> anyhow::Result<()> {
        let workers = (0..threads)
            .map(|_| {
                let natives = &natives;
                std::thread::Builder::new()
                    .stack_size(crate::sandbox::WORKER_STACK_BYTES)
                    .spawn_scoped(s, move || w.games_only(games / threads, natives))
                    .context("cannot start a bench thread")
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        for worker in workers {
            worker
                .join()
                .map_err(|_| anyhow::anyhow!("a bench thread panicked"))??;
        }
        Ok(())
    })?;
    Ok(t.elapsed().as_secs_f64())
}

/// Seconds to play the league `cfg` into its (new) output folder.
fn time_league(
    w: &Workload,
    cfg: &LeagueConfig,
    contestants: &[&dyn Contestant],
    threads: usize,
) -> anyhow::Result<f64> {
    let opts = RunOptions {
        fresh: true,
        threads: Some(threads),
        quiet: true,
        ..Default::default()
    };
    let limits = serde_json::to_value(Limits::default())?;
    let t = Instant::now();
    let run = play_league(w.game(), &Host::default(), cfg, contestants, &limits, &opts)?;
    let secs = t.elapsed().as_secs_f64();
    anyhow::ensure!(
        run.played == run.results.len(),
        "the league was not complete"
    );
    Ok(secs)
}
