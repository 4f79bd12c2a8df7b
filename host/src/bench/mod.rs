//! The performance figures of `arena bench` (docs/PERFORMANCE.md): the host's per-decision
//! overhead, wasm leagues against the same strategies run natively and against the conventional
//! process-per-agent JSON-lines design, parallel speed-up, league start-up with many agents, and
//! the resident memory of a long league, and the wall time of decisions that spend all their fuel
//! on host calls ([`host_calls`]).
//!
//! Every speed target is a ratio measured in one run on one machine; no test checks a speed
//! (tests only check that every figure is produced, in `quick` mode).

pub mod components;
pub mod host_calls;
pub mod stdio;
pub mod strategies;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;
use farm_rules::{Herd, Position};
use serde::Serialize;

use crate::farm::FarmGame;
use crate::farm::{play_game, Event, FarmPlayer, Observation, Party, SeededDice, Setup};
use crate::league::config::{AgentEntry, Budgets, LeagueConfig};
use crate::league::{play_league, Contestant, RunOptions};
use crate::sandbox::{AgentModule, Limits, Sandbox, DEFAULT_ROUND_CAP};
use strategies::{NativeContestant, STRATEGIES};

/// The WAT passer of docs/ABI.md: answers at once, so a decision costs only the host's overhead.
pub const PASSER_WAT: &str = include_str!("../../../example-agents/wat/passer.wat");

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
    fn new(key: &'static str, what: impl Into<String>, value: f64, unit: &'static str) -> Figure {
        Figure {
            key,
            what: what.into(),
            value,
            unit,
            target: None,
            met: None,
        }
    }

    fn target(mut self, t: Target) -> Figure {
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

/// Runs every measurement. Guest code runs on this thread: call it on a thread with
/// [`crate::sandbox::WORKER_STACK_BYTES`] of stack.
pub fn run(opts: &BenchOptions, progress: &mut dyn FnMut(&str)) -> anyhow::Result<Report> {
    std::fs::create_dir_all(&opts.scratch)
        .with_context(|| format!("cannot create {}", opts.scratch.display()))?;
    let mut figures = Vec::new();
    let sandbox = Sandbox::new(crate::games::AGENTS, Limits::default())?;
    let q = opts.quick;

    progress("per-decision overhead");
    let passer = sandbox.load_bytes("passer.wat", PASSER_WAT.as_bytes())?;
    // Many short timings rather than a few long ones: the best of them is the least disturbed
    // by the other tenants of a shared VM.
    let (reps, calls) = if q { (3, 20_000) } else { (15, 200_000) };
    let wasm_ns = decision_ns(&mut passer.player(), reps, calls)?;
    let native_ns = decision_ns(
        &mut *strategies::native_player("passer", 0).unwrap(),
        reps,
        calls,
    )?;
    figures.push(
        Figure::new(
            "decision_wasm_ns",
            "host overhead per decision (WAT passer: encode, write, call, read, check)",
            wasm_ns,
            "ns",
        )
        .target(Target::AtMost(100.0)),
    );
    figures.push(Figure::new(
        "decision_native_ns",
        "same decision, the SDK passer native in-process (same ABI bytes)",
        native_ns,
        "ns",
    ));

    let (stdio_reps, stdio_calls) = if q { (3, 2_000) } else { (5, 10_000) };
    let mut stdio_passer = stdio::StdioPlayer::new(&opts.stdio_agent, &["passer".to_string()], 0);
    let stdio_ns = decision_ns(&mut stdio_passer, stdio_reps, stdio_calls).with_context(|| {
        format!(
            "the stdio baseline agent {} did not play",
            opts.stdio_agent.display()
        )
    })?;
    figures.push(Figure::new(
        "decision_stdio_ns",
        "same decision to the SDK passer in a separate process (one JSON line each way)",
        stdio_ns,
        "ns",
    ));
    figures.push(Figure::new(
        "decision_stdio_vs_wasm",
        "per decision: stdio process time / wasm time",
        stdio_ns / wasm_ns,
        "x",
    ));

    let wasm: Vec<AgentModule> = STRATEGIES
        .iter()
        .map(|s| {
            let path = opts.agents.join(format!("{s}.wasm"));
            sandbox
                .load(&path)
                .with_context(|| format!("cannot load {}", path.display()))
        })
        .collect::<anyhow::Result<_>>()?;

    progress("per-game start of a wasm agent");
    let (start_reps, starts) = if q { (3, 200) } else { (10, 1_000) };
    let greedy = wasm
        .get(STRATEGIES.iter().position(|s| *s == "greedy").unwrap_or(0))
        .expect("the example agents are loaded");
    figures.push(Figure::new(
        "start_wasm_us",
        "per-game cost of one wasm agent: fresh store and instance, arena_init, then dropped (greedy)",
        start_us(greedy, start_reps, starts)?,
        "µs",
    ));

    // The machine's speed drifts from minute to minute (a shared VM): the two sides of each ratio
    // are timed in turn, round after round, and the best time of each side is kept.
    let rounds = if q { 1 } else { 15 };

    progress("games without records: wasm vs native");
    let games = if q { 20 } else { 400 };
    let [native_game, wasm_game] = best_interleaved(
        rounds,
        [
            &mut || {
                Ok(games_only(games, &|i| {
                    strategies::native_player(STRATEGIES[i], DEFAULT_ROUND_CAP).unwrap()
                })
                .as_secs_f64())
            },
            &mut || {
                Ok(games_only(games, &|i| {
                    Box::new(wasm[i].player_with_round_cap(DEFAULT_ROUND_CAP))
                })
                .as_secs_f64())
            },
        ],
    )?;
    figures.push(Figure::new(
        "game_native_us",
        format!("one 2-player game, native strategies (mean of {games}, best of {rounds} rounds)"),
        native_game * 1e6 / games as f64,
        "µs",
    ));
    figures.push(Figure::new(
        "game_wasm_us",
        format!("one 2-player game, wasm agents (mean of {games}, best of {rounds} rounds)"),
        wasm_game * 1e6 / games as f64,
        "µs",
    ));
    figures.push(Figure::new(
        "games_wasm_vs_native",
        "games alone (no records): wasm time / native time",
        wasm_game / native_game,
        "x",
    ));

    progress("leagues: native, wasm, stdio processes");
    let per_group = if q { 2 } else { 40 };
    let cfg = league_config(&opts.scratch, "league", per_group);
    let league_games = 10 * per_group as usize;
    let native_c: Vec<NativeContestant> = STRATEGIES
        .iter()
        .map(|s| NativeContestant {
            name: s.to_string(),
            round_cap: cfg.round_cap,
        })
        .collect();
    let wasm_c: Vec<WasmContestant> = wasm
        .iter()
        .map(|m| WasmContestant {
            module: m.clone(),
            round_cap: cfg.round_cap,
        })
        .collect();
    let stdio_c: Vec<stdio::StdioContestant> = STRATEGIES
        .iter()
        .map(|s| stdio::StdioContestant {
            program: opts.stdio_agent.clone(),
            strategy: s.to_string(),
            round_cap: cfg.round_cap,
        })
        .collect();
    // Every league plays into a folder of its own, deleted only after the last one: on a file
    // system without a journal (ext4 as this VM mounts it), creating files soon after deleting
    // many costs about a millisecond each, which would be timed as part of the next league.
    let leagues = LeagueFolders::new(&opts.scratch.join("leagues"));
    // Native games without records on 1 and 2 threads, in the same minutes as the leagues: what
    // the machine itself gives to a second thread running this kind of code (a shared VM, shared
    // caches), against which the league's speed-up can be read.
    let control_games = if q { 20 } else { 400 };
    let [t_native, t_wasm, t_wasm2, t_control1, t_control2] = best_interleaved(
        rounds,
        [
            &mut || time_league(&leagues.next(&cfg), &as_dyn(&native_c), 1),
            &mut || time_league(&leagues.next(&cfg), &as_dyn(&wasm_c), 1),
            &mut || time_league(&leagues.next(&cfg), &as_dyn(&wasm_c), 2),
            &mut || native_games_split(control_games, 1),
            &mut || native_games_split(control_games, 2),
        ],
    )?;
    // Five times slower than the wasm league: fewer rounds are enough for its ratio.
    let stdio_rounds = if q { 1 } else { 3 };
    let [t_stdio] = best_interleaved(
        stdio_rounds,
        [&mut || time_league(&leagues.next(&cfg), &as_dyn(&stdio_c), 1)],
    )?;
    drop(leagues);
    let what = |who: &str, threads: usize, rounds: usize| {
        format!("league of the 5 strategies, {league_games} games with records, {who}, {threads} thread(s), best of {rounds}")
    };
    figures.push(Figure::new(
        "league_native_s",
        what("native", 1, rounds),
        t_native,
        "s",
    ));
    figures.push(Figure::new(
        "league_wasm_s",
        what("wasm", 1, rounds),
        t_wasm,
        "s",
    ));
    figures.push(
        Figure::new(
            "league_wasm_vs_native",
            "league: wasm time / native time",
            t_wasm / t_native,
            "x",
        )
        .target(Target::AtMost(1.5)),
    );
    figures.push(Figure::new(
        "league_stdio_s",
        what("a JSON-lines process per agent per game", 1, stdio_rounds),
        t_stdio,
        "s",
    ));
    figures.push(
        Figure::new(
            "stdio_vs_wasm",
            "league: stdio processes time / wasm time",
            t_stdio / t_wasm,
            "x",
        )
        .target(Target::AtLeast(100.0)),
    );
    figures.push(Figure::new(
        "stdio_vs_native",
        "league: stdio processes time / native time (the most any in-process design could reach with these strategies)",
        t_stdio / t_native,
        "x",
    ));
    figures.push(Figure::new(
        "league_wasm_2_threads_s",
        what("wasm", 2, rounds),
        t_wasm2,
        "s",
    ));
    figures.push(
        Figure::new(
            "speedup_2_threads",
            "league: 1-thread time / 2-thread time (wasm)",
            t_wasm / t_wasm2,
            "x",
        )
        .target(Target::AtLeast(1.8)),
    );
    figures.push(Figure::new(
        "machine_speedup_2_threads",
        "control: native games without records on 1 thread / split over 2 threads, timed with the leagues",
        t_control1 / t_control2,
        "x",
    ));

    progress("league start-up with 50 agents (child process)");
    let (cold, warm) = startup(opts, 50)?;
    figures.push(Figure::new(
        "startup_50_cold_s",
        "50 distinct agents: `arena league` start to first game finished, empty module cache",
        cold,
        "s",
    ));
    figures.push(
        Figure::new(
            "startup_50_warm_s",
            "same, second run (agents compiled before)",
            warm,
            "s",
        )
        .target(Target::AtMost(1.0)),
    );

    let (agents, per_group) = if q { (6, 2) } else { (100, 2) };
    progress(&format!(
        "memory of a league of {agents} agents (child process)"
    ));
    let (mib, games, secs) = memory(opts, agents, per_group)?;
    let mut fig = Figure::new(
        "memory_100_agents_mib",
        format!("peak resident memory (VmHWM) of `arena league`, {agents} agents, {games} games"),
        mib,
        "MiB",
    );
    if !q {
        fig = fig.target(Target::AtMost(300.0));
    }
    figures.push(fig);
    figures.push(Figure::new(
        "memory_league_games",
        "games in that league",
        games as f64,
        "games",
    ));
    figures.push(Figure::new(
        "memory_league_s",
        "wall time of that league (2 threads, compiling included)",
        secs,
        "s",
    ));

    progress("decisions that spend their fuel on host calls");
    let timings = host_calls::time_all(&sandbox, if q { 1 } else { 5 })?;
    let (loop_timings, calls): (Vec<_>, Vec<_>) = timings
        .into_iter()
        .partition(|t| t.name == host_calls::WASM_LOOP_NAME);
    let worst = calls
        .iter()
        .max_by(|a, b| a.ms.total_cmp(&b.ms))
        .context("no host-call timing")?;
    let wall_ms = sandbox.limits().decision_wall_ms as f64;
    figures.push(
        Figure::new(
            "host_call_decision_ms",
            format!(
                "slowest decision spending {} fuel on one host call ({}; best of {}); `arena bench --host-calls` lists all",
                sandbox.limits().fuel_per_decision,
                worst.name,
                if q { 1 } else { 5 }
            ),
            worst.ms,
            "ms",
        )
        .target(Target::AtMost(wall_ms / 10.0)),
    );
    figures.push(Figure::new(
        "wasm_loop_decision_ms",
        format!(
            "same decision spent on a plain WebAssembly loop ({} fuel)",
            sandbox.limits().fuel_per_decision
        ),
        loop_timings.first().context("no loop timing")?.ms,
        "ms",
    ));

    Ok(Report {
        quick: q,
        machine: machine(),
        allocation: sandbox.allocation().to_string(),
        scratch: opts.scratch.clone(),
        figures,
    })
}

/// Runs each timing (seconds) once per round, in turn, for `rounds` rounds, and returns the best
/// of each: both sides of a ratio are then measured in the same minutes.
fn best_interleaved<const N: usize>(
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

/// Best of `reps` timings of `calls` decisions: mean time of one trade decision of `player` on a
/// small fixed observation.
pub fn decision_ns(player: &mut dyn FarmPlayer, reps: u32, calls: u32) -> anyhow::Result<f64> {
    let pos = Position::new(2);
    let events = sample_events();
    let obs = Observation {
        seat: 0,
        to_move: 0,
        turn: 3,
        round: 2,
        position: &pos,
        events: &events,
    };
    let mut best = f64::INFINITY;
    for _ in 0..reps.max(1) {
        player
            .start(0, 2, 7)
            .map_err(|f| anyhow::anyhow!("the player did not start: {}", f.detail))?;
        let t = Instant::now();
        for _ in 0..calls {
            let offer = player
                .trade(std::hint::black_box(&obs))
                .map_err(|f| anyhow::anyhow!("the player did not answer: {}", f.detail))?;
            std::hint::black_box(offer);
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / calls as f64);
    }
    Ok(best)
}

/// Best of `reps` timings of `players` starts: mean time to start a fresh player of `module` for
/// a game (a new store and instance, `arena_init`) and to drop it.
pub fn start_us(module: &AgentModule, reps: u32, players: u32) -> anyhow::Result<f64> {
    let mut best = f64::INFINITY;
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        for i in 0..players {
            let mut player = module.player();
            player
                .start(&crate::farm::AGENT, 0, 2, i as u64)
                .map_err(|f| anyhow::anyhow!("{} did not start: {}", module.name(), f.detail))?;
            std::hint::black_box(&mut player);
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / players as f64);
    }
    Ok(best)
}

/// A few events, as a decision typically carries.
pub fn sample_events() -> Vec<Event> {
    vec![
        Event::Transfer {
            from: Party::Stock,
            to: Party::Player(1),
            animals: Herd([1, 0, 0, 0, 0, 0, 0]),
        },
        Event::Bred {
            seat: 1,
            gained: Herd([1, 0, 0, 0, 0, 0, 0]),
        },
        Event::Answer {
            seat: 1,
            trader: 0,
            accepted: false,
        },
    ]
}

/// Plays `games` two-player games over the pairs of the five strategies (no records written).
pub fn games_only(games: usize, make: &dyn Fn(usize) -> Box<dyn FarmPlayer>) -> Duration {
    let mut pairs = Vec::new();
    for a in 0..STRATEGIES.len() {
        for b in 0..STRATEGIES.len() {
            if a != b {
                pairs.push((a, b));
            }
        }
    }
    let t = Instant::now();
    for g in 0..games {
        let (a, b) = pairs[g % pairs.len()];
        let setup = Setup::standard(2, 1000 + g as u64, DEFAULT_ROUND_CAP);
        let (mut pa, mut pb) = (make(a), make(b));
        let mut seats: Vec<&mut dyn FarmPlayer> = vec![&mut *pa, &mut *pb];
        let record = play_game(&setup, &mut seats, &mut SeededDice::new(1000 + g as u64));
        std::hint::black_box(record);
    }
    t.elapsed()
}

/// A loaded wasm agent in a league.
pub struct WasmContestant {
    pub module: AgentModule,
    pub round_cap: u32,
}

impl Contestant<FarmGame> for WasmContestant {
    fn new_player(&self) -> Box<dyn FarmPlayer> {
        Box::new(self.module.player_with_round_cap(self.round_cap))
    }

    fn code_hash(&self) -> Option<String> {
        Some(self.module.sha256().to_owned())
    }
}

fn as_dyn<C: Contestant<FarmGame>>(c: &[C]) -> Vec<&dyn Contestant<FarmGame>> {
    c.iter().map(|c| c as &dyn Contestant<FarmGame>).collect()
}

/// A 2-player round robin of the five strategies.
fn league_config(scratch: &Path, name: &str, per_group: u32) -> LeagueConfig {
    LeagueConfig {
        name: name.into(),
        game: crate::game::GameKind::Farm,
        players_per_game: 2,
        games_per_group: per_group,
        seed: 11,
        round_cap: DEFAULT_ROUND_CAP,
        fault_policy: Default::default(),
        output: scratch.join(name),
        threads: 1,
        compress_records_over: 256 * 1024,
        budgets: Budgets::default(),
        agents: STRATEGIES
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
fn native_games_split(games: usize, threads: usize) -> anyhow::Result<f64> {
    let t = Instant::now();
    std::thread::scope(|s| -> anyhow::Result<()> {
        let workers = (0..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(crate::sandbox::WORKER_STACK_BYTES)
                    .spawn_scoped(s, move || {
                        games_only(games / threads, &|i| {
                            strategies::native_player(STRATEGIES[i], DEFAULT_ROUND_CAP).unwrap()
                        })
                    })
                    .context("cannot start a bench thread")
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        for w in workers {
            w.join()
                .map_err(|_| anyhow::anyhow!("a bench thread panicked"))?;
        }
        Ok(())
    })?;
    Ok(t.elapsed().as_secs_f64())
}

/// Seconds to play the league `cfg` into its (new) output folder.
fn time_league(
    cfg: &LeagueConfig,
    contestants: &[&dyn Contestant<FarmGame>],
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
    let run = play_league(&FarmGame, cfg, contestants, &limits, &opts)?;
    let secs = t.elapsed().as_secs_f64();
    anyhow::ensure!(
        run.played == run.results.len(),
        "the league was not complete"
    );
    Ok(secs)
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
    dir: &Path,
    count: usize,
    per_group: u32,
    threads: usize,
) -> anyhow::Result<PathBuf> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("agents"))?;
    let mut text = format!(
        "name = \"bench\"\nplayers_per_game = 2\ngames_per_group = {per_group}\nseed = 3\n\
         threads = {threads}\noutput = \"out\"\n"
    );
    for i in 0..count {
        let s = STRATEGIES[i % STRATEGIES.len()];
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

/// Seconds from starting `arena league` over `count` distinct agents to its first game record,
/// twice: first with an empty module cache (every agent compiled), then with the agents compiled
/// by the first run. The cache is a new folder of the scratch folder: the copies' bytes are the
/// same in every bench run, so the user's cache would hold them from the last run.
fn startup(opts: &BenchOptions, count: usize) -> anyhow::Result<(f64, f64)> {
    let dir = opts.scratch.join("startup");
    let league = copies_league(opts, &dir, count, 2, 1)?;
    let cache = dir.join("cache");
    let once = || -> anyhow::Result<f64> {
        let records = dir.join("out").join(crate::league::runner::RECORDS_DIR);
        let _ = std::fs::remove_dir_all(dir.join("out"));
        let t = Instant::now();
        let mut child = Command::new(&opts.arena)
            .arg("league")
            .arg("--config")
            .arg(&league)
            .args(["--fresh", "--quiet"])
            .env(crate::sandbox::CACHE_DIR_ENV, &cache)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot run {}", opts.arena.display()))?;
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
fn memory(opts: &BenchOptions, count: usize, per_group: u32) -> anyhow::Result<(f64, usize, f64)> {
    let dir = opts.scratch.join("memory");
    let league = copies_league(opts, &dir, count, per_group, 2)?;
    let t = Instant::now();
    let mut child = Command::new(&opts.arena)
        .arg("league")
        .arg("--config")
        .arg(&league)
        .args(["--fresh", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run {}", opts.arena.display()))?;
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
