//! Every scoring example of the rules (../shared/notes/farkle.md and the arena's spec).

use farkle_rules::*;

#[test]
fn singles() {
    assert_eq!(score_draft(&[1]), Some(100));
    assert_eq!(score_draft(&[5]), Some(50));
    assert_eq!(score_draft(&[1, 1]), Some(200));
    assert_eq!(score_draft(&[5, 5]), Some(100));
    assert_eq!(score_draft(&[1, 5]), Some(150));
    assert_eq!(score_draft(&[5, 1, 5]), Some(200));
}

#[test]
fn triples() {
    assert_eq!(score_draft(&[1, 1, 1]), Some(1000));
    assert_eq!(score_draft(&[2, 2, 2]), Some(200));
    assert_eq!(score_draft(&[3, 3, 3]), Some(300));
    assert_eq!(score_draft(&[4, 4, 4]), Some(400));
    assert_eq!(score_draft(&[5, 5, 5]), Some(500));
    assert_eq!(score_draft(&[6, 6, 6]), Some(600));
}

#[test]
fn more_than_three_of_a_face() {
    assert_eq!(score_draft(&[1, 1, 1, 1]), Some(1100));
    assert_eq!(score_draft(&[1, 1, 1, 1, 1]), Some(1200));
    assert_eq!(score_draft(&[1; 6]), Some(2000));
    assert_eq!(score_draft(&[5, 5, 5, 5]), Some(550));
    assert_eq!(score_draft(&[5, 5, 5, 5, 5]), Some(600));
    assert_eq!(score_draft(&[5; 6]), Some(1000));
    assert_eq!(score_draft(&[2; 6]), Some(400));
    assert_eq!(score_draft(&[3; 6]), Some(600));
    assert_eq!(score_draft(&[4; 6]), Some(800));
    assert_eq!(score_draft(&[6; 6]), Some(1200));
}

#[test]
fn four_or_five_of_a_non_scoring_face_are_not_a_draft() {
    for f in [2, 3, 4, 6] {
        assert_eq!(score_draft(&[f; 4]), None, "four {f}s");
        assert_eq!(score_draft(&[f; 5]), None, "five {f}s");
        assert_eq!(score_draft(&[f]), None, "one {f}");
        assert_eq!(score_draft(&[f, f]), None, "two {f}s");
    }
    let four_twos = [2, 2, 2, 2, 1, 5];
    assert_eq!(
        check_answer(&four_twos, &[0, 1, 2, 3], 1),
        Err(Reject::NonScoring)
    );
    assert_eq!(
        check_answer(&four_twos, &[0, 1, 2], 1),
        Ok((200, Action::Bank))
    );
}

#[test]
fn mixed_drafts() {
    assert_eq!(score_draft(&[1, 1, 1, 5]), Some(1050));
    assert_eq!(score_draft(&[2, 2, 2, 3, 3, 3]), Some(500));
    assert_eq!(score_draft(&[6, 6, 6, 1, 5, 5]), Some(800));
    assert_eq!(score_draft(&[4, 4, 4, 1, 1]), Some(600));
    assert_eq!(score_draft(&[2, 2, 2, 5]), Some(250));
    assert_eq!(score_draft(&[1, 2]), None);
    assert_eq!(score_draft(&[1, 1, 1, 6]), None);
}

#[test]
fn empty_and_not_faces() {
    assert_eq!(score_draft(&[]), None);
    assert_eq!(score_draft(&[0]), None);
    assert_eq!(score_draft(&[7, 7, 7]), None);
    assert_eq!(score_draft(&[1, 0]), None);
}

#[test]
fn each_draft_is_scored_alone() {
    // 1,1 now and another 1 later is not a triple.
    assert_eq!(
        score_draft(&[1, 1]).unwrap() + score_draft(&[1]).unwrap(),
        300
    );
    assert_eq!(score_draft(&[1, 1, 1]), Some(1000));
}

