//! The one translation between light cycles' host data and the bytes of ABI v1: the sandbox and
//! the native adapter both go through it, so every agent sees the same bytes.

use arena_abi::lightcycles::{decode_answer, MAX_OBSERVATION_SIZE};
use arena_abi::{Decision, DecodeError, Envelope, ABI_VERSION, ENVELOPE_SIZE};
use lightcycles_rules::Turn;

use super::rules::Ask;
use crate::game::{Fault, FaultKind};

/// Writes the envelope (its turn and round: the tick the decision is for) and the observation
/// payload; returns the length written.
pub fn encode_observation(ask: &Ask, buf: &mut [u8]) -> usize {
    let obs = &ask.observation;
    Envelope {
        abi_version: ABI_VERSION,
        game: super::INFO.agent.abi_id,
        decision: Decision::LightcyclesTurn,
        seat: ask.seat as u32,
        players: obs.state.players() as u32,
        turn: ask.tick,
        round: ask.tick,
        payload_len: obs.size() as u32,
    }
    .encode(buf);
    obs.encode(&mut buf[ENVELOPE_SIZE..ENVELOPE_SIZE + MAX_OBSERVATION_SIZE]);
    ENVELOPE_SIZE + obs.size()
}

/// Reads `lightcycles_turn`'s answer: `ret` is what the export returned, `buf` the exchange
/// buffer. An unreadable answer is a `bad_answer` fault; every readable turn is played.
pub fn read_answer(ret: i32, buf: &[u8]) -> Result<Turn, Fault> {
    decode_answer(ret, buf).map_err(|e| {
        let why = match e {
            DecodeError::TooShort { needed: 1, .. } => {
                "an answer has 1 byte (the turn), so it returns at least 1".into()
            }
            DecodeError::TooShort { .. } => {
                format!("more bytes than the exchange buffer has ({})", buf.len())
            }
            DecodeError::BadValue { .. } => format!(
                "the turn (byte 0) is {}, not 0 (left), 1 (straight) or 2 (right)",
                buf[0]
            ),
        };
        Fault::new(
            FaultKind::BadAnswer,
            format!("lightcycles_turn returned {ret}: {why}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::read_answer;

    #[test]
    fn unreadable_answers_are_explained_in_sentences() {
        let mut buf = vec![0u8; 8192];
        buf[0] = 2;
        assert_eq!(read_answer(1, &buf).unwrap().name(), "right");
        let detail = |ret, buf: &[u8]| read_answer(ret, buf).unwrap_err().detail;
        assert_eq!(
            detail(0, &buf),
            "lightcycles_turn returned 0: an answer has 1 byte (the turn), so it returns at least 1"
        );
        assert_eq!(
            detail(9000, &buf),
            "lightcycles_turn returned 9000: more bytes than the exchange buffer has (8192)"
        );
        buf[0] = 7;
        assert_eq!(
            detail(1, &buf),
            "lightcycles_turn returned 1: the turn (byte 0) is 7, not 0 (left), 1 (straight) or \
             2 (right)"
        );
    }
}
