//! `arena verify PATH...`: replays each record (files, or every record in a folder) and checks it
//! line by line; `arena verify --league RESULTS_DIR` checks a league's output folder as a whole.
//!
//! With `--rerun` (and `--agents`), the league's games are also played again with the published
//! agents and their records compared byte for byte (`audit::rerun`).
//!
//! Prints the records that fail and a summary line (`-v`: every record). Exit status: 0 when
//! every record is consistent, 1 when any is not, 2 when a file cannot be read (usage errors are
//! reported by clap, also with 2).

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::audit;
use crate::records::{VerifyError, VerifySummary};
use crate::terminal;

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// Record files (JSON Lines, optionally gzip-compressed) or folders of records (their
    /// `.jsonl` and `.jsonl.gz` files; a league's output folder: its `records/` folder)
    #[arg(value_name = "PATH", required_unless_present = "league")]
    pub records: Vec<PathBuf>,
    /// Print a line for every record, not only for those that fail
    #[arg(short, long)]
    pub verbose: bool,
    /// Print only the records that fail, without the summary line
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Check a league's output folder as a whole: its records are exactly the scheduled games,
    /// each verifies, and the standings, cross-table and games.csv follow from them
    #[arg(long, value_name = "RESULTS_DIR", conflicts_with = "records")]
    pub league: Option<PathBuf>,
    /// With --league: the folder of the published agent files (`.wasm`, `.wat`), whose hashes
    /// each record's seats must have
    #[arg(long, value_name = "DIR", requires = "league")]
    pub agents: Option<PathBuf>,
    /// With --league and --agents: play the games again with the published agents and compare
    /// the records byte for byte (a record that verifies can still hold another agent's answers)
    #[arg(long, requires = "agents")]
    pub rerun: bool,
    /// With --rerun: play again only this fraction of the games (0 to 1), chosen at random
    #[arg(
        long,
        value_name = "FRACTION",
        requires = "rerun",
        default_value_t = 1.0
    )]
    pub sample: f64,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<i32> {
    if let Some(dir) = &args.league {
        let rerun = args.rerun.then_some(args.sample);
        return run_league(dir, args.agents.as_deref(), rerun, args.verbose);
    }
    let mut files = Vec::new();
    let mut status = 0;
    for path in &args.records {
        match records_at(path) {
            Ok(found) => files.extend(found),
            Err(e) => {
                eprintln!("error: {}", terminal::line(&format!("{e:#}")));
                status = 2;
            }
        }
    }
    let (mut verified, mut failed, mut unreadable) = (0usize, 0usize, 0usize);
    for path in &files {
        let shown = terminal::line(&path.display().to_string()).into_owned();
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!(
                    "error: cannot read {shown}: {}",
                    terminal::line(&e.to_string())
                );
                unreadable += 1;
                status = 2;
                continue;
            }
        };
        let verdict = crate::games::registry().verify_reader(file);
        match &verdict {
            Ok(_) => verified += 1,
            Err(_) => {
                failed += 1;
                status = status.max(1);
            }
        }
        if verdict.is_err() || args.verbose {
            outln!("{}", verdict_line(path, &verdict));
        }
    }
    if !args.quiet {
        outln!("{}", summary_line(verified, failed, unreadable));
    }
    Ok(status)
}

/// `ok  PATH  (summary)` or `FAIL PATH:LINE: message`, with nothing from the file or its name
/// that could act on a terminal (a record's fields are quoted in messages).
fn verdict_line(path: &Path, verdict: &Result<VerifySummary, VerifyError>) -> String {
    let shown = terminal::line(&path.display().to_string()).into_owned();
    match verdict {
        Ok(summary) => format!("ok  {shown}  ({})", terminal::line(&summary.describe())),
        Err(e) if e.line == 0 => format!("FAIL {shown}: {}", terminal::line(&e.message)),
        Err(e) => format!("FAIL {shown}:{}: {}", e.line, terminal::line(&e.message)),
    }
}

/// `N records verified, M failed` (and how many could not be read).
fn summary_line(verified: usize, failed: usize, unreadable: usize) -> String {
    let records = if verified == 1 { "record" } else { "records" };
    let mut s = format!("{verified} {records} verified, {failed} failed");
    if unreadable > 0 {
        s.push_str(&format!(", {unreadable} unreadable"));
    }
    s
}

/// The record files `path` names: itself, or the records of a folder, sorted by name.
fn records_at(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    // A league's output folder: its records (its journal is not a record).
    let league_records = path.join(crate::league::runner::RECORDS_DIR);
    let dir = if league_records.is_dir() {
        league_records
    } else {
        path.to_path_buf()
    };
    let mut files = Vec::new();
    for entry in
        std::fs::read_dir(&dir).with_context(|| format!("cannot read {}", dir.display()))?
    {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let is_record = name.ends_with(".jsonl") || name.ends_with(".jsonl.gz");
        if is_record && !entry.file_type().is_ok_and(|t| t.is_dir()) {
            files.push(entry.path());
        }
    }
    anyhow::ensure!(
        !files.is_empty(),
        "{}: no record (`.jsonl` or `.jsonl.gz` file) in this folder",
        dir.display()
    );
    files.sort();
    Ok(files)
}

