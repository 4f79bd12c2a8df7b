//! `arena worker`: plays games from a shared database on any machine, ladder games of
//! `arena serve` and league games of `arena league --database` alike.
//!
//! One process: player threads (big native stacks, as guest code needs) take games from a local
//! queue; the main thread keeps that queue fed by claiming batches from the database (about half
//! a second of play at a time, so that a claim's cost is shared by many games and a dead worker
//! strands few; the next batch is claimed while half of one is still queued); a committer task
//! writes the results of a quarter of a second in one transaction, each with its lease check; a
//! renewer task extends the leases while the games are played, tells the register that the
//! worker is alive, and checks that the database is still set up by this arena's version.
//!
//! A game is in the worker's hands from its claim until its result is written: queued, being
//! played, or played and waiting for the committer. The worker holds at most [`max_in_hand`] games
//! (three batches and one per thread): when the database writes results slower than the players
//! make them, the feeder stops claiming and the players wait, so that neither the leases a killed
//! worker strands nor the records waiting in memory grow without bound. Its leases name this
//! process (`super::lease`): a worker started again under the same name does not renew, and so
//! does not keep, the games of the process it replaces.
//! Database errors (a lost connection, a restarted server) are retried: the pool opens new
//! connections, and a lease that ran out meanwhile only means that the game is played again
//! somewhere (a result written too late is not counted).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use serde::{Deserialize, Serialize};
use tokio::runtime::Handle;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::lease::LeaseOwner;
use super::queue::{LeagueFinished, LeagueGame};
use super::version::{self, VERSION_KEY};
use crate::league::result::GameResult;
use crate::league::runner::{record_file, HOST_RETRIES, RECORDS_DIR, RETRY_PAUSE};
use crate::league::schedule::{GameSpec, Schedule};
use crate::serve::db::{ClaimedGame, Db, Finished};
use crate::serve::engine::{self, Agent, Engine, Rules};
use crate::serve::now_ms;
use crate::serve::storage::Storage;

/// State key: the ladder's rules (JSON), written by `arena serve`.
pub const LADDER_RULES_KEY: &str = "ladder_rules";

/// How long a lease lasts unless renewed, by default.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// Largest batch one claim takes.
const MAX_BATCH: usize = 512;
/// Play a batch should hold, at the rate games are played.
const BATCH_TIME: Duration = Duration::from_millis(500);
/// How often an idle worker looks for games.
const IDLE_POLL: Duration = Duration::from_millis(500);

/// The most games a worker holds (leased and not yet written: queued, playing, or played and
/// waiting for the committer) when its batches are `batch` games: three batches (about 1.5 s of
/// play, at most `3 × MAX_BATCH`) and one per thread.
pub fn max_in_hand(batch: usize, threads: usize) -> usize {
    3 * batch + threads
}

/// The most games a worker of `threads` threads ever holds (its batches at their largest).
pub fn most_in_hand(threads: usize) -> usize {
    max_in_hand(MAX_BATCH.max(2 * threads), threads)
}

/// What a league's games need on a worker: everything that decides how a game is played, and
/// where its agents' bytes are (`code`, by SHA-256). Kept as the league's `settings` in the
/// database.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LeagueJob {
    pub name: String,
    pub rules: Rules,
    pub games_per_group: u32,
    pub seed: u64,
    pub compress_records_over: u64,
    pub agents: Vec<JobAgent>,
    /// The sandbox limits the league's records state: a worker whose sandbox would state others
    /// (another arena) refuses to play rather than write different records.
    pub limits: serde_json::Value,
}

/// A league's agent: its name, and the SHA-256 of its bytes in the `code` table.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct JobAgent {
    pub name: String,
    pub code: String,
}

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Player threads.
    pub threads: usize,
    /// How long a lease lasts unless renewed (renewed every quarter of it).
    pub lease: Duration,
    /// Stop once no game is scheduled or leased anywhere in the database.
    pub drain: bool,
    /// Name of the worker in the register (`worker:HOST:PID` if not given). Its leases name this
    /// process: `NAME#PID-RANDOM` (`super::lease`).
    pub owner: Option<String>,
}

