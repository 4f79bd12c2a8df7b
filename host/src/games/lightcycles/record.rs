//! Light cycles records (docs/RECORDS.md's envelope: JSON Lines, `setup`, `start`, one `turn`
//! line per tick with every living seat's answer, `end` with the digest), written here and read
//! back for the verifier, which replays the recorded answers and fuel with the rules and the
//! clock and requires the very same record back, one line at a time. Line types declare their
//! fields in sorted key order, as the other games' do.

use lightcycles_rules::{Answer, Death, Turn};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::rules::{GameEnd, Setup, State, TickPlayed};
use super::{Lightcycles, Settings};
use crate::game::fuel_clock::CLOCK_HINT;
use crate::game::record::jsonl::LogsJson;
use crate::game::record::read::{answer_or_fault, first_log, seat_of, typed_line, SetupHead};
use crate::game::record::seat_lines::LogJson;
use crate::game::record::{
    fail, Line, Lines, Record, RecordMeta, Recorded, RecordedDecision, VerifyError, VerifySummary,
};
use crate::game::{Fault, FaultPolicy, FuelClock, GameSettings, Summary};

/// The setup line's own fields (the envelope's are [`SetupHead`]'s).
#[derive(Deserialize)]
struct SetupJson {
    seed: u64,
    round_cap: u32,
    fault_policy: FaultPolicy,
    clock: FuelClock,
    width: u32,
    height: u32,
    walls: u32,
}

/// One seat's part of a turn line.
#[derive(Serialize)]
struct MoveLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    death: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fault: Option<&'a Fault>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fuel: Option<u64>,
    head: [u8; 2],
    heading: &'static str,
    #[serde(skip_serializing_if = "LogsJson::is_empty")]
    logs: LogsJson<'a>,
    /// Why the host took the seat out: `forfeit`, `time` or `load`.
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<&'static str>,
    played: &'static str,
    seat: usize,
}

#[derive(Serialize)]
struct TurnLine<'a> {
    moves: Vec<MoveLine<'a>>,
    tick: u32,
    #[serde(rename = "type")]
    kind: &'static str,
}

#[derive(Deserialize)]
struct MoveJson {
    seat: usize,
    #[serde(default)]
    answer: Option<String>,
    #[serde(default)]
    fault: Option<Fault>,
    #[serde(default)]
    fuel: Option<u64>,
    #[serde(default)]
    logs: Vec<LogJson>,
}

#[derive(Deserialize)]
struct TurnJson {
    moves: Vec<MoveJson>,
}

fn played_name(a: Answer) -> &'static str {
    match a {
        Answer::Turn(t) => t.name(),
        Answer::Out => "out",
    }
}

impl Record for Lightcycles {
    // A turn line is about 120 bytes a seat.
    const TURN_BYTES: usize = 320;
    const RULES_VERSION: u32 = lightcycles_rules::RULES_VERSION;

    /// The clock and the grid.
    fn setup_fields(&self, setup: &Setup) -> Value {
        let grid = setup.settings;
        json!({"clock": setup.clock(), "height": grid.height, "walls": grid.walls, "width": grid.width})
    }

    fn start_lines(&self, state: &State, out: &mut Lines<'_>) -> serde_json::Result<()> {
        out.push(&state.started.line())
    }

    fn turn_lines(&self, t: &TickPlayed, out: &mut Lines<'_>) -> serde_json::Result<()> {
        let moves = t
            .moves
            .iter()
            .map(|m| MoveLine {
                answer: m.answer.map(Turn::name),
                clock: m.asked.then_some(m.clock),
                death: m.death.map(|c| c.name()),
                fault: m.fault.as_ref().map(|f| &f.fault),
                fuel: m.asked.then_some(m.fuel),
                head: [m.head.x, m.head.y],
                heading: m.heading.name(),
                logs: LogsJson(&m.logs),
                out: (m.played == Answer::Out).then_some(match &m.fault {
                    None => "load",
                    Some(f) if f.time => "time",
                    Some(_) => "forfeit",
                }),
                played: played_name(m.played),
                seat: m.seat,
            })
            .collect();
        out.push(&TurnLine {
            moves,
            tick: t.tick,
            kind: "turn",
        })
    }

