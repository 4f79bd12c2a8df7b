//! The record writer, for every game: the setup line, then the game's lines as the game loop
//! plays (a [`Sink`]), serialized straight into one buffer from borrowed views of the game; the
//! digest is taken over the finished body in one pass, and the end line closes the record. A
//! league writes a record after every game, so this is on its hot path.

use std::ops::ControlFlow;

use serde::Serialize;
use serde_json::{Map, Value};

use super::jsonl::push_line;
use super::{sha256_hex, Record, RecordMeta};
use crate::rules::Sink;

/// Where a game's lines go: a record's bytes (the writer), or JSON values (the verifier, which
/// compares them with the record's).
pub struct Lines<'a> {
    out: Out<'a>,
}

enum Out<'a> {
    Bytes(&'a mut Vec<u8>),
    Values(&'a mut Vec<Value>),
}

impl<'a> Lines<'a> {
    /// Lines appended to `buf` as JSON Lines.
    pub fn bytes(buf: &'a mut Vec<u8>) -> Lines<'a> {
        Lines {
            out: Out::Bytes(buf),
        }
    }

    /// Lines kept as JSON values.
    pub fn values(values: &'a mut Vec<Value>) -> Lines<'a> {
        Lines {
            out: Out::Values(values),
        }
    }

    /// One line.
    pub fn push(&mut self, line: &impl Serialize) -> serde_json::Result<()> {
        match &mut self.out {
            Out::Bytes(buf) => push_line(buf, line),
            Out::Values(values) => {
                values.push(serde_json::to_value(line)?);
                Ok(())
            }
        }
    }
}

/// A line of the fields of a JSON object, in the order the object keeps them (sorted), then its
/// `type`.
#[derive(Serialize)]
struct SortedLine {
    #[serde(flatten)]
    fields: Map<String, Value>,
    #[serde(rename = "type")]
    kind: &'static str,
}

impl Lines<'_> {
    /// One line of the type `kind` with `fields` (a JSON object), its keys in sorted order and
    /// `type` last, as the records of every game but the oldest have the lines they write once
    /// (setup, end): a game gives them as a value rather than declare a type for each.
    pub fn push_sorted(&mut self, kind: &'static str, fields: Value) -> serde_json::Result<()> {
        let Value::Object(fields) = fields else {
            let message = format!("the fields of a `{kind}` line are not a JSON object");
            return Err(serde::ser::Error::custom(message));
        };
        self.push(&SortedLine { fields, kind })
    }
}

/// Writes a record as its game is played (a [`Sink`] of the game loop); keeps the turns too when
/// asked (for a narration).
pub struct Writer<R: Record> {
    buf: Vec<u8>,
    kept: Option<Vec<R::Turn>>,
    error: Option<serde_json::Error>,
}

impl<R: Record> Writer<R> {
    /// A record of a game of `setup` played by `meta`'s players: its setup line.
    pub fn new(
        rules: &R,
        setup: &R::Setup,
        meta: &RecordMeta,
        keep_turns: bool,
    ) -> anyhow::Result<Writer<R>> {
        let mut buf = Vec::with_capacity(1024 + 64 * R::TURN_BYTES);
        rules.setup_line(setup, meta, &mut Lines::bytes(&mut buf))?;
        Ok(Writer {
            buf,
            kept: keep_turns.then(Vec::new),
            error: None,
        })
    }

    /// The finished record, with the end line of `end`, and the turns kept.
    pub fn finish(mut self, rules: &R, end: &R::End) -> anyhow::Result<(Vec<u8>, Vec<R::Turn>)> {
        if let Some(e) = self.error.take() {
            return Err(e.into());
        }
        let digest = sha256_hex(&self.buf);
        rules.end_line(end, &digest, &mut Lines::bytes(&mut self.buf))?;
        Ok((self.buf, self.kept.unwrap_or_default()))
    }

    /// Why the writer stopped the game, if it did.
    pub fn take_error(&mut self) -> Option<serde_json::Error> {
        self.error.take()
    }

    fn written(&mut self, r: serde_json::Result<()>) -> ControlFlow<()> {
        match r {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }
}

impl<R: Record> Sink<R> for Writer<R> {
    fn start(&mut self, rules: &R, state: &R::State) -> ControlFlow<()> {
        let r = rules.start_lines(state, &mut Lines::bytes(&mut self.buf));
        self.written(r)
    }

    fn turn(&mut self, rules: &R, turn: R::Turn) -> ControlFlow<()> {
        let r = rules.turn_lines(&turn, &mut Lines::bytes(&mut self.buf));
        if let Some(kept) = &mut self.kept {
            kept.push(turn);
        }
        self.written(r)
    }
}

/// The record of a game as played ([`crate::Kept`]) for `meta`'s players: the same bytes as the
/// writer gave while it was played (its start is the rules' start again, from how each agent
/// started).
pub fn write_kept<R: Record>(
    rules: &R,
    kept: &crate::Kept<R>,
    meta: &RecordMeta,
) -> anyhow::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(1024 + kept.turns.len() * R::TURN_BYTES);
    rules.setup_line(&kept.setup, meta, &mut Lines::bytes(&mut buf))?;
    let state = rules.start(&kept.setup, &kept.loaded);
    rules.start_lines(&state, &mut Lines::bytes(&mut buf))?;
    for turn in &kept.turns {
        rules.turn_lines(turn, &mut Lines::bytes(&mut buf))?;
    }
    let digest = sha256_hex(&buf);
    rules.end_line(&kept.end, &digest, &mut Lines::bytes(&mut buf))?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Lines;

    /// The lines written once for every game take their order of keys from `serde_json`'s map,
    /// sorted as long as its `preserve_order` feature is off: were a dependency to turn it on,
    /// the records of those games would change, and this says why.
    #[test]
    fn sorted_lines_have_their_keys_in_order_at_every_depth_and_type_last() {
        let mut buf = Vec::new();
        let fields = json!({"b": 1, "a": {"d": 1, "c": 2}, "z": [{"y": 0, "x": 1}]});
        Lines::bytes(&mut buf).push_sorted("end", fields).unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "{\"a\":{\"c\":2,\"d\":1},\"b\":1,\"z\":[{\"x\":1,\"y\":0}],\"type\":\"end\"}\n",
            "serde_json's preserve_order feature is on (records' key order depends on it)"
        );
        let refused = Lines::bytes(&mut Vec::new()).push_sorted("end", json!([1]));
        assert!(refused
            .unwrap_err()
            .to_string()
            .contains("not a JSON object"));
    }
}
