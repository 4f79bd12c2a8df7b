//! The light cycles section of docs/ABI.md says what `abi/src/lightcycles.rs` and the rules crate
//! do, and wit/lightcycles.wit says the same as the bytes: every enum lists its cases in the
//! order of the byte codes, and the world exports the game's decision.

use std::path::{Path, PathBuf};

use arena_abi::lightcycles::{
    cycle_offset, offset, ANSWER_SIZE, CYCLE_SIZE, MAX_OBSERVATION_SIZE, OBSERVATION_FIXED_SIZE,
};
use lightcycles_rules::{Cause, Dir, Turn, MAX_PLAYERS};
use wit_parser::{Resolve, TypeDefKind, WorldItem, WorldKey};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The lines of the section that starts with `heading`, up to the next heading of its level.
fn section(text: &str, heading: &str) -> String {
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no section {heading:?}"));
    let level = heading.split(' ').next().unwrap();
    let body = &text[start + heading.len() + 2..];
    let end = body.find(&format!("\n{level} ")).unwrap_or(body.len());
    body[..end].to_string()
}

#[test]
fn the_abi_doc_has_the_light_cycles_codes_and_layouts() {
    let text = std::fs::read_to_string(repo().join("docs/ABI.md")).unwrap();
    let lc = section(&text, "## Light cycles");
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

fn package() -> (Resolve, wit_parser::PackageId) {
    let mut resolve = Resolve::default();
    let (id, _) = resolve
        .push_dir(repo().join("wit"))
        .unwrap_or_else(|e| panic!("wit/ does not parse: {e:#}"));
    (resolve, id)
}

/// Case names of an enum, or field names of a record, of `lightcycles-types`.
fn names(resolve: &Resolve, pkg: wit_parser::PackageId, name: &str) -> Vec<String> {
    let iface = resolve.packages[pkg].interfaces["lightcycles-types"];
    let ty = resolve.interfaces[iface].types[name];
    match &resolve.types[ty].kind {
        TypeDefKind::Enum(e) => e.cases.iter().map(|c| c.name.clone()).collect(),
        TypeDefKind::Record(r) => r.fields.iter().map(|f| f.name.clone()).collect(),
        other => panic!("unexpected kind {other:?}"),
    }
}

#[test]
fn the_wit_enums_follow_the_byte_codes() {
    let (resolve, pkg) = package();
    let headings: Vec<String> = Dir::ALL.iter().map(|d| d.name().to_string()).collect();
    assert_eq!(names(&resolve, pkg, "heading"), headings);
    let turns: Vec<String> = Turn::ALL.iter().map(|t| t.name().to_string()).collect();
    assert_eq!(names(&resolve, pkg, "turn"), turns);
    // Case i is cause code i + 1.
    let causes: Vec<String> = Cause::ALL
        .iter()
        .map(|c| c.name().replace('_', "-"))
        .collect();
    assert_eq!(names(&resolve, pkg, "cause"), causes);
    assert_eq!(
        names(&resolve, pkg, "clock"),
        ["mine", "increment", "decision-cap", "seats"]
    );
    assert_eq!(
        names(&resolve, pkg, "cycle"),
        ["x", "y", "heading", "death"]
    );
    let view = names(&resolve, pkg, "view");
    for field in [
        "seat", "players", "tick", "tick-cap", "width", "height", "grid", "cycles", "clock",
    ] {
        assert!(view.contains(&field.to_string()), "view has no `{field}`");
    }
}

#[test]
fn the_lightcycles_world_exports_init_and_choose_turn_and_imports_the_host() {
    let (resolve, pkg) = package();
    let world = &resolve.worlds[resolve.packages[pkg].worlds["lightcycles"]];
    let exports: Vec<(String, Vec<String>)> = world
        .exports
        .iter()
        .map(|(key, item)| match (key, item) {
            (WorldKey::Name(name), WorldItem::Function(f)) => (
                name.clone(),
                f.params.iter().map(|p| p.name.clone()).collect(),
            ),
            _ => panic!("the world exports something other than a function: {key:?}"),
        })
        .collect();
    assert_eq!(
        exports,
        [
            ("init".to_string(), vec!["setup".to_string()]),
            ("choose-turn".to_string(), vec!["view".to_string()]),
        ]
    );
    let imports: Vec<String> = world
        .imports
        .keys()
        .filter_map(|key| match key {
            WorldKey::Interface(id) => resolve.interfaces[*id].name.clone(),
            WorldKey::Name(_) => None,
        })
        .collect();
    assert!(imports.contains(&"host".to_string()), "{imports:?}");
}
