//! The verifier, for every game: a record is played again through the game loop that plays
//! (`crate::play`), by players that give back the recorded answers of the turn being played
//! ([`Recorded`]), with the dice of the record's seed (or the dice it gives); each line the replay
//! writes must be the record's, which is read when the replay reaches it and dropped once compared
//! (memory holds one line and the game). Then the end line, and the digest.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::ops::ControlFlow;

use arena_sandbox::Init;
use serde::Deserialize;
use serde_json::Value;

use super::lines::{Line, RecordReader};
use super::seat_lines::EndJson;
use super::stream::{check_digest, compare_line, TurnLines};
use super::{fail, DiceOrigin, FaultCounts, Lines, Record, VerifyError, VerifySummary};
use crate::play::play;
use crate::player::{Player, Reply};
use crate::rules::{Dice, Loaded, Question, Rules, Sink};
use crate::seed::{DiceSource, SeededDice};
use crate::{Fault, FaultKind, FaultNote};

/// One recorded decision: who made it, which, and what came of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedDecision<A> {
    pub seat: usize,
    pub decision: usize,
    pub answer: Result<A, Fault>,
    /// The fuel the record says the decision used (a game with a clock records it).
    pub fuel: u64,
    pub log: Option<String>,
}

/// What one turn line gives the replay: its decisions in the order the game asks for them, and
/// the dice it gives (a record whose dice are not seeded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded<A> {
    decisions: VecDeque<RecordedDecision<A>>,
    throws: VecDeque<Vec<u8>>,
}

impl<A> Default for Recorded<A> {
    fn default() -> Self {
        Recorded {
            decisions: VecDeque::new(),
            throws: VecDeque::new(),
        }
    }
}

impl<A> Recorded<A> {
    /// A decision of the turn, after those given before.
    pub fn decision(&mut self, d: RecordedDecision<A>) {
        self.decisions.push_back(d);
    }

    /// A throw of the dice of the turn, after those given before.
    pub fn throw(&mut self, faces: Vec<u8>) {
        self.throws.push_back(faces);
    }

    /// The next decision, if it is `seat`'s decision `decision`.
    fn take(&mut self, seat: usize, decision: usize) -> Option<RecordedDecision<A>> {
        match self.decisions.front() {
            Some(d) if d.seat == seat && d.decision == decision => self.decisions.pop_front(),
            _ => None,
        }
    }
}

type Turns<'r, A> = RefCell<TurnLines<'r, Recorded<A>>>;

/// Plays a seat from the recorded answers of the turn being played. When the record has no
/// answer for a decision, the seat faults: the replay then differs from the record, which
/// verification reports.
struct Script<'a, 'r, A> {
    start: Loaded,
    turns: &'a Turns<'r, A>,
    log: Option<String>,
}

impl<R: Rules> Player<R> for Script<'_, '_, R::Answer> {
    fn start(&mut self, _rules: &R, _init: &Init) -> Result<(), Fault> {
        self.log = self.start.log.take();
        match self.start.fault.take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    fn decide(&mut self, _rules: &R, q: &Question, _obs: &R::Observation<'_>) -> Reply<R::Answer> {
        let mut turns = self.turns.borrow_mut();
        match turns.playing().and_then(|t| t.take(q.seat, q.decision)) {
            Some(d) => {
                self.log = d.log;
                Reply {
                    answer: d.answer,
                    fuel: d.fuel,
                }
            }
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
        self.log.take()
    }
}

/// The dice a record gives, turn by turn (none when it gives none: the dice have run out).
struct GivenByRecord<'a, 'r, A> {
    turns: &'a Turns<'r, A>,
}

impl<A> DiceSource for GivenByRecord<'_, '_, A> {
    fn throw(&mut self, _dice: Dice, faces: &mut Vec<u8>) -> bool {
        match self
            .turns
            .borrow_mut()
            .playing()
            .and_then(|t| t.throws.pop_front())
        {
            Some(thrown) => {
                *faces = thrown;
                true
            }
            None => false,
        }
    }
}

/// Compares the replay with the record as it is played.
struct Checker<'a, 'r, R: Record> {
    setup: &'a R::Setup,
    turns: &'a Turns<'r, R::Answer>,
    /// The start line, compared when the replay's start is known.
    start: Option<Line>,
    error: Option<VerifyError>,
    values: Vec<Value>,
}

impl<R: Record> Checker<'_, '_, R> {
    fn stop(&mut self, e: VerifyError) -> ControlFlow<()> {
        self.error = Some(e);
        ControlFlow::Break(())
    }

    /// The lines `write` makes, as values; one line expected.
    fn replayed(
        &mut self,
        write: impl FnOnce(&mut Lines<'_>) -> serde_json::Result<()>,
    ) -> Result<Value, VerifyError> {
        self.values.clear();
        write(&mut Lines::values(&mut self.values))
            .map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))?;
        match self.values.len() {
            1 => Ok(self.values.pop().expect("one line")),
            n => Err(fail(
                0,
                format!("the replay wrote {n} lines for one record line"),
            )),
        }
    }
}

impl<R: Record> Sink<R> for Checker<'_, '_, R> {
    fn start(&mut self, rules: &R, state: &R::State) -> ControlFlow<()> {
        let line = self
            .start
            .take()
            .expect("the start line is read before the replay");
        let setup = self.setup;
        let checked = self
            .replayed(|out| rules.start_lines(state, out))
            .and_then(|replayed| compare_line(&line, &replayed, false, |p| rules.hint(setup, p)));
        match checked {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => self.stop(e),
        }
    }

