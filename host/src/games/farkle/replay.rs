//! The Farkle viewer's data: the record's turn lines whole (rolls, drafts, how the turn ended,
//! logs), each with every seat's score after it.

use anyhow::Context;

use crate::game::json::Json;
use crate::game::replay::{of_type, player_names, Data, Edited, RecordLines, StartEnd, NULL};

/// The replay data of a game, as JSON, from its record's lines.
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    let players = player_names(r.setup)?;
    let mut scores = vec![0i64; players.len()];
    // Whether each turn's `score` is the sum of the seat's banked points so far.
    let mut consistent = true;
    // The turn lines, each with every seat's score after it.
    let mut turns = Vec::new();
    for line in of_type(r.lines, "turn") {
        let seat = line
            .get("seat")
            .and_then(Json::as_u64)
            .and_then(|s| scores.get_mut(s as usize))
            .with_context(|| format!("turn {}: no such seat", line.get("turn").unwrap_or(&NULL)))?;
        *seat += line.get("banked").and_then(Json::as_i64).unwrap_or(0);
        consistent &= line.get("score").and_then(Json::as_i64) == Some(*seat);
        let added = [("scores", scores.clone())];
        turns.push(Edited { line, added });
    }
    let ends = StartEnd::of(r.lines);
    // As JSON values compare (so `10.0` is not `10`).
    let tally = Json::Array(scores.iter().map(|&s| Json::Number(s.into())).collect());
    consistent &= ends.end("scores").is_none_or(|f| *f == tally);
    let mut data = Data::new(super::NAME, r, &players);
    data.setup(&["fault_policy", "round_cap", "target"]);
    data.end(&ends, &["forfeits", "outcome", "rounds", "scores"]);
    // A string: JavaScript numbers would round a 64-bit seed.
    data.set("seed", &r.setup.get("seed").map(Json::to_string));
    data.set("start", &ends.started());
    // False would mean the banked points do not add up to the scores the record states.
    data.set("tally_matches_final", &consistent);
    data.set("turns", &turns);
    Ok(data.json())
}
