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
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};

use super::double_play::{DoublePlay, Settled};
use super::lease::LeaseOwner;
use super::queue::{Collected, LeagueRow};
use super::version;
use super::worker::{self, JobAgent, LeagueJob};
use crate::audit::{self, Settings};
use crate::league::agents::{limits, load_agents};
use crate::league::folder::{self, Header, Start};
use crate::league::interrupt;
use crate::league::output::{self, Summary};
use crate::league::progress::Progress;
use crate::league::result::GameResult;
use crate::league::runner::{done_games, settings_json, LeagueRun, RunOptions, RECORDS_DIR};
use crate::league::schedule::Schedule;
use crate::league::standings;
use crate::league::LeagueConfig;
use crate::sandbox::Sandbox;
use crate::serve::db::Db;
use crate::serve::engine::Rules;
use crate::serve::now_ms;

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
            random: crate::serve::auth::new_token()?[..8].to_owned(),
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
/// How often the driver tells the database it is alive.
const HEARTBEAT: Duration = Duration::from_secs(2);
/// Results collected at once.
const COLLECT: i64 = 256;

/// Plays (or resumes) the league `cfg` with the games played by workers through the database.
pub fn run_league_distributed(
    cfg: &LeagueConfig,
    opts: &RunOptions,
    dist: &Distributed,
) -> anyhow::Result<LeagueRun> {
    crate::serve::db::check_shared_url(&dist.url)?;
    let lock = folder::lock(&cfg.output)?;
    let limits = limits(&cfg.budgets);
    let sandbox = Sandbox::new(crate::games::AGENTS, limits.clone())?;
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
    let db = rt.block_on(Db::open_shared(&dist.url))?;
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

struct Collecting<'a> {
    league: i64,
    driver: &'a str,
    schedule: &'a Schedule,
    /// The settings the league publishes, and its agents' names: what records are checked
    /// against.
    settings: &'a Settings,
    names: &'a [String],
    out: &'a Path,
    quiet: bool,
    local: Option<&'a std::thread::JoinHandle<anyhow::Result<worker::Summary>>>,
}

/// Collects results until the journal holds every game. Returns how many it collected.
#[allow(clippy::too_many_arguments)]
fn collect(
    rt: &tokio::runtime::Runtime,
    db: &Db,
    c: &Collecting,
    double: &mut DoublePlay,
    journal: &mut crate::league::journal::Journal,
    results: &mut Vec<GameResult>,
    done: &mut [bool],
    progress: &mut Progress,
) -> anyhow::Result<usize> {
    let total = c.schedule.len();
    let mut played = 0;
    let mut heartbeat = Instant::now();
    let mut last_progress = Instant::now();
    let mut told_to_wait = false;
    let mut warned = false;
    while results.len() < total {
        if interrupt::requested() {
            return Err(anyhow::Error::new(interrupt::Interrupted {
                done: results.len(),
                total,
                output: c.out.display().to_string(),
            }));
        }
        if c.local.is_some_and(|t| t.is_finished()) {
            bail!("the league's own workers stopped (see the messages above)");
        }
        let step = rt.block_on(async {
            if heartbeat.elapsed() >= HEARTBEAT {
                if !db.drive_league(c.league, c.driver, now_ms()).await? {
                    bail!("another `arena league` took this league over");
                }
                heartbeat = Instant::now();
            }
            let batch = db.league_results(c.league, COLLECT).await?;
            if batch.is_empty() {
                if let Some((game, worker, error)) = db.league_failure(c.league).await? {
                    bail!(
                        "worker {worker} could not play game {game}: {error}\nthe league stopped; \
                         its finished games are kept in {} and `arena league --database URL \
                         --resume` plays the rest (game {game} again)",
                        c.out.display()
                    );
                }
                if !told_to_wait && !c.quiet && last_progress.elapsed() > Duration::from_secs(10) {
                    let workers = db.worker_threads_since(now_ms() - 60_000).await?;
                    if workers == 0 {
                        eprintln!(
                            "waiting for workers: none is connected to the database; start \
                             `arena worker --database URL` on any machine (or run this league \
                             with --threads N to play here too)"
                        );
                        told_to_wait = true;
                    }
                }
            }
            anyhow::Ok(batch)
        });
        let batch = match step {
            Ok(b) => {
                if warned {
                    eprintln!("note: the database is back");
                    warned = false;
                }
                b
            }
            Err(e) if is_database_error(&e) => {
                if !warned {
                    let e = rt.block_on(db.explain(e));
                    eprintln!("warning: cannot read the league's results, trying again: {e:#}");
                    warned = true;
                }
                std::thread::sleep(Duration::from_secs(1));
                continue;
            }
            Err(e) => return Err(e),
        };
        if batch.is_empty() {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let verdicts = check_all(c, done, &batch);
        let mut new = Vec::with_capacity(batch.len());
        let mut games = Vec::with_capacity(batch.len());
        let mut refused = Vec::new();
        for (item, verdict) in batch.iter().zip(verdicts) {
            let r = match verdict {
                Verdict::Journaled => {
                    // Journaled already (a run stopped before marking it collected).
                    games.push(item.game);
                    continue;
                }
                Verdict::Refused(why) => {
                    eprintln!(
                        "warning: game {}: the result written by worker {} is refused: {why}; \
                         the game goes back to the queue, to be played again",
                        item.game,
                        if item.played_by.is_empty() {
                            "(unnamed)"
                        } else {
                            &item.played_by
                        }
                    );
                    refused.push(item.game);
                    continue;
                }
                Verdict::Good(r) => r,
            };
            let (r, record) = match &item.first {
                None if double.choose() => {
                    // Played again by a worker of another name; journaled when both agree.
                    let by = LeaseOwner::name_of(&item.played_by);
                    if let Err(e) =
                        rt.block_on(db.play_league_game_again(c.league, item.game, by, now_ms()))
                    {
                        eprintln!(
                            "warning: game {}: cannot send it to be played again, trying later: \
                             {e:#}",
                            item.game
                        );
                    }
                    continue;
                }
                None => (r, item.record.clone()),
                Some(first) => match double.settle(item, first) {
                    Settled::Same => (r, item.record.clone()),
                    Settled::Decided {
                        result,
                        record,
                        wrong,
                    } => {
                        for w in &wrong {
                            eprintln!(
                                "warning: game {}: worker {w} wrote a record its agents do not \
                                 play (the game played twice gave two records; played here, it \
                                 gives another): its games cannot be trusted; this league keeps \
                                 the game as played here",
                                item.game
                            );
                        }
                        (*result, record)
                    }
                    Settled::Undecided(why) => {
                        eprintln!(
                            "warning: game {}: played twice, by {} and by {}, it gave two \
                             records, and it cannot be played here to tell which is right \
                             ({why}); it goes back to the queue",
                            item.game, first.by, item.played_by
                        );
                        refused.push(item.game);
                        continue;
                    }
                },
            };
            games.push(item.game);
            done[r.id] = true;
            let path = c.out.join(&r.record);
            std::fs::write(&path, &record)
                .with_context(|| format!("cannot write {}", path.display()))?;
            new.push(r);
        }
        journal.append_all(&new)?;
        for _ in &new {
            progress.game_done();
        }
        played += new.len();
        results.extend(new);
        last_progress = Instant::now();
        // A failure here only leaves the rows to be refused or marked by the next look (or the
        // next run).
        if !refused.is_empty() {
            if let Err(e) = rt.block_on(db.refuse_league_results(c.league, &refused)) {
                eprintln!("warning: cannot put refused games back in the queue, trying again later: {e:#}");
            }
        }
        if let Err(e) = rt.block_on(db.collected(c.league, &games)) {
            eprintln!("warning: cannot mark games collected, trying again later: {e:#}");
        }
    }
    Ok(played)
}

/// Whether `e` came from the database (worth trying again) rather than from the league.
fn is_database_error(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<sqlx::Error>().is_some())
}

