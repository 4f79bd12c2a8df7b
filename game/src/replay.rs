//! What a game's replay viewer is given: its record's lines ([`RecordLines`], parsed into the
//! order-keeping [`Json`]), from which each game makes the data its viewer animates. The games'
//! data serialize to the JSON the report has always written: their fields are declared in key
//! order (byte order, as a `serde_json::Value` object serializes), record values are passed
//! through as they were parsed, and the messages of records that cannot be shown are the ones the
//! report has always given.

use serde::Serialize;

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
