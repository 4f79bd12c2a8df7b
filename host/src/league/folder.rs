//! A league's output folder: locked for the whole run, and either resumed or started anew.
//!
//! Starting a league where another one is (`--fresh`) must leave a folder that tells the truth if
//! the process is killed at any instant. When the folder holds nothing but a league's files, the
//! new league (its journal header and an empty `records/`) is built beside it and the two folders
//! are exchanged in one atomic rename (Linux `renameat2(RENAME_EXCHANGE)`): at every instant the
//! folder is the old league, whole, or the new one; the old one is deleted afterwards from where
//! it was moved. Where that cannot be done (other files in the folder, a file system or system
//! without the exchange, a folder that is a mount point or a link), the old league is taken apart
//! in place in an order that keeps it truthful: first the standings and the report (the old
//! journal and records remain, and `--resume` rewrites the same standings from them), then the
//! journal is replaced at once by the new one (which names no record yet: the old records are
//! leftovers that new games overwrite, as after any kill), then the old records are removed.
//!
//! Resuming refuses a journal that names a record that is not there: such a folder's standings
//! would count games whose records are gone.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use super::atomic;
use super::exchange::{exchange, exchange_unsupported};
use super::journal::{Journal, JOURNAL_FILE};
use super::lock::{FolderLock, LOCK_FILE};
use super::output::REPORT_DIR;
use super::output::{
    BENCHMARK_CSV, BENCHMARK_TURNS_CSV, CROSSTABLE_CSV, GAMES_CSV, STANDINGS_CSV, STANDINGS_JSON,
};
use super::result::GameResult;
use super::runner::RECORDS_DIR;

/// The folder's files computed from the journal and records, in the order they are removed when
/// a league is replaced in place (the standings first: they are what would lie).
const DERIVED_FILES: [&str; 6] = [
    STANDINGS_JSON,
    STANDINGS_CSV,
    CROSSTABLE_CSV,
    GAMES_CSV,
    BENCHMARK_CSV,
    BENCHMARK_TURNS_CSV,
];

/// Inside the folder: the old records while a league is replaced in place.
const DISCARD_DIR: &str = ".arena-discard";

/// What a new league's journal starts with.
#[derive(Clone, Copy, Debug)]
pub struct Header<'a> {
    pub fingerprint: &'a str,
    pub name: &'a str,
    pub games: usize,
    /// What `fingerprint` is the hash of (see [`super::changes`]).
    pub settings: Option<&'a serde_json::Value>,
}

/// How to open the folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Start a league; refuse if the folder holds one.
    New,
    /// Start a league in place of any the folder holds.
    Fresh,
    /// Continue the league the folder holds (or start it, if it holds none).
    Resume,
    /// Continue the league the folder holds, grown by new agents: its games are kept (renumbered
    /// as the new schedule numbers them) and only the new groups are left to play.
    Extend,
}

/// An output folder opened for a run.
#[derive(Debug)]
pub struct Opened {
    /// Held until the run (and its report) is written.
    pub lock: FolderLock,
    pub journal: Journal,
    /// Games the journal already held.
    pub results: Vec<GameResult>,
    /// `--resume` found no journal, so the league was started from the beginning.
    pub resumed_nothing: bool,
}

/// Locks the output folder `out`, creating it if needed.
pub fn lock(out: &Path) -> anyhow::Result<FolderLock> {
    fs::create_dir_all(out)
        .with_context(|| format!("cannot create output folder {}", out.display()))?;
    FolderLock::acquire(out)
}

/// Opens the league in `out`, locked by `lock` (see [`lock`]), as `start` says.
/// `new_id` gives a played game's id in the league of `header` (for [`Start::Extend`]).
pub fn open(
    out: &Path,
    lock: FolderLock,
    start: Start,
    header: &Header,
    new_id: &dyn Fn(&GameResult) -> Option<usize>,
) -> anyhow::Result<Opened> {
    open_with(out, lock, start, header, new_id, &mut || Ok(()))
}

