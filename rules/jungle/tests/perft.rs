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
