//! Farkle records: the envelope of every arena record (docs/RECORDS.md: JSON Lines, `setup`,
//! `start`, one `turn` line per turn, `end` with the digest), with Farkle's own fields: written by
//! `write.rs`, read back here for the verifier, which replays the recorded answers against the
//! dice of the seed and requires the very same record back.

use serde::Deserialize;
use serde_json::{json, Value};

use super::rules::State;
use super::turn::{Answer, GameEnd, Setup, TurnRecord};
use super::Farkle;
use crate::game::record::read::{first_log, seat_of, typed_line, SetupHead};
use crate::game::record::seat_lines::LogJson;
use crate::game::record::{
    fail, Line, Lines, Record, RecordMeta, Recorded, RecordedDecision, VerifyError, VerifySummary,
};
use crate::game::{Fault, FaultPolicy, Outcome, Summary};

mod write;

use write::TurnLine;

/// The setup line's own fields (the envelope's are [`SetupHead`]'s).
#[derive(Deserialize)]
struct SetupJson {
    seed: u64,
    dice: String,
    round_cap: u32,
    target: u32,
    fault_policy: FaultPolicy,
}

#[derive(Deserialize)]
struct TurnJson {
    seat: usize,
    rolls: Vec<RollJson>,
    #[serde(default)]
    fault: Option<Fault>,
    #[serde(default)]
    logs: Vec<LogJson>,
}

#[derive(Deserialize)]
struct RollJson {
    #[serde(default)]
    draft: Option<Vec<u32>>,
    #[serde(default)]
    action: Option<u32>,
}

impl Record for Farkle {
    // A turn line is 100 to 400 bytes.
    const TURN_BYTES: usize = 384;
    const RULES_VERSION: u32 = farkle_rules::RULES_VERSION;

    /// The dice are always the seed's.
    fn setup_fields(&self, setup: &Setup) -> Value {
        json!({"dice": "seeded", "target": setup.target})
    }

    fn start_lines(&self, state: &State, out: &mut Lines<'_>) -> serde_json::Result<()> {
        out.push(&state.started.line())
    }

    fn turn_lines(&self, turn: &TurnRecord, out: &mut Lines<'_>) -> serde_json::Result<()> {
        out.push(&TurnLine::of(turn))
    }

    fn end_fields(&self, end: &GameEnd) -> Value {
        json!({
            "forfeits": end.forfeits, "outcome": end.outcome, "rounds": end.rounds,
            "scores": end.scores, "turns": end.turns,
        })
    }

    fn read_setup(&self, first: &Line) -> Result<(Setup, RecordMeta), VerifyError> {
        let head = SetupHead::of(self, first, |n| match n {
            n if super::INFO.seats.contains(&n) => Ok(()),
            n => Err(format!("players: {n} seats, expected 1 to 6")),
        })?;
        let setup: SetupJson = typed_line(&first.value, 1, "setup")?;
        if setup.dice != "seeded" {
            return Err(fail(1, "dice: Farkle records are always \"seeded\""));
        }
        let game = Setup {
            players: head.players(),
            seed: setup.seed,
            round_cap: setup.round_cap,
            policy: setup.fault_policy,
            target: setup.target,
        };
        Ok((game, head.meta()))
    }

    fn read_turn(&self, setup: &Setup, line: &Line) -> Result<Recorded<Answer>, VerifyError> {
        let t: TurnJson = typed_line(&line.value, line.number, "turn")?;
        seat_of(line, t.seat, setup.players)?;
        // A turn's log belongs to its first decision (the game keeps one entry per turn).
        let mut log = first_log(t.logs);
        let mut fault = t.fault;
        let rolls = t.rolls.into_iter();
        let answers = rolls.filter_map(|r| match (r.draft, r.action) {
            (Some(draft), Some(action)) => Some(Ok(Answer { action, draft })),
            // No answer: a farkle (nobody was asked) or the turn's fault.
            _ => fault.take().map(Err),
        });
        let mut recorded = Recorded::default();
        for answer in answers {
            recorded.decision(RecordedDecision {
                seat: t.seat,
                decision: 0,
                answer,
                fuel: 0,
                log: log.take(),
            });
        }
        Ok(recorded)
    }

    /// A difference in the dice is not the dice of the seed.
    fn hint(&self, setup: &Setup, path: &str) -> String {
        if path.contains("dice") {
            format!(" (the dice of seed {})", setup.seed)
        } else {
            String::new()
        }
    }

    /// How a game ended, in words: a solo game reaches the target or not; a race may end in a
    /// shared highest score.
    fn result(&self, setup: &Setup, _end: &GameEnd, summary: &Summary) -> String {
        match (setup.players, summary.outcome) {
            (1, Outcome::Win { .. }) => "target reached".to_string(),
            (1, Outcome::Draw { round_cap: true }) => {
                "target not reached within the round cap".to_string()
            }
            (1, _) => "target not reached (forfeited)".to_string(),
            (_, Outcome::Draw { round_cap: false }) => {
                "draw (a shared highest score, or everyone forfeited)".to_string()
            }
            (_, outcome) => VerifySummary::outcome_text(outcome),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_tampered_agent_hash_is_refused() {
        let setup = super::Setup::new(3, 7, 20);
        crate::testing::assert_tampered_agent_refused(&super::Farkle, &setup);
    }
}
