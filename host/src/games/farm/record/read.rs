use farm_rules::{Herd, Position, KINDS, MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::format::{
    DiceKind, EndLine, EventJson, LogJson, SetupLine, StartLine, TurnLine, FORMAT_NAME,
    FORMAT_VERSION, GAME_NAME,
};
use crate::game::record::{Line, ReadError, RecordReader};
use crate::game::{Loaded, RecordMeta};
use crate::games::farm::{
    AgentLog, Decision, Event, GameEnd, GameRecord, Party, Setup, StartPosition, TurnRecord,
};

/// A record read back: the game as the game loop would have returned it, and its metadata.
#[derive(Clone, Debug)]
pub struct ParsedRecord {
    pub record: GameRecord,
    pub meta: RecordMeta,
    /// The `digest` field of the end line, as written.
    pub digest: String,
}

/// Parses a record (uncompressed text) into the game it describes. Checks the shape of every line
/// and that seats and amounts make sense, not that the game was played by the rules: that is
/// [`crate::records::verify_record`]. Object keys given twice are refused, at any depth.
pub fn read_record(text: &str) -> Result<ParsedRecord, ReadError> {
    let mut reader = RecordReader::new(text.as_bytes())
        .map_err(|e| ReadError::new(0, format!("cannot read the record: {e}")))?;
    let first = reader
        .next_line()?
        .ok_or_else(|| ReadError::new(0, "empty file: a record has at least 3 lines"))?;
    let (setup, meta) = setup_of(&first)?;
    let players = setup.players;
    let second = reader
        .next_line()?
        .ok_or_else(|| ReadError::new(2, "missing start line: the record is truncated"))?;
    let (start_events, start_logs) = start_of(&second, players)?;
    let mut turns = Vec::new();
    let end = loop {
        let Some(line) = reader.next_line()? else {
            return Err(ReadError::new(
                reader.lines_read() + 1,
                "missing end line: the record is truncated",
            ));
        };
        match line.kind() {
            Some("turn") => turns.push(turn_of(&line, players)?),
            Some("end") => break line,
            _ => {
                return Err(ReadError::new(
                    line.number,
                    format!(
                        "type: expected \"turn\" or \"end\", found {}",
                        line.kind_shown()
                    ),
                ))
            }
        }
    };
    let (end_json, final_position, forfeits) = end_of(&end, players)?;
    reader.expect_end_of_file()?;
    let record = GameRecord {
        setup,
        loaded: loaded_of(&start_events, &start_logs, players),
        end: GameEnd {
            start_events,
            start_logs,
            outcome: end_json.outcome,
            final_position,
            forfeits,
            turns: turns.len() as u32,
            rounds: turns.last().map_or(0, |t| t.round),
        },
        turns,
    };
    Ok(ParsedRecord {
        record,
        meta,
        digest: end_json.digest,
    })
}

/// How each seat's agent started, by the start line's events and logs.
pub(crate) fn loaded_of(events: &[Event], logs: &[AgentLog], players: usize) -> Vec<Loaded> {
    (0..players)
        .map(|seat| Loaded {
            fault: events.iter().find_map(|e| match e {
                Event::Fault {
                    seat: s,
                    decision: Decision::Init,
                    fault,
                } if *s == seat => Some(fault.clone()),
                _ => None,
            }),
            log: logs.iter().find(|l| l.seat == seat).map(|l| l.text.clone()),
        })
        .collect()
}

/// The setup line (line 1): the setup and the metadata.
pub(crate) fn setup_of(line: &Line) -> Result<(Setup, RecordMeta), ReadError> {
    let setup: SetupLine = typed(&line.value, line.number, "setup")?;
    read_setup(setup).map_err(|m| ReadError::new(line.number, m))
}

/// The start line (line 2): events and logs before the first turn.
pub(crate) fn start_of(
    line: &Line,
    players: usize,
) -> Result<(Vec<Event>, Vec<AgentLog>), ReadError> {
    let start: StartLine = typed(&line.value, line.number, "start")?;
    let at = |m| ReadError::new(line.number, m);
    Ok((
        events(&start.events, players).map_err(at)?,
        logs(&start.logs, players).map_err(at)?,
    ))
}

/// A turn line.
pub(crate) fn turn_of(line: &Line, players: usize) -> Result<TurnRecord, ReadError> {
    let turn: TurnLine = typed(&line.value, line.number, "turn")?;
    read_turn(turn, players).map_err(|m| ReadError::new(line.number, m))
}

/// The end line: as written, the final position it gives, and the forfeits.
pub(crate) fn end_of(
    line: &Line,
    players: usize,
) -> Result<(EndLine, Position, Vec<usize>), ReadError> {
    let end: EndLine = typed(&line.value, line.number, "end")?;
    let (position, forfeits) =
        read_end(&end, players).map_err(|m| ReadError::new(line.number, m))?;
    Ok((end, position, forfeits))
}

fn line_type(value: &Value) -> Option<&str> {
    value.get("type").and_then(Value::as_str)
}

fn type_of(value: &Value) -> String {
    value
        .get("type")
        .map_or_else(|| "no type".to_string(), |t| t.to_string())
}

/// Deserializes a line whose `type` must be `want`, naming the failing field on error.
pub(crate) fn typed<T: DeserializeOwned>(
    value: &Value,
    line: usize,
    want: &str,
) -> Result<T, ReadError> {
    if line_type(value) != Some(want) {
        return Err(ReadError::new(
            line,
            format!("type: expected \"{want}\", found {}", type_of(value)),
        ));
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." {
            ReadError::new(line, inner.to_string())
        } else {
            ReadError::new(line, format!("{path}: {inner}"))
        }
    })
}

