//! Plays a league: loads every agent up front, plays the pending games on worker threads, journals
//! each result as it arrives, and computes the standings.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{anyhow, Context};

use super::config::LeagueConfig;
use super::journal::Journal;
use super::output::{self, Summary};
use super::progress::Progress;
use super::result::GameResult;
use super::schedule::{schedule, GameSpec};
use super::standings::{self, Standings};
use crate::farm::{play_game, FarmPlayer, SeededDice, Setup};
use crate::records::{write_record, RecordMeta};
use crate::sandbox::WORKER_STACK_BYTES;

pub const RECORDS_DIR: &str = "records";

#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Continue the league journaled in the output folder.
    pub resume: bool,
    /// Discard an earlier league in the output folder.
    pub fresh: bool,
    /// Overrides the league file's `threads`.
    pub threads: Option<usize>,
    /// No progress output.
    pub quiet: bool,
}

pub struct LeagueRun {
    pub standings: Standings,
    pub results: Vec<GameResult>,
    pub output: PathBuf,
    /// Games played by this run (the rest came from the journal).
    pub played: usize,
}

/// A league entrant: anything that can take a seat in a fresh game. Sandboxed agents are the
/// real thing; native strategies implement it too (tests, benchmarks).
pub trait Contestant: Sync {
    /// A player for one new game: nothing may carry over from earlier games.
    fn new_player(&self) -> Box<dyn FarmPlayer + '_>;
    /// SHA-256 of the agent's code, when it has code.
    fn code_hash(&self) -> Option<String>;
}

/// Plays (or resumes) the league `cfg` with `contestants[i]` for `cfg.agents[i]`. `limits` is
/// recorded with every game and in the standings.
pub fn play_league(
    cfg: &LeagueConfig,
    contestants: &[&dyn Contestant],
    limits_json: &serde_json::Value,
    opts: &RunOptions,
) -> anyhow::Result<LeagueRun> {
    let modules = contestants;
    let names: Vec<String> = cfg.agents.iter().map(|a| a.name.clone()).collect();
    let games = schedule(&names, cfg.players_per_game, cfg.games_per_group, cfg.seed);
    let fingerprint = fingerprint(cfg, modules, limits_json);

    let out = cfg.output.clone();
    let (mut journal, mut results) = if opts.resume {
        Journal::resume(&out, &fingerprint)?
    } else {
        if opts.fresh {
            let _ = std::fs::remove_dir_all(out.join(RECORDS_DIR));
        }
        (
            Journal::create(&out, &fingerprint, &cfg.name, games.len(), opts.fresh)?,
            Vec::new(),
        )
    };
    let records = out.join(RECORDS_DIR);
    std::fs::create_dir_all(&records)
        .with_context(|| format!("cannot create {}", records.display()))?;

    let done: HashSet<&str> = results.iter().map(|r| r.key.as_str()).collect();
    let pending: Vec<&GameSpec> = games
        .iter()
        .filter(|g| !done.contains(g.key.as_str()))
        .collect();
    let mut progress = Progress::new(
        games.len() as u64,
        (games.len() - pending.len()) as u64,
        opts.quiet,
    );
    let threads = opts.threads.unwrap_or_else(|| cfg.worker_threads()).max(1);

    let ctx = GameContext {
        cfg,
        modules,
        names: &names,
        limits: limits_json,
        records: &records,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<anyhow::Result<GameResult>>();
    let mut first_error = None;
    let mut played = 0;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for w in 0..threads.min(pending.len()) {
            let tx = tx.clone();
            let (ctx, next, stop, pending) = (&ctx, &next, &stop, &pending);
            std::thread::Builder::new()
                .name(format!("league-worker-{w}"))
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(spec) = pending.get(i) else { break };
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            ctx.play(spec)
                        }))
                        .unwrap_or_else(|p| {
                            Err(anyhow!(
                                "internal error in game {}: {}",
                                spec.key,
                                panic_text(&p)
                            ))
                        });
                        if tx.send(result).is_err() {
                            break;
                        }
                    }
                })
                .context("cannot start a worker thread")?;
        }
        drop(tx);
        for msg in rx {
            match msg {
                Ok(r) => {
                    if let Err(e) = journal.append(&r) {
                        stop.store(true, Ordering::Relaxed);
                        first_error.get_or_insert(e);
                        continue;
                    }
                    results.push(r);
                    played += 1;
                    progress.game_done();
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                }
            }
        }
        Ok(())
    })?;
    progress.finish();
    if let Some(e) = first_error {
        return Err(e.context(format!(
            "league stopped; the {} finished games are kept in {} and `arena league --resume` continues it",
            results.len(),
            out.display()
        )));
    }

    results.sort_by_key(|r| r.id);
    let standings = standings::compute(&names, &results);
    let summary = Summary {
        league: &cfg.name,
        settings: settings_json(cfg, limits_json, modules),
        standings: &standings,
    };
    output::write_files(&out, &summary, &results)?;
    Ok(LeagueRun {
        standings,
        results,
        output: out,
        played,
    })
}

