//! Jungle records: the envelope of every arena record (docs/RECORDS.md: JSON Lines, `setup`,
//! `start`, one `turn` line per ply, `end` with the digest) with Jungle's own fields, written by
//! `write.rs` and read back here for the verifier, which replays the recorded answers and fuel
//! from the recorded start position with the rules and the clock, and requires the very same
//! record back, one line at a time.

use jungle_rules::{Move, Position};
use serde::Deserialize;
use serde_json::{json, Value};

use super::rules::State;
use super::turn::{GameEnd, Ply, Setup};
use super::Jungle;
use crate::game::fuel_clock::{FuelClock, CLOCK_HINT};
use crate::game::record::read::{answer_or_fault, first_log, seat_of, typed_line, SetupHead};
use crate::game::record::seat_lines::LogJson;
use crate::game::record::{
    fail, Line, Lines, Record, RecordMeta, Recorded, RecordedDecision, VerifyError, VerifySummary,
};
use crate::game::{Fault, FaultPolicy, GameSettings, Outcome, Summary};

mod write;

use write::TurnLine;

/// The setup line's own fields (the envelope's are [`SetupHead`]'s).
#[derive(Deserialize)]
struct SetupJson {
    seed: u64,
    round_cap: u32,
    fault_policy: FaultPolicy,
    clock: FuelClock,
    position: String,
}

#[derive(Deserialize)]
struct TurnJson {
    seat: usize,
    #[serde(default, rename = "move")]
    answer: Option<String>,
    #[serde(default)]
    fault: Option<Fault>,
    fuel: u64,
    #[serde(default)]
    logs: Vec<LogJson>,
}

impl Record for Jungle {
    // A turn line is about 150 bytes.
    const TURN_BYTES: usize = 192;
    const RULES_VERSION: u32 = jungle_rules::RULES_VERSION;

    /// The clock, the ply cap and the start position in the notation.
    fn setup_fields(&self, setup: &Setup) -> Value {
        let position = setup.start.to_string();
        json!({"clock": setup.clock, "ply_cap": setup.ply_cap(), "position": position})
    }

    fn start_lines(&self, state: &State, out: &mut Lines<'_>) -> serde_json::Result<()> {
        out.push(&state.started.line())
    }

    fn turn_lines(&self, ply: &Ply, out: &mut Lines<'_>) -> serde_json::Result<()> {
        out.push(&TurnLine::of(ply))
    }

    fn end_fields(&self, end: &GameEnd) -> Value {
        json!({
            "clocks": end.clocks, "forfeits": end.forfeits, "fuel": end.fuel,
            "outcome": end.outcome, "position": end.position.to_string(),
            "reason": end.reason.name(), "rounds": end.rounds(), "turns": end.turns,
        })
    }

    fn read_setup(&self, first: &Line) -> Result<(Setup, RecordMeta), VerifyError> {
        let head = SetupHead::of(self, first, |n| match n {
            2 => Ok(()),
            n => Err(format!("players: {n} seats, Jungle has 2")),
        })?;
        let setup: SetupJson = typed_line(&first.value, 1, "setup")?;
        let start = Position::parse(&setup.position).map_err(|e| {
            fail(
                1,
                format!("position {}: {e}", Value::String(setup.position.clone())),
            )
        })?;
        // The limits must agree with the clock where they say the same thing.
        let clock = setup.clock.agreeing_with(head.limits(), |d| {
            let (key, found, field, value) = (d.key, d.found, d.field, d.value);
            format!("limits.{key} is {found}, but clock.{field} is {value}")
        })?;
        let game = Setup {
            seed: setup.seed,
            round_cap: setup.round_cap,
            policy: setup.fault_policy,
            clock,
            start,
        };
        Ok((game, head.meta()))
    }

    fn read_turn(&self, _setup: &Setup, line: &Line) -> Result<Recorded<Move>, VerifyError> {
        let t: TurnJson = typed_line(&line.value, line.number, "turn")?;
        let seat = seat_of(line, t.seat, 2)?;
        let answer = t.answer.map(|text| {
            Move::parse(&text)
                .map_err(|e| fail(line.number, format!("move: {}: {e}", Value::String(text))))
        });
        let answer = answer_or_fault(answer, t.fault, "a move")?;
        let mut recorded = Recorded::default();
        recorded.decision(RecordedDecision {
            seat,
            decision: 0,
            answer,
            fuel: t.fuel,
            log: first_log(t.logs),
        });
        Ok(recorded)
    }

    /// A difference in a clock or a fuel figure says how the clock runs.
    fn hint(&self, _setup: &Setup, path: &str) -> String {
        if path == "clock" || path == "fuel" || path.starts_with("clocks") {
            CLOCK_HINT.into()
        } else {
            String::new()
        }
    }

    fn end_reason(&self, end: &GameEnd) -> Option<&'static str> {
        Some(end.reason.name())
    }

    fn result(&self, _setup: &Setup, end: &GameEnd, summary: &Summary) -> String {
        match summary.outcome {
            // The end line says which of the rules' draws it was.
            Outcome::Draw { round_cap: true } => format!("draw ({})", end.reason.words()),
            outcome => VerifySummary::outcome_text(outcome),
        }
    }

    /// The game's settings as a league keeps them: the clock, and the start position when it is
    /// not the usual one.
    fn settings_of(&self, setup: &Setup) -> Option<GameSettings> {
        super::Settings {
            clock: setup.clock.start,
            increment: setup.clock.increment,
            position: (setup.start != Position::start()).then(|| setup.start.to_string()),
        }
        .to_map()
        .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::FuelClock;

    #[test]
    fn a_tampered_agent_hash_is_refused() {
        let clock = FuelClock {
            start: 100,
            increment: 10,
            decision_cap: 50,
        };
        let setup = super::Setup::new(7, 40, clock);
        crate::testing::assert_tampered_agent_refused(&super::Jungle, &setup);
    }
}