/// What a worker did, for its last words and the figures of docs/PERFORMANCE.md.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub owner: String,
    /// Games played and written.
    pub played: u64,
    /// Of those, results counted (the rest came after their lease was lost).
    pub counted: u64,
    /// Games this worker could not play (the host failed again and again).
    pub failed: u64,
    pub secs: f64,
    /// Time spent in claim transactions that took games, and their number.
    pub claim_secs: f64,
    pub claims: u64,
    /// Time spent in result transactions, and their number.
    pub commit_secs: f64,
    pub commits: u64,
}

impl Summary {
    /// One line: games, rate, and the database's time per game.
    pub fn line(&self) -> String {
        let per = |secs: f64| {
            if self.played == 0 {
                0.0
            } else {
                secs * 1000.0 / self.played as f64
            }
        };
        format!(
            "worker {}: {} games played ({} counted, {} failed) in {:.1} s, {:.1} games/s; \
             database time per game: claim {:.3} ms ({} claims), commit {:.3} ms ({} commits)",
            self.owner,
            self.played,
            self.counted,
            self.failed,
            self.secs,
            if self.secs > 0.0 {
                self.played as f64 / self.secs
            } else {
                0.0
            },
            per(self.claim_secs),
            self.claims,
            per(self.commit_secs),
            self.commits
        )
    }
}

/// A game in the worker's hands.
#[derive(Clone, Debug)]
enum Job {
    Ladder { game: ClaimedGame, rules: String },
    League(LeagueGame),
}

/// A played game on its way to the database.
enum Outcome {
    Ladder(Finished),
    League(LeagueFinished),
}

#[derive(Default)]
struct Counters {
    played: AtomicU64,
    counted: AtomicU64,
    failed: AtomicU64,
    /// Counted since the register was last told.
    unreported: AtomicU64,
    claim_ns: AtomicU64,
    claims: AtomicU64,
    commit_ns: AtomicU64,
    commits: AtomicU64,
}

/// A league as a worker plays it.
struct LeagueState {
    job: LeagueJob,
    schedule: Schedule,
    engine: Arc<Engine>,
    names: Vec<String>,
}

struct Shared {
    db: Db,
    /// The worker's name, in the register and in messages.
    name: String,
    /// This process's lease owner (`super::lease`).
    lease: String,
    rt: Handle,
    threads: usize,
    queue: Mutex<VecDeque<Job>>,
    /// Wakes player threads (games queued, or stopping).
    ready: Condvar,
    /// Wakes the feeder (the queue runs low).
    hungry: Condvar,
    /// Games leased and not yet written: queued, being played, or played and waiting for the
    /// committer. The feeder claims only while these are fewer than [`max_in_hand`]: a worker
    /// whose results the database writes slower than it plays stops taking games.
    in_hand: AtomicUsize,
    /// Of those, games played and waiting for the committer.
    unwritten: AtomicUsize,
    stop: AtomicBool,
    /// Why the worker stopped on its own, if it did.
    fatal: Mutex<Option<anyhow::Error>>,
    /// Engines by rules (JSON).
    engines: Mutex<HashMap<String, Arc<Engine>>>,
    /// Loaded agents by rules (JSON) and SHA-256 of their bytes.
    agents: Mutex<HashMap<(String, String), Agent>>,
    /// Ladder versions: label and SHA-256 of their bytes.
    versions: Mutex<HashMap<i64, (String, String)>>,
    leagues: Mutex<HashMap<i64, Arc<LeagueState>>>,
    counters: Counters,
}

