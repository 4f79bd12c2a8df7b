//! The position and move notation: what it reads, what it prints, and every refusal with its
//! message.

use jungle_rules::{Kind, Move, MoveError, Piece, Position, PositionError, Side, Square, START};

fn err(text: &str) -> PositionError {
    Position::parse(text).expect_err(text)
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

#[test]
fn the_start_position_reads_and_prints() {
    let p = Position::parse(START).unwrap();
    assert_eq!(p, Position::start());
    assert_eq!(p.to_string(), START);
    assert_eq!(
        p.piece_at(sq("a1")),
        Some(Piece::new(Side::First, Kind::Tiger))
    );
    assert_eq!(
        p.piece_at(sq("g9")),
        Some(Piece::new(Side::Second, Kind::Tiger))
    );
    assert_eq!(
        p.piece_at(sq("a9")),
        Some(Piece::new(Side::Second, Kind::Lion))
    );
    assert_eq!(
        p.piece_at(sq("g3")),
        Some(Piece::new(Side::First, Kind::Rat))
    );
    assert_eq!(
        p.piece_at(sq("a7")),
        Some(Piece::new(Side::Second, Kind::Rat))
    );
    assert_eq!(p.square_of(Side::Second, Kind::Elephant), Some(sq("g7")));
    // Extra spaces between fields are fine; the default counters are the short form's.
    assert_eq!(Position::parse(&format!("  {START}  0 1 ")), Ok(p));
}

#[test]
fn the_counters_are_optional() {
    let p = Position::parse("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 7 12").unwrap();
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.plies_since_capture(), 7);
    assert_eq!(p.move_number(), 12);
    assert_eq!(p.ply(), 23);
    assert_eq!(
        p.to_string(),
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 7 12"
    );
    // The draw counter alone.
    let p = Position::parse("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 5").unwrap();
    assert_eq!(
        (p.plies_since_capture(), p.move_number(), p.ply()),
        (5, 1, 0)
    );
    assert_eq!(
        p.to_string(),
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 5 1"
    );
    // Second player to move at move 1 (a game set up with it to move): ply 1, short form.
    let p = Position::parse("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b").unwrap();
    assert_eq!(p.ply(), 1);
    assert_eq!(p.to_string(), "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b");
}

#[test]
fn what_is_read_at_the_edges() {
    let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    // Any run of ASCII whitespace separates the fields; whitespace around them is ignored.
    for text in [
        format!("{board}\tb\n7  12"),
        format!("\n {board} b 7 12\r\n"),
        format!("{board} b 007 0012"),
    ] {
        let p = Position::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(p.to_string(), format!("{board} b 7 12"), "{text:?}");
    }
    // A draw counter of 100 or more is read; the position is drawn before any move.
    for quiet in [100, 4_294_967_295] {
        let p = Position::parse(&format!("{board} w {quiet}")).unwrap();
        assert_eq!(p.plies_since_capture(), quiet);
        assert_eq!(
            p.outcome(u32::MAX),
            Some(jungle_rules::Outcome::Draw(
                jungle_rules::DrawReason::NoCapture
            ))
        );
        assert_eq!(p.to_string(), format!("{board} w {quiet} 1"));
    }
    // The last move number: its ply count is the largest 32-bit number.
    let p = Position::parse(&format!("{board} b 0 2147483648")).unwrap();
    assert_eq!((p.ply(), p.move_number()), (u32::MAX, 2_147_483_648));
    let p = Position::parse(&format!("{board} w 0 2147483648")).unwrap();
    assert_eq!(p.ply(), u32::MAX - 1);
}

