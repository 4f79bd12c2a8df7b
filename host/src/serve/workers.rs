//! Worker threads that play ladder games, the task that writes their results, and the task that
//! counts the results of workers on other machines (`arena worker`, with a shared database).
//!
//! A worker leases a few scheduled games at a time from the database, plays each in the sandbox
//! (on a thread with the big native stack guest code needs), writes its record file, and hands
//! the result to [`write_results`], which writes every result that has arrived in one
//! transaction, each only if its game is still leased to that worker. So a game is counted once:
//! a worker killed mid-game leaves its lease, which the next start puts back in the queue, and
//! playing the game again gives the same record (games are deterministic).
//!
//! Workers run at a lower scheduling priority (nice 10) than the threads that answer HTTP
//! requests, so that pages and uploads stay quick while every core plays games.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Context;
use tokio::runtime::Handle;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::App;
use crate::jobs::ladder_queue::{ClaimedGame, Finished};
use crate::jobs::now_ms;
use crate::jobs::storage::Storage;
use crate::league::result::GameResult;
use crate::referee::{self, Agent};

/// Games a worker leases at once.
const CLAIM: i64 = 4;
/// How long a lease lasts. Only a worker that stopped without dying (a hung machine) keeps one
/// that long; a dead server's leases are put back at the next start.
const LEASE_MS: i64 = 10 * 60 * 1000;

/// Most loaded versions the workers keep: a loaded agent holds its compiled code (tens of MiB for
/// an interpreter in a component), and versions replaced or taken out never play again.
pub const AGENT_CACHE: usize = 32;

/// The loaded versions, by version id: at most `cap`, those no longer active dropped first, then
/// the least recently used.
pub struct AgentCache<V = (Agent, String)> {
    cap: usize,
    tick: u64,
    agents: HashMap<i64, (V, u64)>,
}

impl<V: Clone> AgentCache<V> {
    pub fn new(cap: usize) -> AgentCache<V> {
        AgentCache {
            cap: cap.max(1),
            tick: 0,
            agents: HashMap::new(),
        }
    }

    pub fn get(&mut self, version: i64) -> Option<V> {
        self.tick += 1;
        let tick = self.tick;
        self.agents.get_mut(&version).map(|(a, used)| {
            *used = tick;
            a.clone()
        })
    }

    /// Keeps `agent` of `version`, making room first: the versions not in `active` go, then the
    /// least recently used.
    pub fn insert(&mut self, version: i64, agent: V, active: &HashSet<i64>) {
        if self.agents.len() >= self.cap {
            self.agents.retain(|v, _| active.contains(v));
        }
        while self.agents.len() >= self.cap {
            let Some(oldest) = self.agents.iter().min_by_key(|(_, a)| a.1).map(|(v, _)| *v) else {
                break;
            };
            self.agents.remove(&oldest);
        }
        self.tick += 1;
        self.agents.insert(version, (agent, self.tick));
    }