/// Runs a worker on the database at `url` until `stop` is set (or, with `drain`, until no game is
/// left), and says what it did. Fails at once when the database was set up by another arena
/// version.
pub fn run(url: &str, opts: &Options, stop: &AtomicBool) -> anyhow::Result<Summary> {
    anyhow::ensure!(opts.threads >= 1, "--threads must be at least 1");
    anyhow::ensure!(
        opts.lease >= Duration::from_secs(1),
        "the lease must be at least 1 second"
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .thread_name("arena-worker-db")
        .build()?;
    let db = rt.block_on(Db::open_as_worker(url, 4))?;
    let theirs = read_version(&rt, &db)
        .map_err(|e| anyhow!("{e:#}"))
        .context(
            "the database holds no arena schema: start `arena serve --database` or \
             `arena league --database` on it first",
        )?;
    if let Some(why) = version::mismatch(theirs.as_deref()) {
        bail!("{why}");
    }
    let name = opts.owner.clone().unwrap_or_else(default_name);
    let lease = LeaseOwner::new(&name)?;
    rt.block_on(db.register_worker(
        &name,
        &host_name(),
        opts.threads,
        &version::arena_version(),
        now_ms(),
    ))?;
    let shared = Arc::new(Shared {
        db,
        name,
        lease: lease.as_str().to_owned(),
        rt: rt.handle().clone(),
        threads: opts.threads,
        queue: Mutex::new(VecDeque::new()),
        ready: Condvar::new(),
        hungry: Condvar::new(),
        in_hand: AtomicUsize::new(0),
        unwritten: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        fatal: Mutex::new(None),
        engines: Mutex::new(HashMap::new()),
        agents: Mutex::new(HashMap::new()),
        versions: Mutex::new(HashMap::new()),
        leagues: Mutex::new(HashMap::new()),
        counters: Counters::default(),
    });
    let started = Instant::now();
    let (tx, rx) = unbounded_channel();
    let committer = rt.spawn(commit_loop(Arc::clone(&shared), rx));
    let renewer = rt.spawn(renew_loop(Arc::clone(&shared), opts.lease));
    let players = (0..opts.threads)
        .map(|i| {
            let (shared, tx) = (Arc::clone(&shared), tx.clone());
            std::thread::Builder::new()
                .name(format!("arena-worker-{i}"))
                .stack_size(engine::WORKER_STACK_BYTES)
                .spawn(move || play_loop(&shared, &tx))
                .context("cannot start a player thread")
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    drop(tx);

    feed(&shared, opts, stop);

    // Stopping: player threads finish the games they are playing; the games still queued go
    // back to the database at once rather than when their leases run out.
    shared.stop.store(true, Ordering::SeqCst);
    shared.ready.notify_all();
    for p in players {
        let _ = p.join();
    }
    let left: Vec<Job> = lock(&shared.queue).drain(..).collect();
    release(&shared, &left);
    // The committer ends once every player's results are written (or given up).
    let _ = rt.block_on(committer);
    renewer.abort();
    if let Err(e) = rt.block_on(shared.db.forget_worker(&shared.name)) {
        eprintln!("warning: {}: cannot leave the register: {e:#}", shared.name);
    }
    rt.block_on(shared.db.close());
    let c = &shared.counters;
    let summary = Summary {
        owner: shared.name.clone(),
        played: c.played.load(Ordering::Relaxed),
        counted: c.counted.load(Ordering::Relaxed),
        failed: c.failed.load(Ordering::Relaxed),
        secs: started.elapsed().as_secs_f64(),
        claim_secs: c.claim_ns.load(Ordering::Relaxed) as f64 / 1e9,
        claims: c.claims.load(Ordering::Relaxed),
        commit_secs: c.commit_ns.load(Ordering::Relaxed) as f64 / 1e9,
        commits: c.commits.load(Ordering::Relaxed),
    };
    if let Some(e) = lock(&shared.fatal).take() {
        eprintln!("{}", summary.line());
        return Err(e);
    }
    Ok(summary)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// `worker:HOST:PID`: tells an operator where the worker runs.
fn default_name() -> String {
    format!("worker:{}:{}", host_name(), std::process::id())
}

/// This machine's host name.
pub(crate) fn host_name() -> String {
    let name = gethostname::gethostname().to_string_lossy().into_owned();
    if name.is_empty() {
        "unknown-host".into()
    } else {
        name
    }
}

/// The main thread's loop: claims a batch whenever the queue runs low, until stopped.
fn feed(shared: &Arc<Shared>, opts: &Options, stop: &AtomicBool) {
    let mut rate = RateEstimate::new();
    let mut idle_since: Option<Instant> = None;
    let mut warned = false;
    loop {
        if stop.load(Ordering::SeqCst)
            || shared.stop.load(Ordering::SeqCst)
            || lock(&shared.fatal).is_some()
        {
            return;
        }
        rate.update(shared.counters.played.load(Ordering::Relaxed));
        // The next batch is claimed while half of this one is still queued: the players never
        // wait for a claim's round trip. Not beyond what the worker may hold: when the committer
        // falls behind, the players wait rather than the leases (and the records in memory) pile
        // up.
        let batch = rate.batch(shared.threads);
        let take = {
            let q = lock(&shared.queue);
            let held = shared.in_hand.load(Ordering::SeqCst);
            let unwritten = shared.unwritten.load(Ordering::SeqCst);
            let room = max_in_hand(batch, shared.threads).saturating_sub(held);
            if room < batch.div_ceil(2) || q.len() > batch / 2 {
                let _ = shared
                    .hungry
                    .wait_timeout(q, Duration::from_millis(100))
                    .map(|_| ());
                continue;
            }
            if q.is_empty()
                && held.saturating_sub(unwritten) < shared.threads
                && idle_since.is_none()
            {
                rate.starved(shared.threads);
            }
            batch.min(room)
        };
        let t0 = Instant::now();
        let claimed = claim(shared, take as i64, opts.lease);
        if claimed.as_ref().is_ok_and(|jobs| !jobs.is_empty()) {
            // The queue's cost per game: claims that found nothing (an idle worker looking for
            // games) are no cost of any game.
            shared
                .counters
                .claim_ns
                .fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
            shared.counters.claims.fetch_add(1, Ordering::Relaxed);
        }
        let jobs = match claimed {
            Ok(jobs) => {
                warned = false;
                jobs
            }
            Err(e) => {
                if !warned {
                    let e = shared.rt.block_on(shared.db.explain(e));
                    eprintln!(
                        "warning: {}: cannot take games, trying again: {e:#}",
                        shared.name
                    );
                    warned = true;
                }
                std::thread::sleep(Duration::from_secs(1));
                continue;
            }
        };
        if jobs.is_empty() {
            let idle = *idle_since.get_or_insert_with(Instant::now);
            if opts.drain
                && shared.in_hand.load(Ordering::SeqCst) == 0
                && idle.elapsed() >= IDLE_POLL
            {
                match shared.rt.block_on(shared.db.games_to_play()) {
                    Ok(0) => return,
                    Ok(_) => {}
                    Err(e) => eprintln!("warning: {}: {e:#}", shared.name),
                }
            }
            sleep_unless(stop, &shared.stop, IDLE_POLL);
            continue;
        }
        idle_since = None;
        shared.in_hand.fetch_add(jobs.len(), Ordering::SeqCst);
        lock(&shared.queue).extend(jobs);
        shared.ready.notify_all();
    }
}

/// The arena version the database was set up by. A connection lost while reading it (the
/// database restarted, an administrator cut the connections) is tried again a few times, as a
/// running worker does with every query; any other error (no schema) is returned at once.
fn read_version(rt: &tokio::runtime::Runtime, db: &Db) -> anyhow::Result<Option<String>> {
    let mut tries = 0;
    loop {
        match rt.block_on(db.state(VERSION_KEY)) {
            Err(e) if tries < 5 && connection_lost(&e) => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(500));
            }
            read => return read,
        }
    }
}

/// True when `e` is a lost connection to the database rather than an answer from it.
fn connection_lost(e: &anyhow::Error) -> bool {
    match e.downcast_ref::<sqlx::Error>() {
        Some(sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::Protocol(_)) => true,
        // Class 57P: the server shut the connection (57P01 admin shutdown, 57P02 crash,
        // 57P03 cannot connect now); class 08: connection exceptions.
        Some(sqlx::Error::Database(d)) => d
            .code()
            .is_some_and(|c| c.starts_with("57P") || c.starts_with("08")),
        _ => false,
    }
}

fn sleep_unless(a: &AtomicBool, b: &AtomicBool, d: Duration) {
    let end = Instant::now() + d;
    while Instant::now() < end && !a.load(Ordering::SeqCst) && !b.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(20).min(end - Instant::now()));
    }
}

