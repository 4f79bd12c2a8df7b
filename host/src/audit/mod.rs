//! Auditing a published league (`arena verify --league RESULTS_DIR [--agents DIR]`): what people
//! need to trust in a challenge is not one record but the league. The audit reads the league's
//! settings from `standings.json`, rebuilds the schedule from them with the league's own code,
//! and checks that
//!
//! - the records are exactly the scheduled games: one record per game, none left over, each with
//!   the game's seats, its seed (derived from the league seed and the group, README "Fair
//!   scheduling"), seeded dice, and the league's round cap, fault policy and limits;
//! - every seat's agent hash is the one the settings publish for that agent and, with `--agents`,
//!   the hash of the published agent file;
//! - every record verifies (a streamed replay, as `arena verify` does);
//! - `standings.json`, `standings.csv`, `crosstable.csv`, `games.csv` (and a solo league's
//!   benchmark files) are what the league's own code writes from those records.
//!
//! It needs neither the league file nor the journal: the output folder is what gets published.

mod agents;
mod published;
pub mod rerun;

use std::collections::BTreeSet;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::game::{FaultNote, Summary as GameSummary};
use crate::league::output::{self, Summary};
use crate::league::result::{GameResult, INIT_DECISION};
use crate::league::runner::RECORDS_DIR;
use crate::league::schedule::{game_count, GameSpec, Schedule};
use crate::league::standings;
use crate::records::{DiceOrigin, VerifySummary};
use published::Published;
pub use published::{PublishedAgent, Settings};

/// Problems printed before "... and N more".
pub const PROBLEMS_SHOWN: usize = 20;

/// What the audit found.
#[derive(Debug, Default)]
pub struct AuditReport {
    /// Games the settings schedule.
    pub scheduled: usize,
    /// Records that verified and are the scheduled game they stand for.
    pub verified: usize,
    /// Every problem, in the order found: records in schedule order, then left-over files, then
    /// the agent files, then the standings files.
    pub problems: Vec<String>,
    /// One line per record that passed, for `-v`.
    pub checked: Vec<String>,
    /// The output files compared with the league's own writers.
    pub files_compared: Vec<&'static str>,
    /// The output files were not compared: records had problems, and standings recomputed
    /// without them would differ everywhere.
    pub not_compared: bool,
}

impl AuditReport {
    /// The last line `arena verify --league` prints.
    pub fn summary(&self) -> String {
        if self.problems.is_empty() {
            format!(
                "league ok: {} scheduled games, {} records verified; {} follow from them",
                self.scheduled,
                self.verified,
                self.files_compared.join(", ")
            )
        } else {
            let n = self.problems.len();
            format!(
                "league FAILED: {} scheduled games, {} records verified, {n} problem{}{}",
                self.scheduled,
                self.verified,
                if n == 1 { "" } else { "s" },
                if self.not_compared {
                    " (standings, cross-table and games.csv not compared: the records have problems)"
                } else {
                    ""
                }
            )
        }
    }
}

