//! Every rule of Jungle on small positions written in the notation: steps, water, lake jumps and
//! their blocking, captures by rank, the rat and the elephant, traps both ways, dens, the ways
//! to win, and the draw rule.

mod common;

use common::{mv, pos, targets};
use jungle_rules::{DrawReason, Illegal, Outcome, Position, Side, WinReason, DRAW_PLIES};

/// A second-player piece far from the action, so that positions are not won by elimination.
const FAR: (&str, char) = ("g9", 'c');
/// And a first-player one.
const FAR_W: (&str, char) = ("a1", 'C');

#[test]
fn one_orthogonal_step() {
    let p = pos(&[("d3", 'W'), FAR], 'w');
    assert_eq!(targets(&p, "d3"), ["c3", "d2", "d4", "e3"]);
    let p = pos(&[("a9", 'W'), FAR], 'w');
    assert_eq!(targets(&p, "a9"), ["a8", "b9"]);
    assert_eq!(p.check_move(mv("a9b8")), Err(Illegal::NotAStep));
    assert_eq!(p.check_move(mv("a9a7")), Err(Illegal::NotAStep));
    assert_eq!(p.check_move(mv("a9a9")), Err(Illegal::NotAStep));
}

#[test]
fn only_pieces_of_the_side_to_move_move() {
    let p = pos(&[("d3", 'W'), ("d6", 'w'), FAR], 'w');
    assert_eq!(p.check_move(mv("d6d7")), Err(Illegal::NotYours));
    assert_eq!(p.check_move(mv("d5d4")), Err(Illegal::Empty));
    assert!(p.legal_moves().iter().all(|m| m.from.to_string() == "d3"));
}

#[test]
fn only_the_rat_enters_the_water() {
    for kind in ['C', 'D', 'W', 'P', 'E'] {
        let p = pos(&[("b3", kind), FAR], 'w');
        assert_eq!(targets(&p, "b3"), ["a3", "b2", "c3"], "{kind}");
        assert_eq!(p.check_move(mv("b3b4")), Err(Illegal::Water), "{kind}");
    }
    let p = pos(&[("b3", 'R'), FAR], 'w');
    assert_eq!(targets(&p, "b3"), ["a3", "b2", "b4", "c3"]);
    // In the water it swims on and comes out.
    let p = pos(&[("b5", 'R'), FAR], 'w');
    assert_eq!(targets(&p, "b5"), ["a5", "b4", "b6", "c5"]);
    let p = pos(&[("c4", 'r'), FAR_W], 'b');
    assert_eq!(targets(&p, "c4"), ["b4", "c3", "c5", "d4"]);
}

#[test]
fn lion_and_tiger_jump_the_lakes_vertically() {
    for kind in ['L', 'T'] {
        for (from, to) in [("b3", "b7"), ("c3", "c7"), ("e3", "e7"), ("f3", "f7")] {
            let p = pos(&[(from, kind), FAR], 'w');
            assert!(targets(&p, from).contains(&to.to_string()), "{kind} {from}");
            assert_eq!(p.check_move(mv(&format!("{from}{to}"))), Ok(()));
            // And back.
            let p = pos(&[(to, kind), FAR], 'w');
            assert!(targets(&p, to).contains(&from.to_string()), "{kind} {to}");
        }
    }
    // b3: left a3, right c3, down b2, up the jump to b7; never into the water.
    let p = pos(&[("b3", 'L'), FAR], 'w');
    assert_eq!(targets(&p, "b3"), ["a3", "b2", "b7", "c3"]);
    assert_eq!(p.check_move(mv("b3b4")), Err(Illegal::Water));
}

#[test]
fn lion_and_tiger_jump_the_lakes_horizontally() {
    for kind in ['l', 't'] {
        for rank in 4..=6 {
            for (from, to) in [("a", "d"), ("d", "a"), ("d", "g"), ("g", "d")] {
                let (from, to) = (format!("{from}{rank}"), format!("{to}{rank}"));
                let p = pos(&[(from.as_str(), kind), FAR_W], 'b');
                assert!(targets(&p, &from).contains(&to), "{kind} {from}{to}");
            }
        }
    }
    // From d5 both lakes: a5, g5, and the land steps d4, d6.
    let p = pos(&[("d5", 'T'), FAR], 'w');
    assert_eq!(targets(&p, "d5"), ["a5", "d4", "d6", "g5"]);
}