/// Largest number of animals of one kind a record may hold: offers are signed 32-bit, and rules
/// arithmetic must not overflow.
const MAX_KIND_TOTAL: u64 = i32::MAX as u64;

fn read_setup(s: SetupLine) -> Result<(Setup, RecordMeta), String> {
    if s.format != FORMAT_NAME {
        return Err(format!(
            "format: expected \"{FORMAT_NAME}\", found \"{}\"",
            s.format
        ));
    }
    if s.format_version != FORMAT_VERSION {
        return Err(format!(
            "format_version: this arena reads version {FORMAT_VERSION}, found {}",
            s.format_version
        ));
    }
    if s.game != GAME_NAME {
        return Err(format!(
            "game: expected \"{GAME_NAME}\", found \"{}\"",
            s.game
        ));
    }
    if s.rules_version != RULES_VERSION {
        return Err(format!(
            "rules_version: this arena implements rules version {RULES_VERSION}, found {}",
            s.rules_version
        ));
    }
    let n = s.players.len();
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
        return Err(format!(
            "players: a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, found {n}"
        ));
    }
    for (i, p) in s.players.iter().enumerate() {
        if p.seat != i {
            return Err(format!("players[{i}].seat: expected {i}, found {}", p.seat));
        }
        if let Some(hash) = &p.agent {
            let is_hex = hash.len() == 64
                && hash
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            if !is_hex {
                return Err(format!(
                    "players[{i}].agent: expected 64 lower-case hex digits or null, found \"{hash}\""
                ));
            }
        }
    }
    match (s.dice, s.seed) {
        (DiceKind::Seeded, None) => return Err("seed: dice are \"seeded\" but seed is null".into()),
        (DiceKind::Explicit, Some(_)) => {
            return Err("seed: dice are \"explicit\" but a seed is given".into())
        }
        _ => {}
    }
    let start = match s.start {
        None => None,
        Some(st) => {
            if st.herds.len() != n {
                return Err(format!(
                    "start.herds: expected {n} herds (one per player), found {}",
                    st.herds.len()
                ));
            }
            if st.to_move >= n {
                return Err(format!(
                    "start.to_move: {} is not a seat of this {n}-player game",
                    st.to_move
                ));
            }
            let herds: Vec<Herd> = st.herds.iter().map(|h| h.0).collect();
            for k in 0..KINDS {
                let total: u64 =
                    st.stock.0 .0[k] as u64 + herds.iter().map(|h| h.0[k] as u64).sum::<u64>();
                if total > MAX_KIND_TOTAL {
                    return Err(format!(
                        "start: {total} animals of kind {k} in the game, at most {MAX_KIND_TOTAL} allowed"
                    ));
                }
            }
            Some(StartPosition {
                herds,
                stock: st.stock.0,
                to_move: st.to_move,
            })
        }
    };
    let setup = Setup {
        players: n,
        seed: s.seed,
        round_cap: s.round_cap,
        policy: s.fault_policy,
        start,
    };
    let meta = RecordMeta {
        names: s.players.iter().map(|p| p.name.clone()).collect(),
        agent_hashes: s.players.iter().map(|p| p.agent.clone()).collect(),
        limits: std::sync::Arc::new(Value::Object(s.limits)),
    };
    Ok((setup, meta))
}

fn seat_ok(seat: usize, players: usize, what: &str) -> Result<(), String> {
    if seat < players {
        Ok(())
    } else {
        Err(format!(
            "{what}: {seat} is not a seat of this {players}-player game"
        ))
    }
}

fn events(list: &[EventJson], players: usize) -> Result<Vec<Event>, String> {
    list.iter()
        .enumerate()
        .map(|(i, e)| {
            let event = e.to_event().map_err(|m| format!("events[{i}]: {m}"))?;
            check_seats(&event, players, &format!("events[{i}]"))?;
            Ok(event)
        })
        .collect()
}

fn check_seats(e: &Event, players: usize, at: &str) -> Result<(), String> {
    let seat = |s: usize, field: &str| seat_ok(s, players, &format!("{at}.{field}"));
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

fn read_turn(t: TurnLine, players: usize) -> Result<TurnRecord, String> {
    seat_ok(t.seat, players, "seat")?;
    Ok(TurnRecord {
        turn: t.turn,
        round: t.round,
        seat: t.seat,
        offer: t.offer.map(Into::into),
        answer: t.answer,
        roll: t.roll.map(Into::into),
        events: events(&t.events, players)?,
        logs: logs(&t.logs, players)?,
    })
}

fn logs(logs: &[LogJson], players: usize) -> Result<Vec<AgentLog>, String> {
    logs.iter()
        .enumerate()
        .map(|(i, l)| {
            seat_ok(l.seat, players, &format!("logs[{i}].seat"))?;
            Ok(AgentLog::from(l))
        })
        .collect()
}

fn read_end(end: &EndLine, players: usize) -> Result<(Position, Vec<usize>), String> {
    let fin = &end.final_position;
    if fin.herds.len() != players {
        return Err(format!(
            "final.herds: expected {players} herds (one per player), found {}",
            fin.herds.len()
        ));
    }
    let mut pos = Position::new(players);
    for (slot, h) in pos.herds.iter_mut().zip(&fin.herds) {
        *slot = h.0;
    }
    pos.stock = fin.stock.0;
    for (i, &s) in end.forfeits.iter().enumerate() {
        seat_ok(s, players, &format!("forfeits[{i}]"))?;
        pos.out |= 1 << s;
    }
    if let Some(seat) = end.outcome.winner() {
        seat_ok(seat, players, "outcome.seat")?;
    }
    Ok((pos, end.forfeits.clone()))
}
