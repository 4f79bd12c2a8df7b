//! The WIT package in `wit/` (the interface of component agents, docs/COMPONENTS.md) says the same
//! as the byte ABI: every enum and variant lists its cases in the order of the byte codes that
//! `arena-abi`, the rules crates and docs/ABI.md define, and each world exports the decisions of
//! its game. A reordered case or a renamed export would make component agents and byte agents
//! see different games.

use std::path::{Path, PathBuf};

use arena_abi::farm::event_kind;
use arena_abi::Decision;
use farkle_rules::Action;
use farm_rules::{Animal, FailReason, ANIMALS};
use lightcycles_rules::{Cause, Dir, Turn};
use wit_parser::{Resolve, Type, TypeDefKind, TypeId, WorldItem, WorldKey};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("abi/ is inside the repository")
        .to_path_buf()
}

/// The parsed package and its id.
fn package() -> (Resolve, wit_parser::PackageId) {
    let mut resolve = Resolve::default();
    let (id, _) = resolve
        .push_dir(repo().join("wit"))
        .unwrap_or_else(|e| panic!("wit/ does not parse: {e:#}"));
    (resolve, id)
}

fn type_in(resolve: &Resolve, pkg: wit_parser::PackageId, iface: &str, name: &str) -> TypeId {
    let iface_id = resolve.packages[pkg].interfaces[iface];
    *resolve.interfaces[iface_id]
        .types
        .get(name)
        .unwrap_or_else(|| panic!("no type `{name}` in interface `{iface}`"))
}

/// Case names of an enum, case names of a variant, or field names of a record.
fn names(resolve: &Resolve, ty: TypeId) -> Vec<String> {
    match &resolve.types[ty].kind {
        TypeDefKind::Enum(e) => e.cases.iter().map(|c| c.name.clone()).collect(),
        TypeDefKind::Variant(v) => v.cases.iter().map(|c| c.name.clone()).collect(),
        TypeDefKind::Record(r) => r.fields.iter().map(|f| f.name.clone()).collect(),
        other => panic!("unexpected kind {other:?}"),
    }
}

fn kebab(snake: &str) -> String {
    snake.replace('_', "-")
}

/// Rows `| code | name | ...` of the first table after `heading` in docs/ABI.md, with the name's
/// backticks removed.
fn abi_md_table(heading: &str) -> Vec<(u32, String)> {
    let text = arena_doc_support::doc("ABI.md");
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("docs/ABI.md has no `{heading}`"));
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in text[start..].lines().skip(1) {
        if line.starts_with('|') {
            in_table = true;
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if let Ok(code) = cells[1].parse::<u32>() {
                rows.push((code, cells[2].trim_matches('`').to_string()));
            }
        } else if in_table {
            break;
        }
    }
    assert!(
        !rows.is_empty(),
        "no table after `{heading}` in docs/ABI.md"
    );
    rows
}

#[test]
fn the_package_is_arena_games_1_0_0() {
    let (resolve, pkg) = package();
    assert_eq!(resolve.packages[pkg].name.to_string(), "arena:games@1.0.0");
}

/// Exported functions of a world as (name, parameter names, result type name).
fn exports(
    resolve: &Resolve,
    pkg: wit_parser::PackageId,
    world: &str,
) -> Vec<(String, Vec<String>, Option<String>)> {
    let world_id = resolve.packages[pkg].worlds[world];
    let type_name = |t: &Type| match t {
        Type::Id(id) => match &resolve.types[*id].kind {
            TypeDefKind::Type(Type::Id(inner)) => resolve.types[*inner].name.clone(),
            _ => resolve.types[*id].name.clone(),
        }
        .or_else(|| Some(format!("{:?}", resolve.types[*id].kind))),
        other => Some(format!("{other:?}")),
    };
    resolve.worlds[world_id]
        .exports
        .iter()
        .map(|(key, item)| match (key, item) {
            (WorldKey::Name(name), WorldItem::Function(f)) => (
                name.clone(),
                f.params.iter().map(|p| p.name.clone()).collect(),
                f.result.as_ref().and_then(type_name),
            ),
            _ => panic!("world `{world}` exports something other than a function: {key:?}"),
        })
        .collect()
}

fn imported_interfaces(resolve: &Resolve, pkg: wit_parser::PackageId, world: &str) -> Vec<String> {
    let world_id = resolve.packages[pkg].worlds[world];
    resolve.worlds[world_id]
        .imports
        .iter()
        .filter_map(|(key, _)| match key {
            WorldKey::Interface(id) => resolve.interfaces[*id].name.clone(),
            WorldKey::Name(_) => None,
        })
        .collect()
}

