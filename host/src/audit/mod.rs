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
mod output_files;
mod published;
mod record_check;
pub mod rerun;

use std::collections::BTreeSet;
use std::path::Path;

use crate::league::output::{self, Summary};
use crate::league::runner::RECORDS_DIR;
use crate::league::schedule::{game_count, Schedule};
use crate::league::standings;
use output_files::{compare_files, TempDir, OUTPUT_FILES};
use published::Published;
pub use published::{PublishedAgent, Settings};
use record_check::{check_game, list_records, record_of};
pub use record_check::{check_record, same_result};

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

#[cfg(test)]
mod tests;
