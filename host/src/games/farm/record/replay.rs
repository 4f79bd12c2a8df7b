//! Replays a Little Animal Farm record through the real game loop as the record is read:
//! players that give back the recorded decisions of the turn being played, dice that give back
//! the seed's (or the turn's recorded) roll, and a sink that compares each replayed line with the
//! recorded one and keeps the books.

use std::cell::RefCell;
use std::ops::ControlFlow;

use farm_rules::{Offer, Roll};

use super::ledger::{Ledger, START_LINE};
use super::write::{start_line, TurnLine};
use crate::games::farm::summary::fault_note;
use crate::games::farm::{
    AcceptView, AgentLog, Decision, DiceSource, Event, FarmPlayer, Fault, FaultKind, GameSink,
    Observation, TurnRecord,
};
use crate::records::lines::Line;
use crate::records::stream::{compare_line, to_value, TurnLines};
use crate::records::{fail, FaultCounts, VerifyError};

/// The recorded turns, read as the replay reaches them.
pub(crate) type FarmTurns<'r> = RefCell<TurnLines<'r, TurnRecord>>;

/// Sits in one seat and answers every decision with what the record says that seat decided.
///
/// Decisions are looked up by the turn the game loop is playing, not by the record's own `turn`
/// fields, so an edited turn number cannot steer the replay: it only shows up as a difference.
/// A decision the record lacks is answered with a fault, which then differs from the record.
pub(crate) struct ReplayPlayer<'a, 'r> {
    pub seat: usize,
    pub start_events: &'a [Event],
    pub start_logs: &'a [AgentLog],
    pub turns: &'a FarmTurns<'r>,
    /// The recorded debug output of the decision just replayed, handed back by `take_log` so
    /// that logs are part of what verification compares.
    pub log: Option<String>,
}

impl ReplayPlayer<'_, '_> {
    fn log_of(logs: &[AgentLog], seat: usize) -> Option<String> {
        logs.iter().find(|l| l.seat == seat).map(|l| l.text.clone())
    }

    fn missing(what: &str, turn: u32) -> Fault {
        Fault::new(
            FaultKind::BadAnswer,
            format!("the record has no {what} for turn {turn}"),
        )
    }

    fn fault_in(events: &[Event], seat: usize, decision: Decision) -> Option<Fault> {
        events.iter().find_map(|e| match e {
            Event::Fault {
                seat: s,
                decision: d,
                fault,
            } if *s == seat && *d == decision => Some(fault.clone()),
            _ => None,
        })
    }
}

impl FarmPlayer for ReplayPlayer<'_, '_> {
    fn start(&mut self, seat: usize, _players: usize, _seed: u64) -> Result<(), Fault> {
        self.log = Self::log_of(self.start_logs, self.seat);
        match Self::fault_in(self.start_events, seat, Decision::Init) {
            Some(fault) => Err(fault),
            None => Ok(()),
        }
    }

    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        let mut turns = self.turns.borrow_mut();
        let Some(turn) = turns.turn(obs.turn) else {
            return Err(Self::missing("trade decision", obs.turn));
        };
        self.log = Self::log_of(&turn.logs, self.seat);
        if let Some(offer) = turn.offer {
            return Ok(offer);
        }
        Err(Self::fault_in(&turn.events, self.seat, Decision::Trade)
            .unwrap_or_else(|| Self::missing("offer or trade fault", obs.turn)))
    }

    fn accept(&mut self, obs: &Observation, _offer: &AcceptView) -> Result<bool, Fault> {
        let mut turns = self.turns.borrow_mut();
        let Some(turn) = turns.turn(obs.turn) else {
            return Err(Self::missing("answer", obs.turn));
        };
        self.log = Self::log_of(&turn.logs, self.seat);
        if let Some(fault) = Self::fault_in(&turn.events, self.seat, Decision::Accept) {
            return Err(fault);
        }
        turn.answer
            .ok_or_else(|| Self::missing("answer or accept fault", obs.turn))
    }

    fn take_log(&mut self) -> Option<String> {
        self.log.take()
    }
}

/// Explicit dice: the roll the record gives for the turn being played (none when it gives none:
/// the dice have run out, and the game ends unfinished).
pub(crate) struct RecordedDice<'a, 'r> {
    pub turns: &'a FarmTurns<'r>,
}

impl DiceSource for RecordedDice<'_, '_> {
    fn next_roll(&mut self) -> Option<Roll> {
        self.turns.borrow_mut().current().and_then(|t| t.roll)
    }
}

/// Compares the replay with the record as it is played, and keeps the books and the faults.
pub(crate) struct Checker<'a, 'r> {
    pub turns: &'a FarmTurns<'r>,
    /// Line 2, compared when the replay's start is known.
    pub start: Option<Line>,
    pub ledger: Ledger,
    pub seed: Option<u64>,
    /// Faults of the replayed game by seat and kind, for the league's results.
    pub faults: FaultCounts,
    /// Seats with a fault in the start line (while loading), in seat order.
    pub load_faults: Vec<usize>,
    /// Why the replay was stopped, when it was stopped at the start line.
    pub error: Option<VerifyError>,
}

impl Checker<'_, '_> {
    fn hint(&self) -> impl Fn(&str) -> String {
        let seed = self.seed;
        move |path: &str| match seed {
            Some(seed) if path.starts_with("roll") || path.contains(".roll") => {
                format!(" (the dice of seed {seed})")
            }
            _ => String::new(),
        }
    }

    fn note_faults(&mut self, events: &[Event]) {
        for note in events.iter().filter_map(fault_note) {
            *self.faults.entry((note.seat, note.kind)).or_default() += 1;
        }
    }

    fn stop(&mut self, e: VerifyError) -> ControlFlow<()> {
        self.error = Some(e);
        ControlFlow::Break(())
    }
}

impl GameSink for Checker<'_, '_> {
    fn start(&mut self, events: Vec<Event>, logs: Vec<AgentLog>) -> ControlFlow<()> {
        let line = self
            .start
            .take()
            .expect("the start line is read before the replay");
        let checked = to_value(&start_line(&events, &logs))
            .and_then(|replayed| compare_line(&line, &replayed, false, self.hint()))
            .and_then(|()| {
                self.ledger
                    .line(START_LINE, &events)
                    .map_err(|e| fail(e.line, e.message))
            });
        match checked {
            Ok(()) => {
                self.note_faults(&events);
                let mut seats: Vec<usize> = events
                    .iter()
                    .filter_map(fault_note)
                    .map(|n| n.seat)
                    .collect();
                seats.sort_unstable();
                seats.dedup();
                self.load_faults = seats;
                ControlFlow::Continue(())
            }
            Err(e) => self.stop(e),
        }
    }

    fn turn(&mut self, turn: TurnRecord) -> ControlFlow<()> {
        let replayed = match to_value(&TurnLine::of(&turn)) {
            Ok(v) => v,
            Err(e) => return self.stop(e),
        };
        let hint = self.hint();
        let checked = self
            .turns
            .borrow_mut()
            .check_turn(turn.turn, &replayed, hint)
            .and_then(|()| {
                // The recorded events are the replayed ones: the books of either are the same.
                self.ledger
                    .line(START_LINE + turn.turn as usize, &turn.events)
                    .map_err(|e| fail(e.line, e.message))
            });
        match checked {
            Ok(()) => {
                self.note_faults(&turn.events);
                ControlFlow::Continue(())
            }
            Err(e) => self.stop(e),
        }
    }
}
