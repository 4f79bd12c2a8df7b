//! Plays a league: loads every agent up front, plays the pending games on worker threads, journals
//! each result as it arrives, and computes the standings.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use anyhow::{anyhow, Context};

use super::config::LeagueConfig;
use super::journal::Journal;
use super::output::{self, Summary};
use super::progress::Progress;
use super::result::GameResult;
use super::schedule::{schedule, GameSpec};
use super::standings::{self, Standings};
use crate::game::{Contestant, Game, Table};
use crate::records::RecordMeta;
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

/// Plays (or resumes) the league `cfg` of `game` with `contestants[i]` for `cfg.agents[i]`.
/// `limits` is recorded with every game and in the standings.
pub fn play_league<G: Game>(
    game: &G,
    cfg: &LeagueConfig,
    contestants: &[&dyn Contestant<G>],
    limits_json: &serde_json::Value,
    opts: &RunOptions,
) -> anyhow::Result<LeagueRun> {
    let modules = contestants;
    let names: Vec<String> = cfg.agents.iter().map(|a| a.name.clone()).collect();
    assert_eq!(game.kind(), cfg.game, "the league's game");
    let games = schedule(&names, cfg.players_per_game, cfg.games_per_group, cfg.seed);
    let fingerprint = fingerprint(cfg, &hashes(modules), limits_json);

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
        game,
        cfg,
        modules,
        names: &names,
        limits: Arc::new(limits_json.clone()),
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
        // Whatever has arrived by the time the journal is free is journaled together: one sync
        // and one wake-up of this thread for many games when games end faster than the disk
        // syncs.
        let mut finished = Vec::new();
        while let Ok(first) = rx.recv() {
            for msg in std::iter::once(first).chain(rx.try_iter()) {
                match msg {
                    Ok(r) => finished.push(r),
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        first_error.get_or_insert(e);
                    }
                }
            }
            if finished.is_empty() {
                continue;
            }
            if let Err(e) = journal.append_all(&finished) {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
                finished.clear();
                continue;
            }
            for r in finished.drain(..) {
                results.push(r);
                played += 1;
                progress.game_done();
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
        settings: settings_json(cfg, limits_json, &hashes(modules)),
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

struct GameContext<'a, G: Game> {
    game: &'a G,
    cfg: &'a LeagueConfig,
    modules: &'a [&'a dyn Contestant<G>],
    names: &'a [String],
    /// Shared by the records of every game, not copied into each.
    limits: Arc<serde_json::Value>,
    records: &'a Path,
}

impl<G: Game> GameContext<'_, G> {
    fn play(&self, spec: &GameSpec) -> anyhow::Result<GameResult> {
        let names: Vec<String> = spec.seats.iter().map(|&a| self.names[a].clone()).collect();
        let table = Table {
            seed: spec.seed,
            round_cap: self.cfg.round_cap,
            policy: self.cfg.fault_policy,
            meta: RecordMeta {
                names: names.clone(),
                agent_hashes: spec
                    .seats
                    .iter()
                    .map(|&a| self.modules[a].code_hash())
                    .collect(),
                limits: Arc::clone(&self.limits),
            },
        };
        let mut players: Vec<_> = spec
            .seats
            .iter()
            .map(|&a| self.modules[a].new_player())
            .collect();
        let played = self.game.play(&table, &mut players)?;
        let mut bytes = played.record;
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
        Ok(GameResult::new(
            spec.id,
            &spec.key,
            spec.seed,
            names,
            played.summary,
            format!("{RECORDS_DIR}/{file}"),
        ))
    }
}

fn hashes<G: Game>(modules: &[&dyn Contestant<G>]) -> Vec<Option<String>> {
    modules.iter().map(|m| m.code_hash()).collect()
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
    hashes: &[Option<String>],
) -> serde_json::Value {
    serde_json::json!({
        "game": cfg.game.name(),
        "players_per_game": cfg.players_per_game,
        "games_per_group": cfg.games_per_group,
        "seed": cfg.seed,
        "round_cap": cfg.round_cap,
        "fault_policy": cfg.fault_policy,
        "limits": limits,
        "agents": cfg.agents.iter().zip(hashes).map(|(a, h)| serde_json::json!({
            "name": a.name,
            "sha256": h,
        })).collect::<Vec<_>>(),
    })
}

/// Identifies everything that decides a league's results, so a resume with other settings or
/// other agent code is refused.
fn fingerprint(
    cfg: &LeagueConfig,
    hashes: &[Option<String>],
    limits: &serde_json::Value,
) -> String {
    let settings = settings_json(cfg, limits, hashes);
    crate::records::sha256_hex(settings.to_string().as_bytes())
}
