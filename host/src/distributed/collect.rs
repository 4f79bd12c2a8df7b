//! The collector of `arena league --database`: reads the rows workers wrote, in schedule order,
//! checks each before it is published (its result is its scheduled game, its record verifies, is
//! that game with the league's agents and limits, and gives that result: `crate::audit`), writes
//! the record file and journals the result, then marks the rows collected. A row that does not
//! hold together is refused: its game goes back to the queue, the worker that wrote it is named,
//! and the league goes on. A sample of the games is played twice (`super::double_play`).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use super::double_play::{DoublePlay, Settled};
use super::worker;
use crate::audit::{self, Settings};
use crate::jobs::league_queue::Collected;
use crate::jobs::lease::LeaseOwner;
use crate::jobs::now_ms;
use crate::jobs::Db;
use crate::league::interrupt;
use crate::league::progress::Progress;
use crate::league::result::GameResult;
use crate::league::runner::RECORDS_DIR;
use crate::league::schedule::Schedule;

/// How often the driver tells the database it is alive.
const HEARTBEAT: Duration = Duration::from_secs(2);
/// Results collected at once.
const COLLECT: i64 = 256;

pub(super) struct Collecting<'a> {
    pub(super) league: i64,
    pub(super) driver: &'a str,
    pub(super) schedule: &'a Schedule,
    /// The settings the league publishes, and its agents' names: what records are checked
    /// against.
    pub(super) settings: &'a Settings,
    pub(super) names: &'a [String],
    pub(super) out: &'a Path,
    pub(super) quiet: bool,
    pub(super) local: Option<&'a std::thread::JoinHandle<anyhow::Result<worker::Summary>>>,
}

/// Collects results until the journal holds every game. Returns how many it collected.
#[allow(clippy::too_many_arguments)]
pub(super) fn collect(
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
