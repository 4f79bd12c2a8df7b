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
//! process (`crate::jobs::lease`): a worker started again under the same name does not renew, and so
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

use super::version::{self, VERSION_KEY};
use crate::jobs::ladder_queue::{ClaimedGame, Finished};
use crate::jobs::league_queue::{LeagueFinished, LeagueGame};
use crate::jobs::lease::LeaseOwner;
use crate::jobs::Db;
use crate::league::result::GameResult;
use crate::league::runner::{record_file, HOST_RETRIES, RECORDS_DIR, RETRY_PAUSE};
use crate::league::schedule::{GameSpec, Schedule};
use crate::referee::{self as engine, Agent, Engine, Rules};

mod commit;
mod feed;
mod play;

use crate::jobs::now_ms;
use crate::jobs::storage::Storage;
use commit::{commit_loop, renew_loop};
use feed::{feed, release};
use play::play_loop;
pub(crate) use play::play_scheduled;

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
    /// process: `NAME#PID-RANDOM` (`crate::jobs::lease`).
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
    /// This process's lease owner (`crate::jobs::lease`).
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
    let (db, name, lease) = open_registered(&rt, url, opts)?;
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
    let summary = summary_of(&shared, started);
    if let Some(e) = lock(&shared.fatal).take() {
        eprintln!("{}", summary.line());
        return Err(e);
    }
    Ok(summary)
}

/// The database at `url`, checked to be of this arena version, with this worker in its register
/// under its name; and the owner of its leases.
fn open_registered(
    rt: &tokio::runtime::Runtime,
    url: &str,
    opts: &Options,
) -> anyhow::Result<(Db, String, LeaseOwner)> {
    let db = rt.block_on(Db::open_as_worker(url, 4))?;
    let theirs = read_version(rt, &db)
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
    Ok((db, name, lease))
}

/// What the worker did, from its counters, `started` being when it began playing.
fn summary_of(shared: &Shared, started: Instant) -> Summary {
    let c = &shared.counters;
    Summary {
        owner: shared.name.clone(),
        played: c.played.load(Ordering::Relaxed),
        counted: c.counted.load(Ordering::Relaxed),
        failed: c.failed.load(Ordering::Relaxed),
        secs: started.elapsed().as_secs_f64(),
        claim_secs: c.claim_ns.load(Ordering::Relaxed) as f64 / 1e9,
        claims: c.claims.load(Ordering::Relaxed),
        commit_secs: c.commit_ns.load(Ordering::Relaxed) as f64 / 1e9,
        commits: c.commits.load(Ordering::Relaxed),
    }
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
