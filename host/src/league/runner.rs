//! Drives a league, wherever its games are played: loads nothing itself (the agents come checked
//! from `super::agents` or a test's natives) but sets the league up (schedule, settings and
//! fingerprint, the output folder with its lock and journal, resume), has an
//! [`Executor`](super::executor) play the games it has not played yet, journals each result as it
//! arrives, and at the end writes the standings and files. A league played on this machine's
//! threads ([`LocalExecutor`]) and one played by workers through a database leave the same bytes
//! in the folder (only the journal's order of games may differ, as between two local runs with
//! several threads), because everything but the playing is this code.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};

use super::config::LeagueConfig;
use super::contestant::Contestant;
use super::cut::cut_league;
use super::executor::{Executor, Flow, Plan, Sink};
use super::folder::{self, Header, Start};
use super::interrupt;
use super::journal::Journal;
use super::local::LocalExecutor;
use super::lock::FolderLock;
use super::output::{self, Summary};
use super::progress::Progress;
use super::result::GameResult;
use super::schedule::Schedule;
use super::standings::{self, Standings};
use crate::game::{Game, Host};

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
    let league = League {
        game,
        host,
        cfg,
        contestants,
        limits: limits_json,
    };
    play_league_on(&league, opts, lock, None, &mut LocalExecutor)
}

/// Something that follows a league's results as they come, and may end it early: `arena match`
/// runs its sequential test this way.
pub trait Watcher {
    /// Called on the journaling thread for each result once it is journaled, in the order the
    /// games end (not schedule order). `Some(cycles)` ends the league there, cut to the first
    /// `cycles` cycles of every group: every game of those cycles must have ended already.
    fn journaled(&mut self, result: &GameResult) -> Option<usize>;
}

/// A league ready to be played: its game, its host, its file, and its contestants
/// (`contestants[i]` for `cfg.agents[i]`, loaded and checked), with the sandbox limits recorded
/// with every game and in the standings.
pub struct League<'a> {
    pub game: &'static dyn Game,
    pub host: &'a Host<'a>,
    pub cfg: &'a LeagueConfig,
    pub contestants: &'a [&'a dyn Contestant],
    pub limits: &'a serde_json::Value,
}

/// Plays (or resumes) `league` in its locked output folder (see [`folder::lock`]), its games
/// played by `executor`, with a `watcher` that sees every result if given. A watched league starts
/// its games cycle by cycle ([`Schedule::cycle_major`]), so that the games of one cycle end close
/// together. When the watcher cuts the league, the games already running finish and are
/// discarded, and the folder is left as the league of `cycles * players_per_game` games per
/// group would leave it (its records renumbered, its journal rewritten, its standings of that
/// league): it verifies and reports as that league.
pub fn play_league_on(
    league: &League<'_>,
    opts: &RunOptions,
    lock: FolderLock,
    watcher: Option<&mut dyn Watcher>,
    executor: &mut dyn Executor,
) -> anyhow::Result<LeagueRun> {
    let cfg = league.cfg;
    assert_eq!(league.game.name(), cfg.game.name(), "the league's game");
    let names: Vec<String> = cfg.agents.iter().map(|a| a.name.clone()).collect();
    let schedule = Schedule::new(&names, cfg.players_per_game, cfg.games_per_group, cfg.seed)?;
    let settings = settings_json(cfg, league.limits, &hashes(league.contestants));
    let fingerprint = crate::records::sha256_hex(settings.to_string().as_bytes());
    let start = start_of(opts);
    let header = Header {
        fingerprint: &fingerprint,
        name: &cfg.name,
        games: schedule.len(),
        settings: Some(&settings),
    };
    let opened = open_folder(&cfg.output, lock, start, &header, &schedule)?;
    let done = done_games(&schedule, &opened.results)?;
    let progress = Progress::new(
        schedule.len() as u64,
        opened.results.len() as u64,
        opts.quiet,
    );
    let cycle_major = watcher.is_some();
    let mut journaling = Journaling {
        journal: opened.journal,
        results: opened.results,
        watcher,
        cut: None,
        played: 0,
        progress,
    };
    journaling.watch_resumed();
    let played = if journaling.cut.is_some() {
        Ok(())
    } else {
        let plan = Plan {
            game: league.game,
            host: league.host,
            cfg,
            contestants: league.contestants,
            names: &names,
            schedule: &schedule,
            done: &done,
            limits: league.limits,
            settings: &settings,
            fingerprint: &fingerprint,
            out: &cfg.output,
            fresh: matches!(start, Start::New | Start::Fresh),
            cycle_major,
            threads: opts.threads.unwrap_or_else(|| cfg.worker_threads()).max(1),
            quiet: opts.quiet,
        };
        executor.play(&plan, &mut journaling)
    };
    journaling.closed();
    if interrupt::requested() && journaling.results.len() < schedule.len() {
        // A game cut short by Ctrl-C (its compiler child killed with it) is no failure to report.
        return Err(anyhow::Error::new(interrupt::Interrupted {
            done: journaling.results.len(),
            total: schedule.len(),
            output: cfg.output.display().to_string(),
        }));
    }
    played?;
    anyhow::ensure!(
        journaling.cut.is_some() || journaling.results.len() == schedule.len(),
        "the league's games stopped arriving after {} of {}",
        journaling.results.len(),
        schedule.len()
    );
    finish(league, &schedule, journaling, opened.lock)
}

