//! The result of one league game, as the journal stores it.

use serde::{Deserialize, Serialize};

use crate::farm::{Event, GameRecord, Outcome};

/// One fault, attributed to an agent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultNote {
    pub seat: usize,
    pub decision: String,
    pub kind: String,
    pub detail: String,
}

/// What the standings need from a game, small enough to journal a line per game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    pub id: usize,
    pub key: String,
    pub seed: u64,
    /// Agent names by seat.
    pub seats: Vec<String>,
    pub outcome: Outcome,
    pub rounds: u32,
    pub turns: u32,
    /// Seats that forfeited, in order.
    pub forfeits: Vec<usize>,
    pub faults: Vec<FaultNote>,
    /// Record file, relative to the output folder.
    pub record: String,
}

impl GameResult {
    pub fn from_record(
        id: usize,
        key: &str,
        seats: Vec<String>,
        record: &GameRecord,
        record_path: String,
    ) -> GameResult {
        let faults = record
            .start_events
            .iter()
            .chain(record.turns.iter().flat_map(|t| t.events.iter()))
            .filter_map(|e| match e {
                Event::Fault {
                    seat,
                    decision,
                    fault,
                } => Some(FaultNote {
                    seat: *seat,
                    decision: serde_json::to_value(decision)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                    kind: fault.kind.name().to_owned(),
                    detail: fault.detail.clone(),
                }),
                _ => None,
            })
            .collect();
        GameResult {
            id,
            key: key.to_owned(),
            seed: record.setup.seed.unwrap_or(0),
            seats,
            outcome: record.outcome,
            rounds: record.rounds(),
            turns: record.turns.len() as u32,
            forfeits: record.forfeits.clone(),
            faults,
            record: record_path,
        }
    }

    /// Finishing rank of each seat (0 = best; equal ranks are ties): the winner first, then the
    /// players still in the game, then those who forfeited, the latest forfeit ranking highest.
    pub fn ranks(&self) -> Vec<usize> {
        let n = self.seats.len();
        let winner = self.outcome.winner();
        (0..n)
            .map(|seat| {
                if Some(seat) == winner {
                    0
                } else if let Some(pos) = self.forfeits.iter().position(|&s| s == seat) {
                    // Forfeited first = worst.
                    2 + (self.forfeits.len() - 1 - pos)
                } else {
                    1
                }
            })
            .collect()
    }
}
