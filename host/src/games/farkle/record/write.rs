//! Farkle's record lines, as written. Every object of a Farkle record has its keys in sorted order
//! (the writer used to build each line as a `serde_json::Value`, whose objects sort their keys),
//! so the line types below declare their fields in that order: the same bytes, without building a
//! tree of values per line.

use serde::Serialize;

use super::super::turn::{RollRecord, TurnEnd, TurnRecord};
use crate::game::record::jsonl::{FaultJson, LogsJson};

// The lines, fields in sorted order; `kind` is the `type` field, which sorts last.

#[derive(Serialize)]
pub(crate) struct TurnLine<'a> {
    banked: u32,
    end: &'static str,
    /// Only for a turn that ended with a fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    fault: Option<FaultJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeit: Option<bool>,
    #[serde(skip_serializing_if = "LogsJson::is_empty")]
    logs: LogsJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    rolls: Rolls<'a>,
    round: u32,
    score: u32,
    seat: usize,
    turn: u32,
    #[serde(rename = "type")]
    kind: &'static str,
}

impl<'a> TurnLine<'a> {
    pub(crate) fn of(t: &'a TurnRecord) -> TurnLine<'a> {
        let (end, reason, fault, forfeit) = match &t.end {
            TurnEnd::Banked => ("banked", None, None, None),
            TurnEnd::Farkle => ("farkle", None, None, None),
            TurnEnd::Rejected(reason) => ("rejected", Some(reason.name()), None, None),
            TurnEnd::Fault { fault, forfeit } => {
                ("fault", None, Some(FaultJson(fault)), Some(*forfeit))
            }
        };
        TurnLine {
            banked: t.banked,
            end,
            fault,
            forfeit,
            logs: LogsJson(&t.logs),
            reason,
            rolls: Rolls(&t.rolls),
            round: t.round,
            score: t.score,
            seat: t.seat,
            turn: t.turn,
            kind: "turn",
        }
    }
}

/// The rolls of a turn, written one by one without collecting them first.
struct Rolls<'a>(&'a [RollRecord]);

impl Serialize for Rolls<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|r| Roll {
            action: r.answer.as_ref().map(|a| a.action),
            dice: &r.dice,
            draft: r.answer.as_ref().map(|a| &a.draft[..]),
            points: r.points,
        }))
    }
}

#[derive(Serialize)]
struct Roll<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<u32>,
    dice: &'a [u8],
    #[serde(skip_serializing_if = "Option::is_none")]
    draft: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<u32>,
}
