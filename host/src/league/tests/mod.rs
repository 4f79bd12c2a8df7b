//! League runs with native contestants: determinism across thread counts, and resuming.

mod csv;
mod cut;
mod executor;
mod fresh;
mod host_failures;
mod unplayed;

use std::path::{Path, PathBuf};

use farm_rules::{for_each_stock_trade, Offer, Trade};

use super::config::LeagueConfig;
use super::contestant::{Contestant, NativeEntrant};
use super::journal::JOURNAL_FILE;
use super::output::{CROSSTABLE_CSV, GAMES_CSV, STANDINGS_CSV, STANDINGS_JSON};
use super::runner::{play_league, RunOptions};
use crate::game::Hosted;
use crate::game::{Game, Host};
use crate::games::farm::tests::support::{native, FarmPlayer};
use crate::games::farm::{AcceptView, Farm, Fault, FaultKind, Observation};
use arena_test_support::folders::result_files as files;

/// Buys the `pick`-th affordable stock trade each turn (a different habit per contestant), and
/// faults on its `fault_at`-th decision if set (0: fails to load, every game).
#[derive(Clone)]
struct Habit {
    pick: usize,
    fault_at: Option<u32>,
}

impl Habit {
    fn picking(pick: usize) -> Habit {
        Habit {
            pick,
            fault_at: None,
        }
    }

    /// An agent that never loads.
    fn unloadable() -> Habit {
        Habit {
            pick: 0,
            fault_at: Some(0),
        }
    }
}

struct HabitPlayer {
    habit: Habit,
    decisions: u32,
}

impl FarmPlayer for HabitPlayer {
    fn start(&mut self, _seat: usize, _players: usize, _seed: u64) -> Result<(), Fault> {
        if self.habit.fault_at == Some(0) {
            return Err(Fault::new(FaultKind::LoadFailed, "test load failure"));
        }
        Ok(())
    }

    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        self.decisions += 1;
        if Some(self.decisions) == self.habit.fault_at {
            return Err(Fault::new(FaultKind::Trap, "test fault"));
        }
        let mut trades: Vec<Trade> = Vec::new();
        for_each_stock_trade(obs.position, obs.seat, &mut |t| trades.push(*t));
        // Prefer trades that buy one animal the herd lacks.
        let herd = obs.position.herds[obs.seat];
        trades.retain(|t| {
            t.get.total() == 1
                && t.get
                    .0
                    .iter()
                    .zip(herd.0.iter())
                    .any(|(g, h)| *g == 1 && *h == 0)
        });
        Ok(match trades.get(self.habit.pick % trades.len().max(1)) {
            Some(t) => Offer::with_stock(t.give, t.get),
            None => Offer::PASS,
        })
    }

    fn accept(&mut self, _obs: &Observation, _offer: &AcceptView) -> Result<bool, Fault> {
        Ok(false)
    }
}

impl Habit {
    /// The habit as a league entrant: a native seat of Little Animal Farm.
    fn entrant(&self) -> NativeEntrant {
        let habit = self.clone();
        NativeEntrant(native(move || HabitPlayer {
            habit: habit.clone(),
            decisions: 0,
        }))
    }
}