#[test]
fn other_pieces_do_not_jump() {
    for kind in ['R', 'C', 'D', 'W', 'P', 'E'] {
        let p = pos(&[("d5", kind), FAR], 'w');
        assert!(!targets(&p, "d5").contains(&"a5".to_string()), "{kind}");
        assert_eq!(p.check_move(mv("d5a5")), Err(Illegal::NotAStep), "{kind}");
        let p = pos(&[("b3", kind), FAR], 'w');
        assert_eq!(p.check_move(mv("b3b7")), Err(Illegal::NotAStep), "{kind}");
    }
}

#[test]
fn a_rat_in_the_water_blocks_jumps_whoever_owns_it() {
    for rat in ['R', 'r'] {
        // On the jump's file, at every rank of the lake.
        for at in ["b4", "b5", "b6"] {
            let p = pos(&[("b3", 'L'), (at, rat), FAR, FAR_W], 'w');
            assert_eq!(targets(&p, "b3"), ["a3", "b2", "c3"], "{rat} on {at}");
            assert_eq!(p.check_move(mv("b3b7")), Err(Illegal::JumpBlocked));
        }
        // On the jump's rank, both lakes.
        for (from, to, at) in [("a4", "d4", "b4"), ("a4", "d4", "c4"), ("g6", "d6", "e6")] {
            let p = pos(&[(from, 'T'), (at, rat), FAR], 'w');
            assert_eq!(
                p.check_move(mv(&format!("{from}{to}"))),
                Err(Illegal::JumpBlocked),
                "{rat} on {at}"
            );
        }
        // A rat beside the line does not block.
        let p = pos(&[("b3", 'L'), ("c5", rat), FAR, FAR_W], 'w');
        assert!(targets(&p, "b3").contains(&"b7".to_string()));
        let p = pos(&[("a4", 'T'), ("b5", rat), FAR, FAR_W], 'w');
        assert_eq!(p.check_move(mv("a4d4")), Ok(()));
        // Nor does a rat on land at the end of the jump (it is captured instead).
    }
}

#[test]
fn jumps_capture_by_the_normal_rule() {
    // The lion lands on a weaker piece: a capture.
    let p = pos(&[("b3", 'L'), ("b7", 'p'), FAR], 'w');
    assert_eq!(p.check_move(mv("b3b7")), Ok(()));
    let q = p.after(mv("b3b7"));
    assert_eq!(q.count(Side::Second), 1);
    assert_eq!(q.plies_since_capture(), 0);
    // Equal rank: a capture.
    let p = pos(&[("d4", 't'), ("a4", 'T'), FAR_W], 'b');
    assert_eq!(p.check_move(mv("d4a4")), Ok(()));
    // The tiger may not land on the lion, nor anything on the elephant.
    let p = pos(&[("b3", 'T'), ("b7", 'l'), FAR], 'w');
    assert_eq!(p.check_move(mv("b3b7")), Err(Illegal::Outranked));
    let p = pos(&[("b3", 'L'), ("b7", 'e'), FAR], 'w');
    assert_eq!(p.check_move(mv("b3b7")), Err(Illegal::Outranked));
    // Nor on its own piece.
    let p = pos(&[("b3", 'L'), ("b7", 'C'), FAR], 'w');
    assert_eq!(p.check_move(mv("b3b7")), Err(Illegal::OwnPiece));
    // A lion lands on a rat on land: rank 7 over rank 1.
    let p = pos(&[("d6", 'L'), ("g6", 'r'), FAR], 'w');
    assert_eq!(p.check_move(mv("d6g6")), Ok(()));
}

