//! Full verification of a record: replay it through the game loop and require the very same
//! record back, line by line; check the books; check the digest.

use std::fmt;

use serde_json::Value;

use super::diff::first_difference;
use super::ledger::check_ledger;
use super::read::{decode_record_bytes, parse, split_lines, ReadError};
use super::replay::replay;
use super::{sha256_hex, write::record_to_string};
use crate::farm::Outcome;
use crate::game::GameKind;

/// Where a verified game's dice came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceOrigin {
    /// Derived from this seed, and every recorded roll matched.
    Seeded(u64),
    /// Given roll by roll in the record: the game is consistent, but nothing shows the dice were
    /// fair.
    Explicit,
}

/// What a consistent record contains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifySummary {
    pub game: GameKind,
    pub players: usize,
    pub names: Vec<String>,
    pub turns: usize,
    pub rounds: u32,
    pub outcome: Outcome,
    pub dice: DiceOrigin,
}

impl VerifySummary {
    /// `12 turns, winner: seat 1, dice: seeded 123` style.
    pub fn describe(&self) -> String {
        let outcome = match (self.game, self.players, self.outcome) {
            (GameKind::Farkle, 1, Outcome::Win { .. }) => "target reached".to_string(),
            (GameKind::Farkle, 1, Outcome::Draw { round_cap: true }) => {
                "target not reached within the round cap".to_string()
            }
            (GameKind::Farkle, 1, _) => "target not reached (forfeited)".to_string(),
            (GameKind::Farkle, _, Outcome::Draw { round_cap: false }) => {
                "draw (a shared highest score, or everyone forfeited)".to_string()
            }
            (_, _, outcome) => Self::outcome_text(outcome),
        };
        let dice = match self.dice {
            DiceOrigin::Seeded(seed) => format!("dice: seeded {seed}"),
            DiceOrigin::Explicit => "dice: explicit, not derived from a seed".to_string(),
        };
        let turns = if self.turns == 1 { "turn" } else { "turns" };
        format!("{}: {} {turns}, {outcome}, {dice}", self.game, self.turns)
    }

    fn outcome_text(outcome: Outcome) -> String {
        match outcome {
            Outcome::Win {
                seat,
                last_standing: false,
            } => format!("winner: seat {seat}"),
            Outcome::Win {
                seat,
                last_standing: true,
            } => format!("winner: seat {seat} (last standing)"),
            Outcome::Draw { round_cap: true } => "draw (round cap)".to_string(),
            Outcome::Draw { round_cap: false } => "draw (everyone forfeited)".to_string(),
            Outcome::Unfinished => "unfinished (the explicit dice ran out)".to_string(),
        }
    }
}

/// Why a record is not consistent. `line` counts from 1; 0 means the file as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for VerifyError {}

impl From<ReadError> for VerifyError {
    fn from(e: ReadError) -> Self {
        VerifyError {
            line: e.line,
            message: e.message,
        }
    }
}

/// Compares a record's lines (`found`, parsed) with the record the replay wrote (`rewritten`),
/// line by line as JSON values, the end line's digest aside (it is checked against the file's own
/// bytes). The first difference is an error naming its line and field; `hint` adds to it, from
/// the field's path.
pub(crate) fn compare_lines(
    rewritten: &str,
    found: &[Value],
    hint: impl Fn(&str) -> String,
) -> Result<(), VerifyError> {
    let expected: Vec<Value> = split_lines(rewritten)
        .iter()
        .map(|l| serde_json::from_str(l.text))
        .collect::<Result<_, _>>()
        .map_err(|e| fail(0, format!("the replayed game wrote invalid JSON: {e}")))?;
    let end_index = expected.len().saturating_sub(1);
    for i in 0..expected.len().max(found.len()) {
        let number = i + 1;
        let (e, f) = match (expected.get(i), found.get(i)) {
            (Some(e), Some(f)) => (e, f),
            (Some(e), None) => return Err(fail(number, format!("missing line: expected {e}"))),
            (None, Some(_)) => return Err(fail(number, "extra line: the game ended before")),
            (None, None) => break,
        };
        let (mut e, mut f) = (e.clone(), f.clone());
        if i == end_index {
            for v in [&mut e, &mut f] {
                if let Value::Object(m) = v {
                    m.remove("digest");
                }
            }
        }
        if let Some(d) = first_difference(&e, &f) {
            let hint = hint(&d.path);
            return Err(fail(number, format!("{d}{hint}")));
        }
    }
    Ok(())
}

pub(crate) fn fail(line: usize, message: impl Into<String>) -> VerifyError {
    VerifyError {
        line,
        message: message.into(),
    }
}

/// Verifies a record file's bytes, gzip-compressed or not.
pub fn verify_record_bytes(bytes: &[u8]) -> Result<VerifySummary, VerifyError> {
    verify_record(&decode_record_bytes(bytes)?)
}

/// Verifies a record of any game (uncompressed text): the setup line's `game` field says which
/// game's rules replay it. Never panics, whatever the text.
pub fn verify_record(text: &str) -> Result<VerifySummary, VerifyError> {
    let first = text.lines().next().unwrap_or("");
    let game = serde_json::from_str::<Value>(first)
        .ok()
        .and_then(|v| v.get("game").and_then(Value::as_str).map(str::to_owned));
    match game.as_deref().map(str::parse::<GameKind>) {
        Some(Ok(GameKind::Farkle)) => crate::farkle::record::verify_record(text),
        // Little Animal Farm, and every malformed setup line (its reader names the problem).
        _ => verify_farm_record(text),
    }
}

/// Verifies a Little Animal Farm record.
fn verify_farm_record(text: &str) -> Result<VerifySummary, VerifyError> {
    let parsed = parse(text)?;
    let record = &parsed.parsed.record;
    let seeded = record.setup.seed;

    let again = replay(record);
    let expected_text = record_to_string(&again, &parsed.parsed.meta)
        .map_err(|e| fail(0, format!("cannot re-write the replayed game: {e}")))?;
    compare_lines(&expected_text, &parsed.values, |path| match seeded {
        Some(seed) if path.starts_with("roll") || path.contains(".roll") => {
            format!(" (the dice of seed {seed})")
        }
        _ => String::new(),
    })?;

    check_ledger(record).map_err(|e| fail(e.line, e.message))?;

    let end = parsed
        .lines
        .last()
        .expect("a parsed record has an end line");
    let digest = sha256_hex(&text.as_bytes()[..end.offset]);
    if digest != parsed.parsed.digest {
        return Err(fail(
            end.number,
            format!(
                "digest: expected {digest}, found {}",
                Value::String(parsed.parsed.digest.clone())
            ),
        ));
    }

    Ok(VerifySummary {
        game: GameKind::Farm,
        players: record.setup.players,
        names: parsed.parsed.meta.names.clone(),
        turns: record.turns.len(),
        rounds: record.rounds(),
        outcome: record.outcome,
        dice: match seeded {
            Some(seed) => DiceOrigin::Seeded(seed),
            None => DiceOrigin::Explicit,
        },
    })
}
