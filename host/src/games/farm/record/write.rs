//! A farm record's lines as written from a game, each serialized straight from borrowed views
//! of it (the envelope's `jsonl` parts for the seats' limits and the logs).

use std::io;

use farm_rules::{Position, RULES_VERSION};
use serde::Serialize;

use super::format::{
    DiceKind, OfferJson, RollJson, StartJson, FORMAT_NAME, FORMAT_VERSION, GAME_NAME,
};
use crate::game::record::jsonl::{seats_of, LimitsJson, LogsJson};
use crate::game::record::write_kept;
use crate::game::RecordMeta;
use crate::games::farm::event::HerdJson;
use crate::games::farm::{
    AgentLog, Event, Farm, FaultPolicy, GameRecord, Outcome, Setup, TurnRecord,
};

/// The record of a game as played, for `meta`'s players.
pub fn record_bytes(record: &GameRecord, meta: &RecordMeta) -> io::Result<Vec<u8>> {
    write_kept(&Farm, record, meta).map_err(io::Error::other)
}

/// The record as a string (see [`record_bytes`]).
pub fn record_to_string(record: &GameRecord, meta: &RecordMeta) -> io::Result<String> {
    String::from_utf8(record_bytes(record, meta)?).map_err(io::Error::other)
}

/// The setup line of a game with `setup` and `meta`.
pub(crate) fn setup_line<'a>(
    setup: &'a Setup,
    meta: &'a RecordMeta,
) -> anyhow::Result<SetupLine<'a>> {
    // The farm's players are written in an order of their own (`Player`).
    let (_, limits) = seats_of(meta, setup.players)?;
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
        events,
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
            herds: position.seated().iter().map(|&h| HerdJson(h)).collect(),
            stock: HerdJson(position.stock),
        },
        digest,
    }
}

// The lines as the writer sees them, borrowing from the game. The fields' order is the bytes of
// every farm record (tests/identity.rs pins them); `kind` is the `type` field, which comes first.

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
    events: &'a [Event],
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
    events: &'a [Event],
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
            offer: t.offer.map(OfferJson),
            answer: t.answer,
            roll: t.roll.map(RollJson),
            events: &t.events,
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
    final_position: Final,
    digest: &'a str,
}

#[derive(Serialize)]
struct Final {
    herds: Vec<HerdJson>,
    stock: HerdJson,
}
