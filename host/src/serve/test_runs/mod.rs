//! Test runs: the editor's **Test** (`POST /api/tests`). The contestant's sources are built
//! and checked as an upload of sources is (the same build in its confined child, the same
//! check), in the same fair queue as uploads ([`super::checks`]: one check or test per
//! contestant at a time, contestants in turn), then play `uploads.test_pairs` seat-swapped pairs
//! of games against each opponent the contestant picked: a built-in example agent of the game
//! (`builtin:NAME`, as `arena agents` lists them) or an agent on the ladder (its playing
//! version). Nothing is written to the database: no version, no ladder game, no rating.
//!
//! The games' records are kept in memory for [`KEEP_MS`] (at most [`KEEP_PER_CONTESTANT`] runs
//! a contestant), under an unguessable id, and served to the tester only, with the debug logs of
//! the tested agent only: `/replays/tests/ID/game.html?game=N`. Runs are limited to
//! `uploads.tests_per_hour` a contestant. Building, checking and playing a run is `play.rs`.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tokio::sync::oneshot;

use super::db::Contestant;
use super::sources::Sources;
use super::App;
use crate::jobs::now_ms;

mod play;

/// How long a test run's replays are kept.
pub const KEEP_MS: i64 = 3_600_000;

/// Test runs kept a contestant (the oldest goes first).
pub const KEEP_PER_CONTESTANT: usize = 5;

/// Most opponents of one test run.
pub const MAX_OPPONENTS: usize = 4;

/// An opponent, resolved: the name it was picked by, its name in the games, its module.
pub struct Opponent {
    pub picked: String,
    pub label: String,
    pub bytes: Vec<u8>,
}

/// What a contestant may pick: the game's built-in agents and the agents on the ladder, as
/// (value to send, label to show).
pub fn choices(app: &App) -> Vec<(String, String)> {
    let game = app.challenge.game.name();
    let mut out: Vec<(String, String)> = crate::builtin::all()
        .filter(|b| b.game == game)
        .map(|b| {
            (
                b.spelled(),
                format!("{} (built-in: {})", b.spelled(), b.summary),
            )
        })
        .collect();
    let mut ladder = app.board.active();
    ladder.sort_by(|a, b| a.name.cmp(&b.name));
    out.extend(
        ladder
            .into_iter()
            .map(|v| (v.name.clone(), format!("{} (on the ladder)", v.label()))),
    );
    out
}

/// The opponents named `picked`: `builtin:NAME` for a built-in agent of the challenge's game, or
/// the name of a contestant whose agent plays on the ladder. An error names the one that is
/// neither (the request's fault: 422).
pub async fn resolve(app: &App, picked: &[String]) -> Result<Vec<Opponent>, String> {
    if picked.len() > MAX_OPPONENTS {
        return Err(format!(
            "{} opponents: a test plays at most {MAX_OPPONENTS}",
            picked.len()
        ));
    }
    let game = app.challenge.game.name();
    let mut out = Vec::with_capacity(picked.len());
    for name in picked {
        let name = name.trim();
        if let Some(short) = name.strip_prefix(crate::builtin::PREFIX) {
            let b = crate::builtin::all()
                .find(|b| b.name == short && b.game == game)
                .ok_or_else(|| {
                    format!("unknown opponent {name:?}: no built-in agent of {game} has this name")
                })?;
            out.push(Opponent {
                picked: name.to_owned(),
                label: b.spelled(),
                bytes: b.bytes.to_vec(),
            });
            continue;
        }
        let v = app
            .board
            .active()
            .into_iter()
            .find(|v| v.name == name)
            .ok_or_else(|| {
                format!(
                    "unknown opponent {name:?}: neither a built-in agent (builtin:NAME) nor a \
                     contestant whose agent plays on the ladder"
                )
            })?;
        let (label, sha) = app
            .db
            .version_file(v.id)
            .await
            .map_err(|e| format!("opponent {name:?} cannot be read: {e:#}"))?;
        let storage = app.storage.clone();
        let bytes = tokio::task::spawn_blocking(move || storage.agent(&sha))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| format!("opponent {name:?} cannot be read: {e:#}"))?;
        out.push(Opponent {
            picked: name.to_owned(),
            label,
            bytes,
        });
    }
    Ok(out)
}

/// A test run waiting in the check queue.
pub struct Job {
    pub contestant_id: i64,
    pub name: String,
    pub sources: Sources,
    pub opponents: Vec<Opponent>,
    pub reply: oneshot::Sender<anyhow::Result<Report>>,
}

