//! A farm record's lines read back for the verifier, on the envelope's shared readers: the setup
//! line's common fields (and its agents) are [`SetupHead`]'s, each line is read by [`typed_line`],
//! and seats are checked by `seat_checks`. What is read here is the farm's own: its setup (dice,
//! round cap, a start position), the events and logs of the start line, and each turn's offer,
//! answer, roll, events and logs. The other fields of a line are the replay's to compare.

use farm_rules::{Herd, KINDS, MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION};
use serde::Deserialize;
use serde_json::Value;

use super::format::{DiceKind, OfferJson, RollJson, StartJson, GAME_NAME};
use crate::game::record::read::{typed_line, SetupHead};
use crate::game::record::seat_checks::seat_in;
use crate::game::record::seat_lines::LogJson;
use crate::game::record::{fail, Line, Recorded, RecordedDecision, VerifyError};
use crate::game::{Loaded, RecordMeta};
use crate::games::farm::rules::{roll_faces, ACCEPT, TRADE};
use crate::games::farm::{
    Answer, Decision, Event, Fault, FaultPolicy, Party, Setup, StartPosition,
};

/// The setup line's own fields (the envelope's are [`SetupHead`]'s).
#[derive(Deserialize)]
struct SetupJson {
    seed: Option<u64>,
    dice: DiceKind,
    round_cap: u32,
    fault_policy: FaultPolicy,
    start: Option<StartJson>,
}

/// The start line: what happened before the first turn.
#[derive(Deserialize)]
struct StartLine {
    events: Vec<Event>,
    #[serde(default)]
    logs: Vec<LogJson>,
}

/// A turn line's fields that give the replay its decisions (the others it compares).
#[derive(Deserialize)]
struct TurnJson {
    seat: usize,
    offer: Option<OfferJson>,
    answer: Option<bool>,
    roll: Option<RollJson>,
    events: Vec<Event>,
    #[serde(default)]
    logs: Vec<LogJson>,
}

/// Largest number of animals of one kind a record may hold: offers are signed 32-bit, and rules
/// arithmetic must not overflow.
const MAX_KIND_TOTAL: u64 = i32::MAX as u64;

/// The setup line (line 1): the setup and the metadata.
pub(crate) fn setup_of(line: &Line) -> Result<(Setup, RecordMeta), VerifyError> {
    let head = SetupHead::read(line, GAME_NAME, RULES_VERSION, |n| {
        if (MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
            Ok(())
        } else {
            Err(format!(
                "players: a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, found {n}"
            ))
        }
    })?;
    let s: SetupJson = typed_line(&line.value, 1, "setup")?;
    let n = head.players();
    let meta = head.meta();
    match (s.dice, s.seed) {
        (DiceKind::Seeded, None) => {
            return Err(fail(1, "seed: dice are \"seeded\" but seed is null"))
        }
        (DiceKind::Explicit, Some(_)) => {
            return Err(fail(1, "seed: dice are \"explicit\" but a seed is given"))
        }
        _ => {}
    }
    let start = match s.start {
        None => None,
        Some(st) => Some(start_position(st, n).map_err(|m| fail(1, m))?),
    };
    let setup = Setup {
        players: n,
        seed: s.seed,
        round_cap: s.round_cap,
        policy: s.fault_policy,
        start,
    };
    Ok((setup, meta))
}

/// A start position given by the setup line, for `n` players.
fn start_position(st: StartJson, n: usize) -> Result<StartPosition, String> {
    if st.herds.len() != n {
        return Err(format!(
            "start.herds: expected {n} herds (one per player), found {}",
            st.herds.len()
        ));
    }
    seat_in(st.to_move, n, "start.to_move")?;
    let herds: Vec<Herd> = st.herds.iter().map(|h| h.0).collect();
    for k in 0..KINDS {
        let total: u64 = st.stock.0 .0[k] as u64 + herds.iter().map(|h| h.0[k] as u64).sum::<u64>();
        if total > MAX_KIND_TOTAL {
            return Err(format!(
                "start: {total} animals of kind {k} in the game, at most {MAX_KIND_TOTAL} allowed"
            ));
        }
    }
    Ok(StartPosition {
        herds,
        stock: st.stock.0,
        to_move: st.to_move,
    })
}

/// The start line (line 2): how each seat's agent started, by the faults of its events and its
/// logs.
pub(crate) fn start_of(line: &Line, players: usize) -> Result<Vec<Loaded>, VerifyError> {
    let start: StartLine = typed_line(&line.value, line.number, "start")?;
    let at = |m| fail(line.number, m);
    check_events(&start.events, &line.value["events"], players).map_err(at)?;
    let log_of = logs(&start.logs, players).map_err(at)?;
    Ok((0..players)
        .map(|seat| Loaded {
            fault: fault_in(&start.events, Some(seat), Decision::Init).map(|(_, f)| f),
            log: log_of(seat),
        })
        .collect())
}