/// Games played per second lately, to size the batches.
struct RateEstimate {
    at: Instant,
    played: u64,
    rate: f64,
    /// The smallest batch: doubled whenever the players ran out of games before a claim.
    floor: usize,
}

impl RateEstimate {
    fn new() -> RateEstimate {
        RateEstimate {
            at: Instant::now(),
            played: 0,
            rate: 0.0,
            floor: 0,
        }
    }

    /// The players ran out of games: batches were too small for how fast games go.
    fn starved(&mut self, threads: usize) {
        self.floor = (self.floor.max(threads) * 2).min(MAX_BATCH);
    }

    fn update(&mut self, played: u64) {
        let secs = self.at.elapsed().as_secs_f64();
        if secs >= 1.0 {
            let now = (played - self.played) as f64 / secs;
            self.rate = if self.rate == 0.0 {
                now
            } else {
                0.5 * self.rate + 0.5 * now
            };
            self.at = Instant::now();
            self.played = played;
        }
    }

    fn batch(&self, threads: usize) -> usize {
        let wanted = ((self.rate * BATCH_TIME.as_secs_f64()) as usize).max(self.floor);
        wanted.clamp(2 * threads, MAX_BATCH.max(2 * threads))
    }
}

/// Claims up to `n` games: ladder games first (people wait for those), then league games.
fn claim(shared: &Shared, n: i64, lease: Duration) -> anyhow::Result<Vec<Job>> {
    let db = &shared.db;
    let (now, expires) = (now_ms(), now_ms() + lease.as_millis() as i64);
    shared.rt.block_on(async {
        let mut jobs = Vec::new();
        let ladder = db.claim(&shared.lease, n, now, expires).await?;
        if !ladder.is_empty() {
            let rules = match db.state(LADDER_RULES_KEY).await? {
                Some(r) => r,
                None => {
                    let ids: Vec<i64> = ladder.iter().map(|g| g.id).collect();
                    db.release(&shared.lease, &ids).await?;
                    bail!("the database has ladder games but no ladder rules");
                }
            };
            jobs.extend(ladder.into_iter().map(|game| Job::Ladder {
                game,
                rules: rules.clone(),
            }));
        }
        let left = n - jobs.len() as i64;
        if left > 0 {
            let league = db
                .claim_league_games(&shared.lease, left, now, expires, &version::arena_version())
                .await?;
            jobs.extend(league.into_iter().map(Job::League));
        }
        Ok(jobs)
    })
}

