//! Properties over many positions (random placements and random games from the start): the
//! bitboard generator agrees with the slow reference generator of `common::reference`, the
//! explaining check agrees with both, the notation round-trips, make/unmake restores, and the
//! outcome follows its definition.

mod common;

use common::reference;
use jungle_rules::{
    perft, DrawReason, Kind, Move, Outcome, Piece, Position, PositionError, Side, Square,
    WinReason, DRAW_PLIES, SQUARES,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A position with a random subset of the sixteen pieces on random squares; placements the
/// rules refuse (a non-rat in water, a piece on its own den, the mover in the enemy den) are
/// skipped.
fn placed() -> impl Strategy<Value = Position> {
    (
        prop::collection::vec((any::<bool>(), 0u8..63), 16),
        any::<bool>(),
        0u32..120,
        0u32..200,
    )
        .prop_filter_map("refused placement", |(spots, second, quiet, moves)| {
            let mut codes = [0u8; SQUARES];
            for (i, &(present, sq)) in spots.iter().enumerate() {
                if present && codes[sq as usize] == 0 {
                    codes[sq as usize] = i as u8 + 1;
                }
            }
            let side = if second { Side::Second } else { Side::First };
            Position::from_codes(&codes, side, quiet, 2 * moves + second as u32).ok()
        })
}

/// The position after up to `len` random legal moves from the start (stopping at a finished
/// game).
fn played() -> impl Strategy<Value = Position> {
    prop::collection::vec(any::<u32>(), 0..160).prop_map(|picks| {
        let mut p = Position::start();
        for pick in picks {
            if p.outcome(u32::MAX).is_some() {
                break;
            }
            let moves = p.legal_moves();
            p.make(moves[pick as usize % moves.len()]);
        }
        p
    })
}

fn any_position() -> impl Strategy<Value = Position> {
    prop_oneof![placed(), played()]
}

/// A run of ASCII whitespace of `min` to 3 characters.
fn blank(min: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![' ', '\t', '\n', '\r', '\x0c']),
        min..4,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn as_set(moves: impl IntoIterator<Item = (Square, Square)>) -> BTreeSet<(Square, Square)> {
    moves.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn generator_agrees_with_the_reference(p in any_position()) {
        let fast = p.legal_moves();
        let slow = reference::legal_moves(&p);
        prop_assert_eq!(
            as_set(fast.iter().map(|m| (m.from, m.to))),
            as_set(slow.iter().copied()),
            "{}", p
        );
        // No duplicates, and the documented order: by kind, then by destination square.
        let keys: Vec<(Kind, Square)> = fast
            .iter()
            .map(|m| (p.piece_at(m.from).unwrap().kind, m.to))
            .collect();
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "{}", p);
        prop_assert_eq!(p.count_moves() as usize, fast.len());
        prop_assert_eq!(p.has_moves(), !fast.is_empty());
    }

    #[test]
    fn every_move_is_judged_alike(p in any_position()) {
        let legal = as_set(reference::legal_moves(&p));
        for from in 0..63u8 {
            let from = Square::from_index(from).unwrap();
            let mut mask = 0u64;
            for to in 0..63u8 {
                let to = Square::from_index(to).unwrap();
                let mv = Move::new(from, to);
                let expected = legal.contains(&(from, to));
                prop_assert_eq!(p.is_legal(mv), expected, "{} {}", p, mv);
                prop_assert_eq!(p.check_move(mv).is_ok(), expected, "{} {} {:?}", p, mv, p.check_move(mv));
                if expected {
                    mask |= to.bit();
                }
            }
            prop_assert_eq!(p.moves_from(from), mask);
        }
    }

    #[test]
    fn make_unmake_and_copy_make_agree_with_the_reference(p in any_position()) {
        // In a game already won by a den entry no move is played (and the reference, which
        // rebuilds positions through `from_codes`, would refuse the mover-in-den result).
        prop_assume!(!p.den_entered());
        for &mv in &p.legal_moves() {
            let mut q = p;
            let undo = q.make(mv);
            prop_assert_eq!(q, reference::play(&p, mv.from, mv.to), "{} {}", p, mv);
            prop_assert_eq!(q, p.after(mv));
            prop_assert_eq!(undo.captured(), p.piece_at(mv.to));
            q.unmake(mv, undo);
            prop_assert_eq!(q, p);
        }
    }

    #[test]
    fn notation_round_trips(p in any_position()) {
        let text = p.to_string();
        prop_assert_eq!(Position::parse(&text), Ok(p), "{}", text);
    }

    #[test]
    fn the_notation_reads_any_spacing_and_refuses_split_runs_and_signs(
        p in any_position(),
        seps in prop::collection::vec(blank(1), 3),
        before in blank(0),
        after in blank(0),
        pick in any::<prop::sample::Index>(),
    ) {
        let text = p.to_string();
        let board = text.split(' ').next().unwrap();
        let side = if p.side_to_move() == Side::First { "w" } else { "b" };
        let (quiet, number) = (p.plies_since_capture(), p.move_number());
        let spelled = format!(
            "{before}{board}{}{side}{}{quiet}{}{number}{after}",
            seps[0], seps[1], seps[2]
        );
        prop_assert_eq!(Position::parse(&spelled), Ok(p), "{:?}", spelled);
        // A sign before a counter is refused.
        let signed = format!("{board} {side} +{quiet} {number}");
        prop_assert_eq!(Position::parse(&signed), Err(PositionError::BadDrawCounter));
        let signed = format!("{board} {side} {quiet} +{number}");
        prop_assert_eq!(Position::parse(&signed), Err(PositionError::BadMoveNumber));
        // A run of empty squares written as two digits (`5` as `14`) is refused, naming its rank.
        let runs: Vec<usize> = board
            .char_indices()
            .filter(|&(_, c)| ('2'..='7').contains(&c))
            .map(|(i, _)| i)
            .collect();
        prop_assume!(!runs.is_empty());
        let at = runs[pick.index(runs.len())];
        let d = board.as_bytes()[at] - b'0';
        let split = format!("{}1{}{}", &board[..at], d - 1, &board[at + 1..]);
        let rank = 9 - board[..at].matches('/').count() as u8;
        prop_assert_eq!(
            Position::parse(&format!("{split} {side}")),
            Err(PositionError::DigitsInARow { rank }),
            "{}", split
        );
    }

    #[test]
    fn perft_agrees_with_the_reference(p in any_position()) {
        prop_assert_eq!(perft(&p, 2), reference::perft(&p, 2), "{}", p);
    }

    #[test]
    fn outcome_follows_its_definition(p in any_position(), cap in 0u32..400) {
        let us = p.side_to_move();
        let them = us.opponent();
        let in_den = (0..63u8).any(|i| {
            let s = Square::from_index(i).unwrap();
            matches!(p.piece_at(s), Some(q) if q.side == them) && s.is_den_of(us)
        });
        let expected = if in_den {
            Some(Outcome::Win { winner: them, reason: WinReason::Den })
        } else if p.count(us) == 0 {
            Some(Outcome::Win { winner: them, reason: WinReason::AllCaptured })
        } else if reference::legal_moves(&p).is_empty() {
            Some(Outcome::Win { winner: them, reason: WinReason::NoMoves })
        } else if p.plies_since_capture() >= DRAW_PLIES {
            Some(Outcome::Draw(DrawReason::NoCapture))
        } else if p.ply() >= cap {
            Some(Outcome::Draw(DrawReason::PlyCap))
        } else {
            None
        };
        prop_assert_eq!(p.outcome(cap), expected, "{}", p);
        prop_assert_eq!(p.den_entered(), in_den);
    }

    #[test]
    fn codes_round_trip(p in any_position()) {
        let back = Position::from_codes(p.codes(), p.side_to_move(), p.plies_since_capture(), p.ply());
        prop_assert_eq!(back, Ok(p));
        for i in 0..63u8 {
            let s = Square::from_index(i).unwrap();
            if let Some(piece) = p.piece_at(s) {
                prop_assert_eq!(p.square_of(piece.side, piece.kind), Some(s));
                prop_assert_eq!(Piece::from_code(p.codes()[i as usize]), Some(piece));
            }
        }
    }
}

#[test]
fn reference_perft_matches_from_the_start() {
    let start = Position::start();
    for depth in 1..=3 {
        assert_eq!(
            reference::perft(&start, depth),
            perft(&start, depth),
            "depth {depth}"
        );
    }
}
