//! Scoring of one draft, and farkles.

use crate::FACES;

/// How many dice show each face: index `f` (1..=6) counts the faces `f`; index 0 counts the
/// faces that are not 1..=6 (which never score). Counts saturate at 255.
pub fn face_counts(faces: &[u8]) -> [u8; 7] {
    let mut counts = [0u8; 7];
    for &f in faces {
        let slot = if (1..=FACES).contains(&f) {
            f as usize
        } else {
            0
        };
        counts[slot] = counts[slot].saturating_add(1);
    }
    counts
}

/// Score of a draft given by its face counts (as [`face_counts`] returns them), or `None` when
/// some die scores nothing (or no die is drafted).
///
/// Per face, with `c` dice of that face: 1s score 1000 per triple and 100 per die left over
/// (four 1s = 1100, six 1s = 2000); 5s score 500 per triple and 50 per die left over (four 5s =
/// 550); a face `f` among 2, 3, 4, 6 scores `100 × f` per triple (six 2s = 400) and its dice left
/// over score nothing, which makes the draft illegal (four 2s). With at most six dice this is
/// exactly the table of the rules; larger counts (impossible with real dice) follow the same
/// triples-then-singles formula.
pub fn score_counts(counts: &[u8; 7]) -> Option<u32> {
    if counts[0] > 0 {
        return None;
    }
    let mut total = 0u32;
    let mut any = false;
    for (face, &c) in counts.iter().enumerate().skip(1) {
        if c == 0 {
            continue;
        }
        any = true;
        let (triples, left) = ((c / 3) as u32, (c % 3) as u32);
        let points = match face {
            1 => triples * 1000 + left * 100,
            5 => triples * 500 + left * 50,
            _ if left == 0 => triples * 100 * face as u32,
            _ => return None,
        };
        total += points;
    }
    any.then_some(total)
}

/// Score of drafting these faces together (one draft, scored on its own), or `None` when the
/// draft is illegal: it is empty, or some die scores nothing within it (a 2, 3, 4 or 6 outside a
/// triple, or a value that is not a face).
///
/// `score_draft(&[1, 1, 1, 1]) == Some(1100)`, `score_draft(&[2, 2, 2, 2]) == None`.
pub fn score_draft(faces: &[u8]) -> Option<u32> {
    score_counts(&face_counts(faces))
}

/// True when the roll has no 1, no 5 and no face three or more times: no draft is legal, and the
/// turn ends with its points lost. An empty roll is a farkle; values that are not faces never
/// score.
pub fn is_farkle(roll: &[u8]) -> bool {
    let counts = face_counts(roll);
    counts[1] == 0 && counts[5] == 0 && counts[1..].iter().all(|&c| c < 3)
}