#[test]
fn captures_by_equal_or_lower_rank() {
    let names = ['r', 'c', 'd', 'w', 'p', 't', 'l', 'e'];
    for (a, &attacker) in names.iter().enumerate() {
        for (d, &defender) in names.iter().enumerate() {
            // On d5 and d6: land, no trap, no water next to the vertical step.
            let p = pos(
                &[("d5", attacker.to_ascii_uppercase()), ("d6", defender)],
                'w',
            );
            let expected = match (attacker, defender) {
                ('r', 'e') => Ok(()),
                ('e', 'r') => Err(Illegal::ElephantTakesRat),
                _ if a >= d => Ok(()),
                _ => Err(Illegal::Outranked),
            };
            assert_eq!(
                p.check_move(mv("d5d6")),
                expected,
                "{attacker} takes {defender}"
            );
            assert_eq!(p.is_legal(mv("d5d6")), expected.is_ok());
        }
    }
}

#[test]
fn the_rat_takes_the_elephant_but_not_from_the_water() {
    // From land.
    let p = pos(&[("a3", 'R'), ("a4", 'e'), FAR], 'w');
    assert_eq!(p.check_move(mv("a3a4")), Ok(()));
    // From the water onto the bank: refused.
    let p = pos(&[("b4", 'R'), ("a4", 'e'), FAR], 'w');
    assert_eq!(p.check_move(mv("b4a4")), Err(Illegal::RatFromWater));
    assert_eq!(targets(&p, "b4"), ["b3", "b5", "c4"]);
    // Once out of the water it may.
    let p = pos(&[("a5", 'R'), ("a4", 'e'), FAR], 'w');
    assert_eq!(p.check_move(mv("a5a4")), Ok(()));
}

#[test]
fn the_elephant_never_takes_the_rat_outside_its_trap() {
    let p = pos(&[("a3", 'E'), ("a4", 'r'), FAR], 'w');
    assert_eq!(p.check_move(mv("a3a4")), Err(Illegal::ElephantTakesRat));
    // Nor a rat standing in the elephant's enemy's trap (the rat's own trap).
    let p = pos(&[("d7", 'E'), ("d8", 'r'), FAR], 'w');
    assert_eq!(p.check_move(mv("d7d8")), Err(Illegal::ElephantTakesRat));
    // Nor a rat in the water (no elephant enters it).
    let p = pos(&[("a4", 'E'), ("b4", 'r'), FAR], 'w');
    assert_eq!(p.check_move(mv("a4b4")), Err(Illegal::Water));
    // But a rat in the elephant's own trap has rank 0.
    let p = pos(&[("d3", 'E'), ("d2", 'r'), FAR], 'w');
    assert_eq!(p.check_move(mv("d3d2")), Ok(()));
    let p = pos(&[("c2", 'e'), ("c1", 'R'), FAR_W], 'b');
    assert_eq!(p.check_move(mv("c2c1")), Err(Illegal::ElephantTakesRat));
    let p = pos(&[("c8", 'e'), ("c9", 'R'), FAR_W], 'b');
    assert_eq!(p.check_move(mv("c8c9")), Ok(()));
}

#[test]
fn rats_fight_in_and_out_of_the_water() {
    // Water rat takes a land rat.
    let p = pos(&[("b4", 'R'), ("a4", 'r'), FAR], 'w');
    assert_eq!(p.check_move(mv("b4a4")), Ok(()));
    // Land rat takes a water rat (the symmetric choice).
    let p = pos(&[("a4", 'R'), ("b4", 'r'), FAR], 'w');
    assert_eq!(p.check_move(mv("a4b4")), Ok(()));
    // Water rat takes a water rat.
    let p = pos(&[("b4", 'R'), ("b5", 'r'), FAR], 'w');
    assert_eq!(p.check_move(mv("b4b5")), Ok(()));
    let p = pos(&[("e6", 'r'), ("f6", 'R'), FAR_W], 'b');
    assert_eq!(p.check_move(mv("e6f6")), Ok(()));
    // A water rat takes nothing else on land (the cat outranks it).
    let p = pos(&[("b4", 'R'), ("a4", 'c')], 'w');
    assert_eq!(p.check_move(mv("b4a4")), Err(Illegal::Outranked));
}

