//! One game's record checked against the game the schedule says it is: found once in the
//! records folder, verified by a streamed replay, and with the scheduled seats, seed, dice, round
//! cap, fault policy and limits; and the league's result it stands for.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::game::{FaultNote, Summary as GameSummary};
use crate::league::result::{GameResult, INIT_DECISION};
use crate::league::runner::RECORDS_DIR;
use crate::league::schedule::GameSpec;
use crate::records::{DiceOrigin, VerifySummary};

use super::Settings;

/// Names of the files of the records folder.
pub(super) fn list_records(dir: &Path) -> anyhow::Result<BTreeSet<String>> {
    let mut files = BTreeSet::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        files.insert(entry.file_name().to_string_lossy().into_owned());
    }
    Ok(files)
}

/// The record files of game `id` among `files` (the league writes `game-NNNNNN.jsonl`, or
/// `.jsonl.gz` when compressed).
pub(super) fn record_of(files: &BTreeSet<String>, id: usize) -> Vec<String> {
    let plain = format!("game-{id:06}.jsonl");
    let gz = format!("{plain}.gz");
    [plain, gz]
        .into_iter()
        .filter(|f| files.contains(f))
        .collect()
}

/// Verifies game `spec`'s record and checks it is that game. Returns its result and a line for
/// `-v`, or the problem.
pub(super) fn check_game(
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