/// Audits the league whose output folder is `dir`; `agents` is the folder of the published
/// agent files, if any. An error means the folder cannot be audited at all (no readable
/// `standings.json`); everything else is a problem in the report.
pub fn audit_league(dir: &Path, agents: Option<&Path>) -> anyhow::Result<AuditReport> {
    let published = Published::read(dir)?;
    let settings = &published.settings;
    let names: Vec<String> = settings.agents.iter().map(|a| a.name.clone()).collect();
    let records_dir = dir.join(RECORDS_DIR);
    let files = list_records(&records_dir)?;

    let count = game_count(
        names.len(),
        settings.players_per_game,
        settings.games_per_group,
    );
    let mut report = AuditReport::default();
    // A schedule far larger than the folder is refused before it is built.
    if count > files.len() as u128 + 1000 {
        report.problems.push(format!(
            "the settings schedule {count} games but {} holds {} files",
            records_dir.display(),
            files.len()
        ));
        return Ok(report);
    }
    report.scheduled = count as usize;

    if let Some(agents_dir) = agents {
        report
            .problems
            .extend(agents::check_published(agents_dir, &settings.agents)?);
    }

    let mut results = Vec::with_capacity(report.scheduled);
    let mut expected_files = BTreeSet::new();
    let mut record_problems = 0;
    let schedule = Schedule::new(
        &names,
        settings.players_per_game,
        settings.games_per_group,
        settings.seed,
    )?;
    for spec in (0..schedule.len()).map(|id| schedule.game(id)) {
        let found = record_of(&files, spec.id);
        expected_files.extend(found.iter().cloned());
        match check_game(settings, &names, &spec, &records_dir, &found) {
            Ok((result, line)) => {
                report.verified += 1;
                report.checked.push(line);
                results.push(result);
            }
            Err(problem) => {
                record_problems += 1;
                report.problems.push(problem);
            }
        }
    }
    for extra in files.iter().filter(|f| !expected_files.contains(*f)) {
        record_problems += 1;
        report.problems.push(format!(
            "{RECORDS_DIR}/{extra}: not a game of the schedule (it has {} games, game-000000 to game-{:06})",
            report.scheduled,
            report.scheduled.saturating_sub(1)
        ));
    }
    if record_problems > 0 {
        report.not_compared = true;
        return Ok(report);
    }

    let standings = standings::compute(&names, &results);
    let summary = Summary {
        league: &published.league,
        settings: published.settings_value.clone(),
        standings: &standings,
    };
    let rewritten = TempDir::new()?;
    output::write_files(rewritten.path(), &summary, &results)?;
    for name in OUTPUT_FILES {
        let (ours, theirs) = (rewritten.path().join(name), dir.join(name));
        match (ours.exists(), theirs.exists()) {
            (false, false) => continue,
            (true, false) => report
                .problems
                .push(format!("{name}: missing (the league writes it)")),
            (false, true) => report.problems.push(format!(
                "{name}: the league does not write this file for these records"
            )),
            (true, true) => {
                report.files_compared.push(name);
                if let Some(p) = compare_files(name, &ours, &theirs)? {
                    report.problems.push(p);
                }
            }
        }
    }
    Ok(report)
}

/// The files the league writes from its results, compared in this order.
const OUTPUT_FILES: [&str; 6] = [
    output::STANDINGS_JSON,
    output::STANDINGS_CSV,
    output::CROSSTABLE_CSV,
    output::GAMES_CSV,
    output::BENCHMARK_CSV,
    output::BENCHMARK_TURNS_CSV,
];

/// Names of the files of the records folder.
fn list_records(dir: &Path) -> anyhow::Result<BTreeSet<String>> {
    let mut files = BTreeSet::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        files.insert(entry.file_name().to_string_lossy().into_owned());
    }
    Ok(files)
}

/// The record files of game `id` among `files` (the league writes `game-NNNNNN.jsonl`, or
/// `.jsonl.gz` when compressed).
fn record_of(files: &BTreeSet<String>, id: usize) -> Vec<String> {
    let plain = format!("game-{id:06}.jsonl");
    let gz = format!("{plain}.gz");
    [plain, gz]
        .into_iter()
        .filter(|f| files.contains(f))
        .collect()
}

