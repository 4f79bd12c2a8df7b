//! Little Animal Farm's records (docs/RECORDS.md): the JSON of their parts (`format.rs`; the
//! events are `Event` itself), the lines as written from a game (`write.rs`), and read back for
//! the verifier (`read.rs`), which replays the recorded decisions (and dice, when the record gives
//! them) through the host's game loop and requires the very same lines back.

pub mod format;
mod read;
pub mod write;

use super::rules::State;
use super::turn::{Answer, GameEnd};
use super::{Farm, Setup, TurnRecord};
use crate::game::record::{Line, Lines, Record, RecordMeta, Recorded, VerifyError};
use crate::game::Loaded;

use write::{end_line, setup_line, start_line, TurnLine};
pub use write::{record_bytes, record_to_string};

impl Record for Farm {
    // A turn line is 200 to 500 bytes.
    const TURN_BYTES: usize = 512;
    const RULES_VERSION: u32 = farm_rules::RULES_VERSION;

    /// The farm's setup line keeps the order of its fields of old (`type` first).
    fn setup_line(
        &self,
        setup: &Setup,
        meta: &RecordMeta,
        out: &mut Lines<'_>,
    ) -> anyhow::Result<()> {
        out.push(&setup_line(setup, meta)?)?;
        Ok(())
    }

    fn start_lines(&self, state: &State, out: &mut Lines<'_>) -> serde_json::Result<()> {
        let (events, logs) = state.start();
        out.push(&start_line(events, logs))
    }

    fn turn_lines(&self, turn: &TurnRecord, out: &mut Lines<'_>) -> serde_json::Result<()> {
        out.push(&TurnLine::of(turn))
    }

    fn end_line(&self, end: &GameEnd, digest: &str, out: &mut Lines<'_>) -> serde_json::Result<()> {
        out.push(&end_line(
            end.outcome,
            end.rounds,
            &end.forfeits,
            &end.final_position,
            digest,
        ))
    }

    fn read_setup(&self, line: &Line) -> Result<(Setup, RecordMeta), VerifyError> {
        read::setup_of(line)
    }

    fn read_start(&self, setup: &Setup, line: &Line) -> Result<Vec<Loaded>, VerifyError> {
        read::start_of(line, setup.players)
    }

    /// The decisions of a turn: the trade (an offer, or the fault of the decision), then the
    /// partner's answer to an offer made to it (or the fault of that decision); and the roll of a
    /// record whose dice are given.
    fn read_turn(&self, setup: &Setup, line: &Line) -> Result<Recorded<Answer>, VerifyError> {
        read::turn_of(setup, line)
    }

    /// A difference in a roll is not the dice of the seed.
    fn hint(&self, setup: &Setup, path: &str) -> String {
        match setup.seed {
            Some(seed) if path.starts_with("roll") || path.contains(".roll") => {
                format!(" (the dice of seed {seed})")
            }
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests;
