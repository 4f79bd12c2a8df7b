//! The Jungle viewer's data (the report's `jungle.html`): the record's setup, its turn lines
//! whole (move, piece, capture, the position after it in the notation, fuel and clock, fault,
//! logs) and its end. The page draws each position from its notation.

use std::borrow::Cow;

use anyhow::Context;
use serde::{Serialize, Serializer};

use crate::game::json::{Json, Object};
use crate::game::replay::{json, of_type, player_names, RecordLines};

/// Fields in key order (the report writes its JSON in key order).
#[derive(Serialize)]
struct JungleReplay<'r> {
    clock: Option<&'r Json<'r>>,
    clocks: Option<&'r Json<'r>>,
    fault_policy: Option<&'r Json<'r>>,
    #[serde(rename = "final")]
    final_position: Option<&'r Json<'r>>,
    forfeits: Option<&'r Json<'r>>,
    fuel: Option<&'r Json<'r>>,
    game: &'static str,
    id: usize,
    outcome: Option<&'r Json<'r>>,
    players: Vec<&'r str>,
    ply_cap: Option<&'r Json<'r>>,
    position: Option<&'r Json<'r>>,
    reason: Option<&'r Json<'r>>,
    record: &'r str,
    /// A string: JavaScript numbers would round a 64-bit seed.
    seed: Option<String>,
    start: Start<'r>,
    turns: Vec<Turn<'r>>,
}

#[derive(Serialize)]
struct Start<'r> {
    faults: Cow<'r, Json<'r>>,
    logs: Cow<'r, Json<'r>>,
}

/// A turn line without its `type`.
struct Turn<'r>(&'r Object<'r>);

impl Serialize for Turn<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_edited::<S, ()>(serializer, "type", &[])
    }
}

/// The replay data of a game, as JSON, from its record's lines.
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    Ok(json(&data(r.id, r.record, r.setup, r.lines)?))
}

/// The replay data of game `id`, whose record file is at `record` (from the report folder).
fn data<'r>(
    id: usize,
    record: &'r str,
    setup: &'r Object<'r>,
    lines: &'r [Json<'r>],
) -> anyhow::Result<JungleReplay<'r>> {
    let players = player_names(setup)?;
    anyhow::ensure!(
        players.len() == 2,
        "a Jungle record has 2 players, this one {}",
        players.len()
    );
    let position = setup.get("position");
    anyhow::ensure!(
        position.and_then(Json::as_str).is_some(),
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
        turns.push(Turn(line));
    }
    let start = of_type(lines, "start").next();
    let end = of_type(lines, "end").next();
    let empty = || Cow::Owned(Json::Array(Vec::new()));
    Ok(JungleReplay {
        clock: setup.get("clock"),
        clocks: end.and_then(|e| e.get("clocks")),
        fault_policy: setup.get("fault_policy"),
        final_position: end.and_then(|e| e.get("position")),
        forfeits: end.and_then(|e| e.get("forfeits")),
        fuel: end.and_then(|e| e.get("fuel")),
        game: super::NAME,
        id,
        outcome: end.and_then(|e| e.get("outcome")),
        players,
        ply_cap: setup.get("ply_cap"),
        position,
        reason: end.and_then(|e| e.get("reason")),
        record,
        seed: setup.get("seed").map(Json::to_string),
        start: Start {
            faults: start
                .and_then(|s| s.get("faults"))
                .map_or_else(empty, Cow::Borrowed),
            logs: start
                .and_then(|s| s.get("logs"))
                .map_or_else(empty, Cow::Borrowed),
        },
        turns,
    })
}