#[test]
fn a_piece_in_an_enemy_trap_has_rank_zero() {
    // The second player's lion stands in the first player's trap d2: the first player's rat
    // (and anything else) takes it.
    for attacker in ['R', 'C', 'D', 'W', 'P', 'T', 'E'] {
        let p = pos(&[("d3", attacker), ("d2", 'l'), FAR], 'w');
        assert_eq!(p.check_move(mv("d3d2")), Ok(()), "{attacker}");
    }
    for (trap, from) in [("c1", "b1"), ("e1", "f1"), ("d2", "c2")] {
        let p = pos(&[(from, 'C'), (trap, 'e'), FAR], 'w');
        assert_eq!(p.check_move(mv(&format!("{from}{trap}"))), Ok(()), "{trap}");
    }
    for (trap, from) in [("c9", "b9"), ("e9", "e8"), ("d8", "d7")] {
        let p = pos(&[(from, 'c'), (trap, 'E'), FAR_W], 'b');
        assert_eq!(p.check_move(mv(&format!("{from}{trap}"))), Ok(()), "{trap}");
    }
}

#[test]
fn your_own_trap_does_not_weaken_you() {
    // The first player's lion in its own trap d2 keeps rank 7: the second player's cat may not
    // take it, nor its tiger.
    let p = pos(&[("d2", 'L'), ("d3", 'c'), ("c2", 't'), FAR_W], 'b');
    assert_eq!(p.check_move(mv("d3d2")), Err(Illegal::Outranked));
    assert_eq!(p.check_move(mv("c2d2")), Err(Illegal::Outranked));
    let p = pos(&[("c9", 'l'), ("b9", 'W'), FAR], 'w');
    assert_eq!(p.check_move(mv("b9c9")), Err(Illegal::Outranked));
}

#[test]
fn a_piece_in_an_enemy_trap_still_attacks_at_full_rank() {
    // The first player's dog stands in the second player's trap d8: it may be taken by any
    // piece, but it still takes the second player's dog next to it.
    let p = pos(&[("d8", 'D'), ("c8", 'd'), FAR], 'w');
    assert_eq!(p.check_move(mv("d8c8")), Ok(()));
    let p = pos(&[("d8", 'D'), ("c8", 'w'), FAR], 'w');
    assert_eq!(p.check_move(mv("d8c8")), Err(Illegal::Outranked));
    // And the second player's rat takes the trapped dog.
    let p = pos(&[("d8", 'D'), ("d7", 'r'), FAR_W], 'b');
    assert_eq!(p.check_move(mv("d7d8")), Ok(()));
}

#[test]
fn no_piece_enters_its_own_den() {
    for from in ["c1", "e1", "d2"] {
        let p = pos(&[(from, 'P'), FAR], 'w');
        assert!(!targets(&p, from).contains(&"d1".to_string()), "{from}");
        assert_eq!(p.check_move(mv(&format!("{from}d1"))), Err(Illegal::OwnDen));
    }
    let p = pos(&[("d8", 'r'), FAR_W], 'b');
    assert_eq!(p.check_move(mv("d8d9")), Err(Illegal::OwnDen));
}

#[test]
fn entering_the_enemy_den_wins() {
    for (from, kind) in [("c9", 'R'), ("e9", 'C'), ("d8", 'E')] {
        let p = pos(&[(from, kind), ("a9", 't'), ("g7", 'l')], 'w');
        let to = "d9";
        assert!(targets(&p, from).contains(&to.to_string()));
        let q = p.after(mv(&format!("{from}{to}")));
        assert_eq!(
            q.outcome(u32::MAX),
            Some(Outcome::Win {
                winner: Side::First,
                reason: WinReason::Den
            })
        );
        assert!(q.den_entered());
    }
    let p = pos(&[("d2", 'w'), ("g1", 'L')], 'b');
    let q = p.after(mv("d2d1"));
    assert_eq!(
        q.outcome(u32::MAX).and_then(Outcome::winner),
        Some(Side::Second)
    );
}

#[test]
fn capturing_every_enemy_piece_wins() {
    let p = pos(&[("d5", 'L'), ("d6", 'w'), ("a1", 'T')], 'w');
    assert_eq!(p.outcome(u32::MAX), None);
    let q = p.after(mv("d5d6"));
    assert_eq!(q.count(Side::Second), 0);
    assert_eq!(
        q.outcome(u32::MAX),
        Some(Outcome::Win {
            winner: Side::First,
            reason: WinReason::AllCaptured
        })
    );
}