#[test]
fn farkles() {
    assert!(is_farkle(&[2, 3, 4, 6, 2, 3]));
    assert!(is_farkle(&[2, 2, 3, 3, 4, 6]));
    assert!(is_farkle(&[6]));
    assert!(is_farkle(&[4, 4]));
    assert!(is_farkle(&[]));
    assert!(!is_farkle(&[2, 3, 4, 6, 2, 1]));
    assert!(!is_farkle(&[5]));
    assert!(!is_farkle(&[3, 3, 3]));
    assert!(!is_farkle(&[2, 3, 3, 4, 6, 3]));
}

#[test]
fn the_original_harness_hole_is_closed() {
    // Keeping [0,1,2,-6,-5,-4] from [1,1,1,2,3,4] scored 2000 in the original harness; here the
    // negative indices are huge unsigned ones.
    let roll = [1, 1, 1, 2, 3, 4];
    let idx = [0, 1, 2, (-6i32) as u32, (-5i32) as u32, (-4i32) as u32];
    assert_eq!(check_answer(&roll, &idx, 0), Err(Reject::IndexOutOfRange));
    assert_eq!(
        check_answer(&roll, &[0, 1, 2, 0, 1, 2], 0),
        Err(Reject::RepeatedIndex)
    );
    assert_eq!(check_answer(&roll, &[0, 1, 2], 0), Ok((1000, Action::Roll)));
}

#[test]
fn rejection_order() {
    let roll = [1, 5, 2, 3, 4, 6];
    assert_eq!(check_answer(&roll, &[], 9), Err(Reject::EmptyDraft));
    // A repeat before an out-of-range index: the range check runs over every index first.
    assert_eq!(
        check_answer(&roll, &[0, 0, 6], 9),
        Err(Reject::IndexOutOfRange)
    );
    assert_eq!(check_answer(&roll, &[2, 2], 9), Err(Reject::RepeatedIndex));
    assert_eq!(check_answer(&roll, &[2], 9), Err(Reject::NonScoring));
    assert_eq!(check_answer(&roll, &[0, 1], 9), Err(Reject::UnknownAction));
    assert_eq!(check_answer(&roll, &[1, 0], 1), Ok((150, Action::Bank)));
    assert_eq!(check_answer(&roll[..3], &[1], 0), Ok((50, Action::Roll)));
}

#[test]
fn reject_codes_and_names() {
    let names = [
        "empty_draft",
        "index_out_of_range",
        "repeated_index",
        "non_scoring",
        "unknown_action",
    ];
    for (i, r) in Reject::ALL.iter().enumerate() {
        assert_eq!(r.code(), i as u32 + 1);
        assert_eq!(r.name(), names[i]);
        assert_eq!(Reject::from_code(r.code()), Some(*r));
    }
    assert_eq!(Reject::from_code(0), None);
    assert_eq!(Reject::from_code(6), None);
    assert_eq!(Action::from_code(0), Some(Action::Roll));
    assert_eq!(Action::from_code(1), Some(Action::Bank));
    assert_eq!(Action::from_code(2), None);
    assert_eq!(Action::Bank.code(), 1);
}

#[test]
fn drafts_of_a_roll() {
    let roll = [1, 5, 2, 2, 2, 3];
    let drafts: Vec<Draft> = legal_drafts(&roll).collect();
    // Subsets of {1, 5, triple of 2s} that are nonempty: 7.
    assert_eq!(drafts.len(), 7);
    let best = best_draft(&roll).unwrap();
    assert_eq!(best.score, 350);
    assert_eq!(best.mask, 0b011111);
    assert_eq!(best.indices().collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
    assert_eq!(best.dice(), 5);
    assert!(legal_drafts(&[2, 3, 4, 6, 2, 3]).next().is_none());
    assert_eq!(best_draft(&[2, 3, 4, 6, 2, 3]), None);
    // Four 2s: the best draft takes one triple of them, the lowest indices.
    let best = best_draft(&[2, 2, 2, 2, 3, 4]).unwrap();
    assert_eq!((best.mask, best.score), (0b000111, 200));
    assert_eq!(mask_score(&[1, 2], 0b100), None);
    assert_eq!(mask_score(&[1, 2], 0), None);
    assert_eq!(mask_score(&[1, 2], 0b01), Some(100));
}

#[test]
fn constants() {
    assert_eq!(TARGET, 10_000);
    assert_eq!(DICE, 6);
    assert_eq!(RULES_VERSION, 1);
}
