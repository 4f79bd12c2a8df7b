//! Perft from the start position: the counts two independent public engines agree on.

use jungle_rules::{perft, perft_divide, Position, START};

#[test]
fn start_position_counts() {
    let start = Position::start();
    assert_eq!(start.to_string(), START);
    assert_eq!(Position::parse(START), Ok(start));
    let counts: Vec<u64> = (1..=4).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [24, 576, 12_240, 260_099]);
    assert_eq!(perft(&start, 0), 1);
}

#[test]
fn perft_ignores_the_draw_counter_and_the_ply_cap() {
    // docs/JUNGLE.md, "Perft": the start's placement counts the same whatever its counters, though
    // each of these positions is a game drawn before its first move (by the draw rule, or by a
    // ply cap of 600 plies, the default round cap's).
    let start = Position::start();
    let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    for text in [
        format!("{board} w 100"),
        format!("{board} w 0 1000"),
        format!("{board} w 4294967295 300"),
        format!("{board} b 99 2147483648"),
    ] {
        let p = Position::parse(&text).unwrap();
        assert!(p.outcome(600).is_some(), "{text}");
        for depth in 1..=3 {
            let expected = if p.side_to_move() == start.side_to_move() {
                perft(&start, depth)
            } else {
                perft(&Position::parse(&format!("{board} b")).unwrap(), depth)
            };
            assert_eq!(perft(&p, depth), expected, "{text}, depth {depth}");
        }
    }
}

#[test]
fn start_position_moves_by_piece() {
    // By hand: elephant 3, wolf 3, leopard 3, rat 3, cat 4, dog 4, tiger 2, lion 2.
    let start = Position::start();
    let mut by_from = std::collections::BTreeMap::new();
    let total = perft_divide(&start, 1, |mv, n| {
        assert_eq!(n, 1);
        *by_from.entry(mv.from.to_string()).or_insert(0) += 1;
    });
    assert_eq!(total, 24);
    let expected = [
        ("a1", 2),
        ("a3", 3),
        ("b2", 4),
        ("c3", 3),
        ("e3", 3),
        ("f2", 4),
        ("g1", 2),
        ("g3", 3),
    ];
    assert_eq!(
        by_from.into_iter().collect::<Vec<_>>(),
        expected.map(|(s, n)| (s.to_string(), n))
    );
    // Divide agrees with perft one level down.
    assert_eq!(perft_divide(&start, 3, |_, _| ()), 12_240);
}