#[test]
fn a_player_with_no_legal_move_loses() {
    // The first player's cat in the corner a1, between the second player's dog and wolf: it
    // takes neither (a1 is no trap) and may not step anywhere else.
    let p = pos(&[("a1", 'C'), ("a2", 'd'), ("b1", 'w')], 'w');
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.count_moves(), 0);
    assert_eq!(
        p.outcome(u32::MAX),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: WinReason::NoMoves
        })
    );
    // With the wolf on b2 instead, the cat may step to b1.
    let p = pos(&[("a1", 'C'), ("a2", 'd'), ("b2", 'w')], 'w');
    assert_eq!(p.outcome(u32::MAX), None);
    // The second player's rat in the corner g9, between the first player's cat and dog.
    let p = pos(&[("g9", 'r'), ("f9", 'C'), ("g8", 'D'), ("a1", 'T')], 'b');
    assert_eq!(
        p.outcome(u32::MAX).map(|o| o.winner()),
        Some(Some(Side::First))
    );
}

#[test]
fn a_hundred_plies_without_capture_draw() {
    assert_eq!(DRAW_PLIES, 100);
    let p = Position::parse("7/3r3/7/7/7/7/7/3R3/7 w 99 60").unwrap();
    assert_eq!(p.plies_since_capture(), 99);
    assert_eq!(p.ply(), 118);
    assert_eq!(p.outcome(u32::MAX), None);
    let q = p.after(mv("d2d3"));
    assert_eq!(q.plies_since_capture(), 100);
    assert_eq!(
        q.outcome(u32::MAX),
        Some(Outcome::Draw(DrawReason::NoCapture))
    );
    // A capture resets the counter.
    let p = Position::parse("7/7/7/7/7/7/3r3/3R3/1L5 w 99 60").unwrap();
    let q = p.after(mv("d2d3"));
    assert_eq!(q.plies_since_capture(), 0);
    // Not a draw: the capture left the second player with nothing, a win.
    assert_eq!(
        q.outcome(u32::MAX).and_then(Outcome::winner),
        Some(Side::First)
    );
    // A den entry on the hundredth quiet ply wins.
    let p = Position::parse("7/3R3/7/7/7/7/7/7/r6 w 99 60").unwrap();
    let q = p.after(mv("d8d9"));
    assert_eq!(q.plies_since_capture(), 100);
    assert_eq!(
        q.outcome(u32::MAX).and_then(Outcome::winner),
        Some(Side::First)
    );
}

#[test]
fn the_ply_cap_draws() {
    let p = Position::parse("7/3r3/7/7/7/7/7/3R3/7 w 0 11").unwrap();
    assert_eq!(p.ply(), 20);
    assert_eq!(p.outcome(21), None);
    assert_eq!(p.outcome(20), Some(Outcome::Draw(DrawReason::PlyCap)));
    // Wins come first.
    let p = Position::parse("7/3R3/7/7/7/7/7/7/r6 w 0 11").unwrap();
    let q = p.after(mv("d8d9"));
    assert_eq!(q.outcome(21).and_then(Outcome::winner), Some(Side::First));
}

#[test]
fn make_and_unmake() {
    let start = Position::start();
    let mut p = start;
    let first = mv("a3a4");
    let undo = p.make(first);
    assert_eq!(undo.captured(), None);
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!((p.ply(), p.plies_since_capture()), (1, 1));
    assert_eq!(
        p.to_string(),
        "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1"
    );
    p.unmake(first, undo);
    assert_eq!(p, start);
    // A capture and its undo.
    let mut p = pos(&[("d5", 'L'), ("d6", 'w'), ("a1", 't')], 'w');
    let before = p;
    let undo = p.make(mv("d5d6"));
    assert_eq!(undo.captured().map(|c| c.kind.name()), Some("wolf"));
    assert_eq!(p.count(Side::Second), 1);
    p.unmake(mv("d5d6"), undo);
    assert_eq!(p, before);
}

#[test]
fn start_position() {
    let p = Position::start();
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(
        (p.ply(), p.plies_since_capture(), p.move_number()),
        (0, 0, 1)
    );
    assert_eq!(p.count(Side::First), 8);
    assert_eq!(p.count(Side::Second), 8);
    assert_eq!(p.outcome(u32::MAX), None);
    assert_eq!(p.legal_moves().len(), 24);
}