struct GameContext<'a> {
    cfg: &'a LeagueConfig,
    modules: &'a [&'a dyn Contestant],
    names: &'a [String],
    limits: &'a serde_json::Value,
    records: &'a Path,
}

impl GameContext<'_> {
    fn play(&self, spec: &GameSpec) -> anyhow::Result<GameResult> {
        let setup = Setup {
            players: spec.seats.len(),
            seed: Some(spec.seed),
            round_cap: self.cfg.round_cap,
            policy: self.cfg.fault_policy,
            start: None,
        };
        let mut players: Vec<_> = spec
            .seats
            .iter()
            .map(|&a| self.modules[a].new_player())
            .collect();
        let mut seats: Vec<&mut dyn FarmPlayer> = players
            .iter_mut()
            .map(|p| &mut **p as &mut dyn FarmPlayer)
            .collect();
        let record = play_game(&setup, &mut seats, &mut SeededDice::new(spec.seed));
        let meta = RecordMeta {
            names: spec.seats.iter().map(|&a| self.names[a].clone()).collect(),
            agent_hashes: spec
                .seats
                .iter()
                .map(|&a| self.modules[a].code_hash())
                .collect(),
            limits: self.limits.clone(),
        };
        let mut bytes = Vec::new();
        write_record(&record, &meta, &mut bytes)?;
        let mut file = format!("game-{:06}.jsonl", spec.id);
        if bytes.len() as u64 > self.cfg.compress_records_over {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(&bytes)?;
            bytes = gz.finish()?;
            file.push_str(".gz");
        }
        let path = self.records.join(&file);
        std::fs::write(&path, &bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(GameResult::from_record(
            spec.id,
            &spec.key,
            meta.names,
            &record,
            format!("{RECORDS_DIR}/{file}"),
        ))
    }
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

fn settings_json(
    cfg: &LeagueConfig,
    limits: &serde_json::Value,
    modules: &[&dyn Contestant],
) -> serde_json::Value {
    serde_json::json!({
        "game": super::config::GAME,
        "players_per_game": cfg.players_per_game,
        "games_per_group": cfg.games_per_group,
        "seed": cfg.seed,
        "round_cap": cfg.round_cap,
        "fault_policy": cfg.fault_policy,
        "limits": limits,
        "agents": cfg.agents.iter().zip(modules).map(|(a, m)| serde_json::json!({
            "name": a.name,
            "sha256": m.code_hash(),
        })).collect::<Vec<_>>(),
    })
}

/// Identifies everything that decides a league's results, so a resume with other settings or
/// other agent code is refused.
fn fingerprint(
    cfg: &LeagueConfig,
    modules: &[&dyn Contestant],
    limits: &serde_json::Value,
) -> String {
    let settings = settings_json(cfg, limits, modules);
    crate::records::sha256_hex(settings.to_string().as_bytes())
}
