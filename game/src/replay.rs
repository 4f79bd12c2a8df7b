//! What a game's replay viewer is given: its record's lines ([`RecordLines`], parsed into the
//! order-keeping [`Json`]), from which each game makes the data its viewer animates. The games'
//! data serialize to the JSON the report has always written: their fields are declared in key
//! order (byte order, as a `serde_json::Value` object serializes), record values are passed
//! through as they were parsed, and the messages of records that cannot be shown are the ones the
//! report has always given.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

use crate::json::{Json, Object};

/// A record value that is missing, as the report shows it (`Value::Null`).
pub static NULL: Json<'static> = Json::Null;

/// A record's lines as the report reads them: what a game makes its replay data of.
pub struct RecordLines<'r> {
    /// The game's number in the league.
    pub id: usize,
    /// Where the record is, from the report's folder (the viewer links to it).
    pub record: &'r str,
    /// The setup line.
    pub setup: &'r Object<'r>,
    /// Every line, in order (the setup line first).
    pub lines: &'r [Json<'r>],
}

/// The lines of type `t` (lines with a `type` are objects).
pub fn of_type<'r, 'l>(
    lines: &'l [Json<'r>],
    t: &'l str,
) -> impl Iterator<Item = &'l Object<'r>> + 'l {
    lines
        .iter()
        .filter_map(Json::as_object)
        .filter(move |l| l.get("type").and_then(Json::as_str) == Some(t))
}

/// The names of the players of a setup line, by seat.
pub fn player_names<'r>(setup: &'r Object<'r>) -> anyhow::Result<Vec<&'r str>> {
    use anyhow::Context;
    Ok(setup
        .get("players")
        .and_then(Json::as_array)
        .context("the setup line has no players")?
        .iter()
        .map(|p| p.get("name").and_then(Json::as_str).unwrap_or("?"))
        .collect())
}

/// The data a game's viewer animates, written once for every game: a JSON object of the fields
/// the game sets, written in key order (byte order, as a `serde_json::Value` object serializes),
/// every game's `game`, `id`, `players` and `record` among them.
pub struct Data<'r> {
    setup: &'r Object<'r>,
    /// Each field's JSON text; `None`: it could not be serialized (the data is then `null`).
    fields: BTreeMap<&'static str, Option<Vec<u8>>>,
}

impl<'r> Data<'r> {
    /// The data of a game of `game` (its name) from `r`, with `players` (their names by seat).
    pub fn new(game: &'static str, r: &RecordLines<'r>, players: &[&str]) -> Data<'r> {
        let mut data = Data {
            setup: r.setup,
            fields: BTreeMap::new(),
        };
        data.set("game", &game);
        data.set("id", &r.id);
        data.set("players", &players);
        data.set("record", &r.record);
        data
    }

    /// Sets the field `key` to `value`.
    pub fn set(&mut self, key: &'static str, value: &(impl Serialize + ?Sized)) {
        self.fields.insert(key, serde_json::to_vec(value).ok());
    }

    /// Sets each of `keys` to the setup line's field of that name (`null` where it has none).
    pub fn setup(&mut self, keys: &[&'static str]) {
        let setup = self.setup;
        for key in keys {
            self.set(key, &setup.get(key));
        }
    }

    /// Sets each of `keys` to the end line's field of that name (`null` where it has none).
    pub fn end(&mut self, lines: &StartEnd<'r>, keys: &[&'static str]) {
        for key in keys {
            self.set(key, &lines.end(key));
        }
    }

    /// The data as JSON text that is also a JavaScript expression (see [`json`]).
    pub fn json(self) -> Vec<u8> {
        let mut out = b"{".to_vec();
        for (key, value) in self.fields {
            let Some(value) = value else {
                return b"null".to_vec();
            };
            if out.len() > 1 {
                out.push(b',');
            }
            out.extend_from_slice(&json(key));
            out.push(b':');
            out.extend_from_slice(&value);
        }
        out.push(b'}');
        escape_line_separators(out)
    }
}

/// A record line as a viewer gets it: without its `type`, with the fields the report adds to it
/// (`added`, sorted by key), the rest of the line passed through whole (so fields added to
/// records later reach the viewer without a change in the game).
pub struct Edited<'r, V = (), const N: usize = 0> {
    pub line: &'r Object<'r>,
    pub added: [(&'static str, V); N],
}

impl<'r> Edited<'r> {
    /// The line whole, but its `type`.
    pub fn whole(line: &'r Object<'r>) -> Self {
        Edited { line, added: [] }
    }
}

impl<V: Serialize, const N: usize> Serialize for Edited<'_, V, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.line.serialize_edited(serializer, "type", &self.added)
    }
}