#[test]
fn the_farm_world_exports_init_trade_and_accept_offer_and_imports_the_log() {
    let (resolve, pkg) = package();
    let got = exports(&resolve, pkg, "farm");
    let names: Vec<&str> = got.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["init", "trade", "accept-offer"]);
    assert_eq!(got[0].1, ["setup"]);
    assert_eq!(got[1].1, ["view"]);
    assert_eq!(got[2].1, ["view", "offer"]);
    assert!(
        got[1].2.as_deref().is_some_and(|r| r.contains("Option")),
        "trade answers option<offer>: {:?}",
        got[1].2
    );
    assert_eq!(got[2].2.as_deref(), Some("Bool"));
    assert!(imported_interfaces(&resolve, pkg, "farm").contains(&"host".to_string()));
}

#[test]
fn the_farkle_world_exports_init_and_draft_and_imports_the_log() {
    let (resolve, pkg) = package();
    let got = exports(&resolve, pkg, "farkle");
    let names: Vec<&str> = got.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["init", "draft"]);
    assert_eq!(got[1].1, ["view"]);
    assert_eq!(got[1].2.as_deref(), Some("answer"));
    assert!(imported_interfaces(&resolve, pkg, "farkle").contains(&"host".to_string()));
}

#[test]
fn herd_fields_are_the_animals_in_kind_order() {
    let (resolve, pkg) = package();
    let fields = names(&resolve, type_in(&resolve, pkg, "farm-types", "herd"));
    let kinds: Vec<String> = ANIMALS.iter().map(|a| kebab(a.name())).collect();
    assert_eq!(fields, kinds);
}

#[test]
fn die_faces_are_the_farm_animals_then_fox_and_wolf() {
    let (resolve, pkg) = package();
    let faces = names(&resolve, type_in(&resolve, pkg, "farm-types", "face"));
    let mut expected: Vec<String> = [
        Animal::Rabbit,
        Animal::Sheep,
        Animal::Pig,
        Animal::Cow,
        Animal::Horse,
    ]
    .iter()
    .map(|a| kebab(a.name()))
    .collect();
    expected.extend(["fox".to_string(), "wolf".to_string()]);
    assert_eq!(faces, expected);
}

#[test]
fn trade_failures_follow_the_rules_codes_and_abi_md() {
    let (resolve, pkg) = package();
    let cases = names(
        &resolve,
        type_in(&resolve, pkg, "farm-types", "trade-failure"),
    );
    // Case i is failure code i + 1.
    let rules: Vec<String> = (1..=10u8)
        .map(|code| {
            let reason = FailReason::from_code(code)
                .unwrap_or_else(|| panic!("the rules have no failure code {code}"));
            kebab(reason.name())
        })
        .collect();
    assert_eq!(cases, rules);
    let doc: Vec<(u32, String)> = abi_md_table("### Failure reasons");
    for (code, name) in doc {
        assert_eq!(
            cases[code as usize - 1],
            kebab(&name),
            "failure code {code}"
        );
    }
}

#[test]
fn event_cases_follow_the_byte_event_kinds() {
    let (resolve, pkg) = package();
    let cases = names(&resolve, type_in(&resolve, pkg, "farm-types", "event"));
    let by_code = [
        (event_kind::ANSWER, "answer"),
        (event_kind::TRADE_FAILED, "trade-failed"),
        (event_kind::TRANSFER, "transfer"),
        (event_kind::ROLLED, "rolled"),
        (event_kind::WOLF, "wolf"),
        (event_kind::FOX, "fox"),
        (event_kind::BRED, "bred"),
        (event_kind::FAULT, "fault"),
        (event_kind::FORFEIT, "forfeit"),
        (event_kind::WIN, "win"),
        (event_kind::DRAW, "draw"),
    ];
    assert_eq!(cases.len(), by_code.len());
    for (code, name) in by_code {
        assert_eq!(cases[code as usize - 1], name, "event kind {code}");
    }
    // docs/ABI.md names the kinds in words ("trade failed").
    for (code, name) in abi_md_table("| kind | name |") {
        assert_eq!(
            cases[code as usize - 1],
            name.replace(' ', "-"),
            "event kind {code}"
        );
    }
}

#[test]
fn fault_kinds_follow_the_fault_codes_of_abi_md() {
    let (resolve, pkg) = package();
    let cases = names(&resolve, type_in(&resolve, pkg, "types", "fault-kind"));
    let doc = abi_md_table("## Faults");
    assert_eq!(cases.len(), doc.len());
    for (code, name) in doc {
        assert_eq!(cases[code as usize - 1], kebab(&name), "fault code {code}");
    }
}

