//! Plays a league: loads every agent up front, plays the pending games on worker threads, journals
//! each result as it arrives, and computes the standings.
//!
//! A game is a fact about its agents only when the host could play it properly. When the host
//! itself fails (`Game::play` returns an error: an instance pool exhausted, memory that cannot be
//! reserved, a compile child that died, a record that cannot be written; or a worker panics), the
//! game is not a result: it is tried again [`HOST_RETRIES`] times, [`RETRY_PAUSE`] apart, and if
//! it still fails the league stops with the error, keeping every game finished so far for
//! `--resume`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};

use super::config::LeagueConfig;
use super::contestant::Contestant;
use super::folder::{self, Header, Start};
use super::interrupt;
use super::lock::FolderLock;
use super::output::{self, Summary};
use super::progress::Progress;
use super::result::GameResult;
use super::schedule::{GameSpec, Schedule};
use super::standings::{self, Standings};
use crate::game::{Game, Host, Table};
use crate::records::RecordMeta;
use crate::sandbox::WORKER_STACK_BYTES;

pub const RECORDS_DIR: &str = "records";

/// Times a game the host failed to play is tried again before the league stops.
pub const HOST_RETRIES: u32 = 2;
/// Pause before each new try: time for whatever the host lacked (instances, memory) to be freed.
pub const RETRY_PAUSE: Duration = Duration::from_millis(250);

#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Continue the league journaled in the output folder.
    pub resume: bool,
    /// With `resume`: the league may have grown by new agents since it was started; its games are
    /// kept and only the new ones are played.
    pub extend: bool,
    /// Discard an earlier league in the output folder.
    pub fresh: bool,
    /// Overrides the league file's `threads`.
    pub threads: Option<usize>,
    /// No progress output.
    pub quiet: bool,
}

pub struct LeagueRun {
    pub standings: Standings,
    pub results: Vec<GameResult>,
    pub output: PathBuf,
    /// Games played by this run (the rest came from the journal).
    pub played: usize,
    /// The output folder's lock: no other process writes the folder while this is held (e.g.
    /// while the caller writes the report).
    pub lock: FolderLock,
}

/// Plays (or resumes) the league `cfg` of `game` with `contestants[i]` for `cfg.agents[i]`, the
/// games using `host`. `limits` is recorded with every game and in the standings.
pub fn play_league(
    game: &'static dyn Game,
    host: &Host<'_>,
    cfg: &LeagueConfig,
    contestants: &[&dyn Contestant],
    limits_json: &serde_json::Value,
    opts: &RunOptions,
) -> anyhow::Result<LeagueRun> {
    let lock = folder::lock(&cfg.output)?;
    play_league_locked(game, host, cfg, contestants, limits_json, opts, lock)
}

/// [`play_league`] in an output folder this process has locked already (see [`folder::lock`]):
/// a league of sandboxed agents takes the lock before loading them, so that a second run is
/// turned away at once.
pub fn play_league_locked(
    game: &'static dyn Game,
    host: &Host<'_>,
    cfg: &LeagueConfig,
    contestants: &[&dyn Contestant],
    limits_json: &serde_json::Value,
    opts: &RunOptions,
    lock: FolderLock,
) -> anyhow::Result<LeagueRun> {
    play_league_watched(game, host, cfg, contestants, limits_json, opts, lock, None)
}

/// Something that follows a league's results as they come, and may end it early: `arena match`
/// runs its sequential test this way.
pub trait Watcher {
    /// Called on the journaling thread for each result once it is journaled, in the order the
    /// games end (not schedule order). `Some(cycles)` ends the league there, cut to the first
    /// `cycles` cycles of every group: every game of those cycles must have ended already.
    fn journaled(&mut self, result: &GameResult) -> Option<usize>;
}

