use std::io::{self, Write};

use farm_rules::RULES_VERSION;
use sha2::{Digest, Sha256};

use super::format::{
    DiceKind, EndLine, EventJson, FinalJson, HerdJson, Line, LogJson, PlayerJson, SetupLine,
    StartJson, StartLine, TurnLine, FORMAT_NAME, FORMAT_VERSION, GAME_NAME,
};
use super::{hex, RecordMeta};
use crate::farm::GameRecord;

/// Writes `record` as JSON Lines: setup, start, one line per turn, end (with the digest of every
/// line before it).
pub fn write_record(record: &GameRecord, meta: &RecordMeta, mut out: impl Write) -> io::Result<()> {
    let mut hasher = Sha256::new();
    for line in body_lines(record, meta)? {
        let mut bytes = serde_json::to_vec(&line).map_err(io::Error::other)?;
        bytes.push(b'\n');
        hasher.update(&bytes);
        out.write_all(&bytes)?;
    }
    let end = Line::End(end_line(record, hex(&hasher.finalize())));
    let mut bytes = serde_json::to_vec(&end).map_err(io::Error::other)?;
    bytes.push(b'\n');
    out.write_all(&bytes)
}

/// The record as a string (see [`write_record`]).
pub fn record_to_string(record: &GameRecord, meta: &RecordMeta) -> io::Result<String> {
    let mut buf = Vec::new();
    write_record(record, meta, &mut buf)?;
    String::from_utf8(buf).map_err(io::Error::other)
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

fn body_lines(record: &GameRecord, meta: &RecordMeta) -> io::Result<Vec<Line>> {
    let setup = &record.setup;
    let n = setup.players;
    if meta.names.len() != n || meta.agent_hashes.len() != n {
        return Err(invalid(format!(
            "record metadata has {} names and {} agent hashes for {n} players",
            meta.names.len(),
            meta.agent_hashes.len()
        )));
    }
    let limits = match &meta.limits {
        serde_json::Value::Null => serde_json::Map::new(),
        serde_json::Value::Object(m) => m.clone(),
        other => {
            return Err(invalid(format!(
                "limits must be a JSON object, not {other}"
            )))
        }
    };
    let players = (0..n)
        .map(|seat| PlayerJson {
            seat,
            name: meta.names[seat].clone(),
            agent: meta.agent_hashes[seat].clone(),
        })
        .collect();
    let start = setup.start.as_ref().map(|s| StartJson {
        herds: s.herds.iter().map(|&h| HerdJson(h)).collect(),
        stock: HerdJson(s.stock),
        to_move: s.to_move,
    });
    let mut lines = vec![
        Line::Setup(SetupLine {
            format: FORMAT_NAME.into(),
            format_version: FORMAT_VERSION,
            game: GAME_NAME.into(),
            rules_version: RULES_VERSION,
            players,
            seed: setup.seed,
            dice: if setup.seed.is_some() {
                DiceKind::Seeded
            } else {
                DiceKind::Explicit
            },
            round_cap: setup.round_cap,
            fault_policy: setup.policy,
            limits,
            start,
        }),
        Line::Start(StartLine {
            events: record.start_events.iter().map(EventJson::from).collect(),
            logs: record.start_logs.iter().map(LogJson::from).collect(),
        }),
    ];
    lines.extend(record.turns.iter().map(|t| {
        Line::Turn(TurnLine {
            turn: t.turn,
            round: t.round,
            seat: t.seat,
            offer: t.offer.map(Into::into),
            answer: t.answer,
            roll: t.roll.map(Into::into),
            events: t.events.iter().map(EventJson::from).collect(),
            logs: t.logs.iter().map(LogJson::from).collect(),
        })
    }));
    Ok(lines)
}

fn end_line(record: &GameRecord, digest: String) -> EndLine {
    let pos = &record.final_position;
    EndLine {
        outcome: record.outcome,
        rounds: record.rounds(),
        forfeits: record.forfeits.clone(),
        final_position: FinalJson {
            herds: pos.seated().iter().map(|&h| HerdJson(h)).collect(),
            stock: HerdJson(pos.stock),
        },
        digest,
    }
}