fn run_league(
    dir: &Path,
    agents: Option<&Path>,
    rerun: Option<f64>,
    verbose: bool,
) -> anyhow::Result<i32> {
    if let Some(sample) = rerun {
        anyhow::ensure!(
            sample > 0.0 && sample <= 1.0,
            "--sample takes a fraction of the games, more than 0 and at most 1 (got {sample})"
        );
    }
    let report = match audit::audit_league(dir, agents) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}", terminal::block(&format!("{e:#}")));
            return Ok(2);
        }
    };
    if verbose {
        for line in &report.checked {
            outln!("ok  {}", terminal::line(line));
        }
    }
    for p in report.problems.iter().take(audit::PROBLEMS_SHOWN) {
        outln!("FAIL {}", terminal::line(p));
    }
    if report.problems.len() > audit::PROBLEMS_SHOWN {
        outln!(
            "... and {} more problems",
            report.problems.len() - audit::PROBLEMS_SHOWN
        );
    }
    outln!("{}", terminal::line(&report.summary()));
    let mut ok = report.problems.is_empty();
    if let (Some(sample), Some(agents)) = (rerun, agents) {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let again = match audit::rerun::rerun_league(dir, agents, sample, threads) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {}", terminal::block(&format!("{e:#}")));
                return Ok(2);
            }
        };
        for p in again.problems.iter().take(audit::PROBLEMS_SHOWN) {
            outln!("FAIL {}", terminal::line(p));
        }
        if again.problems.len() > audit::PROBLEMS_SHOWN {
            outln!(
                "... and {} more games not played as recorded",
                again.problems.len() - audit::PROBLEMS_SHOWN
            );
        }
        if verbose {
            for m in &again.machine_dependent {
                outln!("note {}", terminal::line(m));
            }
        }
        outln!("{}", terminal::line(&again.summary()));
        ok &= again.problems.is_empty();
    }
    Ok(if ok { 0 } else { 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    fn status(paths: Vec<PathBuf>) -> i32 {
        run(VerifyArgs {
            records: paths,
            verbose: false,
            quiet: true,
            league: None,
            agents: None,
            rerun: false,
            sample: 1.0,
        })
        .unwrap()
    }

    #[test]
    fn exit_status_says_consistent_inconsistent_or_unreadable() {
        let good = fixture("stock_runs_short.jsonl");
        assert_eq!(status(vec![good.clone()]), 0);

        let bad = std::env::temp_dir().join(format!("arena-verify-{}.jsonl", std::process::id()));
        let text = std::fs::read_to_string(&good).unwrap();
        std::fs::write(&bad, text.replace("\"sheep\": 6", "\"sheep\": 7")).unwrap();
        assert_eq!(status(vec![good.clone(), bad.clone()]), 1);
        std::fs::remove_file(&bad).unwrap();

        assert_eq!(status(vec![good, fixture("no-such-record.jsonl")]), 2);
    }

    #[test]
    fn a_folder_stands_for_its_records() {
        let found = records_at(&fixture("")).unwrap();
        let names: Vec<String> = found
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "fox_and_wolf_take_both_dogs.jsonl",
                "stock_runs_short.jsonl",
                "trade_completes_the_set.jsonl"
            ]
        );
        assert_eq!(status(vec![fixture("")]), 0);
        let empty = std::env::temp_dir().join(format!("arena-verify-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        let e = records_at(&empty).unwrap_err().to_string();
        assert!(e.contains("no record"), "{e}");
        assert_eq!(status(vec![empty.clone()]), 2);
        std::fs::remove_dir_all(&empty).unwrap();
    }

    #[test]
    fn a_record_cannot_forge_an_ok_line() {
        let good = std::fs::read_to_string(fixture("stock_runs_short.jsonl")).unwrap();
        // The setup line's format, printed in the message, returns to the line's start, erases
        // it and writes a verdict of its own; then sets the window title.
        let forged = good.replacen(
            "\"arena-record\"",
            "\"x\\r\\u001b[2K\\u001b[1Gok  game.jsonl  (little-animal-farm: 3 turns)\\u001b]0;pwned\\u0007\"",
            1,
        );
        assert_ne!(forged, good);
        let verdict = crate::games::registry().verify_record(&forged);
        let e = verdict.as_ref().unwrap_err();
        // The reader quotes the field with its control characters escaped.
        assert!(
            e.message.contains("x\\r\\u{1b}[2K") && !e.message.chars().any(char::is_control),
            "the message quotes the field: {e}"
        );
        let line = verdict_line(Path::new("evil\u{1b}[31m.jsonl"), &verdict);
        assert!(!line.chars().any(char::is_control), "{line:?}");
        assert!(
            line.starts_with("FAIL evil\\x1b[31m.jsonl:1: format: "),
            "{line}"
        );
        assert!(
            line.contains("x\\r\\u{1b}[2K\\u{1b}[1Gok  game.jsonl"),
            "{line}"
        );
    }

    #[test]
    fn the_summary_line_counts() {
        assert_eq!(summary_line(1, 0, 0), "1 record verified, 0 failed");
        assert_eq!(
            summary_line(36000, 2, 1),
            "36000 records verified, 2 failed, 1 unreadable"
        );
    }
}
