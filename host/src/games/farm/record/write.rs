use std::io::{self, Write};

use farm_rules::{Herd, Position, RULES_VERSION};
use serde::Serialize;

use super::format::{
    DiceKind, EventJson, HerdJson, OfferJson, RollJson, StartJson, FORMAT_NAME, FORMAT_VERSION,
    GAME_NAME,
};
use crate::games::farm::{AgentLog, Event, FaultPolicy, GameRecord, Outcome, Setup, TurnRecord};
use crate::records::jsonl::{capacity, check_seats, push_line, LimitsJson, LogsJson};
use crate::records::{sha256_hex, RecordMeta};

/// Writes `record` as JSON Lines: setup, start, one line per turn, end (with the digest of every
/// line before it). The record is built in memory and written with one `write_all`.
pub fn write_record(record: &GameRecord, meta: &RecordMeta, mut out: impl Write) -> io::Result<()> {
    out.write_all(&record_bytes(record, meta)?)
}

/// The record as a string (see [`write_record`]).
pub fn record_to_string(record: &GameRecord, meta: &RecordMeta) -> io::Result<String> {
    String::from_utf8(record_bytes(record, meta)?).map_err(io::Error::other)
}

/// The bytes of the record (see [`write_record`]).
pub fn record_bytes(record: &GameRecord, meta: &RecordMeta) -> io::Result<Vec<u8>> {
    // A turn line is 200 to 500 bytes.
    let mut buf = Vec::with_capacity(capacity(record.turns.len(), 512));
    push_line(&mut buf, &setup_line(&record.setup, meta)?)?;
    push_line(
        &mut buf,
        &start_line(&record.start_events, &record.start_logs),
    )?;
    for t in &record.turns {
        push_line(&mut buf, &TurnLine::of(t))?;
    }
    let digest = sha256_hex(&buf);
    let end = end_line(
        record.outcome,
        record.rounds(),
        &record.forfeits,
        &record.final_position,
        &digest,
    );
    push_line(&mut buf, &end)?;
    Ok(buf)
}

/// The setup line of a game with `setup` and `meta`.
pub(crate) fn setup_line<'a>(setup: &'a Setup, meta: &'a RecordMeta) -> io::Result<SetupLine<'a>> {
    check_seats(meta, setup.players).map_err(invalid)?;
    let limits = LimitsJson::of(meta).map_err(invalid)?;
    Ok(SetupLine {
        kind: "setup",
        format: FORMAT_NAME,
        format_version: FORMAT_VERSION,
        game: GAME_NAME,
        rules_version: RULES_VERSION,
        players: (0..setup.players)
            .map(|seat| Player {
                seat,
                name: &meta.names[seat],
                agent: meta.agent_hashes[seat].as_deref(),
            })
            .collect(),
        seed: setup.seed,
        dice: if setup.seed.is_some() {
            DiceKind::Seeded
        } else {
            DiceKind::Explicit
        },
        round_cap: setup.round_cap,
        fault_policy: setup.policy,
        limits,
        start: setup.start.as_ref().map(|s| StartJson {
            herds: s.herds.iter().map(|&h| HerdJson(h)).collect(),
            stock: HerdJson(s.stock),
            to_move: s.to_move,
        }),
    })
}

/// The start line: what happened before the first turn.
pub(crate) fn start_line<'a>(events: &'a [Event], logs: &'a [AgentLog]) -> StartLine<'a> {
    StartLine {
        kind: "start",
        events: Events(events),
        logs: LogsJson(logs),
    }
}

/// The end line.
pub(crate) fn end_line<'a>(
    outcome: Outcome,
    rounds: u32,
    forfeits: &'a [usize],
    position: &'a Position,
    digest: &'a str,
) -> EndLine<'a> {
    EndLine {
        kind: "end",
        outcome,
        rounds,
        forfeits,
        final_position: Final {
            herds: Herds(position.seated()),
            stock: HerdJson(position.stock),
        },
        digest,
    }
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

// The lines as the writer sees them: `format.rs`'s line types, field for field and in the same
// order (so the same bytes), but borrowing from the game instead of owning copies of it. `kind`
// is the `type` tag that `format::Line` adds in front of every line.

#[derive(Serialize)]
pub(crate) struct SetupLine<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    format: &'static str,
    format_version: u32,
    game: &'static str,
    rules_version: u32,
    players: Vec<Player<'a>>,
    seed: Option<u64>,
    dice: DiceKind,
    round_cap: u32,
    fault_policy: FaultPolicy,
    limits: LimitsJson<'a>,
    start: Option<StartJson>,
}

#[derive(Serialize)]
struct Player<'a> {
    seat: usize,
    name: &'a str,
    agent: Option<&'a str>,
}

#[derive(Serialize)]
pub(crate) struct StartLine<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    events: Events<'a>,
    #[serde(skip_serializing_if = "LogsJson::is_empty")]
    logs: LogsJson<'a>,
}

#[derive(Serialize)]
pub(crate) struct TurnLine<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    turn: u32,
    round: u32,
    seat: usize,
    offer: Option<OfferJson>,
    answer: Option<bool>,
    roll: Option<RollJson>,
    events: Events<'a>,
    #[serde(skip_serializing_if = "LogsJson::is_empty")]
    logs: LogsJson<'a>,
}

impl<'a> TurnLine<'a> {
    pub(crate) fn of(t: &'a TurnRecord) -> TurnLine<'a> {
        TurnLine {
            kind: "turn",
            turn: t.turn,
            round: t.round,
            seat: t.seat,
            offer: t.offer.map(Into::into),
            answer: t.answer,
            roll: t.roll.map(Into::into),
            events: Events(&t.events),
            logs: LogsJson(&t.logs),
        }
    }
}

#[derive(Serialize)]
pub(crate) struct EndLine<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    outcome: Outcome,
    rounds: u32,
    forfeits: &'a [usize],
    #[serde(rename = "final")]
    final_position: Final<'a>,
    digest: &'a str,
}

#[derive(Serialize)]
struct Final<'a> {
    herds: Herds<'a>,
    stock: HerdJson,
}

/// Events written one by one as [`EventJson`], without collecting them first.
struct Events<'a>(&'a [Event]);

impl Serialize for Events<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(EventJson::from))
    }
}

struct Herds<'a>(&'a [Herd]);

impl Serialize for Herds<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|&h| HerdJson(h)))
    }
}