/// One game of a test run.
#[derive(Clone, Debug, Serialize)]
pub struct TestGame {
    /// 1, 2, ...: the game's number in the run (`game.html?game=N`).
    pub game: usize,
    /// Who sat where.
    pub seats: Vec<String>,
    /// The seat of the tested agent.
    pub seat: usize,
    pub outcome: crate::game::Outcome,
    /// `won`, `lost` or `draw`, for the tested agent.
    pub result: &'static str,
    pub scores: Option<Vec<i64>>,
    /// Faults of the tested agent in this game.
    pub faults: usize,
    pub replay: String,
    pub record: String,
}

/// One fault of the tested agent, shown once with the count of games' decisions it happened in.
#[derive(Clone, Debug, Serialize)]
pub struct FaultCount {
    pub kind: String,
    pub detail: String,
    pub count: usize,
}

/// What a test run answers.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Its id: its replays are under `/replays/tests/ID/`.
    pub test: String,
    /// Whether the sources built and passed the check (as an upload would).
    pub accepted: bool,
    pub reason: Option<String>,
    /// The build's error, or the check's report (a fault's traceback once, with its count).
    pub report: String,
    pub games: Vec<TestGame>,
    /// The tested agent's faults in the games, each distinct one once.
    pub faults: Vec<FaultCount>,
    /// Until when the replays are kept (milliseconds since 1970).
    pub kept_until_ms: i64,
}

/// A finished run's records, as its tester may see them.
struct Kept {
    contestant: i64,
    made_ms: i64,
    records: Vec<String>,
}

/// The hourly limit of test runs and the runs' records.
#[derive(Default)]
pub struct Tests {
    started: Mutex<HashMap<i64, VecDeque<i64>>>,
    kept: Mutex<HashMap<String, Kept>>,
}

impl Tests {
    /// Counts a run of `contestant` at `now` if fewer than `per_hour` began in the last hour;
    /// else the seconds until one may begin.
    pub fn start(&self, contestant: i64, per_hour: u32, now: i64) -> Result<(), u64> {
        let mut started = self.started.lock().unwrap_or_else(|p| p.into_inner());
        let times = started.entry(contestant).or_default();
        while times.front().is_some_and(|&t| t <= now - 3_600_000) {
            times.pop_front();
        }
        if times.len() >= per_hour as usize {
            let oldest = times.front().copied().unwrap_or(now);
            return Err(((oldest + 3_600_000 - now).clamp(1000, 3_600_000) as u64).div_ceil(1000));
        }
        times.push_back(now);
        Ok(())
    }

    /// Whether `contestant` may start a run now (not counted).
    pub fn room(&self, contestant: i64, per_hour: u32, now: i64) -> Result<(), u64> {
        let started = self.started.lock().unwrap_or_else(|p| p.into_inner());
        let recent: Vec<i64> = started
            .get(&contestant)
            .map(|t| t.iter().copied().filter(|&t| t > now - 3_600_000).collect())
            .unwrap_or_default();
        if recent.len() >= per_hour as usize {
            let oldest = recent.first().copied().unwrap_or(now);
            return Err(((oldest + 3_600_000 - now).clamp(1000, 3_600_000) as u64).div_ceil(1000));
        }
        Ok(())
    }

    /// Keeps a run's records; forgets runs past [`KEEP_MS`] and a contestant's oldest past
    /// [`KEEP_PER_CONTESTANT`].
    fn keep(&self, id: String, contestant: i64, records: Vec<String>, now: i64) {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        kept.retain(|_, k| k.made_ms > now - KEEP_MS);
        let mut own: Vec<(i64, String)> = kept
            .iter()
            .filter(|(_, k)| k.contestant == contestant)
            .map(|(id, k)| (k.made_ms, id.clone()))
            .collect();
        own.sort();
        let over = (own.len() + 1).saturating_sub(KEEP_PER_CONTESTANT);
        for (_, old) in own.into_iter().take(over) {
            kept.remove(&old);
        }
        kept.insert(
            id,
            Kept {
                contestant,
                made_ms: now,
                records,
            },
        );
    }

    /// The record of game `n` (1, 2, ...) of run `id`, for `viewer` only: `None` for anyone else,
    /// as for a run that does not exist or was forgotten.
    pub fn record(&self, id: &str, n: usize, viewer: Option<i64>) -> Option<String> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        let k = kept.get(id)?;
        if Some(k.contestant) != viewer || k.made_ms <= now_ms() - KEEP_MS {
            return None;
        }
        k.records.get(n.checked_sub(1)?).cloned()
    }
}

