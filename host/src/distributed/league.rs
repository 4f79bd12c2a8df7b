//! `arena league --database URL`: a league whose games are played by workers, local or remote.
//!
//! The league is set up, journaled and finished by the same driver as a local one
//! (`crate::league::runner`: the same agents loaded and checked, the same schedule, settings and
//! fingerprint, the same output folder with its lock and journal); only its games are played
//! elsewhere, by the [`DatabaseExecutor`] the command line hands the driver. They are enqueued in
//! the database instead of played here: the league's settings and its
//! agents' bytes go into the database, and one row per game. Workers (`arena worker`, and this
//! process's own with `--threads N`) play them and write each result with the record file's bytes.
//! This process collects them in schedule order as they come (`super::collect`): writes each
//! record file, has the driver journal the results (synced), then marks them collected (their
//! bytes are dropped from the database).
//! When every game is in, the standings, cross-table and games list are written by the same code
//! as a local league's: the output folder has the same bytes (only the journal's order of games
//! may differ, as it does between two local runs with several threads).
//!
//! A killed `arena league` loses nothing: the workers go on; `--resume` takes the league over,
//! collects what was played meanwhile and waits for the rest. Games journaled but not yet marked
//! collected are marked then; games collected but not journaled (a folder replaced by
//! `--fresh`) are played again. The driver's name says its host and output folder: a `--resume`
//! on the same host into the same folder holds the folder's lock, which proves the driver it
//! replaces dead, and takes over at once (`super::driver`).
//!
//! Nothing a worker writes is published unchecked: each result must be its scheduled game, and
//! its record must verify and be that game with the league's agents and limits, and give that
//! result (`crate::audit::check_record`). A row that does not is refused: its game goes back to
//! the queue, the worker that wrote it is named, and the league goes on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{anyhow, Context};

use super::collect::{collect, Collecting};
use super::double_play::DoublePlay;
use super::driver::{enqueue, Driver, Enqueue};
use super::version;
use super::worker::{self, JobAgent, LeagueJob};
use crate::audit::Settings;
use crate::jobs::Db;
use crate::league::executor::{Executor, Plan, Sink};
use crate::league::{LeagueConfig, LeagueRun, RunOptions};
use crate::referee::Rules;

/// How a league uses the database.
#[derive(Clone, Debug)]
pub struct Distributed {
    /// The PostgreSQL database (`postgres://...`).
    pub url: String,
    /// Worker threads this process runs besides waiting (0: only remote workers play).
    pub local_threads: usize,
    /// The lease of this process's own workers.
    pub lease: Duration,
}

/// Plays (or resumes) the league `cfg` with its games played by workers through the database.
pub fn run_league_distributed(
    cfg: &LeagueConfig,
    opts: &RunOptions,
    dist: &Distributed,
) -> anyhow::Result<LeagueRun> {
    let mut executor = DatabaseExecutor::new(dist.clone())?;
    crate::league::run_league_on(cfg, opts, None, &mut executor)
}

/// Plays a league's games through the database: hand it to `crate::league::run_league_on`.
#[derive(Debug)]
pub struct DatabaseExecutor {
    dist: Distributed,
}

impl DatabaseExecutor {
    /// An executor for the database `dist.url`, which must be one that machines can share.
    pub fn new(dist: Distributed) -> anyhow::Result<DatabaseExecutor> {
        crate::jobs::db::check_shared_url(&dist.url)?;
        Ok(DatabaseExecutor { dist })
    }
}

impl Executor for DatabaseExecutor {
    fn plays_here(&self) -> bool {
        false
    }