/// The entrants of `habits`.
fn entrants(habits: &[Habit]) -> Vec<NativeEntrant> {
    habits.iter().map(Habit::entrant).collect()
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("arena-league-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

fn config(dir: &Path, players: usize) -> LeagueConfig {
    let mut text = format!(
        "players_per_game = {players}\ngames_per_group = {}\nseed = 5\nround_cap = 60\n",
        2 * players
    );
    for name in ["a", "b", "c", "d"] {
        std::fs::write(dir.join(format!("{name}.wasm")), b"").unwrap();
        text.push_str(&format!("[[agent]]\npath = '{name}.wasm'\n"));
    }
    LeagueConfig::parse(&text, dir).unwrap()
}

fn habits() -> Vec<Habit> {
    vec![
        Habit {
            pick: 0,
            fault_at: None,
        },
        Habit {
            pick: 1,
            fault_at: None,
        },
        Habit {
            pick: 2,
            fault_at: Some(7),
        },
        Habit {
            pick: 3,
            fault_at: None,
        },
    ]
}

fn run(cfg: &LeagueConfig, out: &Path, threads: usize, resume: bool) -> super::runner::LeagueRun {
    try_run(cfg, out, &habits(), threads, resume).unwrap()
}

/// Plays `cfg` with `habits` into `out` (fresh, or resuming).
fn try_run(
    cfg: &LeagueConfig,
    out: &Path,
    habits: &[Habit],
    threads: usize,
    resume: bool,
) -> anyhow::Result<super::runner::LeagueRun> {
    let entrants = entrants(habits);
    let contestants: Vec<&dyn Contestant> = entrants.iter().map(|c| c as &dyn Contestant).collect();
    play_with(&Hosted(Farm), cfg, out, &contestants, threads, resume)
}

/// Plays the league `cfg` of `game` afresh with `contestants` on `threads` threads, without
/// progress lines; `limits` is what its files state as the budgets (the report's and the audit's
/// tests).
pub(crate) fn play_fresh(
    game: &'static dyn Game,
    cfg: &LeagueConfig,
    contestants: &[&dyn Contestant],
    limits: &serde_json::Value,
    threads: usize,
) -> super::runner::LeagueRun {
    let opts = RunOptions {
        fresh: true,
        threads: Some(threads),
        quiet: true,
        ..RunOptions::default()
    };
    play_league(game, &Host::default(), cfg, contestants, limits, &opts).unwrap()
}

/// Plays `cfg` of `game` with `contestants` into `out` (fresh, or resuming).
fn play_with(
    game: &'static dyn Game,
    cfg: &LeagueConfig,
    out: &Path,
    contestants: &[&dyn Contestant],
    threads: usize,
    resume: bool,
) -> anyhow::Result<super::runner::LeagueRun> {
    let mut cfg = cfg.clone();
    cfg.output = out.to_path_buf();
    let opts = RunOptions {
        resume,
        fresh: !resume,
        threads: Some(threads),
        quiet: true,
        extend: false,
    };
    play_league(
        game,
        &Host::default(),
        &cfg,
        contestants,
        &serde_json::json!({"test": true}),
        &opts,
    )
}

#[test]
fn results_do_not_depend_on_thread_count() {
    for players in [2, 3] {
        let dir = temp(&format!("threads-{players}"));
        let cfg = config(&dir, players);
        let one = run(&cfg, &dir.join("one"), 1, false);
        let three = run(&cfg, &dir.join("three"), 3, false);
        assert_eq!(one.standings, three.standings);
        assert_eq!(files(&dir.join("one")), files(&dir.join("three")));
        // Two players: 6 pairs of 4 games. Three players: 4 groups of 6 games.
        assert_eq!(one.results.len(), 24);
        // The faulty habit forfeits in its games and is blamed for it.
        let c = one.standings.agents.iter().find(|a| a.name == "c").unwrap();
        assert!(c.faults.get("trap").copied().unwrap_or(0) > 0);
        for r in &one.results {
            let verify = crate::games::registry()
                .verify_record_bytes(&std::fs::read(dir.join("one").join(&r.record)).unwrap());
            assert!(verify.is_ok(), "{}: {:?}", r.record, verify.err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn an_interrupted_league_resumes_to_the_same_results() {
    let dir = temp("resume");
    let cfg = config(&dir, 2);
    let full = run(&cfg, &dir.join("full"), 2, false);

    // Simulate a kill after 9 games, one of them torn mid-line.
    let part = dir.join("part");
    run(&cfg, &part, 2, false);
    let journal = std::fs::read_to_string(part.join(JOURNAL_FILE)).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    let mut cut = lines[..10].join("\n");
    cut.push('\n');
    cut.push_str(&lines[10][..lines[10].len() / 2]);
    std::fs::write(part.join(JOURNAL_FILE), cut).unwrap();
    for f in [STANDINGS_JSON, STANDINGS_CSV, CROSSTABLE_CSV, GAMES_CSV] {
        std::fs::remove_file(part.join(f)).unwrap();
    }

    let resumed = run(&cfg, &part, 1, true);
    assert_eq!(resumed.played, full.results.len() - 9);
    assert_eq!(resumed.standings, full.standings);
    assert_eq!(files(&part), files(&dir.join("full")));
    std::fs::remove_dir_all(&dir).unwrap();
}
