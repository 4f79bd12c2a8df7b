//! Sandboxed agents as league contestants: budgets to limits, and loading every agent up front.

use anyhow::Context;

use super::config::{Budgets, LeagueConfig};
use super::contestant::Contestant;
use super::executor::Executor;
use super::folder;
use super::local::LocalExecutor;
use super::runner::{play_league_on, League, LeagueRun, RunOptions, Watcher};
use crate::game::Host;
use crate::resolve::resolve_agent;
use crate::sandbox::{AgentModule, Limits, Sandbox};

/// The sandbox limits a league's budgets ask for.
pub fn limits(b: &Budgets) -> Limits {
    let d = Limits::default();
    Limits {
        fuel_per_decision: b.fuel_per_decision.unwrap_or(d.fuel_per_decision),
        fuel_per_game: b.fuel_per_game.unwrap_or(d.fuel_per_game),
        memory_bytes: b.memory_mib.map_or(d.memory_bytes, |m| m << 20),
        table_elements: b.table_elements.unwrap_or(d.table_elements),
        module_bytes: b.module_mib.map_or(d.module_bytes, |m| m << 20),
        decision_wall_ms: b.decision_wall_ms.unwrap_or(d.decision_wall_ms),
        log_bytes: b.log_kib.map_or(d.log_bytes, |k| k << 10),
        ..d
    }
}

/// Loads every agent of the league, or fails naming the first that cannot be loaded or does not
/// play the league's game.
pub fn load_agents(cfg: &LeagueConfig, sandbox: &Sandbox) -> anyhow::Result<Vec<AgentModule>> {
    cfg.agents
        .iter()
        .map(|a| {
            let wasm = resolve_agent(&a.path).with_context(|| format!("agent {:?}", a.name))?;
            let module = sandbox.load(&wasm).with_context(|| {
                format!("agent {:?} ({}) cannot be loaded", a.name, wasm.display())
            })?;
            module
                .check_plays(&cfg.game.info().agent)
                .with_context(|| format!("agent {:?} ({})", a.name, wasm.display()))?;
            Ok(module)
        })
        .collect()
}

/// Loads the league's agents into a sandbox and plays the league. The output folder is locked
/// first: a second run on it is turned away before it spends time loading agents. The sandbox
/// holds an instance for every seat of every game played at once; where the address space cannot
/// hold that many, fewer games are played at once (the results do not depend on it), or none fits
/// and the league is refused with what to change.
pub fn run_league(cfg: &LeagueConfig, opts: &RunOptions) -> anyhow::Result<LeagueRun> {
    run_league_watched(cfg, opts, None)
}

/// [`run_league`] with a [`Watcher`] of its results, which may end it early (`arena match`).
pub fn run_league_watched(
    cfg: &LeagueConfig,
    opts: &RunOptions,
    watcher: Option<&mut dyn Watcher>,
) -> anyhow::Result<LeagueRun> {
    run_league_on(cfg, opts, watcher, &mut LocalExecutor)
}

/// [`run_league_watched`] with its games played by `executor` (workers through a database, for
/// `arena league --database`). The agents are loaded and checked here all the same: a league
/// that cannot be played is refused before any game is handed out.
pub fn run_league_on(
    cfg: &LeagueConfig,
    opts: &RunOptions,
    watcher: Option<&mut dyn Watcher>,
    executor: &mut dyn Executor,
) -> anyhow::Result<LeagueRun> {
    let lock = folder::lock(&cfg.output)?;
    let limits = limits(&cfg.budgets);
    let (sandbox, opts) = if executor.plays_here() {
        sized_sandbox(cfg, opts, &limits)?
    } else {
        let sandbox = Sandbox::new(crate::games::registry().agents(), limits.clone())?;
        (sandbox, opts.clone())
    };
    let agents = load_agents(cfg, &sandbox)?;
    let contestants: Vec<&dyn Contestant> = agents.iter().map(|m| m as &dyn Contestant).collect();
    let limits = serde_json::to_value(&limits)?;
    let host = Host {
        sandbox: Some(&sandbox),
    };
    let league = League {
        game: cfg.game,
        host: &host,
        cfg,
        contestants: &contestants,
        limits: &limits,
    };
    play_league_on(&league, &opts, lock, watcher, executor)
}

/// A sandbox that holds an instance for every seat of every game played at once; where the
/// address space cannot hold that many, fewer games are played at once (the results do not
/// depend on it), or none fits and the league is refused with what to change. Returns the
/// options with that many threads.
fn sized_sandbox(
    cfg: &LeagueConfig,
    opts: &RunOptions,
    limits: &Limits,
) -> anyhow::Result<(Sandbox, RunOptions)> {
    let players = cfg.players_per_game;
    let wanted = opts.threads.unwrap_or_else(|| cfg.worker_threads()).max(1);
    let instances = u32::try_from(wanted.saturating_mul(players)).unwrap_or(u32::MAX);
    let sandbox =
        Sandbox::for_instances(crate::games::registry().agents(), limits.clone(), instances)?;
    let threads = sandbox.games_at_once(players, wanted)?;
    if threads < wanted {
        eprintln!(
            "note: {threads} worker thread(s) instead of {wanted}: the address space holds {} \
             agent instances (results do not depend on the thread count)",
            sandbox.instances()
        );
    }
    let opts = RunOptions {
        threads: Some(threads),
        ..opts.clone()
    };
    Ok((sandbox, opts))
}