/// `--resume`, `--extend` and `--fresh` as a way of opening the folder.
fn start_of(opts: &RunOptions) -> Start {
    match (opts.resume, opts.fresh) {
        (true, _) if opts.extend => Start::Extend,
        (true, _) => Start::Resume,
        (false, true) => Start::Fresh,
        (false, false) => Start::New,
    }
}

/// Opens the league's output folder `out` as `start` says, with its `records/`.
fn open_folder(
    out: &std::path::Path,
    lock: FolderLock,
    start: Start,
    header: &Header,
    schedule: &Schedule,
) -> anyhow::Result<folder::Opened> {
    let new_id = |r: &GameResult| schedule.id_of(&r.seats, &r.key);
    let opened = folder::open(out, lock, start, header, &new_id)?;
    if opened.resumed_nothing {
        eprintln!(
            "note: {} holds no league journal (the league was stopped before it began): nothing to resume, so the league starts from the beginning",
            out.display()
        );
    }
    let records = out.join(RECORDS_DIR);
    std::fs::create_dir_all(&records)
        .with_context(|| format!("cannot create {}", records.display()))?;
    Ok(opened)
}

/// The league's journal as the executor's [`Sink`]: every result journaled (synced) before it
/// counts, shown to the watcher and the progress display.
struct Journaling<'w> {
    journal: Journal,
    /// Every game journaled: the resumed ones, then those arrived, in the order they ended.
    results: Vec<GameResult>,
    watcher: Option<&'w mut dyn Watcher>,
    /// Where the watcher cut the league, in cycles.
    cut: Option<usize>,
    /// Games arrived in this run.
    played: usize,
    progress: Progress,
}

impl Journaling<'_> {
    /// Shows the watcher the games a resumed league had already played: they come first.
    fn watch_resumed(&mut self) {
        if let Some(w) = self.watcher.as_deref_mut() {
            for r in &self.results {
                self.cut = self.cut.or_else(|| w.journaled(r));
            }
        }
    }
}

impl Sink for Journaling<'_> {
    fn arrived(&mut self, batch: Vec<GameResult>) -> anyhow::Result<Flow> {
        self.journal.append_all(&batch)?;
        for r in batch {
            if self.cut.is_none() {
                if let Some(w) = self.watcher.as_deref_mut() {
                    self.cut = w.journaled(&r);
                }
            }
            self.results.push(r);
            self.played += 1;
            self.progress.game_done();
        }
        Ok(if self.cut.is_some() {
            Flow::Stop
        } else {
            Flow::Go
        })
    }

    fn held(&self) -> usize {
        self.results.len()
    }

    fn closed(&mut self) {
        self.progress.finish();
    }
}

/// The league's files once its games are in (cut first, if the watcher cut it): standings,
/// cross-table, games list.
fn finish(
    league: &League<'_>,
    schedule: &Schedule,
    journaling: Journaling<'_>,
    lock: FolderLock,
) -> anyhow::Result<LeagueRun> {
    let Journaling {
        mut results,
        cut,
        played,
        ..
    } = journaling;
    let out = league.cfg.output.clone();
    let mut cfg = league.cfg;
    let cut_cfg;
    if let Some(cycles) = cut {
        cut_cfg = cut_league(
            cfg,
            schedule,
            cycles,
            &mut results,
            &out,
            league.limits,
            league.contestants,
        )?;
        cfg = &cut_cfg;
    }
    results.sort_by_key(|r| r.id);
    let names: Vec<String> = cfg.agents.iter().map(|a| a.name.clone()).collect();
    let standings = standings::compute(&names, &results);
    let summary = Summary {
        league: &cfg.name,
        settings: settings_json(cfg, league.limits, &hashes(league.contestants)),
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

/// The agents' code hashes, as the league's settings name them.
pub(super) fn hashes(modules: &[&dyn Contestant]) -> Vec<Option<String>> {
    modules.iter().map(|m| m.code_hash()).collect()
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