/// [`open`], calling `checkpoint` between the steps of replacing a league, where a kill could
/// land: a test stops there (with an error) to see the folder as a kill would leave it.
pub(super) fn open_with(
    out: &Path,
    lock: FolderLock,
    start: Start,
    header: &Header,
    new_id: &dyn Fn(&GameResult) -> Option<usize>,
    checkpoint: &mut dyn FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<Opened> {
    clear_leftovers(out)?;
    let has_journal = out.join(JOURNAL_FILE).exists();
    let mut lock = lock;
    if start == Start::Extend && has_journal {
        lock = extend(out, lock, header, new_id, checkpoint)?;
    }
    if matches!(start, Start::Resume | Start::Extend) && has_journal {
        let (journal, results) = Journal::resume(out, header.fingerprint, header.settings)?;
        check_records(out, &results)?;
        return Ok(Opened {
            lock,
            journal,
            results,
            resumed_nothing: false,
        });
    }
    if start == Start::New && has_journal {
        bail!(
            "{} already holds a league; run with --resume to continue it, or --fresh to discard it and start over",
            out.display()
        );
    }
    let (lock, journal) = start_new(out, lock, header, checkpoint)?;
    Ok(Opened {
        lock,
        journal,
        results: Vec::new(),
        resumed_nothing: matches!(start, Start::Resume | Start::Extend),
    })
}

/// Renumbers the league in `out` as the grown league of `header` numbers its games, when that
/// league is the one in `out` with agents added (and nothing else changed): the new journal holds
/// every game played, with its id in the new schedule, and the records are renamed to match. The
/// new folder is built beside `out` (records hard-linked, not copied) and exchanged with it in one
/// atomic rename, so that at every instant the folder is the old league or the grown one. Returns
/// the lock on `out`. A league that is already the one of `header` is left as it is.
fn extend(
    out: &Path,
    lock: FolderLock,
    header: &Header,
    new_id: &dyn Fn(&GameResult) -> Option<usize>,
    checkpoint: &mut dyn FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<FolderLock> {
    let (old, results) = Journal::read(out)?;
    if old.fingerprint == header.fingerprint {
        return Ok(lock);
    }
    let grown = match (&old.settings, header.settings) {
        (Some(old), Some(new)) => super::changes::only_agents_added(old, new),
        _ => false,
    };
    if !grown {
        let changes = match (&old.settings, header.settings) {
            (Some(old), Some(new)) => super::changes::describe(old, new).join("; "),
            _ => "its journal does not say with which settings it was started".into(),
        };
        bail!(
            "{}: --extend grows a league by new agents only, and this league changed otherwise \
             ({changes}); resume needs the same league file and agents (or use --fresh)",
            out.display()
        );
    }
    check_records(out, &results)?;
    let mut renumbered = Vec::with_capacity(results.len());
    for r in &results {
        let Some(id) = new_id(r) else {
            bail!(
                "{}: the journal holds game {} ({}), which the grown league does not schedule",
                out.display(),
                r.id,
                r.key
            );
        };
        let gz = if r.record.ends_with(".gz") { ".gz" } else { "" };
        let mut moved = r.clone();
        moved.id = id;
        moved.record = format!("{RECORDS_DIR}/game-{id:06}.jsonl{gz}");
        renumbered.push((r, moved));
    }
    renumbered.sort_by_key(|(_, m)| m.id);
    let foreign: Vec<String> = entries(out)?
        .into_iter()
        .filter(|n| !is_league_entry(n))
        .collect();
    if !foreign.is_empty() {
        bail!(
            "{}: --extend renumbers the league in a copy beside the folder and exchanges the two, \
             so the folder must hold only the league's files; move away {}",
            out.display(),
            foreign.join(", ")
        );
    }
    let Some(beside) = swap_path(out) else {
        bail!(
            "{}: --extend renumbers the league in a copy beside the folder and exchanges the two, \
             which cannot be done for a link or the current folder: name the folder itself",
            out.display()
        );
    };
    let build = |dir: &Path| -> anyhow::Result<()> {
        let records = dir.join(RECORDS_DIR);
        fs::create_dir_all(&records)
            .with_context(|| format!("cannot create {}", records.display()))?;
        for (old, new) in &renumbered {
            let (from, to) = (out.join(&old.record), dir.join(&new.record));
            if fs::hard_link(&from, &to).is_err() {
                fs::copy(&from, &to).with_context(|| {
                    format!("cannot copy {} to {}", from.display(), to.display())
                })?;
            }
        }
        atomic::sync_dir(&records).with_context(|| format!("cannot sync {}", records.display()))?;
        let kept: Vec<GameResult> = renumbered.iter().map(|(_, m)| m.clone()).collect();
        Journal::write(
            dir,
            header.fingerprint,
            header.name,
            header.games,
            header.settings,
            &kept,
        )
    };
    match swap_in(out, &beside, lock, &build, checkpoint)? {
        Ok((lock, _journal)) => Ok(lock),
        Err(_) => bail!(
            "{}: --extend needs a system and file system that can exchange two folders in one \
             rename (Linux on common file systems); this one cannot",
            out.display()
        ),
    }
}

/// Starts the league of `header` in `out`, in place of whatever league files are there. Returns
/// the lock now held on `out` and the new journal.
fn start_new(
    out: &Path,
    lock: FolderLock,
    header: &Header,
    checkpoint: &mut dyn FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<(FolderLock, Journal)> {
    let entries = entries(out)?;
    if entries.is_empty() {
        create_league(out, header)?;
        return Ok((lock, Journal::open(out)?));
    }
    if entries.iter().all(|n| is_league_entry(n)) {
        if let Some(beside) = swap_path(out) {
            let build = |dir: &Path| create_league(dir, header);
            return match swap_in(out, &beside, lock, &build, checkpoint)? {
                Ok(opened) => Ok(opened),
                Err(lock) => {
                    replace_in_place(out, header, checkpoint)?;
                    Ok((lock, Journal::open(out)?))
                }
            };
        }
    }
    replace_in_place(out, header, checkpoint)?;
    Ok((lock, Journal::open(out)?))
}

/// Builds the new league at `beside` with `build` and exchanges it with `out`. `Ok(Err(lock))`
/// when the system cannot exchange the two folders (nothing is changed then).
fn swap_in(
    out: &Path,
    beside: &Path,
    mut old_lock: FolderLock,
    build: &dyn Fn(&Path) -> anyhow::Result<()>,
    checkpoint: &mut dyn FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<Result<(FolderLock, Journal), FolderLock>> {
    fs::create_dir(beside).with_context(|| format!("cannot create {}", beside.display()))?;
    let mut new_lock = FolderLock::acquire(beside)?;
    build(beside)?;
    checkpoint()?;
    if let Err(e) = exchange(beside, out) {
        drop(new_lock);
        fs::remove_dir_all(beside)
            .with_context(|| format!("cannot remove {}", beside.display()))?;
        return if exchange_unsupported(&e) {
            Ok(Err(old_lock))
        } else {
            Err(e).with_context(|| {
                format!(
                    "cannot exchange {} with {}",
                    beside.display(),
                    out.display()
                )
            })
        };
    }
    new_lock.moved_to(out);
    old_lock.moved_to(beside);
    atomic::sync_dir(atomic::parent_dir(out))
        .with_context(|| format!("cannot sync the folder holding {}", out.display()))?;
    checkpoint()?;
    // The old league, now at `beside`, is deleted while its lock is still held.
    fs::remove_dir_all(beside).with_context(|| {
        format!(
            "cannot remove the earlier league, moved to {}",
            beside.display()
        )
    })?;
    drop(old_lock);
    Ok(Ok((new_lock, Journal::open(out)?)))
}

/// Replaces the league in `out` by a new one, step by step, keeping the folder truthful between
/// steps (see the module's documentation).
fn replace_in_place(
    out: &Path,
    header: &Header,
    checkpoint: &mut dyn FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for name in DERIVED_FILES {
        remove(&out.join(name))?;
        checkpoint()?;
    }
    remove(&out.join(REPORT_DIR))?;
    atomic::sync_dir(out).with_context(|| format!("cannot sync {}", out.display()))?;
    checkpoint()?;
    Journal::write_header(
        out,
        header.fingerprint,
        header.name,
        header.games,
        header.settings,
    )?;
    checkpoint()?;
    let records = out.join(RECORDS_DIR);
    let discard = out.join(DISCARD_DIR);
    if records.exists() {
        fs::rename(&records, &discard)
            .with_context(|| format!("cannot move {} aside", records.display()))?;
        checkpoint()?;
    }
    fs::create_dir_all(&records).with_context(|| format!("cannot create {}", records.display()))?;
    atomic::sync_dir(out).with_context(|| format!("cannot sync {}", out.display()))?;
    checkpoint()?;
    remove(&discard)
}

/// A new league's files in `dir`: the journal header and an empty `records/`.
fn create_league(dir: &Path, header: &Header) -> anyhow::Result<()> {
    let records = dir.join(RECORDS_DIR);
    fs::create_dir_all(&records).with_context(|| format!("cannot create {}", records.display()))?;
    Journal::write_header(
        dir,
        header.fingerprint,
        header.name,
        header.games,
        header.settings,
    )
}

/// Refuses a journal naming a record that is not in the folder.
fn check_records(out: &Path, results: &[GameResult]) -> anyhow::Result<()> {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|r| r.id);
    if let Some(r) = sorted.iter().find(|r| !out.join(&r.record).is_file()) {
        bail!(
            "{}: the journal names records that are not there (the first: {}, of game {}); its \
             standings would count games whose records are gone, so it cannot be resumed: start \
             the league again with --fresh",
            out.display(),
            r.record,
            r.id
        );
    }
    Ok(())
}

/// Removes what a killed run left behind: temporary files, the old records of a league replaced
/// in place, and a league built or moved beside the folder.
fn clear_leftovers(out: &Path) -> anyhow::Result<()> {
    for name in entries(out)? {
        if atomic::is_temp_name(&name) {
            remove(&out.join(&name))?;
        }
    }
    remove(&out.join(DISCARD_DIR))?;
    if let Some(beside) = swap_path(out) {
        if beside.exists() {
            let foreign: Vec<String> = entries(&beside)?
                .into_iter()
                .filter(|n| !is_league_entry(n))
                .collect();
            if !foreign.is_empty() {
                bail!(
                    "{} is in the way of starting a league in {} and holds files that are not a league's ({}); move it away",
                    beside.display(),
                    out.display(),
                    foreign.join(", ")
                );
            }
            remove(&beside)?;
        }
    }
    Ok(())
}

/// Names in `dir`, except its lock file.
fn entries(dir: &Path) -> anyhow::Result<Vec<String>> {
    let read = || format!("cannot read {}", dir.display());
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).with_context(read)? {
        let name = entry.with_context(read)?.file_name();
        let name = name.to_string_lossy().into_owned();
        if name != LOCK_FILE {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// True for the names a league writes in its output folder.
fn is_league_entry(name: &str) -> bool {
    [
        JOURNAL_FILE,
        RECORDS_DIR,
        REPORT_DIR,
        LOCK_FILE,
        DISCARD_DIR,
    ]
    .iter()
    .chain(DERIVED_FILES.iter())
    .any(|n| *n == name)
        || atomic::is_temp_name(name)
}

/// Where the new league is built before the exchange: a hidden folder beside `out`. `None` when
/// `out` cannot be renamed as a whole (`.`, `/`, a symbolic link).
fn swap_path(out: &Path) -> Option<PathBuf> {
    let name = out.file_name()?.to_string_lossy().into_owned();
    if fs::symlink_metadata(out).ok()?.file_type().is_symlink() {
        return None;
    }
    Some(out.with_file_name(format!(".{name}.arena-swap")))
}

/// Removes a file or a folder; nothing there is fine.
fn remove(path: &Path) -> anyhow::Result<()> {
    let removed = match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    };
    removed.with_context(|| format!("cannot remove {}", path.display()))
}
