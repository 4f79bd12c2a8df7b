//! Farkle records: the same file conventions as every arena record (docs/RECORDS.md: JSON Lines,
//! `setup`, `start`, one `turn` line per turn, `end` with the digest), with Farkle's own fields.
//! Verification replays the recorded answers against the dice of the seed and requires the very
//! same record back.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::ops::ControlFlow;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::game::{play_game_into, GameSink, LoadFault, Setup, TurnEnd, TurnRecord};
use super::player::{Answer, FarklePlayer, Observation};
use crate::game::{AgentLog, Fault, FaultKind, FaultPolicy, Outcome};
use crate::records::lines::{Line, RecordReader};
use crate::records::seat_lines::{EndJson, LogJson, PlayerJson, StartJson};
use crate::records::stream::{check_digest, compare_line, to_value, TurnLines};
use crate::records::{
    fail, DiceOrigin, FaultCounts, RecordMeta, VerifyError, VerifySummary, FORMAT_NAME,
    FORMAT_VERSION,
};

#[cfg(test)]
pub(crate) mod value_writer;
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
    dice: String,
    round_cap: u32,
    target: u32,
    fault_policy: FaultPolicy,
    limits: Map<String, Value>,
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

/// One recorded decision of a seat, handed back by the replay.
enum Step {
    Answer(Answer),
    Fault(Fault),
}

/// What a turn line gives the replay: its decisions in order, each with the log to hand back
/// after it.
struct RecordedTurn {
    steps: VecDeque<(Step, Option<String>)>,
}

type FarkleTurns<'r> = RefCell<TurnLines<'r, RecordedTurn>>;

/// Plays a seat from the recorded answers of the turn being played. When the record has no
/// answer for a decision, the seat faults: the replay then differs from the record, which
/// verification reports.
struct Script<'a, 'r> {
    load: Option<Fault>,
    start_log: Option<String>,
    turns: &'a FarkleTurns<'r>,
    pending_log: Option<String>,
}

