//! The one translation between Farkle's host data and the bytes of ABI v1: the sandbox and the
//! native adapter both go through it, so every agent sees the same bytes.

use arena_abi::farkle::{
    decode_answer, Observation as AbiObservation, FLAG_FINAL_ROUND, MAX_SEATS, OBSERVATION_SIZE,
};
use arena_abi::{Decision, Envelope, ABI_VERSION, ENVELOPE_SIZE};

use super::player::{Answer, Observation};
use crate::game::{Fault, FaultKind, GameKind};

/// Writes the envelope and the observation payload; returns the length written.
pub fn encode_observation(obs: &Observation, buf: &mut [u8]) -> usize {
    Envelope {
        abi_version: ABI_VERSION,
        game: GameKind::Farkle.abi_id(),
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
    for (slot, &s) in scores.iter_mut().zip(obs.scores) {
        *slot = s;
    }
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
            format!("farkle_draft returned {ret}: unreadable answer ({e:?})"),
        )
    })?;
    Ok(Answer {
        action: a.action,
        draft: a.indices().to_vec(),
    })
}
