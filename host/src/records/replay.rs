//! Replays a record through the real game loop: players that give back the recorded decisions,
//! and dice that give back the recorded (or seed-derived) rolls.

use farm_rules::{Offer, Roll};

use crate::farm::{
    play_game, AcceptView, AgentLog, Decision, DiceSource, Event, ExplicitDice, FarmPlayer, Fault,
    FaultKind, GameRecord, Observation, SeededDice,
};

/// Sits in one seat and answers every decision with what the record says that seat decided.
///
/// Decisions are looked up by the turn the game loop is playing, not by the record's own `turn`
/// fields, so an edited turn number cannot steer the replay: it only shows up as a difference.
/// A decision the record lacks is answered with a fault, which then differs from the record.
pub struct ReplayPlayer<'r> {
    seat: usize,
    record: &'r GameRecord,
    /// The recorded debug output of the decision just replayed, handed back by `take_log` so
    /// that logs are part of what verification compares.
    log: Option<String>,
}

impl<'r> ReplayPlayer<'r> {
    pub fn new(seat: usize, record: &'r GameRecord) -> ReplayPlayer<'r> {
        ReplayPlayer {
            seat,
            record,
            log: None,
        }
    }

    fn remember_log(&mut self, logs: &[AgentLog]) {
        self.log = logs
            .iter()
            .find(|l| l.seat == self.seat)
            .map(|l| l.text.clone());
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

impl FarmPlayer for ReplayPlayer<'_> {
    fn start(&mut self, seat: usize, _players: usize, _seed: u64) -> Result<(), Fault> {
        self.remember_log(&self.record.start_logs);
        match Self::fault_in(&self.record.start_events, seat, Decision::Init) {
            Some(fault) => Err(fault),
            None => Ok(()),
        }
    }

    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        let Some(turn) = self.record.turns.get(obs.turn as usize - 1) else {
            return Err(Self::missing("trade decision", obs.turn));
        };
        self.remember_log(&turn.logs);
        if let Some(offer) = turn.offer {
            return Ok(offer);
        }
        Err(Self::fault_in(&turn.events, self.seat, Decision::Trade)
            .unwrap_or_else(|| Self::missing("offer or trade fault", obs.turn)))
    }

    fn accept(&mut self, obs: &Observation, _offer: &AcceptView) -> Result<bool, Fault> {
        let Some(turn) = self.record.turns.get(obs.turn as usize - 1) else {
            return Err(Self::missing("answer", obs.turn));
        };
        self.remember_log(&turn.logs);
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

/// Stops after a fixed number of rolls, so that an edited round cap cannot make a replay run for
/// billions of rounds: a replay never needs more rolls than the record has turns.
struct LimitedDice<D> {
    inner: D,
    left: usize,
}

impl<D: DiceSource> DiceSource for LimitedDice<D> {
    fn next_roll(&mut self) -> Option<Roll> {
        self.left = self.left.checked_sub(1)?;
        self.inner.next_roll()
    }
}

/// The rolls a record gives, in order (its turns' `roll` fields).
pub fn recorded_rolls(record: &GameRecord) -> Vec<Roll> {
    record.turns.iter().filter_map(|t| t.roll).collect()
}

/// Plays the recorded game again with the very same game loop, from the recorded setup.
/// The dice come from the seed when there is one, otherwise from the recorded rolls.
pub fn replay(record: &GameRecord) -> GameRecord {
    let setup = &record.setup;
    let mut seats: Vec<ReplayPlayer> = (0..setup.players)
        .map(|s| ReplayPlayer::new(s, record))
        .collect();
    let mut players: Vec<&mut dyn FarmPlayer> =
        seats.iter_mut().map(|p| p as &mut dyn FarmPlayer).collect();
    // One roll more than recorded: enough for the replay to differ visibly, never to run away.
    let left = record.turns.len() + 1;
    match setup.seed {
        Some(seed) => play_game(
            setup,
            &mut players,
            &mut LimitedDice {
                inner: SeededDice::new(seed),
                left,
            },
        ),
        None => play_game(
            setup,
            &mut players,
            &mut ExplicitDice::new(recorded_rolls(record)),
        ),
    }
}
