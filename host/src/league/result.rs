//! The result of one league game, as the journal stores it.

use serde::{Deserialize, Serialize};

pub use crate::game::FaultNote;
use crate::game::{FaultKind, Outcome, Summary};

/// The decision name of faults while loading an agent for a game, in every game's records.
pub const INIT_DECISION: &str = "init";

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
    /// Final scores by seat, for games that keep a score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i64>>,
    /// Record file, relative to the output folder.
    pub record: String,
}

impl GameResult {
    pub fn new(
        id: usize,
        key: &str,
        seed: u64,
        seats: Vec<String>,
        summary: Summary,
        record_path: String,
    ) -> GameResult {
        GameResult {
            id,
            key: key.to_owned(),
            seed,
            seats,
            outcome: summary.outcome,
            rounds: summary.rounds,
            turns: summary.turns,
            forfeits: summary.forfeits,
            faults: summary.faults,
            scores: summary.scores,
            record: record_path,
        }
    }

    /// Checks what `ranks` and the standings index by seat, for a result read back from a
    /// journal: every seat named there is a seat of the game, and scores (if any) are one per seat.
    pub fn check_seats(&self) -> Result<(), String> {
        let n = self.seats.len();
        if let Some(seat) = self.outcome.winner().filter(|&s| s >= n) {
            return Err(format!("winner seat {seat} in a game of {n} seats"));
        }
        if let Some(&seat) = self.forfeits.iter().find(|&&s| s >= n) {
            return Err(format!("forfeit of seat {seat} in a game of {n} seats"));
        }
        match &self.scores {
            Some(scores) if scores.len() != n => {
                Err(format!("{} scores for a game of {n} seats", scores.len()))
            }
            _ => Ok(()),
        }
    }

    /// Seats that could not play at all: a fault while loading (`init`) put them out of the game
    /// before their first decision.
    pub fn unloaded(&self, seat: usize) -> bool {
        self.forfeits.contains(&seat)
            && self
                .faults
                .iter()
                .any(|f| f.seat == seat && f.decision == INIT_DECISION)
    }

    /// A game of two or more seats in which no seat could play: journaled and recorded, but a
    /// result for nobody (two agents that both fail to load have not drawn against each other).
    /// A solo game whose agent fails to load is that agent's game that did not reach the target.
    pub fn nobody_played(&self) -> bool {
        self.seats.len() > 1 && (0..self.seats.len()).all(|s| self.unloaded(s))
    }

    /// True when a seat had a fault of the wall-clock backstop (`timeout`): how the game went then
    /// depends on the speed and load of the machine, so it may not be reproduced elsewhere.
    pub fn machine_dependent(&self) -> bool {
        self.faults
            .iter()
            .any(|f| f.kind == FaultKind::Timeout.name())
    }

    /// Finishing rank of each seat (0 = best; equal ranks are ties): the winner first, then the
    /// players still in the game (by score, for games that keep one), then those who forfeited,
    /// the latest forfeit ranking highest.
    pub fn ranks(&self) -> Vec<usize> {
        let n = self.seats.len();
        let winner = self.outcome.winner();
        let score = |seat: usize| self.scores.as_ref().map_or(0, |s| s[seat]);
        let playing: Vec<usize> = (0..n).filter(|s| !self.forfeits.contains(s)).collect();
        let mut ranks = vec![0; n];
        for &seat in &playing {
            if Some(seat) != winner {
                let better = playing
                    .iter()
                    .filter(|&&o| Some(o) != winner && score(o) > score(seat))
                    .count();
                ranks[seat] = 1 + better;
            }
        }
        let base = playing
            .iter()
            .map(|&s| ranks[s] + 1)
            .max()
            .unwrap_or(0)
            .max(2);
        for (pos, &seat) in self.forfeits.iter().enumerate() {
            // Forfeited first = worst.
            ranks[seat] = base + (self.forfeits.len() - 1 - pos);
        }
        ranks
    }
}
