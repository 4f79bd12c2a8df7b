//! The light cycles viewer's data (the report's `lightcycles.html`): the grid's size, its walls
//! and the start cells (made by the rules from the setup line's settings and seed, as the game
//! made them), every turn line whole (each seat's answer, the cell its head entered, its death,
//! fuel and clock, fault, logs) and the end (places, how it ended).

use anyhow::Context;
use lightcycles_rules::Content;

use super::rules::Setup;
use super::settings::DEFAULT;
use crate::game::json::Json;
use crate::game::replay::{of_type, player_names, Data, Edited, RecordLines, StartEnd};
use crate::game::FaultPolicy;

/// The replay data of a game, as JSON, from its record's lines.
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    let setup = r.setup;
    let players = player_names(setup)?;
    let number = |key: &str| {
        setup
            .get(key)
            .and_then(Json::as_u64)
            .with_context(|| format!("the setup line has no {key}"))
    };
    let small = |key: &str| -> anyhow::Result<u32> { Ok(u32::try_from(number(key)?)?) };
    let (width, height) = (small("width")?, small("height")?);
    let rules = Setup {
        seed: number("seed")?,
        players: players.len(),
        round_cap: small("round_cap")?,
        policy: FaultPolicy::default(),
        settings: super::Settings {
            width,
            height,
            walls: small("walls")?,
            ..DEFAULT
        },
        clock: super::rules::FuelClock {
            start: 0,
            increment: 0,
            decision_cap: 0,
        },
    };
    rules.check()?;
    let start = rules.start().expect("a checked setup starts");
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
    data.set("height", &height);
    // A string: JavaScript numbers would round a 64-bit seed.
    data.set("seed", &rules.seed.to_string());
    // Each seat's start cell, `[x, y]`.
    data.set("starts", &starts);
    data.set("ticks", &ticks);
    // The wall cells, `y × width + x`.
    data.set("walls", &walls);
    data.set("width", &width);
    Ok(data.json())
}