    pub fn len(&self) -> usize {
        self.agents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// Drops every loaded agent (the host renamed or took out a contestant).
    pub fn clear(&mut self) {
        self.agents.clear();
    }
}

/// A played game on its way to the database.
pub struct Outcome {
    pub finished: Finished,
    /// The seats' version ids.
    pub seats: Vec<i64>,
    pub result: GameResult,
}

/// Starts `app.challenge.workers` worker threads.
pub fn start(
    app: &Arc<App>,
    rt: Handle,
    results: UnboundedSender<Outcome>,
) -> anyhow::Result<Vec<JoinHandle<()>>> {
    let boot = crate::jobs::new_token()?;
    (0..app.challenge.workers)
        .map(|w| {
            let (app, rt, results) = (Arc::clone(app), rt.clone(), results.clone());
            let owner = format!("local:{}:{w}", &boot[..12]);
            std::thread::Builder::new()
                .name(format!("ladder-worker-{w}"))
                .stack_size(referee::WORKER_STACK_BYTES)
                .spawn(move || {
                    lower_priority();
                    Worker {
                        app,
                        rt,
                        owner,
                        results,
                    }
                    .run()
                })
                .context("cannot start a worker thread")
        })
        .collect()
}

struct Worker {
    app: Arc<App>,
    rt: Handle,
    owner: String,
    results: UnboundedSender<Outcome>,
}

impl Worker {
    fn run(self) {
        while !self.app.stopping.load(Ordering::SeqCst)
            && !self.app.final_started.load(Ordering::SeqCst)
        {
            let now = now_ms();
            let claimed =
                self.rt
                    .block_on(self.app.db.claim(&self.owner, CLAIM, now, now + LEASE_MS));
            let games = match claimed {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("warning: {}: cannot take games: {e:#}", self.owner);
                    std::thread::sleep(Duration::from_secs(1));
                    continue;
                }
            };
            if games.is_empty() {
                self.rt.block_on(async {
                    let _ = tokio::time::timeout(Duration::from_secs(1), self.app.work.notified())
                        .await;
                });
                continue;
            }
            for g in games {
                if self.app.stopping.load(Ordering::SeqCst) {
                    // The lease is put back in the queue at the next start.
                    return;
                }
                match self.play(&g) {
                    Ok(outcome) => {
                        if self.results.send(outcome).is_err() {
                            return;
                        }
                    }
                    Err(e) if is_host_failure(&e) => {
                        // Not the game's fault (no file descriptor, no memory, the database
                        // away): it goes back to the queue, and this worker pauses.
                        eprintln!(
                            "warning: game {} could not be played, it is scheduled again: {e:#}",
                            g.id
                        );
                        if let Err(e) = self.rt.block_on(self.app.db.release(&self.owner, &[g.id]))
                        {
                            eprintln!("warning: game {} cannot be put back: {e:#}", g.id);
                        }
                        std::thread::sleep(Duration::from_secs(1));
                    }
                    Err(e) => {
                        eprintln!("error: game {} cannot be played: {e:#}", g.id);
                        if let Err(e) = self.rt.block_on(self.app.db.cancel(g.id, &self.owner)) {
                            eprintln!("warning: game {} cannot be cancelled: {e:#}", g.id);
                        }
                    }
                }
            }
        }
    }

    fn agent(&self, version: i64) -> anyhow::Result<(Agent, String)> {
        if let Some(a) = self
            .app
            .agents
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(version)
        {
            return Ok(a);
        }
        let (label, sha) = self.rt.block_on(self.app.db.version_file(version))?;
        let bytes = self.app.storage.agent(&sha)?;
        let agent = self
            .app
            .engine
            .load(&label, &bytes)
            .with_context(|| format!("version {label} cannot be loaded"))?;
        let active: HashSet<i64> = self.app.board.active().iter().map(|v| v.id).collect();
        self.app
            .agents
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(version, (agent.clone(), label.clone()), &active);
        Ok((agent, label))
    }

    fn play(&self, g: &ClaimedGame) -> anyhow::Result<Outcome> {
        let mut agents = Vec::with_capacity(g.seats.len());
        let mut names = Vec::with_capacity(g.seats.len());
        for &v in &g.seats {
            let (a, label) = self.agent(v)?;
            agents.push(a);
            names.push(label);
        }
        let seated: Vec<&Agent> = agents.iter().collect();
        // The record's name is known once its size is: large records are compressed.
        let played = self
            .app
            .engine
            .play(&seated, &names, g.seed, g.id as usize, &g.key, "")?;
        let (bytes, compressed) = referee::stored_record(played.record)?;
        let record = Storage::record_name(g.id, compressed);
        // A shared database keeps the records (written with the result); else the data folder.
        let record_bytes = if self.app.db.shared() {
            Some(bytes)
        } else {
            self.app.storage.put_record(&record, &bytes)?;
            None
        };
        let mut result = played.result;
        result.record = record.clone();
        Ok(Outcome {
            finished: Finished {
                id: g.id,
                owner: self.owner.clone(),
                result: serde_json::to_string(&result)?,
                record,
                record_bytes,
                remote: false,
                now_ms: now_ms(),
            },
            seats: g.seats.clone(),
            result,
        })
    }
}

