//! What verification tells of a record ([`VerifySummary`]) or why it refused it
//! ([`VerifyError`]). The verifier itself is `replay.rs`'s; the registry hands a record to the
//! game its setup line names (`crate::Registry::verify_reader`).

use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

use super::lines::ReadError;
use crate::{FaultPolicy, Outcome};

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
    /// The game's name.
    pub game: &'static str,
    /// What one of the game's turns is called, and whether its seed rolls dice
    /// ([`GameInfo::turn_word`], [`GameInfo::dice`]).
    pub turn_word: &'static str,
    pub rolls_dice: bool,
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
    /// (`crate::Game::settings`); `None` for a game that has none.
    pub settings: Option<Map<String, Value>>,
}

impl VerifySummary {
    /// `12 turns, winner: seat 1, dice: seeded 123` style, in the words of the game: its own
    /// name for a turn (`GameInfo::turn_word`), and `seed 3` when the seed rolls no dice.
    pub fn describe(&self) -> String {
        let word = self.turn_word;
        let seed = match self.dice {
            DiceOrigin::Seeded(seed) if self.rolls_dice => {
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