    fn end_fields(&self, end: &GameEnd) -> Value {
        let death = |d: &Option<Death>| d.map(|d| json!({"cause": d.cause.name(), "tick": d.tick}));
        let deaths: Vec<Option<Value>> = end.deaths.iter().map(death).collect();
        json!({
            "clocks": end.clocks, "deaths": deaths, "end": end.end.name(),
            "forfeits": end.forfeits, "fuel": end.fuel, "outcome": end.outcome,
            "places": end.places, "ticks": end.ticks,
        })
    }

    fn read_setup(&self, first: &Line) -> Result<(Setup, RecordMeta), VerifyError> {
        // The seats' number is the setup's to check (`Setup::check`).
        let head = SetupHead::of(self, first, |_| Ok(()))?;
        let s: SetupJson = typed_line(&first.value, 1, "setup")?;
        // The limits must agree with the clock where they say the same thing.
        let clock = s.clock.agreeing_with(head.limits(), |d| {
            format!(
                "limits.{} is {}, but the clock says {}",
                d.key, d.found, d.value
            )
        })?;
        let setup = Setup {
            seed: s.seed,
            players: head.players(),
            round_cap: s.round_cap,
            policy: s.fault_policy,
            settings: Settings {
                width: s.width,
                height: s.height,
                walls: s.walls,
                clock: clock.start,
                increment: clock.increment,
            },
            decision_cap: clock.decision_cap,
        };
        setup.check().map_err(|e| fail(1, e.to_string()))?;
        Ok((setup, head.meta()))
    }

    fn read_turn(&self, setup: &Setup, line: &Line) -> Result<Recorded<Turn>, VerifyError> {
        let t: TurnJson = typed_line(&line.value, line.number, "turn")?;
        let mut recorded = Recorded::default();
        // The seats not asked (out at load) have no fuel: nothing to replay.
        for m in t.moves.into_iter().filter(|m| m.fuel.is_some()) {
            let seat = seat_of(line, m.seat, setup.players)?;
            let answer = m.answer.map(|text| {
                let turn = Turn::ALL.into_iter().find(|t| t.name() == text);
                turn.ok_or_else(|| {
                    let message = format!("answer {text:?} is not left, straight or right");
                    fail(line.number, message)
                })
            });
            let answer = answer_or_fault(answer, m.fault, "an answer")?;
            recorded.decision(RecordedDecision {
                seat,
                decision: 0,
                answer,
                fuel: m.fuel.unwrap_or(0),
                log: first_log(m.logs),
            });
        }
        Ok(recorded)
    }

    fn hint(&self, _setup: &Setup, path: &str) -> String {
        if path.contains("clock") || path.contains("fuel") {
            CLOCK_HINT.into()
        } else {
            String::new()
        }
    }

    fn end_reason(&self, end: &GameEnd) -> Option<&'static str> {
        Some(end.end.name())
    }

    fn result(&self, _setup: &Setup, end: &GameEnd, summary: &Summary) -> String {
        let places: Vec<String> = end.places.iter().map(u8::to_string).collect();
        format!(
            "{} ({}; places {})",
            VerifySummary::outcome_text(summary.outcome),
            end.end.name(),
            places.join(", ")
        )
    }

    fn settings_of(&self, setup: &Setup) -> Option<GameSettings> {
        setup.settings.to_map().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tampered_agent_hash_is_refused() {
        let setup = Setup {
            seed: 7,
            players: 3,
            round_cap: 100,
            policy: FaultPolicy::Forfeit,
            settings: super::super::settings::DEFAULT,
            decision_cap: 1000,
        };
        crate::testing::assert_tampered_agent_refused(&Lightcycles, &setup);
    }
}