/// Verifies game `spec`'s record and checks it is that game. Returns its result and a line for
/// `-v`, or the problem.
fn check_game(
    settings: &Settings,
    names: &[String],
    spec: &GameSpec,
    records_dir: &Path,
    found: &[String],
) -> Result<(GameResult, String), String> {
    let game = format!("game {} ({})", spec.id, spec.key);
    let file = match found {
        [] => {
            return Err(format!(
                "{game}: no record ({RECORDS_DIR}/game-{:06}.jsonl or .jsonl.gz)",
                spec.id
            ))
        }
        [one] => one,
        _ => return Err(format!("{game}: two records ({})", found.join(" and "))),
    };
    let shown = format!("{RECORDS_DIR}/{file}");
    let path: PathBuf = records_dir.join(file);
    let opened = File::open(&path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    let (result, summary) = check_record(settings, names, spec, &shown, opened)?;
    let line = format!("{shown}  ({}, {})", game, summary.describe());
    Ok((result, line))
}

/// Verifies the record of game `spec` of the league of `settings` (`names`: its agents, in
/// league order), read from `source` (gzip-compressed or not), and checks that it is that game.
/// Returns the league's result of the game as the record says it, and the verification's
/// summary; or the problem, naming the record as `shown` (its path in the output folder).
pub fn check_record(
    settings: &Settings,
    names: &[String],
    spec: &GameSpec,
    shown: &str,
    source: impl Read,
) -> Result<(GameResult, VerifySummary), String> {
    let seated: Vec<&str> = spec.seats.iter().map(|&a| names[a].as_str()).collect();
    let summary = crate::games::registry()
        .verify_reader(source)
        .map_err(|e| {
            if e.line == 0 {
                format!("{shown}: {}", e.message)
            } else {
                format!("{shown}:{}: {}", e.line, e.message)
            }
        })?;
    is_the_scheduled_game(settings, &seated, spec, &summary).map_err(|m| {
        format!(
            "{shown}: {m}, but it stands for game {} ({})",
            spec.id, spec.key
        )
    })?;
    let result = result_of(spec, &seated, &summary, shown.to_owned());
    Ok((result, summary))
}

/// Whether `claimed` (a worker's result, as a league journals it) is `from_record` (the result
/// its verified record gives, [`check_record`]) in everything the standings and the output files
/// read: the first difference otherwise. Fault details are not compared (the record's summary
/// counts faults by seat and kind; the league's files do too).
pub fn same_result(claimed: &GameResult, from_record: &GameResult) -> Result<(), String> {
    let differs =
        |what: &str, a: String, b: String| Err(format!("its {what} is {a}, its record's is {b}"));
    let (c, r) = (claimed, from_record);
    if (c.id, &c.key, c.seed) != (r.id, &r.key, r.seed) {
        return differs(
            "game",
            format!("{} ({}, seed {})", c.id, c.key, c.seed),
            format!("{} ({}, seed {})", r.id, r.key, r.seed),
        );
    }
    if c.seats != r.seats {
        return differs("seating", quoted(&c.seats), quoted(&r.seats));
    }
    if c.outcome != r.outcome {
        return differs(
            "outcome",
            format!("{:?}", c.outcome),
            format!("{:?}", r.outcome),
        );
    }
    if (c.rounds, c.turns) != (r.rounds, r.turns) {
        return differs(
            "length",
            format!("{} rounds, {} turns", c.rounds, c.turns),
            format!("{} rounds, {} turns", r.rounds, r.turns),
        );
    }
    if c.forfeits != r.forfeits {
        return differs(
            "list of forfeits",
            format!("{:?}", c.forfeits),
            format!("{:?}", r.forfeits),
        );
    }
    if c.scores != r.scores {
        return differs(
            "scores",
            format!("{:?}", c.scores),
            format!("{:?}", r.scores),
        );
    }
    let faults = |g: &GameResult| {
        let mut f: Vec<(usize, String, bool)> = g
            .faults
            .iter()
            .map(|f| (f.seat, f.kind.clone(), f.decision == INIT_DECISION))
            .collect();
        f.sort();
        f
    };
    if faults(c) != faults(r) {
        return differs(
            "list of faults",
            format!("{:?}", faults(c)),
            format!("{:?}", faults(r)),
        );
    }
    if c.record != r.record {
        return differs("record file", c.record.clone(), r.record.clone());
    }
    Ok(())
}

/// Checks what a verified record says about its game against the schedule and the settings.
fn is_the_scheduled_game(
    s: &Settings,
    seated: &[&str],
    spec: &GameSpec,
    summary: &VerifySummary,
) -> Result<(), String> {
    if summary.game != s.game.name() {
        return Err(format!(
            "it is a game of {}, the league plays {}",
            summary.game, s.game
        ));
    }
    if summary.names != seated {
        return Err(format!(
            "its seats are {}, the schedule seats {}",
            quoted(&summary.names),
            quoted(seated)
        ));
    }
    match summary.dice {
        DiceOrigin::Explicit => {
            return Err("its dice are explicit, not derived from a seed".into());
        }
        DiceOrigin::Seeded(seed) if seed != spec.seed => {
            return Err(format!(
                "its seed is {seed}, the schedule's is {} (from league seed {} and the group)",
                spec.seed, s.seed
            ));
        }
        DiceOrigin::Seeded(_) => {}
    }
    if summary.round_cap != s.round_cap {
        return Err(format!(
            "its round cap is {}, the league's is {}",
            summary.round_cap, s.round_cap
        ));
    }
    if summary.policy != s.fault_policy {
        return Err(format!(
            "its fault policy is {:?}, the league's is {:?}",
            summary.policy, s.fault_policy
        ));
    }
    if serde_json::Value::Object(summary.limits.clone()) != s.limits {
        return Err("its limits are not the league's".into());
    }
    let game_settings = summary.settings.clone().map(serde_json::Value::Object);
    if game_settings != s.game_settings {
        return Err(format!(
            "its game settings are {}, the league's are {}",
            game_settings.unwrap_or_default(),
            s.game_settings.clone().unwrap_or_default()
        ));
    }
    for (seat, (&agent, hash)) in spec.seats.iter().zip(&summary.agent_hashes).enumerate() {
        let published_hash = &s.agents[agent].sha256;
        if hash != published_hash {
            return Err(format!(
                "seat {seat} ({}) has agent {}, the league's {} is {}",
                seated[seat],
                hash.as_deref().unwrap_or("null"),
                seated[seat],
                published_hash.as_deref().unwrap_or("null")
            ));
        }
    }
    Ok(())
}

fn quoted<S: AsRef<str>>(names: &[S]) -> String {
    let q: Vec<String> = names
        .iter()
        .map(|n| serde_json::Value::String(n.as_ref().to_owned()).to_string())
        .collect();
    q.join(", ")
}

/// The league's result of a game, as the runner journals it, from its verified record.
fn result_of(spec: &GameSpec, seated: &[&str], s: &VerifySummary, record: String) -> GameResult {
    let faults = s
        .faults
        .iter()
        .flat_map(|((seat, kind), &n)| {
            // Standings count faults by kind; the detail is not needed to recompute them. Whether
            // a fault came while loading is: a seat that never played counts for nobody. (A seat
            // that faults while loading is out at once: that is its only fault in the game.)
            let decision = if s.load_faults.contains(seat) {
                INIT_DECISION
            } else {
                ""
            };
            (0..n).map(move |_| FaultNote {
                seat: *seat,
                decision: decision.to_owned(),
                kind: kind.clone(),
                detail: String::new(),
            })
        })
        .collect();
    GameResult::new(
        spec.id,
        &spec.key,
        spec.seed,
        seated.iter().map(|s| s.to_string()).collect(),
        GameSummary {
            outcome: s.outcome,
            rounds: s.rounds,
            turns: s.turns as u32,
            forfeits: s.forfeits.clone(),
            faults,
            scores: s.scores.clone(),
        },
        record,
    )
}

/// The first line where the published file differs from the one the league's code writes.
fn compare_files(name: &str, ours: &Path, theirs: &Path) -> anyhow::Result<Option<String>> {
    let expected = std::fs::read(ours)?;
    let found =
        std::fs::read(theirs).with_context(|| format!("cannot read {}", theirs.display()))?;
    if expected == found {
        return Ok(None);
    }
    let expected = String::from_utf8_lossy(&expected);
    let found = String::from_utf8_lossy(&found);
    let mut e_lines = expected.lines();
    let mut f_lines = found.lines();
    let mut number = 0;
    loop {
        number += 1;
        match (e_lines.next(), f_lines.next()) {
            (Some(e), Some(f)) if e == f => continue,
            (e, f) => {
                let show = |l: Option<&str>| match l {
                    Some(l) => format!("`{}`", clip(l)),
                    None => "nothing".to_string(),
                };
                return Ok(Some(format!(
                    "{name}:{number}: does not follow from the records: expected {}, found {}",
                    show(e),
                    show(f)
                )));
            }
        }
    }
}

/// At most 160 characters of a line, for a message.
fn clip(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(160).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// A folder removed when dropped, for the files the league's writers produce.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> anyhow::Result<TempDir> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "arena-verify-league-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        Ok(TempDir(path))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests;