impl FarklePlayer for Script<'_, '_> {
    fn start(&mut self, _seat: usize, _players: usize, _seed: u64) -> Result<(), Fault> {
        self.pending_log = self.start_log.take();
        match self.load.take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    fn draft(&mut self, obs: &Observation) -> Result<Answer, Fault> {
        let mut turns = self.turns.borrow_mut();
        match turns.turn(obs.turn).and_then(|t| t.steps.pop_front()) {
            Some((step, log)) => {
                self.pending_log = log;
                match step {
                    Step::Answer(a) => Ok(a),
                    Step::Fault(f) => Err(f),
                }
            }
            None => Err(Fault::new(
                FaultKind::BadAnswer,
                "the record has no answer for this decision",
            )),
        }
    }

    fn take_log(&mut self) -> Option<String> {
        self.pending_log.take()
    }
}

/// Compares the replay with the record as it is played, and counts the faults.
struct Checker<'a, 'r> {
    turns: &'a FarkleTurns<'r>,
    /// Line 2, compared when the replay's start is known.
    start: Option<Line>,
    seed: u64,
    faults: FaultCounts,
    /// Seats with a fault while loading, in seat order.
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

/// A difference in the dice is not the dice of the seed.
fn dice_hint(seed: u64) -> impl Fn(&str) -> String {
    move |path: &str| {
        if path.contains("dice") {
            format!(" (the dice of seed {seed})")
        } else {
            String::new()
        }
    }
}

impl GameSink for Checker<'_, '_> {
    fn start(&mut self, faults: Vec<LoadFault>, logs: Vec<AgentLog>) -> ControlFlow<()> {
        let line = self
            .start
            .take()
            .expect("the start line is read before the replay");
        let checked = start_line(&faults, &logs)
            .map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))
            .and_then(|l| to_value(&l))
            .and_then(|replayed| compare_line(&line, &replayed, false, dice_hint(self.seed)));
        match checked {
            Ok(()) => {
                for f in &faults {
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

    fn turn(&mut self, turn: TurnRecord) -> ControlFlow<()> {
        let replayed = match TurnLine::of(&turn)
            .map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))
            .and_then(|l| to_value(&l))
        {
            Ok(v) => v,
            Err(e) => return self.stop(e),
        };
        let checked =
            self.turns
                .borrow_mut()
                .check_turn(turn.turn, &replayed, dice_hint(self.seed));
        match checked {
            Ok(()) => {
                if let TurnEnd::Fault { fault, .. } = &turn.end {
                    self.count(turn.seat, fault);
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

/// The decisions a turn line gives the replay.
fn recorded_turn(line: &Line, players: usize) -> Result<RecordedTurn, VerifyError> {
    let t: TurnJson = field(&line.value, line.number, "turn")?;
    if t.seat >= players {
        return Err(fail(line.number, format!("seat {} does not exist", t.seat)));
    }
    // A turn's log belongs to its first decision (the game keeps one entry per turn).
    let mut log = t.logs.into_iter().map(|l| l.text).next();
    let mut fault = t.fault;
    let mut steps = VecDeque::new();
    for r in t.rolls {
        match (r.draft, r.action) {
            (Some(draft), Some(action)) => {
                steps.push_back((Step::Answer(Answer { action, draft }), log.take()));
            }
            // No answer: a farkle (nobody was asked) or the turn's fault.
            _ => {
                if let Some(f) = fault.take() {
                    steps.push_back((Step::Fault(f), log.take()));
                }
            }
        }
    }
    Ok(RecordedTurn { steps })
}

/// Verifies a Farkle record (uncompressed text): replays it and requires the same record back,
/// then checks the digest. Never panics, whatever the text.
pub fn verify_record(text: &str) -> Result<VerifySummary, VerifyError> {
    let mut reader = RecordReader::new(text.as_bytes())
        .map_err(|e| fail(0, format!("cannot read the record: {e}")))?;
    let first = reader
        .next_line()?
        .ok_or_else(|| fail(0, "a record has at least 3 lines (setup, start, end)"))?;
    verify_lines(reader, first)
}

/// Verifies a Farkle record whose setup line (`first`) has been read, as a stream: see
/// [`crate::records::verify_reader`].
pub fn verify_lines(mut reader: RecordReader, first: Line) -> Result<VerifySummary, VerifyError> {
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
            format!("game: expected \"farkle\", found {:?}", setup.game),
        ));
    }
    if setup.rules_version != farkle_rules::RULES_VERSION {
        return Err(fail(
            1,
            format!(
                "rules_version {} is not the version this arena implements ({})",
                setup.rules_version,
                farkle_rules::RULES_VERSION
            ),
        ));
    }
    if setup.dice != "seeded" {
        return Err(fail(1, "dice: Farkle records are always \"seeded\""));
    }
    let n = setup.players.len();
    if !super::INFO.seats.contains(&n) {
        return Err(fail(1, format!("players: {n} seats, expected 1 to 6")));
    }
    if let Some((i, p)) = setup.players.iter().enumerate().find(|(i, p)| p.seat != *i) {
        return Err(fail(
            1,
            format!("players[{i}].seat is {}, expected {i}", p.seat),
        ));
    }
    let meta = RecordMeta {
        names: setup.players.iter().map(|p| p.name.clone()).collect(),
        agent_hashes: setup.players.iter().map(|p| p.agent.clone()).collect(),
        limits: std::sync::Arc::new(Value::Object(setup.limits.clone())),
    };
    let game = Setup {
        players: n,
        seed: setup.seed,
        round_cap: setup.round_cap,
        policy: setup.fault_policy,
        target: setup.target,
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
    let start: StartJson = field(&start_line_read.value, 2, "start")?;
    let turns: FarkleTurns = RefCell::new(TurnLines::new(reader, move |line: &Line| {
        recorded_turn(line, n)
    }));
    let mut scripts: Vec<Script> = start
        .per_seat(n)?
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
        seed: setup.seed,
        faults: FaultCounts::new(),
        load_faults: Vec::new(),
        error: None,
    };
    let mut seats: Vec<&mut dyn FarklePlayer> = scripts
        .iter_mut()
        .map(|s| s as &mut dyn FarklePlayer)
        .collect();
    let end = play_game_into(&game, &mut seats, &mut checker);
    drop(seats);
    drop(scripts);
    let Some(end) = end else {
        let e = checker.error.take();
        return Err(e
            .or_else(|| turns.borrow().error().cloned())
            .unwrap_or_else(|| fail(0, "the replay stopped without a reason")));
    };
    let (faults, load_faults) = (checker.faults, checker.load_faults);
    let (end_read, mut reader) = turns
        .into_inner()
        .end_line(|| VerifySummary::outcome_text(end.outcome))?;
    let found: EndJson = field(&end_read.value, end_read.number, "end")?;
    let replayed_end = end_line(
        &end.outcome,
        end.rounds,
        &end.scores,
        &end.forfeits,
        end.turns as usize,
        "",
    )
    .map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))?;
    compare_line(
        &end_read,
        &to_value(&replayed_end)?,
        true,
        dice_hint(setup.seed),
    )?;
    check_digest(&reader, &end_read, &found.digest)?;
    reader.expect_end_of_file()?;
    Ok(VerifySummary {
        game: super::NAME,
        players: n,
        names: meta.names,
        agent_hashes: meta.agent_hashes,
        round_cap: setup.round_cap,
        policy: setup.fault_policy,
        limits: setup.limits,
        turns: end.turns as usize,
        rounds: end.rounds,
        outcome: end.outcome,
        dice: DiceOrigin::Seeded(setup.seed),
        forfeits: end.forfeits,
        faults,
        load_faults,
        scores: Some(end.scores.iter().map(|&s| i64::from(s)).collect()),
        result: result(n, end.outcome),
        settings: None,
    })
}

/// How a game ended, in words: a solo game reaches the target or not; a race may end in a shared
/// highest score.
fn result(players: usize, outcome: Outcome) -> String {
    match (players, outcome) {
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