/// A record's start and end lines, which the viewers' data take fields from.
pub struct StartEnd<'r> {
    pub start: Option<&'r Object<'r>>,
    pub end: Option<&'r Object<'r>>,
}

impl<'r> StartEnd<'r> {
    /// The first start and end lines of `lines`.
    pub fn of(lines: &'r [Json<'r>]) -> Self {
        StartEnd {
            start: of_type(lines, "start").next(),
            end: of_type(lines, "end").next(),
        }
    }

    /// The end line's field `key`.
    pub fn end(&self, key: &str) -> Option<&'r Json<'r>> {
        self.end.and_then(|e| e.get(key))
    }

    /// The start line's list `key`: an empty list for a record without it.
    pub fn start_list(&self, key: &str) -> Cow<'r, Json<'r>> {
        match self.start.and_then(|s| s.get(key)) {
            Some(list) => Cow::Borrowed(list),
            None => Cow::Owned(Json::Array(Vec::new())),
        }
    }

    /// The start line's faults and logs, as the viewers of games whose agents start show them.
    pub fn started(&self) -> Started<'r> {
        Started {
            faults: self.start_list("faults"),
            logs: self.start_list("logs"),
        }
    }
}

/// The faults of agents that failed to load and what agents logged loading (fields in key order).
#[derive(Serialize)]
pub struct Started<'r> {
    faults: Cow<'r, Json<'r>>,
    logs: Cow<'r, Json<'r>>,
}

/// U+2028 and U+2029 in UTF-8, and their JSON escapes.
const SEPARATORS: [(&str, &str); 2] = [("\u{2028}", "\\u2028"), ("\u{2029}", "\\u2029")];

/// `value` as JSON text that is also a JavaScript expression (U+2028/U+2029 escaped: the report
/// loads its data as scripts); `null` if it cannot be serialized.
pub fn json<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    match serde_json::to_vec(value) {
        Ok(out) => escape_line_separators(out),
        Err(_) => b"null".to_vec(),
    }
}

fn escape_line_separators(text: Vec<u8>) -> Vec<u8> {
    // Both separators start with the byte 0xE2, which most reports never contain.
    if !text.contains(&0xE2) {
        return text;
    }
    let mut text = match String::from_utf8(text) {
        Ok(text) => text,
        // Not reached: serde_json writes UTF-8.
        Err(e) => return e.into_bytes(),
    };
    for (separator, escape) in SEPARATORS {
        if text.contains(separator) {
            text = text.replace(separator, escape);
        }
    }
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_is_written_in_key_order_with_the_lines_edited() {
        let text = [
            r#"{"type":"setup","seed":18446744073709551615,"players":[{"name":"a"}],"z":2}"#,
            r#"{"type":"turn","turn":1,"b":[1]}"#,
            r#"{"type":"end","outcome":{"result":"draw"},"sep":"x\u2028y"}"#,
        ];
        let lines: Vec<Json> = text
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let setup = lines[0].as_object().unwrap();
        let r = RecordLines {
            id: 3,
            record: "g.jsonl",
            setup,
            lines: &lines,
        };
        let players = player_names(setup).unwrap();
        let ends = StartEnd::of(&lines);
        let turns: Vec<_> = of_type(&lines, "turn")
            .map(|line| Edited {
                line,
                added: [("a", 7)],
            })
            .collect();
        let mut data = Data::new("g", &r, &players);
        data.setup(&["z", "seed", "none"]);
        data.end(&ends, &["sep", "outcome"]);
        data.set("start", &ends.started());
        data.set("turns", &turns);
        let expected = serde_json::json!({
            "game": "g", "id": 3, "none": null, "outcome": {"result": "draw"},
            "players": ["a"], "record": "g.jsonl", "seed": 18446744073709551615u64,
            "sep": "x\u{2028}y", "start": {"faults": [], "logs": []},
            "turns": [{"a": 7, "b": [1], "turn": 1}], "z": 2,
        });
        let expected = String::from_utf8(json(&expected)).unwrap();
        assert_eq!(String::from_utf8(data.json()).unwrap(), expected);
        assert!(expected.contains(r#""sep":"x\u2028y""#), "{expected}");
    }
}
