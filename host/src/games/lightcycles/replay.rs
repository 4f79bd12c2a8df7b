//! The light cycles viewer's data (the report's `lightcycles.html`): the grid's size, its walls
//! and the start cells (made by the rules from the setup line's settings and seed, as the game
//! made them), every turn line whole (each seat's answer, the cell its head entered, its death,
//! fuel and clock, fault, logs) and the end (places, how it ended).

use anyhow::Context;
use lightcycles_rules::Content;

use super::Lightcycles;
use crate::game::json::Json;
use crate::game::record::{Line, Record};
use crate::game::replay::{of_type, player_names, Data, Edited, RecordLines, StartEnd};

/// The replay data of a game, as JSON, from its record's lines.
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    let players = player_names(r.setup)?;
    // The setup as the verifier reads it: the rules make the grid from it as the game did.
    let value = serde_json::to_value(r.setup)?;
    let (setup, _) = Lightcycles.read_setup(&Line { number: 1, value })?;
    let start = setup.start().expect("a checked setup starts");
    let grid = start.grid();
    let walls: Vec<usize> = (0..grid.len())
        .filter(|&i| grid.get(grid.pos(i)) == Content::Wall)
        .collect();
    let starts: Vec<[u8; 2]> = start
        .cycles()
        .iter()
        .map(|c| [c.head.x, c.head.y])
        .collect();
    let mut ticks = Vec::new();
    for line in of_type(r.lines, "turn") {
        line.get("moves")
            .and_then(Json::as_array)
            .with_context(|| {
                let tick = line.get("tick").map(Json::to_string).unwrap_or_default();
                format!("tick {tick}: no moves")
            })?;
        ticks.push(Edited::whole(line));
    }
    let ends = StartEnd::of(r.lines);
    let mut data = Data::new(super::NAME, r, &players);
    data.end(&ends, &["end", "outcome", "places"]);
    data.set("height", &setup.settings.height);
    // A string: JavaScript numbers would round a 64-bit seed.
    data.set("seed", &setup.seed.to_string());
    // Each seat's start cell, `[x, y]`.
    data.set("starts", &starts);
    data.set("ticks", &ticks);
    // The wall cells, `y × width + x`.
    data.set("walls", &walls);
    data.set("width", &setup.settings.width);
    Ok(data.json())
}