/// What the collector makes of a row a worker wrote.
enum Verdict {
    /// The result, checked against its record: to be journaled.
    Good(GameResult),
    /// The game is in the journal already.
    Journaled,
    /// Why the row is refused.
    Refused(String),
}

/// The verdicts on `batch`, in its order: the records are verified on every core (a replay of
/// the rules each, a fraction of the time the game took to play).
fn check_all(c: &Collecting, done: &[bool], batch: &[Collected]) -> Vec<Verdict> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = batch.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = batch
            .chunks(per)
            .map(|part| {
                let checking = scope.spawn(move || {
                    part.iter()
                        .map(|item| check_row(c, done, item))
                        .collect::<Vec<_>>()
                });
                (part.len(), checking)
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|(n, checking)| {
                checking.join().unwrap_or_else(|_| {
                    (0..n)
                        .map(|_| Verdict::Refused("checking its record failed (a panic)".into()))
                        .collect()
                })
            })
            .collect()
    })
}

/// A worker's row for game `item.game`: its result must be that game of the schedule, with its
/// record where the league keeps it (compressed when its name says so); the record must verify,
/// be that game with the league's agents and limits, and give that result.
fn check_row(c: &Collecting, done: &[bool], item: &Collected) -> Verdict {
    let game = item.game;
    let Some(id) = usize::try_from(game).ok().filter(|&g| g < c.schedule.len()) else {
        return Verdict::Refused(format!("the league has no game {game}"));
    };
    if done[id] {
        return Verdict::Journaled;
    }
    match check_result(c, id, item) {
        Ok(r) => Verdict::Good(r),
        Err(why) => Verdict::Refused(why),
    }
}

fn check_result(c: &Collecting, id: usize, item: &Collected) -> Result<GameResult, String> {
    let r: GameResult =
        serde_json::from_str(&item.result).map_err(|e| format!("its result is unreadable: {e}"))?;
    if r.id != id || c.schedule.key(id) != r.key {
        return Err(format!(
            "its result is of another game ({} {}): is the worker the same arena version?",
            r.id, r.key
        ));
    }
    let plain = format!("{RECORDS_DIR}/game-{id:06}.jsonl");
    let gz = format!("{plain}.gz");
    let compressed = item.record.starts_with(&[0x1f, 0x8b]);
    if !(r.record == plain && !compressed || r.record == gz && compressed) {
        return Err(format!(
            "its result names the record {:?} and its record is {}; the league keeps it as \
             {plain} (or {gz}, compressed)",
            r.record,
            if compressed {
                "compressed"
            } else {
                "not compressed"
            }
        ));
    }
    let spec = c.schedule.game(id);
    let (from_record, _) =
        audit::check_record(c.settings, c.names, &spec, &r.record, &item.record[..])?;
    audit::same_result(&r, &from_record)
        .map_err(|m| format!("its result contradicts its record: {m}"))?;
    Ok(r)
}
