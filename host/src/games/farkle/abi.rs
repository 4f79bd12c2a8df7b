//! The one translation between Farkle's host data and the bytes of ABI v1: the sandbox and the
//! native adapter both go through it, so every agent sees the same bytes.

use arena_abi::farkle::{
    decode_answer, Observation as AbiObservation, FLAG_FINAL_ROUND, MAX_SEATS, OBSERVATION_SIZE,
};
use arena_abi::{Decision, Envelope, ABI_VERSION, ENVELOPE_SIZE};

use super::turn::{Answer, Observation};
use crate::game::{Fault, FaultKind};

/// Writes the envelope and the observation payload; returns the length written.
pub fn encode_observation(obs: &Observation, buf: &mut [u8]) -> usize {
    Envelope {
        abi_version: ABI_VERSION,
        game: super::INFO.agent.abi_id,
        decision: Decision::FarkleDraft,
        seat: obs.seat as u32,
        players: obs.players as u32,
        turn: obs.turn,
        round: obs.round,
        payload_len: OBSERVATION_SIZE as u32,
    }
    .encode(buf);
    let mut faces = [0u8; farkle_rules::DICE];
    faces[..obs.dice.len()].copy_from_slice(obs.dice);
    let mut scores = [0u32; MAX_SEATS];
    scores[..obs.scores.len()].copy_from_slice(obs.scores);
    AbiObservation {
        target: obs.target,
        turn_points: obs.turn_points,
        roll_number: obs.roll,
        dice: obs.dice.len() as u32,
        faces,
        scores,
        flags: if obs.final_round { FLAG_FINAL_ROUND } else { 0 },
        turns_done: obs.turns_done,
        turn_cap: obs.round_cap,
    }
    .encode(&mut buf[ENVELOPE_SIZE..ENVELOPE_SIZE + OBSERVATION_SIZE]);
    ENVELOPE_SIZE + OBSERVATION_SIZE
}

/// Reads `farkle_draft`'s answer: `ret` is what the export returned, `buf` the exchange buffer.
/// An unreadable answer is a `bad_answer` fault; a readable one is judged later by the rules.
pub fn read_answer(ret: i32, buf: &[u8]) -> Result<Answer, Fault> {
    let a = decode_answer(ret, buf).map_err(|e| {
        Fault::new(
            FaultKind::BadAnswer,
            format!("farkle_draft returned {ret}: {e}"),
        )
    })?;
    Ok(Answer {
        action: a.action,
        draft: a.indices().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::read_answer;
    use crate::game::FaultKind;

    /// The fault detail of `farkle_draft` returning `ret` with `count` at offset 4 of a buffer of
    /// 8192 bytes.
    fn detail(ret: i32, count: u32) -> String {
        let mut buf = vec![0u8; 8192];
        buf[4..8].copy_from_slice(&count.to_le_bytes());
        let fault = read_answer(ret, &buf).unwrap_err();
        assert_eq!(fault.kind, FaultKind::BadAnswer);
        fault.detail
    }

    #[test]
    fn unreadable_answers_are_explained_in_sentences() {
        assert_eq!(
            detail(-1, 0),
            "farkle_draft returned -1: an answer has at least 8 bytes (the action and the count)"
        );
        assert_eq!(
            detail(2147483647, 0),
            "farkle_draft returned 2147483647: more bytes than the exchange buffer has (8192)"
        );
        assert_eq!(
            detail(64, 9),
            "farkle_draft returned 64: the answer drafts 9 dice (the count at offset 4), at most 6"
        );
        assert_eq!(
            detail(12, 2),
            "farkle_draft returned 12: drafting 2 dice takes 16 bytes (8 + 4 × 2), and the \
             answer has 12"
        );
        for (ret, count) in [(-1, 0), (2147483647, 0), (64, 9), (12, 2)] {
            let d = detail(ret, count);
            assert!(!d.contains("TooShort") && !d.contains('{'), "{d}");
        }
    }
}
