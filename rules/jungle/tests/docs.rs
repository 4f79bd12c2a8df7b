//! docs/JUNGLE.md says what the crate does: the piece table, the start position, the draw
//! limit, the names of the ways a game ends, and the perft counts.

use arena_doc_support::{doc, thousands};
use jungle_rules::{perft, DrawReason, Kind, Piece, Position, Side, WinReason, DRAW_PLIES, START};

#[test]
fn the_piece_table_and_the_start() {
    let text = doc("JUNGLE.md");
    for kind in Kind::ALL {
        let row = format!(
            "| {} | {} | `{}` | {} / {} |",
            kind.name(),
            kind.rank(),
            kind.letter(),
            Piece::new(Side::First, kind).code(),
            Piece::new(Side::Second, kind).code()
        );
        assert!(text.contains(&row), "{row}");
    }
    assert!(text.contains(&format!("\n{START}\n")));
    assert_eq!(Position::start().to_string(), START);
}

#[test]
fn the_end_of_the_game() {
    let text = doc("JUNGLE.md");
    assert!(text.contains(&format!(
        "**{DRAW_PLIES} plies** ({} moves of each player)",
        DRAW_PLIES / 2
    )));
    for name in [
        WinReason::Den.name(),
        WinReason::AllCaptured.name(),
        WinReason::NoMoves.name(),
        DrawReason::NoCapture.name(),
        DrawReason::PlyCap.name(),
    ] {
        assert!(text.contains(&format!("(`{name}`)")), "{name}");
    }
}

#[test]
fn the_perft_table() {
    let text = doc("JUNGLE.md");
    let start = Position::start();
    for depth in 1..=6 {
        let row = format!("| {depth} | {} |", thousands(perft(&start, depth)));
        assert!(text.contains(&row), "{row}");
    }
}
