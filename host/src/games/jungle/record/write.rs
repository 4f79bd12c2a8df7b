//! Writing Jungle records (docs/RECORDS.md, "Jungle records"): the shared envelope (`setup`,
//! `start`, one `turn` line per ply, `end` with the digest), positions in the notation, moves as
//! `a3a4`. The line types declare their fields in sorted key order, as the other games' do.

use serde::Serialize;

use super::super::turn::Ply;
use crate::game::record::jsonl::{FaultJson, LogsJson};

#[derive(Serialize)]
pub(crate) struct TurnLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    captured: Option<String>,
    clock: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    fault: Option<FaultJson<'a>>,
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
    pub(crate) fn of(p: &'a Ply) -> TurnLine<'a> {
        let letter = |piece: Option<jungle_rules::Piece>| piece.map(|p| p.letter().to_string());
        TurnLine {
            captured: letter(p.captured),
            clock: p.clock,
            fault: p.fault.as_ref().map(|f| FaultJson(&f.fault)),
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
        }
    }
}