    fn turn(&mut self, rules: &R, turn: R::Turn) -> ControlFlow<()> {
        let replayed = match self.replayed(|out| rules.turn_lines(&turn, out)) {
            Ok(v) => v,
            Err(e) => return self.stop(e),
        };
        let setup = self.setup;
        let checked = self
            .turns
            .borrow_mut()
            .check(&replayed, |p| rules.hint(setup, p));
        match checked {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => self.stop(e),
        }
    }
}

/// Verifies a record of the game `rules` whose setup line (`first`) has been read, as a stream:
/// replays it and requires the same record back, then checks the digest. Never panics, whatever
/// the text.
pub fn verify<R: Record>(
    rules: &R,
    mut reader: RecordReader<'_>,
    first: Line,
) -> Result<VerifySummary, VerifyError> {
    let (setup, meta) = rules.read_setup(&first)?;
    let replayed_setup = replayed_line("setup", |out| rules.setup_line(&setup, &meta, out))?;
    compare_line(&first, &replayed_setup, false, |_| String::new())?;
    drop(first);

    let start = reader
        .next_line()?
        .ok_or_else(|| fail(2, "missing start line: the record is truncated"))?;
    let loaded = rules.read_start(&setup, &start)?;
    let turns: Turns<'_, R::Answer> = RefCell::new(TurnLines::new(reader, |line: &Line| {
        rules.read_turn(&setup, line)
    }));
    let mut scripts: Vec<Script<'_, '_, R::Answer>> = loaded
        .into_iter()
        .map(|start| Script {
            start,
            turns: &turns,
            log: None,
        })
        .collect();
    let mut checker = Checker::<R> {
        setup: &setup,
        turns: &turns,
        start: Some(start),
        error: None,
        values: Vec::new(),
    };
    let mut seats: Vec<&mut dyn Player<R>> = scripts
        .iter_mut()
        .map(|s| s as &mut dyn Player<R>)
        .collect();
    let seed = rules.seed(&setup);
    let ended = match seed {
        Some(seed) => play(
            rules,
            &setup,
            &mut seats,
            &mut SeededDice::new(seed),
            &mut checker,
        ),
        None => play(
            rules,
            &setup,
            &mut seats,
            &mut GivenByRecord { turns: &turns },
            &mut checker,
        ),
    };
    drop(seats);
    drop(scripts);
    let Some(ended) = ended else {
        let e = checker.error.take();
        return Err(e
            .or_else(|| turns.borrow().error().cloned())
            .unwrap_or_else(|| fail(0, "the replay stopped without a reason")));
    };
    let summary = rules.summary(&ended.end);
    let (end_read, mut reader) = turns
        .into_inner()
        .end_line(|| rules.ended(&ended.end, &summary))?;
    let digest = rules.read_end(&setup, &end_read)?;
    let replayed_end = replayed_line("end", |out| rules.end_line(&ended.end, "", out))?;
    compare_line(&end_read, &replayed_end, true, |p| rules.hint(&setup, p))?;
    check_digest(&reader, &end_read, &digest)?;
    reader.expect_end_of_file()?;

    let (faults, load_faults) = tally(&ended.faults.notes);
    let info = rules.info();
    Ok(VerifySummary {
        game: info.name,
        turn_word: info.turn_word,
        rolls_dice: info.dice,
        players: rules.players(&setup),
        names: meta.names.clone(),
        agent_hashes: meta.agent_hashes.clone(),
        round_cap: rules.round_cap(&setup),
        policy: rules.policy(&setup),
        limits: meta.limits_object(),
        turns: summary.turns as usize,
        rounds: summary.rounds,
        dice: match seed {
            Some(seed) => DiceOrigin::Seeded(seed),
            None => DiceOrigin::Explicit,
        },
        forfeits: summary.forfeits.clone(),
        faults,
        load_faults,
        result: rules.result(&setup, &ended.end, &summary),
        settings: rules.settings_of(&setup),
        outcome: summary.outcome,
        scores: summary.scores,
    })
}

/// The one line `write` writes of the replayed game (`what`: the setup or the end line).
fn replayed_line<E: std::fmt::Display>(
    what: &str,
    write: impl FnOnce(&mut Lines<'_>) -> Result<(), E>,
) -> Result<Value, VerifyError> {
    let mut values = Vec::new();
    write(&mut Lines::values(&mut values))
        .map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))?;
    values
        .into_iter()
        .next()
        .ok_or_else(|| fail(0, format!("the replay wrote no {what} line")))
}

/// The faults of a replayed game counted by seat and kind, and the seats that failed to load.
fn tally(notes: &[FaultNote]) -> (FaultCounts, Vec<usize>) {
    let mut faults = FaultCounts::new();
    let mut load_faults = Vec::new();
    for note in notes {
        *faults.entry((note.seat, note.kind.clone())).or_default() += 1;
        if note.decision == "init" {
            load_faults.push(note.seat);
        }
    }
    load_faults.sort_unstable();
    load_faults.dedup();
    (faults, load_faults)
}

/// The digest an end line states (the default of [`Record::read_end`]).
pub fn end_digest(line: &Line) -> Result<String, VerifyError> {
    if line.kind() != Some("end") {
        return Err(fail(line.number, "expected a `end` line"));
    }
    EndJson::deserialize(&line.value)
        .map(|e| e.digest)
        .map_err(|e| fail(line.number, format!("end line: {e}")))
}

/// Verifies a record of the game `rules` (uncompressed text) as [`verify`] does, its setup line
/// included.
pub fn verify_text<R: Record>(rules: &R, text: &str) -> Result<VerifySummary, VerifyError> {
    let mut reader = RecordReader::new(text.as_bytes())
        .map_err(|e| fail(0, format!("cannot read the record: {e}")))?;
    let first = reader
        .next_line()?
        .ok_or_else(|| fail(0, "a record has at least 3 lines (setup, start, end)"))?;
    verify(rules, reader, first)
}