    fn play(&mut self, plan: &Plan<'_>, sink: &mut dyn Sink) -> anyhow::Result<()> {
        // What the collector checks each worker's record against: the settings the league
        // publishes.
        let published = Settings::from_value(plan.settings)?;
        let (job, code) = league_job(plan)?;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .thread_name("arena-league-db")
            .build()?;
        let db = rt.block_on(Db::connect_shared(&self.dist.url))?;
        rt.block_on(version::stamp(&db))?;
        for (sha, bytes) in &code {
            rt.block_on(db.put_code(sha, bytes))?;
        }
        let driver = Driver::this(plan.out)?.to_string();
        let league = rt.block_on(enqueue(
            &db,
            &Enqueue {
                fingerprint: plan.fingerprint,
                name: &plan.cfg.name,
                settings: &serde_json::to_string(&job)?,
                driver: &driver,
                total: plan.schedule.len(),
                done: plan.done,
                fresh: plan.fresh,
            },
        ))?;
        let stop_workers = Arc::new(AtomicBool::new(false));
        let local = self.start_local_workers(&stop_workers)?;
        let mut double = DoublePlay::new(plan.cfg.double_play, &job, &code, plan.schedule)?;
        let collecting = Collecting {
            league,
            driver: &driver,
            schedule: plan.schedule,
            settings: &published,
            names: plan.names,
            out: plan.out,
            quiet: plan.quiet,
            local: local.as_ref(),
        };
        let collected = collect(&rt, &db, &collecting, &mut double, sink, plan.done.to_vec());
        sink.closed();
        if let Some(line) = double.counts.line() {
            if !plan.quiet || double.counts.differed > 0 {
                eprintln!("{line}");
            }
        }
        stop_workers.store(true, Ordering::SeqCst);
        let local_result = local.map(|t| {
            t.join()
                .unwrap_or_else(|_| Err(anyhow!("the league's workers panicked")))
        });
        match collected {
            Ok(true) => {}
            stopped => {
                // The workers go on with the league's games; a later run collects them.
                let _ = rt.block_on(db.leave_league(league, &driver, "playing"));
                rt.block_on(db.close());
                return stopped.map(|_| ());
            }
        }
        if let Some(Err(e)) = local_result {
            eprintln!("warning: the league's own workers stopped: {e:#}");
        }
        if let Err(e) = rt.block_on(db.finish_league(league)) {
            eprintln!("warning: the league cannot be marked done in the database: {e:#}");
        }
        rt.block_on(db.close());
        Ok(())
    }
}

impl DatabaseExecutor {
    /// This process's own workers, if asked for: they play until `stop`.
    fn start_local_workers(
        &self,
        stop: &Arc<AtomicBool>,
    ) -> anyhow::Result<Option<JoinHandle<anyhow::Result<worker::Summary>>>> {
        if self.dist.local_threads == 0 {
            return Ok(None);
        }
        let (url, stop) = (self.dist.url.clone(), Arc::clone(stop));
        let opts = worker::Options {
            threads: self.dist.local_threads,
            lease: self.dist.lease,
            drain: false,
            owner: None,
        };
        std::thread::Builder::new()
            .name("arena-league-workers".into())
            .spawn(move || worker::run(&url, &opts, &stop))
            .context("cannot start the league's workers")
            .map(Some)
    }
}

/// The agents' code: (SHA-256, bytes) of each.
type AgentsCode = Vec<(String, Vec<u8>)>;

/// What workers need: the league's rules and settings, and its agents' code by hash (with the
/// bytes, to be put in the database).
fn league_job(plan: &Plan<'_>) -> anyhow::Result<(LeagueJob, AgentsCode)> {
    let cfg = plan.cfg;
    let mut agents = Vec::with_capacity(cfg.agents.len());
    let mut code = Vec::with_capacity(cfg.agents.len());
    for (entry, contestant) in cfg.agents.iter().zip(plan.contestants) {
        let path = contestant.code_path().unwrap_or(&entry.path);
        let bytes = std::fs::read(path)
            .with_context(|| format!("agent {:?}: cannot read {}", entry.name, path.display()))?;
        let sha = crate::records::sha256_hex(&bytes);
        agents.push(JobAgent {
            name: entry.name.clone(),
            code: sha.clone(),
        });
        code.push((sha, bytes));
    }
    let job = LeagueJob {
        name: cfg.name.clone(),
        rules: Rules {
            game: cfg.game,
            settings: cfg.settings.clone(),
            players: cfg.players_per_game,
            round_cap: cfg.round_cap,
            policy: cfg.fault_policy,
            budgets: cfg.budgets.clone(),
        },
        games_per_group: cfg.games_per_group,
        seed: cfg.seed,
        compress_records_over: cfg.compress_records_over,
        agents,
        limits: plan.limits.clone(),
    };
    Ok((job, code))
}