/// Runs a test from the check queue: builds, checks, plays, keeps the records. An error is the
/// server's own failure.
pub async fn run(app: &Arc<App>, job: Job) {
    let a = Arc::clone(app);
    let contestant = job.contestant_id;
    let Job {
        name,
        sources,
        opponents,
        reply,
        ..
    } = job;
    let result =
        tokio::task::spawn_blocking(move || play::run_blocking(&a, &name, &sources, &opponents))
            .await
            .map_err(|e| anyhow::anyhow!("the test failed: {e}"))
            .and_then(|r| r);
    let result = result.map(|(mut report, records)| {
        let now = now_ms();
        report.kept_until_ms = now + KEEP_MS;
        app.tests
            .keep(report.test.clone(), contestant, records, now);
        report
    });
    // Nobody listening (the client went away) is fine: nothing was written.
    let _ = reply.send(result);
}

/// Whether `who` may start a test now: submissions open, not taken out, under the hourly limit
/// (checked again, and counted, when the run is queued: [`take`]).
pub async fn admit(app: &App, who: &Contestant) -> Result<(), super::uploads::Refusal> {
    use super::uploads::Refusal;
    if let Some(why) = app.submissions_closed().await? {
        return Err(Refusal::Closed(why));
    }
    if who.disabled {
        return Err(Refusal::Closed(
            "the host has taken you out of this challenge: tests are refused",
        ));
    }
    under_hourly_limit(app, who, Tests::room)
}

/// `check` ([`Tests::room`] asks, [`Tests::start`] counts the run too) on `who`'s tests of the
/// last hour: over the limit, a refusal that says when to try again.
fn under_hourly_limit(
    app: &App,
    who: &Contestant,
    check: fn(&Tests, i64, u32, i64) -> Result<(), u64>,
) -> Result<(), super::uploads::Refusal> {
    let per_hour = app.challenge.uploads.tests_per_hour;
    check(&app.tests, who.id, per_hour, now_ms()).map_err(|retry_after_s| {
        super::uploads::Refusal::TestsLimited {
            per_hour,
            retry_after_s,
        }
    })
}

/// Counts the run against the hourly limit, queues it and waits for its report.
pub async fn take(
    app: &Arc<App>,
    who: &Contestant,
    sources: Sources,
    opponents: Vec<Opponent>,
) -> Result<Report, super::uploads::Refusal> {
    use super::uploads::Refusal;
    under_hourly_limit(app, who, Tests::start)?;
    let (tx, rx) = oneshot::channel();
    app.checks.submit_test(
        app,
        Job {
            contestant_id: who.id,
            name: who.name.clone(),
            sources,
            opponents,
            reply: tx,
        },
    );
    match rx.await {
        Ok(Ok(report)) => Ok(report),
        Ok(Err(e)) => Err(Refusal::Internal(e)),
        Err(_) => Err(Refusal::Internal(anyhow::anyhow!(
            "the test ended without a report"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hourly_limit_counts_runs_of_the_last_hour_only() {
        let t = Tests::default();
        assert_eq!(t.start(1, 2, 1_000_000), Ok(()));
        assert_eq!(t.start(1, 2, 1_500_000), Ok(()));
        assert_eq!(t.room(1, 2, 1_600_000), Err(3000));
        assert_eq!(t.start(1, 2, 1_600_000), Err(3000));
        assert_eq!(t.start(2, 2, 1_600_000), Ok(()), "another contestant");
        assert_eq!(
            t.start(1, 2, 4_600_001),
            Ok(()),
            "the first run is an hour old"
        );
    }

    #[test]
    fn records_are_the_testers_only_and_the_oldest_runs_are_forgotten() {
        let t = Tests::default();
        let now = now_ms();
        for i in 0..KEEP_PER_CONTESTANT + 1 {
            t.keep(format!("run{i}"), 7, vec![format!("r{i}")], now + i as i64);
        }
        assert_eq!(
            t.record("run0", 1, Some(7)),
            None,
            "the oldest was forgotten"
        );
        assert_eq!(t.record("run1", 1, Some(7)).as_deref(), Some("r1"));
        assert_eq!(t.record("run1", 1, Some(8)), None, "someone else");
        assert_eq!(t.record("run1", 1, None), None, "a visitor");
        assert_eq!(t.record("run1", 2, Some(7)), None, "no such game");
        assert_eq!(t.record("run1", 0, Some(7)), None);
        t.keep("late".into(), 8, vec![], now + KEEP_MS + 10);
        assert_eq!(
            t.record("run5", 1, Some(7)),
            None,
            "forgotten after KEEP_MS"
        );
    }
}
