//! The local executor: a league's games played on this machine's threads.
//!
//! Worker threads take the games in schedule order (cycle by cycle for a watched league), each
//! computed from its id when taken, play it with the league's sandbox and write its record file;
//! the calling thread hands what has arrived to the journal in batches.
//!
//! A game is a fact about its agents only when the host could play it properly. When the host
//! itself fails (`Game::play` returns an error: an instance pool exhausted, memory that cannot be
//! reserved, a compile child that died, a record that cannot be written; or a worker panics), the
//! game is not a result: it is tried again [`HOST_RETRIES`] times, [`RETRY_PAUSE`] apart, and if
//! it still fails the league stops with the error, keeping every game finished so far for
//! `--resume`.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use anyhow::{anyhow, Context};

use super::config::LeagueConfig;
use super::contestant::Contestant;
use super::executor::{Executor, Flow, Plan, Sink};
use super::interrupt;
use super::result::GameResult;
use super::runner::{record_file, HOST_RETRIES, RECORDS_DIR, RETRY_PAUSE};
use super::schedule::GameSpec;
use crate::game::{Game, Host, Table};
use crate::records::RecordMeta;
use crate::sandbox::WORKER_STACK_BYTES;

/// Plays a league's games on [`Plan::threads`] threads of this process.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalExecutor;

impl Executor for LocalExecutor {
    fn plays_here(&self) -> bool {
        true
    }

    fn play(&mut self, plan: &Plan<'_>, sink: &mut dyn Sink) -> anyhow::Result<()> {
        let records = plan.out.join(RECORDS_DIR);
        let ctx = GameContext {
            game: plan.game,
            host: plan.host,
            settings: Arc::new(plan.cfg.settings.clone()),
            cfg: plan.cfg,
            modules: plan.contestants,
            names: plan.names,
            limits: Arc::new(plan.limits.clone()),
            records: &records,
        };
        let pending = plan.done.iter().filter(|d| !**d).count();
        let taking = Taking {
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            plan,
            ctx: &ctx,
        };
        let (tx, rx) = mpsc::channel::<anyhow::Result<GameResult>>();
        let first_error = std::thread::scope(|scope| -> anyhow::Result<_> {
            for w in 0..plan.threads.max(1).min(pending) {
                let tx = tx.clone();
                let taking = &taking;
                std::thread::Builder::new()
                    .name(format!("league-worker-{w}"))
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(scope, move || taking.play_games(&tx))
                    .context("cannot start a worker thread")?;
            }
            drop(tx);
            Ok(hand_over(&rx, sink, &taking.stop))
        })?;
        match first_error {
            None => Ok(()),
            Some(e) => Err(e.context(format!(
                "league stopped; the {} finished games are kept in {} and `arena league --resume` continues it",
                sink.held(),
                plan.out.display()
            ))),
        }
    }
}

/// Hands the games arriving on `rx` to `sink` until every worker has ended. Returns the first
/// error (a game the host could not play, or the journal's); after one, no worker starts a game.
fn hand_over(
    rx: &mpsc::Receiver<anyhow::Result<GameResult>>,
    sink: &mut dyn Sink,
    stop: &AtomicBool,
) -> Option<anyhow::Error> {
    let mut first_error = None;
    let mut cut = false;
    // Whatever has arrived by the time the journal is free is journaled together: one sync and
    // one wake-up of this thread for many games when games end faster than the disk syncs.
    while let Ok(first) = rx.recv() {
        let mut finished = Vec::new();
        for msg in std::iter::once(first).chain(rx.try_iter()) {
            match msg {
                // After a cut, what still arrives is of games the cut drops.
                _ if cut => {}
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
        match sink.arrived(finished) {
            Ok(Flow::Go) => {}
            Ok(Flow::Stop) => {
                cut = true;
                stop.store(true, Ordering::Relaxed);
            }
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
            }
        }
    }
    first_error
}

/// The games shared out to the worker threads.
struct Taking<'a> {
    next: AtomicUsize,
    stop: AtomicBool,
    plan: &'a Plan<'a>,
    ctx: &'a GameContext<'a>,
}

impl Taking<'_> {
    /// A worker thread: takes games in schedule order, each computed from its id when taken,
    /// until none is left or the league stops.
    fn play_games(&self, tx: &mpsc::Sender<anyhow::Result<GameResult>>) {
        let schedule = self.plan.schedule;
        while !self.stop.load(Ordering::Relaxed) && !interrupt::requested() {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            if k >= schedule.len() {
                break;
            }
            let id = if self.plan.cycle_major {
                schedule.cycle_major(k)
            } else {
                k
            };
            if self.plan.done[id] {
                continue;
            }
            let result = self.ctx.play_with_retries(&schedule.game(id), &self.stop);
            if tx.send(result).is_err() {
                break;
            }
        }
    }
}

struct GameContext<'a> {
    game: &'static dyn Game,
    host: &'a Host<'a>,
    /// The game's own settings, shared by every game's table.
    settings: Arc<crate::game::GameSettings>,
    cfg: &'a LeagueConfig,
    modules: &'a [&'a dyn Contestant],
    names: &'a [String],
    /// Shared by the records of every game, not copied into each.
    limits: Arc<serde_json::Value>,
    records: &'a Path,
}

impl GameContext<'_> {
    /// Plays `spec`, trying again after a failure of the host (an error or a panic) up to
    /// [`HOST_RETRIES`] times unless the league is stopping; the error says how often it failed,
    /// and stops the league.
    fn play_with_retries(&self, spec: &GameSpec, stop: &AtomicBool) -> anyhow::Result<GameResult> {
        let mut tries = 0;
        loop {
            tries += 1;
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.play(spec)))
                .unwrap_or_else(|p| Err(anyhow!("a worker panicked: {}", panic_text(&p))));
            match result {
                Ok(r) => return Ok(r),
                Err(_)
                    if tries <= HOST_RETRIES
                        && !stop.load(Ordering::Relaxed)
                        && !interrupt::requested() =>
                {
                    std::thread::sleep(RETRY_PAUSE);
                }
                Err(e) => {
                    // No worker starts another game once one has failed for good.
                    stop.store(true, Ordering::Relaxed);
                    return Err(e.context(format!(
                        "the host could not play game {} ({}) in {tries} tries; this is a failure of the machine or of the arena, not of an agent, and no result was recorded for it",
                        spec.id, spec.key
                    )));
                }
            }
        }
    }

    fn play(&self, spec: &GameSpec) -> anyhow::Result<GameResult> {
        let names: Vec<String> = spec.seats.iter().map(|&a| self.names[a].clone()).collect();
        let table = Table {
            seed: spec.seed,
            round_cap: self.cfg.round_cap,
            policy: self.cfg.fault_policy,
            settings: Arc::clone(&self.settings),
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
        let seats: Vec<_> = spec.seats.iter().map(|&a| self.modules[a].seat()).collect();
        let played = self.game.play(self.host, &table, &seats)?;
        let (file, bytes) = record_file(spec.id, played.record, self.cfg.compress_records_over)?;
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

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}
