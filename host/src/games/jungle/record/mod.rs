//! Jungle records: the envelope of every arena record (docs/RECORDS.md: JSON Lines, `setup`,
//! `start`, one `turn` line per ply, `end` with the digest) with Jungle's own fields, written by
//! `write.rs` and read back here for the verifier, which replays the recorded answers and fuel
//! from the recorded start position with the rules and the clock, and requires the very same
//! record back, one line at a time.

use jungle_rules::{Move, Position};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::rules::State;
use super::turn::{FuelClock, GameEnd, Ply, Setup};
use super::Jungle;
use crate::game::record::seat_lines::{LogJson, PlayerJson, StartJson};
use crate::game::record::{
    fail, Line, Lines, Record, RecordMeta, Recorded, RecordedDecision, VerifyError, VerifySummary,
    FORMAT_NAME, FORMAT_VERSION,
};
use crate::game::{Fault, FaultKind, FaultPolicy, GameSettings, Loaded, Outcome, Summary};

mod write;

use write::{end_line, setup_line, start_line, TurnLine};

#[derive(Deserialize)]
struct SetupJson {
    format: String,
    format_version: u32,
    game: String,
    rules_version: u32,
    players: Vec<PlayerJson>,
    seed: u64,
    round_cap: u32,
    fault_policy: FaultPolicy,
    clock: ClockJson,
    position: String,
    limits: Map<String, Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockJson {
    start: u64,
    increment: u64,
    decision_cap: u64,
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

/// A difference in a clock or a fuel figure says how the clock runs.
fn clock_hint(path: &str) -> String {
    if path == "clock" || path == "fuel" || path.starts_with("clocks") {
        " (the clock: the increment is added before each decision, the fuel the decision used \
         is taken off, and a decision may use at most the smaller of the clock and the \
         per-decision cap)"
            .into()
    } else {
        String::new()
    }
}

fn field<T: for<'de> Deserialize<'de>>(
    v: &Value,
    line: usize,
    what: &str,
) -> Result<T, VerifyError> {
    if v.get("type").and_then(Value::as_str) != Some(what) {
        return Err(fail(line, format!("expected a `{what}` line")));
    }
    T::deserialize(v).map_err(|e| fail(line, format!("{what} line: {e}")))
}

/// The limits of a setup line must agree with its clock where they say the same thing (a
/// league's limits carry its clock and cap, and `arena verify --league` compares the limits).
fn check_limits(limits: &Map<String, Value>, clock: &FuelClock) -> Result<(), VerifyError> {
    for (key, value) in [
        ("clock", clock.start),
        ("increment", clock.increment),
        ("fuel_per_decision", clock.decision_cap),
    ] {
        if let Some(found) = limits.get(key) {
            if found.as_u64() != Some(value) {
                let field = match key {
                    "clock" => "start",
                    "fuel_per_decision" => "decision_cap",
                    other => other,
                };
                return Err(fail(
                    1,
                    format!("limits.{key} is {found}, but clock.{field} is {value}"),
                ));
            }
        }
    }
    Ok(())
}

impl Record for Jungle {
    // A turn line is about 150 bytes.
    const TURN_BYTES: usize = 192;

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
        let (faults, logs) = state.start();
        out.push(&start_line(faults, logs)?)
    }

    fn turn_lines(&self, ply: &Ply, out: &mut Lines<'_>) -> serde_json::Result<()> {
        out.push(&TurnLine::of(ply)?)
    }

    fn end_line(&self, end: &GameEnd, digest: &str, out: &mut Lines<'_>) -> serde_json::Result<()> {
        out.push(&end_line(end, digest)?)
    }

    fn read_setup(&self, first: &Line) -> Result<(Setup, RecordMeta), VerifyError> {
        let setup: SetupJson = field(&first.value, 1, "setup")?;
        if setup.format != FORMAT_NAME || setup.format_version != FORMAT_VERSION {
            return Err(fail(
                1,
                format!(
                    "format: expected {FORMAT_NAME:?} version {FORMAT_VERSION}, found {:?} version {}",
                    setup.format, setup.format_version
                ),
            ));
        }
        if setup.game != super::NAME {
            return Err(fail(
                1,
                format!("game: expected \"jungle\", found {:?}", setup.game),
            ));
        }
        if setup.rules_version != jungle_rules::RULES_VERSION {
            return Err(fail(
                1,
                format!(
                    "rules_version {} is not the version this arena implements ({})",
                    setup.rules_version,
                    jungle_rules::RULES_VERSION
                ),
            ));
        }
        if setup.players.len() != 2 {
            return Err(fail(
                1,
                format!("players: {} seats, Jungle has 2", setup.players.len()),
            ));
        }
        if let Some((i, p)) = setup.players.iter().enumerate().find(|(i, p)| p.seat != *i) {
            return Err(fail(
                1,
                format!("players[{i}].seat is {}, expected {i}", p.seat),
            ));
        }
        let start = Position::parse(&setup.position).map_err(|e| {
            fail(
                1,
                format!("position {}: {e}", Value::String(setup.position.clone())),
            )
        })?;
        let clock = FuelClock {
            start: setup.clock.start,
            increment: setup.clock.increment,
            decision_cap: setup.clock.decision_cap,
        };
        check_limits(&setup.limits, &clock)?;
        let meta = RecordMeta {
            names: setup.players.iter().map(|p| p.name.clone()).collect(),
            agent_hashes: setup.players.iter().map(|p| p.agent.clone()).collect(),
            limits: std::sync::Arc::new(Value::Object(setup.limits)),
        };
        let game = Setup {
            seed: setup.seed,
            round_cap: setup.round_cap,
            policy: setup.fault_policy,
            clock,
            start,
        };
        Ok((game, meta))
    }

    fn read_start(&self, _setup: &Setup, line: &Line) -> Result<Vec<Loaded>, VerifyError> {
        let start: StartJson = field(&line.value, 2, "start")?;
        Ok(start.per_seat(2)?.into_iter().map(Loaded::from).collect())
    }

    fn read_turn(&self, _setup: &Setup, line: &Line) -> Result<Recorded<Move>, VerifyError> {
        let t: TurnJson = field(&line.value, line.number, "turn")?;
        if t.seat >= 2 {
            return Err(fail(line.number, format!("seat {} does not exist", t.seat)));
        }
        let answer = match (t.answer, t.fault) {
            (Some(text), _) => Ok(Move::parse(&text).map_err(|e| {
                fail(
                    line.number,
                    format!("move: {}: {e}", Value::String(text.clone())),
                )
            })?),
            (None, Some(fault)) => Err(fault),
            (None, None) => Err(Fault::new(
                FaultKind::BadAnswer,
                "the record has neither a move nor a fault for this decision",
            )),
        };
        let mut recorded = Recorded::default();
        recorded.decision(RecordedDecision {
            seat: t.seat,
            decision: 0,
            answer,
            fuel: t.fuel,
            log: t.logs.into_iter().map(|l| l.text).next(),
        });
        Ok(recorded)
    }

    fn hint(&self, _setup: &Setup, path: &str) -> String {
        clock_hint(path)
    }

    fn ended(&self, end: &GameEnd, summary: &Summary) -> String {
        format!(
            "{}, {}",
            VerifySummary::outcome_text(summary.outcome),
            end.reason.name()
        )
    }

    fn round_cap(&self, setup: &Setup) -> u32 {
        setup.round_cap
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
