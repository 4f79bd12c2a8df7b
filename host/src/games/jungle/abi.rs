//! The one translation between Jungle's host data and the bytes of ABI v1: the sandbox and the
//! native adapter both go through it, so every agent sees the same bytes.

use arena_abi::jungle::{decode_answer, MAX_OBSERVATION_SIZE};
use arena_abi::{Decision, DecodeError, Envelope, ABI_VERSION, ENVELOPE_SIZE};
use jungle_rules::Move;

use super::rules::Ask;
use crate::game::{Fault, FaultKind};

/// Writes the envelope and the observation payload; returns the length written.
pub fn encode_observation(ask: &Ask, buf: &mut [u8]) -> usize {
    let obs = ask.observation;
    Envelope {
        abi_version: ABI_VERSION,
        game: super::INFO.agent.abi_id,
        decision: Decision::JungleMove,
        seat: ask.seat as u32,
        players: 2,
        turn: ask.turn,
        round: ask.round,
        payload_len: obs.size() as u32,
    }
    .encode(buf);
    obs.encode(&mut buf[ENVELOPE_SIZE..ENVELOPE_SIZE + MAX_OBSERVATION_SIZE]);
    ENVELOPE_SIZE + obs.size()
}

/// Reads `jungle_move`'s answer: `ret` is what the export returned, `buf` the exchange buffer.
/// An unreadable answer is a `bad_answer` fault; a readable move is judged later by the rules.
pub fn read_answer(ret: i32, buf: &[u8]) -> Result<Move, Fault> {
    decode_answer(ret, buf).map_err(|e| {
        let why = match e {
            DecodeError::TooShort { needed: 2, .. } => {
                "an answer has 2 bytes (the from and to squares), so it returns at least 2".into()
            }
            DecodeError::TooShort { .. } => {
                format!("more bytes than the exchange buffer has ({})", buf.len())
            }
            DecodeError::BadValue { offset } => format!(
                "the {} square (byte {offset}) is {}, not a square (0 to 62)",
                if offset == 0 { "from" } else { "to" },
                buf[offset]
            ),
        };
        Fault::new(
            FaultKind::BadAnswer,
            format!("jungle_move returned {ret}: {why}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::read_answer;

    #[test]
    fn unreadable_answers_are_explained_in_sentences() {
        let mut buf = vec![0u8; 8192];
        buf[0] = 20;
        buf[1] = 27;
        assert_eq!(read_answer(2, &buf).unwrap().to_string(), "g3g4");
        let detail = |ret, buf: &[u8]| read_answer(ret, buf).unwrap_err().detail;
        assert_eq!(
            detail(1, &buf),
            "jungle_move returned 1: an answer has 2 bytes (the from and to squares), so it \
             returns at least 2"
        );
        assert_eq!(
            detail(9000, &buf),
            "jungle_move returned 9000: more bytes than the exchange buffer has (8192)"
        );
        buf[1] = 63;
        assert_eq!(
            detail(2, &buf),
            "jungle_move returned 2: the to square (byte 1) is 63, not a square (0 to 62)"
        );
        buf[0] = 200;
        assert_eq!(
            detail(2, &buf),
            "jungle_move returned 2: the from square (byte 0) is 200, not a square (0 to 62)"
        );
    }
}
