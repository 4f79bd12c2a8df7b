//! The collector of `arena league --database`: reads the rows workers wrote, in schedule order,
//! checks each before it is published (its result is its scheduled game, its record verifies, is
//! that game with the league's agents and limits, and gives that result: `crate::audit`), writes
//! the record file and hands the result to the league's journal (`crate::league::executor::Sink`),
//! then marks the rows collected: a row is never marked before its game is journaled. A row that does not
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
use crate::league::executor::{Flow, Sink};
use crate::league::interrupt;
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

/// Collects results into `sink` until it holds every game (`Ok(true)`) or says stop
/// (`Ok(false)`). `done` is the games journaled already, by id.
pub(super) fn collect(
    rt: &tokio::runtime::Runtime,
    db: &Db,
    c: &Collecting,
    double: &mut DoublePlay,
    sink: &mut dyn Sink,
    mut done: Vec<bool>,
) -> anyhow::Result<bool> {
    let total = c.schedule.len();
    let mut looking = Looking {
        heartbeat: Instant::now(),
        last_progress: Instant::now(),
        told_to_wait: false,
        warned: false,
    };
    while sink.held() < total {
        if interrupt::requested() {
            return Err(anyhow::Error::new(interrupt::Interrupted {
                done: sink.held(),
                total,
                output: c.out.display().to_string(),
            }));
        }
        if c.local.is_some_and(|t| t.is_finished()) {
            bail!("the league's own workers stopped (see the messages above)");
        }
        let Some(batch) = next_batch(rt, db, c, &mut looking)? else {
            continue;
        };
        if batch.is_empty() {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let sorted = sort_batch(rt, db, c, double, &done, &batch);
        let flow = publish(c, sink, &mut done, sorted.new)?;
        looking.last_progress = Instant::now();
        // A failure here only leaves the rows to be refused or marked by the next look (or the
        // next run).
        if !sorted.refused.is_empty() {
            if let Err(e) = rt.block_on(db.refuse_league_results(c.league, &sorted.refused)) {
                eprintln!("warning: cannot put refused games back in the queue, trying again later: {e:#}");
            }
        }
        if let Err(e) = rt.block_on(db.collected(c.league, &sorted.games)) {
            eprintln!("warning: cannot mark games collected, trying again later: {e:#}");
        }
        if flow == Flow::Stop {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The collector's state between looks at the database.
struct Looking {
    /// When the driver last told the database it is alive.
    heartbeat: Instant,
    /// When a game last came in.
    last_progress: Instant,
    /// The user was told no worker is connected.
    told_to_wait: bool,
    /// The user was told the database cannot be read (and is to be told when it is back).
    warned: bool,
}

/// The next rows workers wrote; `None` when the database could not be read (said once, and
/// tried again after a pause: the league waits for the database to come back).
fn next_batch(
    rt: &tokio::runtime::Runtime,
    db: &Db,
    c: &Collecting,
    looking: &mut Looking,
) -> anyhow::Result<Option<Vec<Collected>>> {
    match rt.block_on(look(db, c, looking)) {
        Ok(batch) => {
            if looking.warned {
                eprintln!("note: the database is back");
                looking.warned = false;
            }
            Ok(Some(batch))
        }
        Err(e) if is_database_error(&e) => {
            if !looking.warned {
                let e = rt.block_on(db.explain(e));
                eprintln!("warning: cannot read the league's results, trying again: {e:#}");
                looking.warned = true;
            }
            std::thread::sleep(Duration::from_secs(1));
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// One look at the database: the heartbeat when it is due, then the rows workers wrote. With
/// none, whether a worker could not play a game (which stops the league) and, after a while with
/// no game coming in, whether any worker is there at all.
async fn look(
    db: &Db,
    c: &Collecting<'_>,
    looking: &mut Looking,
) -> anyhow::Result<Vec<Collected>> {
    if looking.heartbeat.elapsed() >= HEARTBEAT {
        if !db.drive_league(c.league, c.driver, now_ms()).await? {
            bail!("another `arena league` took this league over");
        }
        looking.heartbeat = Instant::now();
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
        if !looking.told_to_wait
            && !c.quiet
            && looking.last_progress.elapsed() > Duration::from_secs(10)
        {
            let workers = db.worker_threads_since(now_ms() - 60_000).await?;
            if workers == 0 {
                eprintln!(
                    "waiting for workers: none is connected to the database; start \
                     `arena worker --database URL` on any machine (or run this league \
                     with --threads N to play here too)"
                );
                looking.told_to_wait = true;
            }
        }
    }
    Ok(batch)
}

/// What a batch of rows comes to.
#[derive(Default)]
struct Sorted {
    /// Games to journal, with their records' bytes.
    new: Vec<(GameResult, Vec<u8>)>,
    /// Rows to mark collected: the new games and those journaled already.
    games: Vec<i64>,
    /// Rows refused: their games go back to the queue.
    refused: Vec<i64>,
}

/// Checks every row of `batch` and settles the games played twice.
fn sort_batch(
    rt: &tokio::runtime::Runtime,
    db: &Db,
    c: &Collecting,
    double: &mut DoublePlay,
    done: &[bool],
    batch: &[Collected],
) -> Sorted {
    let verdicts = check_all(c, done, batch);
    let mut sorted = Sorted::default();
    for (item, verdict) in batch.iter().zip(verdicts) {
        match verdict {
            // Journaled already (a run stopped before marking it collected).
            Verdict::Journaled => sorted.games.push(item.game),
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
                sorted.refused.push(item.game);
            }
            Verdict::Good(r) => match settle(rt, db, c, double, item, r) {
                Settling::Publish(r, record) => {
                    sorted.games.push(item.game);
                    sorted.new.push((*r, record));
                }
                Settling::Again => {}
                Settling::Refused => sorted.refused.push(item.game),
            },
        }
    }
    sorted
}

/// What becomes of a good row.
enum Settling {
    /// Its game is journaled, with this record.
    Publish(Box<GameResult>, Vec<u8>),
    /// Its game is being played a second time; it is journaled when both plays are in.
    Again,
    /// Its game goes back to the queue.
    Refused,
}

/// A good row `item` with its result `r`: published, unless it is chosen to be played twice
/// (then sent to be played again by a worker of another name) or is the second play of a game
/// whose two records differ (then decided here, or refused when it cannot be played here).
fn settle(
    rt: &tokio::runtime::Runtime,
    db: &Db,
    c: &Collecting,
    double: &mut DoublePlay,
    item: &Collected,
    r: GameResult,
) -> Settling {
    let first = match &item.first {
        None if double.choose() => {
            let by = LeaseOwner::name_of(&item.played_by);
            if let Err(e) =
                rt.block_on(db.play_league_game_again(c.league, item.game, by, now_ms()))
            {
                eprintln!(
                    "warning: game {}: cannot send it to be played again, trying later: {e:#}",
                    item.game
                );
            }
            return Settling::Again;
        }
        None => return Settling::Publish(Box::new(r), item.record.clone()),
        Some(first) => first,
    };
    match double.settle(item, first) {
        Settled::Same => Settling::Publish(Box::new(r), item.record.clone()),
        Settled::Decided {
            result,
            record,
            wrong,
        } => {
            for w in &wrong {
                eprintln!(
                    "warning: game {}: worker {w} wrote a record its agents do not play (the \
                     game played twice gave two records; played here, it gives another): its \
                     games cannot be trusted; this league keeps the game as played here",
                    item.game
                );
            }
            Settling::Publish(result, record)
        }
        Settled::Undecided(why) => {
            eprintln!(
                "warning: game {}: played twice, by {} and by {}, it gave two records, and it \
                 cannot be played here to tell which is right ({why}); it goes back to the queue",
                item.game, first.by, item.played_by
            );
            Settling::Refused
        }
    }
}

/// Writes the record files of `new` into the output folder and hands the games to the journal.
fn publish(
    c: &Collecting,
    sink: &mut dyn Sink,
    done: &mut [bool],
    new: Vec<(GameResult, Vec<u8>)>,
) -> anyhow::Result<Flow> {
    if new.is_empty() {
        return Ok(Flow::Go);
    }
    let mut results = Vec::with_capacity(new.len());
    for (r, record) in new {
        done[r.id] = true;
        let path = c.out.join(&r.record);
        std::fs::write(&path, &record)
            .with_context(|| format!("cannot write {}", path.display()))?;
        results.push(r);
    }
    sink.arrived(results)
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