#[test]
fn farm_decisions_follow_the_envelope_codes() {
    let (resolve, pkg) = package();
    let cases = names(&resolve, type_in(&resolve, pkg, "farm-types", "decision"));
    let by_code = [
        (Decision::Init, "init"),
        (Decision::FarmTrade, "trade"),
        (Decision::FarmAccept, "accept"),
    ];
    assert_eq!(cases.len(), by_code.len());
    for (decision, name) in by_code {
        assert_eq!(cases[decision as usize], name);
    }
}

#[test]
fn farkle_actions_follow_the_answer_codes() {
    let (resolve, pkg) = package();
    let cases = names(&resolve, type_in(&resolve, pkg, "farkle-types", "action"));
    let by_code: Vec<String> = (0u32..)
        .map_while(Action::from_code)
        .map(|a| format!("{a:?}").to_lowercase())
        .collect();
    assert_eq!(cases, by_code);
}

#[test]
fn the_jungle_world_exports_init_and_choose_move_and_imports_the_host() {
    let (resolve, pkg) = package();
    let got = exports(&resolve, pkg, "jungle");
    let names: Vec<&str> = got.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["init", "choose-move"]);
    assert_eq!(got[1].1, ["view"]);
    assert_eq!(got[1].2.as_deref(), Some("move"));
    assert!(imported_interfaces(&resolve, pkg, "jungle").contains(&"host".to_string()));
    // The host offers `fuel-left` (docs/ABI.md, "The fuel clock") beside `log`.
    let host = resolve.packages[pkg].interfaces["host"];
    let functions: Vec<&str> = resolve.interfaces[host]
        .functions
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(functions, ["log", "fuel-left"]);
}

#[test]
fn jungle_kinds_and_sides_follow_the_piece_codes() {
    let (resolve, pkg) = package();
    let kinds = names(&resolve, type_in(&resolve, pkg, "jungle-types", "kind"));
    // Case i is the first player's piece code i + 1 (the rank), the second player's i + 9.
    let by_code: Vec<String> = (1..=8u8)
        .map(|code| {
            let piece = jungle_rules::Piece::from_code(code).expect("a piece code");
            assert_eq!(
                jungle_rules::Piece::from_code(code + 8).map(|p| p.kind),
                Some(piece.kind)
            );
            piece.kind.name().to_string()
        })
        .collect();
    assert_eq!(kinds, by_code);
    let sides = names(&resolve, type_in(&resolve, pkg, "jungle-types", "side"));
    let by_index: Vec<String> = (0..2)
        .map(|i| {
            jungle_rules::Side::from_index(i)
                .expect("a side")
                .name()
                .to_string()
        })
        .collect();
    assert_eq!(sides, by_index);
    // The view says what the byte observation says, field for field where they share a name.
    let view = names(&resolve, type_in(&resolve, pkg, "jungle-types", "view"));
    for field in [
        "side",
        "ply",
        "plies-since-capture",
        "draw-limit",
        "ply-cap",
        "clock",
        "board",
        "legal",
        "recent",
    ] {
        assert!(view.contains(&field.to_string()), "view has no `{field}`");
    }
    let clock = names(&resolve, type_in(&resolve, pkg, "jungle-types", "clock"));
    assert_eq!(clock, ["mine", "theirs", "increment", "decision-cap"]);
}

#[test]
fn lightcycles_enums_follow_the_byte_codes() {
    let (resolve, pkg) = package();
    let names = |name| names(&resolve, type_in(&resolve, pkg, "lightcycles-types", name));
    let headings: Vec<String> = Dir::ALL.iter().map(|d| d.name().to_string()).collect();
    assert_eq!(names("heading"), headings);
    let turns: Vec<String> = Turn::ALL.iter().map(|t| t.name().to_string()).collect();
    assert_eq!(names("turn"), turns);
    // Case i is cause code i + 1.
    let causes: Vec<String> = Cause::ALL.iter().map(|c| kebab(c.name())).collect();
    assert_eq!(names("cause"), causes);
    assert_eq!(
        names("clock"),
        ["mine", "increment", "decision-cap", "seats"]
    );
    assert_eq!(names("cycle"), ["x", "y", "heading", "death"]);
    let view = names("view");
    for field in [
        "seat", "players", "tick", "tick-cap", "width", "height", "grid", "cycles", "clock",
    ] {
        assert!(view.contains(&field.to_string()), "view has no `{field}`");
    }
}

#[test]
fn the_lightcycles_world_exports_init_and_choose_turn_and_imports_the_host() {
    let (resolve, pkg) = package();
    let got = exports(&resolve, pkg, "lightcycles");
    let names: Vec<&str> = got.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["init", "choose-turn"]);
    assert_eq!(got[0].1, ["setup"]);
    assert_eq!(got[1].1, ["view"]);
    assert!(imported_interfaces(&resolve, pkg, "lightcycles").contains(&"host".to_string()));
}
