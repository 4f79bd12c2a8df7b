//! The report's replay data of a code war, from its record: the record's lines without the
//! modules' bytes (the viewer shows each module's size and hash).

use anyhow::{bail, Context};
use serde_json::{json, Map, Value};

use crate::game::replay::RecordLines;
use crate::records::lines::RecordReader;

/// The report's replay data of a game: [`replay_json`] of its lines, with the game's number in
/// the league (`id`) and where its record is (`record`, which the viewer links to).
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    let mut text = Vec::new();
    for line in r.lines {
        serde_json::to_writer(&mut text, line)?;
        text.push(b'\n');
    }
    let mut data: Value = serde_json::from_slice(&replay_json(&text)?)?;
    data["id"] = r.id.into();
    data["record"] = r.record.into();
    Ok(crate::game::replay::json(&data))
}

/// The replay data (JSON) of the record `record` (its bytes, gzip-compressed or not), as
/// `viewer/codewar.js` reads it: `game`, `players`, `seed`, `settings`, `modules` (by id: size
/// and hash), `iterations` (the record's iteration lines without `type`) and `end`.
pub fn replay_json(record: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut reader = RecordReader::new(record).context("cannot read the record")?;
    let mut out = Map::new();
    let mut modules = Map::new();
    let mut iterations = Vec::new();
    while let Some(line) = reader.next_line().context("cannot read the record")? {
        let mut v = line.value;
        match v["type"].as_str() {
            Some("setup") => {
                out.insert("game".into(), v["game"].take());
                out.insert(
                    "players".into(),
                    Value::Array(
                        v["players"]
                            .as_array_mut()
                            .into_iter()
                            .flatten()
                            .map(|p| p["name"].take())
                            .collect(),
                    ),
                );
                out.insert("seed".into(), v["seed"].take());
                out.insert("settings".into(), v["settings"].take());
            }
            Some("module") => {
                let size = v["bytes"].as_str().map_or(0, |b| {
                    b.len() / 4 * 3 - b.bytes().rev().take_while(|&c| c == b'=').count()
                });
                let id = v["id"].to_string();
                modules.insert(id, json!({"size": size, "hash": v["hash"].take()}));
            }
            Some("iteration") => {
                if let Some(m) = v.as_object_mut() {
                    m.remove("type");
                }
                iterations.push(v);
            }
            Some("end") => {
                if let Some(m) = v.as_object_mut() {
                    m.remove("type");
                    m.remove("digest");
                }
                out.insert("modules".into(), Value::Object(modules));
                out.insert("iterations".into(), Value::Array(iterations));
                out.insert("end".into(), v);
                return Ok(serde_json::to_vec(&Value::Object(out))?);
            }
            _ => {}
        }
    }
    bail!("the record has no end line")
}
