//! Game records, whatever the game: the envelope every record shares (JSON Lines, a `setup` line
//! naming the game and its players, the lines of the start, the lines of each turn, an `end` line
//! with the digest; docs/RECORDS.md), written once for every game ([`write`]) and verified once
//! for every game ([`verify`]): the verifier replays the recorded answers through the game loop
//! that plays, and requires the very same lines back. A game says only what its lines hold
//! ([`Record`]).
//!
//! Also here: reading a record as a stream in bounded memory ([`lines`], [`strict_json`]),
//! comparing two lines ([`diff`], [`stream`]), and the parts of lines games share: as written
//! ([`jsonl`], [`seat_lines`]) and as read back ([`read`]).

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::rules::{Loaded, Rules};
use crate::Summary;

pub mod diff;
pub mod jsonl;
pub mod lines;
pub mod read;
pub mod replay;
pub mod seat_checks;
pub mod seat_lines;
pub mod setup_line;
pub mod stream;
pub mod strict_json;
pub mod verify;
pub mod write;

#[cfg(test)]
mod digest_tests;

pub use lines::{Line, ReadError, RecordReader, MAX_LINE_BYTES, MAX_LINE_VALUES};
pub use replay::{verify_text, Recorded, RecordedDecision};
pub use verify::{fail, DiceOrigin, FaultCounts, VerifyError, VerifySummary};
pub use write::{write_kept, Lines, Writer};

pub use arena_sandbox::sha256_hex;

/// `format` field of every record's setup line.
pub const FORMAT_NAME: &str = "arena-record";
/// `format_version` field of the setup line. Bump on any change a reader could notice.
pub const FORMAT_VERSION: u32 = 1;

/// What a record says about a game that the game loop does not know: who played and under which
/// limits.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordMeta {
    /// One display name per seat.
    pub names: Vec<String>,
    /// One SHA-256 (lower-case hex) of the agent's module per seat; `None` for a native player.
    pub agent_hashes: Vec<Option<String>>,
    /// Free-form settings worth keeping with the game (fuel budgets, memory limits...): a JSON
    /// object, or `null` for none. Shared: a league records the same limits with every game.
    pub limits: Arc<Value>,
}

impl RecordMeta {
    /// Names `seat 0`, `seat 1`..., no agent hashes, no limits: for native players and tests.
    pub fn anonymous(players: usize) -> RecordMeta {
        RecordMeta {
            names: (0..players).map(|s| format!("seat {s}")).collect(),
            agent_hashes: vec![None; players],
            limits: Arc::new(Value::Null),
        }
    }

    /// The limits as the setup line has them: an object (`null` is `{}`).
    pub fn limits_object(&self) -> serde_json::Map<String, Value> {
        match &*self.limits {
            Value::Object(m) => m.clone(),
            _ => serde_json::Map::new(),
        }
    }
}

/// What a game's records hold: its own lines around the envelope. The writer ([`write`]) and the
/// verifier ([`verify`]) are the host's, for every game; the verifier reads each line back with
/// the `read_` methods and replays the answers they give through the game loop.
pub trait Record: Rules {
    /// Bytes to reserve per record turn, so that the buffer is not regrown line after line.
    const TURN_BYTES: usize = 256;

    /// The version of its rules the setup line states, and a record must state to be verified.
    const RULES_VERSION: u32;

    /// The setup line of a game of `setup` played by `meta`'s players (an error: `meta` does not
    /// fit the setup): the envelope's fields, the table's and the game's own
    /// ([`Record::setup_fields`]), as [`setup_line::push`] writes them.
    fn setup_line(
        &self,
        setup: &Self::Setup,
        meta: &RecordMeta,
        out: &mut Lines<'_>,
    ) -> anyhow::Result<()> {
        setup_line::push(self, setup, meta, out)
    }