/// [`play_league_locked`], with a `watcher` that sees every result. A watched league starts its
/// games cycle by cycle ([`Schedule::cycle_major`]), so that the games of one cycle end close
/// together. When the watcher cuts the league, the games already running finish and are
/// discarded, and the folder is left as the league of `cycles * players_per_game` games per
/// group would leave it (its records renumbered, its journal rewritten, its standings of that
/// league): it verifies and reports as that league.
#[allow(clippy::too_many_arguments)]
pub fn play_league_watched(
    game: &'static dyn Game,
    host: &Host<'_>,
    cfg: &LeagueConfig,
    contestants: &[&dyn Contestant],
    limits_json: &serde_json::Value,
    opts: &RunOptions,
    lock: FolderLock,
    mut watcher: Option<&mut dyn Watcher>,
) -> anyhow::Result<LeagueRun> {
    let modules = contestants;
    let names: Vec<String> = cfg.agents.iter().map(|a| a.name.clone()).collect();
    assert_eq!(game.name(), cfg.game.name(), "the league's game");
    let schedule = Schedule::new(&names, cfg.players_per_game, cfg.games_per_group, cfg.seed)?;
    let settings = settings_json(cfg, limits_json, &hashes(modules));
    let fingerprint = crate::records::sha256_hex(settings.to_string().as_bytes());

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

    let done = done_games(&schedule, &results)?;
    let pending = schedule.len() - results.len();
    let mut progress = Progress::new(schedule.len() as u64, results.len() as u64, opts.quiet);
    let threads = opts.threads.unwrap_or_else(|| cfg.worker_threads()).max(1);

    let ctx = GameContext {
        game,
        host,
        settings: Arc::new(cfg.settings.clone()),
        cfg,
        modules,
        names: &names,
        limits: Arc::new(limits_json.clone()),
        records: &records,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let cycle_major = watcher.is_some();
    let mut cut: Option<usize> = None;
    if let Some(w) = watcher.as_deref_mut() {
        // Games a resumed league had already played come first.
        for r in &results {
            cut = cut.or_else(|| w.journaled(r));
        }
        stop.store(cut.is_some(), Ordering::Relaxed);
    }
    let (tx, rx) = mpsc::channel::<anyhow::Result<GameResult>>();
    let mut first_error = None;
    let mut played = 0;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for w in 0..threads.min(pending) {
            let tx = tx.clone();
            let (ctx, next, stop, done, schedule) = (&ctx, &next, &stop, &done, &schedule);
            std::thread::Builder::new()
                .name(format!("league-worker-{w}"))
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    // Games are taken in schedule order, each computed from its id when taken.
                    while !stop.load(Ordering::Relaxed) && !interrupt::requested() {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= schedule.len() {
                            break;
                        }
                        let id = if cycle_major {
                            schedule.cycle_major(k)
                        } else {
                            k
                        };
                        if done[id] {
                            continue;
                        }
                        let result = ctx.play_with_retries(&schedule.game(id), stop);
                        if tx.send(result).is_err() {
                            break;
                        }
                    }
                })
                .context("cannot start a worker thread")?;
        }
        drop(tx);
        // Whatever has arrived by the time the journal is free is journaled together: one sync
        // and one wake-up of this thread for many games when games end faster than the disk
        // syncs.
        let mut finished = Vec::new();
        while let Ok(first) = rx.recv() {
            for msg in std::iter::once(first).chain(rx.try_iter()) {
                match msg {
                    // After a cut, what still arrives is of games the cut drops.
                    _ if cut.is_some() => {}
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
            if let Err(e) = journal.append_all(&finished) {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
                finished.clear();
                continue;
            }
            for r in finished.drain(..) {
                if cut.is_none() {
                    if let Some(w) = watcher.as_deref_mut() {
                        cut = w.journaled(&r);
                        if cut.is_some() {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
                results.push(r);
                played += 1;
                progress.game_done();
            }
        }
        Ok(())
    })?;
    progress.finish();
    if interrupt::requested() && results.len() < schedule.len() {
        // A game cut short by Ctrl-C (its compiler child killed with it) is no failure to report.
        return Err(anyhow::Error::new(interrupt::Interrupted {
            done: results.len(),
            total: schedule.len(),
            output: out.display().to_string(),
        }));
    }
    if let Some(e) = first_error {
        return Err(e.context(format!(
            "league stopped; the {} finished games are kept in {} and `arena league --resume` continues it",
            results.len(),
            out.display()
        )));
    }

    let mut cfg = cfg;
    let cut_cfg;
    if let Some(cycles) = cut {
        cut_cfg = cut_league(
            cfg,
            &schedule,
            cycles,
            &mut results,
            &out,
            limits_json,
            modules,
        )?;
        cfg = &cut_cfg;
    }
    results.sort_by_key(|r| r.id);
    let standings = standings::compute(&names, &results);
    let summary = Summary {
        league: &cfg.name,
        settings: settings_json(cfg, limits_json, &hashes(modules)),
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

/// Cuts the league `cfg` (played in `out` by `schedule`) to its first `cycles` cycles per group:
/// drops the records of later games, gives the kept ones the ids of the smaller league (renaming
/// their records) and rewrites the journal as that league's. Returns the smaller league.
fn cut_league(
    cfg: &LeagueConfig,
    schedule: &Schedule,
    cycles: usize,
    results: &mut Vec<GameResult>,
    out: &Path,
    limits_json: &serde_json::Value,
    modules: &[&dyn Contestant],
) -> anyhow::Result<LeagueConfig> {
    let mut cut = cfg.clone();
    cut.games_per_group = u32::try_from(cycles * cfg.players_per_game)
        .ok()
        .filter(|&g| g > 0 && g <= cfg.games_per_group)
        .ok_or_else(|| {
            anyhow!(
                "cannot cut a league of {} games per group to {cycles} cycles",
                cfg.games_per_group
            )
        })?;
    let mut kept = Vec::with_capacity(results.len());
    for r in results.drain(..) {
        if let Some(id) = schedule.id_when_cut(r.id, cycles) {
            kept.push((id, r));
        }
    }
    // A kept game's new id is at most its old one, and the file under its new id is a dropped
    // game's (swept below) or a kept game's with a smaller new id (renamed before it).
    kept.sort_by_key(|(id, _)| *id);
    for (id, r) in &mut kept {
        if *id != r.id {
            let suffix = if r.record.ends_with(".gz") { ".gz" } else { "" };
            let record = format!("{RECORDS_DIR}/game-{id:06}.jsonl{suffix}");
            std::fs::rename(out.join(&r.record), out.join(&record))
                .with_context(|| format!("cannot rename {} to {record}", r.record))?;
            r.id = *id;
            r.record = record;
        }
    }
    // Every other record goes: the dropped games', including those that ended after the cut
    // (their results were never journaled, but their workers wrote their records).
    let keep: std::collections::HashSet<std::path::PathBuf> =
        kept.iter().map(|(_, r)| out.join(&r.record)).collect();
    let records = out.join(RECORDS_DIR);
    let read = || format!("cannot read {}", records.display());
    for entry in std::fs::read_dir(&records).with_context(read)? {
        let path = entry.with_context(read)?.path();
        if !keep.contains(&path) {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        }
    }
    results.extend(kept.into_iter().map(|(_, r)| r));
    anyhow::ensure!(
        results.len()
            == schedule.len() / (cfg.games_per_group as usize) * cut.games_per_group as usize,
        "the league was cut to {cycles} cycles before all of their games had ended"
    );
    // The journal becomes the smaller league's: its header, settings and the games it kept.
    let settings = settings_json(&cut, limits_json, &hashes(modules));
    let fingerprint = crate::records::sha256_hex(settings.to_string().as_bytes());
    let games = results.len();
    super::journal::Journal::write(
        out,
        &fingerprint,
        &cut.name,
        games,
        Some(&settings),
        results,
    )?;
    Ok(cut)
}

/// Which games of `schedule` the journaled `results` already played, by id (one bit's worth of
/// memory per game, whatever the league's size). A result must be the scheduled game of its id.
pub(crate) fn done_games(schedule: &Schedule, results: &[GameResult]) -> anyhow::Result<Vec<bool>> {
    let mut done = vec![false; schedule.len()];
    for r in results {
        if r.id >= schedule.len() || schedule.key(r.id) != r.key {
            bail!(
                "the journal holds game {} ({}), which is not that game of this league's schedule",
                r.id,
                r.key
            );
        }
        if std::mem::replace(&mut done[r.id], true) {
            bail!("the journal holds game {} ({}) twice", r.id, r.key);
        }
    }
    Ok(done)
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

/// Game `id`'s record file in `records/` as a league keeps it: its name and its bytes,
/// gzip-compressed when the record is longer than `compress_over` bytes. Workers on other
/// machines make the same file (`crate::distributed`), so a league's folder has the same bytes
/// wherever its games were played.
pub fn record_file(
    id: usize,
    record: Vec<u8>,
    compress_over: u64,
) -> anyhow::Result<(String, Vec<u8>)> {
    let mut file = format!("game-{id:06}.jsonl");
    if record.len() as u64 <= compress_over {
        return Ok((file, record));
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&record)?;
    file.push_str(".gz");
    Ok((file, gz.finish()?))
}

fn hashes(modules: &[&dyn Contestant]) -> Vec<Option<String>> {
    modules.iter().map(|m| m.code_hash()).collect()
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

/// What a league's fingerprint is the hash of: its settings, the sandbox limits and its agents'
/// code hashes (kept in the journal's header and in `standings.json`).
pub fn settings_json(
    cfg: &LeagueConfig,
    limits: &serde_json::Value,
    hashes: &[Option<String>],
) -> serde_json::Value {
    let mut settings = serde_json::json!({
        "game": cfg.game.name(),
        "players_per_game": cfg.players_per_game,
        "games_per_group": cfg.games_per_group,
        "seed": cfg.seed,
        "round_cap": cfg.round_cap,
        "fault_policy": cfg.fault_policy,
        "limits": limits,
        "agents": cfg.agents.iter().zip(hashes).map(|(a, h)| serde_json::json!({
            "name": a.name,
            "sha256": h,
        })).collect::<Vec<_>>(),
    });
    // The game's own settings, when it has any (a league of a game without settings keeps the
    // settings it always had).
    if !cfg.settings.is_empty() {
        settings["game_settings"] = serde_json::Value::Object(cfg.settings.clone());
    }
    settings
}

/// Identifies everything that decides a league's results, so a resume with other settings or
/// other agent code is refused (the hash of its settings, as `play_league` computes it).
#[cfg(test)]
pub(super) fn fingerprint(
    cfg: &LeagueConfig,
    hashes: &[Option<String>],
    limits: &serde_json::Value,
) -> String {
    let settings = settings_json(cfg, limits, hashes);
    crate::records::sha256_hex(settings.to_string().as_bytes())
}
