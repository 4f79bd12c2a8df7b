//! Full verification of a record: replay it through the game loop and require the very same
//! record back, line by line; check the books; check the digest.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;

use serde_json::{Map, Value};

use super::ledger::Ledger;
use super::lines::{Line, RecordReader};
use super::read::{end_of, setup_of, start_of, turn_of, ReadError};
use super::replay::{Checker, FarmTurns, RecordedDice, ReplayPlayer};
use super::stream::{check_digest, compare_line, to_value, TurnLines};
use super::write::{end_line as write_end_line, setup_line};
use crate::farm::{play_game_into, FarmPlayer, Outcome, SeededDice};
use crate::game::{FaultPolicy, GameKind};

/// Where a verified game's dice came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceOrigin {
    /// Derived from this seed, and every recorded roll matched.
    Seeded(u64),
    /// Given roll by roll in the record: the game is consistent, but nothing shows the dice were
    /// fair.
    Explicit,
}

/// Faults of a game by seat and kind (`"trap"`, `"decision_fuel"`...): what standings count.
pub type FaultCounts = BTreeMap<(usize, String), u32>;

/// What a consistent record contains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifySummary {
    pub game: GameKind,
    pub players: usize,
    pub names: Vec<String>,
    /// SHA-256 of each seat's agent as the setup line gives it (`None`: not a module).
    pub agent_hashes: Vec<Option<String>>,
    pub round_cap: u32,
    pub policy: FaultPolicy,
    /// The setup line's `limits`.
    pub limits: Map<String, Value>,
    pub turns: usize,
    pub rounds: u32,
    pub outcome: Outcome,
    pub dice: DiceOrigin,
    /// Seats that forfeited, in the order they did.
    pub forfeits: Vec<usize>,
    pub faults: FaultCounts,
    /// Seats with a fault while loading (in the start line), in seat order: they never played,
    /// which decides whether the game counts for anybody (`GameResult::nobody_played`).
    pub load_faults: Vec<usize>,
    /// Final scores, for games that keep one (Farkle).
    pub scores: Option<Vec<i64>>,
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

    pub(crate) fn outcome_text(outcome: Outcome) -> String {
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

pub(crate) fn fail(line: usize, message: impl Into<String>) -> VerifyError {
    VerifyError {
        line,
        message: message.into(),
    }
}

/// Verifies a record file's bytes, gzip-compressed or not.
pub fn verify_record_bytes(bytes: &[u8]) -> Result<VerifySummary, VerifyError> {
    verify_reader(bytes)
}

/// Verifies a record of any game (uncompressed text): the setup line's `game` field says which
/// game's rules replay it. Never panics, whatever the text.
pub fn verify_record(text: &str) -> Result<VerifySummary, VerifyError> {
    verify_reader(text.as_bytes())
}

/// Verifies a record read from `source` (a file, gzip-compressed or not), as a stream: each line
/// is read when the replay reaches it, compared, and dropped. Memory holds one line (at most
/// [`MAX_LINE_BYTES`](super::lines::MAX_LINE_BYTES)) and the game, whatever the size of the file;
/// the first inconsistency stops the reading.
pub fn verify_reader(source: impl Read) -> Result<VerifySummary, VerifyError> {
    let mut reader =
        RecordReader::new(source).map_err(|e| fail(0, format!("cannot read the record: {e}")))?;
    let Some(first) = reader.next_line()? else {
        return Err(fail(0, "empty file: a record has at least 3 lines"));
    };
    match first.value.get("game").and_then(Value::as_str) {
        Some(game) if game == GameKind::Farkle.name() => {
            crate::farkle::record::verify_lines(reader, first)
        }
        // Little Animal Farm, and every malformed setup line (its reader names the problem).
        _ => verify_farm(reader, first),
    }
}

/// Verifies a Little Animal Farm record whose setup line has been read.
fn verify_farm(mut reader: RecordReader, first: Line) -> Result<VerifySummary, VerifyError> {
    let (setup, meta) = setup_of(&first)?;
    let replayed_setup = to_value(&setup_line(&setup, &meta).map_err(|e| fail(0, e.to_string()))?)?;
    compare_line(&first, &replayed_setup, false, |_| String::new())?;
    drop(first);
    let players = setup.players;
    let start = reader
        .next_line()?
        .ok_or_else(|| fail(2, "missing start line: the record is truncated"))?;
    let (start_events, start_logs) = start_of(&start, players)?;

    let turns: FarmTurns = RefCell::new(TurnLines::new(reader, move |line: &Line| {
        turn_of(line, players).map_err(VerifyError::from)
    }));
    let mut seats: Vec<ReplayPlayer> = (0..players)
        .map(|seat| ReplayPlayer {
            seat,
            start_events: &start_events,
            start_logs: &start_logs,
            turns: &turns,
            log: None,
        })
        .collect();
    let mut players_dyn: Vec<&mut dyn FarmPlayer> =
        seats.iter_mut().map(|p| p as &mut dyn FarmPlayer).collect();
    let mut checker = Checker {
        turns: &turns,
        start: Some(start),
        ledger: Ledger::new(&setup),
        seed: setup.seed,
        faults: FaultCounts::new(),
        load_faults: Vec::new(),
        error: None,
    };
    let end = match setup.seed {
        Some(seed) => play_game_into(
            &setup,
            &mut players_dyn,
            &mut SeededDice::new(seed),
            &mut checker,
        ),
        None => play_game_into(
            &setup,
            &mut players_dyn,
            &mut RecordedDice { turns: &turns },
            &mut checker,
        ),
    };
    drop(players_dyn);
    drop(seats);
    let Some(end) = end else {
        let e = checker.error.take();
        return Err(e
            .or_else(|| turns.borrow().error().cloned())
            .unwrap_or_else(|| fail(0, "the replay stopped without a reason")));
    };
    let (ledger, faults, load_faults) = (checker.ledger, checker.faults, checker.load_faults);
    let (end_line, mut reader) = turns
        .into_inner()
        .end_line(|| VerifySummary::outcome_text(end.outcome))?;
    let (found_end, _, _) = end_of(&end_line, players)?;
    let replayed_end = to_value(&write_end_line(
        end.outcome,
        end.rounds,
        &end.forfeits,
        &end.final_position,
        "",
    ))?;
    compare_line(&end_line, &replayed_end, true, |_| String::new())?;
    ledger
        .finish(end_line.number, &end.final_position)
        .map_err(|e| fail(e.line, e.message))?;
    check_digest(&reader, &end_line, &found_end.digest)?;
    reader.expect_end_of_file()?;

    Ok(VerifySummary {
        game: GameKind::Farm,
        players,
        names: meta.names.clone(),
        agent_hashes: meta.agent_hashes.clone(),
        round_cap: setup.round_cap,
        policy: setup.policy,
        limits: match &*meta.limits {
            Value::Object(m) => m.clone(),
            _ => Map::new(),
        },
        turns: end.turns as usize,
        rounds: end.rounds,
        outcome: end.outcome,
        dice: match setup.seed {
            Some(seed) => DiceOrigin::Seeded(seed),
            None => DiceOrigin::Explicit,
        },
        forfeits: end.forfeits,
        faults,
        load_faults,
        scores: None,
    })
}