    /// The setup line's fields that are the game's own (a JSON object; the envelope's and the
    /// table's seed, round cap and fault policy are written for it). None for a game that writes
    /// its setup line itself.
    fn setup_fields(&self, setup: &Self::Setup) -> Value {
        let _ = setup;
        Value::Null
    }

    /// The lines of the game's start (agents that failed to load, what they logged), from the
    /// game as [`Rules::start`] made it.
    fn start_lines(&self, state: &Self::State, out: &mut Lines<'_>) -> serde_json::Result<()>;

    /// The lines of one record turn.
    fn turn_lines(&self, turn: &Self::Turn, out: &mut Lines<'_>) -> serde_json::Result<()>;

    /// The end line (`digest`: of every line before it): the game's fields
    /// ([`Record::end_fields`]) and the digest, in sorted key order ([`Lines::push_sorted`]).
    fn end_line(
        &self,
        end: &Self::End,
        digest: &str,
        out: &mut Lines<'_>,
    ) -> serde_json::Result<()> {
        let mut fields = self.end_fields(end);
        fields["digest"] = digest.into();
        out.push_sorted("end", fields)
    }

    /// The end line's fields but the digest (a JSON object). None for a game that writes its end
    /// line itself.
    fn end_fields(&self, end: &Self::End) -> Value {
        let _ = end;
        Value::Null
    }

    /// The setup and the players of a setup line, checked (its format, the game's name and
    /// rules version, its players).
    fn read_setup(&self, line: &Line) -> Result<(Self::Setup, RecordMeta), VerifyError>;

    /// Each seat's start (a fault while loading, a log) from the record's start line: the
    /// shared start line's ([`read::read_start`]), unless the game writes its own.
    fn read_start(&self, setup: &Self::Setup, line: &Line) -> Result<Vec<Loaded>, VerifyError> {
        read::read_start(line, self.players(setup))
    }

    /// The decisions (and given dice) of one turn line, in the order the game asks for them.
    fn read_turn(
        &self,
        setup: &Self::Setup,
        line: &Line,
    ) -> Result<Recorded<Self::Answer>, VerifyError>;

    /// What to add to the message of a difference at `path` (`" (the dice of seed 3)"`).
    fn hint(&self, setup: &Self::Setup, path: &str) -> String {
        let _ = (setup, path);
        String::new()
    }

    /// The digest the end line states, the line read (its other fields are compared with the
    /// replay's).
    fn read_end(&self, setup: &Self::Setup, line: &Line) -> Result<String, VerifyError> {
        let _ = setup;
        replay::end_digest(line)
    }

    /// How the replayed game ended, in words, for a record that goes on after it: the outcome,
    /// and the rules' reason when the game has one.
    fn ended(&self, end: &Self::End, summary: &Summary) -> String {
        let outcome = VerifySummary::outcome_text(summary.outcome);
        match self.end_reason(end) {
            Some(reason) => format!("{outcome}, {reason}"),
            None => outcome,
        }
    }

    /// Why the game ended, as its record's end line names it (`"ply_cap"`); `None` for a game
    /// whose end line does not say.
    fn end_reason(&self, end: &Self::End) -> Option<&'static str> {
        let _ = end;
        None
    }

    /// The setup's round cap, as the record states it: what each seat's agent is told.
    fn round_cap(&self, setup: &Self::Setup) -> u32 {
        self.init(setup, 0).round_cap
    }

    /// How the game ended, in words, for `arena verify` (`winner: seat 1`).
    fn result(&self, setup: &Self::Setup, end: &Self::End, summary: &Summary) -> String {
        let _ = (setup, end);
        VerifySummary::outcome_text(summary.outcome)
    }

    /// The game's own settings the record states, as a league keeps them; `None` for a game
    /// that has none.
    fn settings_of(&self, setup: &Self::Setup) -> Option<crate::GameSettings> {
        let _ = setup;
        None
    }
}

/// A line as a JSON value, as the verifier compares it.
pub fn value_of(line: &impl Serialize) -> Result<Value, VerifyError> {
    serde_json::to_value(line).map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))
}
