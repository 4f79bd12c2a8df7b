//! Writing Jungle records (docs/RECORDS.md, "Jungle records"): the shared envelope (`setup`,
//! `start`, one `turn` line per ply, `end` with the digest), positions in the notation, moves as
//! `a3a4`. The line types declare their fields in sorted key order, as the other games' do.

use serde::Serialize;
use serde_json::Value;

use super::super::turn::{GameEnd, Ply, Setup};
use crate::game::fuel_clock::FuelClock;
use crate::game::record::jsonl::{seats_of, LimitsJson, LogsJson, PlayersJson};
use crate::game::record::{RecordMeta, FORMAT_NAME, FORMAT_VERSION};
use crate::game::FaultPolicy;

/// The setup line of a game with `setup` and `meta`.
pub(crate) fn setup_line<'a>(
    setup: &'a Setup,
    meta: &'a RecordMeta,
) -> anyhow::Result<SetupLine<'a>> {
    let (players, limits) = seats_of(meta, 2)?;
    Ok(SetupLine {
        clock: setup.clock,
        fault_policy: setup.policy,
        format: FORMAT_NAME,
        format_version: FORMAT_VERSION,
        game: super::super::NAME,
        limits,
        players,
        ply_cap: setup.ply_cap(),
        position: setup.start.to_string(),
        round_cap: setup.round_cap,
        rules_version: jungle_rules::RULES_VERSION,
        seed: setup.seed,
        kind: "setup",
    })
}

/// The end line.
pub(crate) fn end_line<'a>(end: &GameEnd, digest: &'a str) -> serde_json::Result<EndLine<'a>> {
    Ok(EndLine {
        clocks: end.clocks,
        digest,
        forfeits: end.forfeits.clone(),
        fuel: end.fuel,
        outcome: serde_json::to_value(end.outcome)?,
        position: end.position.to_string(),
        reason: end.reason.name(),
        rounds: end.rounds(),
        turns: end.turns,
        kind: "end",
    })
}

#[derive(Serialize)]
pub(crate) struct SetupLine<'a> {
    clock: FuelClock,
    fault_policy: FaultPolicy,
    format: &'static str,
    format_version: u32,
    game: &'static str,
    limits: LimitsJson<'a>,
    players: PlayersJson<'a>,
    ply_cap: u32,
    position: String,
    round_cap: u32,
    rules_version: u32,
    seed: u64,
    #[serde(rename = "type")]
    kind: &'static str,
}

#[derive(Serialize)]
pub(crate) struct TurnLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    captured: Option<String>,
    clock: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    fault: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeit: Option<bool>,
    fuel: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    illegal: Option<&'static str>,
    #[serde(skip_serializing_if = "LogsJson::is_empty")]
    logs: LogsJson<'a>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    answer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<String>,
    position: String,
    round: u32,
    seat: usize,
    turn: u32,
    #[serde(rename = "type")]
    kind: &'static str,
}

impl<'a> TurnLine<'a> {
    pub(crate) fn of(p: &'a Ply) -> serde_json::Result<TurnLine<'a>> {
        let letter = |piece: Option<jungle_rules::Piece>| piece.map(|p| p.letter().to_string());
        Ok(TurnLine {
            captured: letter(p.captured),
            clock: p.clock,
            fault: p
                .fault
                .as_ref()
                .map(|f| serde_json::to_value(&f.fault))
                .transpose()?,
            forfeit: p.fault.as_ref().map(|f| f.forfeit),
            fuel: p.fuel,
            illegal: p.illegal.map(|i| i.name()),
            logs: LogsJson(&p.logs),
            answer: p.answer.map(|m| m.to_string()),
            piece: letter(p.piece),
            position: p.position.to_string(),
            round: p.round,
            seat: p.seat,
            turn: p.turn,
            kind: "turn",
        })
    }
}

#[derive(Serialize)]
pub(crate) struct EndLine<'a> {
    clocks: [u64; 2],
    digest: &'a str,
    forfeits: Vec<usize>,
    fuel: [u64; 2],
    outcome: Value,
    position: String,
    reason: &'static str,
    rounds: u32,
    turns: u32,
    #[serde(rename = "type")]
    kind: &'static str,
}
