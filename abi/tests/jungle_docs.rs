//! The Jungle section of docs/ABI.md says what `abi/src/jungle.rs` and the rules crate do: its
//! observation and answer tables, the codes, and the reasons a move is illegal.

use arena_abi::jungle::{offset, ANSWER_SIZE, MAX_PLAYED, OBSERVATION_FIXED_SIZE, PLAYED_SIZE};
use arena_doc_support::{assert_code_table, doc, section};
use jungle_rules::{Illegal, Kind, Piece, Side, Square, DRAW_PLIES, MAX_MOVES};

#[test]
fn the_abi_doc_has_the_jungle_codes_and_layouts() {
    let jungle = section(&doc("ABI.md"), "## Jungle");
    assert_eq!(arena_abi::game::JUNGLE, 3);
    assert_eq!(arena_abi::Decision::JungleMove as u32, 4);
    assert!(jungle.contains(&format!(
        "Game id **3**, one decision: **4**, export `{}`",
        arena_abi::names::JUNGLE_MOVE
    )));
    assert!(jungle.contains(&format!(
        "### Observation payload (decision 4; {OBSERVATION_FIXED_SIZE} + {PLAYED_SIZE}m bytes)"
    )));
    for (off, row) in [
        (offset::SIDE, "u32 | your side, the side to move: 0 first"),
        (offset::PLY, "u32 | ply: plies played before this decision"),
        (offset::QUIET, "u32 | plies since the last capture"),
        (offset::DRAW_LIMIT, "u32 | draw limit"),
        (offset::PLY_CAP, "u32 | ply cap"),
        (offset::RESERVED, "u32 | reserved, 0"),
        (offset::MY_CLOCK, "u64 | your clock"),
        (offset::THEIR_CLOCK, "u64 | the opponent's clock"),
        (offset::INCREMENT, "u64 | increment"),
        (offset::DECISION_CAP, "u64 | per-decision cap"),
        (offset::BOARD, "u8 × 63 | the board"),
        (offset::RESERVED8, "u8 | reserved, 0"),
        (
            offset::PLAYED_COUNT,
            "u32 | m: recent plies that follow at offset 192 (at most 8)",
        ),
        (offset::LEGAL_COUNT, "u32 | n: legal moves (1 to 32)"),
        (offset::LEGAL, "(u8, u8) × 32 | the legal moves"),
        (
            offset::PLAYED,
            "(u8 × 4) × m | the plies since your previous decision",
        ),
    ] {
        assert!(
            jungle.contains(&format!("| {off} | {row}")),
            "observation row at {off}: {row}"
        );
    }
    assert_eq!((MAX_PLAYED, MAX_MOVES, offset::PLAYED), (8, 32, 192));
    assert!(jungle.contains(&format!("the draw counter reaches it ({DRAW_PLIES})")));
    assert_eq!(ANSWER_SIZE, 2);
    for row in [
        "| 0 | u8 | from square (0 to 62) |",
        "| 1 | u8 | to square (0 to 62) |",
    ] {
        assert!(jungle.contains(row), "answer row {row}");
    }
    assert!(jungle.contains(&format!("returns **{ANSWER_SIZE}**")));
    // The numbering and the codes as stated.
    let d9 = Square::parse("d9").unwrap();
    assert!(jungle.contains(&format!("d1 = {}", Square::parse("d1").unwrap().index())));
    assert!(jungle.contains(&format!("d9 = {}", d9.index())));
    assert_eq!(Piece::new(Side::First, Kind::Rat).code(), 1);
    assert_eq!(Piece::new(Side::Second, Kind::Elephant).code(), 16);
    assert!(jungle.contains("9 to 16 for the second player's (rank + 8)"));
    assert!(jungle.contains(&format!("`arena.{}() -> i64`", arena_abi::names::FUEL_LEFT)));
}

#[test]
fn the_abi_doc_lists_every_illegal_reason_in_order() {
    let jungle = section(&doc("ABI.md"), "## Jungle");
    let reasons: Vec<(u32, &str)> = Illegal::ALL.iter().map(|r| (r.code(), r.name())).collect();
    assert_code_table(&jungle, &reasons, "reason");
}
