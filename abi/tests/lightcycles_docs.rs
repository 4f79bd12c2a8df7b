//! The light cycles section of docs/ABI.md says what `abi/src/lightcycles.rs` and the rules crate
//! do (wit/lightcycles.wit is checked with the rest of the WIT package, in wit_package.rs).

use arena_abi::lightcycles::{
    cycle_offset, offset, ANSWER_SIZE, CYCLE_SIZE, MAX_OBSERVATION_SIZE, OBSERVATION_FIXED_SIZE,
};
use arena_doc_support::{doc, section};
use lightcycles_rules::{Cause, Dir, Turn, MAX_PLAYERS};

#[test]
fn the_abi_doc_has_the_light_cycles_codes_and_layouts() {
    let lc = section(&doc("ABI.md"), "## Light cycles");
    assert_eq!(arena_abi::game::LIGHTCYCLES, 5);
    assert_eq!(arena_abi::Decision::LightcyclesTurn as u32, 5);
    assert!(lc.contains(&format!(
        "Game id **5**, one decision: **5**, export `{}`",
        arena_abi::names::LIGHTCYCLES_TURN
    )));
    assert!(lc.contains(&format!(
        "### Observation payload (decision 5; {OBSERVATION_FIXED_SIZE} + width × height bytes)"
    )));
    for (off, row) in [
        (offset::WIDTH, "u32 | width"),
        (offset::HEIGHT, "u32 | height"),
        (
            offset::TICK,
            "u32 | tick: ticks played before this decision",
        ),
        (offset::TICK_CAP, "u32 | tick cap"),
        (offset::RESERVED, "u32 × 2 | reserved, 0"),
        (offset::MY_CLOCK, "u64 | your clock"),
        (offset::INCREMENT, "u64 | increment"),
        (offset::DECISION_CAP, "u64 | per-decision cap"),
        (offset::CLOCKS, "u64 × 6 | every seat's clock"),
        (offset::CYCLES, "(u8 × 8) × 6 | every seat's cycle"),
        (offset::GRID, "u8 × (width × height) | the grid"),
    ] {
        assert!(
            lc.contains(&format!("| {off} | {row}")),
            "row at {off}: {row}"
        );
    }
    assert_eq!((MAX_PLAYERS, CYCLE_SIZE), (6, 8));
    assert!(lc.contains(&format!(
        "A seat's cycle ({CYCLE_SIZE} bytes, at 96 + 8 × seat)"
    )));
    for (off, row) in [
        (cycle_offset::X, "u8 | x of its head"),
        (cycle_offset::Y, "u8 | y of its head"),
        (cycle_offset::HEADING, "u8 | heading"),
        (cycle_offset::CAUSE, "u8 | 0 while it is alive"),
        (cycle_offset::DIED_AT, "u32 | the tick it died in"),
    ] {
        assert!(
            lc.contains(&format!("| {off} | {row}")),
            "cycle row at {off}: {row}"
        );
    }
    let causes: Vec<String> = Cause::ALL
        .iter()
        .map(|c| format!("{} `{}`", c.code(), c.name()))
        .collect();
    assert!(lc.contains(&causes.join(", ")), "{causes:?}");
    let headings: Vec<String> = Dir::ALL
        .iter()
        .map(|d| format!("{} {}", d.code(), d.name()))
        .collect();
    assert!(
        lc.contains(&format!("({})", headings.join(", "))),
        "{headings:?}"
    );
    assert_eq!(ANSWER_SIZE, 1);
    assert!(lc.contains("| 0 | u8 | turn: 0 left, 1 straight, 2 right"));
    assert_eq!(
        (Turn::Left.code(), Turn::Straight.code(), Turn::Right.code()),
        (0, 1, 2)
    );
    assert!(lc.contains(&format!("returns **{ANSWER_SIZE}**")));
    assert!(lc.contains(&format!(
        "the largest observation is {},{:03}",
        MAX_OBSERVATION_SIZE / 1000,
        MAX_OBSERVATION_SIZE % 1000
    )));
}
