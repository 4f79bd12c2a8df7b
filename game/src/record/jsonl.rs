//! What every game's record writer shares. A record is built in one buffer: every line is
//! serialized straight into it from borrowed views of the game (no copy of the game into owned
//! JSON types first), and the digest is taken over the finished body in one pass. A league writes
//! a record after every game, so this is on its hot path.

use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::RecordMeta;
use crate::{AgentLog, Fault};

/// Bytes to reserve for a record of `turns` turns at `per_turn` bytes each, so that the buffer
/// is not regrown (and copied) line after line.
pub fn capacity(turns: usize, per_turn: usize) -> usize {
    1024 + turns * per_turn
}

/// Appends `line` to `buf` as one JSON Lines line: compact JSON, then `\n`.
pub fn push_line(buf: &mut Vec<u8>, line: &impl Serialize) -> serde_json::Result<()> {
    serde_json::to_writer(&mut *buf, line)?;
    buf.push(b'\n');
    Ok(())
}

/// Checks that `meta` has one name and one agent hash per seat.
pub fn check_seats(meta: &RecordMeta, players: usize) -> Result<(), String> {
    if meta.names.len() != players || meta.agent_hashes.len() != players {
        return Err(format!(
            "record metadata has {} names and {} agent hashes for {players} players",
            meta.names.len(),
            meta.agent_hashes.len()
        ));
    }
    Ok(())
}

/// The setup line's `limits`, borrowed from the metadata: a JSON object, `null` written as `{}`.
#[derive(Clone, Copy)]
pub struct LimitsJson<'a>(Option<&'a Map<String, Value>>);

impl<'a> LimitsJson<'a> {
    pub fn of(meta: &'a RecordMeta) -> Result<LimitsJson<'a>, String> {
        match &*meta.limits {
            Value::Null => Ok(LimitsJson(None)),
            Value::Object(m) => Ok(LimitsJson(Some(m))),
            other => Err(format!("limits must be a JSON object, not {other}")),
        }
    }
}

impl Serialize for LimitsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(m) => m.serialize(s),
            None => s.serialize_map(Some(0))?.end(),
        }
    }
}

/// Agents' debug output as `[{"seat": S, "text": T}, …]`: the same keys, in the same order, in
/// both games' records.
#[derive(Clone, Copy)]
pub struct LogsJson<'a>(pub &'a [AgentLog]);

impl LogsJson<'_> {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for LogsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Log<'a> {
            seat: usize,
            text: &'a str,
        }
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for l in self.0 {
            seq.serialize_element(&Log {
                seat: l.seat,
                text: &l.text,
            })?;
        }
        seq.end()
    }
}

/// A fault as records write it: `{"detail": D, "kind": K}`, its keys in sorted order (as
/// [`Fault`]'s own fields are not).
#[derive(Clone, Copy)]
pub struct FaultJson<'a>(pub &'a Fault);

impl Serialize for FaultJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut fault = s.serialize_struct("Fault", 2)?;
        fault.serialize_field("detail", &self.0.detail)?;
        fault.serialize_field("kind", &self.0.kind)?;
        fault.end()
    }
}

/// The setup line's `players` as `[{"agent": A, "name": N, "seat": S}, …]` (`agent`: the
/// module's SHA-256, or `null`), borrowed from the metadata.
#[derive(Clone, Copy)]
pub struct PlayersJson<'a>(&'a RecordMeta);

impl Serialize for PlayersJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Player<'a> {
            agent: Option<&'a str>,
            name: &'a str,
            seat: usize,
        }
        let meta = self.0;
        s.collect_seq(meta.names.iter().enumerate().map(|(seat, name)| Player {
            agent: meta.agent_hashes[seat].as_deref(),
            name,
            seat,
        }))
    }
}

/// The setup line's `players` and `limits` for a game of `players` seats played by `meta`'s
/// players (an error: `meta` has another number of seats, or limits that are not an object).
pub fn seats_of(
    meta: &RecordMeta,
    players: usize,
) -> anyhow::Result<(PlayersJson<'_>, LimitsJson<'_>)> {
    check_seats(meta, players).map_err(anyhow::Error::msg)?;
    let limits = LimitsJson::of(meta).map_err(anyhow::Error::msg)?;
    Ok((PlayersJson(meta), limits))
}
