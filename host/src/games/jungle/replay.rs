//! The Jungle viewer's data (the report's `jungle.html`): the record's setup, its turn lines
//! whole (move, piece, capture, the position after it in the notation, fuel and clock, fault,
//! logs) and its end. The page draws each position from its notation.

use anyhow::Context;

use crate::game::json::Json;
use crate::game::replay::{of_type, player_names, Data, Edited, RecordLines, StartEnd};

/// The replay data of a game, as JSON, from its record's lines.
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    let (setup, lines) = (r.setup, r.lines);
    let players = player_names(setup)?;
    anyhow::ensure!(
        players.len() == 2,
        "a Jungle record has 2 players, this one {}",
        players.len()
    );
    anyhow::ensure!(
        setup.get("position").and_then(Json::as_str).is_some(),
        "the setup line has no start position"
    );
    let mut turns = Vec::new();
    for line in of_type(lines, "turn") {
        let number = line.get("turn").map(Json::to_string).unwrap_or_default();
        line.get("seat")
            .and_then(Json::as_u64)
            .filter(|&s| s < 2)
            .with_context(|| format!("turn {number}: no such seat"))?;
        line.get("position")
            .and_then(Json::as_str)
            .with_context(|| format!("turn {number}: no position"))?;
        turns.push(Edited::whole(line));
    }
    let ends = StartEnd::of(lines);
    let mut data = Data::new(super::NAME, r, &players);
    data.setup(&["clock", "fault_policy", "ply_cap", "position"]);
    data.end(&ends, &["clocks", "forfeits", "fuel", "outcome", "reason"]);
    data.set("final", &ends.end("position"));
    // A string: JavaScript numbers would round a 64-bit seed.
    data.set("seed", &setup.get("seed").map(Json::to_string));
    data.set("start", &ends.started());
    data.set("turns", &turns);
    Ok(data.json())
}