/// A turn line's decisions (see `Record::read_turn`), for the replay.
pub(crate) fn turn_of(setup: &Setup, line: &Line) -> Result<Recorded<Answer>, VerifyError> {
    let t: TurnJson = typed_line(&line.value, line.number, "turn")?;
    let at = |m| fail(line.number, m);
    seat_in(t.seat, setup.players, "seat").map_err(at)?;
    check_events(&t.events, &line.value["events"], setup.players).map_err(at)?;
    let log_of = logs(&t.logs, setup.players).map_err(at)?;
    let mut recorded = Recorded::default();
    let mut decided = |seat, decision, answer| {
        let log = log_of(seat);
        recorded.decision(RecordedDecision {
            seat,
            decision,
            answer,
            fuel: 0,
            log,
        })
    };
    if let Some(offer) = t.offer {
        decided(t.seat, TRADE, Ok(Answer::Offer(offer.0)));
    } else if let Some((_, fault)) = fault_in(&t.events, Some(t.seat), Decision::Trade) {
        decided(t.seat, TRADE, Err(fault));
    }
    let answered = t.events.iter().find_map(|e| match *e {
        Event::Answer { seat, .. } => Some(seat),
        _ => None,
    });
    if let Some((seat, fault)) = fault_in(&t.events, None, Decision::Accept) {
        decided(seat, ACCEPT, Err(fault));
    } else if let (Some(seat), Some(yes)) = (answered, t.answer) {
        decided(seat, ACCEPT, Ok(Answer::Accept(yes)));
    }
    if setup.seed.is_none() {
        if let Some(roll) = t.roll {
            recorded.throw(roll_faces(roll.0));
        }
    }
    Ok(recorded)
}

/// The first fault event of a decision `decision` in `events` (of `seat`, when given), and its
/// seat.
fn fault_in(events: &[Event], seat: Option<usize>, decision: Decision) -> Option<(usize, Fault)> {
    events.iter().find_map(|e| match e {
        Event::Fault {
            seat: s,
            decision: d,
            fault,
        } if *d == decision && seat.is_none_or(|seat| seat == *s) => Some((*s, fault.clone())),
        _ => None,
    })
}

/// A line's events (`written`: as the line has them) checked: each failed trade's code is its
/// reason's, each seat one of the game's.
fn check_events(events: &[Event], written: &Value, players: usize) -> Result<(), String> {
    for (i, event) in events.iter().enumerate() {
        if let Event::TradeFailed { reason, .. } = event {
            let code = &written[i]["code"];
            if *code != reason.code() {
                return Err(format!(
                    "events[{i}]: code {code} does not match reason `{}` (code {})",
                    reason.name(),
                    reason.code()
                ));
            }
        }
        check_seats(event, players, &format!("events[{i}]"))?;
    }
    Ok(())
}

fn check_seats(e: &Event, players: usize, at: &str) -> Result<(), String> {
    let seat = |s: usize, field: &str| seat_in(s, players, &format!("{at}.{field}"));
    match *e {
        Event::Answer {
            seat: s, trader, ..
        } => {
            seat(s, "seat")?;
            seat(trader, "trader")
        }
        Event::Transfer { from, to, .. } => {
            if let Party::Player(s) = from {
                seat(s, "from")?;
            }
            if let Party::Player(s) = to {
                seat(s, "to")?;
            }
            Ok(())
        }
        Event::TradeFailed { seat: s, .. }
        | Event::Rolled { seat: s, .. }
        | Event::Wolf { seat: s, .. }
        | Event::Fox { seat: s, .. }
        | Event::Bred { seat: s, .. }
        | Event::Fault { seat: s, .. }
        | Event::Forfeit { seat: s }
        | Event::Win { seat: s, .. } => seat(s, "seat"),
        Event::Draw { .. } => Ok(()),
    }
}

/// The logs of a line, each seat checked: what a seat logged (the first of its logs), if any.
fn logs(logs: &[LogJson], players: usize) -> Result<impl Fn(usize) -> Option<String> + '_, String> {
    for (i, l) in logs.iter().enumerate() {
        seat_in(l.seat, players, &format!("logs[{i}].seat"))?;
    }
    Ok(|seat| logs.iter().find(|l| l.seat == seat).map(|l| l.text.clone()))
}
