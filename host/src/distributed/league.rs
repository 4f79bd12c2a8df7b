//! `arena league --database URL`: a league whose games are played by workers, local or remote.
//!
//! The league is set up exactly as a local one (the same agents loaded and checked, the same
//! schedule, settings and fingerprint, the same output folder with its lock and journal), then its
//! games are enqueued in the database instead of played here: the league's settings and its
//! agents' bytes go into the database, and one row per game. Workers (`arena worker`, and this
//! process's own with `--threads N`) play them and write each result with the record file's bytes.
//! This process collects them in schedule order as they come: writes each record file, journals
//! the results (synced), then marks them collected (their bytes are dropped from the database).
//! When every game is in, the standings, cross-table and games list are written by the same code
//! as a local league's: the output folder has the same bytes (only the journal's order of games
//! may differ, as it does between two local runs with several threads).
//!
//! A killed `arena league` loses nothing: the workers go on; `--resume` takes the league over,
//! collects what was played meanwhile and waits for the rest. Games journaled but not yet marked
//! collected are marked then; games collected but not journaled (a folder replaced by
//! `--fresh`) are played again. The driver's name says its host and output folder: a `--resume`
//! on the same host into the same folder holds the folder's lock, which proves the driver it
//! replaces dead, and takes over at once.
//!
//! Nothing a worker writes is published unchecked: each result must be its scheduled game, and
//! its record must verify and be that game with the league's agents and limits, and give that
//! result (`crate::audit::check_record`). A row that does not is refused: its game goes back to
//! the queue, the worker that wrote it is named, and the league goes on.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};

use super::collect::{collect, Collecting};
use super::double_play::DoublePlay;
use super::version;
use super::worker::{self, JobAgent, LeagueJob};
use crate::audit::Settings;
use crate::jobs::league_queue::LeagueRow;
use crate::jobs::now_ms;
use crate::jobs::Db;
use crate::league::agents::{limits, load_agents};
use crate::league::folder::{self, Header, Start};
use crate::league::output::{self, Summary};
use crate::league::progress::Progress;
use crate::league::result::GameResult;
use crate::league::runner::{done_games, settings_json, LeagueRun, RunOptions, RECORDS_DIR};
use crate::league::schedule::Schedule;
use crate::league::standings;
use crate::league::LeagueConfig;
use crate::referee::Rules;
use crate::sandbox::Sandbox;

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

/// A driver not heard of for this long has stopped: another `arena league` may take its league.
const DRIVER_STALE_MS: i64 = 30_000;

/// Who drives a league (the `driver` of its row): `league:PID:RANDOM:FOLDER@HOST`, FOLDER being
/// the first 12 hex digits of the SHA-256 of the output folder's path.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Driver {
    pid: u32,
    random: String,
    folder: String,
    host: String,
}

impl Driver {
    /// The driver of this process, whose output folder is `out`.
    fn this(out: &Path) -> anyhow::Result<Driver> {
        Ok(Driver {
            pid: std::process::id(),
            random: crate::jobs::new_token()?[..8].to_owned(),
            folder: folder_key(out),
            host: worker::host_name(),
        })
    }

    fn parse(text: &str) -> Option<Driver> {
        let (rest, host) = text.rsplit_once('@')?;
        let mut parts = rest.split(':');
        let (tag, pid, random, folder) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if tag != "league" || parts.next().is_some() {
            return None;
        }
        Some(Driver {
            pid: pid.parse().ok()?,
            random: random.to_owned(),
            folder: folder.to_owned(),
            host: host.to_owned(),
        })
    }

    /// Whether `other`, which drove the league into the same output folder on this host, is
    /// proven dead by this driver holding the folder's lock: a live one would hold it.
    fn proves_dead(&self, other: &Driver) -> bool {
        other != self && other.host == self.host && other.folder == self.folder
    }
}

impl std::fmt::Display for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "league:{}:{}:{}@{}",
            self.pid, self.random, self.folder, self.host
        )
    }
}

/// The key of an output folder in a driver's name: its absolute path's hash.
fn folder_key(out: &Path) -> String {
    let path = std::fs::canonicalize(out).unwrap_or_else(|_| out.to_path_buf());
    crate::records::sha256_hex(path.to_string_lossy().as_bytes())[..12].to_owned()
}