/// Gives games back to the queue.
fn release(shared: &Shared, jobs: &[Job]) {
    let ladder: Vec<i64> = jobs
        .iter()
        .filter_map(|j| match j {
            Job::Ladder { game, .. } => Some(game.id),
            Job::League(_) => None,
        })
        .collect();
    let league: Vec<LeagueGame> = jobs
        .iter()
        .filter_map(|j| match j {
            Job::League(g) => Some(*g),
            Job::Ladder { .. } => None,
        })
        .collect();
    let r = shared.rt.block_on(async {
        shared.db.release(&shared.lease, &ladder).await?;
        shared
            .db
            .release_league_games(&shared.lease, &league)
            .await?;
        anyhow::Ok(())
    });
    if let Err(e) = r {
        eprintln!(
            "warning: {}: {} game(s) could not be given back; they are played again when their \
             leases run out: {e:#}",
            shared.name,
            jobs.len()
        );
    }
}

/// A player thread: plays games from the queue until the worker stops.
fn play_loop(shared: &Shared, results: &UnboundedSender<Outcome>) {
    loop {
        let job = {
            let mut q = lock(&shared.queue);
            loop {
                if shared.stop.load(Ordering::SeqCst) {
                    return;
                }
                if let Some(job) = q.pop_front() {
                    break job;
                }
                q = shared
                    .ready
                    .wait_timeout(q, Duration::from_millis(200))
                    .map_or_else(|p| p.into_inner().0, |(q, _)| q);
            }
        };
        shared.hungry.notify_one();
        match play_with_retries(shared, &job) {
            Ok(o) => {
                shared.counters.played.fetch_add(1, Ordering::Relaxed);
                // Still in hand until the committer has written it.
                shared.unwritten.fetch_add(1, Ordering::SeqCst);
                if results.send(o).is_err() {
                    return;
                }
            }
            Err(e) => {
                shared.counters.failed.fetch_add(1, Ordering::Relaxed);
                give_up(shared, &job, &e);
                shared.in_hand.fetch_sub(1, Ordering::SeqCst);
            }
        }
        shared.hungry.notify_one();
    }
}

/// A game the host could not play: a ladder game is cancelled (as the server's own workers do);
/// a league game is marked failed, which stops its league with the error.
fn give_up(shared: &Shared, job: &Job, e: &anyhow::Error) {
    let r = match job {
        Job::Ladder { game, .. } => {
            eprintln!("error: game {} cannot be played: {e:#}", game.id);
            shared.rt.block_on(shared.db.cancel(game.id, &shared.lease))
        }
        Job::League(g) => {
            let text = format!("{e:#}");
            eprintln!(
                "error: game {} of league {} cannot be played: {text}",
                g.game, g.league
            );
            shared
                .rt
                .block_on(shared.db.fail_league_game(*g, &shared.lease, &text))
        }
    };
    if let Err(e) = r {
        eprintln!("warning: {}: {e:#}", shared.name);
    }
}

