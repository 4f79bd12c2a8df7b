//! Farkle records: the same file conventions as every arena record (docs/RECORDS.md: JSON Lines,
//! `setup`, `start`, one `turn` line per turn, `end` with the digest), with Farkle's own fields.
//! Verification replays the recorded answers against the dice of the seed and requires the very
//! same record back.

use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::game::{play_game, Setup};
use super::player::{Answer, FarklePlayer, Observation};
use crate::game::{Fault, FaultKind, FaultPolicy, GameKind};
use crate::records::format::{FORMAT_NAME, FORMAT_VERSION};
use crate::records::read::split_lines;
use crate::records::verify::{compare_lines, fail};
use crate::records::{sha256_hex, DiceOrigin, RecordMeta, VerifyError, VerifySummary};

#[cfg(test)]
pub(crate) mod value_writer;
mod write;

pub use write::write_record;

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
struct PlayerJson {
    seat: usize,
    name: String,
    agent: Option<String>,
}

#[derive(Deserialize)]
struct LogJson {
    seat: usize,
    text: String,
}

#[derive(Deserialize)]
struct StartJson {
    faults: Vec<SeatFault>,
    #[serde(default)]
    logs: Vec<LogJson>,
}

#[derive(Deserialize)]
struct SeatFault {
    seat: usize,
    fault: Fault,
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

#[derive(Deserialize)]
struct EndJson {
    digest: String,
}

/// One recorded decision of a seat, handed back by the replay.
enum Step {
    Answer(Answer),
    Fault(Fault),
}

/// Plays a seat from its recorded answers. When the record runs out of answers for it, the seat
/// faults: the replay then differs from the record, which verification reports.
struct Script {
    load: Option<Fault>,
    start_log: Option<String>,
    steps: VecDeque<(Step, Option<String>)>,
    pending_log: Option<String>,
}

impl FarklePlayer for Script {
    fn start(&mut self, _seat: usize, _players: usize, _seed: u64) -> Result<(), Fault> {
        self.pending_log = self.start_log.take();
        match self.load.take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    fn draft(&mut self, _obs: &Observation) -> Result<Answer, Fault> {
        match self.steps.pop_front() {
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

fn field<T: for<'de> Deserialize<'de>>(
    v: &Value,
    line: usize,
    what: &str,
) -> Result<T, VerifyError> {
    T::deserialize(v).map_err(|e| fail(line, format!("{what} line: {e}")))
}

/// Verifies a Farkle record (uncompressed text): replays it and requires the same record back,
/// then checks the digest. Never panics, whatever the text.
pub fn verify_record(text: &str) -> Result<VerifySummary, VerifyError> {
    let lines = split_lines(text);
    if lines.len() < 3 {
        return Err(fail(0, "a record has at least 3 lines (setup, start, end)"));
    }
    let values: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l.text).map_err(|e| fail(l.number, format!("not JSON: {e}"))))
        .collect::<Result<_, _>>()?;
    for (l, v) in lines.iter().zip(&values) {
        let expected = match l.number {
            1 => "setup",
            2 => "start",
            n if n == lines.len() => "end",
            _ => "turn",
        };
        if v.get("type").and_then(Value::as_str) != Some(expected) {
            return Err(fail(l.number, format!("expected a `{expected}` line")));
        }
    }
    let setup: SetupJson = field(&values[0], 1, "setup")?;
    if setup.format != FORMAT_NAME || setup.format_version != FORMAT_VERSION {
        return Err(fail(
            1,
            format!(
                "format: expected {FORMAT_NAME:?} version {FORMAT_VERSION}, found {:?} version {}",
                setup.format, setup.format_version
            ),
        ));
    }
    if setup.game != GameKind::Farkle.name() {
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
    if !GameKind::Farkle.seats().contains(&n) {
        return Err(fail(1, format!("players: {n} seats, expected 1 to 6")));
    }
    if let Some((i, p)) = setup.players.iter().enumerate().find(|(i, p)| p.seat != *i) {
        return Err(fail(
            1,
            format!("players[{i}].seat is {}, expected {i}", p.seat),
        ));
    }

    let mut scripts: Vec<Script> = (0..n)
        .map(|_| Script {
            load: None,
            start_log: None,
            steps: VecDeque::new(),
            pending_log: None,
        })
        .collect();
    let start: StartJson = field(&values[1], 2, "start")?;
    for f in start.faults {
        let s = scripts.get_mut(f.seat).ok_or_else(|| {
            fail(
                2,
                format!("a fault of seat {}, which does not exist", f.seat),
            )
        })?;
        s.load = Some(f.fault);
    }
    for log in start.logs {
        let s = scripts.get_mut(log.seat).ok_or_else(|| {
            fail(
                2,
                format!("a log of seat {}, which does not exist", log.seat),
            )
        })?;
        s.start_log = Some(log.text);
    }
    let turn_values = &values[2..values.len() - 1];
    for (i, v) in turn_values.iter().enumerate() {
        let number = i + 3;
        let t: TurnJson = field(v, number, "turn")?;
        let s = scripts
            .get_mut(t.seat)
            .ok_or_else(|| fail(number, format!("seat {} does not exist", t.seat)))?;
        // A turn's log belongs to its first decision (the game keeps one entry per turn).
        let mut log = t.logs.into_iter().map(|l| l.text).next();
        let mut fault = t.fault;
        for r in t.rolls {
            match (r.draft, r.action) {
                (Some(draft), Some(action)) => {
                    s.steps
                        .push_back((Step::Answer(Answer { action, draft }), log.take()));
                }
                // No answer: a farkle (nobody was asked) or the turn's fault.
                _ => {
                    if let Some(f) = fault.take() {
                        s.steps.push_back((Step::Fault(f), log.take()));
                    }
                }
            }
        }
    }

    // Bounded by the record: a replay that would run longer than it already differs from it.
    let recorded_rounds = turn_values
        .last()
        .and_then(|v| v.get("round"))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let round_cap = setup
        .round_cap
        .min(u32::try_from(recorded_rounds + 1).unwrap_or(u32::MAX));
    let replay_setup = Setup {
        players: n,
        seed: setup.seed,
        round_cap,
        policy: setup.fault_policy,
        target: setup.target,
    };
    let mut seats: Vec<&mut dyn FarklePlayer> = scripts
        .iter_mut()
        .map(|s| s as &mut dyn FarklePlayer)
        .collect();
    let mut again = play_game(&replay_setup, &mut seats);
    again.setup.round_cap = setup.round_cap;
    let meta = RecordMeta {
        names: setup.players.iter().map(|p| p.name.clone()).collect(),
        agent_hashes: setup.players.iter().map(|p| p.agent.clone()).collect(),
        limits: std::sync::Arc::new(Value::Object(setup.limits)),
    };
    let rewritten = write_record(&again, &meta)
        .map_err(|e| fail(0, format!("cannot re-write the replayed game: {e}")))?;
    let rewritten = String::from_utf8_lossy(&rewritten).into_owned();
    compare_lines(&rewritten, &values, |path| {
        if path.contains("dice") {
            format!(" (the dice of seed {})", setup.seed)
        } else {
            String::new()
        }
    })?;

    let end_line = lines.last().expect("at least 3 lines");
    let end: EndJson = field(&values[values.len() - 1], end_line.number, "end")?;
    let digest = sha256_hex(&text.as_bytes()[..end_line.offset]);
    if digest != end.digest {
        return Err(fail(
            end_line.number,
            format!("digest: expected {digest}, found {:?}", end.digest),
        ));
    }
    Ok(VerifySummary {
        game: GameKind::Farkle,
        players: n,
        names: meta.names,
        turns: again.turns.len(),
        rounds: again.rounds(),
        outcome: again.outcome,
        dice: DiceOrigin::Seeded(setup.seed),
    })
}
