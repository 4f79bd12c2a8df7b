//! The report's data scripts: `window.NAME = <json>;`, which pages load with `<script src>`
//! because browsers refuse `fetch()` of `file://` URLs.

use serde::Serialize;

pub use arena_game::replay::json;

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
