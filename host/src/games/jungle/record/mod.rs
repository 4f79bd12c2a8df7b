//! Jungle records: the file conventions of every arena record (docs/RECORDS.md: JSON Lines,
//! `setup`, `start`, one `turn` line per ply, `end` with the digest) with Jungle's own fields.
//! Verification replays the recorded answers and fuel from the recorded start position with the
//! rules and the clock, and requires the very same record back, one line at a time.

use std::cell::RefCell;
use std::ops::ControlFlow;

use jungle_rules::{Move, Position};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::game::{play_game_into, FuelClock, GameSink, LoadFault, Ply, Setup};
use super::player::{Ask, JunglePlayer, Reply};
use crate::game::AgentLog;
use crate::game::{Fault, FaultKind, FaultPolicy, Outcome};
use crate::records::lines::{Line, RecordReader};
use crate::records::seat_lines::{EndJson, LogJson, PlayerJson, StartJson};
use crate::records::stream::{check_digest, compare_line, to_value, TurnLines};
use crate::records::{fail, DiceOrigin, FaultCounts, RecordMeta, VerifyError, VerifySummary};
use crate::records::{FORMAT_NAME, FORMAT_VERSION};

mod write;

pub use write::write_record;
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

/// What a turn line gives the replay: the answer (a move, or a fault), the fuel, the log.
struct RecordedPly {
    reply: Option<Reply>,
    log: Option<String>,
}

type JungleTurns<'r> = RefCell<TurnLines<'r, RecordedPly>>;

/// Plays a seat from the recorded answers. When the record has no answer for a decision, the
/// seat faults: the replay then differs from the record, which verification reports.
struct Script<'a, 'r> {
    load: Option<Fault>,
    start_log: Option<String>,
    turns: &'a JungleTurns<'r>,
    pending_log: Option<String>,
}

impl JunglePlayer for Script<'_, '_> {
    fn start(&mut self, _seat: usize, _seed: u64) -> Result<(), Fault> {
        self.pending_log = self.start_log.take();
        match self.load.take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    fn choose(&mut self, ask: &Ask) -> Reply {
        let mut turns = self.turns.borrow_mut();
        match turns.turn(ask.record_turn).and_then(|t| {
            self.pending_log = t.log.take();
            t.reply.take()
        }) {
            Some(reply) => reply,
            None => Reply {
                answer: Err(Fault::new(
                    FaultKind::BadAnswer,
                    "the record has no answer for this decision",
                )),
                fuel: 0,
            },
        }
    }

    fn take_log(&mut self) -> Option<String> {
        self.pending_log.take()
    }
}

/// Compares the replay with the record as it is played, and counts the faults.
struct Checker<'a, 'r> {
    turns: &'a JungleTurns<'r>,
    /// Line 2, compared when the replay's start is known.
    start: Option<Line>,
    faults: FaultCounts,
    /// Seats with a fault while loading, in seat order (`VerifySummary::load_faults`).
    load_faults: Vec<usize>,
    error: Option<VerifyError>,
}

impl Checker<'_, '_> {
    fn stop(&mut self, e: VerifyError) -> ControlFlow<()> {
        self.error = Some(e);
        ControlFlow::Break(())
    }

    fn count(&mut self, seat: usize, fault: &Fault) {
        *self
            .faults
            .entry((seat, fault.kind.name().to_owned()))
            .or_default() += 1;
    }
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

impl GameSink for Checker<'_, '_> {
    fn start(&mut self, faults: &[LoadFault], logs: &[AgentLog]) -> ControlFlow<()> {
        let line = self
            .start
            .take()
            .expect("the start line is read before the replay");
        let checked = start_line(faults, logs)
            .map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))
            .and_then(|l| to_value(&l))
            .and_then(|replayed| compare_line(&line, &replayed, false, |_| String::new()));
        match checked {
            Ok(()) => {
                for f in faults {
                    self.count(f.seat, &f.fault);
                }
                self.load_faults = faults.iter().map(|f| f.seat).collect();
                self.load_faults.sort_unstable();
                self.load_faults.dedup();
                ControlFlow::Continue(())
            }
            Err(e) => self.stop(e),
        }
    }

    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
        let replayed = match TurnLine::of(&ply)
            .map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))
            .and_then(|l| to_value(&l))
        {
            Ok(v) => v,
            Err(e) => return self.stop(e),
        };
        let checked = self
            .turns
            .borrow_mut()
            .check_turn(ply.turn, &replayed, clock_hint);
        match checked {
            Ok(()) => {
                if let Some(f) = &ply.fault {
                    self.count(ply.seat, &f.fault);
                }
                ControlFlow::Continue(())
            }
            Err(e) => self.stop(e),
        }
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

