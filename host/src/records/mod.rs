//! Game records: JSON Lines writing, reading and verification. The format is specified in
//! docs/RECORDS.md so that records can be checked without this code.

use std::sync::Arc;

pub mod diff;
pub mod format;
pub(crate) mod jsonl;
pub mod ledger;
pub mod lines;
pub mod read;
pub(crate) mod replay;
pub(crate) mod stream;
pub mod strict_json;
pub mod verify;
pub mod write;

pub use lines::{MAX_LINE_BYTES, MAX_LINE_VALUES};
pub use read::{read_record, ParsedRecord, ReadError};
pub use verify::{
    verify_reader, verify_record, verify_record_bytes, DiceOrigin, FaultCounts, VerifyError,
    VerifySummary,
};
pub use write::{record_bytes, record_to_string, write_record};

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

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests;
