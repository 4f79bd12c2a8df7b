//! Properties of the scoring and of answer checking over arbitrary rolls and answers.

use farkle_rules::*;
use proptest::prelude::*;

fn roll() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(1u8..=6, 1..=DICE)
}

/// Faces of a draft that scores: some 1s, some 5s, and triples of other faces.
fn scoring_counts() -> impl Strategy<Value = [u8; 7]> {
    (0u8..=6, 0u8..=6, prop::array::uniform4(0u8..=2)).prop_map(|(ones, fives, triples)| {
        let mut c = [0u8; 7];
        c[1] = ones;
        c[5] = fives;
        for (face, t) in [2usize, 3, 4, 6].into_iter().zip(triples) {
            c[face] = 3 * t;
        }
        c
    })
}

fn faces_of(counts: &[u8; 7]) -> Vec<u8> {
    let mut v = Vec::new();
    for (f, &c) in counts.iter().enumerate() {
        v.extend(std::iter::repeat_n(f as u8, c as usize));
    }
    v
}

proptest! {
    /// The score of a draft is the sum of the scores of its faces taken separately: drafts of
    /// different faces add up.
    #[test]
    fn disjoint_faces_add_up(counts in scoring_counts()) {
        let all = faces_of(&counts);
        let mut sum = 0;
        let mut any = false;
        for f in 1..=6u8 {
            let c = counts[f as usize] as usize;
            if c > 0 {
                any = true;
                sum += score_draft(&vec![f; c]).expect("each face scores alone");
            }
        }
        prop_assert_eq!(score_draft(&all), any.then_some(sum));
    }

    /// Order does not matter.
    #[test]
    fn order_does_not_matter(mut faces in prop::collection::vec(0u8..=8, 0..=8), seed in any::<u64>()) {
        let before = score_draft(&faces);
        let n = faces.len();
        if n > 1 {
            faces.rotate_left((seed % n as u64) as usize);
            faces.swap(0, (seed / 7 % n as u64) as usize);
        }
        prop_assert_eq!(score_draft(&faces), before);
    }

    /// Adding a 1 or a 5 to a legal draft adds 100 or 50 unless it completes or extends a
    /// triple; in any case the draft stays legal and scores more.
    #[test]
    fn more_scoring_dice_score_more(counts in scoring_counts(), face in prop::sample::select(vec![1u8, 5])) {
        let mut faces = faces_of(&counts);
        if let Some(before) = score_draft(&faces) {
            faces.push(face);
            prop_assert!(score_draft(&faces).unwrap() > before);
        }
    }

    /// A roll is a farkle exactly when it has no legal draft.
    #[test]
    fn farkle_iff_no_legal_draft(r in roll()) {
        prop_assert_eq!(is_farkle(&r), legal_drafts(&r).next().is_none());
        prop_assert_eq!(is_farkle(&r), best_draft(&r).is_none());
    }

    /// The drafts listed are exactly the masks check_answer accepts, with the same score; the
    /// best draft has the highest score.
    #[test]
    fn drafts_agree_with_check_answer(r in roll()) {
        let n = r.len();
        let mut listed = legal_drafts(&r).peekable();
        let best = best_draft(&r);
        let mut max = 0;
        for mask in 1u8..(1 << n) {
            let idx: Vec<u32> = (0..n as u32).filter(|&i| mask & (1 << i) != 0).collect();
            match check_answer(&r, &idx, 1) {
                Ok((points, Action::Bank)) => {
                    let d = listed.next().expect("listed");
                    prop_assert_eq!(d, Draft { mask, score: points });
                    prop_assert_eq!(mask_score(&r, mask), Some(points));
                    max = max.max(points);
                }
                Ok(other) => prop_assert!(false, "{:?}", other),
                Err(e) => {
                    prop_assert_eq!(e, Reject::NonScoring);
                    prop_assert_eq!(mask_score(&r, mask), None);
                }
            }
        }
        prop_assert!(listed.next().is_none());
        prop_assert_eq!(best.map(|d| d.score), (max > 0).then_some(max));
    }

    /// The first failing check, in the documented order, is the one reported.
    #[test]
    fn rejection_precedence(r in roll(), idx in prop::collection::vec(0u32..9, 0..9), action in 0u32..4) {
        let n = r.len() as u32;
        let expected = if idx.is_empty() {
            Err(Reject::EmptyDraft)
        } else if idx.iter().any(|&i| i >= n) {
            Err(Reject::IndexOutOfRange)
        } else if (1..idx.len()).any(|k| idx[..k].contains(&idx[k])) {
            Err(Reject::RepeatedIndex)
        } else {
            let faces: Vec<u8> = idx.iter().map(|&i| r[i as usize]).collect();
            match score_draft(&faces) {
                None => Err(Reject::NonScoring),
                Some(p) => match Action::from_code(action) {
                    None => Err(Reject::UnknownAction),
                    Some(a) => Ok((p, a)),
                },
            }
        };
        prop_assert_eq!(check_answer(&r, &idx, action), expected);
    }

    /// Nothing panics, whatever the roll, the indices and the action.
    #[test]
    fn never_panics(r in prop::collection::vec(any::<u8>(), 0..12), idx in prop::collection::vec(any::<u32>(), 0..20), action in any::<u32>(), mask in any::<u8>()) {
        let _ = check_answer(&r, &idx, action);
        let small: Vec<u32> = idx.iter().map(|i| i % 14).collect();
        let _ = check_answer(&r, &small, action);
        let _ = is_farkle(&r);
        let _ = score_draft(&r);
        let _ = mask_score(&r, mask);
        let _ = best_draft(&r);
        prop_assert!(legal_drafts(&r).count() < 64);
    }
}

#[test]
fn farkle_probabilities_match_the_known_values() {
    // Exhaustive over all rolls of n dice: only 2, 3, 4 and 6, none three times. With six dice
    // that is 1440 of 46656 rolls (3.1%): without three-pairs or straights, rolls such as
    // 2,2,3,3,4,4 and 2,2,3,3,4,6 are farkles too.
    let expected = [(1, 4u32), (2, 16), (3, 60), (4, 204), (5, 600), (6, 1440)];
    for (n, farkles) in expected {
        let mut count = 0;
        let total = 6u32.pow(n);
        for code in 0..total {
            let mut r = [0u8; 6];
            let mut c = code;
            for f in r.iter_mut().take(n as usize) {
                *f = (c % 6) as u8 + 1;
                c /= 6;
            }
            if is_farkle(&r[..n as usize]) {
                count += 1;
            }
        }
        assert_eq!(count, farkles, "{n} dice");
    }
}
