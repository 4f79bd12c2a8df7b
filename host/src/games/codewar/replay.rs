//! The report's replay data of a code war, from its record: the record's lines without the
//! modules' bytes (the viewer shows each module's size and hash).

use std::collections::BTreeMap;

use anyhow::Context;
use serde::Serialize;

use crate::game::json::Json;
use crate::game::replay::{of_type, player_names, Data, Edited, RecordLines, NULL};

/// A module line as the viewer shows it (fields in key order).
#[derive(Serialize)]
struct Module<'r> {
    hash: &'r Json<'r>,
    size: usize,
}

/// The end line without its `type` and `digest` (fields in key order).
#[derive(Serialize)]
struct End<'r> {
    cells: &'r Json<'r>,
    eliminated: &'r Json<'r>,
    iterations: &'r Json<'r>,
    outcome: &'r Json<'r>,
}

/// The replay data of a game, as `viewer/codewar.js` reads it: `game`, `id`, `players`,
/// `record` (where the record is, which the viewer links to), the setup line's `seed` and
/// `settings`, `modules` (by id: size and hash), `iterations` (the record's iteration lines
/// without `type`) and `end`.
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    let end = of_type(r.lines, "end")
        .next()
        .context("the record has no end line")?;
    let field = |key: &str| end.get(key).unwrap_or(&NULL);
    let end = End {
        cells: field("cells"),
        eliminated: field("eliminated"),
        iterations: field("iterations"),
        outcome: field("outcome"),
    };
    let mut modules = BTreeMap::new();
    for m in of_type(r.lines, "module") {
        // The bytes' size from their base64, with its padding.
        let size = m.get("bytes").and_then(Json::as_str).map_or(0, |b| {
            b.len() / 4 * 3 - b.bytes().rev().take_while(|&c| c == b'=').count()
        });
        let hash = m.get("hash").unwrap_or(&NULL);
        modules.insert(
            m.get("id").unwrap_or(&NULL).to_string(),
            Module { hash, size },
        );
    }
    let iterations: Vec<Edited> = of_type(r.lines, "iteration").map(Edited::whole).collect();
    let mut data = Data::new(super::NAME, r, &player_names(r.setup)?);
    data.setup(&["seed", "settings"]);
    data.set("end", &end);
    data.set("iterations", &iterations);
    data.set("modules", &modules);
    Ok(data.json())
}
