//! The report's data scripts: `window.NAME = <json>;`, which pages load with `<script src>`
//! because browsers refuse `fetch()` of `file://` URLs.

use serde::Serialize;

/// U+2028 and U+2029 in UTF-8, and their JSON escapes.
const SEPARATORS: [(&str, &str); 2] = [("\u{2028}", "\\u2028"), ("\u{2029}", "\\u2029")];

/// `window.NAME = <json>;\n`. JSON is valid JavaScript since ES2019 (which made U+2028/U+2029
/// legal in strings); escaping them anyway keeps older viewers working.
pub fn script<T: Serialize + ?Sized>(global: &str, value: &T) -> Vec<u8> {
    script_of_json(global, &json(value))
}

/// `window.NAME = <json>;\n` of JSON text made by [`json`].
pub fn script_of_json(global: &str, json: &[u8]) -> Vec<u8> {
    let mut out = format!("window.{global} = ").into_bytes();
    out.extend_from_slice(json);
    out.extend_from_slice(b";\n");
    out
}

/// `value` as JSON text that is also a JavaScript expression (U+2028/U+2029 escaped); `null` if it
/// cannot be serialized.
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