/// The decision a turn line gives the replay.
fn recorded_ply(line: &Line) -> Result<RecordedPly, VerifyError> {
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
    Ok(RecordedPly {
        reply: Some(Reply {
            answer,
            fuel: t.fuel,
        }),
        log: t.logs.into_iter().map(|l| l.text).next(),
    })
}

/// Verifies a Jungle record (uncompressed text): replays it and requires the same record back,
/// then checks the digest. Never panics, whatever the text.
pub fn verify_record(text: &str) -> Result<VerifySummary, VerifyError> {
    let mut reader = RecordReader::new(text.as_bytes())
        .map_err(|e| fail(0, format!("cannot read the record: {e}")))?;
    let first = reader
        .next_line()?
        .ok_or_else(|| fail(0, "a record has at least 3 lines (setup, start, end)"))?;
    verify_lines(reader, first)
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

/// Verifies a Jungle record whose setup line (`first`) has been read, as a stream: see
/// [`crate::records::verify_reader`].
pub(crate) fn verify_lines(
    mut reader: RecordReader,
    first: Line,
) -> Result<VerifySummary, VerifyError> {
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
    if setup.game != crate::games::jungle::NAME {
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
        limits: std::sync::Arc::new(Value::Object(setup.limits.clone())),
    };
    let game = Setup {
        seed: setup.seed,
        round_cap: setup.round_cap,
        policy: setup.fault_policy,
        clock,
        start,
    };
    let replayed_setup = setup_line(&game, &meta)
        .map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))?;
    compare_line(&first, &to_value(&replayed_setup)?, false, |_| {
        String::new()
    })?;
    drop(first);

    let start_line_read = reader
        .next_line()?
        .ok_or_else(|| fail(2, "missing start line: the record is truncated"))?;
    let start_json: StartJson = field(&start_line_read.value, 2, "start")?;
    let turns: JungleTurns = RefCell::new(TurnLines::new(reader, recorded_ply));
    let mut scripts: Vec<Script> = start_json
        .per_seat(2)?
        .into_iter()
        .map(|seat| Script {
            load: seat.load,
            start_log: seat.log,
            turns: &turns,
            pending_log: None,
        })
        .collect();
    let mut checker = Checker {
        turns: &turns,
        start: Some(start_line_read),
        faults: FaultCounts::new(),
        load_faults: Vec::new(),
        error: None,
    };
    let [a, b] = &mut scripts[..] else {
        unreachable!("two scripts")
    };
    let end = play_game_into(&game, [a, b], &mut checker);
    drop(scripts);
    let Some(end) = end else {
        let e = checker.error.take();
        return Err(e
            .or_else(|| turns.borrow().error().cloned())
            .unwrap_or_else(|| fail(0, "the replay stopped without a reason")));
    };
    let (faults, load_faults) = (checker.faults, checker.load_faults);
    let (end_read, mut reader) = turns.into_inner().end_line(|| {
        format!(
            "{}, {}",
            VerifySummary::outcome_text(end.outcome),
            end.reason.name()
        )
    })?;
    let found: EndJson = field(&end_read.value, end_read.number, "end")?;
    let replayed_end =
        end_line(&end, "").map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))?;
    compare_line(&end_read, &to_value(&replayed_end)?, true, clock_hint)?;
    check_digest(&reader, &end_read, &found.digest)?;
    reader.expect_end_of_file()?;
    // The game's settings as a league keeps them: the clock, and the start position when it
    // is not the usual one.
    let settings = super::Settings {
        clock: setup.clock.start,
        increment: setup.clock.increment,
        position: (start != Position::start()).then(|| setup.position.clone()),
    }
    .to_map()
    .map_err(|e| fail(1, format!("{e:#}")))?;
    Ok(VerifySummary {
        game: super::NAME,
        players: 2,
        names: meta.names,
        agent_hashes: meta.agent_hashes,
        round_cap: setup.round_cap,
        policy: setup.fault_policy,
        limits: setup.limits,
        turns: end.turns as usize,
        rounds: end.rounds(),
        outcome: end.outcome,
        dice: DiceOrigin::Seeded(setup.seed),
        forfeits: end.forfeits,
        faults,
        load_faults,
        scores: None,
        result: match end.outcome {
            // The end line says which of the rules' draws it was.
            Outcome::Draw { round_cap: true } => format!("draw ({})", end.reason.words()),
            outcome => VerifySummary::outcome_text(outcome),
        },
        settings: Some(settings),
    })
}