/// Plays (or resumes) the league `cfg` with the games played by workers through the database.
pub fn run_league_distributed(
    cfg: &LeagueConfig,
    opts: &RunOptions,
    dist: &Distributed,
) -> anyhow::Result<LeagueRun> {
    crate::jobs::db::check_shared_url(&dist.url)?;
    let lock = folder::lock(&cfg.output)?;
    let limits = limits(&cfg.budgets);
    let sandbox = Sandbox::new(crate::games::registry().agents(), limits.clone())?;
    // The same checks as a local league: every agent loads and plays the game.
    let modules = load_agents(cfg, &sandbox)?;
    let hashes: Vec<Option<String>> = modules
        .iter()
        .map(|m| Some(m.sha256().to_owned()))
        .collect();
    let limits_json = serde_json::to_value(&limits)?;
    let names: Vec<String> = cfg.agents.iter().map(|a| a.name.clone()).collect();
    let schedule = Schedule::new(&names, cfg.players_per_game, cfg.games_per_group, cfg.seed)?;
    let settings = settings_json(cfg, &limits_json, &hashes);
    let fingerprint = crate::records::sha256_hex(settings.to_string().as_bytes());
    // What the collector checks each worker's record against: the settings the league publishes.
    let published = Settings::from_value(&settings)?;

    let out = cfg.output.clone();
    let start = match (opts.resume, opts.fresh) {
        (true, _) if opts.extend => Start::Extend,
        (true, _) => Start::Resume,
        (false, true) => Start::Fresh,
        (false, false) => Start::New,
    };
    let header = Header {
        fingerprint: &fingerprint,
        name: &cfg.name,
        games: schedule.len(),
        settings: Some(&settings),
    };
    let new_id = |r: &GameResult| schedule.id_of(&r.seats, &r.key);
    let opened = folder::open(&out, lock, start, &header, &new_id)?;
    if opened.resumed_nothing {
        eprintln!(
            "note: {} holds no league journal (the league was stopped before it began): nothing to resume, so the league starts from the beginning",
            out.display()
        );
    }
    let (lock, mut journal, mut results) = (opened.lock, opened.journal, opened.results);
    let records = out.join(RECORDS_DIR);
    std::fs::create_dir_all(&records)
        .with_context(|| format!("cannot create {}", records.display()))?;
    let mut done = done_games(&schedule, &results)?;

    // What workers need: the agents' bytes and the league's settings.
    let mut agents = Vec::with_capacity(modules.len());
    let mut code = Vec::with_capacity(modules.len());
    for (entry, module) in cfg.agents.iter().zip(&modules) {
        let path = module.path().unwrap_or(&entry.path);
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
        limits: limits_json.clone(),
    };
    let job_json = serde_json::to_string(&job)?;

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .thread_name("arena-league-db")
        .build()?;
    let db = rt.block_on(Db::connect_shared(&dist.url))?;
    rt.block_on(version::stamp(&db))?;
    for (sha, bytes) in &code {
        rt.block_on(db.put_code(sha, bytes))?;
    }
    let driver = Driver::this(&out)?.to_string();
    let league = rt.block_on(enqueue(
        &db,
        &Enqueue {
            fingerprint: &fingerprint,
            name: &cfg.name,
            settings: &job_json,
            driver: &driver,
            total: schedule.len(),
            done: &done,
            fresh: matches!(start, Start::New | Start::Fresh),
        },
    ))?;

    // This process's own workers, if asked for.
    let stop_workers = Arc::new(AtomicBool::new(false));
    let local = (dist.local_threads > 0)
        .then(|| {
            let (url, stop) = (dist.url.clone(), Arc::clone(&stop_workers));
            let opts = worker::Options {
                threads: dist.local_threads,
                lease: dist.lease,
                drain: false,
                owner: None,
            };
            std::thread::Builder::new()
                .name("arena-league-workers".into())
                .spawn(move || worker::run(&url, &opts, &stop))
                .context("cannot start the league's workers")
        })
        .transpose()?;

    let mut progress = Progress::new(schedule.len() as u64, results.len() as u64, opts.quiet);
    let mut double = DoublePlay::new(cfg.double_play, &job, &code, &schedule)?;
    let collected = collect(
        &rt,
        &db,
        &Collecting {
            league,
            driver: &driver,
            schedule: &schedule,
            settings: &published,
            names: &names,
            out: &out,
            quiet: opts.quiet,
            local: local.as_ref(),
        },
        &mut double,
        &mut journal,
        &mut results,
        &mut done,
        &mut progress,
    );
    progress.finish();
    if let Some(line) = double.counts.line() {
        if !opts.quiet || double.counts.differed > 0 {
            eprintln!("{line}");
        }
    }
    stop_workers.store(true, Ordering::SeqCst);
    let local_result = local.map(|t| {
        t.join()
            .unwrap_or_else(|_| Err(anyhow!("the league's workers panicked")))
    });
    let played = match collected {
        Ok(played) => played,
        Err(e) => {
            // The workers go on with the league's games; a later run collects them.
            let _ = rt.block_on(db.leave_league(league, &driver, "playing"));
            rt.block_on(db.close());
            return Err(e);
        }
    };
    if let Some(Err(e)) = local_result {
        eprintln!("warning: the league's own workers stopped: {e:#}");
    }
    if let Err(e) = rt.block_on(db.finish_league(league)) {
        eprintln!("warning: the league cannot be marked done in the database: {e:#}");
    }
    rt.block_on(db.close());

    // The same files, by the same code, as a local league's.
    results.sort_by_key(|r| r.id);
    let standings = standings::compute(&names, &results);
    let summary = Summary {
        league: &cfg.name,
        settings,
        standings: &standings,
    };
    output::write_files(&out, &summary, &results)?;
    Ok(LeagueRun {
        standings,
        results,
        output: out,
        played,
        lock,
    })
}

