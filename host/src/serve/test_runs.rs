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
//! `uploads.tests_per_hour` a contestant.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tokio::sync::oneshot;

use super::build::Failure;
use super::db::Contestant;
use super::engine::{self, run_with_big_stack, Agent, GameResult};
use super::sources::Sources;
use super::{now_ms, App};

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
    let result = tokio::task::spawn_blocking(move || run_blocking(&a, &name, &sources, &opponents))
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

fn run_blocking(
    app: &App,
    name: &str,
    sources: &Sources,
    opponents: &[Opponent],
) -> anyhow::Result<(Report, Vec<String>)> {
    let test = super::auth::new_token()?;
    let mut report = Report {
        test: test.clone(),
        accepted: false,
        reason: None,
        report: String::new(),
        games: Vec::new(),
        faults: Vec::new(),
        kept_until_ms: 0,
    };
    let me = format!("{name} (test)");
    let started = std::time::Instant::now();
    let component = match app.builds.build(sources) {
        Ok(c) => c,
        Err(Failure::Build(message)) => {
            let reason = format!("the {} build failed", sources.lang.name());
            report.report = format!(
                "building {name} ({})\n{message}\n\nFAIL:\n  {reason}\n",
                sources.entry
            );
            report.reason = Some(reason);
            return Ok((report, Vec::new()));
        }
        Err(Failure::Server(e)) => return Err(e),
    };
    let took = started.elapsed().as_secs_f64();
    let verdict = app
        .engine
        .check(&me, &component, app.challenge.uploads.check_games)?;
    report.report = format!(
        "built {} ({}) in {took:.1} s\n{}",
        sources.entry,
        sources.lang.name(),
        verdict.report
    );
    report.accepted = verdict.accepted;
    report.reason = verdict.reason;
    if !verdict.accepted {
        return Ok((report, Vec::new()));
    }
    let mine = app.engine.load(&me, &component)?;
    let players = app.challenge.players_per_game;
    let pairs = app.challenge.uploads.test_pairs;
    // A solo game plays the tested agent alone; otherwise each opponent fills the other seats.
    let groups: Vec<Option<(&Opponent, Agent)>> = if players == 1 {
        vec![None]
    } else {
        let mut g = Vec::new();
        for o in opponents {
            let agent = app.engine.load(&o.label, &o.bytes).map_err(|e| {
                anyhow::anyhow!("the opponent {:?} cannot be loaded: {e:#}", o.picked)
            })?;
            g.push(Some((o, agent)));
        }
        g
    };
    let mut records = Vec::new();
    let mut faults: BTreeMap<(String, String), usize> = BTreeMap::new();
    for group in &groups {
        for pair in 0..pairs {
            // Every game of a pair has the same seed: the same dice, the seats rotated.
            let seed = u64::from(pair) + 1;
            for seat in 0..players {
                let n = records.len() + 1;
                let mut agents: Vec<&Agent> = Vec::with_capacity(players);
                let mut names = Vec::with_capacity(players);
                for s in 0..players {
                    match group {
                        Some((o, a)) if s != seat => {
                            agents.push(a);
                            names.push(o.label.clone());
                        }
                        _ => {
                            agents.push(&mine);
                            names.push(me.clone());
                        }
                    }
                }
                let url = format!("/replays/tests/{test}/games/game-{n:06}.jsonl");
                let played = run_with_big_stack(|| {
                    app.engine
                        .play(&agents, &names, seed, n, &format!("test {n}"), &url)
                })?;
                let text = String::from_utf8(played.record)
                    .map_err(|_| anyhow::anyhow!("a record that is not UTF-8"))?;
                let text = engine::redact_logs(&text, &|s| s == seat)?;
                records.push(text);
                let r: &GameResult = &played.result;
                let own: Vec<_> = r.faults.iter().filter(|f| f.seat == seat).collect();
                for f in &own {
                    *faults
                        .entry((f.kind.clone(), f.detail.clone()))
                        .or_default() += 1;
                }
                report.games.push(TestGame {
                    game: n,
                    seats: names,
                    seat,
                    outcome: r.outcome,
                    result: match r.outcome.winner() {
                        Some(w) if w == seat => "won",
                        Some(_) => "lost",
                        None => "draw",
                    },
                    scores: r.scores.clone(),
                    faults: own.len(),
                    replay: format!("/replays/tests/{test}/game.html?game={n}"),
                    record: url,
                });
            }
        }
    }
    report.faults = faults
        .into_iter()
        .map(|((kind, detail), count)| FaultCount {
            kind,
            detail,
            count,
        })
        .collect();
    Ok((report, records))
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
    let per_hour = app.challenge.uploads.tests_per_hour;
    app.tests
        .room(who.id, per_hour, now_ms())
        .map_err(|retry_after_s| Refusal::TestsLimited {
            per_hour,
            retry_after_s,
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
    let per_hour = app.challenge.uploads.tests_per_hour;
    app.tests
        .start(who.id, per_hour, now_ms())
        .map_err(|retry_after_s| Refusal::TestsLimited {
            per_hour,
            retry_after_s,
        })?;
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