/// Plays `job`, trying again after a failure of the host (an error or a panic) as a local league
/// does.
fn play_with_retries(shared: &Shared, job: &Job) -> anyhow::Result<Outcome> {
    let mut tries = 0;
    loop {
        tries += 1;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play(shared, job)))
            .unwrap_or_else(|_| Err(anyhow!("a player thread panicked")));
        match r {
            Ok(o) => return Ok(o),
            Err(_) if tries <= HOST_RETRIES && !shared.stop.load(Ordering::SeqCst) => {
                std::thread::sleep(RETRY_PAUSE);
            }
            Err(e) => {
                return Err(e.context(format!(
                    "the host could not play it in {tries} tries (worker {}); this is a failure \
                     of the machine or of the arena, not of an agent",
                    shared.name
                )))
            }
        }
    }
}

fn play(shared: &Shared, job: &Job) -> anyhow::Result<Outcome> {
    match job {
        Job::Ladder { game, rules } => play_ladder(shared, game, rules),
        Job::League(g) => play_league(shared, *g),
    }
}

/// The engine for `rules` (JSON), made on first use.
fn engine_for(shared: &Shared, rules_json: &str) -> anyhow::Result<Arc<Engine>> {
    if let Some(e) = lock(&shared.engines).get(rules_json) {
        return Ok(Arc::clone(e));
    }
    let rules: Rules = serde_json::from_str(rules_json)
        .map_err(|e| anyhow!("unreadable rules in the database: {e}"))?;
    let (engine, at_once) = Engine::for_games_at_once(rules, shared.threads)?;
    if at_once < shared.threads {
        bail!(
            "this machine's address space holds only {at_once} game(s) of these rules at once: \
             run the worker with --threads {at_once}"
        );
    }
    let engine = Arc::new(engine);
    lock(&shared.engines).insert(rules_json.to_owned(), Arc::clone(&engine));
    Ok(engine)
}

/// The agent whose bytes have SHA-256 `code`, loaded into the engine of `rules_json`.
fn agent_for(
    shared: &Shared,
    rules_json: &str,
    engine: &Engine,
    name: &str,
    code: &str,
) -> anyhow::Result<Agent> {
    let key = (rules_json.to_owned(), code.to_owned());
    if let Some(a) = lock(&shared.agents).get(&key) {
        return Ok(a.clone());
    }
    let bytes = shared
        .rt
        .block_on(shared.db.code(code))?
        .with_context(|| format!("the database keeps no bytes for agent {name} ({code})"))?;
    let agent = engine
        .load(name, &bytes)
        .with_context(|| format!("agent {name} cannot be loaded"))?;
    lock(&shared.agents).insert(key, agent.clone());
    Ok(agent)
}

fn play_ladder(shared: &Shared, g: &ClaimedGame, rules: &str) -> anyhow::Result<Outcome> {
    let engine = engine_for(shared, rules)?;
    let mut agents = Vec::with_capacity(g.seats.len());
    let mut names = Vec::with_capacity(g.seats.len());
    for &v in &g.seats {
        let known = lock(&shared.versions).get(&v).cloned();
        let (label, sha) = match known {
            Some(k) => k,
            None => {
                let k = shared.rt.block_on(shared.db.version_file(v))?;
                lock(&shared.versions).insert(v, k.clone());
                k
            }
        };
        agents.push(agent_for(shared, rules, &engine, &label, &sha)?);
        names.push(label);
    }
    let seated: Vec<&Agent> = agents.iter().collect();
    let played = engine.play(&seated, &names, g.seed, g.id as usize, &g.key, "")?;
    let (bytes, compressed) = engine::stored_record(played.record)?;
    let record = Storage::record_name(g.id, compressed);
    let mut result = played.result;
    result.record = record.clone();
    Ok(Outcome::Ladder(Finished {
        id: g.id,
        owner: shared.lease.clone(),
        result: serde_json::to_string(&result)?,
        record,
        record_bytes: Some(bytes),
        remote: true,
        now_ms: now_ms(),
    }))
}