struct Enqueue<'a> {
    fingerprint: &'a str,
    name: &'a str,
    settings: &'a str,
    driver: &'a str,
    total: usize,
    /// Games the journal holds already.
    done: &'a [bool],
    /// A new league (`--fresh` or none in the folder): games an earlier run left in the
    /// database are played again. Resuming, they are collected.
    fresh: bool,
}

/// Puts the league into the database (or takes over the one already there) with every game the
/// journal does not hold yet to be played. Returns the league's id.
async fn enqueue(db: &Db, e: &Enqueue<'_>) -> anyhow::Result<i64> {
    let now = now_ms();
    let version = version::arena_version();
    let existing = db.league_by_fingerprint(e.fingerprint).await?;
    let mut dead = None;
    if let Some(LeagueRow {
        driver: Some(other),
        driver_seen_ms: Some(seen),
        ..
    }) = &existing
    {
        let ours = Driver::parse(e.driver);
        let theirs = Driver::parse(other);
        if let (Some(ours), Some(theirs)) = (&ours, &theirs) {
            if ours.proves_dead(theirs) {
                // It ran on this host into this output folder, whose lock this process holds.
                dead = Some(other.clone());
            }
        }
        if other != e.driver && dead.is_none() && seen + DRIVER_STALE_MS > now {
            let free_in = (seen + DRIVER_STALE_MS - now + 999) / 1000;
            bail!(
                "this league is being run by another `arena league` on the same database ({other}, \
                 heard of {} s ago): one run per league at a time. If that one has stopped, the \
                 league is free once it has not been heard of for {} s: run this again in {free_in} s",
                (now - seen) / 1000,
                DRIVER_STALE_MS / 1000
            );
        }
    }
    let fresh = e.fresh;
    let id = match existing {
        // Another league's settings (a changed `compress_records_over`) or a fresh start: the
        // old rows go, results and all.
        Some(row) if fresh || row.settings != e.settings => {
            db.delete_league(row.id).await?;
            None
        }
        Some(row) => {
            if !db
                .take_league(
                    row.id,
                    e.driver,
                    dead.as_deref(),
                    &version,
                    now,
                    now - DRIVER_STALE_MS,
                )
                .await?
            {
                bail!("another `arena league` took this league over as this one started");
            }
            Some(row.id)
        }
        None => None,
    };
    let id = match id {
        Some(id) => id,
        None => {
            db.create_league(e.fingerprint, e.name, e.settings, &version, e.driver, now)
                .await?
        }
    };
    let statuses = db.league_game_statuses(id).await?;
    let mut missing = Vec::new();
    let mut again = Vec::new();
    let mut journaled = Vec::new();
    for (game, &in_journal) in e.done.iter().enumerate().take(e.total) {
        let game = game as i64;
        match (statuses.get(&game).map(String::as_str), in_journal) {
            (None, false) => missing.push(game),
            (Some("collected" | "failed"), false) => again.push(game),
            (Some(s), true) if s != "collected" => journaled.push(game),
            _ => {}
        }
    }
    db.enqueue_league_games(id, &missing).await?;
    db.set_league_games(id, &again, "scheduled").await?;
    db.set_league_games(id, &journaled, "collected").await?;
    Ok(id)
}
