//! The Farkle writer as it was before it serialized borrowed lines: every line built as a
//! `serde_json::Value` (whose objects keep their keys sorted) and then serialized. Kept for the
//! tests, as the oracle that the faster writer gives the same bytes: the digest, and every record
//! already published, depend on them.

use serde_json::{json, Map, Value};

use crate::game::record::{sha256_hex, RecordMeta, FORMAT_NAME, FORMAT_VERSION};
use crate::game::AgentLog;
use crate::games::farkle::{GameRecord, RollRecord, TurnEnd, TurnRecord};

/// Writes `record` as JSON Lines, the end line carrying the SHA-256 of every line before it.
pub fn write_record(record: &GameRecord, meta: &RecordMeta) -> anyhow::Result<Vec<u8>> {
    let n = record.setup.players;
    anyhow::ensure!(
        meta.names.len() == n && meta.agent_hashes.len() == n,
        "record metadata has {} names and {} agent hashes for {n} players",
        meta.names.len(),
        meta.agent_hashes.len()
    );
    let limits = match &*meta.limits {
        Value::Null => Value::Object(Map::new()),
        Value::Object(m) => Value::Object(m.clone()),
        other => anyhow::bail!("limits must be a JSON object, not {other}"),
    };
    let setup = &record.setup;
    let mut lines = vec![
        json!({
            "type": "setup",
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "game": crate::games::farkle::NAME,
            "rules_version": farkle_rules::RULES_VERSION,
            "players": (0..n).map(|seat| json!({
                "seat": seat,
                "name": meta.names[seat],
                "agent": meta.agent_hashes[seat],
            })).collect::<Vec<_>>(),
            "seed": setup.seed,
            "dice": "seeded",
            "round_cap": setup.round_cap,
            "target": setup.target,
            "fault_policy": setup.policy,
            "limits": limits,
        }),
        with_logs(
            json!({
                "type": "start",
                "faults": record.end.started.load_faults.iter().map(|f| json!({
                    "seat": f.seat,
                    "fault": f.fault,
                })).collect::<Vec<_>>(),
            }),
            &record.end.started.logs,
        ),
    ];
    lines.extend(record.turns.iter().map(turn_line));
    let mut out = Vec::new();
    for line in &lines {
        serde_json::to_writer(&mut out, line)?;
        out.push(b'\n');
    }
    let digest = sha256_hex(&out);
    let end = json!({
        "type": "end",
        "outcome": record.end.outcome,
        "scores": record.end.scores,
        "forfeits": record.end.forfeits,
        "rounds": record.end.rounds,
        "turns": record.turns.len(),
        "digest": digest,
    });
    serde_json::to_writer(&mut out, &end)?;
    out.push(b'\n');
    Ok(out)
}

fn with_logs(mut line: Value, logs: &[AgentLog]) -> Value {
    if !logs.is_empty() {
        line["logs"] = logs
            .iter()
            .map(|l| json!({"seat": l.seat, "text": l.text}))
            .collect();
    }
    line
}

fn turn_line(t: &TurnRecord) -> Value {
    let rolls: Vec<Value> = t.rolls.iter().map(roll_json).collect();
    let mut line = json!({
        "type": "turn",
        "turn": t.turn,
        "round": t.round,
        "seat": t.seat,
        "rolls": rolls,
    });
    match &t.end {
        TurnEnd::Banked => line["end"] = json!("banked"),
        TurnEnd::Farkle => line["end"] = json!("farkle"),
        TurnEnd::Rejected(reason) => {
            line["end"] = json!("rejected");
            line["reason"] = json!(reason.name());
        }
        TurnEnd::Fault { fault, forfeit } => {
            line["end"] = json!("fault");
            line["fault"] = json!(fault);
            line["forfeit"] = json!(forfeit);
        }
    }
    line["banked"] = json!(t.banked);
    line["score"] = json!(t.score);
    with_logs(line, &t.logs)
}

fn roll_json(r: &RollRecord) -> Value {
    let mut roll = json!({ "dice": r.dice });
    if let Some(a) = &r.answer {
        roll["draft"] = json!(a.draft);
        roll["action"] = json!(a.action);
    }
    if let Some(p) = r.points {
        roll["points"] = json!(p);
    }
    roll
}