/// League `id` as this worker plays it, read from the database on first use.
fn league_state(shared: &Shared, id: i64) -> anyhow::Result<Arc<LeagueState>> {
    if let Some(l) = lock(&shared.leagues).get(&id) {
        return Ok(Arc::clone(l));
    }
    let settings = shared.rt.block_on(shared.db.league_settings(id))?;
    let job: LeagueJob = serde_json::from_str(&settings)
        .map_err(|e| anyhow!("league {id}: unreadable settings in the database: {e}"))?;
    let rules_json = serde_json::to_string(&job.rules)?;
    let engine = engine_for(shared, &rules_json)?;
    if engine.limits_json() != &job.limits {
        bail!(
            "league {id}: this worker's sandbox limits differ from the league's (another arena \
             version?): its records would not be the league's"
        );
    }
    let names: Vec<String> = job.agents.iter().map(|a| a.name.clone()).collect();
    let schedule = Schedule::new(&names, job.rules.players, job.games_per_group, job.seed)?;
    let state = Arc::new(LeagueState {
        job,
        schedule,
        engine,
        names,
    });
    lock(&shared.leagues).insert(id, Arc::clone(&state));
    Ok(state)
}

fn play_league(shared: &Shared, g: LeagueGame) -> anyhow::Result<Outcome> {
    let league = league_state(shared, g.league)?;
    let id = usize::try_from(g.game)
        .ok()
        .filter(|&id| id < league.schedule.len())
        .with_context(|| format!("league {} has no game {}", g.league, g.game))?;
    let spec = league.schedule.game(id);
    let rules_json = serde_json::to_string(&league.job.rules)?;
    let mut agents = Vec::with_capacity(spec.seats.len());
    let mut names = Vec::with_capacity(spec.seats.len());
    for &a in &spec.seats {
        let entry = &league.job.agents[a];
        agents.push(agent_for(
            shared,
            &rules_json,
            &league.engine,
            &entry.name,
            &entry.code,
        )?);
        names.push(league.names[a].clone());
    }
    let seated: Vec<&Agent> = agents.iter().collect();
    let (result, record) = play_scheduled(
        &league.engine,
        &seated,
        &names,
        &spec,
        league.job.compress_records_over,
    )?;
    Ok(Outcome::League(LeagueFinished {
        game: g,
        owner: shared.lease.clone(),
        result: serde_json::to_string(&result)?,
        record,
    }))
}

/// Plays game `spec` of a league with `seated` (named `names`) in its seats: its result, naming
/// the record file where the league keeps it, and the file's bytes (compressed when larger than
/// `compress_over`), as a local league writes them. Must run on a thread with
/// [`engine::WORKER_STACK_BYTES`] of stack.
pub(crate) fn play_scheduled(
    engine: &Engine,
    seated: &[&Agent],
    names: &[String],
    spec: &GameSpec,
    compress_over: u64,
) -> anyhow::Result<(GameResult, Vec<u8>)> {
    let played = engine.play(seated, names, spec.seed, spec.id, &spec.key, "")?;
    let (file, bytes) = record_file(spec.id, played.record, compress_over)?;
    let mut result = played.result;
    result.record = format!("{RECORDS_DIR}/{file}");
    Ok((result, bytes))
}

/// Results gathered into one transaction: those that arrive within this time of the first, up to
/// [`COMMIT_BATCH`]. A transaction costs the database far more than a row (its commit is flushed
/// to disk): games of a few milliseconds would otherwise cost a commit each.
const COMMIT_EVERY: Duration = Duration::from_millis(250);
const COMMIT_BATCH: usize = 256;

