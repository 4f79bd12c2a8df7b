//! Full verification of a record: its game replays it and requires the very same record back,
//! line by line, and checks the digest. This file reads the setup line and hands the record to
//! the game it names (the registry, `crate::games`); what every game's verification shares is
//! here and in `stream.rs`.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;

use serde_json::{Map, Value};

use super::lines::{ReadError, RecordReader};
use crate::game::{FaultPolicy, Outcome};

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
    /// The game's name (`crate::games::by_name` finds it).
    pub game: &'static str,
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
    /// Final scores, for games that keep one.
    pub scores: Option<Vec<i64>>,
    /// How the game ended, in words (`winner: seat 1`), as its game says it.
    pub result: String,
    /// The game's own settings the record states, as a league keeps them
    /// (`crate::game::Game::settings`); `None` for a game that has none.
    pub settings: Option<Map<String, Value>>,
}

impl VerifySummary {
    /// `12 turns, winner: seat 1, dice: seeded 123` style, in the words of the game: its own
    /// name for a turn (`GameInfo::turn_word`), and `seed 3` when the seed rolls no dice.
    pub fn describe(&self) -> String {
        let info = crate::games::by_name(self.game).ok().map(|g| g.info());
        let word = info.map_or("turn", |i| i.turn_word);
        let seed = match self.dice {
            DiceOrigin::Seeded(seed) if info.is_some_and(|i| i.dice) => {
                format!("dice: seeded {seed}")
            }
            DiceOrigin::Seeded(seed) => format!("seed {seed}"),
            DiceOrigin::Explicit => "dice: explicit, not derived from a seed".to_string(),
        };
        let plural = if self.turns == 1 { "" } else { "s" };
        format!(
            "{}: {} {word}{plural}, {}, {seed}",
            self.game, self.turns, self.result
        )
    }

    /// How a game ended, in the words every game uses unless it has its own.
    pub fn outcome_text(outcome: Outcome) -> String {
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

/// A verification error at `line` (0: the file as a whole).
pub fn fail(line: usize, message: impl Into<String>) -> VerifyError {
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
    if first.kind() != Some("setup") {
        return Err(fail(
            first.number,
            format!("type: expected \"setup\", found {}", first.kind_shown()),
        ));
    }
    let game = match first.value.get("game") {
        Some(Value::String(name)) => {
            crate::games::by_name(name).map_err(|e| fail(first.number, format!("game: {e}")))?
        }
        None => return Err(fail(first.number, "missing field `game`")),
        Some(other) => {
            return Err(fail(
                first.number,
                format!("game: invalid type: {other}, expected the name of a game"),
            ))
        }
    };
    game.verify(reader, first)
}
