//! The ABI bytes every game shares: the envelope of the init call and its payload.

use arena_abi::{Decision, Envelope, InitPayload, ABI_VERSION, ENVELOPE_SIZE, INIT_PAYLOAD_SIZE};

use super::GameKind;

/// Writes the envelope and payload of `arena_init` into `buf`; returns the length written.
pub fn encode_init(
    game: GameKind,
    seat: usize,
    players: usize,
    seed: u64,
    round_cap: u32,
    buf: &mut [u8],
) -> usize {
    Envelope {
        abi_version: ABI_VERSION,
        game: game.abi_id(),
        decision: Decision::Init,
        seat: seat as u32,
        players: players as u32,
        turn: 0,
        round: 0,
        payload_len: INIT_PAYLOAD_SIZE as u32,
    }
    .encode(buf);
    InitPayload { seed, round_cap }
        .encode(&mut buf[ENVELOPE_SIZE..ENVELOPE_SIZE + INIT_PAYLOAD_SIZE]);
    ENVELOPE_SIZE + INIT_PAYLOAD_SIZE
}