/// Writes results as they arrive, those of a quarter of a second in one transaction per table,
/// until every player thread has stopped.
async fn commit_loop(shared: Arc<Shared>, mut rx: UnboundedReceiver<Outcome>) {
    let mut batch = Vec::new();
    while rx.recv_many(&mut batch, COMMIT_BATCH).await > 0 {
        let deadline = tokio::time::Instant::now() + COMMIT_EVERY;
        while batch.len() < COMMIT_BATCH {
            let room = COMMIT_BATCH - batch.len();
            match tokio::time::timeout_at(deadline, rx.recv_many(&mut batch, room)).await {
                // The players have stopped: write what is there at once.
                Ok(0) => break,
                Ok(_) => {}
                Err(_) => break,
            }
        }
        let mut ladder = Vec::new();
        let mut league = Vec::new();
        for o in batch.drain(..) {
            match o {
                Outcome::Ladder(f) => ladder.push(f),
                Outcome::League(f) => league.push(f),
            }
        }
        let mut counted = 0;
        if !ladder.is_empty() {
            counted +=
                write_with_retries(&shared, "ladder results", || shared.db.finish(&ladder)).await;
        }
        if !league.is_empty() {
            counted += write_with_retries(&shared, "league results", || {
                shared.db.finish_league_games(&league)
            })
            .await;
        }
        shared
            .counters
            .counted
            .fetch_add(counted, Ordering::Relaxed);
        shared
            .counters
            .unreported
            .fetch_add(counted, Ordering::Relaxed);
        // Written (or given up): out of the worker's hands.
        let n = ladder.len() + league.len();
        shared.unwritten.fetch_sub(n, Ordering::SeqCst);
        shared.in_hand.fetch_sub(n, Ordering::SeqCst);
        shared.hungry.notify_one();
    }
}

/// How long a stopping worker keeps trying to write its last results.
const LAST_WRITE: Duration = Duration::from_secs(30);

/// Runs `write` until it succeeds; returns the results it counted. A stopping worker gives up
/// after [`LAST_WRITE`]: those games are played again elsewhere once their leases run out.
async fn write_with_retries<F, Fut>(shared: &Shared, what: &str, write: F) -> u64
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<Vec<bool>>>,
{
    let mut pause = Duration::from_millis(100);
    let mut stopping_since: Option<Instant> = None;
    let mut warned = false;
    loop {
        let t0 = Instant::now();
        let r = write().await;
        shared
            .counters
            .commit_ns
            .fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
        shared.counters.commits.fetch_add(1, Ordering::Relaxed);
        match r {
            Ok(counted) => {
                if warned {
                    eprintln!("note: {}: the database is back", shared.name);
                }
                return counted.iter().filter(|&&c| c).count() as u64;
            }
            Err(e) => {
                if !warned {
                    let e = shared.db.explain(e).await;
                    eprintln!(
                        "warning: {}: {what} cannot be written, trying again: {e:#}",
                        shared.name
                    );
                    warned = true;
                }
                if shared.stop.load(Ordering::SeqCst) {
                    let since = *stopping_since.get_or_insert_with(Instant::now);
                    if since.elapsed() > LAST_WRITE {
                        eprintln!(
                            "warning: {}: gave up writing {what}: those games are played again \
                             when their leases run out",
                            shared.name
                        );
                        return 0;
                    }
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(2));
            }
        }
    }
}

/// Every quarter of a lease: extends the worker's leases, tells the register it is alive, and
/// checks that the database is still set up by this arena's version (a server upgraded while
/// workers run stops them, with the reason).
async fn renew_loop(shared: Arc<Shared>, lease: Duration) {
    let mut tick = tokio::time::interval(lease / 4);
    let mut warned = false;
    loop {
        tick.tick().await;
        let expires = now_ms() + lease.as_millis() as i64;
        let r = async {
            shared.db.renew(&shared.lease, expires).await?;
            shared.db.renew_league_games(&shared.lease, expires).await?;
            let games = shared.counters.unreported.swap(0, Ordering::Relaxed);
            if let Err(e) = shared
                .db
                .worker_seen(&shared.name, now_ms(), games as i64)
                .await
            {
                shared
                    .counters
                    .unreported
                    .fetch_add(games, Ordering::Relaxed);
                return Err(e);
            }
            shared.db.state(VERSION_KEY).await
        }
        .await;
        match r {
            Ok(theirs) => {
                if warned {
                    eprintln!("note: {}: the database is back", shared.name);
                    warned = false;
                }
                if let Some(why) = version::mismatch(theirs.as_deref()) {
                    *lock(&shared.fatal) = Some(anyhow!("{why}"));
                    shared.stop.store(true, Ordering::SeqCst);
                    shared.ready.notify_all();
                    return;
                }
            }
            Err(e) => {
                if !warned {
                    let e = shared.db.explain(e).await;
                    eprintln!(
                        "warning: {}: cannot renew leases, trying again: {e:#}",
                        shared.name
                    );
                    warned = true;
                }
            }
        }
    }
}
