//! Sandboxed agents as league contestants: budgets to limits, and loading every agent up front.

use anyhow::Context;

use super::config::{Budgets, LeagueConfig};
use super::runner::{play_league, Contestant, LeagueRun, RunOptions};
use crate::farm::FarmPlayer;
use crate::sandbox::{resolve_agent, AgentModule, Limits, Sandbox};

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

/// Loads every agent of the league, or fails naming the first that cannot be loaded.
pub fn load_agents(cfg: &LeagueConfig, sandbox: &Sandbox) -> anyhow::Result<Vec<AgentModule>> {
    cfg.agents
        .iter()
        .map(|a| {
            let wasm = resolve_agent(&a.path).with_context(|| format!("agent {:?}", a.name))?;
            sandbox.load(&wasm).with_context(|| {
                format!("agent {:?} ({}) cannot be loaded", a.name, wasm.display())
            })
        })
        .collect()
}

/// A loaded agent, told the league's round cap at the start of each game.
struct Entrant {
    module: AgentModule,
    round_cap: u32,
}

impl Contestant for Entrant {
    fn new_player(&self) -> Box<dyn FarmPlayer + '_> {
        Box::new(self.module.player_with_round_cap(self.round_cap))
    }

    fn code_hash(&self) -> Option<String> {
        Some(self.module.sha256().to_owned())
    }
}

/// Loads the league's agents into a sandbox and plays the league.
pub fn run_league(cfg: &LeagueConfig, opts: &RunOptions) -> anyhow::Result<LeagueRun> {
    let limits = limits(&cfg.budgets);
    let sandbox = Sandbox::new(limits.clone())?;
    let entrants: Vec<Entrant> = load_agents(cfg, &sandbox)?
        .into_iter()
        .map(|module| Entrant {
            module,
            round_cap: cfg.round_cap,
        })
        .collect();
    let contestants: Vec<&dyn Contestant> = entrants.iter().map(|e| e as &dyn Contestant).collect();
    play_league(cfg, &contestants, &serde_json::to_value(&limits)?, opts)
}
