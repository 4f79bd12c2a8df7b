//! Game records, whatever the game: the envelope every record shares (JSON Lines, a `setup` line
//! naming the game and its players, a `start` line, one `turn` line per turn, an `end` line with
//! the digest; docs/RECORDS.md), reading it as a stream in bounded memory, comparing a replay with
//! it line by line, and verification, which hands each record to its game ([`verify_reader`]).
//! Each game's own lines are written, read and replayed in its folder.

use std::sync::Arc;

pub mod diff;
pub mod jsonl;
pub mod lines;
pub(crate) mod seat_lines;
pub mod stream;
pub mod strict_json;
pub mod verify;

pub use lines::{Line, ReadError, RecordReader, MAX_LINE_BYTES, MAX_LINE_VALUES};
pub use verify::{
    fail, verify_reader, verify_record, verify_record_bytes, DiceOrigin, FaultCounts, VerifyError,
    VerifySummary,
};

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
    pub limits: Arc<serde_json::Value>,
}

impl RecordMeta {
    /// Names `seat 0`, `seat 1`..., no agent hashes, no limits: for native players and tests.
    pub fn anonymous(players: usize) -> RecordMeta {
        RecordMeta {
            names: (0..players).map(|s| format!("seat {s}")).collect(),
            agent_hashes: vec![None; players],
            limits: Arc::new(serde_json::Value::Null),
        }
    }
}

pub use crate::sandbox::sha256_hex;

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests;