/// Writes results as they arrive, all those waiting in one transaction; counts the ones still
/// leased to their worker on the board, and tells the pages.
pub async fn write_results(app: Arc<App>, mut rx: UnboundedReceiver<Outcome>) {
    let mut batch = Vec::new();
    while rx.recv_many(&mut batch, 256).await > 0 {
        let finished: Vec<Finished> = batch.iter().map(|o| o.finished.clone()).collect();
        let counted = loop {
            match app.db.finish(&finished).await {
                Ok(c) => break c,
                Err(e) => {
                    eprintln!("warning: results cannot be written, trying again: {e:#}");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        };
        let mut added = Vec::new();
        for (o, counted) in batch.drain(..).zip(counted) {
            if counted {
                let event = serde_json::json!({
                    "id": o.finished.id,
                    "seats": o.result.seats,
                    "winner": o.result.outcome.winner().and_then(|s| o.result.seats.get(s)),
                });
                app.events.send("game", event.to_string());
                added.push((o.finished.id, o.seats, o.result));
            }
        }
        app.board.add(added);
        app.pages.changed();
        app.schedule.notify_one();
    }
}

/// Counts on the board the ladder games that workers on other machines (`arena worker`) have
/// finished, as they come: the database lists them until the server has read them.
pub async fn count_remote_results(app: Arc<App>) {
    let mut warned = false;
    loop {
        if app.stopping.load(Ordering::SeqCst) {
            return;
        }
        match app.db.take_finished().await {
            Ok(rows) => {
                warned = false;
                let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
                let mut seats = match app.db.seats_of(&ids).await {
                    Ok(s) => s,
                    Err(e) => {
                        // The results were taken: the board reads them all again instead.
                        eprintln!("warning: cannot read the seats of remote games: {e:#}");
                        let _ = app.board.reload(&app.db).await;
                        tokio::time::sleep(Duration::from_millis(250)).await;
                        continue;
                    }
                };
                let mut added = Vec::new();
                for (id, json) in rows {
                    match serde_json::from_str::<GameResult>(&json) {
                        Ok(r) => {
                            let event = serde_json::json!({
                                "id": id,
                                "seats": r.seats,
                                "winner": r.outcome.winner().and_then(|s| r.seats.get(s)),
                            });
                            app.events.send("game", event.to_string());
                            added.push((id, seats.remove(&id).unwrap_or_default(), r));
                        }
                        Err(e) => eprintln!("warning: game {id}: unreadable result: {e}"),
                    }
                }
                if !added.is_empty() {
                    app.board.add(added);
                    app.pages.changed();
                    app.schedule.notify_one();
                    continue;
                }
            }
            Err(e) => {
                if !warned {
                    eprintln!("warning: cannot read the results of remote workers: {e:#}");
                    warned = true;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Whether a game failed through the host's own fault rather than its agents': the sandbox's
/// host failures, any failure to read or write a file (EMFILE when connections took every file
/// descriptor, a full disk ...), and the database's errors. Only a game whose agent no longer
/// loads is given up.
pub fn is_host_failure(e: &anyhow::Error) -> bool {
    referee::is_host_failure(e)
        || e.chain().any(|c| {
            c.downcast_ref::<std::io::Error>().is_some()
                || c.downcast_ref::<sqlx::Error>().is_some()
        })
}

/// Nice 10 for the calling thread (Linux applies `setpriority` to one thread when given its id).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread's own id; failure only leaves the
    // priority as it was.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache of loaded agents never grows past its size: versions no longer active leave
    /// first, then the least recently used.
    #[test]
    fn the_agent_cache_is_bounded_and_drops_inactive_versions_first() {
        let mut cache = AgentCache::<&str>::new(3);
        let active: HashSet<i64> = [1, 2, 4].into();
        cache.insert(1, "a", &active);
        cache.insert(2, "b", &active);
        cache.insert(3, "c", &active);
        assert_eq!(cache.get(1), Some("a"));
        cache.insert(4, "d", &active);
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.get(3), None, "the inactive version went first");
        for v in 5..100 {
            cache.get(4);
            cache.insert(v, "x", &active);
            assert!(cache.len() <= 3);
        }
        assert_eq!(cache.get(4), Some("d"), "the most used one stays");
        cache.clear();
        assert!(cache.is_empty());
    }
}