#[test]
fn refusals_say_what_is_wrong() {
    let cases: &[(&str, PositionError, &str)] = &[
        ("", PositionError::Empty, "empty position"),
        (
            "7/7/7 w",
            PositionError::RankCount { found: 3 },
            "the board has 3 ranks separated by '/', 9 expected",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/6/E1W1P1R/1C3D1/T5L w",
            PositionError::RankLength { rank: 4, squares: 6 },
            "rank 4 describes 6 squares, 7 expected",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5LL w",
            PositionError::RankLength { rank: 1, squares: 8 },
            "rank 1 describes 8 squares, 7 expected",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T8 w",
            PositionError::UnknownLetter { rank: 1, letter: '8' },
            "rank 1: '8' is not a piece letter (r c d w p t l e, upper case for the first player) or a digit 1 to 7",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5K w",
            PositionError::UnknownLetter { rank: 1, letter: 'K' },
            "rank 1: 'K' is not a piece letter (r c d w p t l e, upper case for the first player) or a digit 1 to 7",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5T w",
            PositionError::Duplicate {
                piece: Piece::new(Side::First, Kind::Tiger),
                square: sq("g1"),
            },
            "g1: the first player's tiger appears twice",
        ),
        (
            "7/7/7/1d5/7/7/7/7/7 w",
            PositionError::InWater {
                piece: Piece::new(Side::Second, Kind::Dog),
                square: sq("b6"),
            },
            "b6: the second player's dog is in the water (only a rat may be)",
        ),
        (
            "7/7/7/7/7/7/7/7/3C3 w",
            PositionError::OwnDen {
                piece: Piece::new(Side::First, Kind::Cat),
                square: sq("d1"),
            },
            "d1: the first player's cat is on its own den",
        ),
        (
            "3C3/7/7/7/7/7/7/7/7 w",
            PositionError::MoverInDen { side: Side::First },
            "the first player, to move, already stands in the enemy den (the game is over)",
        ),
        (
            START.trim_end_matches(" w"),
            PositionError::MissingSide,
            "the side to move ('w' or 'b') is missing after the board",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L white",
            PositionError::BadSide,
            "the side to move must be 'w' or 'b'",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/16t w",
            PositionError::DigitsInARow { rank: 1 },
            "rank 1: two digits in a row (a run of empty squares is one digit, 1 to 7)",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/34/E1W1P1R/1C3D1/T5L w",
            PositionError::DigitsInARow { rank: 4 },
            "rank 4: two digits in a row (a run of empty squares is one digit, 1 to 7)",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1 x",
            PositionError::TrailingText,
            "unexpected text after the move number (board, side, draw counter, move number)",
        ),
    ];
    for (text, expected, message) in cases {
        let e = err(text);
        assert_eq!(&e, expected, "{text}");
        assert_eq!(&e.to_string(), message, "{text}");
    }
    // The counters: decimal digits only, within their bounds.
    let counters: &[(&str, PositionError)] = &[
        ("w -1 1", PositionError::BadDrawCounter),
        ("w +1", PositionError::BadDrawCounter),
        ("w 1.0", PositionError::BadDrawCounter),
        ("w 4294967296", PositionError::BadDrawCounter),
        ("w 0 0", PositionError::BadMoveNumber),
        ("w 0 +2", PositionError::BadMoveNumber),
        ("w 0 2147483649", PositionError::BadMoveNumber),
        ("b 0 2147483649", PositionError::BadMoveNumber),
        ("w 0 4000000000", PositionError::BadMoveNumber),
        ("w 0 99999999999", PositionError::BadMoveNumber),
    ];
    let messages = [
        (
            PositionError::BadDrawCounter,
            "the draw counter (plies since the last capture) must be a number from 0 to 4294967295, in digits",
        ),
        (
            PositionError::BadMoveNumber,
            "the move number must be a number from 1 to 2147483648, in digits",
        ),
    ];
    for (fields, expected) in counters {
        let text = format!("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L {fields}");
        let e = err(&text);
        assert_eq!(&e, expected, "{text}");
        let message = messages.iter().find(|(m, _)| m == expected).unwrap().1;
        assert_eq!(e.to_string(), message, "{text}");
    }
}

#[test]
fn piece_codes_are_checked_like_the_notation() {
    let mut codes = *Position::start().codes();
    assert_eq!(
        Position::from_codes(&codes, Side::First, 0, 0),
        Ok(Position::start())
    );
    assert_eq!(
        Position::from_codes(&codes, Side::First, 0, 1),
        Err(PositionError::PlyParity {
            ply: 1,
            side: Side::First
        })
    );
    assert_eq!(
        Position::from_codes(&codes, Side::First, 0, 1)
            .unwrap_err()
            .to_string(),
        "ply 1 is the second player's, but the first player is to move"
    );
    codes[30] = 17;
    assert_eq!(
        Position::from_codes(&codes, Side::First, 0, 0)
            .unwrap_err()
            .to_string(),
        "c5: 17 is not a piece code (0 to 16)"
    );
    codes[30] = 0;
    codes[31] = codes[0];
    assert!(matches!(
        Position::from_codes(&codes, Side::First, 0, 0),
        Err(PositionError::Duplicate { .. })
    ));
}

#[test]
fn moves_read_and_print() {
    let m = Move::parse("a3a4").unwrap();
    assert_eq!((m.from, m.to), (sq("a3"), sq("a4")));
    assert_eq!(m.to_string(), "a3a4");
    assert_eq!(" g9g8\n".parse::<Move>(), Ok(Move::new(sq("g9"), sq("g8"))));
    let cases = [
        ("a3", MoveError::Length),
        ("a3a4a5", MoveError::Length),
        ("a3-a4", MoveError::Length),
        ("ä3a4", MoveError::Length),
        ("h3a4", MoveError::From),
        ("a0a4", MoveError::From),
        ("a3a10", MoveError::Length),
        ("a3z4", MoveError::To),
        ("A3A4", MoveError::From),
    ];
    for (text, e) in cases {
        assert_eq!(Move::parse(text), Err(e), "{text}");
    }
    assert_eq!(
        MoveError::Length.to_string(),
        "a move is two squares, from and to, e.g. a3a4"
    );
}
